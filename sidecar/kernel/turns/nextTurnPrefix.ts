// The prompt the session's next turn begins with, built outside a turn (issue 30: evaluated into the
// model's cache in idle time, after condensing ahead of need). Built by the same assembly as a turn's
// harness (sessionAgent.ts) from what the next admission would pin: the session's current profile,
// history and condensed view, with the project instructions, mode, read-only flag and client
// narrowing of its last run (a person's next message most often comes from the same window, in the
// same mode). A guess that proves wrong costs only idle time: the turn renders its own prompt, and the
// model's cache serves what the two share.
import { InMemoryAgentMemory } from "../../agent/index.js";
import type { AgentModel, GenerationRequest } from "../../agent/ports/model.js";
import { assembleAgent, type SessionAgentDeps, type TurnRef } from "./sessionAgent.js";

export async function nextTurnPrefix(deps: SessionAgentDeps, last: TurnRef, model: AgentModel): Promise<Omit<GenerationRequest, "signal">> {
  const { instructions, mode } = deps.control.turnContext(last.turnId);
  const { history, latest } = deps.control.condensationContext(last.sessionId);
  const context = { profile: deps.control.profile(last.sessionId), history, condensation: latest, instructions, mode };
  const { builder, inactiveTools } = await assembleAgent(deps, last, context, model);
  // No turn runs on it: nothing is journaled, nothing is asked, no authority is pinned.
  const agent = builder.memory(new InMemoryAgentMemory()).build();
  agent.disableTools(inactiveTools);
  return agent.nextTurnPrefix();
}
