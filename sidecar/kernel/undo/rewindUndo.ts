// The undo of a rewind, one file at a time (issue 29 item 1): a file the rewind put back returns to
// the bytes the rewind replaced, and a file it removed is created again, only while the file still
// holds what the rewind left (or is still absent); otherwise it is refused alone and left as it is.
import type { RewindFileOutcome } from "../../../shared/protocol/rewind.js";
import type { FileRestorer } from "../../tools/fileRestore.js";

/** A rewind_files row as the rewind journaled it. */
export interface RewoundFileRow {
  path: string;
  outcome: RewindFileOutcome["outcome"];
  replaced_content: Buffer | null;
  /** The hash the rewind left; null when it removed the file. */
  left_sha256: string | null;
}

export function undoFile(restorer: FileRestorer, row: RewoundFileRow): RewindFileOutcome {
  const shown = `\`${row.path}\``;
  if (row.outcome !== "restored" && row.outcome !== "removed")
    return { path: row.path, outcome: "unchanged", message: `the rewind did not change ${shown}, so its undo leaves it as it is` };
  if (!row.replaced_content)
    return {
      path: row.path,
      outcome: "refused",
      message: `refused: the bytes the rewind replaced in ${shown} were erased with the chat; it was left as it is`,
    };
  const back = (r: { ok: boolean; message: string }, done: string): RewindFileOutcome =>
    r.ok ? { path: row.path, outcome: "restored", message: done } : { path: row.path, outcome: "refused", message: r.message };
  const bytes = row.replaced_content.length;
  const now = restorer.read(row.path);
  if (!now.ok) return { path: row.path, outcome: "refused", message: now.message };
  if (row.left_sha256 === null) {
    if (now.existed)
      return {
        path: row.path,
        outcome: "refused",
        message: `refused: ${shown} was created again since the rewind removed it; it was left as it is`,
      };
    return back(restorer.recreate(row.path, row.replaced_content), `created ${shown} again with the ${bytes} bytes the rewind removed`);
  }
  if (!now.existed || now.sha256 !== row.left_sha256)
    return {
      path: row.path,
      outcome: "refused",
      message: `refused: ${shown} ${now.existed ? "changed" : "was deleted"} since the rewind put it back; it was left as it is (undo only puts back files that still hold what the rewind left)`,
    };
  // The restorer checks the hash again as it acts: a write in between is refused, never overwritten.
  return back(
    restorer.restore({ path: row.path, sha256: row.left_sha256 }, row.replaced_content),
    `put ${shown} back to the ${bytes} bytes the rewind replaced`,
  );
}
