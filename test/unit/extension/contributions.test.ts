// What package.json contributes for issue 25 (items 3 and 5), read as VS Code reads it: the keys that
// decide and walk a proposed change exist only where one waits in a focused editor, the task commands
// sit in the palette only while a task exists, and the Tasks view starts collapsed with a badge that
// says when something waits or runs there. The `when` clauses name the context keys the code sets.
import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { EDIT_COMMANDS, PENDING_CONTEXT } from "../../../extension/edits/editCommands.js";
import { HAS_TASKS_CONTEXT, taskBadge } from "../../../extension/tasks/taskText.js";
import type { TaskState, TaskSummary } from "../../../shared/protocol/index.js";

interface Contributes {
  commands: { command: string; title: string }[];
  keybindings: { command: string; key: string; mac?: string; when?: string }[];
  menus: { commandPalette: { command: string; when: string }[] };
  views: Record<string, { id: string; visibility?: string }[]>;
}
const { contributes } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { contributes: Contributes };
const paletteWhen = (command: string) => contributes.menus.commandPalette.find((m) => m.command === command)?.when;

describe("issue 25's contributions (package.json)", () => {
  it("Accept, Reject, next and previous hunk have keys that work only in an editor showing a waiting proposal, and sit in the palette only then (item 5)", () => {
    const keys = Object.fromEntries(
      contributes.keybindings.filter((k) => k.command.startsWith("hearth.edits.")).map((k) => [k.command, [k.key, k.mac, k.when]]),
    );
    const inEditor = `${PENDING_CONTEXT} && editorTextFocus`;
    assert.deepEqual(keys, {
      [EDIT_COMMANDS.accept]: ["ctrl+enter", "cmd+enter", inEditor],
      [EDIT_COMMANDS.reject]: ["ctrl+backspace", "cmd+backspace", inEditor],
      [EDIT_COMMANDS.nextHunk]: ["alt+f5", undefined, inEditor],
      [EDIT_COMMANDS.previousHunk]: ["shift+alt+f5", undefined, inEditor],
    });
    for (const command of Object.keys(keys)) {
      assert.ok(
        contributes.commands.some((c) => c.command === command),
        `${command} is a command with a title, so it can be found and rebound`,
      );
      assert.equal(paletteWhen(command), PENDING_CONTEXT, `${command} sits in the palette only while a proposal waits`);
    }
  });

  it("the task commands sit in the palette only while a task exists; starting one is always there (item 11)", () => {
    const taskCommands = contributes.commands.filter((c) => c.command.startsWith("hearth.tasks.")).map((c) => c.command);
    assert.ok(taskCommands.length >= 5, taskCommands.join(", "));
    for (const command of taskCommands)
      assert.ok(
        paletteWhen(command) === HAS_TASKS_CONTEXT || paletteWhen(command) === "false",
        `${command}: ${String(paletteWhen(command))}`,
      );
    assert.equal(paletteWhen("hearth.tasks.refresh"), "false", "Refresh belongs to the view's title bar only");
    assert.ok(contributes.commands.some((c) => c.command === "hearth.startTask"));
    assert.equal(paletteWhen("hearth.startTask"), undefined, "Start Background Task… is always in the palette");
  });

  it("the Tasks view starts collapsed, and its badge says what waits for the person first, else what runs, else nothing (item 3)", () => {
    assert.equal(contributes.views.hearth?.find((v) => v.id === "hearth.tasksView")?.visibility, "collapsed");
    const task = (state: TaskState) => ({ state }) as TaskSummary;
    assert.equal(taskBadge([]), undefined);
    assert.equal(taskBadge([task("completed"), task("failed"), task("cancelled")]), undefined, "ended tasks draw no badge");
    assert.deepEqual(taskBadge([task("running"), task("queued"), task("completed")]), { value: 2, tooltip: "2 background tasks running" });
    assert.deepEqual(taskBadge([task("running"), task("waiting_approval")]), {
      value: 1,
      tooltip: "1 background task waiting for your approval",
    });
  });
});
