// Interrupted delegations are settled by reconciliation (issue 12 item 7, control plane #21): the task is
// orphaned (resumable or dismissible), its run is closed, and no session is left refusing turns.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CLIENT, openFixture } from "../../../../support/journalFixture.js";

describe("interrupted delegations after a kernel restart (issue 12 item 7)", () => {
  it("the child session of an interrupted delegation accepts a new turn: its run does not stay active forever", () => {
    let f = openFixture();
    const task = f.control.createTask({ parentSessionId: null, title: "bg", prompt: "work", model: "scripted:x" }, CLIENT);
    f.control.transitionAttempt(task.turnId, task.attemptId, "starting");
    f.control.transitionAttempt(task.turnId, task.attemptId, "running");
    f = f.restart();
    assert.equal(f.control.history(task.sessionId).runs[0]!.status, "failed", "the interrupted run is closed, never completed");
    assert.doesNotThrow(() => f.control.admitTurn(task.sessionId, "go on", CLIENT));
    f.close();
  });
});
