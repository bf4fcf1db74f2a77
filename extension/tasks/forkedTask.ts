// The argument of hearth.startTask that the chat's "Fork as task" passes (issue 29 item 2): plain
// data, so the chat's side (no `vscode` import) can build it.
/** Where a forked task starts: a chat and its user message. */
export interface ForkPoint {
  sessionId: string;
  atSeq: number;
}

/** The argument the chat's "Fork as task" passes to hearth.startTask. */
export interface ForkedTask {
  instruction: string;
  forkOf: ForkPoint;
}

export function isForkedTask(given: unknown): given is ForkedTask {
  const g = given as Partial<ForkedTask> | undefined;
  return typeof g?.instruction === "string" && typeof g.forkOf?.sessionId === "string" && Number.isInteger(g.forkOf.atSeq);
}
