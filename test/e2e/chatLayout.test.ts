// Issue 25, "a chat people can live in", walked in the real workbench at 1400×900: the transcript
// fills the side bar while Tasks is empty, the header is one line, the composer's buttons are icons
// named as their tooltips; Ctrl+Alt+H lands in the message box, Escape stops a turn and Stop gives the
// focus back to the box, and a reload shows each stopped answer as it streamed, marked Cancelled; an
// answer cut at the token cap says so; a message sent before a model is chosen stays in the box; keys
// walk and accept a proposed change in the editor.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { readHearthLog } from "./support/codeServer.js";
import { newScenario } from "./support/scenario.js";
import { lens, scriptedModel, startWorkbench, turnEnds } from "./support/scriptedChat.js";
import type { FrameLocator } from "./support/playwright.js";
import { openActivityBarContainer, runCommand, waitFor, webviewViewFrame } from "./support/webview.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
// Slow turns (40 chunks, 0.5 s apart): long enough to be stopped while they stream.
const slowRound = { text: Array.from({ length: 40 }, (_, i) => `chunk ${i} `), delayMs: 500 };
const edit = { name: "write_file", arguments: { path: "README.md", content: "# layout, edited\n" } };
// An answer the model's token cap cut off mid-sentence (issue 25 item 10).
const capRound = { text: ["The build has three parts: the extension, the kernel and the"], stoppedAtTokenCap: true };
const SCRIPT = {
  modelId: "scripted-layout-e2e",
  // A scripted round is picked by the number of answers the chat holds: a cancelled turn commits
  // none, so both stopped turns get the last (slow) round.
  rounds: [{ text: ["Kept and sent."] }, { text: ["Editing."], toolCalls: [edit] }, { text: ["Edited."] }, capRound, slowRound],
};

/** Whether the message box holds the webview's focus. */
function boxHasFocus(view: FrameLocator): Promise<boolean> {
  return view.locator("#message").evaluate((box) => box === document.activeElement || box.contains(document.activeElement));
}

