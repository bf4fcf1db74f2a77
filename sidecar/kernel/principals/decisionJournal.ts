// Every approval decision, journaled (issue 24): the call, the decision, the reason, who decided
// (client kind and id, or the kernel's own rule when no one could answer), where (surface) and when.
// `hearth show` and session/history read them back.
import { errorMessage } from "../../../shared/errors.js";
import { uuidv7 } from "../../../shared/ids.js";
import type {
  ApprovalDecisionRecord,
  DecisionSurface,
  NotificationParams,
  ServerRequestParams,
  ServerRequestResult,
} from "../../../shared/protocol/index.js";
import type { Db, Journal } from "../../journal/journal.js";
import { nowIso } from "../control/transition.js";
import type { Principal } from "./clientPrincipals.js";

export type DecidedBy = ApprovalDecisionRecord["decidedBy"];
type Request = ServerRequestParams<"approval/request">;
type Answer = ServerRequestResult<"approval/request">;

/** The kernel itself decided (no client could answer, the turn ended while it waited). */
export const KERNEL_RULE: { by: DecidedBy; surface: DecisionSurface } = { by: { kind: "kernel", clientId: "kernel" }, surface: "rule" };

/** Where a client decided when it did not say: a window on its card, a terminal at its prompt, anything else by its policy. */
export function decidedBy(principal: Principal, answer: Answer): { by: DecidedBy; surface: DecisionSurface } {
  const surface = answer.surface ?? (principal.kind === "window" ? "card" : principal.kind === "terminal" ? "terminal" : "policy");
  return { by: { kind: principal.kind, clientId: principal.clientId }, surface };
}

/** A decision as every client hears of it (approval/decided). */
export type DecisionNotice = NotificationParams<"approval/decided">;

export class DecisionJournal {
  constructor(
    private readonly journal: Journal,
    /** After each decision is committed: the kernel tells every client (a card updates live). */
    private readonly onRecorded: (notice: DecisionNotice) => void = () => undefined,
  ) {}

  record(req: Request, answer: Pick<Answer, "decision" | "reason">, who: { by: DecidedBy; surface: DecisionSurface }): void {
    const decidedAt = nowIso();
    this.journal.withTransaction((db) =>
      db
        .prepare(
          `INSERT INTO approval_decisions (decision_id, session_id, run_id, call_id, tool, input_hash, decision, reason,
             decided_by_kind, decided_by_id, surface, decided_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
        )
        .run(
          uuidv7(),
          req.sessionId,
          req.turnId,
          req.call.callId,
          req.call.name,
          req.inputHash,
          answer.decision,
          answer.reason,
          who.by.kind,
          who.by.clientId,
          who.surface,
          decidedAt,
        ),
    );
    this.onRecorded({
      sessionId: req.sessionId,
      turnId: req.turnId,
      callId: req.call.callId,
      decision: { decision: answer.decision, decidedBy: who.by, surface: who.surface, decidedAt },
    });
  }

  /** Asks `client` and journals its answer as its own; a failure to answer is journaled as the kernel's denial, then rethrown. */
  async ask(
    client: { request: (m: "approval/request", p: Request, s?: AbortSignal) => Promise<Answer> },
    principal: Principal,
    req: Request,
    signal?: AbortSignal,
  ): Promise<Answer> {
    let answer: Answer;
    try {
      answer = await client.request("approval/request", req, signal);
    } catch (e) {
      this.record(req, { decision: "deny", reason: `denied: no answer from the client that may decide (${errorMessage(e)})` }, KERNEL_RULE);
      throw e;
    }
    this.record(req, answer, decidedBy(principal, answer));
    return answer;
  }
}

export function decisionsOf(db: Db, sessionId: string): ApprovalDecisionRecord[] {
  const rows = db.prepare(`SELECT * FROM approval_decisions WHERE session_id = ? ORDER BY decided_at, decision_id`).all(sessionId) as {
    run_id: string;
    call_id: string;
    tool: string;
    input_hash: string;
    decision: "approve" | "deny";
    reason: string;
    decided_by_kind: DecidedBy["kind"];
    decided_by_id: string;
    surface: DecisionSurface;
    decided_at: string;
  }[];
  return rows.map((r) => ({
    turnId: r.run_id,
    callId: r.call_id,
    tool: r.tool,
    inputHash: r.input_hash,
    decision: r.decision,
    reason: r.reason,
    decidedBy: { kind: r.decided_by_kind, clientId: r.decided_by_id },
    surface: r.surface,
    decidedAt: r.decided_at,
  }));
}
