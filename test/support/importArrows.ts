// The house's import arrows (ARCHITECTURE.md) as data, and a scanner that reports every import
// that breaks one. Used by the arrow test on the real tree and on a deliberately broken one.
import fs from "node:fs";
import path from "node:path";
import { builtinModules } from "node:module";

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

const NODE_BUILTINS = new Set(builtinModules);
const IMPORT_RE =
  /(?:^|[^\w.])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

/** The area a file belongs to: the most specific matching folder. */
export function areaOf(rel: string): string | null {
  const parts = rel.split("/");
  if (parts[0] === "shared") return parts[1] === "node" ? "shared/node" : "shared";
  if (parts[0] === "sidecar") {
    if (parts.length === 2) return "sidecar/main";
    return `sidecar/${parts[1]}`;
  }
  if (parts[0] === "extension" || parts[0] === "webview") return parts[0];
  return null;
}

/** Which areas each area may import from (besides itself). */
const ALLOWED_AREAS: Record<string, string[]> = {
  shared: [],
  "shared/node": ["shared"],
  extension: ["shared", "shared/node"],
  webview: ["shared"],
  "sidecar/cli": ["shared", "shared/node"],
  "sidecar/main": [
    "sidecar/rpc",
    "sidecar/kernel",
    "sidecar/agent",
    "sidecar/tools",
    "sidecar/inference",
    "sidecar/journal",
    "shared",
    "shared/node",
  ],
  // shared/node: the socket handshake both ends speak is defined once, beside its client (issue 12).
  "sidecar/rpc": ["sidecar/kernel", "shared", "shared/node"],
  "sidecar/kernel": ["sidecar/agent", "sidecar/tools", "sidecar/inference", "sidecar/journal", "shared", "shared/node"],
  "sidecar/agent": ["shared"],
  "sidecar/tools": ["sidecar/agent", "shared"],
  "sidecar/inference": ["sidecar/agent", "shared"],
  "sidecar/journal": ["shared"],
};

/** Packages each area may import. Node builtins: everywhere but shared/ and webview/. */
const ALLOWED_PACKAGES: Record<string, (pkg: string) => boolean> = {
  shared: (p) => p === "zod",
  "shared/node": (p) => p === "zod" || p === "vscode-jsonrpc",
  // diff: pure JS, bundled; the hunks of an edit proposal drawn in the file (issue 14).
  extension: (p) => p === "vscode" || p === "zod" || p === "vscode-jsonrpc" || p === "diff",
  // markdown-it, DOMPurify, highlight.js: the answers' rendering (issue 15), bundled for the browser.
  webview: (p) => ["zod", "markdown-it", "dompurify", "highlight.js"].includes(p) || p.startsWith("@vscode/webview-ui-toolkit"),
};
const SIDECAR_FORBIDDEN = new Set(["vscode"]);
/** Folders held to a narrower rule than their area's: the scripted adapter reaches the agent only through its ports. */
const NARROWER: { folder: string; mayImport: string[]; packages: string[] }[] = [
  {
    folder: "sidecar/inference/scripted/",
    mayImport: ["sidecar/inference/scripted/", "sidecar/agent/ports/", "shared/"],
    packages: ["zod"],
  },
];

/**
 * The kernel's own floors (issue 22, item 5), lowest first: a file may import its own folder and its own or a
 * lower floor (siblings share one), never a higher one. Ground: the base types and one-file parts at sidecar/kernel/ (the
 * client channel, request context, shutdown gate) and the handler table's types; the constructor
 * (kernel.ts) is the roof that builds everything.
 */
const KERNEL_FLOORS: { floor: number; paths: string[] }[] = [
  { floor: 0, paths: ["sidecar/kernel/*.ts", "sidecar/kernel/handlers/types.ts"] },
  // A run's and a task's origin are durable facts of the control plane, written with them (issue 24).
  // Approval rules are policy data the turns consult (issue 27); they import nothing of the kernel above them.
  // Modes (issue 27) are definitions a run's snapshot pins: the control plane stores them, the turns apply them.
  {
    floor: 1,
    paths: ["sidecar/kernel/control/", "sidecar/kernel/principals/runOrigins.ts", "sidecar/kernel/policy/", "sidecar/kernel/modes/"],
  },
  {
    floor: 2,
    paths: [
      "sidecar/kernel/context/",
      "sidecar/kernel/erase/",
      "sidecar/kernel/undo/",
      "sidecar/kernel/model/modelHost.ts",
      "sidecar/kernel/model/modelCatalog.ts",
      "sidecar/kernel/principals/",
      // MCP servers the kernel runs (issue 28): configuration, confirmations, connections; the turns consult them.
      "sidecar/kernel/mcp/",
      // Prompt files (issue 27): read and expanded for a client; a mode they name is checked against the modes.
      "sidecar/kernel/prompts/",
    ],
  },
  { floor: 3, paths: ["sidecar/kernel/turns/"] },
  { floor: 4, paths: ["sidecar/kernel/tasks/"] },
  {
    floor: 5,
    paths: ["sidecar/kernel/handlers/", "sidecar/kernel/model/modelHandlers.ts", "sidecar/kernel/principals/principalHandlers.ts"],
  },
  { floor: 6, paths: ["sidecar/kernel/kernel.ts"] },
];

