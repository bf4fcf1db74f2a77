// A scenario's folders, clock and end: its run folder (screenshots, logs, marks), a scratch folder
// with the workspace and the workbench profile, and the end that closes the browser and the
// workbench (and its detached kernel) and leaves what a person needs in the run folder (a failure
// screenshot, the Hearth and code-server logs, the marks); the workbench profile is removed when the
// scenario passed, kept for diagnosis when it did not.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "./browser.js";
import { readHearthLog, type CodeServer } from "./codeServer.js";
import type { Page } from "./playwright.js";
import { newRunDir, stopwatch } from "./runDir.js";
import type { Started } from "./scriptedChat.js";

export interface Scenario {
  runDir: string;
  /** A fresh folder under the system's temporary folder. */
  scratch: string;
  /** `<scratch>/workspace`, not yet made (the scenario fills it). */
  workspace: string;
  clock: ReturnType<typeof stopwatch>;
  /** What the scenario started, for `end` to stop. */
  started: Started;
  /** The workbench's page (once started). */
  page(): Page;
  /** A screenshot of the page into the run folder as `<name>.png`. */
  shot(name: string): Promise<unknown>;
  /** The scenario's `after`: endScenario with what it started. */
  end(passed: boolean): Promise<void>;
}

/** A scenario named `name` (its run folder's prefix), its scratch folder named from `scratchPrefix`. */
export function newScenario(name: string, scratchPrefix: string): Scenario {
  const runDir = newRunDir(name);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), scratchPrefix));
  const clock = stopwatch();
  const started: Started = {};
  const page = () => started.browser!.page;
  return {
    runDir,
    scratch,
    workspace: path.join(scratch, "workspace"),
    clock,
    started,
    page,
    shot: (name) => page().screenshot({ path: path.join(runDir, `${name}.png`) }),
    end: (passed) => endScenario({ runDir, scratch, ...started, passed, marks: clock.marks }),
  };
}

export async function endScenario(s: {
  runDir: string;
  scratch: string;
  server?: CodeServer;
  browser?: Browser;
  passed: boolean;
  marks: Record<string, number>;
}): Promise<void> {
  if (s.browser && !s.passed) await s.browser.page.screenshot({ path: path.join(s.runDir, "failure.png") }).catch(() => undefined);
  await s.browser?.close().catch(() => undefined);
  await s.server?.stop();
  if (s.server) {
    fs.writeFileSync(path.join(s.runDir, "Hearth.log"), readHearthLog(s.server.userDataDir));
    fs.copyFileSync(s.server.logFile, path.join(s.runDir, "code-server.log"));
  }
  fs.writeFileSync(
    path.join(s.runDir, "result.json"),
    JSON.stringify({ passed: s.passed, marks: s.marks, consoleErrors: s.browser?.consoleErrors ?? [] }, null, 2),
  );
  if (s.passed) fs.rmSync(s.scratch, { recursive: true, force: true });
  else console.error(`e2e artifacts: ${s.runDir} (workbench profile kept in ${s.scratch})`);
}
