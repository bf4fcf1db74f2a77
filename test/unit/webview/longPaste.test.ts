// webview/longPaste.ts: a long paste's estimate, the room a chat has, and the message it becomes (issue 25 item 8).
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());
(globalThis as { document?: unknown }).document = window.document;
const { estimateTokens, measuredRoom, pasteChip, roomFor, splitPaste, withPaste } = await import("../../../webview/longPaste.js");

describe("long pastes (issue 25 item 8)", () => {
  it("the room a message has is the context left after what the chat used and what the prompt and answer need", () => {
    assert.deepEqual(roomFor({ usedTokens: 1_000, contextSize: 8_192 }), { room: 4_192, size: 8_192, used: 1_000, charsPerToken: 4 });
    assert.deepEqual(
      roomFor(undefined),
      { room: 5_192, size: 8_192, used: 0, charsPerToken: 4 },
      "a new chat: the engine's default window",
    );
    assert.equal(roomFor({ usedTokens: 8_000, contextSize: 8_192 }).room, 0, "never negative");
  });

  it("once the model refused a message as too long, its numbers replace the estimate: the room less a tenth, the message's own characters a token", () => {
    const measured = measuredRoom("x".repeat(30_000), { messageTokens: 10_000, roomTokens: 2_000, contextSize: 4_096 });
    assert.deepEqual(measured, { roomTokens: 1_800, contextSize: 4_096, charsPerToken: 3 });
    assert.deepEqual(roomFor({ usedTokens: 100, contextSize: 4_096 }, measured), { room: 1_800, size: 4_096, charsPerToken: 3 });
  });

  it("a message given back to the box splits into the typed text and its paste again; a short block or plain text stays typed", () => {
    const paste = "line\n".repeat(2_000);
    assert.deepEqual(splitPaste(withPaste("Look", paste)), { typed: "Look", paste });
    assert.deepEqual(splitPaste(withPaste("", `x \`\`\` y ${paste}`).trim()), { typed: "", paste: `x \`\`\` y ${paste}` });
    assert.deepEqual(splitPaste(withPaste("Look", "short")), { typed: withPaste("Look", "short") });
    assert.deepEqual(splitPaste("just text"), { typed: "just text" });
  });

  it("the paste follows the typed text as a fenced block whose fence the paste cannot close", () => {
    assert.equal(withPaste("Look", "a\nb"), "Look\n\n```\na\nb\n```");
    assert.equal(withPaste("Look", "x ``` y"), "Look\n\n````\nx ``` y\n````");
    assert.equal(withPaste("Look", undefined), "Look");
  });

  it("the chip names the paste's lines, bytes and estimated tokens, and its × removes it", () => {
    let removed = false;
    const chip = pasteChip("é".repeat(4_000), () => (removed = true));
    assert.equal(chip.querySelector(".chip-label")?.textContent, "Pasted text · 1 lines · 7.8 KB · ≈1,000 tokens");
    (chip.querySelector("button") as unknown as { click(): void }).click();
    assert.equal(removed, true);
    assert.equal(estimateTokens("abcde"), 2);
  });
});