describe("a chat people can live in (issue 25, in the workbench at 1400×900)", { timeout: 240_000 }, () => {
  const { scratch, workspace, clock, started, shot, end } = newScenario("chatLayout", "hearth-e2e-");
  let passed = false;
  let pasteDone = false;
  const folderSettings = () => path.join(workspace, ".vscode", "settings.json");

  before(async () => {
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, "README.md"), "# layout\n");
    // The folder's settings override the user's scripted model with none: no model is chosen yet.
    fs.mkdirSync(path.dirname(folderSettings()), { recursive: true });
    fs.writeFileSync(folderSettings(), JSON.stringify({ "hearth.model": "" }));
    const script = path.join(scratch, "slow.json");
    fs.writeFileSync(script, JSON.stringify(SCRIPT));
    await startWorkbench(started, { scratch, workspace, ...scriptedModel(script), mark: clock.mark });
  });

  after(async () => {
    if (started.browser && passed) await shot("chat-layout").catch(() => undefined);
    await end(passed);
  });

  it("a message sent before a model is chosen stays in the box, and is sent once one is (issue 25, item 6)", async () => {
    const page = started.browser!.page;
    await openActivityBarContainer(page, "Hearth");
    const view = webviewViewFrame(page, EXTENSION_ID);
    await view.locator('[data-testid="model-welcome"]').waitFor({ state: "attached", timeout: 60_000 });
    await view.locator("#message textarea").fill("Do not lose me");
    await view.locator("#message textarea").press("Enter");
    await view.locator(".notice.error").filter({ hasText: "no model" }).waitFor({ state: "attached", timeout: 30_000 });
    await waitFor(
      async () => (await view.locator("#message textarea").inputValue()) === "Do not lose me",
      10_000,
      "the unsent message back in the box",
    );
    await shot("1-unsent-kept");
    fs.writeFileSync(folderSettings(), "{}"); // the user's scripted model applies again
    await view.locator('[data-testid="model-line"]').waitFor({ state: "attached", timeout: 30_000 });
    await view.locator("#message textarea").press("Enter");
    assert.equal(await turnEnds(page, EXTENSION_ID, 1), "completed");
    assert.deepEqual(await view.locator('[data-testid="user-message"] .body').allTextContents(), ["Do not lose me"]);
  });

  it("the transcript takes at least 60% of the side bar with Tasks empty; the header is one line; the composer's buttons are icons whose names are their tooltips; no task command sits in the palette before a task exists (issue 25, items 3, 7 and 11)", async () => {
    const page = started.browser!.page;
    const view = webviewViewFrame(page, EXTENSION_ID);
    await view.locator('[data-testid="model-line"]').waitFor({ state: "visible", timeout: 60_000 });
    await shot("2-layout");
    const sidebar = await page.locator(".part.sidebar").boundingBox();
    const transcript = await view.locator('[data-testid="transcript"]').boundingBox();
    assert.ok(sidebar && transcript);
    assert.ok(
      transcript.height >= 0.6 * sidebar.height,
      `the transcript is ${Math.round(transcript.height)} px of a ${Math.round(sidebar.height)} px side bar`,
    );
    // One line: the header is no taller than its tallest control plus its padding.
    const header = await view.locator("header.chat-header").evaluate((h) => ({
      height: h.getBoundingClientRect().height,
      tallest: Math.max(...[...h.querySelectorAll("vscode-button, summary, span")].map((c) => c.getBoundingClientRect().height)),
    }));
    assert.ok(header.height <= header.tallest + 12, `the header is ${header.height} px tall; its tallest control ${header.tallest} px`);
    const buttons = await view
      .locator(".composer-buttons vscode-button")
      .evaluateAll((nodes) =>
        nodes.map((b) => ({ text: b.textContent?.trim() ?? "", name: b.getAttribute("aria-label"), tip: b.getAttribute("title") })),
      );
    assert.ok(buttons.length >= 3, "Send, Stop, New chat at least");
    for (const b of buttons) {
      assert.equal(b.text, "", `an icon button draws no text: ${JSON.stringify(b)}`);
      assert.ok(b.name && b.name === b.tip, `its accessible name is its tooltip: ${JSON.stringify(b)}`);
    }
    assert.equal(await view.locator("#history").getAttribute("aria-label"), await view.locator("#history").getAttribute("title"));
    // The box is announced by the words it shows (its placeholder begins with its name), not as "Text area".
    const box = view.locator("#message textarea");
    assert.equal(await box.getAttribute("aria-label"), "Message Hearth");
    assert.match((await box.getAttribute("placeholder")) ?? "", /^Message Hearth /);
    // With no task yet the palette offers to start one and nothing that acts on one (issue 25 item 11).
    await page.keyboard.press("F1");
    const palette = page.locator(".quick-input-widget input");
    await palette.waitFor({ state: "visible" });
    const rows = (text: string) => page.locator(".quick-input-list .monaco-list-row", { hasText: text });
    await palette.fill(">Hearth: Start Background Task");
    await rows("Start Background Task").first().waitFor({ state: "visible", timeout: 10_000 });
    for (const command of ["Cancel Task", "Open Task Transcript", "Resume Task", "Dismiss Task", "Rerun Task"]) {
      await palette.fill(`>Hearth: ${command}`);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await rows(command).count(), 0, `"Hearth: ${command}" is not in the palette while no task exists`);
    }
    await page.keyboard.press("Escape");
  });

  it("a model error never breaks the header: it stays one line, nothing runs off its right edge, the chat's title stays readable beside its model note, and the error takes a full-width line below it (issue 25, item 7)", async () => {
    const page = started.browser!.page;
    const view = webviewViewFrame(page, EXTENSION_ID);
    // A long path that is not there: the model line names it and the view says the problem at once.
    const missing = `/nonexistent/${"a-rather-long-folder-name/".repeat(6)}qwen2.5-coder-7b-instruct-with-a-long-file-name-q4_k_m.gguf`;
    fs.writeFileSync(folderSettings(), JSON.stringify({ "hearth.model": missing }));
    await view.locator('[data-testid="model-error"]').waitFor({ state: "visible", timeout: 30_000 });
    // The model said to have failed is the one the setting names, not the one loaded before it.
    assert.equal(
      await view.locator('[data-testid="model-status"]').getAttribute("title"),
      "Model: qwen2.5-coder-7b-instruct-with-a-long-file-name-q4_k_m · failed",
    );
    await shot("2b-model-error");
    const layout = await view.locator("header.chat-header").evaluate((h) => {
      const row = h.querySelector(".chat-row")!;
      const problem = h.querySelector(".model-problem")!.getBoundingClientRect();
      // What shows: the Kernel menu's closed body still has boxes in Chromium, drawn nowhere.
      const controls = [...row.querySelectorAll("vscode-button, summary, [data-testid=model-status], [data-testid=chat-title]")].filter(
        (c) => c.checkVisibility(),
      );
      return {
        header: { scroll: h.scrollWidth, client: h.clientWidth, width: h.getBoundingClientRect().width },
        row: { scroll: row.scrollWidth, client: row.clientWidth, ...row.getBoundingClientRect().toJSON() },
        problem: problem.toJSON(),
        tallest: Math.max(...controls.map((c) => c.getBoundingClientRect().height)),
        // Every control of the line, with its right edge: none may lie past the header's.
        rights: controls.map((c) => c.getBoundingClientRect().right),
        // The chat made with the scripted model says so beside its title, which stays readable.
        title: {
          width: h.querySelector("[data-testid=chat-title]")!.getBoundingClientRect().width,
          whole: h.querySelector("[data-testid=chat-title]")!.scrollWidth,
        },
        note: h.querySelector("[data-testid=session-model]")?.getAttribute("aria-label") ?? null,
      };
    });
    const l = layout;
    assert.ok(l.header.scroll <= l.header.client, `nothing runs off the header: ${JSON.stringify(l.header)}`);
    assert.ok(l.row.scroll <= l.row.client, `nothing runs off the header's line: ${JSON.stringify(l.row)}`);
    assert.ok(Math.max(...l.rights) <= l.row.right + 1, `a control lies past the right edge: ${JSON.stringify(l)}`);
    assert.ok(l.row.height <= l.tallest + 4, `the header's line is one line: ${l.row.height} px for controls ${l.tallest} px tall`);
    assert.ok(l.problem.top >= l.row.bottom - 1, `the model's error is below the line: ${JSON.stringify(l)}`);
    assert.ok(l.problem.width >= l.header.width - 16, `the model's error takes the header's width: ${JSON.stringify(l)}`);
    assert.match(l.note ?? "", /^This chat uses slow\.json; new chats use qwen2\.5-coder-7b-instruct/, "the chat's model note shows");
    // Readable: its whole, or at least about seven letters (it was squeezed to one beside the note).
    assert.ok(l.title.width >= Math.min(l.title.whole, 56), `the chat's title is ${l.title.width} px of its ${l.title.whole} px`);
    fs.writeFileSync(folderSettings(), "{}"); // the scripted model again, for the walks below
    await view.locator('[data-testid="model-error"]').waitFor({ state: "detached", timeout: 30_000 });
  });

  it("keys walk and accept a proposal in the editor: next hunk (Alt+F5) moves the cursor, Ctrl+Enter accepts, and the decided proposal's diff tab closes (issue 25, items 5 and 9)", async () => {
    const page = started.browser!.page;
    const view = webviewViewFrame(page, EXTENSION_ID);
    await view.locator("#message textarea").fill("Edit the README");
    await view.locator("#message textarea").press("Enter");
    await lens(page, "Accept (1 hunk)").waitFor({ state: "visible", timeout: 60_000 });
    await page.locator(".monaco-editor .view-lines").first().click(); // the focus in the proposal's editor
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Alt+F5");
    await waitFor(
      async () =>
        /Ln 1,/.test(
          (await page
            .locator(".statusbar-item", { hasText: /^Ln \d+, Col \d+/ })
            .first()
            .textContent()) ?? "",
        ),
      10_000,
      "the cursor on the hunk's line (Ln 1)",
    );
    await shot("3-proposal-keys");
    // Show diff opens the proposal beside the file; the keys work there too, and its tab closes once decided.
    await lens(page, "Show diff").click();
    await page.locator(".monaco-diff-editor").first().waitFor({ state: "visible", timeout: 30_000 });
    await page.locator(".monaco-diff-editor .modified .view-lines").first().click();
    await page.keyboard.press("Control+Enter");
    assert.equal(await turnEnds(page, EXTENSION_ID, 2), "completed");
    assert.equal(fs.readFileSync(path.join(workspace, "README.md"), "utf8"), "# layout, edited\n", "accepted by the keybinding");
    await waitFor(
      async () => (await page.locator(".tabs-container .tab", { hasText: "(proposed by Hearth)" }).count()) === 0,
      10_000,
      "the decided proposal's diff tab to close (issue 25, item 9)",
    );
  });

  it("an answer cut at the token cap says so in its footer, with what to do, instead of Completed (issue 25, item 10)", async () => {
    const page = started.browser!.page;
    const view = webviewViewFrame(page, EXTENSION_ID);
    await view.locator("#message textarea").fill("Describe the build");
    await view.locator("#message textarea").press("Enter");
    assert.equal(await turnEnds(page, EXTENSION_ID, 3), "completed");
    const status = view.locator('[data-testid="turn-status"]').nth(2);
    assert.equal(await status.textContent(), "Stopped at the token cap: the answer is cut off");
    assert.match((await view.locator(".turn-hint").last().textContent()) ?? "", /Send “continue” to have Hearth go on/);
    assert.doesNotMatch(
      (await view.locator('[data-testid="announcer"]').textContent()) ?? "",
      /^Hearth answered/,
      "not announced as a finished answer",
    );
    await view.locator(".turn-hint").last().scrollIntoViewIfNeeded();
    await shot("3b-token-cap");
  });

  it("Ctrl+Alt+H then typing puts the text in the message box; a streaming turn shows what it does with its time and tokens; Escape stops it; after Stop the focus is back in the box (issue 25, items 4 and 5)", async () => {
    const page = started.browser!.page;
    const view = webviewViewFrame(page, EXTENSION_ID);
    await page.locator(".part.editor").click(); // the focus leaves the chat view
    await page.keyboard.press("Control+Alt+KeyH");
    await waitFor(() => boxHasFocus(view), 10_000, "the message box to take the focus");
    await page.keyboard.type("Stream slowly");
    assert.equal(await view.locator("#message textarea").inputValue(), "Stream slowly");
    await page.keyboard.press("Enter");
    await view.locator('[data-testid="answer"]', { hasText: "chunk 0" }).nth(0).waitFor({ state: "attached", timeout: 60_000 });
    // A sign of life under the streaming reply (issue 25 item 4): what it does, for how long, how much.
    assert.match(
      (await view.locator('[data-testid="turn-progress"]').textContent({ timeout: 10_000 })) ?? "",
      /^Writing… \d+ s · ≈\d+ tokens so far$/,
    );
    await page.keyboard.press("Escape");
    assert.equal(await turnEnds(page, EXTENSION_ID, 4), "cancelled", "Escape stopped the turn");
    clock.mark("stopped by Escape");

    await view.locator("#message textarea").fill("Stream slowly again");
    await view.locator("#message textarea").press("Enter");
    await view.locator('[data-testid="answer"]', { hasText: "chunk 0" }).nth(1).waitFor({ state: "attached", timeout: 60_000 });
    await view.locator("#stop").click();
    assert.equal(await turnEnds(page, EXTENSION_ID, 5), "cancelled", "Stop stopped the turn");
    await waitFor(() => boxHasFocus(view), 10_000, "the focus back in the message box after Stop");
    assert.equal(await view.locator('[data-testid="turn-progress"]').count(), 0, "no sign of life once the turns ended");
    await shot("4-stopped");

    // issue 25 item 11: reloaded, each stopped answer is still there as it streamed, marked Cancelled.
    await runCommand(page, "Developer: Reload Webviews");
    const endings = view.locator('[data-testid="history-ending"] [data-testid="turn-status"][data-status="cancelled"]');
    await waitFor(async () => (await endings.count()) === 2, 30_000, "both cancelled turns' endings after the reload");
    const stopped = await view
      .locator('[data-testid="assistant-message"]:has([data-testid="history-ending"] [data-status="cancelled"]) [data-testid="answer"]')
      .allTextContents();
    assert.equal(stopped.length, 2, `the two unfinished answers: ${JSON.stringify(stopped)}`);
    for (const text of stopped) assert.match(text, /^chunk 0\b/, "the answer as it streamed until the stop");
    assert.deepEqual(await endings.allTextContents(), ["Cancelled", "Cancelled"]);
    // The answer cut at the token cap still says so, read back (issue 25 item 10).
    assert.deepEqual(
      await view.locator('[data-testid="history-ending"] [data-testid="turn-status"][data-cut="token-cap"]').allTextContents(),
      ["Stopped at the token cap: the answer is cut off"],
    );
    // The reloaded chat opens at its latest turn, as it was left, also once the Rewind and Fork buttons
    // (which come after the transcript) have made it taller.
    const transcript = view.locator('[data-testid="transcript"]');
    const gapBelow = () => transcript.evaluate((t) => t.scrollHeight - t.scrollTop - t.clientHeight);
    await view.locator('[data-testid="fork-open"]').last().waitFor({ state: "attached", timeout: 30_000 });
    await new Promise((r) => setTimeout(r, 500));
    assert.ok((await gapBelow()) < 24, `the reloaded transcript is scrolled to its end (${await gapBelow()} px below the view)`);
    await shot("4b-stopped-after-reload");
  });

  it("a 200 KB paste becomes a chip with its size and tokens; sending it is held with a warning, and trimming it to fit sends (issue 25, item 8)", async () => {
    const page = started.browser!.page;
    const view = webviewViewFrame(page, EXTENSION_ID);
    const box = view.locator("#message textarea");
    await box.fill("Summarize this log");
    const line = "2026-12-01 21:00:00 [info] a line of a long log that someone pasted into the chat\n";
    const big = line.repeat(Math.ceil(200_000 / line.length));
    await box.evaluate((area, text) => {
      const data = new DataTransfer();
      data.setData("text/plain", text);
      area.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true, composed: true }));
    }, big);
    const chip = view.locator('[data-testid="paste-chip"]');
    assert.match((await chip.textContent({ timeout: 10_000 })) ?? "", /^Pasted text · 2,4\d\d lines · 19\d KB · ≈5\d,\d{3} tokens×$/);
    assert.equal(await box.inputValue(), "Summarize this log", "the paste did not fill the box");
    const sent = await view.locator('[data-testid="user-message"]').count();
    await box.press("Enter");
    await view.locator('[data-testid="paste-warning"]').waitFor({ state: "visible", timeout: 10_000 });
    await shot("5-paste-warning");
    assert.equal(await view.locator('[data-testid="user-message"]').count(), sent, "nothing was sent");
    const tokensOf = (text: string | null) => Number(/≈([\d,]+) tokens/.exec(text ?? "")?.[1]?.replace(/,/g, ""));
    const offered = tokensOf(await view.locator('[data-testid="paste-trim"]').textContent());
    await view.locator('[data-testid="paste-trim"]').click();
    assert.ok(tokensOf(await chip.textContent()) <= offered, "trimmed to the room the chat has");
    // Counted here: after the reload above only the runs that did more than complete show a status line.
    const ended = await view.locator('[data-testid="turn-status"]').count();
    await box.press("Enter");
    await view.locator('[data-testid="user-message"]').nth(sent).waitFor({ state: "attached", timeout: 30_000 });
    const message = (await view.locator('[data-testid="user-message"] .body').nth(sent).textContent()) ?? "";
    assert.match(message, /^Summarize this log\n\n```\n2026-12-01/);
    assert.ok(message.length <= offered * 4 + 100, `the trimmed message is ${message.length} characters`);
    // Sent, the long message is shown folded, with a button that says how long it is.
    const fold = view.locator('[data-testid="user-message"]').nth(sent).locator('[data-testid="message-fold"]');
    assert.match((await fold.textContent({ timeout: 10_000 })) ?? "", /^Show all [\d,]+ lines$/);
    await page.keyboard.press("Escape");
    assert.equal(await turnEnds(page, EXTENSION_ID, ended + 1), "cancelled");
    pasteDone = true;
  });

  it("six quick tool-setting changes end with the kernel on the last list; the chat made with the old tools then offers its old tools, which answer, and a new chat that carries it (issue 25, items 1 and 2)", async () => {
    assert.ok(pasteDone, "the steps before made the chat this one changes the tools under");
    const page = started.browser!.page;
    const view = webviewViewFrame(page, EXTENSION_ID);
    const log = () => readHearthLog(started.server!.userDataDir);
    const startsBefore = log().match(/started kernel pid \d+/g)?.length ?? 0;
    const tools = ["read_file", "list_dir", "search_files", "write_file", "edit_file", "shell", "delegate_task"];
    // "Tools: Enabled" loses an entry six times in quick succession, as a person unticks them.
    for (let n = tools.length - 1; n >= 1; n--) {
      fs.writeFileSync(folderSettings(), JSON.stringify({ "hearth.tools.enabled": tools.slice(0, n) }));
      await new Promise((r) => setTimeout(r, 150));
    }
    // The kernel that runs in the end was started with the last list (its environment says so).
    const lastKernelTools = (): string | null => {
      const pids = [...log().matchAll(/started kernel pid (\d+)/g)].map((m) => Number(m[1]));
      if (pids.length <= startsBefore) return null;
      try {
        const environ = fs.readFileSync(`/proc/${pids[pids.length - 1]}/environ`, "utf8").split("\0");
        return environ.find((v) => v.startsWith("HEARTH_TOOLS="))?.slice("HEARTH_TOOLS=".length) ?? "";
      } catch {
        return null; // that kernel is gone already: a later one follows
      }
    };
    await waitFor(() => lastKernelTools() === "read_file", 90_000, "the kernel to run with the last tool list");
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(lastKernelTools(), "read_file", "no older list replaced it after");
    clock.mark("six tool changes applied");

    // The chat's runs pinned the old tools: sending says what changed and offers a new chat.
    await view.locator("#message textarea").fill("One more");
    await view.locator("#message textarea").press("Enter");
    const carry = view.locator('[data-testid="action-continue-new-chat"]').last();
    await carry.waitFor({ state: "visible", timeout: 60_000 });
    await shot("6-tools-changed");
    // The person keeps the chat's earlier tools: the refused message is sent again and answered (the slow round).
    const ended = await view.locator('[data-testid="turn-status"]').count();
    await view.locator('[data-testid="action-keep-chat-tools"]').last().click();
    assert.equal(await turnEnds(page, EXTENSION_ID, ended + 1), "completed");
    const said = view.locator('[data-testid="chat-notice"]').filter({ hasText: "goes on with the tools it began with" });
    assert.equal(await said.count(), 1, "said once");
    assert.match((await view.locator('[data-testid="user-message"]').last().textContent()) ?? "", /One more/);
    // Sent again, the refused message shows once, as the model sees it once.
    assert.equal(await view.locator('[data-testid="user-message"]', { hasText: "One more" }).count(), 1, "the message shows once");
    await shot("6a-old-tools-kept");
    await carry.click();
    const chip = view.locator('[data-testid="paste-chip"]');
    assert.match((await chip.textContent({ timeout: 30_000 })) ?? "", /^Earlier chat · /);
    assert.equal(await view.locator('[data-testid="user-message"]').count(), 0, "a new chat, the old one in History");
    await shot("6b-continued-in-new-chat");
    passed = true;
  });
});
