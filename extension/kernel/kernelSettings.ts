// The settings a person changes, turned into the kernel's environment at each (re)start: the kernel
// reads the same variables from a terminal (README: configuration), so the CLI and the editor share
// one set of knobs. API keys never pass through here: they come from SecretStorage (apiKeys.ts).
// Pure: it reads settings through a getter, so it is tested without an editor.
/** Settings whose change needs a kernel restart to apply. */
export const KERNEL_SETTINGS = [
  "hearth.kernel.nodePath",
  "hearth.inference.threads",
  "hearth.inference.contextSize",
  "hearth.inference.gpu",
  "hearth.tools.enabled",
  "hearth.tools.shell",
  "hearth.tools.readsNeedApproval",
  "hearth.tools.webFetch",
  "hearth.approval.rules",
  "hearth.agent.maxRounds",
  "hearth.agent.repeatedFailureLimit",
  "hearth.kernel.idleSeconds",
  "hearth.home",
] as const;

const READ_ONLY_TOOLS = ["read_file", "list_dir", "search_files"];

export interface KernelSettingsSource {
  get<T>(key: string, fallback: T): T;
}

/** The offered tools: the enabled list, without shell when it is off. */
export function offeredTools(config: KernelSettingsSource): string[] {
  const enabled = config.get<string[]>("hearth.tools.enabled", [...READ_ONLY_TOOLS, "write_file", "edit_file", "shell", "delegate_task"]);
  const shell = config.get<boolean>("hearth.tools.shell", true);
  const tools = enabled.filter((t) => shell || t !== "shell");
  if (config.get<boolean>("hearth.tools.webFetch", false)) tools.push("web_fetch");
  return tools;
}

/** The kernel's environment for these settings; a 0 or empty value leaves the kernel's default. */
export function kernelEnv(config: KernelSettingsSource): Record<string, string> {
  const env: Record<string, string> = {};
  const positive = (key: string, name: string) => {
    const v = config.get<number>(key, 0);
    if (Number.isInteger(v) && v > 0) env[name] = String(v);
  };
  positive("hearth.inference.threads", "HEARTH_THREADS");
  positive("hearth.inference.contextSize", "HEARTH_CONTEXT_SIZE");
  positive("hearth.kernel.idleSeconds", "HEARTH_KERNEL_IDLE_SECONDS");
  positive("hearth.agent.maxRounds", "HEARTH_MAX_ROUNDS");
  positive("hearth.agent.repeatedFailureLimit", "HEARTH_REPEATED_FAILURE_LIMIT");
  positive("hearth.tasks.maxConcurrent", "HEARTH_MAX_TASKS");
  if (config.get<boolean>("hearth.tools.readsNeedApproval", false)) env.HEARTH_APPROVE_READS = "1";
  if (config.get<string>("hearth.inference.gpu", "auto") === "off") env.HEARTH_GPU = "off";
  // issue 27: the kernel validates the rules (sidecar/kernel/policy/ruleSources.ts) and says what is wrong.
  const rules = config.get<unknown[]>("hearth.approval.rules", []);
  if (Array.isArray(rules) && rules.length > 0) env.HEARTH_APPROVAL_RULES = JSON.stringify(rules);
  const tools = offeredTools(config);
  env.HEARTH_TOOLS = tools.length ? tools.join(",") : "none";
  if (tools.includes("web_fetch")) env.HEARTH_WEB_FETCH = "1";
  const home = config.get<string>("hearth.home", "").trim();
  if (home) env.HEARTH_HOME = home;
  return env;
}
