// A real journal file in a fresh temporary folder, with a control plane over it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { uuidv7 } from "../../shared/ids.js";
import { openJournal, type Journal } from "../../sidecar/journal/journal.js";
import { ControlPlane } from "../../sidecar/kernel/control/controlPlane.js";
import type { KernelScope } from "../../sidecar/kernel/control/scope.js";
import type { EffectClass } from "../../shared/protocol/records.js";
import type { RetryPolicy } from "../../sidecar/kernel/control/ledger.js";

export interface Fixture {
  file: string;
  journal: Journal;
  control: ControlPlane;
  scope: KernelScope;
  /** Closes and reopens the file as a restarted kernel would (new boot epoch), reconciling it. */
  restart(): Fixture;
  close(): void;
}

export const OWNER = "local:tester";

export function journalFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hearth-journal-")), "journal.sqlite");
}

export function openFixture(file = journalFile(), ownerId = OWNER): Fixture {
  const journal = openJournal(file);
  const scope: KernelScope = { ownerId, workspace: "/ws", bootEpoch: uuidv7() };
  const control = new ControlPlane(journal, scope);
  const f: Fixture = {
    file,
    journal,
    control,
    scope,
    restart() {
      journal.close();
      const next = openFixture(file, ownerId);
      next.control.reconcile();
      return next;
    },
    close: () => journal.close(),
  };
  return f;
}

export const CLIENT = { clientId: "client-a", requestId: "1" };

/** A session with one admitted run whose attempt is running. */
export function runningRun(f: Fixture, opts: { role?: "coordinator" | "leaf"; model?: string } = {}) {
  const { sessionId } = f.control.createSession({ title: "t", role: opts.role, model: opts.model ?? "scripted:demo" });
  const { turnId, attemptId } = f.control.admitTurn(sessionId, "hello", CLIENT);
  f.control.transitionAttempt(turnId, attemptId, "starting");
  f.control.transitionAttempt(turnId, attemptId, "running");
  return { sessionId, turnId, attemptId };
}

export function count(j: Journal, sql: string, ...params: unknown[]): number {
  return (j.db.prepare(sql).get(...params) as { n: number }).n;
}

/**
 * What prepareInvocation takes for a call of `tool` in `run`'s attempt: `input` (none unless given),
 * manifest digest "m", the effect class and, if given, the tool's declared retry policy.
 */
export function invocation(
  run: { turnId: string; attemptId: string },
  callId: string,
  tool: string,
  effectClass: EffectClass,
  opts: { input?: Record<string, unknown>; retryPolicy?: RetryPolicy } = {},
) {
  return {
    turnId: run.turnId,
    attemptId: run.attemptId,
    callId,
    tool,
    input: opts.input ?? {},
    manifestDigest: "m",
    effectClass,
    ...(opts.retryPolicy ? { retryPolicy: opts.retryPolicy } : {}),
  };
}

/** A prepared `read_file {path: "a"}` claim in `run`, with the given effect class and optional retry policy. */
export function prepareClaim(
  f: Fixture,
  run: { turnId: string; attemptId: string },
  callId: string,
  effectClass: EffectClass = "read",
  retryPolicy?: RetryPolicy,
) {
  return f.control.prepareInvocation(invocation(run, callId, "read_file", effectClass, { input: { path: "a" }, retryPolicy }));
}

/** One completed turn of `sessionId`: the user message `text`, then one assistant message; its run id. */
export function completedTurn(f: Fixture, sessionId: string, text: string): string {
  const { turnId, attemptId } = f.control.admitTurn(sessionId, text, CLIENT);
  f.control.transitionAttempt(turnId, attemptId, "starting");
  f.control.transitionAttempt(turnId, attemptId, "running");
  f.control.appendMessages(sessionId, turnId, [{ role: "assistant", text: `answer to ${text}` }]);
  f.control.finishTurn(turnId, "completed");
  return turnId;
}
