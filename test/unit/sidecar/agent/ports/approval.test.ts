// The default approval port on its own (harness #8): added after a mutation run of
// ports/approval.ts (docs/mutation.md), where its answer's `decision` was asserted by nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { uuidv7 } from "../../../../../shared/ids.js";
import { denyAllApprovals, inputHashOf, type ApprovalRequest } from "../../../../../sidecar/agent/index.js";
import { isBoundedReason } from "../../../../support/historyAssertions.js";

describe("default approval port", () => {
  it("with no approver the answer is a denial of exactly the call asked, with a bounded single-line reason (harness #8)", async () => {
    const call = { callId: uuidv7(), name: "write_file", arguments: { path: "a.txt", content: "x" } };
    const request: ApprovalRequest = {
      sessionKey: "s",
      turnId: uuidv7(),
      call,
      inputHash: inputHashOf(call.arguments),
      effectClass: "non_idempotent_write",
      preview: { kind: "text", text: "write a.txt" },
      signal: new AbortController().signal,
    };
    const answer = await denyAllApprovals.request(request);
    assert.equal(answer.decision, "deny");
    assert.equal(answer.callId, call.callId);
    assert.equal(answer.inputHash, request.inputHash);
    assert.ok(isBoundedReason(answer.reason));
  });
});
