// Every knob of Hearth named once (issue 22, item 2): its environment variable, its VS Code setting,
// type and bounds, scope, whether a change needs a kernel restart, whether it narrows what a turn may
// do, and what a client that joins a kernel started under another value is owed. The kernel parses its
// environment with it, the extension turns settings into that environment with it, both ends of the
// join comparison and package.json's `contributes.configuration` derive from it (a test holds them).
// Pure: the extension, the CLI and the kernel import it.
import { z } from "zod";

/** What a knob narrows: a stricter value takes something away from a turn (or from what runs at once). */
const Narrows = z.enum(["approvals", "tools", "shell", "network", "rounds", "repeatedFailures", "tasks"]);

/**
 * What a client joining a kernel started under another value gets:
 * - narrowing: the client's stricter value applies to the runs it starts (the kernel says so in `initialize`);
 * - told: the client is told the difference, which lasts until the kernel restarts;
 * - harmless: nothing to compare, for the reason given.
 */
const OnJoin = z.union([z.literal("narrowing"), z.literal("told"), z.object({ harmless: z.string().min(10) })]);

/** A VS Code setting's shape in package.json (what the settings editor enforces). */
const SettingShape = z.object({
  key: z.string().regex(/^hearth\.[a-zA-Z.]+$/),
  type: z.enum(["integer", "boolean", "string", "array"]),
  default: z.union([z.number(), z.boolean(), z.string(), z.array(z.string())]),
  minimum: z.number().int().optional(),
  maximum: z.number().int().optional(),
  enum: z.array(z.string()).optional(),
  /** package.json's `scope`; absent means VS Code's default (window). */
  scope: z.enum(["application", "machine", "window"]).default("window"),
});

const Knob = z.object({
  /** The environment variable; null for a setting folded into another knob's variable. */
  env: z
    .string()
    .regex(/^HEARTH_[A-Z_]+$/)
    .nullable(),
  /** Who reads the variable: the kernel at its start, or the client (launcher, CLI) before it. */
  readBy: z.enum(["kernel", "client"]),
  setting: SettingShape.nullable(),
  /** Whether a changed setting needs the kernel restarted (the extension restarts it). */
  restart: z.boolean(),
  narrows: Narrows.nullable(),
  onJoin: OnJoin,
  summary: z.string().min(10),
});
type Knob = z.infer<typeof Knob>;

const READ_ONLY_TOOLS = ["read_file", "list_dir", "search_files"];
/** The tools a person may enable in the editor (web_fetch has its own opt-in). */
const ENABLEABLE_TOOLS = [...READ_ONLY_TOOLS, "write_file", "edit_file", "shell", "delegate_task"];

const int = (key: string, dflt: number, minimum: number, maximum: number) => ({
  key,
  type: "integer" as const,
  default: dflt,
  minimum,
  maximum,
});
const bool = (key: string, dflt: boolean) => ({ key, type: "boolean" as const, default: dflt });

