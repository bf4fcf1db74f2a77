// What the agent session builder refuses before a session exists (harness #10 #19, issue 13): added after a
// mutation run of agentSessionBuilder.ts (docs/mutation.md), where its loop-limit, condensed-view and
// missing-part guards were unguarded.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../shared/errors.js";
import { AgentSessionBuilder, InMemoryAgentMemory, type AgentMessage } from "../../../../sidecar/agent/index.js";
import { AUTHORITY, builder, CounterTool, FnModel } from "../../../support/harnessFixtures.js";

const answerOnly = () => new FnModel(async () => ({ text: "ok", reasoning: "", toolCalls: [], stopReason: "end" }));
const refused = (code: number, message: string | RegExp) => (e: unknown) =>
  e instanceof HearthError && e.code === code && (typeof message === "string" ? e.message === message : message.test(e.message));

describe("agent session builder refusals", () => {
  it("harness #10 (round exhaustion), issue 13 loop guards: a round or failure limit that is not a positive integer is refused", () => {
    // 0 would stop a turn before its first tool round; NaN or Infinity would never stop one.
    for (const n of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(
        () => new AgentSessionBuilder().maxRounds(n),
        refused(ErrorCode.InvalidParams, `maxRounds must be a positive integer, got ${n}`),
      );
      assert.throws(
        () => new AgentSessionBuilder().repeatedFailureLimit(n),
        refused(ErrorCode.InvalidParams, `repeatedFailureLimit must be a positive integer, got ${n}`),
      );
    }
    assert.ok(builder(answerOnly(), [new CounterTool()]).builder.maxRounds(1).repeatedFailureLimit(1).build());
  });

  it("issue 13: a condensed view that does not fit the resumed history is refused as a Conflict; one that fits is what the model sees", async () => {
    const history: AgentMessage[] = [
      { role: "user", text: "first question" },
      { role: "assistant", text: "first answer", toolCalls: [] },
    ];
    const view = (replacedCount: number) => ({ summary: "the summary", replacedCount, elidedCallIds: [] });
    // Past the end the model would see only the summary; a negative count would keep only the tail.
    for (const n of [3, -1, 1.5, Number.NaN]) {
      assert.throws(
        () => builder(answerOnly(), []).builder.history(history).condensedView(view(n)),
        refused(
          ErrorCode.Conflict,
          `refused to resume: the condensed view replaces ${n} messages of a history of 2; the journal's condensation does not match its history`,
        ),
      );
    }
    for (const n of [0, 1, 2]) {
      const model = answerOnly();
      const { builder: b } = builder(model, []);
      await b.history(history).condensedView(view(n)).build().runTurn("next");
      const seen = JSON.stringify(model.requests[0]!.messages);
      assert.ok(seen.includes("the summary") && seen.includes("next"), `${n}: the summary and the new message are sent`);
      assert.equal(seen.includes("first question"), n < 1, `${n}: replaced messages are not sent`);
      assert.equal(seen.includes("first answer"), n < 2, `${n}: replaced messages are not sent`);
    }
  });

  it("harness #19: build and authoritySnapshot refuse a builder that lacks its model, memory or authority inputs, naming the part", () => {
    const model = answerOnly();
    const memory = new InMemoryAgentMemory();
    const missing = (what: string) => refused(ErrorCode.InvalidParams, `refused to build the agent session: ${what}(...) was not set`);
    assert.throws(() => new AgentSessionBuilder().memory(memory).authorityInputs(AUTHORITY).build(), missing("model"));
    assert.throws(() => new AgentSessionBuilder().model(model).authorityInputs(AUTHORITY).build(), missing("memory"));
    assert.throws(() => new AgentSessionBuilder().model(model).memory(memory).build(), missing("authorityInputs"));
    assert.throws(() => new AgentSessionBuilder().authoritySnapshot(), missing("authorityInputs"));
    assert.ok(new AgentSessionBuilder().model(model).memory(memory).authorityInputs(AUTHORITY).build());
  });
});
