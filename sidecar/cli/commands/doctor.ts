// `hearth doctor`: a runtime report a person can paste into a bug: which Node runs the kernel, its
// ABI against the build's, whether the native modules load under it, where the journal lives.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HEARTH_VERSION } from "../../../shared/version.js";
import { defaultJournalPath } from "../../../shared/node/paths.js";
import { journalIntegrityPath, type IntegrityRecord } from "../../../shared/journalIntegrity.js";
import { readBuildInfo, resolveRuntime } from "../../../shared/node/runtime.js";
import { flagString, parseArgs } from "../args.js";
import { distDir } from "../distDir.js";
import { ExitCode } from "../exitCodes.js";
import { errorMessage } from "../../../shared/errors.js";

export const doctorHelp = `hearth doctor [--workspace DIR] [--db FILE] [--model SPEC] [--node PATH] [--json]

Checks that Hearth can run here: the Node runtime for the kernel and its ABI, whether
better-sqlite3 and node-llama-cpp load under it, the journal (its path, size, free pages, row
counts and last integrity check) and the model setting.
Exits 0 when every check passes, 1 otherwise.`;

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/**
 * Loads a native module under the kernel's runtime in a child process. The probe is a script file,
 * not `-e`: node-llama-cpp re-runs process.execArgv to test its binary, and `-e` breaks that.
 */
function loadsUnder(nodePath: string, moduleName: string, body: string): { ok: boolean; detail: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-doctor-"));
  const script = path.join(dir, "probe.mjs");
  fs.writeFileSync(script, `import * as m from ${JSON.stringify(import.meta.resolve(moduleName))};\n${body}\n`);
  try {
    const out = execFileSync(nodePath, [script], {
      encoding: "utf8",
      timeout: 60_000,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, UV_THREADPOOL_SIZE: "1", NODE_OPTIONS: "" },
    });
    return { ok: true, detail: out.trim() };
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    const lines = (err.stderr || err.message).trim().split("\n");
    return { ok: false, detail: lines.find((l) => /Error/.test(l)) ?? lines[0] ?? "failed" };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Tables whose row counts show how far a journal has grown. */
const COUNTED = ["sessions", "runs", "conversation_journal", "tool_invocations", "events"];

/**
 * The journal's size and rows, read under the kernel's runtime (better-sqlite3 is built for it),
 * read-only beside a running kernel; its last integrity check from the record beside it (issue 26 item 5).
 */
function journalReport(kernelNode: string | null, file: string): { ok: boolean; detail: string } {
  if (!fs.existsSync(file)) return { ok: true, detail: `${file} (not created yet)` };
  const parts = [file];
  if (kernelNode) {
    const probe = loadsUnder(
      kernelNode,
      "better-sqlite3",
      `const db = new m.default(${JSON.stringify(file)}, { readonly: true, fileMustExist: true });
const one = (sql) => db.prepare(sql).pluck().get();
const rows = Object.fromEntries(${JSON.stringify(COUNTED)}.map((t) => [t, one("SELECT COUNT(*) FROM " + t)]));
console.log(JSON.stringify({ pageSize: one("PRAGMA page_size"), pages: one("PRAGMA page_count"), free: one("PRAGMA freelist_count"), autoVacuum: one("PRAGMA auto_vacuum"), rows }));`,
    );
    if (!probe.ok) return { ok: false, detail: `${file}: cannot be read (${probe.detail})` };
    const j = JSON.parse(probe.detail) as {
      pageSize: number;
      pages: number;
      free: number;
      autoVacuum: number;
      rows: Record<string, number>;
    };
    const wal = fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0;
    const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
    parts.push(
      `${mib(j.pages * j.pageSize)} (WAL ${mib(wal)}; ${mib(j.free * j.pageSize)} free${j.autoVacuum === 2 ? ", given back as it frees" : ", kept until the kernel next opens it"})`,
      `rows: ${Object.entries(j.rows)
        .map(([t, n]) => `${t} ${n}`)
        .join(", ")}`,
    );
  }
  let ok = true;
  try {
    const check = JSON.parse(fs.readFileSync(journalIntegrityPath(file), "utf8")) as IntegrityRecord;
    ok = check.result === "ok";
    parts.push(`integrity checked ${check.at}: ${check.result} (${check.ms} ms)`);
  } catch {
    parts.push("integrity: no check recorded yet (the kernel checks it each time it opens the journal)");
  }
  return { ok, detail: parts.join("; ") };
}

export async function doctor(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { workspace: true, db: true, model: true, node: true, json: false }, "doctor");
  const checks: Check[] = [];
  const dist = distDir();
  const build = readBuildInfo(dist);
  checks.push({ name: "hearth", ok: true, detail: `${HEARTH_VERSION} (${dist})` });
  checks.push({ name: "cli runtime", ok: true, detail: `${process.execPath} Node ${process.version} ABI ${process.versions.modules}` });
  checks.push({
    name: "build runtime",
    ok: true,
    detail: `${build.bundledRuntime ? "bundled runtime/bin/node" : build.nodePath} Node ${build.nodeVersion} ABI ${build.modulesAbi}`,
  });
  let kernelNode: string | null = null;
  try {
    const rt = resolveRuntime(build, flagString(args, "node") ?? process.env.HEARTH_NODE_PATH, dist);
    kernelNode = rt.nodePath;
    checks.push({ name: "kernel runtime", ok: true, detail: `${rt.nodePath} Node ${rt.version} ABI ${rt.abi} (from ${rt.source})` });
  } catch (e) {
    checks.push({ name: "kernel runtime", ok: false, detail: errorMessage(e) });
  }
  if (kernelNode) {
    const sqlite = loadsUnder(
      kernelNode,
      "better-sqlite3",
      `const db = new m.default(":memory:"); console.log("SQLite " + db.prepare("select sqlite_version() v").get().v);`,
    );
    checks.push({ name: "better-sqlite3", ...sqlite });
    const llama = loadsUnder(
      kernelNode,
      "node-llama-cpp",
      `const l = await m.getLlama({ gpu: "auto", build: "never", logLevel: m.LlamaLogLevel.error }); ` +
        `console.log("llama.cpp " + l.llamaCppRelease.release + ", gpu: " + (l.gpu || "none") + ", cores: " + ` +
        `l.cpuMathCores); await l.dispose();`,
    );
    checks.push({ name: "node-llama-cpp", ...llama });
  }
  const workspace = fs.realpathSync(flagString(args, "workspace") ?? process.cwd());
  checks.push({ name: "workspace", ok: true, detail: workspace });
  checks.push({ name: "journal", ...journalReport(kernelNode, path.resolve(flagString(args, "db") ?? defaultJournalPath(workspace))) });
  const model = flagString(args, "model") ?? process.env.HEARTH_MODEL ?? "";
  checks.push({ name: "model", ok: true, detail: model || "(not set: pass --model SPEC or set HEARTH_MODEL)" });

  const allOk = checks.every((c) => c.ok);
  if (args.flags.has("json")) {
    process.stdout.write(JSON.stringify({ ok: allOk, checks }, null, 2) + "\n");
  } else {
    for (const c of checks) process.stdout.write(`${c.ok ? "ok  " : "FAIL"} ${c.name.padEnd(15)} ${c.detail}\n`);
  }
  return allOk ? ExitCode.Ok : ExitCode.Failed;
}
