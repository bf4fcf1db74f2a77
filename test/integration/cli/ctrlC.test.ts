// A terminal's Ctrl+C signals the whole foreground process group. It must cancel the turn and
// leave the kernel running: only the client decides whether the kernel stops (issue 11, item 16).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { defaultJournalPath, journalLockPath } from "../../../shared/node/paths.js";
import { tempDir } from "../../support/kernelProcess.js";
import { alive, isolatedEnv, runCli, startCli, waitFor } from "../../support/cliProcess.js";

it("Ctrl+C to the terminal's process group cancels the turn (exit 130) and the kernel survives (issue 11, item 16)", async () => {
  const root = tempDir("ctrl-c");
  const ws = path.join(root, "ws");
  fs.mkdirSync(ws);
  const marker = path.join(root, "started");
  const nap = `313.${process.pid}`;
  const script = path.join(root, "script.json");
  fs.writeFileSync(
    script,
    JSON.stringify({
      rounds: [
        { text: ["Working."], toolCalls: [{ name: "shell", arguments: { command: `touch ${marker}; sleep ${nap}` } }] },
        { text: ["Stopped."] },
      ],
    }),
  );
  const env = { HEARTH_ALLOW_SCRIPTED: "1", ...isolatedEnv(root, 3) };
  // detached: the CLI leads its own process group, as a shell's foreground job does.
  const cli = startCli(["exec", "--workspace", ws, "--model", `scripted:${script}`, "--approve", "all", "run it"], env, { detached: true });
  await waitFor(() => fs.existsSync(marker), "the shell call to start", 30_000);
  const kernelPid = Number(fs.readFileSync(journalLockPath(defaultJournalPath(ws, env)), "utf8"));
  process.kill(-cli.child.pid!, "SIGINT");
  const result = await cli.result;
  assert.equal(result.code, 130, `exit ${result.code} ${result.signal}: ${result.stderr}`);
  assert.match(result.stderr, /\nturn cancelled: the turn was cancelled; /, "the reason names the cancel once (issue 23, item 16)");
  assert.ok(alive(kernelPid), "the kernel survived the terminal's Ctrl+C");
  const listed = await runCli(["sessions", "--workspace", ws, "--json"], env);
  const [session] = (JSON.parse(listed.stdout) as { sessions: { sessionId: string }[] }).sessions;
  const shown = await runCli(["show", "--workspace", ws, "--json", session!.sessionId], env);
  assert.equal((JSON.parse(shown.stdout) as { runs: { status: string }[] }).runs[0]!.status, "cancelled");
  assert.equal(
    Number(fs.readFileSync(journalLockPath(defaultJournalPath(ws, env)), "utf8")),
    kernelPid,
    "the same kernel still owns the journal",
  );
});