export const KNOBS: readonly Knob[] = z.array(Knob).parse([
  {
    env: "HEARTH_NODE_PATH",
    readBy: "client",
    setting: { key: "hearth.kernel.nodePath", type: "string", default: "", scope: "machine" },
    restart: true,
    narrows: null,
    onJoin: { harmless: "which Node runs a kernel that is already running changes nothing it does" },
    summary: "a Node 20 binary to run the kernel on",
  },
  {
    env: "HEARTH_MODEL",
    readBy: "client",
    setting: { key: "hearth.model", type: "string", default: "" },
    restart: false,
    narrows: null,
    onJoin: { harmless: "each session names its own model; the kernel has no model setting" },
    summary: "the model new chats and commands use",
  },
  {
    env: null,
    readBy: "client",
    setting: bool("hearth.edits.problemsAfterWrite", true),
    restart: false,
    narrows: null,
    onJoin: { harmless: "each window answers for the writes of its own turns" },
    summary: "the new problems an accepted edit left in its file, added to the edit's result (issue 29)",
  },
  {
    env: null,
    readBy: "client",
    setting: bool("hearth.completions.enabled", true),
    restart: false,
    narrows: null,
    onJoin: { harmless: "completions as you type are asked for by each window, never journaled" },
    summary: "completions as you type from the loaded model (issue 31)",
  },
  {
    env: null,
    readBy: "client",
    setting: { key: "hearth.completions.disabledLanguages", type: "array", default: ["plaintext", "markdown", "scminput"] },
    restart: false,
    narrows: null,
    onJoin: { harmless: "a window's own choice of where it asks for completions" },
    summary: "languages that never get completions as you type",
  },
  {
    env: null,
    readBy: "client",
    setting: int("hearth.completions.maxLines", 8, 1, 50),
    restart: false,
    narrows: null,
    onJoin: { harmless: "how much of a completion a window shows is its own" },
    summary: "lines of a completion shown at most",
  },
  {
    env: null,
    readBy: "client",
    setting: { key: "hearth.completions.model", type: "string", default: "" },
    restart: false,
    narrows: null,
    onJoin: { harmless: "each window names its completion model with each completion it asks for" },
    summary: "a small fill-in-the-middle model for completions as you type, loaded beside the chat model",
  },
  {
    env: "HEARTH_THREADS",
    readBy: "kernel",
    setting: int("hearth.inference.threads", 0, 0, 256),
    restart: true,
    narrows: null,
    onJoin: "told",
    summary: "llama.cpp threads (0: one per physical core)",
  },
  {
    env: "HEARTH_CONTEXT_SIZE",
    readBy: "kernel",
    setting: int("hearth.inference.contextSize", 0, 0, 1048576),
    restart: true,
    narrows: null,
    onJoin: "told",
    summary: "tokens of context per session (0: from the model and free memory)",
  },
  {
    env: "HEARTH_GPU",
    readBy: "kernel",
    setting: { key: "hearth.inference.gpu", type: "string", default: "auto", enum: ["auto", "off"] },
    restart: true,
    narrows: null,
    onJoin: "told",
    summary: "off: local models always run on the CPU",
  },
  {
    env: "HEARTH_INPUT_LOOKUP",
    readBy: "kernel",
    // On by default: the answer is the same, faster where it copies its input, and guessing stops for a
    // while where its guesses keep missing (guessBackoff.ts), so a reply that copies nothing pays for
    // about one window of guesses (docs/models.md).
    setting: { key: "hearth.inference.inputLookup", type: "string", default: "on", enum: ["on", "off"] },
    restart: true,
    narrows: null,
    onJoin: { harmless: "input-lookup decoding changes how fast an answer decodes, never the answer" },
    summary:
      "off: decode one token a step instead of guessing the next tokens from the prompt while one chat generates alone (docs/models.md)",
  },
  {
    env: "HEARTH_DRAFT_MODEL",
    readBy: "kernel",
    // Machine scope, like the Node path: a file on this machine, not something a folder's settings choose.
    setting: { key: "hearth.inference.draftModel", type: "string", default: "", scope: "machine" },
    restart: true,
    narrows: null,
    onJoin: { harmless: "a draft model changes how fast an answer decodes, never the answer" },
    summary: "a small GGUF model of the chat model's vocabulary, loaded beside it, whose guesses replace input lookup's (docs/models.md)",
  },
  {
    env: "HEARTH_CONDENSE_AHEAD",
    readBy: "kernel",
    // On by default: the turn that would cross the context limit finds its summary made already. Off
    // for a machine whose idle CPU should stay idle (a laptop on battery), and for a benchmark's
    // growing session, whose depth must not change under it.
    setting: { key: "hearth.context.condenseAhead", type: "string", default: "on", enum: ["on", "off"] },
    restart: true,
    narrows: null,
    onJoin: { harmless: "condensing between turns changes when a summary is made, never what a turn may do" },
    summary: "off: condense a chat only inside the turn that needs it, never while the kernel is idle (docs/harness.md)",
  },
  {
    env: "HEARTH_SESSIONS",
    readBy: "kernel",
    setting: null,
    restart: true,
    narrows: null,
    onJoin: "told",
    summary: "sessions that keep a KV cache in the local engine at once (default 4)",
  },
  {
    env: "HEARTH_TOOLS",
    readBy: "kernel",
    setting: { key: "hearth.tools.enabled", type: "array", default: ENABLEABLE_TOOLS, enum: ENABLEABLE_TOOLS },
    restart: true,
    narrows: "tools",
    onJoin: "narrowing",
    summary: "the tools offered to the model, comma-separated (none: no tool)",
  },
  {
    env: null, // folded into HEARTH_TOOLS: shell off removes shell from the list
    readBy: "kernel",
    setting: bool("hearth.tools.shell", true),
    restart: true,
    narrows: "shell",
    onJoin: "narrowing",
    summary: "offer the shell tool",
  },
  {
    env: "HEARTH_WEB_FETCH",
    readBy: "kernel",
    setting: bool("hearth.tools.webFetch", false),
    restart: true,
    narrows: "network",
    onJoin: "narrowing", // web_fetch is in HEARTH_TOOLS exactly when this is on: compared as a tool
    summary: "1: offer web_fetch (each fetch asks first)",
  },
  {
    env: "HEARTH_APPROVE_READS",
    readBy: "kernel",
    setting: bool("hearth.tools.readsNeedApproval", false),
    restart: true,
    narrows: "approvals",
    onJoin: "narrowing",
    summary: "1: reads, listings and searches ask first too",
  },
  {
    env: "HEARTH_APPROVAL_RULES",
    readBy: "kernel",
    // Application scope: only a person's user settings hold it, so a folder's settings cannot grant itself rules.
    setting: { key: "hearth.approval.rules", type: "array", default: [], scope: "application" },
    restart: true,
    narrows: null,
    onJoin: "told",
    summary: "the person's approval rules: allow, ask or deny per tool and shell command (docs/approval-rules.md)",
  },
  {
    env: "HEARTH_PERSONAL_INSTRUCTIONS",
    readBy: "kernel",
    // Application scope: a folder's settings cannot speak for the person.
    setting: { key: "hearth.instructions.personal", type: "string", default: "", scope: "application" },
    restart: true,
    narrows: null,
    onJoin: "told",
    summary: "the person's own rules, shown to the model after the project's instruction files (docs/project-instructions.md)",
  },
  {
    env: "HEARTH_MCP_SERVERS",
    readBy: "kernel",
    // Application scope, as the rules: a folder's settings cannot add servers that skip the confirmation
    // workspace servers need (theirs belong in .vscode/mcp.json).
    setting: { key: "hearth.mcp.servers", type: "array", default: [], scope: "application" },
    restart: true,
    narrows: null,
    onJoin: "told",
    summary: "the person's MCP servers: VS Code's mcp.json entries, each with its name (docs/mcp.md)",
  },
  {
    env: "HEARTH_MAX_ROUNDS",
    readBy: "kernel",
    setting: int("hearth.agent.maxRounds", 25, 1, 200),
    restart: true,
    narrows: "rounds",
    onJoin: "narrowing",
    summary: "model rounds with tool calls one message may take",
  },
  {
    env: "HEARTH_REPEATED_FAILURE_LIMIT",
    readBy: "kernel",
    setting: int("hearth.agent.repeatedFailureLimit", 3, 1, 50),
    restart: true,
    narrows: "repeatedFailures",
    onJoin: "narrowing",
    summary: "how often the same failing call may repeat in one message",
  },
  {
    env: "HEARTH_MAX_TASKS",
    readBy: "kernel",
    setting: int("hearth.tasks.maxConcurrent", 2, 1, 16),
    restart: true,
    narrows: "tasks",
    onJoin: "told", // a kernel-wide queue, not one client's runs: the difference is shown until a restart
    summary: "background tasks that run at once; the rest queue",
  },
  {
    env: "HEARTH_KERNEL_IDLE_SECONDS",
    readBy: "kernel",
    setting: int("hearth.kernel.idleSeconds", 600, 10, 86400),
    restart: true,
    narrows: null,
    onJoin: { harmless: "a joined kernel never idles out while this client is connected" },
    summary: "seconds a kernel with no client and nothing running waits before it exits",
  },
  {
    env: "HEARTH_HOME",
    readBy: "kernel",
    setting: { key: "hearth.home", type: "string", default: "", scope: "machine" },
    restart: true,
    narrows: null,
    onJoin: { harmless: "the home chooses the journal and so the kernel: another home meets another kernel" },
    summary: "where journals, saved KV state and downloaded models live",
  },
  {
    env: "HEARTH_ALLOW_SCRIPTED",
    readBy: "kernel",
    setting: null,
    restart: true,
    narrows: null,
    onJoin: "told",
    summary: "1: allow scripted:FILE replays (tests and demos)",
  },
  {
    env: "HEARTH_OPENAI_API_KEY",
    readBy: "kernel",
    setting: null, // SecretStorage (Hearth: Set API Key), never a setting
    restart: true,
    narrows: null,
    onJoin: "told", // compared as a short digest, never its value
    summary: "the key for openai: servers",
  },
  {
    env: "HEARTH_DEBUG",
    readBy: "client",
    setting: null,
    restart: false,
    narrows: null,
    onJoin: { harmless: "only the CLI's own diagnostics on stderr" },
    summary: "the CLI says which kernel it started or joined",
  },
]);

