// The start settings that change what a kernel does for its clients, in a form both ends compute:
// the kernel reports its own in `initialize`, a client that joins a kernel someone else started
// compares them with the environment it would have started one with (issue 12). A kernel's
// environment is fixed at its start, so a difference lasts until it is restarted.
import { createHash } from "node:crypto";

/** Variables whose value changes inference or what a turn may do (the idle period does not). */
const COMPARED = ["HEARTH_THREADS", "HEARTH_CONTEXT_SIZE", "HEARTH_GPU", "HEARTH_INPUT_LOOKUP", "HEARTH_ALLOW_SCRIPTED"] as const;
const API_KEY = "HEARTH_OPENAI_API_KEY";

/** Each compared variable's value ("" when unset); the API key as a short digest, never its value. */
export function kernelSettingsView(env: NodeJS.ProcessEnv): Record<string, string> {
  const view: Record<string, string> = {};
  for (const name of COMPARED) view[name] = env[name] ?? "";
  const key = env[API_KEY];
  view[API_KEY] = key ? `sha256:${createHash("sha256").update(key).digest("hex").slice(0, 12)}` : "";
  return view;
}

/**
 * What differs between a running kernel (its `initialize` answer) and the environment this client
 * would start one with, one sentence each; empty when nothing that matters differs. Tools are
 * compared as the kernel offers them against the client's HEARTH_TOOLS (skipped when it sets none).
 */
export function settingsDifferences(
  kernel: { settings: Record<string, string>; capabilities: { tools: string[] } },
  wanted: NodeJS.ProcessEnv,
): string[] {
  const differences: string[] = [];
  const wantedTools = wanted.HEARTH_TOOLS?.trim();
  if (wantedTools) {
    const mine =
      wantedTools === "none"
        ? []
        : wantedTools
            .split(",")
            .map((t) => t.trim())
            .filter(Boolean);
    const theirs = kernel.capabilities.tools;
    if ([...mine].sort().join(",") !== [...theirs].sort().join(",")) {
      differences.push(`tools: the kernel offers ${list(theirs)}; this window's settings offer ${list(mine)}`);
    }
  }
  const view = kernelSettingsView(wanted);
  for (const name of COMPARED) {
    const theirs = kernel.settings[name] ?? "";
    if (theirs !== view[name]) differences.push(`${name}: the kernel has ${shown(theirs)}; this window has ${shown(view[name]!)}`);
  }
  const theirKey = kernel.settings[API_KEY] ?? "";
  if (theirKey !== view[API_KEY]) {
    differences.push(
      !theirKey
        ? "API key: the kernel has none; this window has one"
        : !view[API_KEY]
          ? "API key: the kernel has one; this window has none"
          : "API key: the kernel has a different one",
    );
  }
  return differences;
}

function list(tools: string[]): string {
  return tools.length ? tools.join(", ") : "no tools";
}

function shown(value: string): string {
  return value === "" ? "it unset" : value;
}
