// One owner per journal (issue 12, item 1): the first kernel holds an OS lock for its life; a second
// client never reconciles the journal under a live run, and the lock dies with its holder.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { launchKernel } from "../../../shared/node/kernelLauncher.js";
import { journalLockPath } from "../../../shared/node/paths.js";
import { DIST, startTestKernel, tempDir } from "../../support/kernelProcess.js";
import { TurnDriver } from "../../support/turnDriver.js";
import { alive, isolatedEnv, runCli, waitFor } from "../../support/cliProcess.js";

function killStrays(pattern: string): void {
  for (const p of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(pattern)) process.kill(Number(p), "SIGKILL");
    } catch {
      /* gone */
    }
  }
}

function setup(prefix: string, shellCommand: (marker: string) => string) {
  const root = tempDir(prefix);
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const marker = path.join(root, "runs.log");
  const script = path.join(root, "script.json");
  fs.writeFileSync(
    script,
    JSON.stringify({
      rounds: [{ text: ["Building."], toolCalls: [{ name: "shell", arguments: { command: shellCommand(marker) } }] }, { text: ["Built."] }],
    }),
  );
  const env = { HEARTH_ALLOW_SCRIPTED: "1", ...isolatedEnv(root) };
  return { root, workspace, marker, model: `scripted:${script}`, journalPath: path.join(root, "journal.sqlite"), env };
}

it("a second client on a live journal leaves the live run alone: the call ends succeeded, the run completed (issue 12, item 1)", async () => {
  const t = setup("owner-live", (marker) => `echo ran >> ${marker}; sleep 2; echo built`);
  const owner = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  try {
    await owner.client.initialize("test", "0");
    const driver = new TurnDriver(owner.client, () => ({ decision: "approve", reason: "approved by the test" }));
    const { sessionId } = await owner.client.request("session/create", { model: t.model });
    const { turnId } = await owner.client.request("turn/start", { sessionId, message: "build it" });
    await driver.until(() => fs.existsSync(t.marker), "the shell call to start");

    // `hearth sessions` while the shell runs: it joins the owner and sees the live run.
    const listed = await runCli(["sessions", "--workspace", t.workspace, "--db", t.journalPath, "--json"], t.env);
    assert.equal(listed.code, 0, listed.stderr);
    const sessions = (JSON.parse(listed.stdout) as { sessions: { sessionId: string; activeTurnId: string | null }[] }).sessions;
    assert.equal(sessions.find((s) => s.sessionId === sessionId)?.activeTurnId, turnId);

    // A kernel of its own on the same journal is refused and names the owner.
    const rivalErr: string[] = [];
    const rival = launchKernel({
      distDir: DIST,
      workspace: t.workspace,
      journalPath: t.journalPath,
      env: t.env,
      onStderr: (l) => rivalErr.push(l),
    });
    const rivalExit = await Promise.race([rival.exited, new Promise((r) => setTimeout(() => r("still running after 10 s"), 10_000))]);
    if (rivalExit === "still running after 10 s") rival.child.kill("SIGKILL");
    assert.deepEqual(rivalExit, { code: 3, signal: null });
    rival.client.dispose();
    assert.match(rivalErr.join("\n"), new RegExp(`refused: the journal .* is owned by the Hearth kernel with pid ${owner.child.pid}`));

    assert.equal((await driver.completion(turnId)).status, "completed");
    const history = await owner.client.request("session/history", { sessionId });
    assert.equal(history.runs[0]!.status, "completed");
    assert.deepEqual(
      history.runs[0]!.ledger.map((l) => l.status),
      ["succeeded"],
    );
    assert.ok(!history.messages.some((m) => m.role === "tool" && /kernel stopped/.test(m.output)), "no false interruption in history");
  } finally {
    await owner.stop();
  }
});

it("kill -9 of the owner releases its lock: the next client's kernel becomes owner and reconciles (issue 12, item 1; control plane #21)", async () => {
  const nap = `312.${process.pid}`; // the orphaned shell outlives the kernel; it must not hold the lock
  const t = setup("owner-killed", (marker) => `echo ran >> ${marker}; sleep ${nap}`);
  const owner = startTestKernel({ workspace: t.workspace, journalPath: t.journalPath, env: t.env });
  let sessionId = "";
  try {
    await owner.client.initialize("test", "0");
    const driver = new TurnDriver(owner.client, () => ({ decision: "approve", reason: "approved by the test" }));
    sessionId = (await owner.client.request("session/create", { model: t.model })).sessionId;
    await owner.client.request("turn/start", { sessionId, message: "build it" });
    await driver.until(() => fs.existsSync(t.marker), "the shell call to start");
    owner.child.kill("SIGKILL");
    await owner.exited;
    owner.client.dispose();

    const shown = await runCli(["show", "--workspace", t.workspace, "--db", t.journalPath, "--json", sessionId], t.env);
    assert.equal(shown.code, 0, shown.stderr);
    const history = JSON.parse(shown.stdout) as { runs: { status: string; ledger: { status: string }[] }[] };
    assert.equal(history.runs[0]!.status, "failed");
    assert.deepEqual(
      history.runs[0]!.ledger.map((l) => l.status),
      ["outcome_unknown"],
    );
    const newOwner = Number(fs.readFileSync(journalLockPath(t.journalPath), "utf8"));
    assert.notEqual(newOwner, owner.child.pid);
    assert.ok(alive(newOwner), "the new owner serves the journal");
    await waitFor(() => !alive(newOwner), "the new owner to exit when idle", 15_000);
  } finally {
    killStrays(`sleep\u0000${nap}`);
  }
});
