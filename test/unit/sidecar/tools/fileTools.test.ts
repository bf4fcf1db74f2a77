// What the file tools return on ordinary input, and that their bounds hold (harness #9).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { buildWorkspaceTools } from "../../../../sidecar/tools/buildWorkspaceTools.js";
import { sandbox, type Sandbox } from "./hostileSupport.js";

describe("file tools (harness #9)", () => {
  let s: Sandbox;
  before(() => {
    s = sandbox();
  });
  after(() => {
    s.assertOutsideUntouched();
    s.dispose();
  });

  test("read_file returns a 1-based inclusive line range and refuses a bad one", async () => {
    assert.equal((await s.call("read_file", { path: "a.txt", startLine: 2, endLine: 2 })).output, "beta");
    assert.equal((await s.call("read_file", { path: "a.txt", startLine: 2 })).output, "beta\ngamma\n");
    assert.match((await s.call("read_file", { path: "a.txt", startLine: 9 })).output, /has 3 lines; startLine 9 is past the end/);
    assert.match((await s.call("read_file", { path: "a.txt", startLine: 3, endLine: 2 })).output, /endLine 2 is before startLine 3/);
    assert.match((await s.call("read_file", { path: "nope.txt" })).output, /does not exist in .*; list the folder with list_dir/);
  });

  test("list_dir is bounded in depth and entries, and marks directories and links", async () => {
    for (let i = 0; i < 30; i++) fs.writeFileSync(path.join(s.ws, "dir", `n${String(i).padStart(2, "0")}.txt`), "");
    fs.mkdirSync(path.join(s.ws, "dir", "sub", "subsub"), { recursive: true });
    fs.mkdirSync(path.join(s.ws, "node_modules", "pkg"), { recursive: true });
    const shallow = await s.call("list_dir", { path: "." });
    assert.match(shallow.output, /^a\.txt\ndir\/\nnode_modules\/$/m);
    const deep = await s.call("list_dir", { path: ".", depth: 3 });
    assert.match(deep.output, /\n {4}subsub\//);
    assert.match(deep.output, /node_modules\/ \(not expanded\)/);
    assert.doesNotMatch(deep.output, /pkg/);
    assert.match(
      (await s.call("list_dir", { path: ".", depth: 99 })).output,
      /^refused: list_dir arguments do not match its schema \(\$\.depth: above the maximum 3\)/,
    );
    const small = buildWorkspaceTools({ workspaceRoot: s.ws, shell: false, ceilings: { listMaxEntries: 10 } });
    try {
      const t = small.tools.find((x) => x.definition.name === "list_dir")!;
      const ctx = { callId: "c", signal: new AbortController().signal };
      const r = await t.invoke({ path: "dir" }, await t.propose({ path: "dir" }, ctx), ctx);
      assert.equal(r.output.split("\n").length, 11);
      assert.match(r.output, /\[stopped at 10 entries, inside `dir`, which has more; list a subdirectory for more\]$/);
    } finally {
      small.close();
    }
  });

  test("search_files finds literal text with paths and line numbers, bounded in matches", async () => {
    fs.writeFileSync(path.join(s.ws, "dir", "code.ts"), "const a = 1;\n// needle (here)\nconst b = 2; // NEEDLE (here)\n");
    const r = await s.call("search_files", { pattern: "needle (here)" });
    assert.equal(r.output, "dir/code.ts:2: // needle (here)");
    const folded = await s.call("search_files", { pattern: "needle (here)", path: "dir", caseSensitive: false });
    assert.equal(folded.output.split("\n").length, 2);
    const many = buildWorkspaceTools({ workspaceRoot: s.ws, shell: false, ceilings: { searchMaxMatches: 1 } });
    try {
      const t = many.tools.find((x) => x.definition.name === "search_files")!;
      const ctx = { callId: "c", signal: new AbortController().signal };
      const out = await t.invoke({ pattern: "const" }, await t.propose({ pattern: "const" }, ctx), ctx);
      assert.match(out.output, /^dir\/code\.ts:1: const a = 1;\n\[stopped at 1 matches; narrow the path or the pattern\]$/);
    } finally {
      many.close();
    }
  });

  test("issue 11 item 6: search_files is bounded in folders visited, not only files, and says where it stopped (harness #9)", async () => {
    // 3,000 empty folders, a 100-folder limit and an entry limit above the folder count: before the
    // fix the walk opened every folder and reported no bound, because only files counted.
    const tree = path.join(s.ws, "empty");
    for (let i = 0; i < 3000; i++) fs.mkdirSync(path.join(tree, `d${String(i).padStart(4, "0")}`), { recursive: true });
    const small = buildWorkspaceTools({ workspaceRoot: s.ws, shell: false, ceilings: { searchMaxFiles: 4000, searchMaxDirs: 100 } });
    try {
      const t = small.tools.find((x) => x.definition.name === "search_files")!;
      const ctx = { callId: "c", signal: new AbortController().signal };
      const out = await t.invoke({ pattern: "x", path: "empty" }, await t.propose({ pattern: "x", path: "empty" }, ctx), ctx);
      assert.equal(
        out.output,
        'no matches for "x" in 0 files under `empty`\n[stopped at 100 folders, before entering `empty/d0100`; narrow the path or the pattern]',
      );
    } finally {
      small.close();
      fs.rmSync(tree, { recursive: true });
    }
  });

  test("issue 23 item 10: search_files counts every entry it reads, links and special files too, and says which folder it stopped in (harness #9)", async () => {
    // 40 links and one file: before the fix links were not counted, so no bound applied to them.
    const links = path.join(s.ws, "links");
    fs.mkdirSync(links);
    for (let i = 0; i < 40; i++) fs.symlinkSync("../a.txt", path.join(links, `l${String(i).padStart(2, "0")}`));
    const small = buildWorkspaceTools({ workspaceRoot: s.ws, shell: false, ceilings: { searchMaxFiles: 10 } });
    try {
      const t = small.tools.find((x) => x.definition.name === "search_files")!;
      const ctx = { callId: "c", signal: new AbortController().signal };
      const out = await t.invoke({ pattern: "x", path: "links" }, await t.propose({ pattern: "x", path: "links" }, ctx), ctx);
      assert.equal(
        out.output,
        'no matches for "x" in 0 files under `links`\n[stopped at 10 entries, inside `links`, which has more; narrow the path or the pattern]',
      );
    } finally {
      small.close();
      fs.rmSync(links, { recursive: true });
    }
  });

  test("issue 23 item 10: list_dir reads a folder as a bounded stream: it yields to the event loop and says which folder has more (harness #9)", async () => {
    const wide = path.join(s.ws, "wide");
    fs.mkdirSync(wide);
    for (let i = 0; i < 2000; i++) fs.writeFileSync(path.join(wide, `w${i}`), "");
    const small = buildWorkspaceTools({ workspaceRoot: s.ws, shell: false, ceilings: { listMaxEntries: 10 } });
    try {
      const t = small.tools.find((x) => x.definition.name === "list_dir")!;
      const ctx = { callId: "c", signal: new AbortController().signal };
      const proposal = await t.propose({ path: "wide" }, ctx);
      // A whole-folder readdirSync finishes inside this call's first step; a stream read waits for I/O.
      let yielded = false;
      setImmediate(() => {
        yielded = true;
      });
      const r = await t.invoke({ path: "wide" }, proposal, ctx);
      assert.ok(yielded, "the event loop ran while the folder was read");
      const lines = r.output.split("\n");
      assert.equal(lines.length, 11);
      assert.deepEqual(lines.slice(0, -1), [...lines.slice(0, -1)].sort(), "what was read is shown in name order");
      assert.equal(lines.at(-1), "[stopped at 10 entries, inside `wide`, which has more; list a subdirectory for more]");
    } finally {
      small.close();
      fs.rmSync(wide, { recursive: true });
    }
  });
});
