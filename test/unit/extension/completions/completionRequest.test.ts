// What a completion sends and shows (issue 31): a bounded window around the cursor whose start stays put
// while a person types on a line (so the kernel reuses its cache), suggestions cut to whole lines, and
// completions only where the person wants them.
import assert from "node:assert/strict";
import { it } from "node:test";
import {
  completionsWanted,
  completionWindow,
  PREFIX_CHARS,
  SUFFIX_CHARS,
  shownSuggestion,
} from "../../../../extension/completions/completionRequest.js";

const file = Array.from({ length: 2_000 }, (_, i) => `line ${i} of the file`).join("\n");

it("sends the whole text around the cursor of a small file", () => {
  const text = "function add(a, b) {\n  \n}\n";
  const at = text.indexOf("  ") + 2;
  assert.deepEqual(completionWindow(text, at), { prefix: text.slice(0, at), suffix: text.slice(at) });
});

it("bounds both sides of a large file, starting the prefix at a line start and ending the suffix at a line end", () => {
  const at = file.indexOf("line 1000 of") + 5;
  const { prefix, suffix } = completionWindow(file, at);
  assert.ok(prefix.length <= PREFIX_CHARS + PREFIX_CHARS / 4 && prefix.length > PREFIX_CHARS / 2, `prefix ${prefix.length}`);
  assert.ok(suffix.length <= SUFFIX_CHARS, `suffix ${suffix.length}`);
  assert.match(prefix, /^line \d+ of the file\n/, "the prefix starts at a line start");
  assert.ok(file.slice(at).startsWith(suffix) && file.slice(at + suffix.length).startsWith("\n"), "the suffix ends at a line end");
  assert.ok(file.slice(0, at).endsWith(prefix));
});

it("keeps the prefix's start while a person types on a line: the cached prefix is reused between keystrokes", () => {
  const at = file.indexOf("line 1500 of");
  const starts = new Set<number>();
  let text = file;
  for (let typed = 0; typed < 40; typed++) {
    text = `${text.slice(0, at + typed)}x${text.slice(at + typed)}`;
    const { prefix } = completionWindow(text, at + typed + 1);
    starts.add(at + typed + 1 - prefix.length);
  }
  assert.equal(starts.size, 1, `the prefix started at ${[...starts].join(", ")}`);
});

it("shows at most maxLines whole lines of a suggestion, and nothing for a blank one", () => {
  assert.equal(shownSuggestion("a\nb\nc\nd", 2), "a\nb");
  assert.equal(shownSuggestion("return a + b;\n\n", 8), "return a + b;");
  assert.equal(shownSuggestion("  \n\n", 8), "");
});

it("offers completions only when on and not in a turned-off language", () => {
  const settings = { enabled: true, disabledLanguages: ["markdown"], maxLines: 8, model: "" };
  assert.equal(completionsWanted(settings, "typescript"), true);
  assert.equal(completionsWanted(settings, "markdown"), false);
  assert.equal(completionsWanted({ ...settings, enabled: false }, "typescript"), false);
});
