// issue 15: what was attached to a run's message reads back as it was admitted: order, kind, place, lines, size, hash.
import assert from "node:assert/strict";
import { it } from "node:test";
import type { AttachmentRecord } from "../../../../../sidecar/kernel/control/attachments.js";
import { CLIENT, count, openFixture } from "../../../../support/journalFixture.js";

it("issue 15: attachments read back in order, a selection with both its lines, a one-line selection ending where it starts, a file with none", () => {
  const f = openFixture();
  const { sessionId } = f.control.createSession({ model: "scripted:x" });
  const records: AttachmentRecord[] = [
    { attachment: { kind: "selection", path: "src/a.ts", startLine: 3, endLine: 7 }, bytes: 120, sha256: "aa" },
    { attachment: { kind: "file", path: "notes.md" }, bytes: 8, sha256: "bb" },
    { attachment: { kind: "selection", path: "src/b.ts", startLine: 4 }, bytes: 10, sha256: "cc" },
  ];
  const { turnId } = f.control.admitTurn(sessionId, "look", CLIENT, { attachments: records });
  assert.deepEqual(f.control.attachmentsOf(turnId), [
    records[0],
    records[1],
    { attachment: { kind: "selection", path: "src/b.ts", startLine: 4, endLine: 4 }, bytes: 10, sha256: "cc" },
  ]);
  assert.deepEqual(
    f.journal.db.prepare(`SELECT ordinal, start_line, end_line FROM message_attachments WHERE run_id = ? ORDER BY ordinal`).all(turnId),
    [
      { ordinal: 0, start_line: 3, end_line: 7 },
      { ordinal: 1, start_line: null, end_line: null },
      { ordinal: 2, start_line: 4, end_line: null },
    ],
  );
  f.close();
});

it("issue 15: a message with nothing attached has no attachment rows", () => {
  const f = openFixture();
  const { sessionId } = f.control.createSession({ model: "scripted:x" });
  const { turnId } = f.control.admitTurn(sessionId, "plain", CLIENT);
  assert.deepEqual(f.control.attachmentsOf(turnId), []);
  assert.equal(count(f.journal, `SELECT COUNT(*) AS n FROM message_attachments`), 0);
  f.close();
});
