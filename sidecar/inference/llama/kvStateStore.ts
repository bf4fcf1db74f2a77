// Saved KV state of sessions, so a resumed session skips re-evaluating its history (issue 6, item 2).
// An entry is keyed by the model file, the chat wrapper and a digest of the token history the state
// encodes; it is used only when all three match the resumed prompt's prefix, otherwise the caller
// re-evaluates. Disk use is bounded: least recently used entries are evicted first.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface KvStateEntry {
  key: string;
  sessionKey: string;
  modelKey: string;
  wrapper: string;
  tokens: number[];
  bytes: number;
  lastUsedMs: number;
}

export interface KvStateMatch {
  entry: KvStateEntry;
  statePath: string;
  /** Tokens of the saved history that are a prefix of the new prompt. */
  commonPrefix: number;
}

export function tokensDigest(tokens: readonly number[]): string {
  return crypto.createHash("sha256").update(Int32Array.from(tokens)).digest("hex");
}

/** Identifies a model file's content cheaply: same path, size and mtime means the same weights. */
export function modelFileKey(modelPath: string): string {
  const st = fs.statSync(modelPath);
  return crypto
    .createHash("sha256")
    .update(`${path.resolve(modelPath)}\0${st.size}\0${st.mtimeMs}`)
    .digest("hex")
    .slice(0, 32);
}

export function commonPrefixLength(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

export class KvStateStore {
  constructor(
    readonly dir: string,
    readonly maxBytes: number,
    /** Below this many shared tokens a restore costs more than it saves. */
    readonly minReuseTokens = 16,
  ) {
    fs.mkdirSync(dir, { recursive: true });
  }

  keyFor(modelKey: string, wrapper: string, tokens: readonly number[]): string {
    return crypto
      .createHash("sha256")
      .update(`${modelKey}\0${wrapper}\0${tokensDigest(tokens)}`)
      .digest("hex")
      .slice(0, 40);
  }

  statePath(key: string): string {
    return path.join(this.dir, `${key}.kv`);
  }

  /** Saves through `write` (which writes the native state to the given path), then evicts over budget. */
  async save(
    meta: { sessionKey: string; modelKey: string; wrapper: string; tokens: readonly number[] },
    write: (file: string) => Promise<void>,
  ): Promise<KvStateEntry> {
    const key = this.keyFor(meta.modelKey, meta.wrapper, meta.tokens);
    const file = this.statePath(key);
    const tmp = `${file}.tmp-${process.pid}`;
    await write(tmp);
    fs.renameSync(tmp, file);
    const entry: KvStateEntry = { key, ...meta, tokens: [...meta.tokens], bytes: fs.statSync(file).size, lastUsedMs: Date.now() };
    fs.writeFileSync(path.join(this.dir, `${key}.json`), JSON.stringify(entry));
    // A session's older states are superseded by the newest one.
    for (const e of this.entries()) if (e.sessionKey === meta.sessionKey && e.key !== key) this.remove(e.key);
    this.evict();
    return entry;
  }

  /** The saved state sharing the longest prefix with `prompt` for this model and wrapper, if any. */
  find(modelKey: string, wrapper: string, prompt: readonly number[], sessionKey?: string): KvStateMatch | null {
    let best: KvStateMatch | null = null;
    for (const entry of this.entries()) {
      if (entry.modelKey !== modelKey || entry.wrapper !== wrapper) continue;
      if (this.keyFor(modelKey, wrapper, entry.tokens) !== entry.key) continue; // index and key disagree: not trusted
      const statePath = this.statePath(entry.key);
      if (!fs.existsSync(statePath)) continue;
      const commonPrefix = commonPrefixLength(entry.tokens, prompt);
      if (commonPrefix < this.minReuseTokens) continue;
      const better = !best || commonPrefix > best.commonPrefix || (commonPrefix === best.commonPrefix && entry.sessionKey === sessionKey);
      if (better) best = { entry, statePath, commonPrefix };
    }
    if (best) {
      best.entry.lastUsedMs = Date.now();
      fs.writeFileSync(path.join(this.dir, `${best.entry.key}.json`), JSON.stringify(best.entry));
    }
    return best;
  }

  entries(): KvStateEntry[] {
    const out: KvStateEntry[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!name.endsWith(".json")) continue;
      try {
        out.push(JSON.parse(fs.readFileSync(path.join(this.dir, name), "utf8")) as KvStateEntry);
      } catch {
        // A torn index file (crash mid-write): its state is unusable, drop both.
        this.remove(name.slice(0, -5));
      }
    }
    return out;
  }

  totalBytes(): number {
    return this.entries().reduce((a, e) => a + e.bytes, 0);
  }

  private evict(): void {
    const entries = this.entries().sort((a, b) => a.lastUsedMs - b.lastUsedMs);
    let total = entries.reduce((a, e) => a + e.bytes, 0);
    for (const e of entries) {
      if (total <= this.maxBytes) break;
      this.remove(e.key);
      total -= e.bytes;
    }
  }

  private remove(key: string): void {
    fs.rmSync(this.statePath(key), { force: true });
    fs.rmSync(path.join(this.dir, `${key}.json`), { force: true });
  }
}
