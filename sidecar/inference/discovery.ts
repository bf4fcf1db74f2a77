// Finds GGUF models people already have (issue 6, item 5), so a first run needs no download:
// LM Studio, Ollama's content-addressed blobs, the Hugging Face cache, node-llama-cpp's folder and
// Hearth's own models folder (where its downloads go).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { STAGING_FOLDER } from "./modelDownload.js";

export type ModelSource = "lmstudio" | "ollama" | "huggingface" | "node-llama-cpp" | "hearth";

export interface DiscoveredModel {
  path: string;
  source: ModelSource;
  sizeBytes: number;
  /** A readable name: the file name, or the Ollama manifest's model name when known. */
  name: string;
}

export function modelLocations(home = os.homedir(), hearthModels?: string): { source: ModelSource; dir: string }[] {
  return [
    ...(hearthModels ? [{ source: "hearth" as const, dir: hearthModels }] : []),
    { source: "lmstudio", dir: path.join(home, ".lmstudio", "models") },
    { source: "lmstudio", dir: path.join(home, ".cache", "lm-studio", "models") },
    { source: "ollama", dir: path.join(home, ".ollama", "models", "blobs") },
    { source: "huggingface", dir: path.join(home, ".cache", "huggingface", "hub") },
    { source: "node-llama-cpp", dir: path.join(home, ".node-llama-cpp", "models") },
  ];
}

const MAX_DEPTH = 6;
const MAX_FILES = 10_000;

export function discoverModels(home = os.homedir(), hearthModels?: string): DiscoveredModel[] {
  const found = new Map<string, DiscoveredModel>();
  for (const { source, dir } of modelLocations(home, hearthModels)) {
    if (source === "ollama") for (const m of ollamaBlobs(dir)) found.set(m.path, m);
    else
      for (const file of walk(dir)) {
        if (!file.toLowerCase().endsWith(".gguf") || !isGguf(file)) continue;
        const real = safeRealpath(file);
        // The HF cache links snapshot names to blobs: report the readable name, once per blob.
        if (!real || [...found.values()].some((m) => safeRealpath(m.path) === real)) continue;
        found.set(file, { path: file, source, sizeBytes: fs.statSync(real).size, name: path.basename(file) });
      }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Ollama stores layers as sha256-<hex> blobs; only the GGUF ones (magic bytes) are models. */
function ollamaBlobs(dir: string): DiscoveredModel[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: DiscoveredModel[] = [];
  for (const n of names) {
    if (!n.startsWith("sha256")) continue;
    const file = path.join(dir, n);
    if (!isGguf(file)) continue;
    out.push({ path: file, source: "ollama", sizeBytes: fs.statSync(file).size, name: n });
  }
  return out;
}

export function isGguf(file: string): boolean {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, "r");
    const magic = Buffer.alloc(4);
    return fs.readSync(fd, magic, 0, 4, 0) === 4 && magic.toString("latin1") === "GGUF";
  } catch {
    return false;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

function* walk(dir: string, depth = 0, budget = { files: MAX_FILES }): Generator<string> {
  if (depth > MAX_DEPTH) return;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (--budget.files < 0) return;
    const p = path.join(dir, e.name);
    // Downloads in progress are not models yet (modelDownload.ts).
    if (e.isDirectory() && e.name !== STAGING_FOLDER) yield* walk(p, depth + 1, budget);
    else if (e.isFile() || e.isSymbolicLink()) yield p;
  }
}

function safeRealpath(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}
