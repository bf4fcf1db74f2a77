// harness #19: a session's tool authority (workspace identity, exact tool definitions, enablement,
// ceilings) is pinned by digest on its first turn; a later turn that would run under different
// authority fails closed. Stored as an immutable event, so the pin has the journal's durability.
// The pin names its tools too (issue 25 item 2): a session may ask to go on with them (keptTools.ts).
import type { Db } from "../../journal/journal.js";
import { appendEvent } from "./transition.js";

export type AuthorityDigests = Record<string, string>;

export interface AuthorityPin {
  digests: AuthorityDigests;
  /** The ceiling's tool names, sorted; null for a pin made before they were recorded. */
  toolNames: string[] | null;
}

const PINNED = "session.authority_pinned";

export function pinnedAuthority(db: Db, sessionId: string): AuthorityPin | null {
  // By entity (the pin's entity is its session): events has no session index, and a scan of every event would grow with the journal.
  const row = db
    .prepare(`SELECT payload_json FROM events WHERE entity_id = ? AND type = ? ORDER BY event_seq LIMIT 1`)
    .get(sessionId, PINNED) as { payload_json: string } | undefined;
  if (!row) return null;
  const { toolNames, ...digests } = JSON.parse(row.payload_json) as AuthorityDigests & { toolNames?: string[] };
  return { digests, toolNames: toolNames ?? null };
}

/** Pins the digests (and the names of the tools they cover) unless the session already has a pin; returns the pin's digests in force. */
export function pinAuthority(db: Db, sessionId: string, digests: AuthorityDigests, toolNames?: readonly string[]): AuthorityDigests {
  const existing = pinnedAuthority(db, sessionId);
  if (existing) return existing.digests;
  const payload = toolNames ? { ...digests, toolNames: [...toolNames] } : digests;
  appendEvent(db, { entityKind: "session", entityId: sessionId, sessionId, type: PINNED, payload });
  return digests;
}
