// The journal: one better-sqlite3 connection in WAL mode, opened with an integrity check, migrated
// by numbered steps, and written only through `withTransaction` (BEGIN IMMEDIATE).
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { ErrorCode, HearthError, errorMessage } from "../../shared/errors.js";
import { MIGRATIONS } from "./migrations.js";

export type Db = Database.Database;

export interface TransactionOptions {
  /**
   * Commit with synchronous=FULL. Required for any commit that records a tool as `dispatched`:
   * under NORMAL a power loss can erase that mark after the effect ran (issue 3, control plane #8).
   */
  durable?: boolean;
}

export interface Journal {
  readonly db: Db;
  readonly path: string;
  /** Runs `fn` inside BEGIN IMMEDIATE … COMMIT; rolls back on throw. Not reentrant. */
  withTransaction<T>(fn: (db: Db) => T, options?: TransactionOptions): T;
  close(): void;
}

const BUSY_TIMEOUT_MS = 5000;

function unavailable(file: string, why: string, what: string): HearthError {
  return new HearthError(ErrorCode.JournalUnavailable, `refused to open the journal ${file}: ${why}; ${what}`, { journalPath: file });
}

/** Opens (creating if needed) the journal at `file`, checks it, and applies pending migrations. */
export function openJournal(file: string): Journal {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let db: Db;
  try {
    db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  } catch (e) {
    throw unavailable(file, errorMessage(e), "check the path and its permissions, or pass another --db FILE");
  }
  try {
    configure(db);
    checkIntegrity(db, file);
    migrate(db, file);
  } catch (e) {
    db.close();
    if (e instanceof HearthError) throw e;
    throw unavailable(
      file,
      `it is not a readable Hearth journal (${errorMessage(e)})`,
      `move it aside (keep it for recovery) and start again, or pass another --db FILE`,
    );
  }
  return new SqliteJournal(db, file);
}

function configure(db: Db): void {
  db.pragma("journal_mode = WAL");
  // NORMAL between durable commits; the ledger's dispatched commits switch to FULL (TransactionOptions).
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  // What a DELETE frees is overwritten with zeros: an erased chat's words do not stay in free pages (issue 24).
  db.pragma("secure_delete = ON");
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
}

function checkIntegrity(db: Db, file: string): void {
  const rows = db.pragma("integrity_check") as { integrity_check: string }[];
  const problems = rows.map((r) => r.integrity_check).filter((r) => r !== "ok");
  if (problems.length > 0) {
    throw unavailable(
      file,
      `SQLite integrity_check reports damage (${problems.slice(0, 3).join("; ")})`,
      "move the file aside (keep it: `sqlite3 FILE .recover` can salvage rows) and start again with a fresh journal, or pass another --db FILE",
    );
  }
}

function migrate(db: Db, file: string): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  const latest = MIGRATIONS.length;
  if (current > latest) {
    throw unavailable(
      file,
      `its schema version ${current} is newer than this Hearth knows (${latest})`,
      "update Hearth, or pass another --db FILE",
    );
  }
  for (let version = current + 1; version <= latest; version++) {
    const step = MIGRATIONS[version - 1]!;
    db.exec("BEGIN IMMEDIATE");
    try {
      step(db);
      db.pragma(`user_version = ${version}`);
      db.exec("COMMIT");
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    }
  }
}

class SqliteJournal implements Journal {
  constructor(
    readonly db: Db,
    readonly path: string,
  ) {}

  withTransaction<T>(fn: (db: Db) => T, options: TransactionOptions = {}): T {
    if (this.db.inTransaction) throw new Error("withTransaction is not reentrant: pass the open transaction's db down instead");
    if (options.durable) this.db.pragma("synchronous = FULL");
    try {
      this.db.exec("BEGIN IMMEDIATE");
      try {
        const result = fn(this.db);
        this.db.exec("COMMIT");
        return result;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw e;
      }
    } finally {
      if (options.durable) this.db.pragma("synchronous = NORMAL");
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
