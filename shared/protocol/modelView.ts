// The model part of the chat view (issue 10, items 3-4): what the extension shows (the welcome's
// choices, the model's state, a download's progress) and what the person picks.
import { z } from "zod";
import { formatBytes, formatTransfer } from "../byteFormat.js";
import { notifications, requests } from "./methods.js";
import { ModelState } from "./records.js";

export const ModelCatalog = requests["model/discover"].result;
export type ModelCatalog = z.infer<typeof ModelCatalog>;
export type ModelProgress = z.infer<(typeof notifications)["model/progress"]>;

export const ModelSnapshot = z.object({
  /** The `hearth.model` setting (empty: none; the view welcomes the person). */
  setting: z.string(),
  kernel: z.enum(["starting", "ready", "failed"]),
  state: ModelState,
  spec: z.string().nullable(),
  error: z.string().nullable(),
  /** A turn is running on the model. */
  busy: z.boolean(),
  progress: notifications["model/progress"].nullable(),
  catalog: ModelCatalog.nullable(),
});
export type ModelSnapshot = z.infer<typeof ModelSnapshot>;

export const ModelToWebview = [z.object({ type: z.literal("model/view"), model: ModelSnapshot })] as const;

export const ModelFromWebview = [
  z.object({ type: z.literal("model/use"), spec: z.string().min(1).max(4096) }),
  z.object({ type: z.literal("model/useServer"), url: z.string().min(1).max(2048), model: z.string().min(1).max(200) }),
  z.object({ type: z.literal("model/cancel") }),
  z.object({ type: z.literal("model/pick") }),
  z.object({ type: z.literal("model/setApiKey") }),
] as const;
export type ModelFromWebview = z.infer<(typeof ModelFromWebview)[number]>;

/** A short name for a model setting: the file name, the hf: file, or model@host for a server. */
export function modelDisplayName(spec: string): string {
  if (spec.startsWith("openai:")) {
    const rest = spec.slice("openai:".length);
    const hash = rest.lastIndexOf("#");
    let host = rest.slice(0, hash);
    try {
      host = new URL(host).host;
    } catch {
      // shown as written
    }
    return `${rest.slice(hash + 1)} @ ${host}`;
  }
  return spec
    .split(/[\\/]/)
    .pop()!
    .replace(/\.gguf$/i, "")
    .replace(/@.*$/, "");
}

/** A GGUF file's facts line, as the picker and the welcome show it: size, quantisation, where it was found. */
export function foundFacts(m: ModelCatalog["found"][number]): string {
  return `${formatBytes(m.sizeBytes)} · ${m.quantization ?? "unknown quantisation"} · ${m.source}`;
}

/** A recommended download's facts line, as the picker and the welcome show it: size, quantisation, marks. */
export function recommendedFacts(r: ModelCatalog["recommended"][number]): string {
  const marks = (r.isDefault ? " · recommended for this machine" : "") + (r.downloaded ? " · downloaded" : "");
  return `${formatBytes(r.sizeBytes)} · ${r.quantization}${marks}`;
}

/** "12 MB of 1.1 GB · 4.2 MB/s · 3 min left" for a download of known size; null for a load or an unknown size. */
export function downloadTransfer(p: ModelProgress | null | undefined): string | null {
  if (!(p?.phase === "download" && p.totalBytes)) return null;
  return formatTransfer({
    receivedBytes: p.receivedBytes ?? 0,
    totalBytes: p.totalBytes,
    bytesPerSecond: p.bytesPerSecond,
    secondsLeft: p.secondsLeft,
  });
}
