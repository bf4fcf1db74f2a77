// The shell command parser (issue 27, item 4): words as the shell passes them, every simple command
// found wherever it hides, and what a wrapper would run kept apart for deny rules.
import assert from "node:assert/strict";
import { before, it } from "node:test";
import { analyzeShellCommand, loadShellParser, parsePattern } from "../../../../../sidecar/kernel/policy/shellCommand.js";

before(() => loadShellParser());

function commands(text: string) {
  const a = analyzeShellCommand(text);
  assert.ok(a.ok, text);
  return a.commands.map((c) => `${c.origin}:${c.words.map((w) => (w.literal ? w.text : `<${w.text}>`)).join(" ")}`);
}

it("words come out as the shell passes them: quotes and escapes removed, expansions marked", () => {
  assert.deepEqual(commands(`'a b' "c\\"d" e\\ f "$x" ~ *.ts`), ['direct:a b c"d e f <> <~> <*.ts>']);
  assert.deepEqual(commands(`echo "\\q"`), ["direct:echo \\q"], "inside double quotes a backslash before q stays");
});

it("finds the simple commands of lists, pipes, groups, loops and substitutions", () => {
  assert.deepEqual(commands("a; b && c | d\n(e); { f; }; $(g); `h`"), [
    "direct:a",
    "direct:b",
    "direct:c",
    "direct:d",
    "direct:e",
    "direct:f",
    "direct:<>",
    "direct:g",
    "direct:<>",
    "direct:h",
  ]);
});

it("what a wrapper or a shell script would run is kept as wrapped, for deny rules only", () => {
  assert.deepEqual(commands("sh -c 'x y'"), ["direct:sh -c x y", "wrapped:x y"]);
  assert.deepEqual(commands("nohup x y"), ["direct:nohup x y", "wrapped:x y", "wrapped:y"]);
});

it("the parser's error, the invisible characters and each construct are said in the analysis", () => {
  const bad = analyzeShellCommand("echo 'x");
  assert.ok(!bad.ok && /without closing quote/.test(bad.error));
  const hidden = analyzeShellCommand("ls\u200b");
  assert.ok(!hidden.ok && /U\+200B/.test(hidden.error));
  const a = analyzeShellCommand("A=1 x $(y) > f &");
  assert.ok(a.ok);
  assert.deepEqual([...a.fallbacks].sort(), [
    "a background job (&)",
    "a redirection to or from a file (> f)",
    "a variable assignment (FOO=… before or as a command)",
    "command substitution ($(…) or backticks)",
  ]);
});

it("a pattern is one simple command of literal words, with a last * for any further words", () => {
  assert.deepEqual(parsePattern("npm 'run' *"), { ok: true, words: ["npm", "run"], rest: true });
  assert.deepEqual(parsePattern("npm test"), { ok: true, words: ["npm", "test"], rest: false });
  assert.equal(parsePattern("a | b").ok, false);
});
