// What an edit proposal's decision tells the kernel, and through it the model and the chat
// (harness #8: non-empty, bounded, single-line). The kernel prefixes a denial with "denied: ".
import { hunkPlace, hunkSize, type Hunk } from "./hunks.js";

export function acceptedReason(file: string, hunks: number): string {
  return `accepted in the editor: the proposed change to ${file} as shown (${hunks} ${hunks === 1 ? "hunk" : "hunks"})`;
}

export function rejectedReason(file: string): string {
  return `the person rejected the proposed change to ${file} in the editor; nothing was written`;
}

/** Names the hunk so the model can propose again without it. */
export function hunkRejectedReason(file: string, hunk: Hunk): string {
  return (
    `the person rejected the hunk at ${hunkPlace(file, hunk)} (${hunkSize(hunk)}) in the editor; nothing ` +
    "was written; propose the change again without that hunk"
  );
}

export function typedWhilePendingReason(file: string): string {
  return (
    `the person changed ${file} in the editor while the proposal was pending; their text is kept and ` +
    "nothing was written; read the file again and propose anew"
  );
}
