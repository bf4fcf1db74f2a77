// llama.cpp's own OpenAI-compatible server (llama-server), built from the source node-llama-cpp
// bundles by buildLlamaTools.sh into the cache outside the clone, started on a free port with a
// synthetic model for the openai adapter's tests (issue 16, item 4). Nothing here fakes the server.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";

const CACHE = process.env.HEARTH_BENCH_CACHE ?? path.join(os.homedir(), ".cache", "hearth-bench");
export const LLAMA_SERVER_BIN = path.join(CACHE, "llama.cpp", "build", "bin", "llama-server");

/**
 * Server arguments for the random chat model: its weights write invalid UTF-8, which llama-server's
 * chat parser refuses (HTTP 500 in the middle of the stream), so a default grammar keeps it to
 * lowercase words, and `--ignore-eos` lets it run until max_tokens or the context is full (seconds
 * at ~1,000 tokens/s on one thread): a stream long enough to cancel or kill the server inside.
 * A request with tools brings its own grammar and replaces this one.
 */
export const WORDS_ONLY = ["--grammar", "root ::= [a-z ]+", "--ignore-eos"];

/**
 * `--logit-bias` arguments that keep a synthetic model to ASCII: its random weights pick byte
 * tokens that make invalid UTF-8 (in a tool call's path, too), and llama-server's chat parser
 * refuses such output with an HTTP 500 in the stream. Which tokens depends on the prompt, and
 * the kernel's prompt names a temporary folder, so without this a kernel test fails at random.
 */
export async function asciiOnly(model: string): Promise<string[]> {
  const info = await readGgufFileInfo(model);
  const tokens: readonly string[] = info.metadata.tokenizer?.ggml?.tokens ?? [];
  // Byte-level BPE writes byte b as one printable code point (GPT-2's table); other text is raw.
  const byteOf = new Map<string, number>();
  for (const [b, ch] of gpt2ByteTable()) byteOf.set(ch, b);
  const nonAscii = (token: string) =>
    [...token].some((ch) => {
      const b = byteOf.get(ch);
      return b === undefined ? ch.codePointAt(0)! > 0x7f : b > 0x7f;
    });
  return tokens.flatMap((t, id) => (nonAscii(t) ? ["--logit-bias", `${id}-inf`] : []));
}

/** GPT-2's byte → printable code point table (test/fixtures/make-tiny-model.mjs builds the vocabulary with it). */
function gpt2ByteTable(): Map<number, string> {
  const printable = [
    ...Array.from({ length: 94 }, (_, i) => 33 + i),
    ...Array.from({ length: 12 }, (_, i) => 161 + i),
    ...Array.from({ length: 82 }, (_, i) => 174 + i),
  ];
  const table = new Map<number, string>(printable.map((b) => [b, String.fromCodePoint(b)]));
  let n = 0;
  for (let b = 0; b < 256; b++) if (!table.has(b)) table.set(b, String.fromCodePoint(256 + n++));
  return table;
}

/** How much of the server's output is kept: enough for every request line of a test file. */
const LOG_KEPT = 1_000_000;

/** A first start maps the model and warms up; a tiny model is ready in well under a second. */
const READY_TIMEOUT_MS = 30_000;

export interface LlamaServerOptions {
  model: string;
  /** Extra llama-server arguments (a default grammar, --ignore-eos, ...). */
  args?: string[];
  /** Context size; 8,192 is what the synthetic models are trained for. */
  contextSize?: number;
  /** Requests served at once (llama-server's slots), each with the whole context; 1 by default. */
  slots?: number;
}

export interface LlamaServer {
  /** `http://127.0.0.1:PORT/v1`, what an `openai:` model setting names. */
  readonly baseUrl: string;
  readonly port: number;
  /** The running process's id; changes on restart. */
  readonly pid: number;
  /** Everything the server wrote, for failure messages. */
  log(): string;
  /** How many tasks it has logged as cancelled: it does when a client closes a request mid-generation. */
  cancelledTasks(): number;
  /** Sends `signal` and waits for the process to be gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Freezes the process (SIGSTOP) or thaws it (SIGCONT): a server that hangs with its connections open. */
  freeze(frozen: boolean): void;
  /** Starts the server again on the same port (after kill) and waits until it serves. */
  restart(): Promise<void>;
  /** Stops it for good (SIGKILL: it holds nothing worth a graceful stop); safe to call twice. */
  stop(): Promise<void>;
}

export function llamaServerBuilt(): boolean {
  return fs.existsSync(LLAMA_SERVER_BIN);
}

/** A port nobody listens on right now (the OS picks it; the server binds it a moment later). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

// Servers still running when the test process exits (a test that threw before its `after`) are
// killed here, so no llama-server outlives the suite.
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export async function startLlamaServer(opts: LlamaServerOptions): Promise<LlamaServer> {
  if (!llamaServerBuilt())
    throw new Error(
      `llama-server is not built at ${LLAMA_SERVER_BIN}; run \`bash test/support/buildLlamaTools.sh llama-server\` (node test/run.mjs does it before the integration suite)`,
    );
  const port = await freePort();
  const args = [
    ...["-m", opts.model, "--host", "127.0.0.1", "--port", String(port)],
    // One thread: the tests share two cores with the kernel under test. The context is per slot.
    ...["-c", String((opts.contextSize ?? 8192) * (opts.slots ?? 1)), "-np", String(opts.slots ?? 1), "-t", "1", "--no-webui"],
    ...(opts.args ?? []),
  ];
  let output = "";
  let child: ChildProcess;

  const launch = async () => {
    child = spawn(LLAMA_SERVER_BIN, args, { stdio: ["ignore", "pipe", "pipe"] });
    running.add(child);
    const started = child;
    started.once("exit", () => running.delete(started));
    for (const stream of [started.stdout!, started.stderr!])
      stream.setEncoding("utf8").on("data", (c: string) => {
        output = (output + c).slice(-LOG_KEPT);
      });
    await waitHealthy(started, port, () => output);
  };
  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once("exit", () => r()));

  await launch();
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    get pid() {
      return child.pid!;
    },
    log: () => output,
    cancelledTasks: () => (output.match(/stop: cancel task/g) ?? []).length,
    async kill(signal: NodeJS.Signals = "SIGKILL") {
      const c = child;
      c.kill(signal);
      await exited(c);
    },
    freeze(frozen: boolean) {
      child.kill(frozen ? "SIGSTOP" : "SIGCONT");
    },
    restart: launch,
    async stop() {
      const c = child;
      // SIGKILL ends a frozen process too.
      if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
      await exited(c);
    },
  };
}

/** Polls /health until it answers 200 (503 while the model loads); fails fast if the process exits. */
async function waitHealthy(child: ChildProcess, port: number, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`llama-server exited (${child.exitCode ?? child.signalCode}) before it served; its log:\n${log().slice(-3000)}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
      await res.body?.cancel();
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`llama-server did not become healthy within ${READY_TIMEOUT_MS / 1000} s; its log:\n${log().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
