// Parses a model setting (issue 6, item 5): a GGUF file path, an `hf:` URI, an OpenAI-compatible
// server (`openai:URL#model`), or a scripted replay (`scripted:FILE`, used by tests).
import os from "node:os";
import path from "node:path";
import { ErrorCode, HearthError } from "../../shared/errors.js";

export type ModelSpec =
  | { kind: "gguf"; path: string }
  | { kind: "hf"; uri: string; repo: string; file: string | null; branch: string }
  | { kind: "openai"; baseUrl: string; model: string }
  | { kind: "scripted"; path: string };

const USAGE = "use a GGUF file path, hf:OWNER/REPO[:QUANT] or hf:OWNER/REPO/FILE.gguf, openai:URL#MODEL, or scripted:FILE";

export function parseModelSpec(raw: string, cwd = process.cwd()): ModelSpec {
  const spec = raw.trim();
  if (spec === "") throw refuse(raw, "the model setting is empty");
  if (spec.startsWith("openai:")) {
    const rest = spec.slice("openai:".length);
    const hash = rest.lastIndexOf("#");
    if (hash <= 0 || hash === rest.length - 1) throw refuse(raw, "an OpenAI-compatible model needs both a URL and a model name after #");
    const baseUrl = rest.slice(0, hash);
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw refuse(raw, `${baseUrl} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw refuse(raw, `${url.protocol} is not http: or https:`);
    return { kind: "openai", baseUrl: baseUrl.replace(/\/+$/, ""), model: rest.slice(hash + 1) };
  }
  if (spec.startsWith("scripted:")) {
    const file = spec.slice("scripted:".length);
    if (!file) throw refuse(raw, "scripted: needs a file");
    return { kind: "scripted", path: resolvePath(file, cwd) };
  }
  if (spec.startsWith("hf:") || spec.startsWith("huggingface:")) {
    const body = spec.slice(spec.indexOf(":") + 1).replace(/^\/+/, "");
    const [repoAndFile = "", branch = "main"] = body.split("@");
    const parts = repoAndFile.split("/");
    if (parts.length < 2 || !parts[0] || !parts[1]) throw refuse(raw, "an hf: URI names OWNER/REPO");
    const repo = `${parts[0]}/${parts[1]!.split(":")[0]}`;
    const file = parts.length > 2 ? parts.slice(2).join("/") : null;
    if (file !== null && !file.endsWith(".gguf")) throw refuse(raw, `${file} is not a .gguf file`);
    if (file?.split("/").includes("..")) throw refuse(raw, "a file inside the repository may not contain ..");
    return { kind: "hf", uri: spec, repo, file, branch };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) throw refuse(raw, "URLs other than hf: and openai: are not model settings");
  const file = resolvePath(spec, cwd);
  if (!file.toLowerCase().endsWith(".gguf")) throw refuse(raw, `${file} does not end in .gguf`);
  return { kind: "gguf", path: file };
}

function resolvePath(p: string, cwd: string): string {
  const expanded = p === "~" || p.startsWith("~/") ? path.join(os.homedir(), p.slice(1)) : p;
  return path.resolve(cwd, expanded);
}

function refuse(raw: string, why: string): HearthError {
  return new HearthError(ErrorCode.InvalidParams, `refused model setting ${JSON.stringify(raw)}: ${why}; ${USAGE}`);
}
