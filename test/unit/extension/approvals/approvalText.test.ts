// What approvals show (the card, the notification) and the reasons the editor sends back (harness #8: approval and
// denial reasons are non-empty, bounded, single-line text).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { askText, notificationText, NOTIFY_MAX } from "../../../../extension/approvals/approvalText.js";
import { singleLine } from "../../../../shared/boundedText.js";
import { serverRequests } from "../../../../shared/protocol/index.js";

const request = (name: string, args: Record<string, unknown>, preview: unknown) =>
  serverRequests["approval/request"].params.parse({
    sessionId: "s",
    turnId: "r",
    call: { callId: "c", name, arguments: args },
    inputHash: "h",
    effectClass: "idempotent_write",
    preview,
  });

describe("approval text", () => {
  it("a reason is single-line, bounded and kept non-empty for any input (harness #8)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite", maxLength: 600 }), (text) => {
        const line = singleLine(text);
        assert.ok(!/[\r\n\u2028\u2029]/.test(line), `no line break in ${JSON.stringify(line)}`);
        assert.ok(line.length <= 240);
        if (text.trim()) assert.ok(line.length > 0);
        assert.ok(serverRequests["approval/request"].result.safeParse({ decision: "deny", reason: line || "deny" }).success);
      }),
    );
  });

  it("the card shows exactly what the call will do: the command with its folder, the URL (harness #8: the person sees what they approve)", () => {
    const shell = request("shell", { command: "echo a\necho b" }, { kind: "text", text: "run in /ws (timeout 60s):\necho a\necho b" });
    assert.equal(askText(shell), "run in /ws (timeout 60s):\necho a\necho b");
    assert.equal(notificationText(shell), "Hearth asks to run shell: run in /ws (timeout 60s):\necho a\necho b");
  });

  it("an ask too long for a notification is not cut there: the notification sends the person to the card", () => {
    const long = request("shell", { command: "x" }, { kind: "text", text: "y".repeat(NOTIFY_MAX + 1) });
    assert.equal(notificationText(long), null);
    assert.ok(notificationText(request("shell", { command: "x" }, { kind: "text", text: "y".repeat(NOTIFY_MAX) })));
  });
});
