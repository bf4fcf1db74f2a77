// A chip shows its kind and its size (issue 29 item 3): before sending, an editor chip's own text;
// once sent, what the kernel read (as turn/start said, or as the journaled message holds it).
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";
import { blockBytes, composeMessage } from "../../../shared/attachmentText.js";
import type { Attachment } from "../../../shared/protocol/attachments.js";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());
(globalThis as { document?: unknown }).document = window.document;
const { attachmentChip, attachmentChips } = await import("../../../webview/attachmentChip.js");

const texts = (row: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> }, selector: string) =>
  Array.from(row.querySelectorAll(selector), (n) => n.textContent);

describe("chip sizes (issue 29 item 3)", () => {
  it("before sending, only a chip that carries its text has a size; its kind is in its label and its data", () => {
    const problems = attachmentChip({ kind: "problems", path: "workspace", content: "x".repeat(2048) });
    assert.equal(problems.querySelector(".chip-label")?.textContent, "problems: workspace");
    assert.equal(problems.querySelector(".chip-size")?.textContent, "2.0 KB");
    assert.equal(problems.dataset.kind, "problems");
    assert.match(problems.title, /^The workspace's problems, as the editor listed them \(2\.0 KB\)$/);
    const folder = attachmentChip({ kind: "folder", path: "src" });
    assert.equal(folder.querySelector(".chip-label")?.textContent, "folder: src");
    assert.equal(folder.querySelector(".chip-size"), null, "the kernel lists a folder when the message is sent");
  });

  it("a sent message's chips show what the kernel read, from turn/start or from the journaled message", () => {
    const attachments: Attachment[] = [
      { kind: "folder", path: "src" },
      { kind: "file", path: "a.ts" },
    ];
    const message = composeMessage("look", [
      { attachment: attachments[0]!, text: "a.ts\nb.ts\n" },
      { attachment: attachments[1]!, text: "é\n" },
    ]);
    assert.deepEqual(blockBytes(message), [10, 3]);
    assert.deepEqual(blockBytes("no blocks"), []);
    assert.deepEqual(texts(attachmentChips(attachments, blockBytes(message)), ".chip-size"), ["10 B", "3 B"]);
    assert.deepEqual(texts(attachmentChips(attachments), ".chip-size"), [], "an older kernel said nothing: no size is made up");
  });

  it("a web page's chip names its address and shows no size: its page is the fetch's result, not the message's block", () => {
    const url: Attachment = { kind: "url", path: "https://example.com/notes" };
    const message = composeMessage("what changed?", [{ attachment: url, text: "fetched next" }]);
    const [chip] = Array.from(attachmentChips([url], blockBytes(message)).querySelectorAll<HTMLElement>(".chip"));
    assert.equal(chip?.querySelector(".chip-label")?.textContent, "url: https://example.com/notes");
    assert.equal(chip?.querySelector(".chip-size"), null);
    assert.match(chip?.title ?? "", /fetched with web_fetch when the message is sent \(it asks first\)$/);
  });
});
