// What reaches people in the chat view reads as plain words (issue 25 item 11: literal backticks and
// the kernel's words, "compact the session", "authority drifted", showed in messages), in a real DOM
// (jsdom): the notices, a failed turn's status line, the rewind menu's plan and outcome, and an
// approval card's Always allow show names as <code>, never between backticks, and no internal word.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { INTERNAL_WORDS } from "../../support/userFacingWords.js";
import { webviewDom } from "../../support/webviewDom.js";
import type { ToolCallRecord } from "../../../shared/protocol/records.js";
import { NO_MODEL } from "../../../extension/chat/chatController.js";
import { previewOf } from "../../../sidecar/kernel/undo/rewindFiles.js";

const window = webviewDom();
const { testTranscript } = await import("../../support/webviewTranscript.js");
const { turnStatus } = await import("../../../webview/turnStatus.js");
const { RewindMenus } = await import("../../../webview/rewindMenu.js");
const { ApprovalCards } = await import("../../../webview/approvalCards.js");

/** What a person reads of `node`: its text, with no backtick and no internal word; its code spans. */
function readsPlain(node: Element, what: string): string[] {
  const text = node.textContent ?? "";
  assert.doesNotMatch(text, /`/, `${what} shows a literal backtick: ${text}`);
  assert.doesNotMatch(text, INTERNAL_WORDS, `${what} uses an internal word: ${text}`);
  return Array.from(node.querySelectorAll("code")).map((c) => c.textContent ?? "");
}

/** Turn failures as the kernel words them (turnService.ts prefixes the failure's kind). */
const KERNEL_FAILURES = [
  "model_failed: the model round failed: refused: the prompt is 121819 tokens and this model's context holds 8192; compact the session or raise the context size",
  "model_failed: refused: this session is already running a turn; wait for it to finish or cancel it",
  "memory_failed: refused: the session journal failed (disk I/O error); rebuild the session from its journal",
  "internal_error: the agent harness failed unexpectedly: boom",
  "model_failed: the model round failed: all 2 model sessions are generating; retry when one finishes or raise the number of sessions",
  "tool_fatal: refused: `../x` leaves the workspace folder",
];

describe("plain words in the chat view (issue 25 item 11)", () => {
  it("a notice quotes a setting's name as code: the no-model notice shows hearth.model, not `hearth.model`", () => {
    const transcript = testTranscript(window as unknown as Window);
    transcript.notice("error", NO_MODEL);
    const notice = transcript.node.querySelector('[data-testid="chat-notice"]')!;
    assert.deepEqual(readsPlain(notice, "the no-model notice"), ["hearth.model"]);
  });

  it("a failed turn's status line says the kernel's refusal in the chat's words, names as code", () => {
    for (const message of KERNEL_FAILURES) {
      const [status] = turnStatus({ status: "failed", error: { message } });
      readsPlain(status!, message);
      assert.doesNotMatch(status!.textContent ?? "", /model_failed|memory_failed|internal_error|tool_fatal/);
    }
    const [overflow] = turnStatus({ status: "failed", error: { message: KERNEL_FAILURES[0]! } });
    assert.equal(
      overflow!.textContent,
      "Failed: the model could not answer: refused: the prompt is 121819 tokens and this model's context holds 8192; compact the chat or raise the context size",
    );
    const [outside] = turnStatus({ status: "failed", error: { message: KERNEL_FAILURES.at(-1)! } });
    assert.deepEqual(readsPlain(outside!, "a refusal naming a path"), ["../x"]);
    const [stopped] = turnStatus({
      status: "stopped",
      error: {
        message: "the model asked for tools in 8 rounds without answering; completed tool batches stay in the session, ask it to finish",
      },
    });
    readsPlain(stopped!, "a loop guard's stop");
  });

  it("the rewind menu's plan and its outcome show file names as code", () => {
    const transcript = window.document.createElement("div");
    const user = window.document.createElement("div");
    user.className = "msg user";
    user.dataset.seq = "3";
    transcript.append(user);
    window.document.body.replaceChildren(transcript);
    const menus = new RewindMenus(
      transcript as unknown as HTMLElement,
      () => undefined,
      () => undefined,
    );
    const file = previewOf({ path: "app.txt", action: "restored", reason: "", put: { content: Buffer.from("hello"), sha256: "" } });
    menus.hear({
      type: "rewind/preview",
      toSeq: 3,
      preview: {
        sessionId: "01900000-0000-7000-8000-000000000009",
        toSeq: 3,
        conversation: { fromSeq: 3, throughSeq: 4, messages: 2, turns: 1 },
        files: [file],
      },
    });
    const menu = transcript.querySelector('[data-testid="rewind-menu"]')!;
    assert.ok(readsPlain(menu, "the rewind menu").includes("app.txt"));
    menus.hear({ type: "rewind/result", toSeq: 3, files: [{ ...file, message: "restored `app.txt` to its 5 bytes before these turns" }] });
    const outcome = transcript.querySelector('[data-testid="rewind-outcome"]')!;
    assert.deepEqual(readsPlain(outcome, "the rewind's outcome"), ["app.txt"]);
  });

  it("a name in backticks is kept whole while the words around it change: list chats with `hearth sessions`", async () => {
    const { plainKernelText } = await import("../../../webview/kernelWords.js");
    assert.equal(
      plainKernelText("no session x in this journal; list sessions with `hearth sessions`"),
      "no chat x in this journal; list chats with `hearth sessions`",
    );
  });

  it("no failure kind reaches the chat: every kind a turn can fail with is dropped from the text shown", async () => {
    const { plainKernelText } = await import("../../../webview/kernelWords.js");
    const { TURN_FAILURE_KINDS } = await import("../../../shared/turnFailureKinds.js");
    for (const kind of TURN_FAILURE_KINDS) assert.equal(plainKernelText(`${kind}: it stopped`), "it stopped", kind);
  });

  it("an approval card's Always allow names the command as code", () => {
    const transcript = window.document.createElement("div");
    window.document.body.replaceChildren(transcript);
    const cards = new ApprovalCards(
      transcript as unknown as HTMLElement,
      () => undefined,
      () => undefined,
    );
    cards.pending({
      type: "approval/pending",
      turnId: "01900000-0000-7000-8000-000000000001",
      call: { callId: "c1", name: "shell", arguments: { command: "npm test" } } as unknown as ToolCallRecord,
      effectClass: "non_idempotent_write",
      ask: "npm test\nin /ws",
      alwaysAllow: "npm test",
    });
    const always = transcript.querySelector('[data-testid="approval-always"]')!;
    assert.deepEqual(readsPlain(always, "Always allow"), ["npm test"]);
    assert.equal(always.textContent, "Always allow npm test in this folder");
  });
});
