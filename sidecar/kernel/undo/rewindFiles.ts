// The files side of a rewind (issue 29 item 1): per file the turns from the rewind point on wrote, its
// bytes before the first of them, and what putting them back would do now. The undo rules of a turn's
// edits hold: a file is put back only while it holds bytes those turns (or an undo of them) left; a
// file changed since is refused alone, with the reason, and never touched.
import type { RewindFileOutcome } from "../../../shared/protocol/rewind.js";
import type { Db } from "../../journal/journal.js";
import type { FileRestorer } from "../../tools/fileRestore.js";
import { PRE_IMAGE_MAX_BYTES } from "./fileWriteJournal.js";

/** One file as the later turns found it and left it. */
interface FileHistory {
  path: string;
  /** Its bytes before the first of the turns; null when it did not exist. */
  before: { sha256: string; content: Buffer | null } | null;
  /** Every hash the turns' writes left or found (an undo of one of them puts a found one back); "" for absent. */
  known: Set<string>;
}

/** What a rewind of one file does; `replaced` is what it overwrites or removes, kept so the rewind can be undone. */
export interface FilePlan {
  path: string;
  action: RewindFileOutcome["outcome"];
  /** Why, for "unchanged" and "refused". */
  reason: string;
  put?: { content: Buffer; sha256: string } | null;
  replaced?: { sha256: string; content: Buffer };
}

const ABSENT = "";

/** Each file written with write_file or edit_file by the session's turns whose messages start at or after `toSeq`. */
export function filesFrom(db: Db, sessionId: string, toSeq: number): FileHistory[] {
  const rows = db
    .prepare(
      `SELECT w.path, w.existed_before, w.before_sha256, w.before_content, w.after_sha256 FROM file_writes w
       WHERE w.session_id = ? AND w.run_id IN (SELECT run_id FROM conversation_journal WHERE session_id = ? AND seq >= ? AND run_id IS NOT NULL)
       ORDER BY w.rowid`,
    )
    .all(sessionId, sessionId, toSeq) as {
    path: string;
    existed_before: 0 | 1;
    before_sha256: string | null;
    before_content: Buffer | null;
    after_sha256: string;
  }[];
  const files = new Map<string, FileHistory>();
  for (const r of rows) {
    let f = files.get(r.path);
    if (!f) {
      f = { path: r.path, before: r.existed_before ? { sha256: r.before_sha256!, content: r.before_content } : null, known: new Set() };
      files.set(r.path, f);
    }
    f.known.add(r.existed_before ? r.before_sha256! : ABSENT).add(r.after_sha256);
  }
  return [...files.values()];
}

/** What putting `f` back to its bytes before the turns would do now; reads the file, changes nothing. */
export function planFile(restorer: FileRestorer, f: FileHistory): FilePlan {
  const shown = `\`${f.path}\``;
  const refused = (why: string): FilePlan => ({ path: f.path, action: "refused", reason: `refused: ${shown} ${why}` });
  const now = restorer.read(f.path);
  if (!now.ok) return { path: f.path, action: "refused", reason: now.message };
  const nowSha = now.existed ? now.sha256 : ABSENT;
  if (nowSha === (f.before?.sha256 ?? ABSENT))
    return { path: f.path, action: "unchanged", reason: `${shown} already holds what it held before these turns; nothing to do` };
  if (!f.known.has(nowSha))
    return refused(
      `changed since these turns wrote it; it was left as it is (a rewind only puts back files that still hold what the turns wrote)`,
    );
  if (f.before && !f.before.content)
    return refused(
      `was over ${PRE_IMAGE_MAX_BYTES / (1 << 20)} MiB before these turns, so only its hash was kept and it cannot be put back here; restore it from version control or a backup`,
    );
  if (!now.existed) return refused("was deleted since these turns wrote it; nothing was changed");
  const replaced = { sha256: now.sha256, content: now.content };
  if (!f.before) return { path: f.path, action: "removed", reason: "", put: null, replaced };
  return { path: f.path, action: "restored", reason: "", put: { content: f.before.content!, sha256: f.before.sha256 }, replaced };
}

/** Carries out a plan; the restorer re-checks the file's hash at the moment it acts (another writer loses nothing). */
export function applyPlan(restorer: FileRestorer, plan: FilePlan): RewindFileOutcome {
  if (!plan.replaced) return { path: plan.path, outcome: plan.action, message: plan.reason };
  const left = { path: plan.path, sha256: plan.replaced.sha256 };
  const r = plan.put ? restorer.restore(left, plan.put.content) : restorer.remove(left);
  if (!r.ok) return { path: plan.path, outcome: "refused", message: r.message };
  const message = plan.put
    ? `restored \`${plan.path}\` to its ${plan.put.content.length} bytes before these turns`
    : `removed \`${plan.path}\`, which these turns created`;
  return { path: plan.path, outcome: plan.action, message };
}

/** The preview's words for a plan: what the rewind would do, acting on nothing. */
export function previewOf(plan: FilePlan): RewindFileOutcome {
  if (plan.action === "restored")
    return {
      path: plan.path,
      outcome: "restored",
      message: `would put \`${plan.path}\` back to its ${plan.put!.content.length} bytes before these turns`,
    };
  if (plan.action === "removed")
    return { path: plan.path, outcome: "removed", message: `would remove \`${plan.path}\`, which these turns created` };
  return { path: plan.path, outcome: plan.action, message: plan.reason };
}
