// ARCHITECTURE.md: arrows point down only. A broken arrow fails the suite.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { checkArrows, EXTENSION_PURE } from "../support/importArrows.js";
import { tempDir } from "../support/kernelProcess.js";

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

describe("import arrows", () => {
  it("the source tree breaks no arrow of the house plan", () => {
    assert.deepEqual(checkArrows(path.resolve(".")), []);
  });

  it("every file named on the extension's pure floor exists (issue 22, item 5)", () => {
    assert.deepEqual(
      [...EXTENSION_PURE].filter((f) => !fs.existsSync(f)),
      [],
    );
  });

  it("the scanner catches each kind of broken arrow", () => {
    const root = tempDir("arrows");
    write(root, "shared/a.ts", 'import fs from "node:fs";\nimport * as v from "vscode";');
    write(root, "shared/node/b.ts", 'import * as v from "vscode";');
    write(root, "sidecar/agent/loop.ts", 'import { x } from "../kernel/kernel.js";\nimport { j } from "../journal/db.js";');
    write(root, "sidecar/journal/db.ts", 'import { k } from "../kernel/kernel.js";');
    write(root, "sidecar/kernel/kernel.ts", 'import { r } from "../rpc/server.js";');
    // Inside the kernel (issue 22, item 5): the turn service may not reach up to the handlers.
    write(
      root,
      "sidecar/kernel/turns/turnService.ts",
      'import { h } from "../handlers/turnHandlers.js";\nimport { c } from "../clientChannel.js";',
    );
    // The extension's pure floor: no vscode, nothing from the editor floor.
    write(
      root,
      "extension/edits/hunks.ts",
      'import * as vscode from "vscode";\nimport { p } from "./editProposals.js";\nimport { u } from "./turnUndo.js";',
    );
    write(root, "sidecar/tools/fs.ts", 'import * as vscode from "vscode";');
    write(root, "sidecar/cli/main.ts", 'import { k } from "../kernel/kernel.js";\nimport D from "better-sqlite3";');
    write(root, "extension/main.ts", 'import { k } from "../sidecar/kernel/kernel.js";\nimport D from "better-sqlite3";');
    write(root, "webview/main.ts", 'import { launch } from "../shared/node/kernelLauncher.js";\nimport os from "os";');
    write(
      root,
      "sidecar/inference/scripted/model.ts",
      'import { t } from "../../agent/turnRun.js";\nimport { p } from "../../agent/ports/model.js";\nimport D from "better-sqlite3";',
    );
    const found = checkArrows(root)
      .map((v) => `${v.file} -> ${v.specifier}`)
      .sort();
    assert.deepEqual(found, [
      "extension/edits/hunks.ts -> ./editProposals.js",
      "extension/edits/hunks.ts -> vscode",
      "extension/main.ts -> ../sidecar/kernel/kernel.js",
      "extension/main.ts -> better-sqlite3",
      "shared/a.ts -> node:fs",
      "shared/a.ts -> vscode",
      "shared/node/b.ts -> vscode",
      "sidecar/agent/loop.ts -> ../journal/db.js",
      "sidecar/agent/loop.ts -> ../kernel/kernel.js",
      "sidecar/cli/main.ts -> ../kernel/kernel.js",
      "sidecar/cli/main.ts -> better-sqlite3",
      "sidecar/inference/scripted/model.ts -> ../../agent/turnRun.js",
      "sidecar/inference/scripted/model.ts -> better-sqlite3",
      "sidecar/journal/db.ts -> ../kernel/kernel.js",
      "sidecar/kernel/kernel.ts -> ../rpc/server.js",
      "sidecar/kernel/turns/turnService.ts -> ../handlers/turnHandlers.js",
      "sidecar/tools/fs.ts -> vscode",
      "webview/main.ts -> ../shared/node/kernelLauncher.js",
      "webview/main.ts -> os",
    ]);
  });
});
