// Issue 25 items 5 and 11 in a real DOM (jsdom): a History row's compact icon buttons say what they
// do in the same words to the pointer (tooltip) and to a screen reader (accessible name), name the
// chat they act on, draw no text of their own, and each does its own thing for its own chat; the row's
// open button is named with the words it shows.
import assert from "node:assert/strict";
import { it } from "node:test";
import type { SessionSummary } from "../../../shared/protocol/records.js";
import { webviewDom } from "../../support/webviewDom.js";

webviewDom();
const { SessionList } = await import("../../../webview/sessionList.js");

const chat = (n: number, title: string): SessionSummary => ({
  sessionId: `01900000-0000-7000-8000-00000000000${n}`,
  title,
  role: "coordinator",
  adapter: "scripted",
  model: "scripted:/tmp/notes.json",
  createdAt: "2026-12-01T10:00:00.000Z",
  updatedAt: "2026-12-01T10:00:00.000Z",
  activeTurnId: null,
});

it("History rows' icon buttons: the accessible name is the tooltip, names the chat, and each button acts on its own row (issue 25 item 11)", () => {
  const done: string[] = [];
  const list = new SessionList({
    open: (id) => done.push(`open ${id}`),
    rename: (id, title) => done.push(`rename ${id} ${title}`),
    hide: (id) => done.push(`hide ${id}`),
    erase: (id) => done.push(`erase ${id}`),
  });
  document.body.replaceChildren(list.node);
  const chats = [chat(1, "Parse helper"), chat(2, "")];
  list.show(chats, chats[0]!.sessionId);
  const rows = [...list.node.querySelectorAll<HTMLElement>('[data-testid="session-row"]')];
  assert.equal(rows.length, 2);
  rows.forEach((row, i) => {
    const title = chats[i]!.title || "Untitled chat";
    const icons = [...row.querySelectorAll<HTMLElement>("vscode-button")];
    assert.deepEqual(
      icons.map((b) => b.dataset.testid),
      ["session-rename", "session-hide", "session-erase"],
    );
    for (const b of icons) {
      assert.equal(b.getAttribute("aria-label"), b.title, `${b.dataset.testid}: its name is its tooltip`);
      assert.ok(b.title.includes(`"${title}"`), `${b.dataset.testid} names the chat: ${b.title}`);
      assert.equal(b.textContent?.trim(), "", `${b.dataset.testid} draws no text`);
      assert.equal(b.querySelector(".codicon")?.getAttribute("aria-hidden"), "true", "its glyph is not read out");
    }
    const open = row.querySelector<HTMLElement>('[data-testid="session-open"]')!;
    const shown = [...open.children].map((c) => c.textContent ?? "");
    assert.equal(open.getAttribute("aria-label"), `Open chat "${shown[0]}", ${shown[1]}`, "the open button is named with what it shows");
    icons[1]!.click();
    icons[2]!.click();
    open.click();
  });
  assert.deepEqual(done, [
    `hide ${chats[0]!.sessionId}`,
    `erase ${chats[0]!.sessionId}`,
    `open ${chats[0]!.sessionId}`,
    `hide ${chats[1]!.sessionId}`,
    `erase ${chats[1]!.sessionId}`,
    `open ${chats[1]!.sessionId}`,
  ]);
});
