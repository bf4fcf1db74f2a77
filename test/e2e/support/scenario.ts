// The end of an e2e scenario: closes the browser and the workbench (and its detached kernel), and
// leaves what a person needs in the run folder (the Hearth and code-server logs, the marks); the
// workbench profile is removed when the scenario passed, kept for diagnosis when it did not.
import fs from "node:fs";
import path from "node:path";
import type { Browser } from "./browser.js";
import { readHearthLog, type CodeServer } from "./codeServer.js";

export async function endScenario(s: {
  runDir: string;
  scratch: string;
  server?: CodeServer;
  browser?: Browser;
  passed: boolean;
  marks: Record<string, number>;
}): Promise<void> {
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
