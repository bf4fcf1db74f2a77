// A message the model refused as too long (issue 25 item 8, a 200 KB paste sent anyway), in a real DOM
// (jsdom) through webview/transcript.ts and webview/composer.ts: the chat says it in plain words with
// the model's numbers, offers to put the message back (cut to fit, or whole), never Compact, which
// could only answer "nothing to compact"; the box then measures by the model's numbers, so what was
// cut to fit is sent without another warning. Compact stays for a context failure with earlier turns.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { MessageTooLong, TurnEvent } from "../../../shared/protocol/records.js";
import { INTERNAL_WORDS } from "../../support/userFacingWords.js";
import { webviewDom } from "../../support/webviewDom.js";

const window = webviewDom();
const { testTranscript } = await import("../../support/webviewTranscript.js");
const { Composer } = await import("../../../webview/composer.js");
const { measuredRoom, splitPaste, withPaste } = await import("../../../webview/longPaste.js");

const TURN = "01900000-0000-7000-8000-0000000000c1";
const TOO_LONG: MessageTooLong = { messageTokens: 31_114, roomTokens: 2_345, contextSize: 4_096 };
const LOG = "2026-12-01 21:00:00 [info] a line of a long log that someone pasted\n".repeat(2_000);
const SENT = withPaste("Summarize this log", LOG);
const refused: TurnEvent = {
  type: "completed",
  status: "failed",
  error: { code: -31912, message: "refused: the message is 31,114 tokens, …" },
  tooLong: TOO_LONG,
};

const click = (node: Element | null | undefined) => (node as HTMLElement).click();
const buttons = (node: HTMLElement) => Array.from(node.querySelectorAll("[data-testid=error-actions] vscode-button"), (b) => b.textContent);

function composer() {
  const sent: string[] = [];
  const c = new Composer({ send: (text) => sent.push(text), requestContext() {}, background() {}, stop() {}, newChat() {} });
  window.document.body.append(c.node);
  const box = c.node.querySelector<HTMLElement & { value: string }>("#message")!;
  const press = () => box.dispatchEvent(new window.KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
  return { c, sent, box, press, chip: () => c.node.querySelector('[data-testid="paste-chip"]')?.textContent ?? null };
}

describe("a message too long for the model (issue 25 item 8)", () => {
  it("the failure says how long the message is and the room a message has, in plain words, with put-back buttons and no Compact", () => {
    const putBacks: [string, MessageTooLong, boolean][] = [];
    const heard: string[] = [];
    const t = testTranscript(
      window as unknown as Window,
      {},
      {
        putBack: (...a) => void putBacks.push(a),
        onTooLong: (message) => void heard.push(message),
      },
    );
    t.startTurn(TURN, SENT);
    t.event(TURN, refused);
    const status = t.node.querySelector('[data-testid="turn-status"]')?.textContent ?? "";
    assert.equal(
      status,
      "Too long for the model: this message is 31,114 tokens, and a message may take 2,345 of the 4,096 tokens the model " +
        "reads at once (the rest holds Hearth's instructions and the answer). The model did not see it, and the chat goes on " +
        "without it: shorten it and send it again.",
    );
    assert.doesNotMatch(status, INTERNAL_WORDS);
    assert.doesNotMatch(status, /`|kernel|model_failed|compact/i);
    assert.deepEqual(buttons(t.node), ["Put back the part that fits", "Put it back in the box"]);
    assert.deepEqual(heard, [SENT], "the box hears the model's numbers at once");
    click(t.node.querySelector('[data-testid="action-put-back-trimmed"]'));
    click(t.node.querySelector('[data-testid="action-put-back"]'));
    assert.deepEqual(putBacks, [
      [SENT, TOO_LONG, true],
      [SENT, TOO_LONG, false],
    ]);
  });

  it("a reloaded chat says the same words for the refused message", () => {
    const t = testTranscript(window as unknown as Window);
    t.show([{ seq: 1, role: "user", text: SENT }], {
      sessionId: "01900000-0000-7000-8000-00000000000a",
      endings: { "1": { status: "failed", message: "refused: …", tooLong: TOO_LONG } },
    });
    assert.match(
      t.node.querySelector('[data-testid="turn-status"]')?.textContent ?? "",
      /^Too long for the model: this message is 31,114 tokens/,
    );
  });

  it("Compact is offered for a context failure only where an earlier turn could be condensed", () => {
    const contextFailure: TurnEvent = {
      type: "completed",
      status: "failed",
      error: { code: -32603, message: "model_failed: the server said the context length was exceeded" },
    };
    const t = testTranscript(window as unknown as Window);
    t.startTurn(TURN, "first message");
    t.event(TURN, contextFailure);
    assert.deepEqual(buttons(t.node), ["Open the log"], "the first turn: nothing earlier to compact");
    const second = "01900000-0000-7000-8000-0000000000c2";
    t.startTurn(second, "second message");
    t.event(second, contextFailure);
    assert.deepEqual(buttons(t.node).slice(1), ["Compact the chat", "Open the log"]);
  });

  it("put back cut to fit: the typed text in the box, the paste as a chip cut to the model's room, sent on Enter without another warning", () => {
    const { c, sent, box, press, chip } = composer();
    c.setMeasuredRoom(measuredRoom(SENT, TOO_LONG));
    assert.equal(c.putBack(SENT, true), true);
    assert.equal(box.value, "Summarize this log");
    const room = measuredRoom(SENT, TOO_LONG);
    const tokens = Number(/≈([\d,]+) tokens/.exec(chip() ?? "")?.[1]?.replace(/,/g, ""));
    assert.ok(chip()?.startsWith("Pasted text · "), String(chip()));
    press();
    assert.equal(c.node.querySelector('[data-testid="paste-warning"]'), null, "no warning: it was cut to the room the model measured");
    assert.equal(sent.length, 1);
    const kept = splitPaste(sent[0]!);
    assert.equal(kept.typed, "Summarize this log");
    assert.ok(LOG.startsWith(kept.paste ?? ""), "the first part of the paste is kept");
    assert.ok(sent[0]!.length <= room.roomTokens * room.charsPerToken, `${sent[0]!.length} characters for ${room.roomTokens} tokens`);
    assert.ok(sent[0]!.length > 0.8 * room.roomTokens * room.charsPerToken, "it is cut to the room, not emptied");
    assert.ok(tokens > 0);
    c.node.remove();
  });

  it("put back whole: the paste comes back as its chip, and a send is held with the model's numbers; a box holding another message is left alone", () => {
    const { c, sent, box, press, chip } = composer();
    c.setMeasuredRoom(measuredRoom(SENT, TOO_LONG));
    assert.equal(c.putBack(SENT, false), true);
    assert.equal(box.value, "Summarize this log");
    assert.match(chip() ?? "", /^Pasted text · 2,001 lines · /);
    press();
    const warning = c.node.querySelector('[data-testid="paste-warning"]')?.textContent ?? "";
    assert.match(warning, /room for ≈2,110 \(the model reads 4,096 tokens at once\)/, warning);
    assert.equal(sent.length, 0);
    assert.equal(c.putBack(SENT, true), false, "the box holds the message already: nothing is replaced");
    c.node.remove();
  });
});
