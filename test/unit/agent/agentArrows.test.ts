// ARCHITECTURE.md: agent/ defines its ports and imports none of kernel/, journal/, tools/ or
// inference/; the scripted adapter reaches the agent only through its ports.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";

const IMPORT_RE = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function imports(dir: string): { file: string; target: string }[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).flatMap((f) => {
    const file = path.join(dir, f);
    return [...fs.readFileSync(file, "utf8").matchAll(IMPORT_RE)].map((m) => {
      const spec = (m[1] ?? m[2])!;
      return { file, target: spec.startsWith(".") ? path.relative(".", path.resolve(path.dirname(file), spec)) : spec };
    });
  });
}

describe("agent arrows", () => {
  it("sidecar/agent imports only itself, shared/ (not shared/node) and node built-ins", () => {
    const bad = imports("sidecar/agent").filter(({ target }) =>
      !(target.startsWith("node:") || target.startsWith("sidecar/agent/") || (target.startsWith("shared/") && !target.startsWith("shared/node/"))));
    assert.deepEqual(bad, []);
  });

  it("the scripted adapter imports only the agent's ports, shared/, zod and node built-ins", () => {
    const bad = imports("sidecar/inference/scripted").filter(({ target }) =>
      !(target.startsWith("node:") || target === "zod" || target.startsWith("sidecar/agent/ports/") || target.startsWith("sidecar/inference/scripted/") || target.startsWith("shared/")));
    assert.deepEqual(bad, []);
  });
});
