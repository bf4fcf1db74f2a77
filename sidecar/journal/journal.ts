// The journal: one better-sqlite3 connection in WAL mode, opened with an integrity check, migrated
// by numbered steps, and written only through `withTransaction` (BEGIN IMMEDIATE).
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { ErrorCode, HearthError, errorMessage } from "../../shared/errors.js";
import { journalIntegrityPath, type IntegrityRecord } from "../../shared/journalIntegrity.js";
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

const compiled = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * The connection's statement for `sql`, compiled on first use and kept (issue 26): the statements of
 * a tool call and of a repaired batch run thousands of times, and compiling each anew took most of
 * their time. Only for SQL from a bounded set of texts (no values spliced in).
 */
export function prepared(db: Db, sql: string): Database.Statement {
  let byText = compiled.get(db);
  if (!byText) {
    byText = new Map();
    compiled.set(db, byText);
  }
  let stmt = byText.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    byText.set(sql, stmt);
  }
  return stmt;
}

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
    convertToIncrementalVacuum(db);
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
  // Before the first table exists (a new file) this takes effect at once; an older file is converted
  // after migrating (convertToIncrementalVacuum).
  db.pragma("auto_vacuum = INCREMENTAL");
  db.pragma("journal_mode = WAL");
  // NORMAL between durable commits; the ledger's dispatched commits switch to FULL (TransactionOptions).
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  // What a DELETE frees is overwritten with zeros: an erased chat's words do not stay in free pages (issue 24).
  db.pragma("secure_delete = ON");
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
}

function checkIntegrity(db: Db, file: string): void {
  const t0 = performance.now();
  const rows = db.pragma("integrity_check") as { integrity_check: string }[];
  const problems = rows.map((r) => r.integrity_check).filter((r) => r !== "ok");
  const ms = Math.round(performance.now() - t0);
  if (problems.length > 0) {
    recordIntegrityCheck(file, { result: `damaged: ${problems.slice(0, 3).join("; ")}`, ms });
    throw unavailable(
      file,
      `SQLite integrity_check reports damage (${problems.slice(0, 3).join("; ")})`,
      "move the file aside (keep it: `sqlite3 FILE .recover` can salvage rows) and start again with a fresh journal, or pass another --db FILE",
    );
  }
  recordIntegrityCheck(file, { result: "ok", ms });
}

/** What `hearth doctor` reports of the journal's upkeep (issue 26 item 5): when it was last checked, and the verdict. */
function recordIntegrityCheck(file: string, check: Omit<IntegrityRecord, "at">): void {
  const record: IntegrityRecord = { ...check, at: new Date().toISOString() };
  try {
    fs.writeFileSync(journalIntegrityPath(file), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  } catch {
    /* a report only: a folder that refuses the file must not keep the journal from opening */
  }
}

/**
 * A journal made before incremental vacuum kept every page it ever used: erased and deleted content
 * left free pages inside the file for ever. One VACUUM rewrites it in incremental mode; from then on
 * each commit that leaves many free pages gives them back (reclaimFreePages). If another connection
 * holds the file, the conversion waits for a later open.
 */
function convertToIncrementalVacuum(db: Db): void {
  if (db.pragma("auto_vacuum", { simple: true }) === AUTO_VACUUM_INCREMENTAL) return;
  db.pragma("auto_vacuum = INCREMENTAL");
  try {
    db.exec("VACUUM");
  } catch (e) {
    if (!/busy|locked/i.test(errorMessage(e))) throw e;
  }
}

const AUTO_VACUUM_INCREMENTAL = 2;

/**
 * Free pages a commit may leave inside the file before they go back to the disk: 4 MiB at SQLite's
 * default page size. A tool call's commit frees none; an erase or a large delete frees many.
 */
const RECLAIM_FREE_PAGES = 1024;

/** After a commit: gives the file's free pages back once there are many (an erase, a large delete). */
function reclaimFreePages(db: Db): void {
  if ((prepared(db, "PRAGMA freelist_count").pluck().get() as number) >= RECLAIM_FREE_PAGES) db.exec("PRAGMA incremental_vacuum");
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
        reclaimFreePages(this.db);
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
