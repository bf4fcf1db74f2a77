// The one HTTP client of the network tools: http(s) only, a bounded body and time, cancellation
// honoured, and a User-Agent naming Hearth's exact version (harness #11).
import { USER_AGENT } from "../../shared/version.js";
import { errorMessage } from "../../shared/errors.js";

const MAX_REDIRECTS = 5;

export type HttpResult =
  | { ok: true; status: number; url: string; contentType: string; body: Buffer; truncated: boolean }
  | { ok: false; message: string };

export function parseHttpUrl(text: string): URL | null {
  try {
    const u = new URL(text);
    return u.protocol === "http:" || u.protocol === "https:" ? u : null;
  } catch {
    return null;
  }
}

/** GET `url`, following at most a few redirects, each re-checked as http(s). */
export async function httpGet(
  url: string,
  opts: { maxBytes: number; timeoutMs: number; signal: AbortSignal; accept?: string },
): Promise<HttpResult> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = AbortSignal.any([opts.signal, timeout]);
  let current = parseHttpUrl(url);
  if (!current) return { ok: false, message: `refused: ${JSON.stringify(url.slice(0, 200))} is not an http(s) URL` };
  try {
    for (let hop = 0; ; hop++) {
      const res = await fetch(current, {
        headers: { "user-agent": USER_AGENT, accept: opts.accept ?? "text/html,text/plain,application/json;q=0.9,*/*;q=0.5" },
        redirect: "manual",
        signal,
      });
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        const next = parseHttpUrl(new URL(location, current).toString());
        if (!next) return { ok: false, message: `refused: ${current} redirects to a non-http(s) URL` };
        if (hop >= MAX_REDIRECTS) return { ok: false, message: `refused: ${url} redirects more than ${MAX_REDIRECTS} times` };
        current = next;
        continue;
      }
      const { body, truncated } = await readCapped(res, opts.maxBytes);
      return { ok: true, status: res.status, url: current.toString(), contentType: res.headers.get("content-type") ?? "", body, truncated };
    }
  } catch (e) {
    if (opts.signal.aborted) return { ok: false, message: "cancelled: the request was aborted" };
    if (timeout.aborted) return { ok: false, message: `${url} did not answer within ${opts.timeoutMs} ms` };
    return {
      ok: false,
      message: `${url} could not be fetched: ${(e as Error).cause ? String((e as Error & { cause: unknown }).cause) : errorMessage(e)}`,
    };
  }
}

async function readCapped(res: Response, max: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const reader = res.body?.getReader();
  if (!reader) return { body: Buffer.alloc(0), truncated: false };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = max - size;
    if (value.length > room) {
      chunks.push(Buffer.from(value.subarray(0, room)));
      size = max;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(Buffer.from(value));
    size += value.length;
  }
  return { body: Buffer.concat(chunks), truncated };
}
