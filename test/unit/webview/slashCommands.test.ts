// Slash commands and the mode picker in a real DOM (jsdom), issue 27 items 2 and 3. Invariants: the
// list opens only for a `/` at the very start, narrows as you type, moves with the arrow keys and
// picks with Enter or Tab without sending (its keys are taken before the box's); a typed command runs
// its action and any other text (a path such as /etc/hosts) stays a message; the picker falls back
// to Code when the picked mode is gone, and `/mode` refuses a mode there is none of, listing them.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";
import type { FromWebview } from "../../../shared/protocol/webview.js";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());
Object.assign(globalThis, { document: window.document });
const { SlashMenu } = await import("../../../webview/slashMenu.js");
const { ModePicker } = await import("../../../webview/modePicker.js");
const { slashRun, slashQuery } = await import("../../../webview/slashCommands.js");

function menu() {
  const host = window.document.createElement("div");
  const box = window.document.createElement("textarea");
  host.append(box);
  window.document.body.append(host);
  const m = new SlashMenu(box as unknown as HTMLElement & { value: string }, host as unknown as HTMLElement);
  let sent = 0; // the box's own Enter handler, as the composer's: it must not run while the list picks
  box.addEventListener("keydown", (e) => {
    if (e.key === "Enter") sent++;
  });
  const type = (value: string) => {
    box.value = value;
    box.dispatchEvent(new window.Event("input"));
  };
  const key = (k: string) => box.dispatchEvent(new window.KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
  const names = () => [...m.node.querySelectorAll('[role="option"]')].map((o) => o.querySelector(".slash-name")!.textContent);
  const active = () => m.node.querySelector('[aria-selected="true"] .slash-name')?.textContent;
  return { m, box, type, key, names, active, sent: () => sent };
}

describe("the slash-command list (issue 27, item 3)", () => {
  it("opens for `/` at the start, narrows as you type, and closes for anything else", () => {
    const { m, type, names } = menu();
    type("/");
    assert.deepEqual(names(), ["/new", "/compact", "/undo", "/task MESSAGE", "/mode NAME"]);
    assert.equal(m.node.hidden, false);
    type("/m");
    assert.deepEqual(names(), ["/mode NAME"]);
    for (const text of ["a /m", "/mode ", "/zz"]) {
      type(text);
      assert.equal(m.node.hidden, true, text);
    }
  });

  it("arrow keys move the selection; Enter picks it into the box and does not send", () => {
    const { box, type, key, active, sent, m } = menu();
    type("/");
    key("ArrowDown");
    key("ArrowDown");
    assert.equal(active(), "/undo");
    key("ArrowUp");
    key("ArrowUp");
    key("ArrowUp");
    assert.equal(active(), "/mode NAME", "ArrowUp from the first wraps to the last");
    key("Enter");
    assert.equal(box.value, "/mode ");
    assert.equal(sent(), 0, "Enter picked the command instead of sending");
    assert.equal(m.node.hidden, true);
    key("Enter");
    assert.equal(sent(), 1, "with the list closed, Enter is the box's again");
  });

  it("Tab picks too; Escape closes the list and leaves the text", () => {
    const { box, type, key, m } = menu();
    type("/co");
    key("Tab");
    assert.equal(box.value, "/compact");
    type("/");
    key("Escape");
    assert.equal(m.node.hidden, true);
    assert.equal(box.value, "/");
  });

  it("a typed command runs its action; other text starting with / is a message", () => {
    assert.deepEqual(slashRun("/new"), { kind: "new" });
    assert.deepEqual(slashRun("/task  fix the build \n"), { kind: "task", text: "fix the build" });
    assert.deepEqual(slashRun("/MODE plan"), { kind: "mode", name: "plan" });
    assert.deepEqual(slashRun("/etc/hosts is wrong"), { kind: "message" });
    assert.deepEqual(slashRun("/newline please"), { kind: "message" });
    assert.match((slashRun("/task") as { message: string }).message, /\/task needs the message to run/);
    assert.match((slashRun("/compact now") as { message: string }).message, /\/compact takes nothing after it; remove “now”/);
    assert.equal(slashQuery("/Mo"), "mo");
  });

  it("an MCP prompt runs as /server:prompt with its arguments (issue 28 item 5)", () => {
    const prompts = [{ name: "everything:args-prompt", hint: "", args: "", mode: null }];
    assert.deepEqual(slashRun("/everything:args-prompt  in Oslo", prompts), {
      kind: "prompt",
      name: "everything:args-prompt",
      args: "in Oslo",
      mode: null,
    });
    assert.equal(slashQuery("/everything:a"), "everything:a", "the list narrows on a name with a colon");
  });
});

describe("the mode picker (issue 27, item 2)", () => {
  const list = (names: string[]) => ({
    type: "modes/list" as const,
    list: { modes: names.map((name) => ({ name, description: `${name} mode`, tools: ["read"], source: "built-in" })), problems: [] },
  });

  it("starts in Code, picks a listed mode, falls back to Code when it is gone, and refuses an unknown one", () => {
    const sent: FromWebview[] = [];
    const p = new ModePicker((m) => sent.push(m));
    assert.equal(p.value(), "code");
    p.hear(list(["code", "ask", "plan", "reviewer"]));
    assert.equal(p.pick("reviewer"), null);
    assert.equal(p.value(), "reviewer");
    p.hear(list(["code", "ask", "plan"]));
    assert.equal(p.value(), "code", "a mode gone from the list falls back to Code, never to another");
    assert.equal(p.pick("reviewer"), "There is no mode “reviewer”. The modes are code, ask, plan; add one as .hearth/modes/reviewer.md.");
    assert.equal(p.value(), "code");
  });

  it("asks for the list again when a turn ends or the folder's trust changes", () => {
    const sent: FromWebview[] = [];
    const p = new ModePicker((m) => sent.push(m));
    p.hear({ type: "workspace/trust", restricted: false });
    p.hear({
      type: "chat/event",
      turnId: "01a23491-578c-7007-a5c6-2c7feee51ecc",
      event: { type: "completed", status: "completed" },
    } as never);
    assert.deepEqual(sent, [{ type: "modes/refresh" }, { type: "modes/refresh" }]);
  });
});
