// Parses a shell tool command line with mvdan/sh, a real POSIX shell parser (the mvdan-sh package:
// mvdan/sh compiled to JavaScript), into its simple commands and the constructs no approval rule
// may vouch for (issue 27, item 4). Quoting, escapes, comments and line continuations are the
// parser's, never a regular expression's: `'r'm`, `\rm` and `r\<newline>m` all come out as `rm`.
// The shell tool runs /bin/sh, so the POSIX grammar decides; bash-only syntax does not parse here
// and asks, and a word bash would read differently (`$'…'`, `{a,b}`) is not literal.
import type { ShNode, ShParser, ShSyntax } from "mvdan-sh";
import { commandFallback } from "./commandFallbacks.js";

/** One word of a simple command: `text` is what the shell passes only when `literal` (no expansion). */
export interface ShellWord {
  readonly text: string;
  readonly literal: boolean;
}

/**
 * `direct`: a command the line runs itself, which an allow rule must cover. `wrapped`: the command a
 * wrapper or `sh -c` script would run, seen only so a deny rule still finds it.
 */
export interface SimpleCommand {
  readonly words: readonly ShellWord[];
  readonly origin: "direct" | "wrapped";
}

export type ShellAnalysis =
  | { readonly ok: true; readonly commands: readonly SimpleCommand[]; readonly fallbacks: readonly string[] }
  | { readonly ok: false; readonly error: string };

interface Loaded {
  readonly syntax: ShSyntax;
  readonly parser: ShParser;
  /** Redirection operators by the parser's own token numbers, learnt from an example line. */
  readonly redirectOps: ReadonlyMap<number, string>;
}
let loaded: Loaded | undefined;

/**
 * Loads the parser (1.3 MB of JavaScript, a few hundred ms to evaluate on a busy machine) the first
 * time rules need it, not at every kernel start: most kernels have no rules.
 */
export async function loadShellParser(): Promise<void> {
  if (loaded) return;
  const { syntax } = (await import("mvdan-sh")).default;
  const parser = syntax.NewParser(syntax.Variant(syntax.LangPOSIX));
  const ops = ["<", ">", ">>", "<>", "<&", ">&", ">|", "<<", "<<-"];
  const stmts = (parser.Parse("x <a >b >>c <>d <&0 >&1 >|e <<EOF\nEOF\nx <<-EOF\nEOF\n", "ops") as { Stmts: ShNode[] }).Stmts;
  const redirs = stmts.flatMap((st) => st.Redirs as ShNode[]);
  loaded ??= { syntax, parser, redirectOps: new Map(redirs.map((r, i) => [r.Op as number, ops[i]!])) };
}

function sh(): Loaded {
  if (!loaded) throw new Error("the shell parser is not loaded yet: await loadShellParser() before analyzing commands");
  return loaded;
}

const RISKY_NODES: Record<string, string> = {
  CmdSubst: "command substitution ($(…) or backticks)",
  ProcSubst: "process substitution",
  ArithmExp: "arithmetic expansion",
  ArithmCmd: "an arithmetic command",
  FuncDecl: "a function definition",
  CoprocClause: "a coprocess",
  DeclClause: "a declaration (export, local, readonly)",
  LetClause: "let",
};

