// Bundles the four entry points and records the Node runtime that built the native modules, so the
// extension can start the kernel under a matching ABI (ARCHITECTURE.md: runtime resolution).
import * as esbuild from "esbuild";
import fs from "node:fs";
import path from "node:path";

const watch = process.argv.includes("--watch");
// `npm run package` builds minified bundles without source maps (docs/packaging.md).
const release = process.argv.includes("--release");
const common = { bundle: true, sourcemap: release ? false : "linked", minify: release, logLevel: "warning", target: "node20" };
const builds = [
  { ...common, entryPoints: ["extension/main.ts"], outfile: "dist/extension.cjs", platform: "node", format: "cjs", external: ["vscode"] },
  {
    ...common,
    entryPoints: ["sidecar/main.ts"],
    outfile: "dist/sidecar.mjs",
    platform: "node",
    format: "esm",
    external: ["better-sqlite3", "node-llama-cpp", "koffi"],
    banner: { js: "import { createRequire as __hearthRequire } from 'node:module'; const require = __hearthRequire(import.meta.url);" },
  },
  {
    ...common,
    entryPoints: ["sidecar/cli/main.ts"],
    outfile: "dist/cli.mjs",
    platform: "node",
    format: "esm",
    external: ["better-sqlite3", "node-llama-cpp", "koffi"],
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __hearthRequire } from 'node:module'; const require = __hearthRequire(import.meta.url);",
    },
  },
  { ...common, entryPoints: ["webview/main.ts"], outfile: "dist/webview.js", platform: "browser", format: "iife", target: "es2022" },
];

fs.mkdirSync("dist", { recursive: true });
// The chat view's icons (issue 25 item 3): the codicon font and its classes, served from dist/.
for (const f of ["codicon.css", "codicon.ttf"]) fs.copyFileSync(path.join("node_modules/@vscode/codicons/dist", f), path.join("dist", f));
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
fs.writeFileSync(
  path.join("dist", "build-info.json"),
  JSON.stringify(
    {
      version: pkg.version,
      nodePath: process.execPath,
      nodeVersion: process.version,
      modulesAbi: process.versions.modules,
      builtAt: new Date().toISOString(),
    },
    null,
    2,
  ),
);

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  fs.chmodSync("dist/cli.mjs", 0o755);
  // A release build leaves no map of an earlier debug build beside its bundles.
  if (release) for (const f of fs.readdirSync("dist")) if (f.endsWith(".map")) fs.rmSync(path.join("dist", f));
}
