// A message and what was attached to it are journaled as one (issue 15; docs/control-plane.md: one transaction
// per durable decision): turn/start through the kernel's handler over a real journal file and the
// real workspace tools, with a failure injected on the attachment insert.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { kernelParts, requestContext } from "../../support/inProcessTurns.js";
import { count } from "../../support/journalFixture.js";

function handlerOver(k: ReturnType<typeof kernelParts>) {
  return k.kernel.handlers["turn/start"];
}

it("a failing attachment insert leaves neither the message, its run nor any attachment row (docs/control-plane.md: one transaction)", async () => {
  const k = kernelParts();
  fs.writeFileSync(path.join(k.root, "ws", "notes.md"), "# notes\n");
  const { sessionId } = k.scriptedSession([{ text: ["never shown"] }]);
  // The second row's insert fails, as a full disk or an I/O error would.
  k.journal.db.exec(
    `CREATE TEMP TRIGGER fail_second_attachment BEFORE INSERT ON message_attachments WHEN NEW.ordinal = 1
     BEGIN SELECT RAISE(ABORT, 'disk I/O error (injected)'); END;`,
  );
  const start = handlerOver(k);
  const attachments = [
    { kind: "file" as const, path: "notes.md" },
    { kind: "selection" as const, path: "notes.md", startLine: 1, endLine: 1 },
  ];
  await assert.rejects(start({ sessionId, message: "Explain this", attachments }, requestContext(k.client)), /injected/);
  assert.equal(count(k.journal, `SELECT count(*) AS n FROM conversation_journal WHERE session_id = ?`, sessionId), 0, "no message");
  assert.equal(count(k.journal, `SELECT count(*) AS n FROM runs WHERE session_id = ?`, sessionId), 0, "no run");
  assert.equal(count(k.journal, `SELECT count(*) AS n FROM message_attachments`), 0, "no attachment rows");
  assert.equal(k.turns.running(sessionId), false, "no turn was started");

  k.journal.db.exec(`DROP TRIGGER temp.fail_second_attachment`);
  const { turnId } = await start({ sessionId, message: "Explain this", attachments }, requestContext(k.client));
  assert.equal((await k.completion()).status, "completed");
  assert.deepEqual(
    k.control.attachmentsOf(turnId).map((r) => [r.attachment, r.bytes]),
    [
      [attachments[0], 8],
      [attachments[1], 8],
    ],
  );
  assert.equal(count(k.journal, `SELECT count(*) AS n FROM conversation_journal WHERE run_id = ? AND role = 'user'`, turnId), 1);
  await k.close();
});
