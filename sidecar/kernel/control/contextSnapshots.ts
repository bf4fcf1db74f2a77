// spec 004: context snapshots are kernel-selected and pinned per run. Content version names the
// material; generation is monotonic per session, so A→B→A reuses version A with a higher generation.
import { createHash } from "node:crypto";
import { uuidv7 } from "../../../shared/ids.js";
import type { Db } from "../../journal/journal.js";
import { nowIso } from "./transition.js";

/** Bumped when the way a snapshot is rendered for a model changes. */
export const RENDERER_POLICY_VERSION = 1;
export const RENDERER_FINGERPRINT = createHash("sha256").update(`hearth-renderer-v${RENDERER_POLICY_VERSION}`).digest("hex").slice(0, 16);

export interface SnapshotBody {
  profileGeneration: number;
  systemPrompt: string;
  /** The journal turns the run sees: up to and including this seq. */
  journalThroughSeq: number;
  workspace: string;
}

export function pinSnapshot(db: Db, sessionId: string, body: SnapshotBody): { snapshotId: string; generation: number; contentVersion: string } {
  const json = JSON.stringify(body);
  const contentVersion = createHash("sha256").update(json).digest("hex");
  const { g } = db.prepare(`SELECT COALESCE(MAX(generation), 0) AS g FROM context_snapshots WHERE session_id = ?`).get(sessionId) as { g: number };
  const snapshotId = uuidv7();
  db.prepare(`INSERT INTO context_snapshots (snapshot_id, session_id, generation, content_version, renderer_fingerprint, body_json, created_at) VALUES (?,?,?,?,?,?,?)`)
    .run(snapshotId, sessionId, g + 1, contentVersion, RENDERER_FINGERPRINT, json, nowIso());
  return { snapshotId, generation: g + 1, contentVersion };
}