/** The default of a knob with an integer setting: what the kernel uses when its variable is unset. */
export function integerDefault(env: string): number {
  const setting = KNOBS.find((k) => k.env === env)?.setting;
  if (setting?.type !== "integer") throw new Error(`${env} is not a knob with an integer setting`);
  return setting.default as number;
}

/** The VS Code settings whose change needs a kernel restart to apply. */
export const KERNEL_SETTINGS: readonly string[] = KNOBS.filter((k) => k.setting && k.restart).map((k) => k.setting!.key);

/** The kernel's environment variables a joining client compares (narrowing or told), in the schema's order. */
export const COMPARED_ENV: readonly string[] = KNOBS.filter((k) => k.env && k.readBy === "kernel" && typeof k.onJoin === "string").map(
  (k) => k.env!,
);

const positive = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "") return undefined;
      const value = Number(raw);
      if (Number.isInteger(value) && value > 0) return value;
      ctx.addIssue({ code: "custom", message: `${name}=${raw} is not a positive integer; unset it or give a number such as 2` });
      return z.NEVER;
    });
const flag = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "" || raw === "0") return false;
      if (raw === "1") return true;
      ctx.addIssue({ code: "custom", message: `${name}=${raw} is neither 1 nor 0; set 1 to turn it on, or unset it` });
      return z.NEVER;
    });
