// What the Tasks view, its notifications and the status bar say about a task, as plain text (no
// `vscode` import, so it is unit-tested).
import type { HistoryMessage, TaskState, TaskSummary, TurnEvent } from "../../shared/protocol/index.js";

/** True while the folder has a task: the task commands' palette `when` (package.json). */
export const HAS_TASKS_CONTEXT = "hearth.hasTasks";

/**
 * The Tasks view's badge (issue 25 item 3: the view starts collapsed, so its badge says when something
 * waits or runs there): tasks waiting for an approval first, else running ones; none when all ended.
 */
export function taskBadge(tasks: readonly TaskSummary[]): { value: number; tooltip: string } | undefined {
  const count = (n: number, what: string) => ({ value: n, tooltip: `${n} background task${n === 1 ? "" : "s"} ${what}` });
  const waiting = tasks.filter((t) => t.state === "waiting_approval").length;
  if (waiting) return count(waiting, "waiting for your approval");
  const running = tasks.filter((t) => !isEnded(t.state)).length;
  return running ? count(running, "running") : undefined;
}

/** Each state's words and codicon: the view shows both, so the state reads without colour. */
export const STATE_LOOK: Record<TaskState, { label: string; icon: string }> = {
  queued: { label: "queued", icon: "clock" },
  running: { label: "running", icon: "sync~spin" },
  waiting_approval: { label: "waiting for approval", icon: "bell-dot" },
  completed: { label: "completed", icon: "pass" },
  failed: { label: "failed", icon: "error" },
  cancelled: { label: "cancelled", icon: "circle-slash" },
  orphaned: { label: "orphaned", icon: "debug-disconnect" },
};

const ENDED: ReadonlySet<TaskState> = new Set(["completed", "failed", "cancelled", "orphaned"]);

export function isEnded(state: TaskState): boolean {
  return ENDED.has(state);
}

/** The instruction's first words: what a task started from the editor is called. */
export function titleFromInstruction(instruction: string, maxWords = 8, maxChars = 80): string {
  const words = instruction.trim().split(/\s+/).filter(Boolean);
  const title = words.slice(0, maxWords).join(" ");
  const cut = title.length > maxChars ? `${title.slice(0, maxChars - 1)}…` : title;
  return words.length > maxWords && !cut.endsWith("…") ? `${cut}…` : cut;
}

/** How long it ran: until now while it is not ended, else until its last change. */
export function elapsed(task: Pick<TaskSummary, "createdAt" | "updatedAt" | "state">, now: number): string {
  const end = isEnded(task.state) ? Date.parse(task.updatedAt) : now;
  const seconds = Math.max(0, Math.round((end - Date.parse(task.createdAt)) / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** A turn event as the task's last activity, or null for events that say nothing new (deltas after the first). */
export function activityOf(event: TurnEvent): string | null {
  switch (event.type) {
    case "answer_delta":
      return "writing its answer";
    case "reasoning_delta":
      return "thinking";
    case "tool_call_started":
      return `writing a ${event.name} call`;
    case "tool_call_args":
      return null;
    case "tool_call":
      return `calling ${event.call.name}`;
    case "tool_result":
      return `${event.name} ${event.ok ? "succeeded" : "failed"}`;
    case "status":
      return null;
    case "completed":
      return `turn ${event.status}`;
  }
}

/** The approval notification: which task wants what, on what (harness #8: what it will do, exactly). */
export function taskApprovalText(title: string, tool: string, target: string): string {
  return `Task "${title}" wants to run ${tool} on ${target}`;
}

/** The request's target in one line: the file of a diff, else the preview's first line. */
export function approvalTarget(preview: { kind: "diff"; path: string } | { kind: "text"; text: string }): string {
  if (preview.kind === "diff") return preview.path;
  const line = preview.text.split("\n")[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** The status bar's count, or null when there is nothing to count (the item hides). */
export function taskCountText(tasks: readonly Pick<TaskSummary, "state">[]): { text: string; tooltip: string } | null {
  const running = tasks.filter((t) => t.state === "running").length;
  const waiting = tasks.filter((t) => t.state === "waiting_approval").length;
  if (running + waiting === 0) return null;
  const parts = [...(running ? [`${running} running`] : []), ...(waiting ? [`${waiting} awaiting approval`] : [])];
  return {
    text: `$(tasklist) ${parts.join(" · ")}`,
    tooltip: `Hearth background tasks: ${parts.join(", ")}. Click to show the Tasks view.`,
  };
}

/**
 * A task's transcript as Markdown, from session/history (read-only, so it shows what was journaled).
 * Opened as a rendered preview (issue 25 item 11). A run of identical calls, or of identical results,
 * is one line with its count (a model repeating one call twenty times reads as one line, not twenty).
 */
/** Where a forked task came from, in words: `"Plan the parser" at #3`. */
export function forkOriginText(origin: NonNullable<TaskSummary["forkedFrom"]>): string {
  return `"${origin.title || "Untitled chat"}" at #${origin.atSeq}`;
}

export function transcriptMarkdown(task: TaskSummary, messages: readonly HistoryMessage[], result: string | null): string {
  const lines = [
    `# Task: ${task.title}`,
    "",
    `State: **${STATE_LOOK[task.state].label}**${task.reason ? ` (${task.reason})` : ""} · model \`${task.model}\` · started ${task.createdAt}`,
    "",
    // Its first messages are that chat's, copied when it was forked (issue 29 item 2).
    ...(task.forkedFrom ? [`Forked from the chat ${forkOriginText(task.forkedFrom)}: the messages before it are that chat's.`, ""] : []),
  ];
  // Each block is pushed through `add`, which folds it into the one before when they are the same.
  let last: { block: string[]; key: string; count: number; at: number } | undefined;
  const add = (key: string, block: (count: number) => string[]) => {
    if (last && last.key === key) {
      last.count++;
      const again = block(last.count);
      lines.splice(last.at, last.block.length, ...again);
      last.block = again;
      return;
    }
    const made = block(1);
    last = { block: made, key, count: 1, at: lines.length };
    lines.push(...made);
  };
  const times = (n: number) => (n > 1 ? ` (${n} times)` : "");
  for (const m of messages) {
    if (m.role === "system") continue;
    if (m.role === "user") add(`user ${m.text}`, () => ["## Instruction", "", m.text, ""]);
    else if (m.role === "assistant") {
      if (m.text) add(`answer ${m.text}`, () => ["## Answer", "", m.text, ""]);
      for (const c of m.toolCalls) {
        const args = JSON.stringify(c.arguments);
        add(`call ${c.name} ${args}`, (n) => [`- calls \`${c.name}\`${times(n)} ${"```"}${args}${"```"}`, ""]);
      }
    } else
      add(`result ${m.name} ${m.ok} ${m.output}`, (n) => [
        `- \`${m.name}\` ${m.ok ? "succeeded" : "failed"}${times(n)}:`,
        "",
        "```",
        m.output,
        "```",
        "",
      ]);
  }
  if (result !== null) lines.push("## Result", "", result, "");
  return lines.join("\n");
}

/** issue 24: how the Tasks view marks a task started from an untrusted folder, and why. */
export const READ_ONLY_LABEL = "read-only (Restricted Mode)";
export const READ_ONLY_WHY =
  "Read-only: started while this folder was in Restricted Mode, so it is offered read-only tools only, for its life. " +
  "To let a task write, trust the folder (Manage Workspace Trust) and start a new task.";
