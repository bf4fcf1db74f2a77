// Stable error codes that cross the protocol. JSON-RPC reserves -32768..-32000 for itself;
// Hearth's own codes live in -31999..-31900 so a client can switch on them without parsing text.
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** The method is part of the protocol but this kernel does not implement it yet. */
  NotImplemented: -31900,
  /** Too many requests in flight; retry after some complete. */
  Overloaded: -31901,
  /** The message exceeded the kernel's size bound and was discarded unread. */
  MessageTooLarge: -31902,
  /** A selector (session, run, task) names nothing the kernel knows. */
  NotFound: -31910,
  /** The request conflicts with durable state (an active run, a stale generation). */
  Conflict: -31911,
  /** A policy refused the request (authority, role, workspace boundary). */
  Refused: -31912,
  /** The client cancelled the request ($/cancelRequest) before it was answered. */
  Cancelled: -31913,
  /** The journal cannot be opened safely (corruption, newer schema). */
  JournalUnavailable: -31920,
  /** The model cannot be loaded or reached. */
  ModelUnavailable: -31930,
  /** The kernel is shutting down and accepts no new work. */
  ShuttingDown: -31940,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The text of whatever was thrown: an error's message, else the value itself as text. JavaScript can
 * throw anything; `(e as Error).message` turned a thrown string or undefined into "undefined".
 */
export function errorMessage(e: unknown): string {
  const message = (e as { message?: unknown } | null | undefined)?.message;
  return typeof message === "string" ? message : String(e);
}

/** An error a person can act on: what was refused, why, and what to do (STYLE.md). */
export class HearthError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "HearthError";
  }
}

export function isHearthError(e: unknown): e is HearthError {
  return e instanceof HearthError;
}
