// Small real parts for harness tests: tools that record their effects, approvers, models driven
// by the test. No mocks of the harness itself: every test runs the real turn loop.
import {
  AgentSessionBuilder,
  InMemoryAgentMemory,
  type AgentEvent,
  type ApprovalPort,
  type AuthorityInputs,
} from "../../sidecar/agent/index.js";
import type { AgentModel, GenerationRequest, ModelCapabilities, ModelChunk, ModelRound } from "../../sidecar/agent/ports/model.js";
import type { Tool, ToolCancellationPolicy, ToolResult } from "../../sidecar/agent/ports/tools.js";
import { ScriptedModel } from "../../sidecar/inference/scripted/scriptedModel.js";
import type { EffectClass } from "../../shared/protocol/index.js";

export const AUTHORITY: AuthorityInputs = {
  workspacePath: "/ws/project",
  workspaceIdentity: { dev: "2049", ino: "131073" },
  enablement: { web_fetch: false },
  ceilings: { shellTimeoutMs: 120_000 },
};

export const OPT_IN = { HEARTH_ALLOW_SCRIPTED: "1" };

export interface CounterOptions {
  name?: string;
  requiresApproval?: boolean;
  cancellation?: ToolCancellationPolicy;
  effectClass?: EffectClass;
  /** Awaited inside invoke, after the effect starts: lets a test hold the tool mid-effect. */
  hold?: (signal: AbortSignal) => Promise<void>;
  /** invoke throws after recording its effect (a fatal tool fault). */
  fault?: boolean;
  /** propose throws (before any effect). */
  proposeFault?: boolean;
  /** propose already knows the call cannot run: a refused proposal with this text. */
  refuse?: string;
}

/** A tool whose every effect lands in `effects`, so rollback and checkpoints are observable. */
export class CounterTool implements Tool {
  readonly effects: { callId: string; by: number; finished: boolean }[] = [];
  readonly proposals: string[] = [];
  readonly definition;
  value = 0;

  constructor(private readonly o: CounterOptions = {}) {
    this.definition = {
      name: o.name ?? "counter",
      description: "Adds `by` to a counter.",
      parameters: {
        type: "object" as const,
        properties: { by: { type: "integer" as const, minimum: 1, maximum: 100 } },
        required: ["by"],
        additionalProperties: false as const,
      },
      effectClass: o.effectClass ?? "non_idempotent_write",
      retryPolicy: "never_auto_retry" as const,
      cancellation: o.cancellation ?? "FinishOnceStarted",
      requiresApproval: o.requiresApproval ?? false,
      identityDigest: "sha256:counter-v1",
    };
  }

  async propose(args: Record<string, unknown>, ctx: { callId: string }) {
    if (this.o.proposeFault) throw new Error("proposal exploded");
    this.proposals.push(ctx.callId);
    if (this.o.refuse) return { preview: { kind: "text" as const, text: this.o.refuse }, refused: this.o.refuse };
    return { preview: { kind: "text" as const, text: `add ${String(args.by)}` } };
  }

  async invoke(args: Record<string, unknown>, _p: unknown, ctx: { callId: string; signal: AbortSignal }): Promise<ToolResult> {
    const effect = { callId: ctx.callId, by: args.by as number, finished: false };
    this.effects.push(effect);
    if (this.o.hold) await this.o.hold(ctx.signal);
    if (this.o.fault) throw new Error("disk on fire");
    this.value += effect.by;
    effect.finished = true;
    return { ok: true, output: `counter=${this.value}` };
  }
}

export const approveAll: ApprovalPort = {
  request: async (r) => ({ decision: "approve", callId: r.call.callId, inputHash: r.inputHash, reason: "approved in test" }),
};

export function scripted(rounds: unknown[], extra: Record<string, unknown> = {}): ScriptedModel {
  return ScriptedModel.fromJson({ rounds, ...extra }, "test-script", OPT_IN);
}

/** Capabilities with every feature proven, changed where `over` says. */
export const provenCapabilities = (over: Partial<ModelCapabilities> = {}): ModelCapabilities => ({
  systemRole: "proven",
  toolCalls: "proven",
  reasoningHistory: "proven",
  thinkingToggle: "proven",
  ...over,
});

/** A model whose rounds are functions of the request: for races and odd providers. */
export class FnModel implements AgentModel {
  readonly adapter = "fn";
  readonly modelId = "fn-model";
  readonly requests: GenerationRequest[] = [];
  constructor(
    private readonly fn: (req: GenerationRequest, onChunk: (c: ModelChunk) => void, round: number) => Promise<ModelRound>,
    readonly capabilities: ModelCapabilities = provenCapabilities(),
  ) {}
  generate(req: GenerationRequest, onChunk: (c: ModelChunk) => void): Promise<ModelRound> {
    this.requests.push(structuredClone({ ...req, signal: undefined }) as unknown as GenerationRequest);
    return this.fn(req, onChunk, this.requests.length - 1);
  }
}

export function builder(model: AgentModel, tools: Tool[], memory = new InMemoryAgentMemory()) {
  return { memory, builder: new AgentSessionBuilder().model(model).tools(tools).memory(memory).authorityInputs(AUTHORITY) };
}

export function collect(): { events: AgentEvent[]; onEvent: (e: AgentEvent) => void; answer: () => string; reasoning: () => string } {
  const events: AgentEvent[] = [];
  return {
    events,
    onEvent: (e) => void events.push(e),
    answer: () => events.flatMap((e) => (e.type === "answer_delta" ? [e.text] : [])).join(""),
    reasoning: () => events.flatMap((e) => (e.type === "reasoning_delta" ? [e.text] : [])).join(""),
  };
}

export function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Every assistant tool call is followed by its results, in order, and ids never repeat. */
export function assertStructurallyComplete(history: readonly { role: string }[]): void {
  const seen = new Set<string>();
  let pending: string[] = [];
  for (const m of history as { role: string; callId?: string; toolCalls?: { callId: string }[] }[]) {
    if (pending.length > 0 && m.role !== "tool") throw new Error(`dangling calls ${pending.join(",")}`);
    if (m.role === "assistant") {
      pending = m.toolCalls!.map((c) => c.callId);
      for (const id of pending) {
        if (seen.has(id)) throw new Error(`reused id ${id}`);
        seen.add(id);
      }
    }
    if (m.role === "tool" && pending.shift() !== m.callId) throw new Error(`result ${m.callId} out of order`);
  }
  if (pending.length > 0) throw new Error(`dangling calls at end ${pending.join(",")}`);
}
