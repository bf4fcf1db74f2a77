// Undo writes files (it puts their old bytes back), so in Restricted Mode it is refused like every
// other write, before the kernel is asked (issue 10 item 6 with issue 14's undo).
import assert from "node:assert/strict";
import { it } from "node:test";
import { TurnUndo } from "../../../../extension/edits/turnUndo.js";

it("in Restricted Mode undo is refused with what to do, and the kernel is never asked", async () => {
  let asked = 0;
  const kernel = {
    ensureStarted: async () => {
      asked++;
      throw new Error("the kernel must not be reached");
    },
  };
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const shown: unknown[] = [];
  const undo = new TurnUndo({ kernel: kernel as never, sessionId: () => undefined, log, restricted: () => true });
  undo.attach((m) => shown.push(m));
  const result = await undo.undo("01a22e22-e42a-7000-aa2e-e74c9e777278");
  assert.deepEqual(result.files, []);
  assert.match(result.error ?? "", /Restricted Mode.*trust the folder/);
  assert.equal(asked, 0);
  assert.deepEqual(shown, [{ type: "edits/result", turnId: "01a22e22-e42a-7000-aa2e-e74c9e777278", files: [], error: result.error }]);
});
