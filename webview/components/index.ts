// The only place that touches @vscode/webview-ui-toolkit. Its repository was archived in January
// 2025; swapping to @vscode-elements/elements means rewriting this folder and nothing else.
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeDivider, vsCodeProgressRing } from "@vscode/webview-ui-toolkit";

let registered = false;

function register(): void {
  if (registered) return;
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeDivider(), vsCodeProgressRing());
  registered = true;
}

export function button(label: string, onClick: () => void, opts: { id?: string; secondary?: boolean } = {}): HTMLElement {
  register();
  const el = document.createElement("vscode-button");
  el.textContent = label;
  if (opts.id) el.id = opts.id;
  if (opts.secondary) el.setAttribute("appearance", "secondary");
  el.addEventListener("click", onClick);
  return el;
}

export function spinner(label: string): HTMLElement {
  register();
  const el = document.createElement("vscode-progress-ring");
  el.setAttribute("aria-label", label);
  return el;
}

export function divider(): HTMLElement {
  register();
  return document.createElement("vscode-divider");
}
