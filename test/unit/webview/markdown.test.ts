// The chat's markdown renderer in a real DOM (jsdom): what a model writes is shown, never run.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";
import { HIGHLIGHT_LIMIT, MarkdownRenderer } from "../../../webview/markdown.js";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());
const renderer = new MarkdownRenderer(window as unknown as globalThis.Window);

function render(markdown: string): HTMLElement {
  const host = window.document.createElement("div") as unknown as HTMLElement;
  host.append(renderer.render(markdown) as unknown as Node);
  return host;
}

/** Everything in the rendered tree that could run code, load something or restyle the page. */
function activeParts(host: HTMLElement): string[] {
  const found: string[] = [];
  for (const node of Array.from(host.querySelectorAll("*"))) {
    const tag = node.tagName.toLowerCase();
    if (["script", "style", "img", "iframe", "object", "embed", "svg", "form", "input", "button", "link", "meta"].includes(tag))
      found.push(`<${tag}>`);
    for (const attr of Array.from(node.attributes)) {
      if (attr.name.startsWith("on") || ["style", "src", "srcset", "formaction"].includes(attr.name)) found.push(`${tag}[${attr.name}]`);
      if (attr.name === "href" && !/^(https?:|mailto:|#)/i.test(attr.value)) found.push(`${tag}[href=${attr.value}]`);
    }
  }
  return found;
}

describe("markdown renderer (issue 15: rendered answers, inert whatever the model writes)", () => {
  it("renders headings, lists, inline code, links and a highlighted code block", () => {
    const host = render(
      "# Title\n\n- one\n- two\n\nUse `npm test`, see [docs](https://example.com/x).\n\n```ts\nconst a: number = 1;\n```\n",
    );
    assert.equal(host.querySelector("h1")?.textContent, "Title");
    assert.equal(host.querySelectorAll("li").length, 2);
    assert.equal(host.querySelector("p code")?.textContent, "npm test");
    assert.equal(host.querySelector("a")?.getAttribute("href"), "https://example.com/x");
    assert.equal(host.querySelector("a")?.getAttribute("rel"), "noopener noreferrer");
    const code = host.querySelector("pre code")!;
    assert.equal(code.textContent, "const a: number = 1;\n");
    assert.ok(code.querySelector(".hljs-keyword"), "the TypeScript keyword is highlighted");
    assert.deepEqual(activeParts(host), []);
  });

  it("script tags, event handlers, raw HTML and iframes come out as text, never as elements", () => {
    const hostile = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(2)">',
      '<div onclick="alert(3)" style="position:fixed">raw</div>',
      '<iframe src="https://evil.example"></iframe>',
      "<style>body{display:none}</style>",
      '<a href="javascript:alert(4)">html link</a>',
      '<svg onload="alert(5)"></svg>',
    ].join("\n\n");
    const host = render(hostile);
    assert.deepEqual(activeParts(host), []);
    assert.match(host.textContent ?? "", /<script>alert\(1\)<\/script>/, "raw HTML is shown as the text it is");
  });

  it("javascript:, vbscript:, data: and file: links lose their target; the text stays", () => {
    const host = render(
      [
        "[a](javascript:alert(1))",
        "[b](JaVaScRiPt:alert(1))",
        "[c](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "[d](vbscript:msgbox)",
        "[e](file:///etc/passwd)",
        "<javascript:alert(1)>",
        "[f](  javascript:alert(1))",
      ].join("\n\n"),
    );
    assert.deepEqual(activeParts(host), []);
    assert.equal(host.querySelectorAll("a[href]").length, 0);
  });

  it("an image becomes a link named by its alt text (the CSP loads no remote image), a data: image none", () => {
    const host = render("![diagram](https://example.com/d.png)\n\n![x](data:image/png;base64,AAAA)\n\n![y](javascript:alert(1))");
    assert.deepEqual(activeParts(host), []);
    assert.equal(host.querySelector("img"), null);
    const links = Array.from(host.querySelectorAll("a[href]")).map((a) => [a.getAttribute("href"), a.textContent]);
    assert.deepEqual(links, [["https://example.com/d.png", "image: diagram"]]);
  });

  it("a table's alignment produces no inline style (the CSP forbids style attributes)", () => {
    const host = render("| a | b |\n|:--|--:|\n| 1 | 2 |\n");
    assert.ok(host.querySelector("table"));
    assert.deepEqual(activeParts(host), []);
  });

  // Its speed is the chat render bench's to measure (test/bench), not a timed assertion here: what can
  // break is that a big block is highlighted (the slow path) or cut.
  it("a 1 MB code block renders whole, as plain text (not highlighted: above the limit)", () => {
    const line = "const x = '<script>alert(1)</script>'; // <img src=x onerror=alert(1)>\n";
    const big = line.repeat(Math.ceil(1_000_000 / line.length));
    assert.ok(big.length > HIGHLIGHT_LIMIT);
    const host = render("```js\n" + big + "```\n");
    assert.equal(host.querySelector("pre code")?.textContent, big);
    assert.equal(host.querySelector("pre code span"), null, "no highlighting above the limit");
    assert.deepEqual(activeParts(host), []);
  });
});
