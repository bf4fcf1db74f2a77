// The commands of proposed edits and the context key their keybindings and palette entries wait on
// (package.json `when`): one list for editProposals.ts, which registers them, and the test that reads
// package.json's contributions. No `vscode` import.

export const EDIT_COMMANDS = {
  accept: "hearth.edits.accept",
  reject: "hearth.edits.reject",
  rejectHunk: "hearth.edits.rejectHunk",
  showDiff: "hearth.edits.showDiff",
  /** The chat card's "Show in editor" (issue 25 item 9): the proposal's file, at its first hunk. */
  reveal: "hearth.edits.reveal",
  nextHunk: "hearth.edits.nextHunk",
  previousHunk: "hearth.edits.previousHunk",
} as const;

/** True while the active editor shows a pending proposal: the keybindings' `when` (package.json). */
export const PENDING_CONTEXT = "hearth.proposalPending";
