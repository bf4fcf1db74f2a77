// The words of Hearth's insides that a person should never read (issue 25 item 11: "non idempotent
// write", "session", "authority" reached people): found in the text the chat view and the extension
// show, and in the settings' and commands' descriptions. Log lines are for the log and may use them.
// "kernel" is not among them: the README defines it and the chat's Kernel menu names it.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export const INTERNAL_WORDS = /\b(idempotent|non_idempotent|authority|harness|session|sessions|ledger|non_prefix)\b/i;

/** A call whose text goes to a log: `log.info(...)`, `this.deps.log(...)`, `console.warn(...)`. */
function isLogCall(node: ts.Node): boolean {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression.getText();
  return /(^|\.)log(\.(info|warn|error|debug|trace|append(Line)?))?$/.test(callee) || /^console\./.test(callee);
}

function insideLogCall(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) if (isLogCall(n)) return true;
  return false;
}

/** "file: text" for each string with a space in it (words, not ids) that `shown` finds wrong. */
function shownStringsIn(file: string, text: string, wrong: (s: string) => boolean): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (
      (ts.isStringLiteral(n) ||
        ts.isNoSubstitutionTemplateLiteral(n) ||
        ts.isTemplateHead(n) ||
        ts.isTemplateMiddle(n) ||
        ts.isTemplateTail(n)) &&
      /\s/.test(n.text) &&
      wrong(n.text) &&
      !insideLogCall(n)
    )
      found.push(`${file}: ${JSON.stringify(n.text)}`);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return found;
}

export function internalWordsIn(file: string, text: string): string[] {
  return shownStringsIn(file, text, (s) => INTERNAL_WORDS.test(s));
}

/**
 * Markdown quoting in the chat view's own words (issue 25 item 11): the view sets text as text, so a
 * backtick in it shows as one; a name is drawn as <code> (webview/codeText.ts) instead.
 */
export function backticksIn(file: string, text: string): string[] {
  return shownStringsIn(file, text, (s) => s.includes("`"));
}

/** Every finding of `scan` (default: internal words) in the TypeScript under `dirs` (relative to `root`). */
export function internalWordsUnder(root: string, dirs: readonly string[], scan = internalWordsIn): string[] {
  return dirs.flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) => scan(path.join(dir, f), fs.readFileSync(path.join(root, dir, f), "utf8"))),
  );
}

/** Findings in the strings of package.json's `contributes` (settings, commands, views). */
export function internalWordsInManifest(manifest: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown, at: string): void => {
    if (typeof value === "string") {
      if (/\s/.test(value) && INTERNAL_WORDS.test(value)) found.push(`${at}: ${JSON.stringify(value)}`);
    } else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, `${at}.${k}`);
  };
  walk((manifest as { contributes?: unknown }).contributes, "contributes");
  return found;
}
