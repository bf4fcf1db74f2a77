// The project's instruction files (issue 27, item 1) are found by their peers' conventions and read
// through the workspace descriptor on every resolver (harness #9): a link is never followed, a large
// file is cut and says so, a rules folder gives one source per file, nested AGENTS.md files name
// the folder they apply to, shallower first.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { SECRET, STATIC_RESOLVERS, suiteSandbox } from "./hostileSupport.js";

function write(root: string, rel: string, text: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/** The suite shares one workspace: each test starts from the sandbox's own files. */
function reset(ws: string): void {
  for (const name of fs.readdirSync(ws)) if (name !== "a.txt" && name !== "dir") fs.rmSync(path.join(ws, name), { recursive: true });
}

for (const resolver of STATIC_RESOLVERS) {
  describe(`instruction files, ${resolver} resolver (issue 27, harness #9)`, () => {
    const s = suiteSandbox(resolver);

    test("finds every convention in its order, a rules folder file by file, nested AGENTS.md shallower first", async () => {
      const ws = s().ws;
      reset(ws);
      write(ws, "AGENTS.md", "root agents");
      write(ws, "CLAUDE.md", "claude");
      write(ws, ".clinerules/02-style.md", "style");
      write(ws, ".clinerules/01-tests.md", "tests");
      write(ws, ".clinerules/.DS_Store", "junk");
      write(ws, ".roorules", "roo file");
      write(ws, ".roo/rules/a.md", "roo all modes");
      write(ws, ".roo/rules-code/b.md", "roo code mode");
      write(ws, ".roo/rules-ask/c.md", "roo ask mode");
      write(ws, ".continue/rules/x.md", "continue");
      write(ws, ".github/copilot-instructions.md", "copilot");
      write(ws, ".cursorrules", "cursor");
      write(ws, "pkg/api/deep/AGENTS.md", "deep");
      write(ws, "pkg/AGENTS.md", "pkg");
      write(ws, "node_modules/lib/AGENTS.md", "not ours");
      const scan = await s().built.instructionFiles("code");
      assert.deepEqual(
        scan.files.map((f) => [f.path, f.origin, f.scope, f.text]),
        [
          ["AGENTS.md", "agents", "", "root agents"],
          ["CLAUDE.md", "claude", "", "claude"],
          [".clinerules/01-tests.md", "cline", "", "tests"],
          [".clinerules/02-style.md", "cline", "", "style"],
          [".roorules", "roo", "", "roo file"],
          [".roo/rules/a.md", "roo", "", "roo all modes"],
          [".roo/rules-code/b.md", "roo", "", "roo code mode"],
          [".continue/rules/x.md", "continue", "", "continue"],
          [".github/copilot-instructions.md", "copilot", "", "copilot"],
          [".cursorrules", "cursor", "", "cursor"],
          ["pkg/AGENTS.md", "agents", "pkg", "pkg"],
          ["pkg/api/deep/AGENTS.md", "agents", "pkg/api/deep", "deep"],
        ],
      );
      assert.deepEqual(scan.notes, []);
    });

    test(".clinerules as a file; a large file is cut at the bound and says its whole size", async () => {
      const ws = s().ws;
      reset(ws);
      write(ws, ".clinerules", "one file of rules");
      write(ws, "AGENTS.md", "é".repeat(20_000)); // 40,000 bytes of two-byte characters
      const scan = await s().built.instructionFiles();
      const agents = scan.files.find((f) => f.path === "AGENTS.md");
      assert.ok(agents?.cut && agents.bytes === 40_000, JSON.stringify({ ...agents, text: undefined }));
      assert.equal(agents.text, "é".repeat((16 << 10) / 2), "cut at the per-file bound, on a character boundary");
      assert.equal(scan.files.find((f) => f.path === ".clinerules")?.text, "one file of rules");
    });

    test("a link is not followed (file, rules folder or nested AGENTS.md); a binary file is a problem, not text", async () => {
      const ws = s().ws;
      reset(ws);
      fs.symlinkSync(path.join(s().outside, "secret.txt"), path.join(ws, "AGENTS.md"));
      fs.symlinkSync(path.join(s().outside, "dir"), path.join(ws, ".clinerules"));
      fs.mkdirSync(path.join(ws, "sub"));
      fs.symlinkSync(path.join(s().outside, "secret.txt"), path.join(ws, "sub", "AGENTS.md"));
      write(ws, ".cursorrules", Buffer.from([0, 1, 2, 3]));
      const scan = await s().built.instructionFiles();
      assert.ok(!JSON.stringify(scan).includes(SECRET), "nothing from outside the workspace was read");
      const byPath = new Map(scan.files.map((f) => [f.path, f]));
      assert.match(byPath.get("AGENTS.md")?.problem ?? "", /symbolic link/);
      assert.equal(byPath.get("AGENTS.md")?.text, null);
      assert.match(byPath.get(".cursorrules")?.problem ?? "", /not UTF-8 text/);
      assert.equal(byPath.has("sub/AGENTS.md"), false, "a linked nested AGENTS.md is not a file of the walk");
    });
  });
}
