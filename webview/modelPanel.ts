// The model part of the chat view (issue 10, items 3-4). With no model set it is the welcome: the
// GGUF files on this machine, the recommended downloads (one marked for this machine), and an
// OpenAI-compatible server. While a model downloads or loads it shows the progress with Cancel;
// otherwise one line names the model and its state, with Change.
import {
  downloadTransfer,
  foundFacts,
  modelDisplayName,
  recommendedFacts,
  type ModelFromWebview,
  type ModelSnapshot,
} from "../shared/protocol/modelView.js";
import { button, iconButton, progressBar, textField } from "./components/index.js";
import { el } from "./dom.js";
import { errorActions, type ViewActions } from "./errorActions.js";

function choice(title: string, facts: string, action: HTMLElement, testId: string): HTMLElement {
  const row = el("li", "model-choice", undefined, testId);
  const text = el("div");
  text.append(el("div", undefined, title, "model-name"), el("div", undefined, facts, "model-facts"));
  row.append(text, action);
  return row;
}

function progressSection(m: ModelSnapshot, send: (message: ModelFromWebview) => void): HTMLElement {
  const p = m.progress;
  const name = modelDisplayName(m.spec ?? m.setting);
  const section = el("section", undefined, undefined, "model-progress");
  const what = p?.phase === "download" ? "Downloading" : "Loading";
  section.dataset.phase = p?.phase ?? "load";
  section.append(el("p", undefined, `${what} ${name}…`, "model-progress-title"), progressBar(p?.fraction ?? 0, `${what} ${name}`));
  const detail = downloadTransfer(p) ?? `${Math.floor((p?.fraction ?? 0) * 100)}%`;
  section.append(
    el("p", undefined, detail, "model-progress-detail"),
    button("Cancel", () => send({ type: "model/cancel" }), { id: "model-cancel", secondary: true }),
  );
  return section;
}

function welcome(m: ModelSnapshot, send: (message: ModelFromWebview) => void): HTMLElement {
  const section = el("section", undefined, undefined, "model-welcome");
  section.append(
    el("h2", undefined, "Welcome to Hearth"),
    el("p", undefined, "Choose the model Hearth talks to. It runs on this machine; nothing leaves it unless you choose a server."),
  );
  const catalog = m.catalog;
  if (!catalog) {
    section.append(
      el(
        "p",
        undefined,
        m.kernel === "failed"
          ? "The kernel did not start, so Hearth cannot list models: see above."
          : "Looking for models on this machine…",
      ),
    );
    return section;
  }
  section.append(el("h3", undefined, "On this machine"));
  if (catalog.found.length === 0) {
    section.append(
      el(
        "p",
        undefined,
        "No GGUF models found in LM Studio, Ollama, the Hugging Face cache, node-llama-cpp's folder or Hearth's models folder.",
        "no-models-found",
      ),
    );
  } else {
    const list = el("ul");
    for (const f of catalog.found) {
      const row = choice(
        f.name,
        foundFacts(f),
        button("Use", () => send({ type: "model/use", spec: f.path })),
        "found-model",
      );
      row.dataset.path = f.path;
      row.title = f.path;
      list.append(row);
    }
    section.append(list);
  }
  section.append(el("h3", undefined, "Download a code model"));
  const downloads = el("ul");
  for (const r of catalog.recommended) {
    const row = choice(
      r.name,
      recommendedFacts(r),
      button(r.downloaded ? "Use" : "Download", () => send({ type: "model/use", spec: r.spec }), { secondary: !r.isDefault }),
      "recommended-model",
    );
    row.dataset.spec = r.spec;
    row.dataset.default = String(r.isDefault);
    downloads.append(row);
  }
  section.append(downloads, el("h3", undefined, "Use an OpenAI-compatible server"));
  const url = textField("URL", { id: "server-url", value: "http://127.0.0.1:11434/v1" });
  const model = textField("Model", { id: "server-model", placeholder: "qwen2.5-coder:7b" });
  const row = el("div", "server-buttons");
  row.append(
    button(
      "Use server",
      () => {
        if (url.value().trim() && model.value().trim()) send({ type: "model/useServer", url: url.value(), model: model.value() });
      },
      { id: "use-server" },
    ),
    button("Set API key…", () => send({ type: "model/setApiKey" }), { id: "set-api-key", secondary: true }),
  );
  section.append(url.el, model.el, row);
  return section;
}

function modelLine(m: ModelSnapshot, send: (message: ModelFromWebview) => void): HTMLElement {
  const section = el("section", undefined, undefined, "model-line");
  const name = modelDisplayName(m.spec ?? m.setting);
  const state = m.state === "loaded" ? (m.busy ? "busy" : "ready") : m.state === "error" ? "failed" : "loads with the next message";
  section.dataset.state = m.state;
  const status = el("span", undefined, `Model: ${name} · ${state}`, "model-status");
  // One line in the header (issue 25 item 7): cut short, the whole of it in the tooltip.
  status.title = status.textContent ?? "";
  section.append(
    status,
    iconButton("arrow-swap", "Change the model", () => send({ type: "model/pick" }), { id: "model-change" }),
  );
  return section;
}

/**
 * The model part of the header: the welcome, a load's progress, or the model's line in `root`; a
 * model's error, with what to do, in `problem`, below the header's one line and as wide as the view.
 */
export function renderModel(
  root: HTMLElement,
  problem: HTMLElement,
  m: ModelSnapshot,
  send: (message: ModelFromWebview) => void,
  actions?: ViewActions,
): void {
  problem.replaceChildren();
  if (m.state === "loading") root.replaceChildren(progressSection(m, send));
  else if (!m.setting && m.state !== "loaded") root.replaceChildren(welcome(m, send));
  else {
    root.replaceChildren(modelLine(m, send));
    if (m.state === "error" && m.error) {
      problem.append(el("p", "error-text", m.error, "model-error"));
      if (actions) problem.append(errorActions("model", actions));
    }
  }
  root.dataset.shows = root.firstElementChild?.getAttribute("data-testid") ?? "";
}
