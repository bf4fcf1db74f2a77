// "Apply to file" (issue 15): the file a code fence names reaches the block's Apply through the
// sanitiser, and the target is the named file, else the active editor's, else asked; anything outside
// the workspace folder, no folder, or Restricted Mode is refused with what to do.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";
import { applyTarget, NO_FOLDER_TO_APPLY, RESTRICTED_APPLY } from "../../../../extension/chat/applyTarget.js";
import { fenceFile, MarkdownRenderer } from "../../../../webview/markdown.js";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());

describe("the file a code fence names", () => {
  it("is read after the language, bare or as file=/path=/title=; a plain word is not a file", () => {
    assert.equal(fenceFile("ts src/parse.ts"), "src/parse.ts");
    assert.equal(fenceFile('python title="tools/run.py"'), "tools/run.py");
    assert.equal(fenceFile("js file=index.js"), "index.js");
    assert.equal(fenceFile("ts"), undefined);
    assert.equal(fenceFile("ts twoslash"), undefined);
  });

  it("survives DOMPurify as the <code>'s data-file, so Apply knows its target", () => {
    const host = window.document.createElement("div");
    host.append(
      new MarkdownRenderer(window as unknown as globalThis.Window).render("```ts src/a.ts\nlet a = 1;\n```\n") as unknown as Node,
    );
    assert.equal(host.querySelector("pre code")?.getAttribute("data-file"), "src/a.ts");
  });
});

describe("Apply's target", () => {
  const base = { folder: "/ws", restricted: false, named: undefined, activeFile: undefined };
  it("is the named file first, then the active editor's, else the person is asked", () => {
    assert.deepEqual(applyTarget({ ...base, named: "src/a.ts", activeFile: "/ws/b.ts" }), { kind: "file", path: "src/a.ts" });
    assert.deepEqual(applyTarget({ ...base, activeFile: "/ws/lib/b.ts" }), { kind: "file", path: "lib/b.ts" });
    assert.deepEqual(applyTarget(base), { kind: "ask" });
  });

  it("refuses a file outside the folder, no folder, and Restricted Mode, each saying what to do", () => {
    for (const ctx of [
      { ...base, named: "../x.ts" },
      { ...base, named: "/etc/passwd" },
      { ...base, activeFile: "/other/x.ts" },
    ]) {
      const t = applyTarget(ctx);
      assert.equal(t.kind, "refused");
      assert.match(t.kind === "refused" ? t.message : "", /outside the workspace folder \/ws.*press Apply again/);
    }
    assert.deepEqual(applyTarget({ ...base, folder: undefined, named: "a.ts" }), { kind: "refused", message: NO_FOLDER_TO_APPLY });
    assert.deepEqual(applyTarget({ ...base, restricted: true, named: "a.ts" }), { kind: "refused", message: RESTRICTED_APPLY });
  });
});
