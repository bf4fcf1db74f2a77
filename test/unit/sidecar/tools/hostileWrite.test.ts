// Hostile conditions around mutation (harness #17, #22): the target changes between proposal
// and write, the disk fills, the edit is ambiguous. The old file stays intact, no temp is left,
// and no success is reported.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { STATIC_RESOLVERS, assertRefused, suiteSandbox } from "./hostileSupport.js";

const FULL_DISK_CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), "children", "fullDiskWrite.ts");
const ctx = () => ({ callId: crypto.randomUUID(), signal: new AbortController().signal });

function noTemps(dir: string): void {
  assert.deepEqual(
    fs.readdirSync(dir).filter((n) => n.includes(".hearth-")),
    [],
    "a temp file was left behind",
  );
}

for (const resolver of STATIC_RESOLVERS) {
  describe(`hostile mutation, ${resolver} resolver (harness #17, #22)`, () => {
    const s = suiteSandbox(resolver);

    async function proposeThen(name: string, args: Record<string, unknown>, meanwhile: () => void) {
      const t = s().tool(name);
      const c = ctx();
      const proposal = await t.propose(args, c);
      assert.equal(proposal.preview.kind, "diff");
      meanwhile();
      return t.invoke(args, proposal, c);
    }

    test("a file edited between proposal and write is not overwritten (harness #17)", async () => {
      const file = path.join(s().ws, "a.txt");
      const r = await proposeThen("write_file", { path: "a.txt", content: "mine\n" }, () => fs.appendFileSync(file, "theirs\n"));
      assertRefused(r, /changed after the change was proposed.*propose the change anew/);
      assert.equal(fs.readFileSync(file, "utf8"), "alpha\nbeta\ngamma\ntheirs\n");
      noTemps(s().ws);
    });

    test("a file replaced with identical content (new inode) is not overwritten (harness #17)", async () => {
      const file = path.join(s().ws, "a.txt");
      const r = await proposeThen("edit_file", { path: "a.txt", oldText: "beta", newText: "BETA" }, () => {
        const copy = fs.readFileSync(file);
        fs.writeFileSync(file + ".new", copy);
        fs.renameSync(file + ".new", file);
      });
      assertRefused(r, /changed after the change was proposed/);
      assert.doesNotMatch(fs.readFileSync(file, "utf8"), /BETA/);
    });

    test("a file deleted between proposal and write is not recreated (harness #17)", async () => {
      fs.writeFileSync(path.join(s().ws, "gone.txt"), "x\n");
      const r = await proposeThen("write_file", { path: "gone.txt", content: "y\n" }, () => fs.unlinkSync(path.join(s().ws, "gone.txt")));
      assertRefused(r, /was deleted after the change was proposed/);
      assert.equal(fs.existsSync(path.join(s().ws, "gone.txt")), false);
    });

    test("a file created by someone else after proposing a new file is not replaced (harness #17)", async () => {
      const file = path.join(s().ws, "fresh.txt");
      const r = await proposeThen("write_file", { path: "fresh.txt", content: "mine\n" }, () => fs.writeFileSync(file, "theirs\n"));
      assertRefused(r, /was created by someone else/);
      assert.equal(fs.readFileSync(file, "utf8"), "theirs\n");
    });

    test("a proposal invoked with other arguments is refused (harness #8, #17)", async () => {
      const t = s().tool("write_file");
      const c = ctx();
      const proposal = await t.propose({ path: "a.txt", content: "approved\n" }, c);
      assertRefused(await t.invoke({ path: "a.txt", content: "smuggled\n" }, proposal, c), /arguments other than the proposed ones/);
    });

    test("edit_file must match exactly once, and says how to fix it (harness #17)", async () => {
      fs.writeFileSync(path.join(s().ws, "twice.txt"), "x = 1\nx = 1\n");
      assertRefused(
        await s().call("edit_file", { path: "twice.txt", oldText: "x = 1", newText: "x = 2" }),
        /occurs 2 times.*include more surrounding lines/,
      );
      assertRefused(
        await s().call("edit_file", { path: "twice.txt", oldText: "y = 1", newText: "x = 2" }),
        /was not found.*copy the text exactly/,
      );
      assertRefused(await s().call("edit_file", { path: "missing.txt", oldText: "a", newText: "b" }), /does not exist; use write_file/);
      assert.equal(fs.readFileSync(path.join(s().ws, "twice.txt"), "utf8"), "x = 1\nx = 1\n");
    });

    test("an approved edit installs exactly the previewed content and keeps the mode (harness #17)", async () => {
      const file = path.join(s().ws, "run.sh");
      fs.writeFileSync(file, "#!/bin/sh\necho one\n", { mode: 0o755 });
      const t = s().tool("edit_file");
      const c = ctx();
      const args = { path: "run.sh", oldText: "echo one", newText: "echo two" };
      const proposal = await t.propose(args, c);
      assert.equal(proposal.preview.kind, "diff");
      assert.match((proposal.preview as { diff: string }).diff, /-echo one\n\+echo two/);
      assert.equal(fs.readFileSync(file, "utf8"), "#!/bin/sh\necho one\n", "propose has no effects");
      const r = await t.invoke(args, proposal, c);
      assert.equal(r.ok, true, r.output);
      assert.equal(fs.readFileSync(file, "utf8"), (proposal.preview as { newContent: string }).newContent);
      assert.equal(fs.statSync(file).mode & 0o777, 0o755);
      noTemps(s().ws);
    });

    test("a full disk (file size limit) leaves the old file intact, no temp, no success (harness #17)", () => {
      const file = path.join(s().ws, "dir", "f.txt");
      const before = fs.readFileSync(file, "utf8");
      const child = spawnSync(
        "bash",
        ["-c", `ulimit -f 256; exec "${process.execPath}" --import tsx "${FULL_DISK_CHILD}" "${s().ws}" dir/f.txt 2000000`],
        {
          encoding: "utf8",
          env: { ...process.env, HEARTH_TOOLS_RESOLVER: resolver },
        },
      );
      assert.equal(child.status, 0, child.stderr);
      const result = JSON.parse(child.stdout.trim().split("\n").pop()!) as { ok: boolean; output: string };
      assert.equal(result.ok, false);
      assert.match(result.output, /was not written: .*file size limit.*previous content is unchanged/);
      assert.equal(fs.readFileSync(file, "utf8"), before);
      noTemps(path.join(s().ws, "dir"));
    });

    test("an oversized write is refused before anything is written (harness #9)", async () => {
      assertRefused(await s().call("write_file", { path: "huge.txt", content: "z".repeat((4 << 20) + 1) }), /over the \d+-byte bound/);
      assert.equal(fs.existsSync(path.join(s().ws, "huge.txt")), false);
    });
  });
}
