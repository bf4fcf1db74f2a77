// The .vsix a person installs (issue 10, item 1): it carries its own Node runtime and only this
// target's native binaries, and the kernel inside it runs a real turn on a machine whose PATH has
// no Node at all.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { before, describe, it } from "node:test";
import { ensureFixtureModels } from "../../fixtures/models.js";
import { tempDir } from "../../support/kernelProcess.js";
import { EVERYTHING } from "../../support/mcpServers.js";
import { packagedVsix, pathWithoutNode, unpackVsix } from "../../support/packagedExtension.js";

describe("the packaged .vsix", { timeout: 180_000 }, () => {
  let ext = "";
  let files: string[] = [];
  const root = tempDir("vsix");

  before(() => {
    ext = unpackVsix(packagedVsix(), path.join(root, "installed"));
    files = (fs.readdirSync(ext, { recursive: true }) as string[]).map((f) => f.split(path.sep).join("/"));
  });

  it("ships only this target's llama.cpp builds (CPU + Vulkan), no CUDA and no other platform", () => {
    const builds = new Set(files.filter((f) => f.startsWith("node_modules/@node-llama-cpp/")).map((f) => f.split("/")[2]));
    assert.deepEqual([...builds].sort(), ["linux-x64", "linux-x64-vulkan"]);
    assert.ok(!files.some((f) => /koffi-(?!linux-x64)/.test(f)), "another platform's koffi shipped");
  });

  it("ships no source maps, no llama.cpp source bundle and no SQLite sources", () => {
    assert.deepEqual(
      files.filter((f) => f.endsWith(".map")),
      [],
    );
    assert.ok(!files.includes("node_modules/node-llama-cpp/llama/gitRelease.bundle"));
    assert.ok(!files.some((f) => f.startsWith("node_modules/better-sqlite3/deps/")));
    assert.ok(files.includes("node_modules/better-sqlite3/build/Release/better_sqlite3.node"));
  });

  it("ships node-llama-cpp with its prediction fix applied (sidecar/vendorPatches: more than one guess a step is confirmed)", () => {
    const context = fs.readFileSync(path.join(ext, "node_modules/node-llama-cpp/dist/evaluator/LlamaContext/LlamaContext.js"), "utf8");
    assert.match(context, /validatedTokens\.push\(\[evalTokens\[i\], resultToken\]\)/);
  });

  it("runs only on its own runtime: build-info names no builder Node, the bundled node has the natives' ABI", () => {
    const info = JSON.parse(fs.readFileSync(path.join(ext, "dist", "build-info.json"), "utf8")) as Record<string, unknown>;
    assert.equal(info.bundledRuntime, true);
    assert.equal(info.nodePath, undefined);
    const abi = execFileSync(path.join(ext, "runtime/bin/node"), ["-p", "process.versions.modules"], { encoding: "utf8" }).trim();
    assert.equal(abi, info.modulesAbi);
  });

  it("loads each native module from the package under its runtime (a missing file would silently weaken the anchored walk)", () => {
    const probe = [
      "const r = require('node:module').createRequire(process.cwd() + '/');",
      "new (r('better-sqlite3'))(':memory:').close();",
      "r('koffi').load('libc.so.6');",
      "import('node-llama-cpp').then(() => console.log('ok'));",
    ].join("");
    const out = execFileSync(path.join(ext, "runtime/bin/node"), ["-e", probe], { cwd: ext, encoding: "utf8" });
    assert.equal(out.trim(), "ok");
  });

  it("carries the shell parser of the approval rules inside its kernel bundle: it reads a rule offline (issue 27)", () => {
    assert.ok(!files.some((f) => f.startsWith("node_modules/mvdan-sh/")), "mvdan-sh is bundled into dist/, its folder is not shipped");
    const ws = path.join(root, "rules-ws");
    fs.mkdirSync(ws);
    // Only mvdan/sh says this about an unclosed quote: the kernel parsed the pattern with the bundled parser.
    const env = {
      HOME: path.join(root, "home"),
      PATH: pathWithoutNode(path.join(root, "bin")),
      HEARTH_HOME: path.join(root, "hearth-rules"),
    };
    const rules = JSON.stringify([{ tool: "shell", command: "echo 'x", decision: "deny" }]);
    const run = spawnSync(path.join(ext, "runtime/bin/node"), [path.join(ext, "dist/cli.mjs"), "sessions", "--workspace", ws], {
      encoding: "utf8",
      env: { ...env, HEARTH_APPROVAL_RULES: rules },
      timeout: 60_000,
    });
    assert.equal(run.status, 4, run.stderr);
    assert.match(run.stderr, /hearth\.approval\.rules: 0\.command: .*reached EOF without closing quote/);
  });

  it("carries the MCP SDK inside its kernel bundle: its kernel starts a confirmed server and lists its tools (issue 28)", () => {
    for (const folder of ["node_modules/@modelcontextprotocol/", "node_modules/jsonc-parser/"])
      assert.ok(!files.some((f) => f.startsWith(folder)), `${folder} is bundled into dist/, its folder is not shipped`);
    const ws = path.join(root, "mcp-ws");
    fs.mkdirSync(path.join(ws, ".vscode"), { recursive: true });
    const node = path.join(ext, "runtime/bin/node");
    const servers = { everything: { command: node, args: [EVERYTHING, "stdio"] } };
    fs.writeFileSync(path.join(ws, ".vscode", "mcp.json"), JSON.stringify({ servers }));
    const env = {
      HOME: path.join(root, "home"),
      PATH: pathWithoutNode(path.join(root, "bin")),
      HEARTH_HOME: path.join(root, "hearth-mcp"),
      HEARTH_KERNEL_IDLE_SECONDS: "1",
    };
    const run = spawnSync(node, [path.join(ext, "dist/cli.mjs"), "mcp", "confirm", "--yes", "--workspace", ws, "everything"], {
      encoding: "utf8",
      env,
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /everything {2}running/);
    assert.match(run.stdout, /tool mcp_everything_echo/);
  });

  it("answers a turn through real inference with no Node on PATH", () => {
    const { chat } = ensureFixtureModels();
    const ws = path.join(root, "ws");
    fs.mkdirSync(ws);
    // A short idle time: the detached kernel the CLI starts exits soon after the turn, not 10 minutes later.
    const env = {
      HOME: path.join(root, "home"),
      PATH: pathWithoutNode(path.join(root, "bin")),
      HEARTH_HOME: path.join(root, "hearth"),
      HEARTH_KERNEL_IDLE_SECONDS: "1",
    };
    assert.notEqual(spawnSync("sh", ["-c", "command -v node"], { env }).status, 0, "node is still on PATH");
    const node = path.join(ext, "runtime/bin/node");
    const doctor = spawnSync(node, [path.join(ext, "dist/cli.mjs"), "doctor", "--workspace", ws], {
      encoding: "utf8",
      env,
      timeout: 60_000,
    });
    assert.match(doctor.stdout, /kernel runtime.*runtime\/bin\/node.*from bundled/);
    const run = spawnSync(node, [path.join(ext, "dist/cli.mjs"), "exec", "--workspace", ws, "--model", chat, "--json", "hello"], {
      encoding: "utf8",
      env,
      timeout: 120_000,
    });
    assert.equal(run.status, 0, run.stderr);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { event: { type: string; status?: string } });
    assert.ok(
      events.some((e) => e.event.type === "answer_delta"),
      run.stdout.slice(0, 500),
    );
    assert.equal(events.at(-1)?.event.type, "completed");
  });
});
