// What the MCP view says about a server (issue 28, item 6): pure, so its words are tested without an
// editor. A server's state as icon and words, why it does not start, and the question a person
// answers before a workspace or imported server may run.
import type { McpServerView } from "../../shared/protocol/index.js";

export function serverDescription(s: McpServerView): string {
  if (s.blocked === "needs_confirmation") return "not started: confirm it first";
  if (s.blocked === "needs_input") return `needs ${s.missingInputs.join(", ")}`;
  if (s.blocked === "disabled") return "disabled in its file";
  const tools = s.tools.filter((t) => t.available).length;
  return s.state === "running" ? `running, ${tools} tool${tools === 1 ? "" : "s"}` : s.state;
}

export function serverIcon(s: McpServerView): string {
  if (s.blocked === "needs_confirmation" || s.blocked === "needs_input") return "shield";
  if (s.blocked === "disabled" || s.state === "off") return "circle-slash";
  return { running: "pass", starting: "loading~spin", crashed: "error", stopped: "circle-outline", off: "circle-slash" }[s.state];
}

export function serverTooltip(s: McpServerView): string {
  const lines = [`${s.name} (${s.sourceLabel})`, `runs: ${s.commandLine}`, `state: ${s.state}`];
  if (s.lastError) lines.push(`last error: ${s.lastError}`);
  if (s.restarts > 0) lines.push(`restarts: ${s.restarts}`);
  return lines.join("\n");
}

/** The modal question before a workspace or imported server starts: what runs, from where, with what. */
export function confirmQuestion(s: McpServerView): { message: string; detail: string } {
  return {
    message: `Start the MCP server "${s.name}" from ${s.sourceLabel}?`,
    detail:
      `It runs on this machine with your permissions, in the workspace folder:\n\n${s.commandLine}\n\n` +
      "Its tools are offered to new chats; each call asks you first unless an approval rule allows it. " +
      "A changed configuration asks again.",
  };
}

/** A server item's contextValue, which the menus in package.json match: `hearthMcp:<state>:<blocked>`. */
export function serverContext(s: McpServerView): string {
  return `hearthMcp:${s.state}:${s.blocked ?? "ready"}`;
}
