// Model answers rendered as markdown (issue 15). Nothing a model writes may run: markdown-it gets
// no raw HTML (it is shown as text), links are limited to http(s), mailto and in-page anchors,
// images become links (the CSP allows no remote image, and a blocked one is a CSP violation), no
// inline style is produced (the CSP forbids it), and DOMPurify sanitises the result as a second wall.
import DOMPurify from "dompurify";
import MarkdownIt from "markdown-it";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdownLang from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";

// A small set of common languages keeps the webview bundle small; others render unhighlighted.
const LANGUAGES = { bash, c, cpp, css, diff, go, java, javascript, json, markdown: markdownLang, python, rust, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);
hljs.registerAliases(["sh", "shell", "zsh"], { languageName: "bash" });
hljs.registerAliases(["js", "jsx", "mjs", "cjs"], { languageName: "javascript" });
hljs.registerAliases(["ts", "tsx"], { languageName: "typescript" });
hljs.registerAliases(["py"], { languageName: "python" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });
hljs.registerAliases(["yml"], { languageName: "yaml" });

/** Above this a block is shown as plain text: highlighting a huge block would stall the view. */
export const HIGHLIGHT_LIMIT = 50_000;

const SAFE_LINK = /^(https?:|mailto:|#)/i;

function markdownIt(): ReturnType<typeof MarkdownIt> {
  const md = new MarkdownIt({
    html: false,
    // Off: "README.md" would become a link to a host named README.md.
    linkify: false,
    highlight: (code, lang) => {
      const language = hljs.getLanguage(lang) ? lang : undefined;
      if (!language || code.length > HIGHLIGHT_LIMIT) return "";
      return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    },
  });
  md.validateLink = (url) => SAFE_LINK.test(url.trim());
  // An image becomes a link to it named by its alt text: the page may load no remote image.
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const src = String(token.attrGet("src") ?? "");
    const alt = self.renderInlineAsText(token.children ?? [], options, env) || src;
    return `<a href="${md.utils.escapeHtml(src)}">${md.utils.escapeHtml(`image: ${alt}`)}</a>`;
  };
  // "```ts src/parse.ts" (or file=, path=, title=): the block's target for Apply, kept on its <code>.
  md.core.ruler.push("fence_file", (state) => {
    for (const token of state.tokens) {
      const file = token.type === "fence" ? fenceFile(token.info) : undefined;
      if (file) token.attrSet("data-file", file);
    }
  });
  // Table alignment comes as style attributes, which the CSP forbids; alignment is dropped instead.
  md.core.ruler.push("no_inline_style", (state) => {
    for (const token of state.tokens) {
      if (token.attrs) token.attrs = token.attrs.filter(([name]) => name !== "style");
    }
  });
  return md;
}

/**
 * The file a fence's info names after its language: `ts src/a.ts`, `ts file=src/a.ts`,
 * `python title="tools/run.py"`. A word with no `/` or `.` is not taken for a file.
 */
export function fenceFile(info: string): string | undefined {
  const words = info.trim().split(/\s+/).slice(1);
  for (const word of words) {
    const named = /^(?:file|path|title|filename)=["']?([^"']+)["']?$/i.exec(word);
    const candidate = named ? named[1]! : word;
    if (/[/.]/.test(candidate) && !/^\{/.test(candidate)) return candidate;
  }
  return undefined;
}

/** A renderer bound to one DOM window (the webview's, or a test's happy-dom window). */
export class MarkdownRenderer {
  private readonly md = markdownIt();
  private readonly purify: ReturnType<typeof DOMPurify>;

  constructor(private readonly window: Window) {
    this.purify = DOMPurify(window as unknown as Parameters<typeof DOMPurify>[0]);
    this.purify.addHook("afterSanitizeAttributes", (node) => {
      const href = node.getAttribute("href");
      if (href !== null && !SAFE_LINK.test(href.trim())) node.removeAttribute("href");
      if (node.tagName === "A" && node.hasAttribute("href")) node.setAttribute("rel", "noopener noreferrer");
    });
  }

  /** The markdown as sanitised DOM nodes; no whitespace-only nodes between blocks. */
  render(markdown: string): DocumentFragment {
    const html = this.md.render(markdown);
    const fragment = this.purify.sanitize(html, {
      RETURN_DOM_FRAGMENT: true,
      FORBID_TAGS: ["style", "img", "svg", "math", "form", "input", "button", "iframe", "object", "embed"],
      FORBID_ATTR: ["style", "srcset", "src"],
    }) as DocumentFragment;
    for (const node of Array.from(fragment.childNodes)) {
      if (node.nodeType === 3 /* text */ && !node.textContent?.trim()) node.remove();
    }
    // DOMPurify's fragment belongs to its own inert document; adopt it into the page's.
    return this.window.document.importNode(fragment, true);
  }
}
