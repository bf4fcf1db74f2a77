// The scripted AgentModel: replays a JSON file of model rounds so tests and demos can drive any
// path of the turn loop deterministically. Opt-in only (HEARTH_ALLOW_SCRIPTED=1).
import type { AgentModel, GenerationRequest, ModelCapabilities, ModelChunk, ModelRound } from "../../agent/ports/model.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import { readScriptFile, parseScript, type ScriptFile, type ScriptRound } from "./scriptFile.js";

export const SCRIPTED_OPT_IN = "HEARTH_ALLOW_SCRIPTED";
export const SCRIPTED_PREFIX = "scripted:";

export class ScriptedModel implements AgentModel {
  readonly adapter = "scripted";
  readonly modelId: string;
  readonly capabilities: ModelCapabilities;
  private readonly rounds: readonly ScriptRound[];

  /** `env` defaults to process.env; the opt-in is read at construction. */
  constructor(script: ScriptFile, source: string, env: Readonly<Record<string, string | undefined>> = process.env) {
    if (env[SCRIPTED_OPT_IN] !== "1") {
      throw new HearthError(
        ErrorCode.Refused,
        `refused to load scripted model ${source}: scripted replay is for tests and demos and is off by ` +
          `default; set ${SCRIPTED_OPT_IN}=1 in the kernel's environment to allow it`,
      );
    }
    this.rounds = script.rounds;
    this.modelId = script.modelId ?? `scripted:${source}`;
    this.capabilities = {
      systemRole: "proven",
      toolCalls: "proven",
      reasoningHistory: "proven",
      thinkingToggle: "proven",
      ...script.capabilities,
    };
  }

  static fromFile(file: string, env?: Readonly<Record<string, string | undefined>>): ScriptedModel {
    return new ScriptedModel(readScriptFile(file), file, env);
  }

  /** Opens a model spec `scripted:FILE` (the form `--model` and `session/create` take). */
  static fromSpec(spec: string, env?: Readonly<Record<string, string | undefined>>): ScriptedModel {
    if (!spec.startsWith(SCRIPTED_PREFIX) || spec.length === SCRIPTED_PREFIX.length) {
      throw new HearthError(
        ErrorCode.InvalidParams,
        `model spec ${JSON.stringify(spec)} is not a scripted spec; write scripted:PATH_TO_SCRIPT.json`,
      );
    }
    return ScriptedModel.fromFile(spec.slice(SCRIPTED_PREFIX.length), env);
  }

  static fromJson(json: unknown, source: string, env?: Readonly<Record<string, string | undefined>>): ScriptedModel {
    return new ScriptedModel(parseScript(json, source), source, env);
  }

  /**
   * The next round is derived from the request, not from process memory: it is the number of
   * assistant messages already in the session's history (committed or checkpointed this turn), so
   * a kernel restart that rebuilds the history resumes at the right round.
   */
  roundIndexFor(request: Pick<GenerationRequest, "messages">): number {
    return request.messages.filter((m) => m.role === "assistant").length;
  }

  async generate(request: GenerationRequest, onChunk: (chunk: ModelChunk) => void): Promise<ModelRound> {
    const index = this.roundIndexFor(request);
    const round = this.rounds[index];
    if (!round) {
      throw new HearthError(
        ErrorCode.ModelUnavailable,
        `scripted model ${this.modelId} has ${this.rounds.length} rounds and the session asks for round ${index + 1}; add rounds to the script`,
      );
    }
    const shown = request.messages.flatMap((m) => (m.role === "user" ? [m.text] : []));
    if (round.expectUsers && JSON.stringify(shown) !== JSON.stringify(round.expectUsers)) {
      throw new Error(
        `scripted round ${index + 1} expects the user messages ${JSON.stringify(round.expectUsers)} and was shown ${JSON.stringify(shown)}`,
      );
    }
    const offered = request.tools.map((t) => t.name).sort();
    if (round.expectTools && JSON.stringify(offered) !== JSON.stringify([...round.expectTools].sort())) {
      throw new Error(
        `scripted round ${index + 1} expects the tools ${JSON.stringify(round.expectTools)} and was offered ${JSON.stringify(offered)}`,
      );
    }
    if (round.expectToolOutputs) {
      const lastAssistant = request.messages.map((m) => m.role).lastIndexOf("assistant");
      const outputs = request.messages.slice(lastAssistant + 1).flatMap((m) => (m.role === "tool" ? [m.output] : []));
      if (JSON.stringify(outputs) !== JSON.stringify(round.expectToolOutputs)) {
        throw new Error(
          `scripted round ${index + 1} expects the tool outputs ${JSON.stringify(round.expectToolOutputs)} and was shown ${JSON.stringify(outputs)}`,
        );
      }
    }
    checkSystem(round, index, request);
    const { signal } = request;
    // Every await happens inside this call, so the returned promise is the completion barrier.
    for (const [type, parts] of [
      ["reasoning", round.reasoning],
      ["answer", round.text],
    ] as const) {
      for (const text of parts) {
        if (round.delayMs > 0) await sleep(round.delayMs, signal);
        throwIfAborted(signal);
        onChunk({ type, text });
      }
    }
    if (round.toolCallPieces) await streamCalls(round, round.toolCallPieces, signal, onChunk);
    throwIfAborted(signal);
    if (round.error !== undefined) throw new Error(round.error);
    return {
      text: round.terminalText ?? round.text.join(""),
      reasoning: round.terminalReasoning ?? round.reasoning.join(""),
      toolCalls: round.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments, ...(c.id ? { providerCallId: c.id } : {}) })),
      stopReason: round.toolCalls.length > 0 ? "tool_calls" : round.stoppedAtTokenCap ? "max_tokens" : "end",
    };
  }
}

/** The round's expectations of what the model is shown as instructions (every system message, in order). */
function checkSystem(round: ScriptRound, index: number, request: GenerationRequest): void {
  const system = request.messages.flatMap((m) => (m.role === "system" ? [m.text] : [])).join("\n");
  const missing = (round.expectSystemIncludes ?? []).filter((s) => !system.includes(s));
  const present = (round.expectSystemExcludes ?? []).filter((s) => system.includes(s));
  if (missing.length || present.length) {
    throw new Error(
      `scripted round ${index + 1} expects its system instructions ` +
        [missing.length ? `to include ${JSON.stringify(missing)}` : "", present.length ? `not to include ${JSON.stringify(present)}` : ""]
          .filter(Boolean)
          .join(" and ") +
        `; they were ${JSON.stringify(system.slice(0, 2000))}`,
    );
  }
}

/** The round's calls as a model writes them: each one's start, then its arguments' characters in `pieces` parts. */
async function streamCalls(round: ScriptRound, pieces: number, signal: AbortSignal, onChunk: (chunk: ModelChunk) => void): Promise<void> {
  for (const [index, call] of round.toolCalls.entries()) {
    throwIfAborted(signal);
    onChunk({ type: "tool_call_started", index, name: call.name });
    const chars = JSON.stringify(call.arguments).length;
    const size = Math.ceil(chars / pieces);
    for (let at = 0; at < chars; at += size) {
      if (round.delayMs > 0) await sleep(round.delayMs, signal);
      throwIfAborted(signal);
      onChunk({ type: "tool_call_args", index, chars: Math.min(size, chars - at) });
    }
  }
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason ?? new Error("aborted");
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
