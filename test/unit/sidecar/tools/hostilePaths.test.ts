// Hostile paths against the real tools on a real folder (harness #9): nothing outside the
// workspace is read or written, and every refusal says what, why and what to do.
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, test } from "node:test";
import { STATIC_RESOLVERS, SECRET, assertRefused, suiteSandbox } from "./hostileSupport.js";

for (const resolver of STATIC_RESOLVERS) {
  describe(`hostile paths, ${resolver} resolver (harness #9)`, () => {
    const s = suiteSandbox(resolver);

    const traversals = [
      "..",
      "../outside/secret.txt",
      "dir/../../outside/secret.txt",
      "dir/..",
      "dir/../a.txt",
      "a.txt/..",
      "dir/f.txt/../../..",
    ];
    for (const p of traversals) {
      test(`\`..\` at any position is refused before any open: ${p} (harness #9)`, async () => {
        const r = await s().call("read_file", { path: p });
        assertRefused(r, /leaves the workspace folder; paths are relative to .* and may not contain `\.\.`/);
      });
    }

    test("absolute paths are refused, inside or outside the folder (harness #9)", async () => {
      assertRefused(await s().call("read_file", { path: "/etc/passwd" }), /is absolute/);
      assertRefused(await s().call("read_file", { path: path.join(s().outside, "secret.txt") }), /is absolute/);
      assertRefused(await s().call("read_file", { path: path.join(s().ws, "a.txt") }), /is absolute/);
      assertRefused(await s().call("write_file", { path: path.join(s().outside, "new.txt"), content: "x" }), /is absolute/);
    });

    test("`~` home references are refused (harness #9)", async () => {
      assertRefused(await s().call("read_file", { path: "~" }), /home directory/);
      assertRefused(await s().call("read_file", { path: "~/.bashrc" }), /home directory/);
      assertRefused(await s().call("list_dir", { path: "~root" }), /home directory/);
    });

    test("NUL bytes are refused and shown visibly (harness #9)", async () => {
      const r = await s().call("read_file", { path: "a.txt\0.png" });
      assertRefused(r, /NUL byte/);
      assert.match(r.output, /a\.txt\\x00\.png/);
    });

    test("empty paths and empty components are refused (harness #9)", async () => {
      assertRefused(await s().call("read_file", { path: "dir//f.txt" }), /empty component/);
      const empty = await s().call("read_file", { path: "" });
      assert.equal(empty.ok, false);
      assert.match(empty.output, /is empty|shorter than 1/);
    });

    test("`.` components are harmless and stay inside (harness #9)", async () => {
      const r = await s().call("read_file", { path: "./dir/./f.txt" });
      assert.equal(r.output, "INSIDE\n");
      assert.equal((await s().call("list_dir", { path: "." })).ok, true);
      assertRefused(await s().call("read_file", { path: "." }), /is a directory; use list_dir/);
    });

    test("a trailing slash demands a directory (harness #9)", async () => {
      assert.equal((await s().call("list_dir", { path: "dir/" })).ok, true);
      assertRefused(await s().call("read_file", { path: "a.txt/" }), /not a directory/);
      assertRefused(await s().call("write_file", { path: "dir/", content: "x" }), /names a directory/);
    });

    test("backslashes and lone surrogates are refused (harness #9)", async () => {
      assertRefused(await s().call("read_file", { path: "dir\\f.txt" }), /backslash/);
      assertRefused(await s().call("read_file", { path: "a\ud800.txt" }), /lone surrogate/);
    });

    test("very long names and paths are refused with their bound (harness #9)", async () => {
      assertRefused(await s().call("read_file", { path: "x".repeat(300) }), /longer than 255 bytes/);
      const r = await s().call("read_file", { path: "d/".repeat(2100) + "f" });
      assert.equal(r.ok, false);
      assert.match(r.output, /longer than 4096 bytes|\$\.path: longer than 4096/);
    });

    test("a long but legal deep path works and stays inside (harness #9)", async () => {
      const parts = Array.from({ length: 12 }, (_, i) => `${i}`.padStart(200, "n"));
      const rel = parts.join("/") + "/deep.txt";
      fs.mkdirSync(path.join(s().ws, ...parts), { recursive: true });
      fs.writeFileSync(path.join(s().ws, rel), "deep\n");
      assert.equal((await s().call("read_file", { path: rel })).output, "deep\n");
      assert.equal((await s().call("write_file", { path: rel, content: "deeper\n" })).ok, true);
      assert.equal(fs.readFileSync(path.join(s().ws, rel), "utf8"), "deeper\n");
    });

    test("non-UTF-8 names are listed escaped and cannot be addressed (harness #9)", async () => {
      const raw = Buffer.concat([Buffer.from(path.join(s().ws, "dir") + "/"), Buffer.from([0x66, 0xff, 0xfe, 0x2e, 0x74])]);
      fs.writeFileSync(raw, "latin1\n");
      const listing = await s().call("list_dir", { path: "dir" });
      assert.match(listing.output, /f\\xff\\xfe\.t \(name is not UTF-8; tools cannot address it\)/);
      const r = await s().call("read_file", { path: "dir/f\ufffd\ufffd.t" });
      assert.equal(r.ok, false);
      assert.match(r.output, /does not exist/);
    });

    test("a symlink as the last component is never followed, for reads (harness #9)", async () => {
      fs.symlinkSync(path.join(s().outside, "secret.txt"), path.join(s().ws, "link.txt"));
      assertRefused(await s().call("read_file", { path: "link.txt" }), /symbolic link; Hearth never follows links/);
    });

    test("a symlink as the last component is never followed, for writes and edits (harness #9)", async () => {
      fs.symlinkSync(path.join(s().outside, "secret.txt"), path.join(s().ws, "wlink.txt"));
      assertRefused(await s().call("write_file", { path: "wlink.txt", content: "pwned" }), /symbolic link/);
      assertRefused(await s().call("edit_file", { path: "wlink.txt", oldText: "SECRET", newText: "pwned" }), /symbolic link/);
      assert.ok(fs.lstatSync(path.join(s().ws, "wlink.txt")).isSymbolicLink(), "the link itself was not replaced either");
    });

    test("a symlinked directory mid-path is never entered (harness #9)", async () => {
      fs.symlinkSync(s().outside, path.join(s().ws, "out"));
      assertRefused(await s().call("read_file", { path: "out/secret.txt" }), /symbolic link/);
      assertRefused(await s().call("list_dir", { path: "out" }), /symbolic link/);
      assertRefused(await s().call("write_file", { path: "out/dropped.txt", content: "x" }), /symbolic link/);
      assertRefused(await s().call("write_file", { path: "out/newdir/dropped.txt", content: "x" }), /symbolic link/);
      const found = await s().call("search_files", { pattern: "SECRET" });
      assert.match(found.output, /^no matches/);
    });

    test("a relative symlink that stays inside is still not followed (harness #9)", async () => {
      fs.symlinkSync("a.txt", path.join(s().ws, "alias.txt"));
      assertRefused(await s().call("read_file", { path: "alias.txt" }), /symbolic link/);
      const listing = await s().call("list_dir", { path: "." });
      assert.match(listing.output, /alias\.txt \(symbolic link, not followed\)/);
    });

    test("/proc magic links are refused (harness #9)", async () => {
      fs.symlinkSync("/proc/self/root", path.join(s().ws, "procroot"));
      fs.symlinkSync("/proc/self/cwd", path.join(s().ws, "proccwd"));
      fs.symlinkSync(`/proc/self/fd/${s().built.resolver === "pathwalk" ? 0 : 3}`, path.join(s().ws, "procfd"));
      assertRefused(await s().call("read_file", { path: "procroot/etc/passwd" }), /symbolic link/);
      assertRefused(await s().call("read_file", { path: "proccwd/package.json" }), /symbolic link/);
      assertRefused(await s().call("list_dir", { path: "procfd" }), /symbolic link/);
    });

    test("hardlinked files are not read or rewritten (harness #9)", async () => {
      fs.linkSync(path.join(s().outside, "secret.txt"), path.join(s().ws, "hard.txt"));
      assertRefused(await s().call("read_file", { path: "hard.txt" }), /has 2 hard links/);
      assertRefused(await s().call("write_file", { path: "hard.txt", content: "x" }), /hard links/);
      assertRefused(await s().call("edit_file", { path: "hard.txt", oldText: "SECRET", newText: "x" }), /hard links/);
      const found = await s().call("search_files", { pattern: "SECRET" });
      assert.match(found.output, /^no matches/);
    });

    test("a FIFO is refused without blocking (harness #9)", async () => {
      const fifo = path.join(s().ws, "pipe");
      const { spawnSync } = await import("node:child_process");
      assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
      assertRefused(await s().call("read_file", { path: "pipe" }), /a FIFO \(named pipe\)/);
      assertRefused(await s().call("write_file", { path: "pipe", content: "x" }), /FIFO/);
      assert.match((await s().call("search_files", { pattern: "x" })).output, /^no matches|a\.txt/);
    });

    test("a socket is refused (harness #9)", async () => {
      const server = net.createServer();
      await new Promise<void>((resolve) => server.listen(path.join(s().ws, "sock"), resolve));
      try {
        const r = await s().call("read_file", { path: "sock" });
        assert.equal(r.ok, false);
        assertRefused(r, /is a socket.*read only regular files and directories/);
      } finally {
        server.close();
      }
    });

    test("device files are refused: mknod and a symlink to /dev/null (harness #9)", async (t) => {
      fs.symlinkSync("/dev/null", path.join(s().ws, "null-link"));
      assertRefused(await s().call("read_file", { path: "null-link" }), /symbolic link/);
      const { spawnSync } = await import("node:child_process");
      if (spawnSync("mknod", [path.join(s().ws, "null-dev"), "c", "1", "3"]).status !== 0) {
        t.diagnostic("mknod not permitted here; device node case skipped");
        return;
      }
      assertRefused(await s().call("read_file", { path: "null-dev" }), /a character device/);
      assertRefused(await s().call("write_file", { path: "null-dev", content: "x" }), /character device/);
    });

    test("a huge file is read only up to the bound (harness #9)", async () => {
      const fd = fs.openSync(path.join(s().ws, "huge.txt"), "w");
      fs.writeSync(fd, "line one\nline two\n");
      fs.ftruncateSync(fd, 64 << 20); // sparse: the rest reads as NUL bytes
      fs.closeSync(fd);
      const r = await s().call("read_file", { path: "huge.txt" });
      assertRefused(r, /looks binary/);
      fs.writeFileSync(path.join(s().ws, "big.txt"), "x".repeat(99) + "\n".repeat(1) + "y\n".repeat(1_000_000));
      const big = await s().call("read_file", { path: "big.txt" });
      assert.equal(big.ok, true);
      assert.ok(big.output.length <= (1 << 20) + 300, "the output is bounded");
      assert.match(big.output, /\[truncated: the file is \d+ bytes; only the first 1048576 bytes were read/);
    });

    test("binary files are refused by read_file and skipped by search (harness #9)", async () => {
      fs.writeFileSync(path.join(s().ws, "bin.dat"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65]));
      fs.writeFileSync(path.join(s().ws, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
      assertRefused(await s().call("read_file", { path: "bin.dat" }), /looks binary/);
      assertRefused(await s().call("read_file", { path: "latin1.txt" }), /looks binary/);
      assert.match((await s().call("search_files", { pattern: "needle" })).output, /^no matches/);
    });

    test("search_files and list_dir refuse hostile paths too (harness #9)", async () => {
      assertRefused(await s().call("search_files", { pattern: "x", path: "../outside" }), /leaves the workspace/);
      assertRefused(await s().call("list_dir", { path: "/" }), /is absolute/);
      assertRefused(await s().call("list_dir", { path: "dir/../.." }), /leaves the workspace/);
    });

    test("write_file refuses the folder itself and stays inside when creating directories (harness #9)", async () => {
      assertRefused(await s().call("write_file", { path: ".", content: "x" }), /names a directory/);
      const proposal = await s()
        .tool("write_file")
        .propose({ path: "made/by/tool.txt", content: "ok\n" }, { callId: "p", signal: new AbortController().signal });
      assert.match((proposal.preview as { diff: string }).diff, /--- \/dev\/null\n\+\+\+ b\/made\/by\/tool\.txt/);
      assert.equal(fs.existsSync(path.join(s().ws, "made")), false, "propose has no effects");
      const r = await s().call("write_file", { path: "made/by/tool.txt", content: "ok\n" });
      assert.equal(r.ok, true, r.output);
      assert.equal(fs.readFileSync(path.join(s().ws, "made", "by", "tool.txt"), "utf8"), "ok\n");
    });

    test("the secret is never in any result (sanity: the fixture can detect a leak)", () => {
      assert.equal(fs.readFileSync(path.join(s().outside, "secret.txt"), "utf8"), SECRET + "\n");
    });
  });
}
