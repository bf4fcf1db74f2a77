// The conversation side of a rewind on a real journal (issue 29 item 1): a run admitted after a rewind
// is built from exactly the history before the rewind point; its pinned view survives an undo of the
// rewind (control plane #10); a condensed view made before the rewind that reaches its range is passed
// over for one that does not (it would summarize messages the model no longer sees).
import assert from "node:assert/strict";
import { it } from "node:test";
import { completedTurn as turn, openFixture, type Fixture } from "../../../../support/journalFixture.js";
import { RewindService } from "../../../../../sidecar/kernel/undo/rewindService.js";

const condense = (f: Fixture, sessionId: string, throughSeq: number) =>
  f.control.recordCondensation({
    sessionId,
    turnId: null,
    trigger: "on_demand",
    fromSeq: 1,
    throughSeq,
    summary: `summary through #${throughSeq}`,
    elidedCallIds: [],
    tokensBefore: 100,
    tokensAfter: 10,
  });

it("a run after a rewind sees the history before the rewind point and the condensed view made before it that stays true; an undo later leaves that run's pinned view alone", () => {
  const f = openFixture();
  const rewinds = new RewindService({ journal: f.journal, control: f.control, restorer: {} as never }); // the conversation writes no file
  const { sessionId } = f.control.createSession({ title: "t", model: "scripted:demo" });
  turn(f, sessionId, "first"); // #1, #2
  turn(f, sessionId, "second"); // #3, #4
  const early = condense(f, sessionId, 2);
  condense(f, sessionId, 4); // summarizes the turn the rewind takes out of view

  const rewound = rewinds.rewind(sessionId, 3, "conversation");
  assert.deepEqual([rewound.fromSeq, rewound.throughSeq], [3, 4]);
  const after = turn(f, sessionId, "third"); // #5, #6
  const pinned = f.control.turnContext(after);
  assert.deepEqual(
    pinned.history.map((m) => m.seq),
    [1, 2],
    "exactly the history before the rewind point",
  );
  assert.equal(pinned.condensation?.condensationId, early.condensationId, "the later summary covers rewound messages: passed over");

  rewinds.undo(rewound.rewindId);
  assert.deepEqual(
    f.control.turnContext(after).history.map((m) => m.seq),
    [1, 2],
    "control plane #10: an undo after admission does not change a run's pinned view",
  );
  const next = turn(f, sessionId, "fourth");
  const view = f.control.turnContext(next);
  assert.deepEqual(
    view.history.map((m) => m.seq),
    [1, 2, 3, 4, 5, 6],
  );
  assert.equal(
    view.condensation?.condensationId,
    early.condensationId,
    "the summary through #4, made before the rewind and its undo, stays passed over",
  );
  f.close();
});
