// harness #19: a session's tool authority (workspace identity, exact tool definitions, enablement,
// ceilings) is pinned by digest on its first turn; a later turn that would run under different
// authority fails closed. Stored as an immutable event, so the pin has the journal's durability.
import type { Db } from "../../journal/journal.js";
import { appendEvent } from "./transition.js";

export type AuthorityDigests = Record<string, string>;

const PINNED = "session.authority_pinned";

function pinnedAuthority(db: Db, sessionId: string): AuthorityDigests | null {
  // By entity (the pin's entity is its session): events has no session index, and a scan of every event would grow with the journal.
  const row = db
    .prepare(`SELECT payload_json FROM events WHERE entity_id = ? AND type = ? ORDER BY event_seq LIMIT 1`)
    .get(sessionId, PINNED) as { payload_json: string } | undefined;
  return row ? (JSON.parse(row.payload_json) as AuthorityDigests) : null;
}

/** Pins the digests unless the session already has a pin; returns the pin in force. */
export function pinAuthority(db: Db, sessionId: string, digests: AuthorityDigests): AuthorityDigests {
  const existing = pinnedAuthority(db, sessionId);
  if (existing) return existing;
  appendEvent(db, { entityKind: "session", entityId: sessionId, sessionId, type: PINNED, payload: digests });
  return digests;
}