/** The kernel floor of a file under sidecar/kernel/: the most specific matching path wins. */
export function kernelFloorOf(rel: string): number | null {
  if (!rel.startsWith("sidecar/kernel/")) return null;
  let best: { floor: number; length: number } | null = null;
  for (const { floor, paths } of KERNEL_FLOORS) {
    for (const p of paths) {
      const hit = p.endsWith("*.ts") ? path.posix.dirname(rel) === p.slice(0, -5) : p.endsWith("/") ? rel.startsWith(p) : rel === p;
      const length = p.endsWith("*.ts") ? p.length - 5 : p.length;
      if (hit && (!best || length > best.length)) best = { floor, length };
    }
  }
  return best?.floor ?? null;
}

function kernelFloorRule(file: string, target: string): string | null {
  const from = kernelFloorOf(file);
  const to = kernelFloorOf(target.replace(/\.js$/, ".ts"));
  if (from === null) return `${file} is on no floor of the kernel: name it in KERNEL_FLOORS`;
  if (to === null || path.posix.dirname(file) === path.posix.dirname(target)) return null;
  return to <= from ? null : `kernel floor ${from} (${file}) may not import floor ${to} (${target})`;
}

/**
 * The extension's two floors (issue 22, item 5), by declared file name: the pure floor runs in unit
 * tests without an editor and imports neither `vscode` nor an extension file above it; every other
 * extension file is the editor floor and may import both. A new file is on the editor floor until
 * it is named here.
 */
export const EXTENSION_PURE = new Set([
  "extension/approvals/approvalText.ts",
  "extension/approvals/oneAnswer.ts",
  "extension/chat/applyTarget.ts",
  "extension/chat/askKernel.ts",
  "extension/chat/carriedConversation.ts",
  "extension/chat/chatModel.ts",
  "extension/chat/chatModelChoice.ts",
  "extension/chat/chatToolChoice.ts",
  "extension/chat/chatInstructions.ts",
  "extension/chat/chatModes.ts",
  "extension/chat/chatController.ts",
  "extension/chat/chatTurnStates.ts",
  "extension/chat/transcriptMessage.ts",
  "extension/completions/completionRequest.ts",
  "extension/context/editorContextText.ts",
  "extension/edits/editReasons.ts",
  "extension/edits/hunks.ts",
  "extension/edits/turnUndo.ts",
  "extension/chat/sessionRewind.ts",
  "extension/kernel/backoff.ts",
  "extension/kernel/kernelProcess.ts",
  "extension/kernel/kernelSettings.ts",
  "extension/kernel/kernelSupervisor.ts",
  "extension/mcp/mcpText.ts",
  "extension/model/modelService.ts",
  "extension/model/latestPacer.ts",
  "extension/model/modelSettingProblem.ts",
  "extension/tasks/forkedTask.ts",
  "extension/tasks/taskText.ts",
]);

function extensionFloorRule(file: string, spec: string, target: string | null): string | null {
  if (!EXTENSION_PURE.has(file)) return null;
  if (target === null) return packageName(spec) === "vscode" ? `${file} is on the extension's pure floor: it may not import vscode` : null;
  if (target.startsWith("extension/") && !EXTENSION_PURE.has(target.replace(/\.js$/, ".ts")))
    return `${file} is on the extension's pure floor: it may not import ${target}, which is on the editor floor`;
  return null;
}

function packageName(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function listSources(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return listSources(root, rel);
    return /\.(ts|tsx|mts|cts)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [rel] : [];
  });
}

export function checkArrows(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const file of ["shared", "sidecar", "extension", "webview"].flatMap((d) => listSources(root, d))) {
    const area = areaOf(file)!;
    const text = fs.readFileSync(path.join(root, file), "utf8");
    for (const m of text.matchAll(IMPORT_RE)) {
      const spec = (m[1] ?? m[2] ?? m[3] ?? m[4])!;
      const rule = judge(file, area, spec);
      if (rule) violations.push({ file, specifier: spec, rule });
    }
  }
  return violations;
}

function judge(file: string, area: string, spec: string): string | null {
  const narrow = NARROWER.find((n) => file.startsWith(n.folder));
  if (spec.startsWith(".")) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    if (target === "package.json") return null;
    if (narrow && !narrow.mayImport.some((p) => target.startsWith(p)))
      return `${narrow.folder} may import only ${narrow.mayImport.join(", ")}`;
    const targetArea = areaOf(target);
    if (!targetArea) return `${area} imports ${target}, outside the source folders`;
    const pure = area === "extension" ? extensionFloorRule(file, spec, target) : null;
    if (pure) return pure;
    if (area === "sidecar/kernel" && targetArea === area) return kernelFloorRule(file, target);
    if (targetArea === area || ALLOWED_AREAS[area]!.includes(targetArea)) return null;
    return `${area} may not import ${targetArea}`;
  }
  const isBuiltin = spec.startsWith("node:") || NODE_BUILTINS.has(spec);
  if (area === "shared" || area === "webview") {
    if (isBuiltin) return `${area} must not import Node built-ins`;
  }
  if (isBuiltin) return null;
  const pkg = packageName(spec);
  const pure = area === "extension" ? extensionFloorRule(file, spec, null) : null;
  if (pure) return pure;
  if (narrow && !narrow.packages.includes(pkg)) return `${narrow.folder} may not import the package ${pkg}`;
  if (area.startsWith("sidecar")) {
    if (SIDECAR_FORBIDDEN.has(pkg)) return "the sidecar never imports vscode";
    if (area === "sidecar/cli" && (pkg === "better-sqlite3" || pkg === "node-llama-cpp"))
      return "the CLI is a protocol client: no kernel natives";
    return null;
  }
  const allowed = ALLOWED_PACKAGES[area];
  return allowed && !allowed(pkg) ? `${area} may not import the package ${pkg}` : null;
}
