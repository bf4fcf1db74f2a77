// The status bar item (issue 10, item 4): the model and the kernel's state — starting, loading,
// ready, busy, failed — and a click opens the model picker.
import * as vscode from "vscode";
import { modelDisplayName, type ModelSnapshot } from "../../shared/protocol/modelView.js";

export const SELECT_MODEL_COMMAND = "hearth.selectModel";

export function modelStatusText(s: ModelSnapshot): { state: string; text: string; tooltip: string } {
  const spec = s.spec ?? (s.setting || null);
  const name = spec ? modelDisplayName(spec) : "no model";
  let state: string;
  if (s.kernel === "failed") state = "failed";
  else if (s.kernel === "starting") state = "starting";
  else if (s.state === "loading")
    state = s.progress
      ? `${s.progress.phase === "download" ? "downloading" : "loading"} ${Math.floor(s.progress.fraction * 100)}%`
      : "loading";
  else if (s.state === "error") state = "failed";
  else if (s.busy) state = "busy";
  else if (s.state === "loaded") state = "ready";
  else state = spec ? "not loaded" : "choose a model";
  const detail = s.state === "error" && s.error ? `\n${s.error}` : "";
  return {
    state,
    text: `Hearth: ${name} · ${state}`,
    tooltip: `Hearth model: ${spec ?? "none"} (${state})${detail}\nClick to choose a model.`,
  };
}

export function createModelStatusBar(): { render(s: ModelSnapshot): void; item: vscode.StatusBarItem } {
  const item = vscode.window.createStatusBarItem("hearth.model", vscode.StatusBarAlignment.Right, 100);
  item.name = "Hearth Model";
  item.command = SELECT_MODEL_COMMAND;
  const render = (s: ModelSnapshot): void => {
    const { state, text, tooltip } = modelStatusText(s);
    const icon =
      state === "failed"
        ? "$(error)"
        : state === "busy" || state.startsWith("load") || state.startsWith("down") || state === "starting"
          ? "$(loading~spin)"
          : "$(hubot)";
    item.text = `${icon} ${text}`;
    item.tooltip = tooltip;
    item.accessibilityInformation = { label: text };
    item.backgroundColor = state === "failed" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    item.show();
  };
  return { render, item };
}
