// The extension's kernel supervisor against a real kernel process (built dist/): lazy start,
// restart with backoff after a crash, and a clear error naming the runtime when none fits.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { Backoff } from "../../../extension/kernel/backoff.js";
import { KernelSupervisor, type KernelState } from "../../../extension/kernel/kernelSupervisor.js";
import { launchKernel } from "../../../shared/node/kernelLauncher.js";
import { HEARTH_VERSION } from "../../../shared/version.js";
import { DIST, tempDir } from "../../support/kernelProcess.js";

function harness(nodePathSetting?: string, opts: { missingWorkspace?: boolean } = {}) {
  const root = tempDir("supervisor");
  const workspace = path.join(root, "ws");
  if (!opts.missingWorkspace) fs.mkdirSync(workspace);
  const lines: string[] = [];
  const states: KernelState["kind"][] = [];
  const log = { info: (m: string) => lines.push(`info ${m}`), warn: (m: string) => lines.push(`warn ${m}`), error: (m: string) => lines.push(`error ${m}`) };
  const supervisor = new KernelSupervisor({
    clientVersion: "test",
    log,
    backoff: new Backoff({ initialMs: 50, factor: 2, maxMs: 400, healthyMs: 60_000 }),
    launch: (onStderr) => launchKernel({ distDir: DIST, workspace, journalPath: path.join(root, "journal.sqlite"), nodePathSetting, onStderr }),
  });
  supervisor.onState((s) => states.push(s.kind));
  return { supervisor, lines, states, workspace };
}

// A call, so that TypeScript does not keep a narrowing from an earlier assertion on the getter.
function stateOf(supervisor: KernelSupervisor): KernelState {
  return supervisor.state;
}

function until(supervisor: KernelSupervisor, kind: KernelState["kind"], timeoutMs = 15_000): Promise<KernelState> {
  if (supervisor.state.kind === kind) return Promise.resolve(supervisor.state);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kernel state never became ${kind}; it is ${supervisor.state.kind}`)), timeoutMs);
    const sub = supervisor.onState((s) => {
      if (s.kind !== kind) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(s);
    });
  });
}

describe("kernel supervisor (extension side) with a real kernel", () => {
  const toDispose: KernelSupervisor[] = [];
  after(async () => {
    for (const s of toDispose) await s.dispose();
  });

  it("starts nothing until first use, then answers initialize with the package version (issue 2: lazy start)", async () => {
    const h = harness();
    toDispose.push(h.supervisor);
    assert.equal(h.supervisor.state.kind, "idle");
    assert.equal(h.supervisor.pid, undefined);
    await h.supervisor.ensureStarted();
    const state = stateOf(h.supervisor);
    assert.ok(state.kind === "ready", `ready after first use, not ${state.kind}`);
    assert.equal(state.info.kernelVersion, HEARTH_VERSION);
    assert.equal(state.info.workspaceRoot, fs.realpathSync(h.workspace));
    assert.equal(await h.supervisor.ensureStarted(), await h.supervisor.ensureStarted(), "one kernel, not one per use");
  });

  it("restarts a crashed kernel with growing delays and says so in the log (issue 2: restart with backoff)", async () => {
    const h = harness();
    toDispose.push(h.supervisor);
    await h.supervisor.ensureStarted();
    const delays: number[] = [];
    for (let crash = 0; crash < 2; crash++) {
      const pid = h.supervisor.pid!;
      const restarting = until(h.supervisor, "restarting");
      process.kill(pid, "SIGKILL");
      const state = await restarting;
      delays.push(state.kind === "restarting" ? state.delayMs : -1);
      await until(h.supervisor, "ready");
      assert.notEqual(h.supervisor.pid, pid, "a new kernel process serves after the crash");
    }
    assert.deepEqual(delays, [50, 100]);
    assert.match(h.lines.join("\n"), /warn the kernel \(pid \d+\) exited unexpectedly \(signal SIGKILL\) after [\d.]+ s; restarting in 0\.1 s/);
  });

  it("a kernel that dies before initialize is reported with its own last words, then retried with backoff (issue 2)", async () => {
    const h = harness(undefined, { missingWorkspace: true });
    toDispose.push(h.supervisor);
    await assert.rejects(h.supervisor.ensureStarted(), /did not start: the kernel exited \(code [1-9]\d*\) before answering initialize; last kernel output: .*--workspace .*ws/);
    assert.equal(h.supervisor.state.kind, "restarting");
  });

  it("refuses with the runtime's name when no Node fits, and does not retry in a loop (issue 2: runtime resolution)", async () => {
    const h = harness("/nonexistent/node");
    toDispose.push(h.supervisor);
    await assert.rejects(h.supervisor.ensureStarted(), /cannot start: .*\/nonexistent\/node.*hearth\.kernel\.nodePath/);
    assert.equal(h.supervisor.state.kind, "failed");
    assert.deepEqual(h.states, ["starting", "failed"]);
    assert.match(h.lines.join("\n"), /error The Hearth kernel cannot start: .*setting \/nonexistent\/node: cannot run/);
  });
});
