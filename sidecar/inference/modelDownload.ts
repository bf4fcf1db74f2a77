// Downloads a model named by an hf: URI or an http(s) URL through node-llama-cpp's downloader
// (issue 10, item 4): parallel ranged requests, split GGUFs, and a stopped download keeps its
// `.ipull` file so the next attempt fetches only the chunks still missing. Offline, the error says
// what to do instead.
//
// The downloader writes into a staging folder of its own, never under the model's final name: ipull
// renames its file once its byte count reaches the total, and a count that includes a chunk asked for
// twice reaches it with parts still missing, cancelled or not. A file reaches the models folder only
// from a download that finished uncancelled with every byte of the total on disk (issue 23).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ModelDownloader } from "node-llama-cpp";
import { ErrorCode, HearthError, errorMessage } from "../../shared/errors.js";
import { USER_AGENT } from "../../shared/version.js";

export interface DownloadProgress {
  receivedBytes: number;
  totalBytes: number;
  bytesPerSecond: number;
  /** null until the speed is known. */
  secondsLeft: number | null;
}

/** Hearth writes `@branch` (modelSpec.ts); node-llama-cpp reads `#branch`. */
export function toDownloaderUri(uri: string): string {
  if (!/^(hf|huggingface):/.test(uri)) return uri;
  const at = uri.lastIndexOf("@");
  return at > 0 ? `${uri.slice(0, at)}#${uri.slice(at + 1)}` : uri;
}

/** The local file of a model URI that is already downloaded into `modelsDir`, without touching the network. */
export async function downloadedModelPath(uri: string, modelsDir: string): Promise<string | null> {
  const { resolveModelFile } = await import("node-llama-cpp");
  try {
    return await resolveModelFile(toDownloaderUri(uri), { directory: modelsDir, download: false, cli: false });
  } catch {
    return null;
  }
}

/** The folder under a models folder where downloads in progress live; model discovery skips it. */
export const STAGING_FOLDER = ".downloading";

/** Each URI stages in a folder of its own, so its split parts and its resume state stay together. */
function stagingDir(uri: string, modelsDir: string): string {
  return path.join(modelsDir, STAGING_FOLDER, createHash("sha256").update(uri).digest("hex").slice(0, 16));
}

/** A cancelled download settles behind the person's Cancel; the next attempt on its folder waits for that. */
const settling = new Map<string, Promise<void>>();

/** Resolves `uri` to a local file in `modelsDir`, downloading it (or its missing part) first. */
export async function downloadModel(
  uri: string,
  modelsDir: string,
  opts: { signal?: AbortSignal; onProgress?: (p: DownloadProgress) => void } = {},
): Promise<string> {
  const local = await downloadedModelPath(uri, modelsDir);
  if (local) return local;
  const staging = stagingDir(uri, modelsDir);
  await settling.get(staging);
  const { createModelDownloader } = await import("node-llama-cpp");
  // Speed over this attempt: bytes kept from an earlier attempt are not speed.
  let first: { at: number; bytes: number } | null = null;
  const progress = (received: number, total: number): DownloadProgress => {
    const now = performance.now();
    first ??= { at: now, bytes: received };
    const seconds = (now - first.at) / 1000;
    const bytesPerSecond = seconds > 0 ? (received - first.bytes) / seconds : 0;
    return {
      receivedBytes: received,
      totalBytes: total,
      bytesPerSecond,
      secondsLeft: bytesPerSecond > 0 ? (total - received) / bytesPerSecond : null,
    };
  };
  // The downloader retries an unreachable host for minutes: one quick probe says "offline" first.
  await probe(uri, opts.signal);
  let downloader: ModelDownloader;
  try {
    downloader = await createModelDownloader({
      modelUri: toDownloaderUri(uri),
      dirPath: staging,
      showCliProgress: false,
      // Every request names Hearth (harness #11). A cancelled download that ipull finished anyway (the
      // reason headers were once left out) stays in staging: promote() takes only an uncancelled one.
      headers: { "user-agent": USER_AGENT },
      // Kept on cancel: the next attempt resumes from the chunks already on disk.
      deleteTempFileOnCancel: false,
      onProgress: (s) => opts.onProgress?.(progress(s.downloadedSize, s.totalSize)),
    });
  } catch (e) {
    throw unreachable(uri, e);
  }
  const finalPath = path.join(modelsDir, downloader.entrypointFilename);
  // A URL names no file node-llama-cpp can resolve offline: its finished download is found here.
  if (wholeFiles(modelsDir, [downloader.entrypointFilename]) === downloader.totalSize) return finalPath;
  // The downloader's cancel waits for its open connections; a stalled one would hold the person's
  // Cancel until it times out. A cancel answers at once and the downloader closes behind it.
  const aborted = new Promise<never>((_, reject) => opts.signal?.addEventListener("abort", () => reject(cancelled(uri)), { once: true }));
  aborted.catch(() => undefined);
  const downloading = downloader.download({ signal: opts.signal });
  try {
    await Promise.race([downloading, aborted]);
  } catch (e) {
    if (opts.signal?.aborted) throw cancelledBehind(uri, staging, downloading);
    if (downloader.downloadedSize === 0) throw unreachable(uri, e);
    throw new HearthError(
      ErrorCode.ModelUnavailable,
      `the download of ${uri} stopped at ${downloader.downloadedSize} of ${downloader.totalSize} bytes ` +
        `(${errorMessage(e)}); load it again to resume from there`,
    );
  }
  // A cancelled download resolves (it does not throw) with the path it would have had.
  if (opts.signal?.aborted) throw cancelledBehind(uri, staging, downloading);
  return promote(uri, staging, modelsDir, downloader.totalSize, finalPath);
}

