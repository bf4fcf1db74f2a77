// Plain words reach people (issue 25 item 11): no text the chat view or the extension shows, and no
// setting's or command's description, uses the words of Hearth's insides (test/support/userFacingWords.ts).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { backticksIn, internalWordsIn, internalWordsInManifest, internalWordsUnder } from "../support/userFacingWords.js";

describe("plain words for people (issue 25 item 11)", () => {
  it("the chat view, the extension and the manifest show none of the internal words", () => {
    const root = path.resolve(".");
    assert.deepEqual(internalWordsUnder(root, ["webview", "extension"]), []);
    assert.deepEqual(internalWordsInManifest(JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))), []);
  });

  it("the chat view's own words quote no name in Markdown backticks (kernel text is drawn with <code>: plainChatText.test.ts)", () => {
    assert.deepEqual(internalWordsUnder(path.resolve("."), ["webview"], backticksIn), []);
    assert.deepEqual(backticksIn("x.ts", "button(`Always allow \\`$" + '{rule}\\` here`); const fence = "```";'), [
      'x.ts: "Always allow `"',
      'x.ts: "` here"',
    ]);
  });

  it("the scanner finds an internal word in shown text and leaves log lines, comments and ids alone", () => {
    const source = [
      'window.showInformationMessage("The session\'s authority drifted");',
      "notice(`it is a non idempotent write: $" + "{x}`);", // source text: a template with a placeholder
      'this.deps.log.info("chat: session created");',
      "log.warn(`could not load chat session $" + "{id}`);",
      "// the session is kept",
      'const id = "session-row";',
    ].join("\n");
    assert.deepEqual(internalWordsIn("x.ts", source), [
      `x.ts: "The session's authority drifted"`,
      'x.ts: "it is a non idempotent write: "',
    ]);
    assert.deepEqual(internalWordsInManifest({ contributes: { a: { markdownDescription: "The KV cache of each session." } } }), [
      'contributes.a.markdownDescription: "The KV cache of each session."',
    ]);
  });
});
