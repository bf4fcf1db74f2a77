// No test file may hold the suite (issue 23, item 2): the runner loads test/support/exitGuard.mjs into
// every file's process, so a file that leaks a handle, or runs past its bound, fails with its name and
// what is still open instead of keeping `npm test` waiting for ever.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, it } from "node:test";

const GUARD = path.resolve("test/support/exitGuard.mjs");

/** Runs one file as test/run.mjs does, with the guard's bounds in seconds; its exit and output. */
function runGuarded(file: string, env: Record<string, string>): Promise<{ code: number | null; output: string; killed: boolean }> {
  // Without NODE_TEST_CONTEXT: this file's own runner marks its processes as test children, and a
  // `node --test` that inherits it reports to a parent instead of exiting with its files' status.
  const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "--import", GUARD, "--test", file], {
    env: { ...outer, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  // Only a backstop, far beyond the guard's bounds: reaching it means the guard failed to act.
  let killed = false;
  const backstop = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, 90_000);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(backstop);
      resolve({ code, output, killed });
    }),
  );
}

describe("the test runner's exit guard", { timeout: 120_000 }, () => {
  it("fails a file whose process outlives its passing tests, naming the file and the leaked handle", async () => {
    const file = "test/fixtures/runner/leakedServer.ts";
    const r = await runGuarded(file, { HEARTH_TEST_EXIT_GRACE_S: "1" });
    assert.equal(r.killed, false, "the guard ended the process");
    assert.notEqual(r.code, 0);
    assert.match(r.output, /# pass 1/, "its test itself passed");
    assert.match(r.output, new RegExp(`${file.replaceAll("/", "\\/")}: its tests ended but its process did not exit: a leaked handle`));
    assert.match(r.output, /still open: .*TCPServerWrap/);
  });

  it("names a leaked timer too, not only sockets and servers (a timer once hid behind the file's own stdout and stderr)", async () => {
    const r = await runGuarded("test/fixtures/runner/leakedTimer.ts", { HEARTH_TEST_EXIT_GRACE_S: "1" });
    assert.equal(r.killed, false, "the guard ended the process");
    assert.notEqual(r.code, 0);
    assert.match(r.output, /# pass 1/, "its test itself passed");
    assert.match(r.output, /still open: .*Timeout/);
  });

  it("fails a file that runs past its bound, naming the file", async () => {
    const file = "test/fixtures/runner/hangingTest.ts";
    const r = await runGuarded(file, { HEARTH_TEST_FILE_BOUND_S: "2" });
    assert.equal(r.killed, false, "the guard ended the process");
    assert.notEqual(r.code, 0);
    assert.match(r.output, new RegExp(`${file.replaceAll("/", "\\/")}: the file ran past its bound \\(2 s\\)`));
  });
});
