import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DecisionGuard, GUARD_MS } from "../../../../extension/edits/decisionGuard.js";

describe("DecisionGuard: a key that decided one proposal never decides the next (issue 25 item 9)", () => {
  it("refuses a decision on another proposal right after one, and allows it once the window passed", () => {
    const guard = new DecisionGuard();
    assert.equal(guard.allows("a", 1_000), true);
    assert.equal(guard.allows("b", 1_000 + 80), false, "the second press");
    assert.equal(guard.allows("b", 1_000 + GUARD_MS - 1), false);
    assert.equal(guard.allows("b", 1_000 + GUARD_MS), true, "a deliberate press later counts");
  });

  it("a refused decision does not extend the window, and the same proposal is never blocked", () => {
    const guard = new DecisionGuard();
    guard.allows("a", 0);
    assert.equal(guard.allows("b", GUARD_MS - 10), false);
    assert.equal(guard.allows("b", GUARD_MS), true, "measured from the last counted decision");
    assert.equal(guard.allows("b", GUARD_MS + 1), true, "the same proposal again (it answers 'already answered')");
  });

  it("the first decision ever counts", () => {
    assert.equal(new DecisionGuard().allows("x", 0), true);
  });
});
