// Which sequence a newly opened session takes (issue 16, item 5). node-llama-cpp 3.21.1 gives each
// sequence its own KV stream, and llama.cpp then batches together only sequences whose ids rise by
// one (`llama_batch_allocr::split_equal`): 4 sessions decoding on sequences 0-3 ran at 60.9 tok/s,
// on 0,6,1,5 at 41.6. Sessions that will generate at once should sit on adjacent sequences.
//
// Sessions opened one after another, then run together (a chat beside tasks started in turn), cannot
// be told apart by how recently each was used, so evicting the least recently used session scatters
// them across whatever the previous busy spell left. Instead the pool counts busy periods (spells
// while any round runs) and evicts from the oldest period first, lowest sequence id first within
// it: the sessions of one spell are equally stale, and taking their sequences in order keeps the new
// sessions together. A session used in a later period (the person's chat) is still evicted last.
import type { LlamaContextSequence } from "node-llama-cpp";
import { sequenceIdOf } from "./sequenceId.js";

export interface PlacedSession {
  sequence: LlamaContextSequence;
  /** The busy period of the session's last round (or of its opening). */
  busyPeriod: number;
}

/** The idle session whose sequence a new session takes, or undefined when there is none. */
export function evictionVictim<S extends PlacedSession>(idle: readonly S[]): S | undefined {
  return [...idle].sort((a, b) => a.busyPeriod - b.busyPeriod || sequenceIdOf(a.sequence) - sequenceIdOf(b.sequence))[0];
}

/** Takes the free sequence with the lowest id out of `free`, or undefined when it is empty. */
export function takeLowestFree(free: LlamaContextSequence[]): LlamaContextSequence | undefined {
  if (free.length === 0) return undefined;
  let lowest = 0;
  for (let i = 1; i < free.length; i++) if (sequenceIdOf(free[i]!) < sequenceIdOf(free[lowest]!)) lowest = i;
  return free.splice(lowest, 1)[0];
}
