// The AgentModel port against any OpenAI-compatible chat completions server (Ollama, llama.cpp
// server, LM Studio, vLLM), streaming with tools (issue 6, item 6). The API key comes from the
// caller or the environment (the extension passes the one in VS Code's secret storage as
// HEARTH_OPENAI_API_KEY) and never appears in errors or logs.
import { ErrorCode, HearthError, errorMessage } from "../../../shared/errors.js";
import { USER_AGENT } from "../../../shared/version.js";
import type {
  AgentModel,
  GenerationRequest,
  ModelCapabilities,
  ModelChunk,
  ModelMessage,
  ModelRound,
  ModelToolDefinition,
} from "../../agent/ports/model.js";
import { RoundAbort } from "../../agent/roundAbort.js";
import { probeCapabilities, type CompletionMessage } from "./capabilityProbe.js";
import { sseData } from "./sse.js";
import { type StreamEvent, StreamedRound } from "./streamedRound.js";

export interface OpenAiAdapterOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  env?: NodeJS.ProcessEnv;
}

/** One probe request's limit: a server may load its model on the first request. */
const PROBE_TIMEOUT_MS = 120_000;

export class OpenAiAgentModel implements AgentModel {
  readonly adapter = "openai";
  readonly modelId: string;
  // harness #20: what the server's template does is unknown until `connect` probes it; unknown fails
  // closed in the harness. The chat completions API itself always carries a system role.
  private caps: ModelCapabilities = { systemRole: "proven", toolCalls: "unknown", reasoningHistory: "unknown", thinkingToggle: "unknown" };
  readonly #apiKey: string | null;
  private readonly opts: { baseUrl: string; model: string };

  constructor(opts: OpenAiAdapterOptions) {
    // Only the private field holds the key, so no serialisation or log of this object carries it.
    this.opts = { baseUrl: opts.baseUrl, model: opts.model };
    this.modelId = opts.model;
    const env = opts.env ?? process.env;
    this.#apiKey = opts.apiKey ?? env.HEARTH_OPENAI_API_KEY ?? env.OPENAI_API_KEY ?? null;
  }

  /** The adapter with its capabilities proven by probe requests (see probeCapabilities). */
  static async connect(opts: OpenAiAdapterOptions, signal?: AbortSignal): Promise<OpenAiAgentModel> {
    const model = new OpenAiAgentModel(opts);
    model.caps = await probeCapabilities((body) => model.complete(body, signal));
    return model;
  }

  get capabilities(): ModelCapabilities {
    return this.caps;
  }

  async generate(request: GenerationRequest, onChunk: (chunk: ModelChunk) => void): Promise<ModelRound> {
    request.signal.throwIfAborted();
    const inner = new RoundAbort(request.signal);
    try {
      return await this.stream(request, inner.signal, inner.sink(onChunk));
    } catch (e) {
      inner.throwIfSinkFailed();
      if (request.signal.aborted) throw request.signal.reason;
      throw e;
    } finally {
      inner.release();
    }
  }

  private async stream(request: GenerationRequest, signal: AbortSignal, emit: (c: ModelChunk) => void): Promise<ModelRound> {
    const o = request.options;
    const body = {
      model: this.opts.model,
      messages: toOpenAiMessages(request.messages),
      ...(request.tools.length > 0 ? { tools: request.tools.map(toOpenAiTool) } : {}),
      stream: true,
      ...(o.temperature === undefined ? {} : { temperature: o.temperature }),
      ...(o.topP === undefined ? {} : { top_p: o.topP }),
      ...(o.maxTokens === undefined ? {} : { max_tokens: o.maxTokens }),
      ...(o.seed === undefined ? {} : { seed: o.seed }),
      // harness #15: the template's own switch (llama.cpp server, vLLM); the harness lets on/off
      // through only when the probe proved the server honours it.
      ...(o.thinking === "on" || o.thinking === "off" ? { chat_template_kwargs: { enable_thinking: o.thinking === "on" } } : {}),
    };
    const res = await this.post(body, "text/event-stream", signal);
    const round = new StreamedRound(emit);
    try {
      for await (const data of sseData(res.body as unknown as AsyncIterable<Uint8Array>)) {
        round.add(data === "[DONE]" ? data : this.parseEvent(data));
        if (data === "[DONE]") break;
        if (signal.aborted) throw signal.reason;
      }
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      if (e instanceof HearthError) throw e;
      // undici's "terminated" with the socket's reason: the server died or the connection dropped.
      const cause = (e as { cause?: Error }).cause?.message;
      throw this.brokenOff(`${errorMessage(e)}${cause ? `: ${cause}` : ""}`);
    }
    signal.throwIfAborted();
    // A server that closes a stream cleanly in the middle (a proxy's timeout, a restart) sends neither.
    if (!round.finished) throw this.brokenOff("the stream ended with no finish_reason and no [DONE]");
    return round.round();
  }

