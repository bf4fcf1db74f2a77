// What `npm start` runs (test/e2e/serve.mjs): provisions the tools if missing, starts code-server
// with Hearth linked in, prints the URL and serves until Ctrl+C.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startCodeServer } from "./codeServer.js";
import { findTools, toolsDir, type E2eTools } from "./tools.js";
import { packagedVsix } from "../../support/packagedExtension.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const HOST = "127.0.0.1"; // webviews need a secure context, and nothing here should face the network

const USAGE = `usage: npm start -- [--port N] [FOLDER]
  Starts VS Code (code-server) on http://${HOST}:PORT with Hearth installed and FOLDER open.
  FOLDER   the folder to open (default: the directory you ran npm start from)
  --port N the port (default: $HEARTH_PORT, else 8080)
  Tools are cached in ${toolsDir()} (override with HEARTH_E2E_TOOLS); the workbench profile in its sibling serve/.`;

interface ServeArgs {
  port: number;
  folder: string;
}

function parseArgs(argv: string[], env: NodeJS.ProcessEnv): ServeArgs | string {
  let port = env.HEARTH_PORT ? Number(env.HEARTH_PORT) : 8080;
  let folder: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return USAGE;
    if (arg === "--port") port = Number(argv[++i]);
    else if (arg.startsWith("--port=")) port = Number(arg.slice("--port=".length));
    else if (arg.startsWith("-")) return `unknown option ${arg}\n${USAGE}`;
    else if (folder === undefined) folder = arg;
    else return `one folder only, got ${folder} and ${arg}\n${USAGE}`;
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    return `refused: port ${port} is not a TCP port (1-65535); pass --port N or set HEARTH_PORT`;
  // npm runs scripts from the package root; INIT_CWD is where the person typed `npm start`.
  const base = env.INIT_CWD ?? process.cwd();
  return { port, folder: path.resolve(base, folder ?? ".") };
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, HOST, () => server.close(() => resolve(true)));
  });
}

function provisionedTools(): E2eTools {
  try {
    return findTools();
  } catch {
    console.error("hearth: provisioning the VS Code tools (once; cached outside the clone)…");
    const r = spawnSync("bash", [path.join(REPO, "test/e2e/provision.sh")], { stdio: "inherit" });
    if (r.status !== 0) throw new Error(`test/e2e/provision.sh failed (exit ${r.status}); see its output above`);
    return findTools();
  }
}

export async function serve(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parseArgs(argv, env);
  if (typeof args === "string") {
    if (args === USAGE) console.log(args);
    else console.error(args);
    return args === USAGE ? 0 : 2;
  }
  if (!fs.existsSync(args.folder) || !fs.statSync(args.folder).isDirectory()) {
    console.error(`refused: ${args.folder} is not a folder; pass the folder Hearth should work on`);
    return 2;
  }
  let vsix: string;
  try {
    vsix = packagedVsix();
  } catch (e) {
    console.error(`refused: ${(e as Error).message} (npm start does it for you)`);
    return 2;
  }
  if (!(await portFree(args.port))) {
    console.error(`refused: ${HOST}:${args.port} is in use; pass --port N or set HEARTH_PORT to a free port`);
    return 2;
  }
  const tools = provisionedTools();
  const folder = fs.realpathSync(args.folder);
  const server = await startCodeServer({
    tools,
    profileDir: path.join(tools.dir, "..", "serve"),
    vsix,
    workspace: folder,
    host: HOST,
    port: args.port,
  });
  console.log(
    `Hearth is running in VS Code on ${folder}\n\n  open ${server.workbenchUrl}\n\nThe Hearth icon in the activity bar opens the chat view. Logs: ${server.logFile}. Ctrl+C stops.`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.stop();
  return 0;
}
