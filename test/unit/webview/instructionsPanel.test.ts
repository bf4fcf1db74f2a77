// webview/instructionsPanel.ts in a real DOM (jsdom): the chat says which instruction files the next
// turn is shown and their token cost, a switch per source sends instructions/set, and the list is
// asked for again whenever it may have changed (issue 27, item 1).
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";
import type { InstructionsInForce } from "../../../shared/protocol/instructions.js";
import type { FromWebview } from "../../../shared/protocol/webview.js";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());
(globalThis as { document?: unknown }).document = window.document;
const { InstructionsPanel } = await import("../../../webview/instructionsPanel.js");

const source = (path: string, over: Partial<InstructionsInForce["sources"][number]> = {}) => ({
  path,
  origin: "agents" as const,
  scope: "",
  enabled: true,
  bytes: 400,
  shownBytes: 400,
  cut: null,
  tokens: 110,
  ...over,
});
const inForce = (sources: InstructionsInForce["sources"]): InstructionsInForce => ({
  sources,
  notes: [],
  tokens: sources.reduce((n, s) => n + s.tokens, 0),
  bounds: { perFileBytes: 16384, totalBytes: 32768 },
});

function panel() {
  const sent: FromWebview[] = [];
  const p = new InstructionsPanel((m) => sent.push(m));
  window.document.body.append(p.node as unknown as Node);
  return { p, sent };
}

describe("the chat's project instructions (issue 27, item 1)", () => {
  it("names the files in force and what they cost; each row says its state", () => {
    const { p } = panel();
    p.hear({
      type: "instructions/list",
      inForce: inForce([
        source("AGENTS.md"),
        source(".clinerules", { tokens: 20 }),
        source("pkg/AGENTS.md", { scope: "pkg", tokens: 5 }),
        source("CLAUDE.md", { enabled: false, shownBytes: 0, tokens: 0 }),
        source("hearth.instructions.personal", { origin: "person", cut: "total", shownBytes: 10, bytes: 900, tokens: 3 }),
      ]),
    });
    assert.equal(p.node.hidden, false);
    assert.equal(
      p.node.querySelector('[data-testid="instructions-summary"]')?.textContent,
      "Instructions: AGENTS.md, .clinerules, pkg/AGENTS.md, your own rules · ~138 tokens",
    );
    const rows = [...p.node.querySelectorAll('[data-testid="instructions-item"]')].map((r) => r.textContent);
    assert.deepEqual(rows, [
      " AGENTS.md~110 tokens",
      " .clinerules~20 tokens",
      " pkg/AGENTS.md~5 tokens · for files under pkg/",
      " CLAUDE.mdoff",
      " your own rules~3 tokens · cut to 10 of 900 bytes: the bound on all instructions",
    ]);
  });

  it("says how much of the total is Hearth's own heading, so the rows and the total add up", () => {
    const { p } = panel();
    p.hear({ type: "instructions/list", inForce: { ...inForce([source("AGENTS.md", { tokens: 13 })]), tokens: 50 } });
    assert.match(p.node.textContent ?? "", /~37 tokens of the total are Hearth's heading for them\./);
  });

  it("a switch sends instructions/set for its source; nothing else is sent on a click", () => {
    const { p, sent } = panel();
    p.hear({ type: "instructions/list", inForce: inForce([source("AGENTS.md"), source(".clinerules")]) });
    const box = p.node.querySelector('input[data-path=".clinerules"]') as HTMLInputElement;
    box.checked = false;
    box.dispatchEvent(new window.Event("change"));
    assert.deepEqual(sent, [{ type: "instructions/set", path: ".clinerules", enabled: false }]);
  });

  it("asks for the list again when the transcript is shown, a turn completes or trust changes; hidden with no sources", () => {
    const { p, sent } = panel();
    p.hear({ type: "instructions/list", inForce: inForce([]) });
    assert.equal(p.node.hidden, true, "a workspace without instruction files shows no panel");
    assert.equal(p.hear({ type: "workspace/trust", restricted: false }), false, "the trust banner still hears it");
    p.hear({ type: "chat/transcript", sessionId: null, messages: [] });
    assert.deepEqual(sent, [{ type: "instructions/refresh" }, { type: "instructions/refresh" }]);
  });

  it("says why the list could not be had instead of showing nothing", () => {
    const { p } = panel();
    p.hear({ type: "instructions/list", inForce: null, error: "Could not list the project instructions: the kernel stopped" });
    assert.equal(p.node.hidden, false);
    assert.match(p.node.textContent ?? "", /the kernel stopped/);
  });
});
