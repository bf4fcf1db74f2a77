// shared/lifecycle.ts: what a DisposableStore releases, when, and how often.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DisposableStore, toDisposable } from "../../../shared/lifecycle.js";

describe("toDisposable", () => {
  it("runs its release once, however often it is disposed", () => {
    let released = 0;
    const d = toDisposable(() => released++);
    d.dispose();
    d.dispose();
    assert.equal(released, 1);
  });
});

describe("DisposableStore", () => {
  it("disposes what it holds in the order it was added, once; a second dispose does nothing", () => {
    const order: string[] = [];
    const store = new DisposableStore();
    const first = toDisposable(() => order.push("first"));
    assert.equal(store.add(first), first, "add returns the item");
    store.add(toDisposable(() => order.push("second")));
    assert.equal(store.isDisposed, false);
    store.dispose();
    store.dispose();
    assert.deepEqual(order, ["first", "second"]);
    assert.equal(store.isDisposed, true);
  });

  it("disposes at once what is added after it was disposed (nothing leaks)", () => {
    const store = new DisposableStore();
    store.dispose();
    let released = false;
    store.add(toDisposable(() => (released = true)));
    assert.equal(released, true);
  });

  it("disposes every item even when one throws, then throws what was thrown", () => {
    const store = new DisposableStore();
    let later = false;
    store.add(
      toDisposable(() => {
        throw new Error("boom");
      }),
    );
    store.add(toDisposable(() => (later = true)));
    assert.throws(() => store.dispose(), /boom/);
    assert.equal(later, true, "the item after the failing one was still disposed");
    const two = new DisposableStore();
    for (const n of [1, 2])
      two.add(
        toDisposable(() => {
          throw new Error(`fail ${n}`);
        }),
      );
    assert.throws(
      () => two.dispose(),
      (e: unknown) => e instanceof AggregateError && e.errors.length === 2,
    );
  });
});
