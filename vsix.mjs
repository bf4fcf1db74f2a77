// `npm run package`: builds hearth-<platform>-<arch>-<version>.vsix for this machine's platform.
// The kernel runs on a Node runtime shipped inside the .vsix (the npm package node-<target> of the
// version that built the native modules), so it needs no Node on the person's machine and survives
// VS Code's Electron updates; docs/packaging.md says why and what that costs.
//   1. minified bundles (esbuild.mjs --release)
//   2. a stage folder: the extension's files, the production dependency closure copied from
//      node_modules (only this target's llama.cpp builds), the Node runtime
//   3. vsce package --target in the stage; .vscodeignore prunes what does not run
// usage: node vsix.mjs [--out FILE]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const STAGE = path.join(ROOT, ".vsix-stage");
const TARGET = `${process.platform}-${process.arch}`;
// The llama.cpp builds that ship: the CPU build and the one GPU build that fits in a .vsix (Vulkan,
// 81 MB; CUDA is 181 + 357 MB and is not shipped). Other targets' builds never ship.
const LLAMA_BUILDS = { "linux-x64": ["linux-x64", "linux-x64-vulkan"] };
// Bundled into dist/ by esbuild (not external there), so their folders would be dead weight.
const BUNDLED = ["zod", "diff", "vscode-jsonrpc", "mvdan-sh", "@modelcontextprotocol/sdk", "jsonc-parser"];
// Optional peer of node-llama-cpp for its CLI only; the kernel never loads it.
const NOT_SHIPPED = new Set(["node_modules/typescript", ...BUNDLED.map((d) => `node_modules/${d}`)]);

function run(cmd, args, opts = {}) {
  execFileSync(cmd, args, { stdio: "inherit", cwd: ROOT, ...opts });
}

function refuse(message) {
  console.error(`npm run package: ${message}`);
  process.exit(2);
}

/**
 * Paths (relative to ROOT) of the installed production dependencies that run from node_modules: the
 * closure of every direct dependency but the bundled ones, whose own dependencies (the MCP SDK's
 * HTTP server stack, say) are bundled with them or never loaded, and do not ship.
 */
function productionClosure() {
  const tree = JSON.parse(
    execFileSync("npm", ["ls", "--omit=dev", "--all", "--json", "--long"], { cwd: ROOT, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }),
  );
  // A package npm lists twice (deduplicated) has its dependencies under one of its entries only.
  const byPath = new Map();
  const index = (node) => {
    for (const d of Object.values(node.dependencies ?? {})) {
      if (d.path && Object.keys(d.dependencies ?? {}).length > 0) byPath.set(d.path, d);
      index(d);
    }
  };
  index(tree);
  const kept = new Set();
  const keep = (node) => {
    for (const d of Object.values(node.dependencies ?? {})) {
      if (!d.path || kept.has(d.path)) continue;
      kept.add(d.path);
      keep(byPath.get(d.path) ?? d);
    }
  };
  keep({ dependencies: Object.fromEntries(Object.entries(tree.dependencies ?? {}).filter(([name]) => !BUNDLED.includes(name))) });
  const llama = new Set(LLAMA_BUILDS[TARGET].map((b) => `node_modules/@node-llama-cpp/${b}`));
  return [...kept]
    .map((p) => path.relative(ROOT, p))
    .filter((p) => !NOT_SHIPPED.has(p))
    .filter((p) => !p.startsWith("node_modules/@node-llama-cpp/") || llama.has(p));
}

/** The Node runtime for the target, from the npm registry, cached outside the clone. */
function nodeRuntime() {
  const version = process.version.slice(1);
  const pkg = `node-${TARGET}`;
  const cache = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "hearth-package", `${pkg}-${version}`);
  const dir = path.join(cache, "node_modules", pkg);
  if (!fs.existsSync(path.join(dir, "bin", "node"))) {
    console.error(`package: fetching ${pkg}@${version} (the kernel's runtime) into ${cache}`);
    run("npm", ["install", "--prefix", cache, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@${version}`]);
  }
  return dir;
}

function stage(closure, runtimeDir) {
  fs.rmSync(STAGE, { recursive: true, force: true });
  fs.mkdirSync(STAGE);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  delete pkg.devDependencies;
  for (const d of BUNDLED) delete pkg.dependencies[d];
  delete pkg.scripts;
  fs.writeFileSync(path.join(STAGE, "package.json"), JSON.stringify(pkg, null, 2));
  for (const f of ["README.md", "LICENSE", "docs", ".vscodeignore", "media", "dist", ...closure]) {
    fs.cpSync(path.join(ROOT, f), path.join(STAGE, f), { recursive: true, dereference: true });
  }
  const info = JSON.parse(fs.readFileSync(path.join(STAGE, "dist", "build-info.json"), "utf8"));
  delete info.nodePath; // the builder's Node is not on the person's machine
  fs.writeFileSync(path.join(STAGE, "dist", "build-info.json"), JSON.stringify({ ...info, bundledRuntime: true }, null, 2));
  fs.mkdirSync(path.join(STAGE, "runtime", "bin"), { recursive: true });
  fs.copyFileSync(path.join(runtimeDir, "bin", "node"), path.join(STAGE, "runtime", "bin", "node"));
  fs.chmodSync(path.join(STAGE, "runtime", "bin", "node"), 0o755);
  fs.copyFileSync(path.join(runtimeDir, "LICENSE"), path.join(STAGE, "runtime", "LICENSE"));
  return pkg;
}

const outFlag = process.argv.indexOf("--out");
if (!LLAMA_BUILDS[TARGET])
  refuse(`no package layout for ${TARGET}; Hearth packages linux-x64 (build on the target platform: the native modules are built there)`);
run(process.execPath, ["esbuild.mjs", "--release"]);
const pkg = stage(productionClosure(), nodeRuntime());
const out = path.resolve(outFlag > 0 ? process.argv[outFlag + 1] : path.join(ROOT, `${pkg.name}-${TARGET}-${pkg.version}.vsix`));
run(
  path.join(ROOT, "node_modules", ".bin", "vsce"),
  ["package", "--target", TARGET, "--out", out, "--allow-missing-repository", "--no-rewrite-relative-links"],
  { cwd: STAGE },
);
console.log(`package: ${out} (${(fs.statSync(out).size / 1024 ** 2).toFixed(1)} MiB)`);
