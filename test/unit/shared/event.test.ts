// shared/event.ts: who an Emitter calls, in what order, and what disposing stops.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Emitter } from "../../../shared/event.js";
import type { IDisposable } from "../../../shared/lifecycle.js";

describe("Emitter", () => {
  it("calls every listener with the value, in subscription order; the same function subscribed twice is called twice", () => {
    const emitter = new Emitter<number>();
    const heard: string[] = [];
    const twice = (n: number) => heard.push(`twice ${n}`);
    emitter.event((n) => heard.push(`first ${n}`));
    emitter.event(twice);
    emitter.event(twice);
    emitter.fire(7);
    assert.deepEqual(heard, ["first 7", "twice 7", "twice 7"]);
  });

  it("a disposed subscription hears nothing more, and disposing it again changes nothing", () => {
    const emitter = new Emitter<string>();
    const heard: string[] = [];
    const listener = (s: string) => heard.push(s);
    const first = emitter.event(listener);
    emitter.event(listener);
    first.dispose();
    first.dispose();
    emitter.fire("a");
    assert.deepEqual(heard, ["a"], "only the second subscription of the same function remains");
  });

  it("a listener removed during a delivery is not called by it; one added during it hears the next one", () => {
    const emitter = new Emitter<number>();
    const heard: string[] = [];
    let second: IDisposable | undefined;
    emitter.event((n) => {
      heard.push(`first ${n}`);
      second?.dispose();
      if (n === 1) emitter.event((m) => heard.push(`added ${m}`));
    });
    second = emitter.event((n) => heard.push(`second ${n}`));
    emitter.fire(1);
    emitter.fire(2);
    assert.deepEqual(heard, ["first 1", "first 2", "added 2"]);
  });

  it("a disposed emitter calls nobody and takes no new listeners", () => {
    const emitter = new Emitter<void>();
    let calls = 0;
    emitter.event(() => calls++);
    emitter.dispose();
    emitter.fire();
    emitter.event(() => calls++).dispose();
    emitter.fire();
    assert.equal(calls, 0);
  });

  it("a listener that throws does not stop the delivery: every other listener hears it and the error is logged", (t) => {
    const logged: unknown[][] = [];
    t.mock.method(console, "error", (...args: unknown[]) => logged.push(args));
    const emitter = new Emitter<number>();
    const heard: string[] = [];
    emitter.event((n) => heard.push(`before ${n}`));
    emitter.event(() => {
      throw new Error("listener failed");
    });
    emitter.event((n) => heard.push(`after ${n}`));
    emitter.fire(3);
    assert.deepEqual(heard, ["before 3", "after 3"]);
    assert.equal(logged.length, 1);
    assert.match(String(logged[0]?.[0]), /listener/);
    assert.match(String(logged[0]?.[1]), /listener failed/);
  });
});
