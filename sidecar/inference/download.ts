// Downloads a model file with progress and resume (issue 6, item 5): bytes go to `<dest>.partial`
// and a rerun continues with an HTTP Range request, so a broken connection costs nothing already
// fetched. Offline, the error says what to do instead.
import fs from "node:fs";
import path from "node:path";
import { ErrorCode, HearthError } from "../../shared/errors.js";
import type { ModelSpec } from "./modelSpec.js";

export interface DownloadProgress {
  receivedBytes: number;
  totalBytes: number | null;
  resumedFromBytes: number;
}

export async function downloadFile(url: string, dest: string, opts: { signal?: AbortSignal; onProgress?: (p: DownloadProgress) => void; headers?: Record<string, string> } = {}): Promise<string> {
  if (fs.existsSync(dest)) return dest;
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const partial = `${dest}.partial`;
  const have = fs.existsSync(partial) ? fs.statSync(partial).size : 0;
  let res: Response;
  try {
    res = await fetch(url, { headers: { ...opts.headers, ...(have > 0 ? { Range: `bytes=${have}-` } : {}) }, signal: opts.signal });
  } catch (e) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    throw offline(url, e);
  }
  let resumedFrom = 0;
  if (res.status === 206) resumedFrom = have;
  else if (res.status === 416 && have > 0) { // the partial file already holds everything
    fs.renameSync(partial, dest);
    return dest;
  } else if (!res.ok) {
    throw new HearthError(ErrorCode.ModelUnavailable, `download of ${url} failed: HTTP ${res.status} ${res.statusText}; check the model name, or for a gated Hugging Face model set HF_TOKEN`);
  }
  const length = Number(res.headers.get("content-length"));
  const total = Number.isFinite(length) && length > 0 ? resumedFrom + length : null;
  const out = fs.createWriteStream(partial, { flags: resumedFrom > 0 ? "a" : "w" });
  let received = resumedFrom;
  try {
    if (!res.body) throw new Error("empty response body");
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
      received += chunk.length;
      opts.onProgress?.({ receivedBytes: received, totalBytes: total, resumedFromBytes: resumedFrom });
    }
  } catch (e) {
    await new Promise<void>((r) => out.end(() => r()));
    if (opts.signal?.aborted) throw opts.signal.reason;
    throw new HearthError(ErrorCode.ModelUnavailable, `download of ${url} stopped after ${received} bytes (${(e as Error).message}); run it again to resume from there`);
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  if (total !== null && received !== total) {
    throw new HearthError(ErrorCode.ModelUnavailable, `download of ${url} ended at ${received} of ${total} bytes; run it again to resume`);
  }
  fs.renameSync(partial, dest);
  return dest;
}

/** Where an hf: model file lives, and its download URL. */
export function hfFileUrl(spec: Extract<ModelSpec, { kind: "hf" }>, file: string, endpoint = process.env.HF_ENDPOINT ?? "https://huggingface.co"): string {
  return `${endpoint}/${spec.repo}/resolve/${encodeURIComponent(spec.branch)}/${file.split("/").map(encodeURIComponent).join("/")}`;
}

/** Resolves an hf: spec to a local file, downloading it into `modelsDir` when it is not there yet. */
export async function resolveHfModel(spec: Extract<ModelSpec, { kind: "hf" }>, modelsDir: string, opts: { signal?: AbortSignal; onProgress?: (p: DownloadProgress) => void; endpoint?: string } = {}): Promise<string> {
  const endpoint = opts.endpoint ?? process.env.HF_ENDPOINT ?? "https://huggingface.co";
  const file = spec.file ?? await pickGgufFile(spec, endpoint, opts.signal);
  const dest = path.join(modelsDir, spec.repo.replace("/", "__"), file);
  const token = process.env.HF_TOKEN;
  return downloadFile(hfFileUrl(spec, file, endpoint), dest, { ...opts, headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

async function pickGgufFile(spec: Extract<ModelSpec, { kind: "hf" }>, endpoint: string, signal?: AbortSignal): Promise<string> {
  const quant = spec.uri.split("/")[1]?.split("@")[0]?.split(":")[1]?.toLowerCase() ?? null;
  const url = `${endpoint}/api/models/${spec.repo}/tree/${encodeURIComponent(spec.branch)}`;
  let res: Response;
  try {
    res = await fetch(url, { signal });
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw offline(url, e);
  }
  if (!res.ok) throw new HearthError(ErrorCode.ModelUnavailable, `cannot list ${spec.repo} on Hugging Face: HTTP ${res.status}; check the repository name`);
  const files = ((await res.json()) as { path: string }[]).map((f) => f.path).filter((p) => p.endsWith(".gguf"));
  const pick = files.find((f) => (quant ? f.toLowerCase().includes(quant) : /q4_k_m/i.test(f))) ?? (quant ? undefined : files[0]);
  if (!pick) throw new HearthError(ErrorCode.ModelUnavailable, `${spec.repo} has no GGUF file${quant ? ` for ${quant}` : ""}; name the file: hf:${spec.repo}/FILE.gguf`);
  return pick;
}

function offline(url: string, e: unknown): HearthError {
  const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
  return new HearthError(ErrorCode.ModelUnavailable, `cannot reach ${new URL(url).host} to download the model (${cause}); this machine looks offline. Connect and retry (a partial download resumes), or set the model to a GGUF file you already have (see the models Hearth found on this machine)`);
}