/** "on" unless the variable says "off"; anything else stops the kernel with the message. */
const onByDefault = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "" || raw === "on") return "on" as const;
      if (raw === "off") return "off" as const;
      ctx.addIssue({ code: "custom", message: `${name}=${raw} is neither on nor off` });
      return z.NEVER;
    });
const text = z
  .string()
  .optional()
  .transform((raw) => (raw?.trim() ? raw.trim() : undefined));

/** The kernel's environment, parsed: what `sidecar` reads at its start (a bad value stops it with the message). */
export const KernelEnv = z.object({
  HEARTH_THREADS: positive("HEARTH_THREADS"),
  HEARTH_CONTEXT_SIZE: positive("HEARTH_CONTEXT_SIZE"),
  HEARTH_GPU: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "" || raw === "auto") return "auto" as const;
      if (raw === "off") return "off" as const;
      ctx.addIssue({ code: "custom", message: `HEARTH_GPU=${raw} is neither auto nor off` });
      return z.NEVER;
    }),
  HEARTH_INPUT_LOOKUP: onByDefault("HEARTH_INPUT_LOOKUP"),
  HEARTH_CONDENSE_AHEAD: onByDefault("HEARTH_CONDENSE_AHEAD"),
  /** A GGUF path; the llama engine checks it when it loads a chat model (sidecar/inference/llama/draftModel.ts). */
  HEARTH_DRAFT_MODEL: text,
  HEARTH_SESSIONS: positive("HEARTH_SESSIONS"),
  /** The raw allow-list; the kernel checks the names against its tools (sidecar/kernel/toolPolicy.ts). */
  HEARTH_TOOLS: text,
  HEARTH_WEB_FETCH: flag("HEARTH_WEB_FETCH"),
  HEARTH_APPROVE_READS: flag("HEARTH_APPROVE_READS"),
  /** JSON; parsed and checked by the kernel's policy (sidecar/kernel/policy/ruleSources.ts), which needs the shell parser. */
  HEARTH_APPROVAL_RULES: text,
  HEARTH_PERSONAL_INSTRUCTIONS: text,
  /** JSON; read by the kernel's MCP configuration (sidecar/kernel/mcp/mcpSources.ts), which reports a bad entry as a problem. */
  HEARTH_MCP_SERVERS: text,
  HEARTH_MAX_ROUNDS: positive("HEARTH_MAX_ROUNDS"),
  HEARTH_REPEATED_FAILURE_LIMIT: positive("HEARTH_REPEATED_FAILURE_LIMIT"),
  HEARTH_MAX_TASKS: positive("HEARTH_MAX_TASKS"),
  HEARTH_KERNEL_IDLE_SECONDS: positive("HEARTH_KERNEL_IDLE_SECONDS"),
  HEARTH_HOME: text,
  HEARTH_ALLOW_SCRIPTED: flag("HEARTH_ALLOW_SCRIPTED"),
  HEARTH_OPENAI_API_KEY: text,
});
export type KernelEnv = z.output<typeof KernelEnv>;

