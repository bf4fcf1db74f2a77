// A model error never breaks the header (issue 25 item 7), in a real DOM (jsdom) through
// webview/header.ts and webview/modelPanel.ts: the header's line keeps only the model's short status
// (its whole in a tooltip) and the error with its button goes to the full-width line below the header's
// line. jsdom lays nothing out: test/e2e/chatLayout.test.ts measures the widths in the workbench.
import assert from "node:assert/strict";
import { it } from "node:test";
import type { ModelSnapshot } from "../../../shared/protocol/modelView.js";
import { noViewActions } from "../../support/viewActions.js";
import { webviewDom } from "../../support/webviewDom.js";

webviewDom();
const { ChatHeader } = await import("../../../webview/header.js");
const { renderModel } = await import("../../../webview/modelPanel.js");

const noop = () => {};
const actions = noViewActions;
const MISSING = `/nonexistent/${"a-rather-long-folder-name/".repeat(6)}qwen2.5-coder-7b-instruct-q4_k_m.gguf`;
const ERROR = `The model file ${MISSING} (the hearth.model setting) does not exist. Choose a model with Hearth: Select Model, or correct the path in Settings.`;

it("a model's error goes below the header's line, as wide as the header, and the line keeps the model's short status (issue 25 item 7)", () => {
  const header = new ChatHeader({ ...actions, toggleHistory: noop });
  const model: ModelSnapshot = {
    setting: MISSING,
    kernel: "ready",
    state: "error",
    spec: null,
    error: ERROR,
    busy: false,
    progress: null,
    catalog: null,
  };
  renderModel(header.modelSlot, header.modelProblem, model, noop, actions);
  const row = header.node.querySelector(".chat-row")!;
  assert.equal(header.modelSlot.dataset.shows, "model-line", "the model stays a line in the header's row (chat.css keeps it one line)");
  assert.equal(row.textContent?.includes("does not exist"), false, "the error's words are not in the header's line");
  const status = row.querySelector<HTMLElement>('[data-testid="model-status"]')!;
  assert.equal(status.textContent, "Model: qwen2.5-coder-7b-instruct-q4_k_m · failed");
  assert.equal(status.title, status.textContent, "cut short in the line, whole in its tooltip");
  const error = header.node.querySelector('[data-testid="model-error"]')!;
  assert.equal(error.textContent, ERROR);
  // The problem is the header's own child after the row: a block of the header's width, not a flex item of the line.
  assert.equal(error.closest(".chat-row"), null);
  assert.equal(header.modelProblem.parentElement, header.node);
  assert.equal(header.modelProblem.previousElementSibling, row);
  assert.deepEqual(
    Array.from(header.modelProblem.querySelectorAll("vscode-button"), (b) => b.textContent),
    ["Select a model…", "Open the log"],
  );
});
