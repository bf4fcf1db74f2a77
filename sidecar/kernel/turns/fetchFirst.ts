// A web page attached to a message (`@url`, issue 29 item 3) is fetched by the turn itself: its first
// round is web_fetch of each attached URL, proposed by the kernel in the model's place, so each fetch
// takes web_fetch's road (its approval, which always asks, the ledger, the journaled result; harness
// #11). The session's model answers from the next round on, with the pages in its history as results.
import type { AgentModel, GenerationRequest, ModelChunk, ModelRound } from "../../agent/ports/model.js";

export const WEB_FETCH = "web_fetch";

export class FetchFirst implements AgentModel {
  readonly adapter: string;
  readonly modelId: string;
  readonly capabilities: AgentModel["capabilities"];
  readonly settled?: AgentModel["settled"];
  readonly measure?: AgentModel["measure"];
  readonly prefill?: AgentModel["prefill"];
  private proposed = false;

  constructor(
    private readonly model: AgentModel,
    private readonly urls: readonly string[],
  ) {
    // The session's own model in every respect the harness reads (its authority, its cache).
    this.adapter = model.adapter;
    this.modelId = model.modelId;
    this.capabilities = model.capabilities;
    if (model.settled) this.settled = (key) => model.settled!(key);
    if (model.measure) this.measure = (request) => model.measure!(request);
    if (model.prefill) this.prefill = (request) => model.prefill!(request);
  }

  async generate(request: GenerationRequest, onChunk: (chunk: ModelChunk) => void): Promise<ModelRound> {
    if (request.signal.aborted) throw request.signal.reason as Error;
    // The turn's first round ends with its user message; every later one with the results it led to.
    if (this.proposed || request.messages.at(-1)?.role !== "user") return this.model.generate(request, onChunk);
    this.proposed = true;
    return {
      text: "",
      reasoning: "",
      toolCalls: this.urls.map((url) => ({ name: WEB_FETCH, arguments: { url } })),
      stopReason: "tool_calls",
    };
  }
}
