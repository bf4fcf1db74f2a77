// Prompt files in the slash list (issue 27, item 3), in a real DOM (jsdom). Invariants: opening the
// list asks for the prompt files again, and a list that arrives while it is open shows them under
// the built-in commands, keeping the picked entry; the keys pick a prompt as they pick a command;
// `/name args` runs a listed prompt with its arguments and mode; a file named like a built-in is
// listed as such and the built-in runs; a file that cannot run is listed with its problem and refused
// when typed, never sent; text naming no command or prompt stays a message.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";
import type { PromptView } from "../../../shared/protocol/prompts.js";
import type { FromWebview } from "../../../shared/protocol/webview.js";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());
Object.assign(globalThis, { document: window.document });
const { SlashMenu } = await import("../../../webview/slashMenu.js");
const { PromptCommands } = await import("../../../webview/promptCommands.js");
const { slashRun } = await import("../../../webview/slashCommands.js");

const prompt = (name: string, more: Partial<PromptView> = {}): PromptView => ({
  name,
  description: `${name} it`,
  argumentHint: "",
  source: `.hearth/prompts/${name}.md`,
  origin: "hearth",
  mode: null,
  inputs: [],
  needs: { selection: false, file: false },
  ignored: [],
  ...more,
});
const LIST: PromptView[] = [
  prompt("review", { argumentHint: "FOCUS", mode: "ask" }),
  prompt("new", { description: "my own new" }),
  prompt("broken", { problem: ".hearth/prompts/broken.md: its front matter is not YAML" }),
];

function setup() {
  const sent: FromWebview[] = [];
  const prompts = new PromptCommands((m) => sent.push(m));
  const host = window.document.createElement("div");
  const box = window.document.createElement("textarea");
  host.append(box);
  window.document.body.append(host);
  const menu = new SlashMenu(box as unknown as HTMLElement & { value: string }, host as unknown as HTMLElement, {
    prompts: () => prompts.list(),
    opened: () => prompts.refresh(),
  });
  prompts.onChange = () => menu.promptsChanged();
  const type = (value: string) => {
    box.value = value;
    box.dispatchEvent(new window.Event("input"));
  };
  const key = (k: string) => box.dispatchEvent(new window.KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
  const items = () =>
    [...menu.node.querySelectorAll('[role="option"]')].map((o) => ({
      name: o.querySelector(".slash-name")!.textContent,
      hint: o.querySelector(".slash-hint")!.textContent,
      broken: o.classList.contains("broken"),
    }));
  const active = () => menu.node.querySelector('[aria-selected="true"] .slash-name')?.textContent;
  return { sent, prompts, menu, box, type, key, items, active };
}

describe("prompt files in the slash list (issue 27, item 3)", () => {
  it("opening the list asks for the prompt files once; the answer shows them under the built-ins, the pick kept", () => {
    const { sent, prompts, type, key, items, active } = setup();
    type("/");
    type("/r");
    type("/");
    assert.deepEqual(sent, [{ type: "prompts/refresh" }], "asked when the list opens, not at each key");
    key("ArrowDown");
    assert.equal(active(), "/compact");
    prompts.hear({ type: "prompts/list", list: { prompts: LIST, notes: [] } });
    assert.deepEqual(
      items().map((i) => i.name),
      ["/new", "/compact", "/undo", "/task MESSAGE", "/mode NAME", "/review FOCUS", "/new", "/broken"],
    );
    assert.equal(active(), "/compact", "the list arriving keeps what the keys picked");
    const [, , , , , review, clash, broken] = items();
    assert.deepEqual(review, { name: "/review FOCUS", hint: "review it", broken: false });
    assert.match(clash!.hint, /^\/new is a built-in command, which runs instead; rename \.hearth\/prompts\/new\.md/);
    assert.equal(clash!.broken, true);
    assert.deepEqual(broken, { name: "/broken", hint: ".hearth/prompts/broken.md: its front matter is not YAML", broken: true });
  });

  it("keys pick a prompt into the box as they pick a command; an error listing keeps the last list", () => {
    const { prompts, box, type, key, items } = setup();
    prompts.hear({ type: "prompts/list", list: { prompts: LIST, notes: [] } });
    type("/re");
    assert.deepEqual(
      items().map((i) => i.name),
      ["/review FOCUS"],
    );
    key("Enter");
    assert.equal(box.value, "/review ");
    prompts.hear({ type: "prompts/list", list: null, error: "Could not list the prompt files: gone" });
    type("/re");
    assert.deepEqual(
      items().map((i) => i.name),
      ["/review FOCUS"],
    );
  });

  it("a list arriving after the menu closed does not reopen it", () => {
    const { prompts, menu, type, key } = setup();
    type("/");
    key("Escape");
    prompts.hear({ type: "prompts/list", list: { prompts: LIST, notes: [] } });
    assert.equal(menu.node.hidden, true);
  });

  it("`/name args` runs a listed prompt with its mode; a built-in wins its name; a broken one is refused, not sent", () => {
    const { prompts } = setup();
    prompts.hear({ type: "prompts/list", list: { prompts: LIST, notes: [] } });
    const listed = prompts.list();
    assert.deepEqual(slashRun("/review  error paths \n", listed), { kind: "prompt", name: "review", args: "error paths", mode: "ask" });
    assert.deepEqual(slashRun("/new", listed), { kind: "new" });
    assert.deepEqual(slashRun("/broken now", listed), {
      kind: "refused",
      message: "/broken was not sent: .hearth/prompts/broken.md: its front matter is not YAML",
    });
    assert.deepEqual(slashRun("/reviews", listed), { kind: "message" });
    assert.deepEqual(slashRun("/review", []), { kind: "message" }, "no list yet: the text is a message as typed");
  });

  it("asks for the list again when a chat is shown or the folder's trust changes", () => {
    const { sent, prompts } = setup();
    assert.equal(prompts.hear({ type: "workspace/trust", restricted: false }), false);
    assert.equal(prompts.hear({ type: "chat/transcript", sessionId: null, messages: [] }), false);
    assert.deepEqual(sent, [{ type: "prompts/refresh" }, { type: "prompts/refresh" }]);
  });
});
