// The streaming cut (issue 15 item 1): an answer's head, up to stableBoundary, renders once and only
// the tail re-renders. It is only right if head and tail rendered apart give exactly the markup of
// the whole rendered at once, at every point of a stream; and it must never cut inside a code fence,
// before a list item or an indented continuation, or at an unfinished line.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";
import { MarkdownRenderer } from "../../../webview/markdown.js";
import { stableBoundary } from "../../../webview/streamBoundary.js";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());
const renderer = new MarkdownRenderer(window as unknown as globalThis.Window);

function html(...parts: string[]): string {
  const host = window.document.createElement("div");
  for (const p of parts) host.append(renderer.render(p) as unknown as Node);
  return host.innerHTML;
}

const ANSWER = [
  "## Parse the input\n\nThe parser reads **one line** at a time and keeps `state`.\n\n",
  "- the header is checked once\n- each record is validated\n\n",
  "1. first\n2. second\n\n",
  "```ts\nexport function parse(line: string) {\n\n  return line.trim();\n}\n```\n\n",
  "| field | type |\n| --- | --- |\n| key | string |\n\n",
  "> a note that spans\n> two lines\n\n",
  "~~~python\ndef f():\n\n    return 1\n~~~\n\n",
  "Text after [a link](https://example.invalid/) and a final paragraph.\n",
].join("");

describe("the streaming cut", () => {
  it("renders head and tail apart exactly as the whole, at every prefix of a streamed answer", () => {
    for (let n = 1; n <= ANSWER.length; n += 3) {
      const text = ANSWER.slice(0, n);
      const cut = stableBoundary(text);
      assert.equal(html(text.slice(0, cut), text.slice(cut)), html(text), `cut at ${cut} of ${JSON.stringify(text)}`);
    }
  });

  it("moves forward as the answer grows, so the head is rendered once", () => {
    let last = 0;
    for (let n = 1; n <= ANSWER.length; n++) {
      const cut = stableBoundary(ANSWER.slice(0, n));
      assert.ok(cut >= last, `the cut went back from ${last} to ${cut} at ${n}`);
      last = cut;
    }
    assert.ok(last > ANSWER.length / 2, "most of a finished answer is head");
  });

  it("never cuts inside a fence, before a list item or an indented line, or at an unfinished line", () => {
    assert.equal(stableBoundary("```\na\n\nb\n"), 0, "inside an open fence");
    assert.equal(stableBoundary("- a\n\n- b\n"), 0, "a loose list stays whole");
    assert.equal(stableBoundary("- a\n\n  more of a\n"), 0, "an indented continuation stays with its item");
    assert.equal(stableBoundary("para\n\nnext"), 0, "the next block's line is unfinished");
    assert.equal(stableBoundary("para\n\nnext\n"), "para\n\n".length);
  });
});
