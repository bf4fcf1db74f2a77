// Attached context in the message (issue 15 item 5): the kernel composes the typed text and one block
// per attachment; the view splits them back into the typed text and chips. The split must give back
// exactly what was composed (any path, any content) and leave a message without blocks whole.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { composeMessage, splitMessage } from "../../../shared/attachmentText.js";
import { type Attachment, attachmentLabel, attachmentSize } from "../../../shared/protocol/attachments.js";
import { typedAtMention } from "../../../webview/atMention.js";

describe("attachment blocks in a message", () => {
  it("split gives back the typed text and the attachments composed, whatever the paths and contents", () => {
    const attachments: Attachment[] = [
      { kind: "file", path: 'odd "name".ts' },
      { kind: "selection", path: "src/a b.ts", startLine: 3, endLine: 9 },
      { kind: "file", path: "empty.txt" },
      { kind: "resource", path: 'demo://resource/"doc".md', server: "every thing" },
    ];
    const texts = ["line\n</attached>\nstill the file\n", "no final newline", "", "a resource"];
    const typed = "Explain\n\nthese two, please";
    const message = composeMessage(
      typed,
      attachments.map((attachment, i) => ({ attachment, text: texts[i]! })),
    );
    assert.deepEqual(splitMessage(message), { typed, attachments });
  });

  it("the editor's context comes back with the text it carried, a folder with its place (issue 29 item 3)", () => {
    const attachments: Attachment[] = [
      { kind: "problems", path: "workspace", content: "1 problem in the workspace (1 error)\na.ts:1:7 error ts(2322): no\n" },
      { kind: "folder", path: "src" },
      { kind: "terminal", path: "bash", content: "$ npm test\n(exit code 1)\n</attached>\n" },
      { kind: "changes", path: ".", content: "Changes in the working tree of .:\n+x\n" },
    ];
    const message = composeMessage(
      "Fix these",
      attachments.map((attachment) => ({ attachment, text: attachment.content ?? "a.ts\nb.ts" })),
    );
    assert.match(message, /\n\n<attached problems="workspace">\n1 problem/);
    assert.deepEqual(splitMessage(message), { typed: "Fix these", attachments });
  });

  it("a chip's label says the editor's kind; its size is the text it carries", () => {
    assert.equal(attachmentLabel({ kind: "problems", path: "workspace", content: "" }), "problems: workspace");
    assert.equal(attachmentLabel({ kind: "terminal", path: "bash", content: "" }), "terminal: bash");
    assert.equal(attachmentLabel({ kind: "folder", path: "src" }), "folder: src");
    assert.equal(attachmentSize({ kind: "changes", path: ".", content: "é".repeat(1024) }), "2.0 KB", "bytes, not characters");
    assert.equal(attachmentSize({ kind: "folder", path: "src" }), undefined, "the kernel reads a folder: no size before it is sent");
  });

  it("a message without blocks, or one that only mentions the format, is all typed text", () => {
    assert.deepEqual(splitMessage("plain"), { typed: "plain", attachments: [] });
    const mention = 'how do I write\n\n<attached file="x">\n in a prompt?';
    assert.deepEqual(splitMessage(mention), { typed: mention, attachments: [] });
  });
});

describe("@ in the message box", () => {
  it("opens the file picker only when it starts a word", () => {
    assert.equal(typedAtMention("@", 1), true);
    assert.equal(typedAtMention("explain @", 9), true);
    assert.equal(typedAtMention("me@example.com", 3), false, "an e-mail address is text");
    assert.equal(typedAtMention("explain", 7), false);
  });
});
