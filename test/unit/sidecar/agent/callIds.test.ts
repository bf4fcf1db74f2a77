// The call id registry on its own (harness #4, #10): added after a mutation run of callIds.ts
// (docs/mutation.md), where a cursor that pointed nowhere still left every turn test green.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isUuidv7, uuidv7 } from "../../../../shared/ids.js";
import { CallIdRegistry } from "../../../../sidecar/agent/callIds.js";

describe("call id registry", () => {
  it("a rollback forgets only the ids minted after its cursor; ids committed before it stay known (harness #4 #10)", () => {
    const ids = new CallIdRegistry();
    const resumed = uuidv7();
    ids.adopt(resumed);
    const committed = ids.mint(); // an earlier turn's checkpointed call
    const cursor = ids.cursor(); // a new turn begins
    const rolledBack = [ids.mint(), ids.mint()];
    ids.rollback(cursor);
    assert.deepEqual([ids.has(resumed), ids.has(committed), ...rolledBack.map((id) => ids.has(id))], [true, true, false, false]);
    assert.throws(() => ids.adopt(committed), /appears twice/, "a committed id is still refused as a repeat");
    ids.adopt(rolledBack[0]!); // a forgotten id may come back from a resumed history without a reuse error
  });

  it("a rollback to a cursor taken before any mint keeps the adopted history (harness #4 #10)", () => {
    const ids = new CallIdRegistry();
    const cursor = ids.cursor();
    const resumed = uuidv7();
    ids.adopt(resumed);
    const minted = ids.mint();
    ids.rollback(cursor);
    assert.deepEqual([ids.has(resumed), ids.has(minted)], [true, false]);
  });

  it("mints distinct UUIDv7 ids and refuses a repeated or foreign id from history (harness #4)", () => {
    const ids = new CallIdRegistry();
    const minted = Array.from({ length: 50 }, () => ids.mint());
    assert.ok(minted.every(isUuidv7));
    assert.equal(new Set(minted).size, minted.length);
    assert.throws(() => ids.adopt(minted[0]!), /appears twice/);
    assert.throws(() => ids.adopt("call_1"), /not a kernel-minted UUIDv7/);
  });
});
