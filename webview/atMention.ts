// "@" starting a word in the message box opens the workspace's file picker (issue 15 item 5); an @
// inside a word (an e-mail address) is text. Apart from the components so it tests without a DOM.

/** True when the character before `caret` is an @ that starts a word. */
export function typedAtMention(value: string, caret: number): boolean {
  return value[caret - 1] === "@" && (caret === 1 || /\s/.test(value[caret - 2] ?? ""));
}
