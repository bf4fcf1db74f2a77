// control plane #10: context snapshots are kernel-selected and pinned per run. Content version names the
// material; generation is monotonic per session, so A→B→A reuses version A with a higher generation.
import { createHash } from "node:crypto";
import { uuidv7 } from "../../../shared/ids.js";
import type { InstructionsInForce } from "../../../shared/protocol/instructions.js";
import type { Condensation, HistoryMessage } from "../../../shared/protocol/records.js";
import type { Db } from "../../journal/journal.js";
import { condensationById, latestCondensationId } from "./condensations.js";
import { replayMessages } from "./conversation.js";
import { pinnedRewoundRanges, withoutRewound } from "./rewinds.js";
import { profileAt, type ProfileRow } from "./sessions.js";
import { nowIso } from "./transition.js";
import type { PinnedMode } from "../modes/modeCatalog.js";

/** Bumped when the way a snapshot is rendered for a model changes. */
const RENDERER_POLICY_VERSION = 1;
const RENDERER_FINGERPRINT = createHash("sha256").update(`hearth-renderer-v${RENDERER_POLICY_VERSION}`).digest("hex").slice(0, 16);

export interface SnapshotBody {
  profileGeneration: number;
  systemPrompt: string;
  /** The journal turns the run sees: up to and including this seq. */
  journalThroughSeq: number;
  workspace: string;
  /**
   * The condensed view the run's model is shown (issue 23, item 9): the session's latest at admission,
   * or null. Absent in snapshots pinned before it was recorded: those runs read the latest.
   */
  condensationId?: string | null;
  /**
   * The project instructions the run is shown (issue 27, item 1), read at admission: a file edited or
   * switched off later applies from the next run. Absent in snapshots pinned before they were read.
   */
  instructions?: { inForce: InstructionsInForce; text: string };
  /**
   * The rewinds (issue 29) whose messages the run's model does not see, as they stood at admission.
   * Absent in snapshots pinned before rewinds existed: none.
   */
  rewindIds?: string[];
  /** The mode the run is in (issue 27, item 2), as read at admission. Absent: Code, today's default. */
  mode?: PinnedMode;
}

export function pinSnapshot(
  db: Db,
  sessionId: string,
  body: SnapshotBody,
): { snapshotId: string; generation: number; contentVersion: string } {
  const json = JSON.stringify(body);
  const contentVersion = createHash("sha256").update(json).digest("hex");
  const { latest } = db
    .prepare(`SELECT COALESCE(MAX(generation), 0) AS latest FROM context_snapshots WHERE session_id = ?`)
    .get(sessionId) as { latest: number };
  const generation = latest + 1;
  const snapshotId = uuidv7();
  db.prepare(
    `INSERT INTO context_snapshots (snapshot_id, session_id, generation, content_version, renderer_fingerprint, body_json, created_at)
     VALUES (?,?,?,?,?,?,?)`,
  ).run(snapshotId, sessionId, generation, contentVersion, RENDERER_FINGERPRINT, json, nowIso());
  return { snapshotId, generation, contentVersion };
}

/** What a run executes with: its pinned profile generation, the history before it, its user message, its condensed view. */
export interface TurnContext {
  profile: ProfileRow;
  history: HistoryMessage[];
  userMessage: string;
  condensation: Condensation | null;
  instructions?: SnapshotBody["instructions"];
  mode?: SnapshotBody["mode"];
}

/**
 * control plane #10: admission pins the snapshot a run uses; queue delay and retries never rebuild it from
 * newer sources (a later profile generation, messages committed or a view condensed after admission).
 */
export function turnContext(db: Db, run: { run_id: string; session_id: string; context_snapshot_id: string }): TurnContext {
  const row = db.prepare(`SELECT body_json FROM context_snapshots WHERE snapshot_id = ?`).get(run.context_snapshot_id) as {
    body_json: string;
  };
  const body = JSON.parse(row.body_json) as SnapshotBody;
  const messages = withoutRewound(replayMessages(db, run.session_id), pinnedRewoundRanges(db, body.rewindIds ?? []));
  const user = messages.find((m) => m.seq === body.journalThroughSeq);
  if (user?.role !== "user")
    throw new Error(`run ${run.run_id}: its pinned user message (seq ${body.journalThroughSeq}) is missing from the journal`);
  return {
    profile: { ...profileAt(db, run.session_id, body.profileGeneration), system_prompt: body.systemPrompt },
    history: messages.filter((m) => m.seq < body.journalThroughSeq),
    userMessage: user.text,
    condensation: pinnedCondensation(db, run.session_id, body),
    ...(body.instructions ? { instructions: body.instructions } : {}),
    ...(body.mode ? { mode: body.mode } : {}),
  };
}

function pinnedCondensation(db: Db, sessionId: string, body: SnapshotBody): Condensation | null {
  const id = body.condensationId === undefined ? latestCondensationId(db, sessionId) : body.condensationId;
  return id === null ? null : condensationById(db, id);
}
