// The approval dialog's text and the reasons the editor sends back (spec 000 #8: approval and
// denial reasons are non-empty, bounded, single-line text).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { approvalDetail, DETAIL_MAX, describeCall, singleLine } from "../../../extension/approvals/approvalText.js";
import { serverRequests } from "../../../shared/protocol/index.js";

const request = (name: string, args: Record<string, unknown>, preview: unknown) =>
  serverRequests["approval/request"].params.parse({
    sessionId: "s", runId: "r", call: { callId: "c", name, arguments: args }, inputHash: "h", effectClass: "idempotent_write", preview,
  });

describe("approval text", () => {
  it("a reason is single-line, bounded and kept non-empty for any input (spec 000 #8)", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme-composite", maxLength: 600 }), (text) => {
      const line = singleLine(text, 240);
      assert.ok(!/[\r\n\u2028\u2029]/.test(line), `no line break in ${JSON.stringify(line)}`);
      assert.ok(line.length <= 240);
      if (text.trim()) assert.ok(line.length > 0);
      assert.ok(serverRequests["approval/request"].result.safeParse({ decision: "deny", reason: line || "deny" }).success);
    }));
  });

  it("the dialog names the tool, its target and effect; a multi-line command stays one line (spec 000 #8: the person sees what they approve)", () => {
    assert.equal(describeCall(request("write_file", { path: "a.txt", content: "x" }, { kind: "diff", path: "a.txt", diff: "+x" })),
      "Hearth wants to run write_file on a.txt (idempotent write)");
    assert.equal(describeCall(request("shell", { command: "echo a\necho b" }, { kind: "text", text: "echo a\necho b" })),
      "Hearth wants to run shell on echo a echo b (idempotent write)");
  });

  it("a long preview is cut in the dialog and says how much is left", () => {
    const diff = "+".repeat(DETAIL_MAX + 10);
    const detail = approvalDetail(request("write_file", { path: "a.txt" }, { kind: "diff", path: "a.txt", diff }));
    assert.ok(detail.startsWith("+".repeat(DETAIL_MAX)));
    assert.match(detail, /10 more characters; Show Diff shows all/);
  });
});
