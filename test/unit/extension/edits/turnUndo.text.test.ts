// What the person is asked and told around an undo (issue 14 item 5): the command's question names
// every file and what happens to it; the answer lists each outcome, refusals with their reason.
import assert from "node:assert/strict";
import { test } from "node:test";
import { confirmText, resultText } from "../../../../extension/edits/turnUndo.js";

const file = (path: string, change: "modified" | "created", undone = false) => ({ path, change, undone, notUndoable: null });

test("the question names each file still to undo: restored if modified, removed if created; undone ones are left out", () => {
  const text = confirmText({
    turnId: "r",
    callIds: ["c"],
    files: [file("a.txt", "modified"), file("b.txt", "modified", true), file("new.txt", "created")],
  });
  assert.equal(
    text,
    "Undo the last turn's edits? It restores a.txt and removes new.txt as they were before the turn; files changed since are left as they are.",
  );
});

test("the answer lists what was undone and every refusal's own message", () => {
  assert.equal(
    resultText({
      files: [
        { path: "a.txt", outcome: "restored", message: "restored `a.txt`" },
        { path: "b.txt", outcome: "refused", message: "refused: `b.txt` changed since the turn wrote it" },
      ],
    }),
    "Undone: restored a.txt. refused: `b.txt` changed since the turn wrote it",
  );
  assert.equal(
    resultText({ files: [{ path: "a.txt", outcome: "refused", message: "refused: `a.txt` was already undone" }] }),
    "Nothing was undone. refused: `a.txt` was already undone",
  );
  assert.equal(
    resultText({ files: [], error: "The edits were not undone: run r is still running" }),
    "The edits were not undone: run r is still running",
  );
});
