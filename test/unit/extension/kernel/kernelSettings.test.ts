// The settings a person changes reach the kernel as the environment the CLI also reads (issue 10,
// item 5): one set of knobs for the editor and the terminal.
import assert from "node:assert/strict";
import { it } from "node:test";
import { kernelEnv, type KernelSettingsSource } from "../../../../extension/kernel/kernelSettings.js";

function settings(values: Record<string, unknown>): KernelSettingsSource {
  return { get: <T>(key: string, fallback: T) => (key in values ? (values[key] as T) : fallback) };
}

it("defaults offer the file tools and shell, and leave threads, context and GPU to the kernel", () => {
  assert.deepEqual(kernelEnv(settings({})), { HEARTH_TOOLS: "read_file,list_dir,search_files,write_file,edit_file,shell,delegate_task" });
});

it("each setting maps to its variable; zero means the kernel's own default", () => {
  const env = kernelEnv(
    settings({
      "hearth.inference.threads": 3,
      "hearth.inference.contextSize": 0,
      "hearth.inference.gpu": "off",
      "hearth.inference.inputLookup": "off",
      "hearth.kernel.idleSeconds": 120,
      "hearth.home": " /data/hearth ",
      "hearth.tools.readsNeedApproval": true,
      "hearth.agent.maxRounds": 10,
      "hearth.agent.repeatedFailureLimit": 2,
      "hearth.tasks.maxConcurrent": 4,
    }),
  );
  assert.equal(env.HEARTH_APPROVE_READS, "1");
  assert.equal(env.HEARTH_MAX_ROUNDS, "10");
  assert.equal(env.HEARTH_REPEATED_FAILURE_LIMIT, "2");
  assert.equal(env.HEARTH_MAX_TASKS, "4");
  assert.equal(env.HEARTH_THREADS, "3");
  assert.equal(env.HEARTH_CONTEXT_SIZE, undefined);
  assert.equal(env.HEARTH_GPU, "off");
  assert.equal(env.HEARTH_INPUT_LOOKUP, "off");
  assert.equal(env.HEARTH_KERNEL_IDLE_SECONDS, "120");
  assert.equal(env.HEARTH_HOME, "/data/hearth");
});

it("shell off removes shell whatever the enabled list says; web fetch is opt-in", () => {
  assert.equal(
    kernelEnv(settings({ "hearth.tools.shell": false })).HEARTH_TOOLS,
    "read_file,list_dir,search_files,write_file,edit_file,delegate_task",
  );
  const withFetch = kernelEnv(settings({ "hearth.tools.enabled": ["read_file"], "hearth.tools.webFetch": true }));
  assert.equal(withFetch.HEARTH_TOOLS, "read_file,web_fetch");
  assert.equal(withFetch.HEARTH_WEB_FETCH, "1");
});

it("an empty tool list offers no tool at all, never every tool", () => {
  assert.equal(kernelEnv(settings({ "hearth.tools.enabled": [], "hearth.tools.shell": false })).HEARTH_TOOLS, "none");
});

it("the person's approval rules reach the kernel as HEARTH_APPROVAL_RULES, none when there are none (issue 27)", () => {
  const rules = [{ tool: "shell", command: "npm test", decision: "allow" }];
  assert.deepEqual(JSON.parse(kernelEnv(settings({ "hearth.approval.rules": rules })).HEARTH_APPROVAL_RULES!), rules);
  assert.equal(kernelEnv(settings({ "hearth.approval.rules": [] })).HEARTH_APPROVAL_RULES, undefined);
});
