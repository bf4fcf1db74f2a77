// An MCP server's prompt messages and resource contents as message text (issue 28, item 5): text
// parts and embedded text resources are their text, a message not the person's says whose it is, an
// image, audio or binary blob is refused with the reason, and more than the bound is refused whole.
// Listings are read page by page within their bounds; a prompt's command name is `server:prompt`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mcpPromptName } from "../../../../sidecar/kernel/mcp/mcpContext.js";
import { MCP_TEXT_MAX_BYTES, promptMessagesText, resourceContentsText } from "../../../../sidecar/tools/mcp/mcpContent.js";
import { MAX_LISTED, MAX_PAGES, readPages } from "../../../../sidecar/tools/mcp/mcpListings.js";

describe("MCP prompt messages as text", () => {
  it("joins text parts and embedded text resources, marking an assistant's message", () => {
    const r = promptMessagesText(
      [
        { role: "user", content: { type: "text", text: "Look at" } },
        { role: "user", content: { type: "resource", resource: { uri: "x://a", text: "the resource" } } },
        { role: "assistant", content: { type: "text", text: "Sure." } },
        { role: "user", content: { type: "resource_link", uri: "x://b", name: "b" } },
      ],
      "p",
    );
    assert.deepEqual(r, { ok: true, text: "Look at\n\nthe resource\n\n(assistant) Sure.\n\n(resource x://b)" });
  });

  it("refuses images, audio, blobs, no messages and more than the bound, saying why", () => {
    const one = (content: unknown) => promptMessagesText([{ role: "user", content }], "prompt p");
    assert.match(JSON.stringify(one({ type: "image", data: "AA", mimeType: "image/png" })), /holds an image: .*text only/);
    assert.match(JSON.stringify(one({ type: "audio", data: "AA", mimeType: "audio/wav" })), /holds audio/);
    assert.match(
      JSON.stringify(one({ type: "resource", resource: { uri: "x://c", blob: "AA", mimeType: "image/png" } })),
      /is binary \(image\/png, x:\/\/c\)/,
    );
    assert.match(JSON.stringify(promptMessagesText([], "prompt p")), /gave no messages/);
    const big = one({ type: "text", text: "é".repeat(MCP_TEXT_MAX_BYTES / 2 + 1) });
    assert.match(JSON.stringify(big), /more than the 262144 Hearth takes; it is not cut/);
    assert.deepEqual(one({ type: "text", text: "a".repeat(MCP_TEXT_MAX_BYTES) }).ok, true, "exactly the bound is taken");
  });
});

describe("MCP resource contents as text", () => {
  it("is the text of each content; a blob is refused", () => {
    assert.deepEqual(
      resourceContentsText(
        [
          { uri: "x://a", text: "one" },
          { uri: "x://a#2", text: "two" },
        ],
        "it",
      ),
      { ok: true, text: "one\n\ntwo" },
    );
    assert.match(JSON.stringify(resourceContentsText([{ uri: "x://a", blob: "AA" }], "it")), /it is binary \(binary, x:\/\/a\)/);
    assert.match(JSON.stringify(resourceContentsText([], "it")), /has no contents/);
  });
});

describe("MCP listings", () => {
  it("reads every page, and stops at the page and item bounds", async () => {
    const pages: Record<string, { items: number[]; next?: string }> = { "": { items: [1, 2], next: "b" }, b: { items: [3] } };
    assert.deepEqual(await readPages(async (c) => pages[c ?? ""]!), [1, 2, 3]);
    let calls = 0;
    const forever = await readPages(async () => {
      calls++;
      return { items: [0], next: "again" };
    });
    assert.equal(calls, MAX_PAGES);
    assert.equal(forever.length, MAX_PAGES);
    const many = await readPages(async () => ({ items: Array.from({ length: MAX_LISTED + 5 }, (_, i) => i), next: "more" }));
    assert.equal(many.length, MAX_LISTED);
  });

  it("names a prompt /server:prompt, lowercased, any other character as _", () => {
    assert.equal(mcpPromptName("everything", "simple-prompt"), "everything:simple-prompt");
    assert.equal(mcpPromptName("My Server", "Fix It!"), "my_server:fix_it_");
  });
});
