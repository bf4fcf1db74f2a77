// The MCP stdio transport the kernel owns (issue 28, item 2): the server runs as the leader of its own
// process group in the workspace folder with a cleared environment (a locale, PATH and HOME, as the
// shell tool, plus only the variables its configuration names); one message is bounded in size, a
// line that is no JSON-RPC message is counted and dropped, stderr keeps its last bytes for the log.
// close() ends the whole group: stdin closed, SIGTERM, SIGKILL after a grace (the MCP spec's order).
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../../../shared/errors.js";

/** A message larger than this ends the server: a flood cannot grow the kernel's memory. */
export const MAX_MESSAGE_BYTES = 4 << 20;
const STDERR_TAIL_BYTES = 16 << 10;

export interface StdioServerOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly graceMs?: number;
}

/** The last bytes of a stream: what a crash report shows, never more than its cap. */
export class TailBuffer {
  private buf = Buffer.alloc(0);
  dropped = 0;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    const all = Buffer.concat([this.buf, chunk]);
    const over = Math.max(0, all.length - this.cap);
    this.dropped += over;
    this.buf = all.subarray(over);
  }
  text(): string {
    return this.buf.toString("utf8");
  }
}

export class StdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly stderr = new TailBuffer(STDERR_TAIL_BYTES);
  /** Lines on stdout that were no JSON-RPC message (a server logging to stdout). */
  garbageLines = 0;
  /** Why the process ended, for the server's state: exit code, signal, or the bound it broke. */
  exitReason: string | null = null;
  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly reader = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly opts: StdioServerOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.opts.command, [...this.opts.args], {
        cwd: this.opts.cwd,
        env: { ...this.opts.env },
        detached: true, // setsid(): its own process group, ended whole on stop
        stdio: ["pipe", "pipe", "pipe"],
      });
      this.child = child;
      this.exited = new Promise((done) => child.once("close", () => done()));
      child.once("spawn", () => resolve());
      child.once("error", (e) => {
        this.exitReason ??= `could not start ${this.opts.command}: ${errorMessage(e)}`;
        reject(new Error(this.exitReason));
        this.onerror?.(e);
      });
      child.on("close", (code, signal) => {
        this.exitReason ??= signal ? `the server was killed by ${signal}` : `the server exited with code ${code}`;
        this.child = null;
        this.onclose?.();
      });
      child.stdout.on("data", (chunk: Buffer) => this.read(chunk));
      child.stderr.on("data", (chunk: Buffer) => this.stderr.push(chunk));
      // A server that stops reading makes writes fail (EPIPE): that is its close, not the kernel's crash.
      child.stdin.on("error", (e) => this.onerror?.(e));
    });
  }

  private read(chunk: Buffer): void {
    try {
      this.reader.append(chunk);
    } catch {
      this.exitReason = `the server sent a message over ${MAX_MESSAGE_BYTES} bytes; it was stopped`;
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.reader.readMessage();
      } catch {
        this.garbageLines++; // the line is consumed; the next one may be a message
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child) return Promise.reject(new Error("the server is not running"));
    return new Promise((resolve) => {
      // Backpressure: resolve once the pipe took the message, so a server that never reads cannot queue unbounded writes.
      if (child.stdin.write(serializeMessage(message))) resolve();
      else child.stdin.once("drain", () => resolve());
    });
  }

  /** Ends the server's whole process group and waits for it. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return this.exited;
    const pgid = child.pid;
    child.stdin.end();
    signalGroup(pgid, "SIGTERM");
    const kill = setTimeout(() => signalGroup(pgid, "SIGKILL"), this.opts.graceMs ?? 2000);
    await this.exited;
    clearTimeout(kill);
    signalGroup(pgid, "SIGKILL"); // what the leader left behind in its group
  }
}

function signalGroup(pgid: number | undefined, sig: NodeJS.Signals): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, sig);
  } catch {
    // ESRCH: the group is already gone
  }
}
