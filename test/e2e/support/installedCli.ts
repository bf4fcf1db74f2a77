// The `hearth` CLI of the extension the workbench installed from the .vsix, run with the installed
// extension's own Node (the runtime it bundles) the way a person runs it from a terminal.
import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Runs `hearth <args>` from the extension `extensionId`@`version` installed in the workbench profile
 * `profileDir`, with this process's environment plus `env` (without the test runner's Node options).
 */
export function runInstalledCli(
  profile: { profileDir: string; extensionId: string; version: string },
  args: string[],
  env: Record<string, string>,
): SpawnSyncReturns<string> {
  const extensions = path.join(profile.profileDir, "extensions");
  const extensionDir = fs.readdirSync(extensions).find((d) => d.startsWith(`${profile.extensionId}-${profile.version}`));
  assert.ok(extensionDir, "the .vsix is installed");
  const installed = path.join(extensions, extensionDir);
  const cliEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete cliEnv.NODE_OPTIONS;
  delete cliEnv.NODE_TEST_CONTEXT;
  return spawnSync(path.join(installed, "runtime/bin/node"), [path.join(installed, "dist/cli.mjs"), ...args], {
    encoding: "utf8",
    env: cliEnv,
    timeout: 60_000,
  });
}
