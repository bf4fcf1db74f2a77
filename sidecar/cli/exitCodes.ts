// The CLI's exit codes (documented in README.md). Scripts switch on these.
export const ExitCode = {
  Ok: 0,
  /** The turn ran but failed, or a check in `doctor` failed. */
  Failed: 1,
  /** Bad command line. */
  Usage: 2,
  /** The kernel could not start or died. */
  KernelError: 4,
  /** The turn was cancelled (Ctrl-C). */
  Cancelled: 130,
} as const;
