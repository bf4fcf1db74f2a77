// One answer per approval request (harness #8: exact, one-shot) whoever answers first: the card,
// a notification, the editor's lenses, or the turn's cancellation; and the reasons an edit
// proposal sends are single-line, bounded, and name the file and hunk.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CANCELLED, OneAnswer, type Answer } from "../../../../extension/approvals/oneAnswer.js";
import { hunkRejectedReason, typedWhilePendingReason } from "../../../../extension/edits/editReasons.js";
import { serverRequests } from "../../../../shared/protocol/index.js";

describe("one answer per approval request (harness #8)", () => {
  it("the first answer wins; a later one is refused and the clean-up runs once", async () => {
    const seen: Answer[] = [];
    const one = new OneAnswer(new AbortController().signal, (a) => seen.push(a));
    assert.equal(one.settle({ decision: "approve", reason: "allowed on its card" }), true);
    assert.equal(one.settle({ decision: "deny", reason: "denied from the notification" }), false);
    assert.deepEqual(await one.promise, { decision: "approve", reason: "allowed on its card" });
    assert.equal(seen.length, 1);
  });

  it("an unanswered request waits until the turn ends, then says it was cancelled (not a person's denial)", async () => {
    const turn = new AbortController();
    const one = new OneAnswer(turn.signal, () => undefined);
    const early = await Promise.race([one.promise, new Promise((r) => setTimeout(() => r("still waiting"), 20))]);
    assert.equal(early, "still waiting");
    turn.abort();
    assert.deepEqual(await one.promise, CANCELLED);
    assert.equal(one.settle({ decision: "approve", reason: "too late" }), false);
  });

  it("a reason is made one bounded line however it was written", async () => {
    const one = new OneAnswer(new AbortController().signal, () => undefined);
    one.settle({ decision: "deny", reason: `line one\nline two ${"x".repeat(500)}` });
    const answer = await one.promise;
    assert.ok(serverRequests["approval/request"].result.safeParse(answer).success);
    assert.match(answer.reason, /^line one line two x+…$/);
  });

  it("a rejected hunk's reason names the file and lines; a typed-in file's reason says the text stays (issue 14)", async () => {
    assert.equal(
      hunkRejectedReason("src/a.ts", { start: 2, removed: ["x", "y"], added: ["z"] }),
      "the person rejected the hunk at src/a.ts lines 3-4 (-2 +1) in the editor; nothing was written; propose the change again without that hunk",
    );
    assert.match(
      typedWhilePendingReason("src/a.ts"),
      /changed src\/a\.ts in the editor while the proposal was pending; their text is kept and nothing was written/,
    );
    for (const reason of [
      hunkRejectedReason("p".repeat(300), { start: 0, removed: [], added: ["a"] }),
      typedWhilePendingReason("q".repeat(300)),
    ]) {
      const one = new OneAnswer(new AbortController().signal, () => undefined);
      one.settle({ decision: "deny", reason });
      assert.ok((await one.promise).reason.length <= 240);
    }
  });

  it("keeps a card's 'Always allow' only with an approval: a denial never writes a rule (issue 27)", async () => {
    const approved = new OneAnswer(new AbortController().signal, () => undefined);
    approved.settle({ decision: "approve", reason: "allowed", surface: "card", alwaysAllow: true });
    assert.equal((await approved.promise).alwaysAllow, true);
    const denied = new OneAnswer(new AbortController().signal, () => undefined);
    denied.settle({ decision: "deny", reason: "no", surface: "card", alwaysAllow: true });
    assert.equal((await denied.promise).alwaysAllow, undefined);
  });
});
