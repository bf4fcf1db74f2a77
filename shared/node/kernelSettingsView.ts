// The start settings that change what a kernel does for its clients, in a form both ends compute:
// the kernel reports its own in `initialize` and each client sends its own there (issue 22, item 2).
// The knobs and what a joining client is owed come from the one schema (shared/kernelSettings.ts):
// a narrowing knob where the client is stricter applies to the runs that client starts; any other
// difference is told, and lasts until the kernel restarts.
import { createHash } from "node:crypto";
import { COMPARED_ENV, integerDefault, KernelEnv, toolList } from "../kernelSettings.js";

/** Shown as a short digest: the API key is a secret, the person's rules are long (a view value is at most 4096 characters). */
const API_KEY = "HEARTH_OPENAI_API_KEY";
const DIGESTED = [API_KEY, "HEARTH_PERSONAL_INSTRUCTIONS"];
/** Compared as the tools the kernel offers (its capabilities), not as raw variables. */
const AS_TOOLS = new Set(["HEARTH_TOOLS", "HEARTH_WEB_FETCH"]);

/** Each compared variable's meaning as a string ("" when unset or the default); the API key and the person's rules as a short digest. */
export function kernelSettingsView(env: NodeJS.ProcessEnv): Record<string, string> {
  const view: Record<string, string> = {};
  const shape = KernelEnv.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>;
  for (const name of COMPARED_ENV) {
    const raw = env[name];
    const parsed = shape[name]!.safeParse(raw);
    const value = parsed.success ? parsed.data : raw; // a bad value is shown as written (its kernel refuses it)
    view[name] = value === undefined || value === false || value === "auto" ? "" : value === true ? "1" : String(value);
  }
  for (const name of DIGESTED) {
    const value = view[name];
    view[name] = value ? `sha256:${createHash("sha256").update(value).digest("hex").slice(0, 12)}` : "";
  }
  return view;
}

/** What a client's stricter settings take away from the runs it starts (applied by the kernel, sessionAgent.ts). */
export interface TurnNarrowing {
  approveReads?: true;
  /** Only these of the kernel's tools are offered. */
  tools?: string[];
  maxRounds?: number;
  repeatedFailureLimit?: number;
}

export interface SettingsComparison {
  /** The client's stricter settings, applied to its runs. */
  narrowing: TurnNarrowing;
  /** One sentence per narrowed knob: what this client's runs get that the kernel's own settings would not. */
  narrowed: string[];
  /** Every other difference, one sentence each: it lasts until the kernel restarts under the client's settings. */
  told: string[];
}

/**
 * Compares a running kernel (its `initialize` view and offered tools) with the view of the client
 * joining it. The kernel calls it to narrow the client's runs; the client calls it to say what differs.
 */
export function compareSettings(
  kernel: { settings: Record<string, string>; tools: readonly string[] },
  client: Record<string, string>,
): SettingsComparison {
  const narrowing: TurnNarrowing = {};
  const narrowed: string[] = [];
  const told: string[] = [];
  const theirs = (name: string) => kernel.settings[name] ?? "";
  const mine = (name: string) => client[name] ?? "";

  const wanted = toolList(mine("HEARTH_TOOLS"));
  if (wanted !== null) {
    const extra = kernel.tools.filter((t) => !wanted.includes(t));
    const missing = wanted.filter((t) => !kernel.tools.includes(t));
    if (extra.length) {
      narrowing.tools = kernel.tools.filter((t) => wanted.includes(t));
      narrowed.push(
        `tools: this client's runs are offered ${list(narrowing.tools)}, not ${list(extra)} (the kernel offers ${list([...kernel.tools])})`,
      );
    }
    if (missing.length) told.push(`tools: this client's settings offer ${list(missing)}, which the kernel does not`);
  }
  if (mine("HEARTH_APPROVE_READS") !== theirs("HEARTH_APPROVE_READS")) {
    if (mine("HEARTH_APPROVE_READS") === "1") {
      narrowing.approveReads = true;
      narrowed.push("reads: this client's reads, listings and searches ask first (the kernel was started without HEARTH_APPROVE_READS)");
    } else told.push("reads: the kernel asks before reads, listings and searches; this client's settings do not");
  }
  for (const [name, key, what] of [
    ["HEARTH_MAX_ROUNDS", "maxRounds", "model rounds with tool calls per message"],
    ["HEARTH_REPEATED_FAILURE_LIMIT", "repeatedFailureLimit", "repeats of one failing call per message"],
  ] as const) {
    const k = Number(theirs(name) || integerDefault(name));
    const c = Number(mine(name) || integerDefault(name));
    if (c < k) {
      narrowing[key] = c;
      narrowed.push(`${name}: this client's runs stop after ${c} ${what} (the kernel allows ${k})`);
    } else if (c > k) told.push(`${name}: the kernel stops after ${k} ${what}; this client's settings allow ${c}`);
  }
  const handled = new Set([...AS_TOOLS, "HEARTH_APPROVE_READS", "HEARTH_MAX_ROUNDS", "HEARTH_REPEATED_FAILURE_LIMIT", API_KEY]);
  for (const name of COMPARED_ENV) {
    if (handled.has(name) || theirs(name) === mine(name)) continue;
    told.push(`${name}: the kernel has ${shown(theirs(name))}; this client has ${shown(mine(name))}`);
  }
  if (theirs(API_KEY) !== mine(API_KEY)) {
    told.push(
      !theirs(API_KEY)
        ? "API key: the kernel has none; this client has one"
        : !mine(API_KEY)
          ? "API key: the kernel has one; this client has none"
          : "API key: the kernel has a different one",
    );
  }
  return { narrowing, narrowed, told };
}

function list(tools: readonly string[]): string {
  return tools.length ? tools.join(", ") : "no tools";
}

function shown(value: string): string {
  return value === "" ? "it unset" : value;
}
