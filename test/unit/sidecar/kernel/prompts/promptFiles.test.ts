// biome-ignore-all lint/suspicious/noTemplateCurlyInString: prompt file texts, whose ${…} variables are the subject
// Prompt files (issue 27, item 3), read from real files in a temp folder through the real anchored
// workspace and mode catalog. Invariants: each convention's files are listed by name with their
// description, questions and mode (Copilot's `agent` is Code); a malformed file, an unknown mode, a
// name taken by an earlier folder, a linked file and one cut by the size bound are listed with why,
// never run; expansion fills inputs, editor parts and arguments in one pass (a value is never
// expanded again), leaves other `${…}` as written, appends arguments a body has no place for, and
// refuses, saying what is missing, when an input, the selection or the file is not given;
// Restricted Mode reads none of them.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { modeReader } from "../../../../../sidecar/kernel/modes/modeCatalog.js";
import { promptReader } from "../../../../../sidecar/kernel/prompts/promptCatalog.js";
import { expandPrompt } from "../../../../../sidecar/kernel/prompts/promptExpand.js";
import { parsePromptFile } from "../../../../../sidecar/kernel/prompts/promptFile.js";
import { buildWorkspaceTools } from "../../../../../sidecar/tools/buildWorkspaceTools.js";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hearth-prompts-")));
const ws = path.join(root, "ws");
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
};
write(
  ".hearth/prompts/review.md",
  "---\ndescription: Review a file\nmode: ask\nargument-hint: FOCUS\n---\nReview ${file} for $ARGUMENTS.\n",
);
write(".hearth/prompts/fix.md", "Fix ${input:bug:what is broken} in ${selection}; then test ${input:bug}.\n");
write(".hearth/prompts/bad.md", "---\ndescription: [unclosed\n---\nbody\n");
write(".hearth/prompts/wide.md", "---\nmode: yolo\n---\nDo it.\n");
write(".hearth/prompts/big.md", "x".repeat(40 << 10));
write(
  ".github/prompts/commit.prompt.md",
  "---\ndescription: Write a commit message\nagent: agent\ntools: [git]\nmodel: gpt-5\n---\nWrite a commit message for {{args}}.\n",
);
write(".github/prompts/review.prompt.md", "Copilot's review.\n");
write(".github/prompts/notes.md", "not a .prompt.md file: not a prompt\n");
write(".claude/commands/issue.md", "---\ndescription: Work on an issue\n---\nFix issue #$1 with priority $2 ($ARGUMENTS).\n");
fs.symlinkSync(path.join(ws, ".hearth/prompts/review.md"), path.join(ws, ".hearth/prompts/linked.md"));
write("src/app.ts", "export {};\n");
const tools = buildWorkspaceTools({ workspaceRoot: ws, shell: false });
const prompts = promptReader({ tools, modes: modeReader(tools) });
after(() => {
  tools.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("the prompt files listed (issue 27, item 3)", () => {
  it("lists each convention's files with description, questions, needs and mode; the problem of each that cannot run", async () => {
    const { prompts: list, notes } = await prompts.list(false);
    assert.deepEqual(notes, []);
    const byKey = new Map(list.map((p) => [p.source, p]));
    assert.deepEqual(
      list.map((p) => p.source),
      [
        ".hearth/prompts/bad.md",
        ".hearth/prompts/big.md",
        ".hearth/prompts/fix.md",
        ".hearth/prompts/review.md",
        ".hearth/prompts/wide.md",
        ".github/prompts/commit.prompt.md",
        ".github/prompts/review.prompt.md",
        ".claude/commands/issue.md",
      ],
      "Hearth's folder first, then Copilot's, then Claude's; a link and a file without the suffix are not read",
    );
    assert.deepEqual(byKey.get(".hearth/prompts/review.md"), {
      name: "review",
      description: "Review a file",
      argumentHint: "FOCUS",
      source: ".hearth/prompts/review.md",
      origin: "hearth",
      mode: "ask",
      inputs: [],
      needs: { selection: false, file: true },
      ignored: [],
    });
    const fix = byKey.get(".hearth/prompts/fix.md")!;
    assert.deepEqual(fix.inputs, [{ name: "bug", placeholder: "what is broken" }], "an input asked twice is one question");
    assert.deepEqual(fix.needs, { selection: true, file: false });
    const commit = byKey.get(".github/prompts/commit.prompt.md")!;
    assert.equal(commit.name, "commit");
    assert.equal(commit.mode, "code", "Copilot's agent mode is Hearth's Code");
    assert.deepEqual(commit.ignored, ["tools", "model"], "front matter Hearth does not apply is named, not hidden");
    assert.match(byKey.get(".hearth/prompts/bad.md")!.problem!, /bad\.md: its front matter is not YAML.*docs\/prompts\.md/);
    assert.match(byKey.get(".hearth/prompts/wide.md")!.problem!, /mode "yolo" is not one of the modes \(code, ask, plan\)/);
    assert.match(byKey.get(".hearth/prompts/big.md")!.problem!, /longer than the prompt file bound/);
    assert.match(byKey.get(".github/prompts/review.prompt.md")!.problem!, /\/review is taken by \.hearth\/prompts\/review\.md; rename one/);
  });

  it("a prompt that cannot run is refused by name with its problem; an unknown name lists the prompts there are", async () => {
    await assert.rejects(prompts.find("bad", false), /refused \/bad: .*not YAML/);
    await assert.rejects(
      prompts.find("nope", false),
      /no prompt file named "nope".*The prompts are fix, review, commit, issue; add one as \.hearth\/prompts\/nope\.md/,
    );
    assert.equal((await prompts.find("review", false)).source, ".hearth/prompts/review.md", "the earlier folder's file wins the name");
  });

  it("Restricted Mode reads no prompt file and says why", async () => {
    const { prompts: list, notes } = await prompts.list(true);
    assert.deepEqual(list, []);
    assert.match(notes[0]!, /not trusted \(Restricted Mode\).*trust the folder/);
    await assert.rejects(prompts.find("review", true), /no prompt file named "review" \(the folder is not trusted/);
  });
});

describe("a prompt file expanded (issue 27, item 3)", () => {
  const values = { args: "", inputs: {}, workspaceFolder: "/home/me/proj" };

  it("fills inputs, the selection, the file and the arguments in one pass: a value is never expanded again", async () => {
    const fix = await prompts.find("fix", false);
    const r = expandPrompt(fix, { ...values, inputs: { bug: "the ${file} crash" }, selection: "parse($ARGUMENTS)" });
    assert.deepEqual(r, { ok: true, text: "Fix the ${file} crash in parse($ARGUMENTS); then test the ${file} crash." });
    const review = await prompts.find("review", false);
    assert.deepEqual(expandPrompt(review, { ...values, args: "error handling", file: "src/app.ts" }), {
      ok: true,
      text: "Review src/app.ts for error handling.",
    });
  });

  it("VS Code's file parts and workspace folder, and other ${…} left as written (prompts quote code)", () => {
    const p = parsePromptFile(
      "x.md",
      "${fileBasename} ${fileBasenameNoExtension} ${fileDirname} ${workspaceFolderBasename} ${workspaceFolder} `${name}`",
      "hearth",
      ".md",
    );
    assert.ok(p.ok);
    if (!p.ok) return;
    assert.deepEqual(p.prompt.needs, { selection: false, file: true });
    assert.deepEqual(expandPrompt(p.prompt, { ...values, file: "src/lib/app.test.ts" }), {
      ok: true,
      text: "app.test.ts app.test src/lib proj /home/me/proj `${name}`",
    });
  });

  it("Claude's $1…$9 take the words of the arguments; Gemini's {{args}} the whole", async () => {
    const issue = await prompts.find("issue", false);
    assert.deepEqual(expandPrompt(issue, { ...values, args: "123 high" }), {
      ok: true,
      text: "Fix issue #123 with priority high (123 high).",
    });
    const commit = await prompts.find("commit", false);
    assert.deepEqual(expandPrompt(commit, { ...values, args: "the parser fix" }), {
      ok: true,
      text: "Write a commit message for the parser fix.",
    });
    const hearth = parsePromptFile("x.md", "awk '{print $1}'", "hearth", ".md");
    assert.ok(hearth.ok && expandPrompt(hearth.prompt, values).ok && hearth.prompt.body === "awk '{print $1}'");
    if (hearth.ok) assert.deepEqual(expandPrompt(hearth.prompt, { ...values, args: "x" }), { ok: true, text: "awk '{print $1}'\n\nx" });
  });

  it("the front matter ends at a `---` line of its own; an empty block is none", () => {
    const dashes = parsePromptFile("x.md", "---\ndescription: a---\n---\nBody.\n", "hearth", ".md");
    assert.ok(dashes.ok && dashes.prompt.description === "a---" && dashes.prompt.body === "Body.", JSON.stringify(dashes));
    const empty = parsePromptFile("x.md", "---\n---\nBody.\n", "hearth", ".md");
    assert.ok(empty.ok && empty.prompt.description === "" && empty.prompt.body === "Body.", JSON.stringify(empty));
  });

  it("arguments a body names no place for follow it after a blank line; none given, nothing is added", () => {
    const p = parsePromptFile("x.md", "---\ndescription: d\n---\n\nExplain this.\n", "copilot", ".prompt.md");
    assert.ok(p.ok);
    if (!p.ok) return;
    assert.equal(p.prompt.body, "Explain this.");
    assert.deepEqual(expandPrompt(p.prompt, { ...values, args: "the cache" }), { ok: true, text: "Explain this.\n\nthe cache" });
    assert.deepEqual(expandPrompt(p.prompt, values), { ok: true, text: "Explain this." });
  });

  it("refuses, saying what is missing, when an input, the selection or the file is not given", async () => {
    const odd = parsePromptFile("x.md", "Call ${input:constructor}.", "hearth", ".md");
    assert.ok(odd.ok);
    if (odd.ok) {
      assert.deepEqual(expandPrompt(odd.prompt, values), { ok: false, problem: "/x asks for constructor: no answer was given" });
      assert.deepEqual(expandPrompt(odd.prompt, { ...values, inputs: { constructor: "c" } }), { ok: true, text: "Call c." });
    }
    const fix = await prompts.find("fix", false);
    assert.deepEqual(expandPrompt(fix, { ...values, selection: "x" }), { ok: false, problem: "/fix asks for bug: no answer was given" });
    assert.deepEqual(expandPrompt(fix, { ...values, inputs: { bug: "b", bugs: "c" }, selection: "x" }), {
      ok: false,
      problem: "/fix asks no question named bugs (it asks bug)",
    });
    assert.match(
      (expandPrompt(fix, { ...values, inputs: { bug: "b" } }) as { problem: string }).problem,
      /uses the selection: select text/,
    );
    const review = await prompts.find("review", false);
    assert.match((expandPrompt(review, values) as { problem: string }).problem, /uses the current file: open a file of the folder/);
  });
});

describe("prompt files refused (issue 27, item 3)", () => {
  for (const [text, why] of [
    ["---\ndescription: d\n---\n", /no prompt after its front matter/],
    ["---\n- a\n- b\n---\nx", /not a set of `key: value` lines/],
    ["---\nname: Big Name\n---\nx", /name "Big Name" must be lowercase/],
    ["---\nmode: ask\nagent: plan\n---\nx", /names both mode and agent/],
    ["---\ndescription: [1]\n---\nx", /description must be text/],
    ["Use ${input:} here", /`\$\{input:\}` is not an input/],
  ] as const) {
    it(`refuses ${JSON.stringify(text)} saying why and where the format is`, () => {
      const r = parsePromptFile(".hearth/prompts/x.md", text, "hearth", ".md");
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.match(r.problem, why);
        assert.match(r.problem, /^\.hearth\/prompts\/x\.md: .*docs\/prompts\.md/);
        assert.equal(r.name, "x", "listed under its file's name");
      }
    });
  }
});
