// Starts a real VS Code workbench (code-server on Node 24) with Hearth installed from its .vsix, on
// 127.0.0.1 (webviews need a secure context) with its own user data, extensions and XDG folders.
// The workbench's PATH has no Node: the kernel must run on the runtime the .vsix ships (issue 10).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { pathWithoutNode } from "../../support/packagedExtension.js";
import type { E2eTools } from "./tools.js";

export interface CodeServerOptions {
  tools: E2eTools;
  /** Holds user-data/, extensions/, xdg/ and code-server.log. */
  profileDir: string;
  /** The .vsix to install (`npm run package`). */
  vsix: string;
  workspace: string;
  host?: string;
  port?: number;
  /** Extra workbench settings merged over the quiet defaults. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server; its extension host (and so the kernel) inherits it. */
  env?: Record<string, string>;
  /** "untrusted": Workspace Trust on and the folder not trusted (Restricted Mode, no startup prompt). */
  workspaceTrust?: "off" | "untrusted";
}

export interface CodeServer {
  url: string;
  /** The workbench with the workspace folder open. */
  workbenchUrl: string;
  userDataDir: string;
  logFile: string;
  stop(): Promise<void>;
}

// A quiet, deterministic workbench: no welcome page, tips, trust prompt, updates or AI features.
const QUIET_SETTINGS = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.disableAIFeatures": true,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "git.enabled": false,
};

export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Installs the .vsix the way a person does: `code-server --install-extension` (replaces an older one). */
export function installVsix(tools: E2eTools, userDataDir: string, extensionsDir: string, vsix: string): void {
  execFileSync(
    tools.node24,
    [tools.codeServerEntry, "--user-data-dir", userDataDir, "--extensions-dir", extensionsDir, "--install-extension", vsix, "--force"],
    { stdio: ["ignore", "pipe", "pipe"], timeout: 120_000, env: codeServerEnv(path.dirname(userDataDir)) },
  );
}

function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/healthz`, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.setTimeout(2000, () => req.destroy());
  });
}

function codeServerEnv(profileDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extra,
    XDG_CONFIG_HOME: path.join(profileDir, "xdg/config"),
    XDG_DATA_HOME: path.join(profileDir, "xdg/data"),
    XDG_CACHE_HOME: path.join(profileDir, "xdg/cache"),
    PATH: pathWithoutNode(path.join(profileDir, "bin")),
  };
  // The test runner's markers must not leak into code-server and the processes it starts.
  delete env.NODE_OPTIONS;
  delete env.NODE_TEST_CONTEXT;
  return env;
}

export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  const host = opts.host ?? "127.0.0.1";
  const port = opts.port ?? (await freePort(host));
  const userDataDir = path.join(opts.profileDir, "user-data");
  const extensionsDir = path.join(opts.profileDir, "extensions");
  fs.mkdirSync(path.join(userDataDir, "User"), { recursive: true });
  const untrusted = opts.workspaceTrust === "untrusted";
  const trust = untrusted ? { "security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never" } : {};
  fs.writeFileSync(
    path.join(userDataDir, "User", "settings.json"),
    JSON.stringify({ ...QUIET_SETTINGS, ...trust, ...opts.settings }, null, 2),
  );
  installVsix(opts.tools, userDataDir, extensionsDir, opts.vsix);
  const config = path.join(opts.profileDir, "config.yaml");
  fs.writeFileSync(config, "auth: none\ncert: false\n");
  const logFile = path.join(opts.profileDir, "code-server.log");
  const log = fs.openSync(logFile, "w");
  const child = spawn(
    opts.tools.node24,
    [
      opts.tools.codeServerEntry,
      "--config",
      config,
      "--user-data-dir",
      userDataDir,
      "--extensions-dir",
      extensionsDir,
      "--bind-addr",
      `${host}:${port}`,
      "--auth",
      "none",
      "--disable-telemetry",
      "--disable-update-check",
      ...(untrusted ? [] : ["--disable-workspace-trust"]),
      "--disable-getting-started-override",
      opts.workspace,
    ],
    { env: codeServerEnv(opts.profileDir, opts.env), detached: true, stdio: ["ignore", log, log] },
  );
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // The whole group: code-server and its extension host.
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      return;
    }
    const killer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* gone */
      }
    }, 5000);
    await exited;
    clearTimeout(killer);
    // The kernel runs detached and outlives the window by design (docs/kernel-lifetime.md); the
    // test's own, found by the journal locks of its HEARTH_HOME, goes with the workbench.
    await stopKernels(opts.env?.HEARTH_HOME ?? path.join(opts.profileDir, "xdg/data/hearth"));
  };

  const url = `http://${host}:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await healthy(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      const tail = fs.readFileSync(logFile, "utf8").split("\n").slice(-15).join("\n");
      throw new Error(`code-server did not become healthy on ${url} (exit ${child.exitCode}); its log ${logFile} ends:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, workbenchUrl: `${url}/?folder=${encodeURIComponent(opts.workspace)}`, userDataDir, logFile, stop };
}

/**
 * SIGTERM to each kernel that holds a journal lock under `home` (the pid is in the lock file), then
 * waits for it to exit: a kernel checkpoints and removes its WAL file as it closes, so a test that
 * reads the journal folder before the exit finds files vanishing under it.
 */
async function stopKernels(home: string): Promise<void> {
  const journals = path.join(home, "journals");
  if (!fs.existsSync(journals)) return;
  const signalled: number[] = [];
  for (const lock of fs.readdirSync(journals).filter((f) => f.endsWith(".lock"))) {
    const pid = Number(fs.readFileSync(path.join(journals, lock), "utf8"));
    // A lock outlives its kernel: only a live kernel process with that pid is signalled.
    if (!isKernel(pid)) continue;
    try {
      process.kill(pid, "SIGTERM");
      signalled.push(pid);
    } catch {
      /* exited between the check and the signal */
    }
  }
  const deadline = Date.now() + 10_000;
  while (signalled.some(isKernel)) {
    if (Date.now() > deadline) throw new Error(`kernel(s) ${signalled.filter(isKernel).join(", ")} did not exit 10 s after SIGTERM`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function isKernel(pid: number): boolean {
  try {
    return pid > 0 && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("sidecar.mjs");
  } catch {
    return false;
  }
}

/** The Hearth LogOutputChannel's file under the user-data logs (empty string until it exists). */
export function readHearthLog(userDataDir: string): string {
  const logs = path.join(userDataDir, "logs");
  if (!fs.existsSync(logs)) return "";
  const found = (fs.readdirSync(logs, { recursive: true }) as string[]).filter(
    (f) => /hearth\.hearth[\\/].*Hearth\.log$/.test(f) || f.endsWith("Hearth.log"),
  );
  return found.map((f) => fs.readFileSync(path.join(logs, f), "utf8")).join("\n");
}
