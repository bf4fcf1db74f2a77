// The agent module's public surface: what the kernel, tools and inference adapters import.
export { AgentSessionBuilder, DEFAULT_MAX_ROUNDS } from "./agentSessionBuilder.js";
export { AgentSession, type RunTurnOptions } from "./agentSession.js";
export type { AgentEvent, TurnOutcome, TurnFailure, TurnFailureKind } from "./turnOutcome.js";
export type { AgentMessage, AssistantMessage, SystemMessage, ToolResultMessage, UserMessage } from "./messages.js";
export type { AgentAuthoritySnapshot, AuthorityInputs } from "./authoritySnapshot.js";
export { AUTHORITY_SNAPSHOT_VERSION } from "./authoritySnapshot.js";
export {
  NO_CONDENSATION,
  type CondensationRecord,
  type CondensationStore,
  type CondensedView,
  type ContextMeasure,
} from "./ports/context.js";
export { DEFAULT_LOOP_LIMITS, isStop, type LoopLimits } from "./loopGuard.js";
export { ContextCondenser } from "./contextCondenser.js";
export { toModelMessages } from "./generationPolicy.js";
export type { AgentMemory, InvocationClaim, InvocationSettlement, TurnClose, TurnStart } from "./ports/memory.js";
export { denyAllApprovals, type ApprovalDecision, type ApprovalPort, type ApprovalRequest } from "./ports/approval.js";
export type * from "./ports/model.js";
export type * from "./ports/tools.js";
export type { JsonSchema, ObjectSchema } from "./ports/jsonSchema.js";
export { argumentProblems, vocabularyProblems } from "./schemaCheck.js";
export { inputHashOf } from "./canonicalJson.js";
export { InMemoryAgentMemory } from "./inMemoryAgentMemory.js";
