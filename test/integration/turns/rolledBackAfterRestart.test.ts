// A batch the harness rolled back stays rolled back after a kernel restart (issue 23, item 7;
// harness #10, #13): a turn whose every call was refused by its own proposal (edit_file's oldText is
// not in the file) until the loop guard stopped it leaves only its user message, and restart
// reconciliation must not put its calls back. The kernel's turn service over a real journal file.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { uuidv7 } from "../../../shared/ids.js";
import { openJournal } from "../../../sidecar/journal/journal.js";
import { ControlPlane } from "../../../sidecar/kernel/control/controlPlane.js";
import { kernelParts, requestContext } from "../../support/inProcessTurns.js";

it("harness #10, #13: restart reconciliation leaves a rolled-back, effect-free batch out of history", async () => {
  const k = kernelParts();
  fs.writeFileSync(path.join(k.root, "ws", "a.txt"), "hello\n");
  const edit = { name: "edit_file", arguments: { path: "a.txt", oldText: "absent", newText: "x" } };
  const { sessionId } = k.scriptedSession([{ toolCalls: [edit] }, { toolCalls: [edit] }, { toolCalls: [edit] }]);
  k.turns.start({ sessionId, message: "edit a.txt" }, requestContext(k.client));
  assert.equal((await k.completion()).status, "stopped", "the loop guard stops the turn of effect-free calls");
  const before = k.control.history(sessionId).messages;
  assert.deepEqual(
    before.map((m) => m.role),
    ["user"],
    "the harness rolled the batches back",
  );
  await k.close();
  for (let restart = 0; restart < 2; restart++) {
    const journal = openJournal(path.join(k.root, "journal.sqlite"));
    const control = new ControlPlane(journal, { ownerId: "local:tester", workspace: path.join(k.root, "ws"), bootEpoch: uuidv7() });
    const report = control.reconcile();
    assert.equal(report.batchesRepaired, 0);
    assert.deepEqual(control.history(sessionId).messages, before, "no call and no made-up `not run` result came back");
    journal.close();
  }
});
