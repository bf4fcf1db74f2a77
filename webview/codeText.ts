// Names the kernel quotes in backticks (`app.txt`, `npm test`) shown as code, never as literal
// backticks (issue 25 item 11). Text only ever goes in as text nodes and textContent.

/** `node` holding `text`, each `name` span as a <code> element; a stray backtick is dropped. */
export function codeText<T extends HTMLElement>(node: T, text: string): T {
  const parts: (string | HTMLElement)[] = [];
  let at = 0;
  for (const m of text.matchAll(/`+([^`\n]+?)`+/g)) {
    parts.push(text.slice(at, m.index).replace(/`/g, ""));
    const code = document.createElement("code");
    code.textContent = m[1]!;
    parts.push(code);
    at = m.index + m[0].length;
  }
  parts.push(text.slice(at).replace(/`/g, ""));
  node.replaceChildren(...parts.filter((p) => p !== ""));
  return node;
}