/** Moves a finished download's files from staging to the models folder, once their bytes add up to the total. */
function promote(uri: string, staging: string, modelsDir: string, totalSize: number, finalPath: string): string {
  const names = fs.readdirSync(staging).filter((n) => !n.endsWith(".ipull"));
  const onDisk = wholeFiles(staging, names);
  if (onDisk !== totalSize) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new HearthError(
      ErrorCode.ModelUnavailable,
      `the download of ${uri} ended with ${onDisk} of ${totalSize} bytes on disk, so it was discarded; ` +
        "load the model again to download it again",
    );
  }
  for (const n of names) fs.renameSync(path.join(staging, n), path.join(modelsDir, n));
  fs.rmSync(staging, { recursive: true, force: true });
  return finalPath;
}

/** The bytes of `names` in `dir`, or -1 when one of them is missing. */
function wholeFiles(dir: string, names: string[]): number {
  let total = 0;
  for (const n of names) {
    const size = fs.statSync(path.join(dir, n), { throwIfNoEntry: false })?.size;
    if (size === undefined) return -1;
    total += size;
  }
  return total;
}

/**
 * The cancel answers at once; behind it, once the downloader has closed, any file it renamed to a
 * final name is deleted: a cancelled download's count may have reached the total with parts missing.
 * Its `.ipull` files stay, so the next attempt resumes.
 */
function cancelledBehind(uri: string, staging: string, downloading: Promise<unknown>): HearthError {
  const done = downloading
    .catch(() => undefined)
    .then(() => {
      for (const n of fs.readdirSync(staging)) if (!n.endsWith(".ipull")) fs.rmSync(path.join(staging, n), { force: true });
    })
    .catch(() => undefined)
    .finally(() => settling.delete(staging));
  settling.set(staging, done);
  return cancelled(uri);
}

async function probe(uri: string, signal?: AbortSignal): Promise<void> {
  const endpoint = /^(hf|huggingface):/.test(uri) ? process.env.MODEL_ENDPOINT || process.env.HF_ENDPOINT || "https://huggingface.co" : uri;
  let origin: string;
  try {
    origin = new URL(endpoint).origin;
  } catch {
    throw new HearthError(
      ErrorCode.InvalidParams,
      `cannot download ${uri}: ${endpoint} is not a URL; check HF_ENDPOINT or the model setting`,
    );
  }
  try {
    const res = await fetch(origin, {
      method: "HEAD",
      headers: { "user-agent": USER_AGENT },
      redirect: "manual",
      signal: AbortSignal.any([AbortSignal.timeout(15_000), ...(signal ? [signal] : [])]),
    });
    await res.body?.cancel();
  } catch (e) {
    if (signal?.aborted) throw cancelled(uri);
    throw unreachable(uri, e);
  }
}

export function cancelled(uri: string): HearthError {
  return new HearthError(
    ErrorCode.ModelUnavailable,
    `the download of ${uri} was cancelled; what was downloaded is kept, and loading the model again resumes from there`,
    { cancelled: true },
  );
}

function unreachable(uri: string, e: unknown): HearthError {
  const message = errorMessage(e);
  const cause = (e as { cause?: { code?: string } }).cause?.code;
  if (/\b(404|401|403)\b/.test(message)) {
    return new HearthError(
      ErrorCode.ModelUnavailable,
      `cannot download ${uri}: ${message}; check the model name, or for a gated Hugging Face model set HF_TOKEN`,
    );
  }
  return new HearthError(
    ErrorCode.ModelUnavailable,
    `cannot reach the server to download ${uri} (${cause ?? message}); this machine looks offline. ` +
      "Connect and retry (a partial download resumes), or choose a GGUF file you already have (Hearth: " +
      "Select Model lists the ones Hearth found on this machine)",
  );
}
