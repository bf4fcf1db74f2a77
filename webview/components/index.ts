// The only place that touches @vscode/webview-ui-toolkit. Its repository was archived in January
// 2025; swapping to @vscode-elements/elements means rewriting this folder and nothing else.
import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeDivider,
  vsCodeProgressRing,
  vsCodeTextArea,
  vsCodeTextField,
} from "@vscode/webview-ui-toolkit";

let registered = false;

function register(): void {
  if (registered) return;
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeDivider(), vsCodeProgressRing(), vsCodeTextArea(), vsCodeTextField());
  registered = true;
}

export function button(
  label: string,
  onClick: () => void,
  opts: { id?: string; secondary?: boolean; ariaLabel?: string; testId?: string } = {},
): HTMLElement {
  register();
  const el = document.createElement("vscode-button");
  el.textContent = label;
  if (opts.id) el.id = opts.id;
  if (opts.secondary) el.setAttribute("appearance", "secondary");
  // A short label ("Copy") said in full to a screen reader ("Copy the python code").
  if (opts.ariaLabel) el.setAttribute("aria-label", opts.ariaLabel);
  if (opts.testId) el.dataset.testid = opts.testId;
  el.addEventListener("click", onClick);
  return el;
}

/**
 * A toolbar button drawn as a codicon (issue 25 item 3): `label` is both its tooltip and its accessible
 * name, so what a screen reader says is what the pointer shows; `keys` (e.g. "Enter") joins the tooltip.
 */
export function iconButton(
  icon: string,
  label: string,
  onClick: () => void,
  opts: { id?: string; testId?: string; keys?: string } = {},
): HTMLElement {
  register();
  const el = document.createElement("vscode-button");
  el.setAttribute("appearance", "icon");
  const name = opts.keys ? `${label} (${opts.keys})` : label;
  el.setAttribute("aria-label", name);
  el.title = name;
  const glyph = document.createElement("span");
  glyph.className = `codicon codicon-${icon}`;
  glyph.setAttribute("aria-hidden", "true");
  el.append(glyph);
  if (opts.id) el.id = opts.id;
  if (opts.testId) el.dataset.testid = opts.testId;
  el.addEventListener("click", onClick);
  return el;
}

/** Enables or disables a button made by `button`. */
export function setEnabled(el: HTMLElement, enabled: boolean): void {
  el.toggleAttribute("disabled", !enabled);
}

/** A multi-line text box; `value()` reads it, `clear()` empties it. */
export function textArea(opts: { id?: string; placeholder?: string; label?: string } = {}): {
  el: HTMLElement;
  value(): string;
  set(value: string): void;
  clear(): void;
  focus(): void;
} {
  register();
  const el = document.createElement("vscode-text-area") as HTMLElement & { value: string };
  if (opts.id) el.id = opts.id;
  if (opts.placeholder) el.setAttribute("placeholder", opts.placeholder);
  if (opts.label) {
    const label = opts.label;
    el.setAttribute("aria-label", label);
    // The toolkit names a box without a visible label "Text area" when it connects (issue 25 item 5:
    // a screen reader said that): put back the name that matches what the box shows.
    new MutationObserver(() => {
      if (el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label);
    }).observe(el, { attributes: true, attributeFilter: ["aria-label"] });
  }
  el.setAttribute("resize", "vertical");
  el.setAttribute("rows", "3");
  return {
    el,
    value: () => el.value ?? "",
    set: (value: string) => {
      el.value = value;
    },
    clear: () => {
      el.value = "";
    },
    focus: () => el.focus(),
  };
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

/** A one-line text box with a visible label; `value()` reads it. */
export function textField(
  label: string,
  opts: { id?: string; placeholder?: string; value?: string } = {},
): { el: HTMLElement; value(): string } {
  register();
  const el = document.createElement("vscode-text-field") as HTMLElement & { value: string };
  el.textContent = label;
  if (opts.id) el.id = opts.id;
  if (opts.placeholder) el.setAttribute("placeholder", opts.placeholder);
  if (opts.value) el.setAttribute("value", opts.value);
  return { el, value: () => el.value ?? "" };
}

/** A determinate progress bar (the toolkit has only a spinner): `fraction` from 0 to 1. */
export function progressBar(fraction: number, label: string): HTMLElement {
  const el = document.createElement("progress");
  el.max = 1;
  el.value = Math.max(0, Math.min(1, fraction));
  el.setAttribute("aria-label", label);
  return el;
}
