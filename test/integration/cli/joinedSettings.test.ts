// A client never runs under a weaker policy than its own settings without being told (issue 22,
// item 2; issue 24, item 8): a `hearth` command that joins a kernel started under other settings
// sends its own with `initialize`; its stricter ones apply to the runs it starts, and it says so.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import { isolatedEnv, runCli } from "../../support/cliProcess.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

/** A kernel started without the stricter setting, and `hearth exec` of a script, joining it. */
async function kernelAndScript(rounds: unknown[]) {
  const root = tempDir("joined-settings");
  const env = { ...isolatedEnv(root, 60), HEARTH_ALLOW_SCRIPTED: "1" };
  const k = startTestKernel({ env });
  kernels.push(k);
  await k.client.initialize("test", "0");
  const script = path.join(root, "script.json");
  fs.writeFileSync(script, JSON.stringify({ rounds }));
  const exec = (cliEnv: Record<string, string>, approve: string) =>
    runCli(
      ["exec", "--workspace", k.workspace, "--db", k.journalPath, "--model", `scripted:${script}`, "--approve", approve, "--json", "go"],
      {
        ...env,
        ...cliEnv,
      },
    );
  return { k, exec };
}

function toolResults(stdout: string): { ok: boolean; output: string }[] {
  return stdout
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { event: { type: string; ok: boolean; output: string } })
    .flatMap((e) => (e.event.type === "tool_result" ? [e.event] : []));
}

it("HEARTH_APPROVE_READS=1 joining a kernel started without it: its read asks, --approve never denies it, and it is told (issue 24, item 8)", async () => {
  const { k, exec } = await kernelAndScript([
    { toolCalls: [{ name: "read_file", arguments: { path: "secret.txt" } }] },
    { text: ["done"] },
  ]);
  fs.writeFileSync(path.join(k.workspace, "secret.txt"), "the secret\n");
  const run = await exec({ HEARTH_APPROVE_READS: "1" }, "never");
  assert.doesNotMatch(run.stdout, /the secret/, "the read ran unasked under the kernel's weaker settings");
  const results = toolResults(run.stdout);
  assert.equal(results.length, 1, `${run.stdout}\n${run.stderr}`);
  assert.equal(results[0]!.ok, false);
  assert.match(run.stderr, /applies this command's stricter settings: reads/);
});

it("HEARTH_TOOLS without shell joining a kernel that offers shell: exec --approve all never runs shell (issue 22, item 2)", async () => {
  const { k, exec } = await kernelAndScript([
    { toolCalls: [{ name: "shell", arguments: { command: "echo pwned > pwned.txt" } }] },
    { text: ["done"] },
  ]);
  const run = await exec({ HEARTH_TOOLS: "read_file,list_dir,search_files" }, "all");
  assert.equal(fs.existsSync(path.join(k.workspace, "pwned.txt")), false, `shell ran: ${run.stdout}`);
  const results = toolResults(run.stdout);
  assert.equal(results.length, 1, `${run.stdout}\n${run.stderr}`);
  assert.equal(results[0]!.ok, false);
  assert.match(
    run.stderr,
    /applies this command's stricter settings: tools: this client's runs are offered read_file, list_dir, search_files/,
  );
});
