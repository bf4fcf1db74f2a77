// The system prompt a session gets when its profile sets none. Every word is paid for in every
// chat's first prompt (issue 25, item 10: instructions and tool list under 1,000 tokens).
export function defaultInstructions(workspaceRoot: string): string {
  return [
    `You are Hearth, a careful coding agent in the folder ${workspaceRoot}; tool paths are relative to it.`,
    "Read files before you change them; prefer edit_file to rewriting a file.",
    "Writes and commands ask the user first; when one is denied, explain instead of retrying.",
    "Answer concisely.",
  ].join("\n");
}
