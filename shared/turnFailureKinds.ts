// How a turn can fail, one list for the kernel that types its failures (sidecar/agent/turnOutcome.ts)
// and the chat view that drops the kind from the text it shows (webview/kernelWords.ts).
export const TURN_FAILURE_KINDS = [
  "cancelled",
  "model_failed",
  "message_too_long",
  "non_prefix",
  "empty_response",
  "sink_failed",
  "tool_fatal",
  "round_limit",
  "repeated_failure",
  "memory_failed",
  "internal_error",
] as const;

export type TurnFailureKind = (typeof TURN_FAILURE_KINDS)[number];
