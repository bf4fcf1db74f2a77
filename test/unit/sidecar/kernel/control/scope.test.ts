// control plane #5: every session and run selector is checked against the kernel's owner; an id the journal
// never issued is NotFound (not a crash), another owner's is Refused, and both name the id.
import assert from "node:assert/strict";
import { it } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { uuidv7 } from "../../../../../shared/ids.js";
import { CLIENT, openFixture, runningRun } from "../../../../support/journalFixture.js";

const refusal = (code: number, id: string) => (e: unknown) => e instanceof HearthError && e.code === code && e.message.includes(id);

it("control plane #5: a session id the journal never issued is NotFound, naming it, on every session selector", () => {
  const f = openFixture();
  const missing = uuidv7();
  const notFound = refusal(ErrorCode.NotFound, missing);
  assert.throws(() => f.control.history(missing), notFound);
  assert.throws(() => f.control.profile(missing), notFound);
  assert.throws(() => f.control.admitTurn(missing, "x", CLIENT), notFound);
  assert.throws(() => f.control.renameSession(missing, "t"), notFound);
  assert.throws(() => f.control.hideSession(missing), notFound);
  f.close();
});

it("control plane #5: a run id the journal never issued is NotFound, naming it, on every run selector", () => {
  const f = openFixture();
  const missing = uuidv7();
  const notFound = refusal(ErrorCode.NotFound, missing);
  assert.throws(() => f.control.requestCancel(missing), notFound);
  assert.throws(() => f.control.attachmentsOf(missing), notFound);
  assert.throws(() => f.control.turnContext(missing), notFound);
  assert.throws(() => f.control.finishTurn(missing, "cancelled"), notFound);
  f.close();
});

it("control plane #5: another owner's session and run are Refused, naming them and the owner this kernel acts for", () => {
  const f = openFixture();
  const { sessionId, turnId } = runningRun(f);
  f.journal.close();
  const g = openFixture(f.file, "local:someone-else");
  assert.throws(
    () => g.control.renameSession(sessionId, "mine now"),
    (e: unknown) => refusal(ErrorCode.Refused, sessionId)(e) && (e as Error).message.includes("local:someone-else"),
  );
  assert.throws(
    () => g.control.attachmentsOf(turnId),
    (e: unknown) => refusal(ErrorCode.Refused, turnId)(e) && (e as Error).message.includes("local:someone-else"),
  );
  g.close();
});
