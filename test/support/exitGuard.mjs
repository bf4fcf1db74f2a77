// Loaded into every test file's process by test/run.mjs (`--import`): no test file may hold the suite
// (issue 23, item 2). node's runner waits for each file's process to exit and has no per-file bound, so
// a leaked handle (a socket, a timer, a child) once kept `npm test` waiting for 17 minutes after its
// file printed `ok`. Two bounds, each failing the file by name with the handles still open:
//   - the file's process must exit within HEARTH_TEST_EXIT_GRACE_S (default 60) after its tests end
//     (a preloaded hook runs before the file's own top-level `after` hooks, so the grace covers them:
//     disposing a model or stopping a workbench takes seconds, never a minute);
//   - the whole file must end within HEARTH_TEST_FILE_BOUND_S (default 600).
// Both timers are unref'd: a file that cleans up exits at once, never waiting for them.
import path from "node:path";
import { after } from "node:test";

const file = path.relative(process.cwd(), process.argv[1] ?? "?");
const seconds = (name, fallback) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

/** Ends the process with a message naming the file, the bound and what is still open. */
function failAfter(ms, what) {
  const timer = setTimeout(() => {
    // Only what keeps the process alive is listed (the guard's own timers are unref'd, so absent). A
    // leaked timer is named too: hiding timers once hid the crash campaign's leak (a reader's re-armed
    // partial-frame timer, frameReader.ts) behind the file's own stdout and stderr.
    const open = process.getActiveResourcesInfo();
    process.stderr.write(
      `\n${file}: ${what} (${ms / 1000} s); still open: ${open.join(", ") || "nothing"} (its own stdout and stderr show as PipeWrap)\n`,
    );
    process.exit(70);
  }, ms);
  timer.unref();
}

failAfter(seconds("HEARTH_TEST_FILE_BOUND_S", 600) * 1000, "the file ran past its bound");
after(() => failAfter(seconds("HEARTH_TEST_EXIT_GRACE_S", 60) * 1000, "its tests ended but its process did not exit: a leaked handle"));