/** Parses an environment; the messages name each bad variable, what is wrong and what to do. */
export function parseKernelEnv(env: Record<string, string | undefined>): { ok: true; env: KernelEnv } | { ok: false; errors: string[] } {
  const parsed = KernelEnv.safeParse(env);
  return parsed.success ? { ok: true, env: parsed.data } : { ok: false, errors: parsed.error.issues.map((i) => i.message) };
}

/** A tool allow-list as written in HEARTH_TOOLS: null when unset (every tool), [] for "none". */
export function toolList(raw: string | undefined): string[] | null {
  const list = raw?.trim();
  if (!list) return null;
  if (list === "none") return [];
  return list
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
}

export interface SettingsSource {
  get<T>(key: string, fallback: T): T;
}

/** The offered tools for these settings: the enabled list, without shell when it is off, web_fetch when on. */
function offeredTools(config: SettingsSource): string[] {
  const enabled = config.get<string[]>("hearth.tools.enabled", ENABLEABLE_TOOLS);
  const shell = config.get<boolean>("hearth.tools.shell", true);
  const tools = enabled.filter((t) => shell || t !== "shell");
  if (config.get<boolean>("hearth.tools.webFetch", false)) tools.push("web_fetch");
  return tools;
}

/**
 * The kernel's environment for these settings: each knob's setting to its variable. A 0 or empty value
 * leaves the kernel's default; the tool settings fold into HEARTH_TOOLS (and HEARTH_WEB_FETCH).
 */
export function envForSettings(config: SettingsSource): Record<string, string> {
  const env: Record<string, string> = {};
  for (const knob of KNOBS) {
    const s = knob.setting;
    if (!s || !knob.env || knob.readBy !== "kernel" || knob.narrows === "tools" || knob.narrows === "network") continue;
    if (s.type === "integer") {
      const v = config.get<number>(s.key, 0);
      if (Number.isInteger(v) && v > 0) env[knob.env] = String(v);
    } else if (s.type === "boolean") {
      if (config.get<boolean>(s.key, s.default as boolean)) env[knob.env] = "1";
    } else if (s.type === "array") {
      const v = config.get<unknown[]>(s.key, []);
      if (Array.isArray(v) && v.length > 0) env[knob.env] = JSON.stringify(v);
    } else if (s.enum) {
      const v = config.get<string>(s.key, s.default as string);
      if (v !== s.default) env[knob.env] = v;
    } else {
      const v = config.get<string>(s.key, "").trim();
      if (v) env[knob.env] = v;
    }
  }
  const tools = offeredTools(config);
  env.HEARTH_TOOLS = tools.length ? tools.join(",") : "none";
  if (tools.includes("web_fetch")) env.HEARTH_WEB_FETCH = "1";
  return env;
}
