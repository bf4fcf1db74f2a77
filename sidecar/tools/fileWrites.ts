// What a write_file/edit_file install tells its journal (issue 14 item 5: undo of a turn's edits):
// the file's bytes before the write (or that it did not exist) and the hash of what it left. The
// kernel implements the sink; the tools only report, after the atomic install succeeded.

/** The target before the write: absent, or its bytes (at most the write bound, as the proposal read them). */
export type PreImage = { readonly existed: false } | { readonly existed: true; readonly sha256: string; readonly content: Buffer };

export interface FileWriteRecord {
  /** The tool call that wrote (the ledger's call id: it names the run). */
  readonly callId: string;
  /** Beneath the workspace folder, components joined by `/` (never `..`, never absolute). */
  readonly path: string;
  readonly before: PreImage;
  /** sha-256 of the content the install left: undo refuses a file that no longer has it. */
  readonly afterSha256: string;
}

export interface FileWriteSink {
  /** Called once per successful install. Must not throw: the file is already written. */
  fileWritten(record: FileWriteRecord): void;
}
