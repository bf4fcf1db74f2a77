// The person's switches for instruction files (issue 27, item 1): a file is on until it is turned
// off; a switch applies from the next run admitted, never to one already pinned (control plane #10).
import type { Db } from "../../journal/journal.js";
import { nowIso } from "./transition.js";

export function disabledInstructions(db: Db): Set<string> {
  return new Set(db.prepare(`SELECT path FROM instruction_switches WHERE enabled = 0`).pluck().all() as string[]);
}

export function setInstructionEnabled(db: Db, path: string, enabled: boolean): void {
  db.prepare(
    `INSERT INTO instruction_switches (path, enabled, updated_at) VALUES (?,?,?)
     ON CONFLICT(path) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
  ).run(path, enabled ? 1 : 0, nowIso());
}