/** Bidirectional and invisible format characters: text that reads as one command and runs another. */
function hiddenCharacter(text: string): string | null {
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const hidden =
      c === 0xad || (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2060 && c <= 0x2069) || c === 0xfeff;
    if (hidden) return `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
  }
  return null;
}

/**
 * Longer command lines are not parsed: the parser's JavaScript objects are slow to read (a 15,000
 * character line of quoted words took seconds) and deep nesting exhausts the stack. They ask.
 */
const MAX_ANALYZED_CHARS = 2000;

export function analyzeShellCommand(text: string): ShellAnalysis {
  if (text.length > MAX_ANALYZED_CHARS)
    return { ok: false, error: `the command is longer than ${MAX_ANALYZED_CHARS} characters, more than a rule is checked against` };
  return analyze(text, 0, true);
}

/**
 * A rule's command pattern: one simple command of literal words, read like a command line; a last
 * unquoted `*` stands for any further words (`rest`). Wrappers are fine here (a rule may deny `sudo`).
 */
export function parsePattern(text: string): { ok: true; words: string[]; rest: boolean } | { ok: false; error: string } {
  const a = analyze(text, 0, false);
  if (!a.ok) return { ok: false, error: `it is not a shell command: ${a.error}` };
  if (a.commands.length !== 1 || a.fallbacks.length > 0)
    return { ok: false, error: "it must be one simple command: words only, no ; | && $(…) or redirections" };
  const words = a.commands[0]!.words;
  const rest = words.length > 0 && words.at(-1)!.text === "*" && !words.at(-1)!.literal;
  const fixed = rest ? words.slice(0, -1) : words;
  const expanding = fixed.find((w) => !w.literal);
  if (expanding) return { ok: false, error: `its word ${expanding.text} expands; only a last * may` };
  return { ok: true, words: fixed.map((w) => w.text), rest };
}

function analyze(text: string, depth: number, commandChecks: boolean): ShellAnalysis {
  const hidden = hiddenCharacter(text);
  if (hidden) return { ok: false, error: `the command holds an invisible or bidirectional character (${hidden})` };
  let file: ShNode;
  try {
    file = sh().parser.Parse(text, "command");
  } catch (e) {
    const message = (e as { Error?: () => string }).Error?.() ?? String(e);
    return { ok: false, error: `the shell parser could not read it (${message})` };
  }
  const commands: SimpleCommand[] = [];
  const fallbacks = new Set<string>();
  try {
    walk(file, depth, commandChecks, commands, fallbacks);
  } catch (e) {
    // The parser's walk recurses per nesting level: a stack overflow is unreadable input, not a crash.
    return { ok: false, error: `the shell parser could not read it (${e instanceof Error ? e.message : String(e)})` };
  }
  return { ok: true, commands, fallbacks: [...fallbacks] };
}

function walk(file: ShNode, depth: number, commandChecks: boolean, commands: SimpleCommand[], fallbacks: Set<string>): void {
  const { syntax } = sh();
  syntax.Walk(file, (node) => {
    if (node === null) return true;
    const type = syntax.NodeType(node);
    const risky = RISKY_NODES[type];
    if (risky) fallbacks.add(risky);
    if (type === "Stmt") {
      if (node.Background) fallbacks.add("a background job (&)");
      for (const r of node.Redirs as ShNode[]) {
        const why = redirectFallback(r);
        if (why) fallbacks.add(why);
      }
    }
    if (type === "CallExpr") {
      if ((node.Assigns as ShNode[]).length > 0) fallbacks.add("a variable assignment (FOO=… before or as a command)");
      const words = (node.Args as ShNode[]).map(wordOf);
      if (words.length === 0) return true;
      commands.push({ words, origin: "direct" });
      const wrapped = commandChecks ? commandFallback(words) : null;
      if (wrapped) {
        fallbacks.add(wrapped.reason);
        for (const inner of wrapped.inner) commands.push({ words: inner, origin: "wrapped" });
        if (wrapped.script !== undefined && depth < 3) {
          const nested = analyze(wrapped.script, depth + 1, true);
          if (nested.ok) for (const c of nested.commands) commands.push({ words: c.words, origin: "wrapped" });
        }
      }
    }
    return true;
  });
}

function redirectFallback(r: ShNode): string | null {
  const op = sh().redirectOps.get(r.Op as number);
  // A here-document feeds text in; its expansions are walked like any other word.
  if (op === "<<" || op === "<<-") return null;
  const target = wordOf(r.Word as ShNode);
  if (op === ">&" || op === "<&") {
    if (target.literal && (target.text === "-" || isDigits(target.text))) return null;
  } else if (target.literal && target.text === "/dev/null" && op !== "<>") {
    return null;
  }
  return `a redirection to or from a file (${op ?? "?"} ${target.literal ? target.text : "…"})`;
}

function isDigits(s: string): boolean {
  if (s === "") return false;
  for (const ch of s) if (ch < "0" || ch > "9") return false;
  return true;
}

/** A word's text as the shell would pass it, or not literal when any part expands. */
function wordOf(word: ShNode): ShellWord {
  const { syntax } = sh();
  let text = "";
  let literal = true;
  const parts = word.Parts as ShNode[];
  parts.forEach((part, i) => {
    const type = syntax.NodeType(part);
    if (type === "Lit") {
      const lit = unescapeLit(part.Value as string, false, i === 0);
      text += lit.text;
      literal &&= lit.literal;
    } else if (type === "SglQuoted") {
      text += part.Value as string;
      literal &&= part.Dollar !== true;
    } else if (type === "DblQuoted") {
      if (part.Dollar === true) literal = false;
      for (const inner of part.Parts as ShNode[]) {
        if (syntax.NodeType(inner) !== "Lit") {
          literal = false;
          continue;
        }
        const lit = unescapeLit(inner.Value as string, true, false);
        text += lit.text;
        literal &&= lit.literal;
      }
    } else {
      literal = false; // parameter, command or arithmetic expansion, globs the parser knows
    }
  });
  return { text, literal };
}

const DOUBLE_QUOTE_ESCAPES = new Set(["$", "`", '"', "\\", "\n"]);

/**
 * Removes the shell's backslash escapes from a literal as the parser left it. Unquoted, an unescaped
 * glob or brace character, a leading `~` (tilde expansion) or a `$` makes the word not literal.
 */
function unescapeLit(raw: string, quoted: boolean, first: boolean): ShellWord {
  let text = "";
  let literal = true;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === "\\" && i + 1 < raw.length && (!quoted || DOUBLE_QUOTE_ESCAPES.has(raw[i + 1]!))) {
      i++;
      if (raw[i] !== "\n") text += raw[i];
      continue;
    }
    if (ch === "$") literal = false;
    if (!quoted && (ch === "*" || ch === "?" || ch === "[" || ch === "{" || ch === "}")) literal = false;
    if (!quoted && first && i === 0 && ch === "~") literal = false;
    text += ch;
  }
  return { text, literal };
}
