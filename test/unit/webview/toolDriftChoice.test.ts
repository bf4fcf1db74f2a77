// Issue 25 item 2 in a real DOM (jsdom): a turn refused because the tools Hearth offers changed offers
// both ways on, "Continue in a new chat" and "Use the old tools for this chat", each a button that
// does its own thing; a changed folder offers the new chat only (a chat works in one folder).
import assert from "node:assert/strict";
import { it } from "node:test";
import { webviewDom } from "../../support/webviewDom.js";

webviewDom();
const { failureActions } = await import("../../../webview/failureActions.js");
const { statusText } = await import("../../../webview/turnStatus.js");

const refusal = (what: string) =>
  `model_failed: refused to resume: the session's authority drifted (${what} changed since it was recorded); start a new session to run under the current tools and workspace`;

function rendered(what: string) {
  const clicked: string[] = [];
  const actions = new Proxy({} as Parameters<typeof failureActions>[2], {
    get: (_t, name: string) => () => clicked.push(name),
  });
  const event = { type: "completed" as const, status: "failed" as const, error: { code: 0, message: refusal(what) } };
  const row = failureActions(event, { sent: "and the tests?", earlierTurns: true }, actions, () => {});
  document.body.replaceChildren(row);
  const buttons = [...row.querySelectorAll<HTMLElement>("vscode-button")];
  return { clicked, buttons, labels: buttons.map((b) => b.textContent), status: statusText(event) };
}

it("a tool change offers a new chat and the old tools for this chat, each button doing its own (issue 25 item 2)", () => {
  const { clicked, buttons, labels, status } = rendered("tools");
  assert.deepEqual(labels, ["Continue in a new chat", "Use the old tools for this chat", "Open the log"]);
  buttons[1]!.click();
  buttons[0]!.click();
  assert.deepEqual(clicked, ["keepChatTools", "continueInNewChat"]);
  assert.match(
    status,
    /^The tools Hearth offers changed since this chat began\. Continue in a new chat: .* Or use the old tools for this chat: /,
  );
  assert.doesNotMatch(status, /authority|session|kernel|`/);
});

it("a changed folder, or changed tool limits Hearth cannot go back to, offers the new chat only", () => {
  for (const what of ["workspace", "tools, workspace", "ceilings"]) {
    const { labels, status } = rendered(what);
    assert.deepEqual(labels, ["Continue in a new chat", "Open the log"], what);
    assert.doesNotMatch(status, /old tools/, what);
  }
});
