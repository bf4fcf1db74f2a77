// One answer block of a reply, rendered as markdown (issue 15). While it streams, deltas only append
// to the text; the render runs at most once per animation frame (a long answer: at most every
// LARGE_INTERVAL_MS), so a fast model never makes the view re-render per token, and it renders only
// the tail after the last completed block (streamBoundary.ts). `flush` renders the whole answer now.
import { button } from "./components/index.js";
import type { MarkdownRenderer } from "./markdown.js";
import { stableBoundary } from "./streamBoundary.js";

export interface CodeActions {
  copy(text: string): void;
  insert(text: string): void;
  /** Apply to file: `file` is the one the fence names, if any (the extension picks or asks otherwise). */
  apply(text: string, file: string | undefined): void;
}

/** Answers longer than this re-render at most every LARGE_INTERVAL_MS while they stream. */
const LARGE_ANSWER = 20_000;
const LARGE_INTERVAL_MS = 250;

/** Gives each code block a bar with its language (and file), Copy, Insert at cursor and Apply to file. */
export function decorateCodeBlocks(root: ParentNode, actions: CodeActions): void {
  for (const pre of Array.from(root.querySelectorAll("pre"))) {
    const code = pre.querySelector("code");
    const language = /language-([\w+#.-]+)/.exec(code?.className ?? "")?.[1] ?? "";
    const text = (): string => code?.textContent ?? pre.textContent ?? "";
    const file = code?.dataset.file;
    const what = language ? `the ${language} code` : "the code";
    const block = document.createElement("div");
    block.className = "code-block";
    block.dataset.testid = "code-block";
    const bar = document.createElement("div");
    bar.className = "code-bar";
    const label = document.createElement("span");
    label.className = "code-language";
    label.textContent = file ? `${language} · ${file}`.replace(/^ · /, "") : language;
    const copy = button(
      "Copy",
      () => {
        actions.copy(text());
        copy.textContent = "Copied";
        setTimeout(() => (copy.textContent = "Copy"), 1500);
      },
      { secondary: true, ariaLabel: `Copy ${what}`, testId: "code-copy" },
    );
    const insert = button("Insert", () => actions.insert(text()), {
      secondary: true,
      ariaLabel: `Insert ${what} at the cursor`,
      testId: "code-insert",
    });
    const apply = button("Apply", () => actions.apply(text(), file), {
      secondary: true,
      ariaLabel: file
        ? `Apply ${what} to ${file} (proposed in the file for your approval)`
        : `Apply ${what} to a file (proposed for your approval)`,
      testId: "code-apply",
    });
    bar.append(label, copy, insert, apply);
    pre.replaceWith(block);
    // The block scrolls sideways by keyboard too: it is focusable, named by its language.
    pre.tabIndex = 0;
    pre.setAttribute("aria-label", language ? `${language} code` : "code");
    block.append(bar, pre);
  }
}

export class AnswerView {
  readonly node = document.createElement("div");
  private text = "";
  private rendered = "";
  /** While streaming: the head's text, rendered once and kept, and the nodes of the tail after it. */
  private head = "";
  private tailNodes: ChildNode[] = [];
  private frame: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly renderer: MarkdownRenderer,
    private readonly actions: CodeActions,
    private readonly onRendered: () => void,
  ) {
    this.node.className = "answer";
    this.node.dataset.testid = "answer";
  }

  append(delta: string): void {
    this.text += delta;
    this.schedule();
  }

  /** The whole text (committed history): rendered at once. */
  set(text: string): void {
    this.text = text;
    this.flush();
  }

  get markdown(): string {
    return this.text;
  }

  /** Renders the whole answer now, as one document (the completed answer, or committed history). */
  flush(): void {
    this.cancelScheduled();
    if (this.text === this.rendered && this.head === "") return;
    this.head = "";
    this.tailNodes = [];
    this.rendered = this.text;
    this.node.replaceChildren(this.fragment(this.text));
    this.onRendered();
  }

  private cancelScheduled(): void {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.frame = this.timer = undefined;
  }

  private schedule(): void {
    if (this.frame !== undefined || this.timer !== undefined) return;
    const later = () => {
      this.frame = this.timer = undefined;
      this.renderStreaming();
    };
    if (this.text.length > LARGE_ANSWER) this.timer = setTimeout(later, LARGE_INTERVAL_MS);
    else this.frame = requestAnimationFrame(later);
  }

  /** A streaming re-render: completed blocks are rendered once and kept; only the tail is rendered again. */
  private renderStreaming(): void {
    if (this.text === this.rendered) return;
    for (const n of this.tailNodes) n.remove();
    const cut = stableBoundary(this.text);
    if (cut > this.head.length && this.text.startsWith(this.head)) {
      this.node.append(this.fragment(this.text.slice(this.head.length, cut)));
      this.head = this.text.slice(0, cut);
    }
    const tail = this.fragment(this.text.slice(this.head.length));
    this.tailNodes = Array.from(tail.childNodes);
    this.node.append(tail);
    this.rendered = this.text;
    this.onRendered();
  }

  private fragment(markdown: string): DocumentFragment {
    const fragment = this.renderer.render(markdown);
    decorateCodeBlocks(fragment, this.actions);
    return fragment;
  }
}
