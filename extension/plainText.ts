// Notifications show text as it is: Markdown quoting would show its backticks (issue 25 item 11).
// Kernel messages quote names as `app.txt` (the chat renders them as code); in a notification the
// name is quoted with typographic quotes instead. Pure, so it is unit-tested.

/** `text` with each `code` span as “code”, and any backtick left over dropped. */
export function plainText(text: string): string {
  return text.replace(/`+([^`\n]+?)`+/g, "“$1”").replace(/`/g, "");
}
