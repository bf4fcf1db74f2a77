// The journal through the real kernel process and the `hearth` CLI (issue 3 inspectability).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, it } from "node:test";
import { ErrorCode } from "../../../shared/errors.js";
import { KernelRequestError } from "../../../shared/node/kernelClient.js";
import { uuidv7 } from "../../../shared/ids.js";
import { openJournal } from "../../../sidecar/journal/journal.js";
import { ControlPlane } from "../../../sidecar/kernel/control/controlPlane.js";
import { DIST, startTestKernel, tempDir } from "../../support/kernelProcess.js";
import os from "node:os";

const execFileAsync = promisify(execFile);
// The CLI starts a detached kernel for the journal; a short idle time lets it exit after the test
// instead of outliving the run by the default minutes.
const run = (file: string, args: string[]) => execFileAsync(file, args, { env: { ...process.env, HEARTH_KERNEL_IDLE_SECONDS: "2" } });
const CLI = path.join(DIST, "cli.mjs");

describe("sessions over the protocol and the CLI", () => {
  it("session/create, session/list and session/history persist across a kernel restart", async () => {
    const k = startTestKernel();
    await k.client.initialize("test", "0");
    const { sessionId, profileGeneration } = await k.client.request("session/create", { title: "hello", model: "scripted:demo" });
    assert.equal(profileGeneration, 1);
    await k.stop();
    const k2 = startTestKernel({ workspace: k.workspace, journalPath: k.journalPath });
    await k2.client.initialize("test", "0");
    const { sessions } = await k2.client.request("session/list", {});
    assert.deepEqual(
      sessions.map((s) => [s.sessionId, s.title, s.adapter, s.role]),
      [[sessionId, "hello", "scripted", "coordinator"]],
    );
    const h = await k2.client.request("session/history", { sessionId });
    assert.deepEqual([h.messages, h.runs], [[], []]);
    await assert.rejects(
      k2.client.request("session/history", { sessionId: "nope" }),
      (e: unknown) => e instanceof KernelRequestError && e.code === ErrorCode.NotFound,
    );
    await k2.stop();
  });

  it("the kernel refuses to start on a corrupted journal and says what to do", async () => {
    const dir = tempDir("corrupt");
    const file = path.join(dir, "j.sqlite");
    fs.writeFileSync(file, "garbage ".repeat(1000));
    const k = startTestKernel({ journalPath: file });
    const { code } = await k.exited;
    assert.equal(code, 2);
    assert.match(k.stderr.join("\n"), /fatal: refused to open the journal .* pass another --db FILE/);
    k.client.dispose();
  });

  it("hearth sessions and hearth show print runs, attempts and ledger rows with their statuses", async () => {
    const dir = tempDir("cli");
    const ws = path.join(dir, "ws");
    fs.mkdirSync(ws);
    const db = path.join(dir, "j.sqlite");
    // Write a history with the control plane the kernel uses, as the local user the kernel acts for.
    const journal = openJournal(db);
    const control = new ControlPlane(journal, {
      ownerId: `local:${os.userInfo().username}`,
      workspace: fs.realpathSync(ws),
      bootEpoch: uuidv7(),
    });
    const { sessionId } = control.createSession({ title: "cli", model: "scripted:demo" });
    const { turnId, attemptId } = control.admitTurn(sessionId, "list files", { clientId: "t", requestId: "1" });
    control.transitionAttempt(turnId, attemptId, "starting");
    control.transitionAttempt(turnId, attemptId, "running");
    const claim = control.prepareInvocation({
      turnId,
      attemptId,
      callId: "call-1",
      tool: "write_file",
      input: { path: "a" },
      manifestDigest: "m",
      effectClass: "non_idempotent_write",
    });
    control.markDispatched(claim);
    journal.close(); // the kernel dies here: the next start reconciles

    const list = await run(process.execPath, [CLI, "sessions", "--workspace", ws, "--db", db, "--json"]);
    assert.equal(JSON.parse(list.stdout).sessions[0].sessionId, sessionId);
    const shown = await run(process.execPath, [CLI, "show", "--workspace", ws, "--db", db, "--json", sessionId]);
    const h = JSON.parse(shown.stdout);
    assert.equal(h.runs[0].status, "failed");
    assert.equal(h.runs[0].attempts[0].status, "orphaned");
    assert.deepEqual([h.runs[0].ledger[0].status, h.runs[0].ledger[0].retryPolicy], ["outcome_unknown", "never_auto_retry"]);
    const text = await run(process.execPath, [CLI, "show", "--workspace", ws, "--db", db, sessionId]);
    assert.match(text.stdout, /#1 user: list files/);
    assert.match(
      text.stdout,
      /tool write_file call call-1 outcome_unknown \[non_idempotent_write, never_auto_retry\] \(daemon_restart_after_dispatch\)/,
    );
    await assert.rejects(run(process.execPath, [CLI, "show", "--workspace", ws, "--db", db]), (e: { code?: number }) => e.code === 2);
  });
});
