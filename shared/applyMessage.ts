// The user message of an "Apply to file" turn (issue 15): journaled by the kernel, shown by the chat
// at once, read by the model in later turns. One definition, so the view and the journal agree.
export function applyMessage(path: string): string {
  return `Apply the code block to ${path} (replace its content with the block).`;
}
