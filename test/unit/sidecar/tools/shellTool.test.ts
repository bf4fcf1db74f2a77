// The shell tool on real processes (harness #12, #14): its own process group, terminated whole
// on cancel and timeout, a cleared environment captured at build, bounded output.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Tool } from "../../../../sidecar/agent/ports/tools.js";
import { buildWorkspaceTools, type WorkspaceTools } from "../../../../sidecar/tools/buildWorkspaceTools.js";
import { captureShellEnvironment, FALLBACK_PATH } from "../../../../sidecar/tools/shellEnvironment.js";

/** Live (non-zombie) processes whose command line contains `marker`, straight from /proc. */
function liveWith(marker: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
        return state !== "Z" && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("shell tool (harness #12, #14)", { skip: process.platform === "win32" }, () => {
  let dir: string;
  let built: WorkspaceTools;
  let shell: Tool;
  const run = async (args: Record<string, unknown>, signal = new AbortController().signal) => {
    const ctx = { callId: crypto.randomUUID(), signal };
    return shell.invoke(args, await shell.propose(args, ctx), ctx);
  };
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hearth-shell-")));
    process.env.HEARTH_SHELL_TEST_SECRET = "do-not-inherit";
    built = buildWorkspaceTools({ workspaceRoot: dir, shell: true, shellGraceMs: 300, ceilings: { shellOutputBytes: 2048 } });
    shell = built.tools.find((t) => t.definition.name === "shell")!;
  });
  after(() => {
    delete process.env.HEARTH_SHELL_TEST_SECRET;
    built.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("cancel terminates the whole group, grandchildren included; no process is left (harness #14)", async () => {
    const marker = `${1000 + crypto.randomInt(1_000_000)}.5`;
    const ac = new AbortController();
    const pending = run({ command: `sleep ${marker} & sleep ${marker} & sh -c 'sleep ${marker}' & echo started; wait` }, ac.signal);
    for (let i = 0; i < 100 && liveWith(marker).length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(liveWith(marker).length >= 3, true, "the grandchildren were running");
    ac.abort();
    const r = await pending;
    assert.equal(r.ok, false);
    assert.match(r.output, /^terminated: the call was cancelled; the command's whole process group was killed/);
    assert.deepEqual(liveWith(marker), [], "processes were left running");
  });

  test("a command that ignores SIGTERM is killed after the grace (harness #14)", async () => {
    const marker = `${1000 + crypto.randomInt(1_000_000)}.25`;
    const ac = new AbortController();
    const pending = run({ command: `trap '' TERM; sleep ${marker} & trap '' TERM; wait` }, ac.signal);
    for (let i = 0; i < 100 && liveWith(marker).length < 1; i++) await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    const r = await pending;
    assert.match(r.output, /^terminated: the call was cancelled/);
    assert.deepEqual(liveWith(marker), []);
  });

  test("a timeout terminates the group and the result says so (harness #12, #14)", async () => {
    const marker = `${1000 + crypto.randomInt(1_000_000)}.75`;
    const r = await run({ command: `sleep ${marker} & wait`, timeoutMs: 300 });
    assert.equal(r.ok, false);
    assert.match(r.output, /^terminated: the command ran past its 300 ms timeout; its whole process group was killed/);
    assert.deepEqual(liveWith(marker), []);
  });

  test("background processes left after the command exits are terminated and reported (harness #14)", async () => {
    const marker = `${1000 + crypto.randomInt(1_000_000)}.125`;
    const r = await run({ command: `sleep ${marker} & echo done` });
    assert.equal(r.ok, true);
    assert.match(r.output, /note: background processes the command left running were terminated/);
    assert.deepEqual(liveWith(marker), []);
  });

  test("the environment is cleared to locale, PATH and HOME; cwd is the workspace (harness #14)", async () => {
    const r = await run({ command: "env; echo cwd=$(pwd -P)" });
    assert.equal(r.ok, true, r.output);
    const names = [...r.output.matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)]
      .map((m) => m[1])
      .filter((n) => n !== "PWD" && n !== "SHLVL" && n !== "_");
    assert.deepEqual(new Set(names), new Set(["LANG", "LC_ALL", "PATH", "HOME"]));
    assert.match(r.output, /^LANG=C\.UTF-8$/m);
    assert.doesNotMatch(r.output, /do-not-inherit/);
    assert.match(r.output, new RegExp(`^cwd=${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"));
  });

  test("stdout and stderr are capped and the drop is reported (harness #9)", async () => {
    const r = await run({ command: "head -c 100000 /dev/zero | tr '\\0' x; head -c 5000 /dev/zero | tr '\\0' y >&2" });
    assert.equal(r.ok, true);
    assert.match(r.output, /\[97952 more bytes of stdout dropped\]/);
    assert.match(r.output, /\[2952 more bytes of stderr dropped\]/);
  });

  test("a failing command is ok:false with its exit code", async () => {
    const r = await run({ command: "echo oops >&2; exit 3" });
    assert.equal(r.ok, false);
    assert.match(r.output, /^exit code 3\n[\s\S]*stderr:\noops/);
  });

  test("PATH/HOME keep only absolute non-traversing directories, plus fixed fallbacks (harness #14)", () => {
    const env = captureShellEnvironment({ PATH: "/opt/x/bin:relative/bin::/usr/../etc:/a/./b:/usr/bin", HOME: "home/me" });
    assert.equal(env.env.PATH, ["/opt/x/bin", "/usr/bin", ...FALLBACK_PATH.filter((p) => p !== "/usr/bin")].join(":"));
    assert.equal(env.env.HOME, undefined);
    assert.equal(captureShellEnvironment({ PATH: "/a", HOME: "/h/../root" }).env.HOME, undefined);
  });

  test("PATH and HOME digests enter the shell's identity; raw directories do not (harness #14, #19)", () => {
    const d = (source: NodeJS.ProcessEnv) => {
      const b = buildWorkspaceTools({ workspaceRoot: dir, files: false, shell: true, shellEnvSource: source });
      try {
        return b.tools[0]!.definition;
      } finally {
        b.close();
      }
    };
    const a = d({ PATH: "/opt/a:/usr/bin", HOME: "/home/a" });
    assert.equal(d({ PATH: "/opt/a:/usr/bin", HOME: "/home/a" }).identityDigest, a.identityDigest, "same configuration, same identity");
    assert.notEqual(d({ PATH: "/usr/bin:/opt/a", HOME: "/home/a" }).identityDigest, a.identityDigest, "PATH order drift changes identity");
    assert.notEqual(d({ PATH: "/opt/a:/usr/bin", HOME: "/home/b" }).identityDigest, a.identityDigest, "HOME drift changes identity");
    assert.doesNotMatch(JSON.stringify(a), /\/opt\/a|\/home\/a/);
  });

  test("timeout ceilings clamp to the 20-minute hard ceiling; the default stays conservative (harness #12)", () => {
    const t = buildWorkspaceTools({
      workspaceRoot: dir,
      files: false,
      shell: true,
      ceilings: { shellMaxTimeoutMs: 10 * 60 * 60_000, shellDefaultTimeoutMs: Number.POSITIVE_INFINITY, shellOutputBytes: 1 << 30 },
    });
    try {
      assert.equal(t.ceilings.shellMaxTimeoutMs, 20 * 60_000);
      assert.equal(t.ceilings.shellOutputBytes, 1 << 20);
      const params = t.tools[0]!.definition.parameters.properties.timeoutMs as { maximum: number };
      assert.equal(params.maximum, 20 * 60_000);
      assert.equal(t.ceilings.shellDefaultTimeoutMs, 120_000);
    } finally {
      t.close();
    }
  });
});
