// "Hearth: Select Model" (issue 10, item 3): the welcome's choices as a quick pick — the GGUF files
// on this machine, the recommended downloads, an OpenAI-compatible server, or a file to browse to.
import * as vscode from "vscode";
import { foundFacts, recommendedFacts, type ModelCatalog } from "../../shared/protocol/modelView.js";

type Pick = vscode.QuickPickItem & { spec?: string; action?: "server" | "browse" };

export function pickerItems(catalog: ModelCatalog, current: string): Pick[] {
  const mark = (spec: string) => (spec === current ? "$(check) " : "");
  return [
    { label: "On this machine", kind: vscode.QuickPickItemKind.Separator },
    ...catalog.found.map(
      (m): Pick => ({
        label: `${mark(m.path)}${m.name}`,
        spec: m.path,
        description: foundFacts(m),
        detail: m.path,
      }),
    ),
    { label: "$(folder-opened) Browse for a GGUF file…", action: "browse" },
    { label: "Download", kind: vscode.QuickPickItemKind.Separator },
    ...catalog.recommended.map(
      (r): Pick => ({
        label: `${mark(r.spec)}${r.isDefault ? "$(star-full) " : "$(cloud-download) "}${r.name}`,
        spec: r.spec,
        description: recommendedFacts(r),
      }),
    ),
    { label: "Server", kind: vscode.QuickPickItemKind.Separator },
    { label: "$(server) Use an OpenAI-compatible server…", action: "server", description: "Ollama, llama.cpp server, LM Studio, vLLM" },
  ];
}

/** Asks which model to use; undefined when the person backs out. */
export async function pickModel(catalog: ModelCatalog, current: string): Promise<string | undefined> {
  const choice = await vscode.window.showQuickPick(pickerItems(catalog, current), {
    title: "Hearth: Select Model",
    placeHolder: "Choose the model Hearth talks to",
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!choice) return undefined;
  if (choice.spec) return choice.spec;
  if (choice.action === "browse") {
    const files = await vscode.window.showOpenDialog({
      canSelectMany: false,
      filters: { "GGUF models": ["gguf"] },
      title: "Choose a GGUF model",
    });
    return files?.[0]?.fsPath;
  }
  return askServer();
}

/** URL and model of an OpenAI-compatible server; its key is set with "Hearth: Set API Key". */
export async function askServer(): Promise<string | undefined> {
  const url = await vscode.window.showInputBox({
    title: "OpenAI-compatible server (1/2)",
    prompt: "The server's base URL",
    value: "http://127.0.0.1:11434/v1",
    validateInput: (v) => serverUrlProblem(v),
  });
  if (!url) return undefined;
  const model = await vscode.window.showInputBox({
    title: "OpenAI-compatible server (2/2)",
    prompt: "The model's name on that server",
    validateInput: (v) => (v.trim() ? undefined : "Name the model, e.g. qwen2.5-coder:7b"),
  });
  if (!model) return undefined;
  return serverSpec(url, model);
}

export function serverUrlProblem(url: string): string | undefined {
  try {
    const u = new URL(url.trim());
    return u.protocol === "http:" || u.protocol === "https:" ? undefined : "Use an http:// or https:// URL";
  } catch {
    return "Not a URL: write it like http://127.0.0.1:11434/v1";
  }
}

export function serverSpec(url: string, model: string): string {
  return `openai:${url.trim().replace(/\/+$/, "")}#${model.trim()}`;
}