  private parseEvent(data: string): StreamEvent {
    let event: StreamEvent;
    try {
      event = JSON.parse(data) as StreamEvent;
    } catch {
      throw new HearthError(
        ErrorCode.ModelUnavailable,
        `the model server at ${this.opts.baseUrl} sent a stream event that is not JSON: ${this.redact(data.slice(0, 200))}`,
      );
    }
    if (event.error)
      throw new HearthError(
        ErrorCode.ModelUnavailable,
        `the model server at ${this.opts.baseUrl} reported an error before the answer finished: ` +
          `${this.redact(event.error.message ?? "no message")}; the partial answer was not kept. The server's ` +
          "log says more; fix what it reports, then send the message again",
      );
    return event;
  }

  /** A stream cut off before the server finished: what happened and what to do (harness #3: no partial round). */
  private brokenOff(why: string): HearthError {
    return new HearthError(
      ErrorCode.ModelUnavailable,
      `the model server at ${this.opts.baseUrl} broke off the answer before it finished ` +
        `(${this.redact(why)}); the partial answer was not kept. Check that the server is still running (its ` +
        "log says why it stopped), then send the message again",
    );
  }

  /** One non-streamed completion (the probes): its message, or a refusal status the probe classifies. */
  private async complete(body: Record<string, unknown>, signal?: AbortSignal): Promise<CompletionMessage | { refusedStatus: number }> {
    const timeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
    const bounded = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const res = await this.post({ model: this.opts.model, stream: false, temperature: 0, ...body }, "application/json", bounded, true);
      if (!res.ok) return { refusedStatus: res.status };
      // A server that streams anyway (or sends something else) answered nothing a probe can read.
      if (!res.headers.get("content-type")?.includes("json")) {
        await res.body?.cancel();
        return {};
      }
      const json = (await res.json().catch(() => null)) as { choices?: { message?: CompletionMessage }[] } | null;
      return json?.choices?.[0]?.message ?? {};
    } catch (e) {
      if (timeout.aborted && !signal?.aborted) {
        throw new HearthError(
          ErrorCode.ModelUnavailable,
          `the model server at ${this.opts.baseUrl} did not answer the capability probe within ` +
            `${PROBE_TIMEOUT_MS / 1000} s; check that the model is loaded there and try again`,
        );
      }
      throw e;
    }
  }

  /** POSTs to chat/completions; unreachable or failing servers become errors a person can act on. */
  private async post(body: unknown, accept: string, signal: AbortSignal, allowClientError = false): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${this.opts.baseUrl}/chat/completions`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept,
          "user-agent": USER_AGENT,
          ...(this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal,
      });
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      throw this.unreachable(e as Error & { cause?: { code?: string; message?: string } });
    }
    const clientError = res.status === 400 || res.status === 422;
    if (res.ok && res.body) return res;
    if (allowClientError && clientError) return res;
    const detail = (await res.text().catch(() => "")).slice(0, 300);
    const hint =
      res.status === 401 || res.status === 403
        ? "run Hearth: Set API Key in the editor, or set HEARTH_OPENAI_API_KEY in a terminal"
        : "check the model name and the server's log";
    throw new HearthError(
      ErrorCode.ModelUnavailable,
      `the model server at ${this.opts.baseUrl} answered HTTP ${res.status}: ${this.redact(detail)}; ${hint}`,
    );
  }

  /** A failed connection: the socket's code (ECONNREFUSED, ENOTFOUND, ...) and what to do about it. */
  private unreachable(e: Error & { cause?: { code?: string; message?: string } }): HearthError {
    // fetch refuses some ports outright (the WHATWG "bad port" list: 6000, 6665–6669, 10080, ...).
    if (e.cause?.message === "bad port") {
      const port = new URL(this.opts.baseUrl).port;
      return new HearthError(
        ErrorCode.ModelUnavailable,
        `cannot reach the model server at ${this.opts.baseUrl}: port ${port} is one that fetch refuses to ` +
          "connect to; start the server on another port and change the URL in the model setting",
      );
    }
    return new HearthError(
      ErrorCode.ModelUnavailable,
      `cannot reach the model server at ${this.opts.baseUrl} (${e.cause?.code ?? e.cause?.message ?? e.message}); ` +
        "start the server or fix the URL in the model setting",
    );
  }

  private redact(s: string): string {
    return this.#apiKey ? s.split(this.#apiKey).join("[redacted]") : s;
  }
}

function toOpenAiTool(t: ModelToolDefinition) {
  return { type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } };
}

export function toOpenAiMessages(messages: readonly ModelMessage[]): unknown[] {
  return messages.map((m) => {
    switch (m.role) {
      case "system":
      case "user":
        return { role: m.role, content: m.text };
      case "assistant":
        return {
          role: "assistant",
          content: m.text === "" ? null : m.text,
          ...(m.toolCalls.length > 0
            ? {
                tool_calls: m.toolCalls.map((c) => ({
                  id: c.callId,
                  type: "function",
                  function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                })),
              }
            : {}),
        };
      case "tool":
        return { role: "tool", tool_call_id: m.callId, content: m.output };
    }
  });
}
