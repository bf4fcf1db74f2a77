// The whole-stack benchmark's kernel (wholeStack.ts): a real kernel process driven over the protocol,
// its turns timed at the client (turn/start sent → turn/event received), its rounds read from the
// kernel log's `llama round {json}` lines, its memory from /proc.
import fs from "node:fs";
import type { RoundStats } from "../../../sidecar/inference/llama/llamaAgentModel.js";
import type { Attachment } from "../../../shared/protocol/attachments.js";
import { startTestKernel, type TestKernel } from "../../support/kernelProcess.js";

/** The kernel process's resident memory now and at its peak (Linux: /proc), in bytes; null elsewhere. */
export function kernelMemory(pid: number | undefined): { rss: number; peak: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) =>
      Number(/^(\S+):\s+(\d+) kB/m.exec(status.split("\n").find((l) => l.startsWith(`${field}:`)) ?? "")?.[2]) * 1024;
    return { rss: kb("VmRSS"), peak: kb("VmHWM") };
  } catch {
    return null;
  }
}

export interface TurnTiming {
  sent: number;
  firstToken: number | null;
  lastDelta: number | null;
  done: number | null;
  status: string | null;
  deltas: number[];
  /** The answer as the client received it. */
  text: string;
}
export class Bench {
  readonly timings = new Map<string, TurnTiming>(); // by sessionId: one turn per session at a time
  private waiters: (() => void)[] = [];
  /** RSS of the kernel process before it loaded the model (bytes; null where /proc is not). */
  unloadedRss: number | null = null;
  constructor(
    readonly kernel: TestKernel,
    private readonly modelPath: string,
  ) {
    kernel.client.onNotification("turn/event", (n) => {
      const now = performance.now();
      const t = this.timings.get(n.sessionId);
      if (!t) return;
      const e = n.event;
      if (e.type === "answer_delta" || e.type === "reasoning_delta" || e.type === "tool_call") {
        t.firstToken ??= now;
        t.lastDelta = now;
        t.deltas.push(now);
      }
      if (e.type === "answer_delta") t.text += e.text;
      if (e.type === "completed") {
        t.done = now;
        t.status = e.status;
      }
      this.waiters.splice(0).forEach((w) => {
        w();
      });
    });
    // A random model may (rarely) propose a read: let it run; it stays inside the workspace.
    kernel.client.onServerRequest("approval/request", async () => ({ decision: "approve", reason: "benchmark" }));
  }
  rounds(): RoundStats[] {
    return this.kernel.stderr
      .filter((l) => l.includes("llama round "))
      .map((l) => JSON.parse(l.slice(l.indexOf("llama round ") + 12)) as RoundStats);
  }
  async session(maxTokens: number): Promise<string> {
    const { sessionId } = await this.kernel.client.request("session/create", {
      model: this.modelPath,
      options: { temperature: 0, maxTokens },
    });
    return sessionId;
  }
  async start(
    sessionId: string,
    message: string,
    maxTokens?: number,
    attachments?: Attachment[],
  ): Promise<{ turnId: string; timing: TurnTiming }> {
    const timing: TurnTiming = {
      sent: performance.now(),
      firstToken: null,
      lastDelta: null,
      done: null,
      status: null,
      deltas: [],
      text: "",
    };
    this.timings.set(sessionId, timing);
    const options = maxTokens === undefined ? undefined : { temperature: 0, maxTokens };
    const { turnId } = await this.kernel.client.request("turn/start", { sessionId, message, options, attachments });
    return { turnId, timing };
  }
  async until(pred: () => boolean, what: string, timeoutMs = 300_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; kernel log:\n${this.kernel.stderr.slice(-20).join("\n")}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }
  /** One whole turn; returns its client timing and the round(s) the kernel logged for it. */
  async turn(
    sessionId: string,
    message: string,
    maxTokens?: number,
    attachments?: Attachment[],
  ): Promise<{ timing: TurnTiming; round: RoundStats }> {
    const before = this.rounds().length;
    const { timing } = await this.start(sessionId, message, maxTokens, attachments);
    await this.until(() => timing.done !== null, "the turn to complete");
    if (timing.status !== "completed")
      throw new Error(`turn ended ${timing.status}; kernel log:\n${this.kernel.stderr.slice(-20).join("\n")}`);
    // Its own session's round: a background condensing the turn cancelled logs a round of the summary's.
    const mine = () =>
      this.rounds()
        .slice(before)
        .filter((r) => r.sessionKey === sessionId);
    await this.until(() => mine().length > 0, "the round log line");
    return { timing, round: mine()[0]! };
  }
}

/** A kernel on the benchmark model (loaded up front), greedy sessions, `read_file` only; `sessions`: HEARTH_SESSIONS. */
export async function startBenchKernel(opts: {
  home: string;
  workspace: string;
  journalPath: string;
  modelPath: string;
  threads: number;
  contextSize: number;
  sessions?: number;
  /** Condensing ahead of need (HEARTH_CONDENSE_AHEAD), off unless asked for: see below. */
  condenseAhead?: boolean;
  /** false: HEARTH_INPUT_LOOKUP=off (the kernel's default is on). */
  inputLookup?: boolean;
}): Promise<Bench> {
  const env: Record<string, string> = {
    HEARTH_HOME: opts.home,
    HEARTH_THREADS: String(opts.threads),
    HEARTH_TOOLS: "read_file",
    HEARTH_CONTEXT_SIZE: String(opts.contextSize),
    // A growing session passes 60% of its context: condensing it while the kernel is idle would change
    // its depth under the figures and run beside the anchor's own measurements.
    HEARTH_CONDENSE_AHEAD: opts.condenseAhead ? "on" : "off",
  };
  if (opts.sessions) env.HEARTH_SESSIONS = String(opts.sessions);
  if (opts.inputLookup === false) env.HEARTH_INPUT_LOOKUP = "off";
  const kernel = startTestKernel({ workspace: opts.workspace, journalPath: opts.journalPath, env });
  await kernel.client.initialize("wholeStack-bench", "0");
  // The kernel's own memory before a model is loaded: Node, the journal, the tools.
  const unloaded = kernelMemory(kernel.child.pid);
  // Loaded up front, so no turn's first-token time includes loading the model.
  await kernel.client.request("model/load", { spec: opts.modelPath });
  const bench = new Bench(kernel, opts.modelPath);
  bench.unloadedRss = unloaded?.rss ?? null;
  return bench;
}
