// Completions as you type in a real workbench (issue 31, "done when"): the workbench's Hearth runs the
// synthetic fill-in-the-middle model (test/fixtures/models.ts, FIM_MODEL_MIDDLE: it writes
// "return a + b;" between any prefix and suffix) on node-llama-cpp. Once a chat has loaded the model,
// asking for a suggestion in a TypeScript file shows the middle as ghost text, typing its first
// characters keeps the rest of it shown, and Tab writes it into the file. Then, with the benchmark-sized
// model named as the completion model (loaded beside the chat model), typing on cancels the suggestion
// in flight. Screenshots of each step are kept in the run folder (test/e2e/.runs/inlineCompletions-*).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { ensureFixtureModels, FIM_MODEL_MIDDLE } from "../fixtures/models.js";
import type { Page } from "./support/playwright.js";
import { newScenario } from "./support/scenario.js";
import { openChatView, sendChat, startWorkbench, turnEnds } from "./support/scriptedChat.js";
import { waitFor } from "./support/webview.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const FILE = "add.ts";
const SOURCE = "export function add(a: number, b: number): number {\n  \n}\n";

describe("inline completions from the loaded fill-in-the-middle model (issue 31)", { timeout: 480_000 }, () => {
  const { scratch, workspace, clock, started, shot, end } = newScenario("inlineCompletions", "hearth-e2e-complete-");
  let passed = 0;
  let page: Page;
  const folderSettings = path.join(workspace, ".vscode", "settings.json");
  const ghost = () => page.locator(".monaco-editor .ghost-text-decoration, .monaco-editor .ghost-text");
  // The editor draws the ghost text's spaces as no-break spaces.
  const ghostText = async () => (await ghost().allTextContents()).join("").replaceAll("\u00a0", " ");

  before(async () => {
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, FILE), SOURCE);
    // The folder's settings file exists from the start: the last step changes it, and the editor's watcher
    // of a settings file created later missed the change in a CI run (the chat model kept completing).
    fs.mkdirSync(path.join(workspace, ".vscode"));
    fs.writeFileSync(folderSettings, "{}");
    page = await startWorkbench(started, {
      scratch,
      workspace,
      settings: {
        "hearth.model": ensureFixtureModels().fim,
        "hearth.inference.threads": 1,
        "hearth.inference.contextSize": 4096,
        // No tool definitions: the loading chat's prompt stays small.
        "hearth.tools.enabled": [],
        "hearth.inference.gpu": "off",
      },
      env: { HEARTH_HOME: path.join(scratch, "hearth-home") },
      mark: clock.mark,
    });
    // A completion never loads a model: a chat does, once.
    await openChatView(page, EXTENSION_ID);
    await sendChat(page, EXTENSION_ID, "hello");
    await turnEnds(page, EXTENSION_ID, 1);
    clock.mark("model loaded by a chat turn");
  });

  after(() => end(passed === 3));

  it("shows the model's middle as ghost text in a TypeScript file, and keeps the rest shown while the person types it", async () => {
    await page.keyboard.press("Control+P");
    await page.locator(".quick-input-widget input").fill(FILE);
    await page.locator(".quick-input-list .monaco-list-row").first().waitFor({ state: "visible" });
    await page.keyboard.press("Enter");
    await page.locator(".monaco-editor .view-line").nth(1).waitFor({ state: "visible", timeout: 30_000 });
    await page.locator(".monaco-editor .view-line").nth(1).click();
    await page.keyboard.press("End");
    // The fixture writes its middle whatever precedes it: asked on the empty line, it is the whole line.
    // An edit asks for a suggestion; one undone by the next keystroke asks at the empty line.
    await page.keyboard.type("x");
    await page.keyboard.press("Backspace");
    await ghost().first().waitFor({ state: "visible", timeout: 60_000 });
    clock.mark("ghost text shown");
    await shot("ghost-text");
    assert.equal(await ghostText(), FIM_MODEL_MIDDLE, "the model's middle");
    await page.keyboard.type("retu");
    await waitFor(async () => (await ghostText()) === FIM_MODEL_MIDDLE.slice(4), 10_000, "the rest of the middle after what was typed");
    await shot("ghost-text-typed-into");
    passed++;
  });

  it("Tab accepts the suggestion into the file", async () => {
    await page.keyboard.press("Tab");
    await page.keyboard.press("Control+S");
    const file = path.join(workspace, FILE);
    const expected = SOURCE.replace("{\n  \n", `{\n  ${FIM_MODEL_MIDDLE}\n`);
    const deadline = Date.now() + 15_000;
    while (fs.readFileSync(file, "utf8") !== expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await shot("accepted");
    assert.equal(fs.readFileSync(file, "utf8"), expected);
    passed++;
  });

  it("typing on cancels the suggestion in flight, on a completion model named beside the chat model", async () => {
    // The folder's kernel is detached: its log is under HEARTH_HOME/run, not the window's.
    const runDir = path.join(scratch, "hearth-home", "run");
    const log = () =>
      fs
        .readdirSync(runDir)
        .filter((f) => f.endsWith(".log"))
        .map((f) => fs.readFileSync(path.join(runDir, f), "utf8"))
        .join("\n");
    // Qwen2.5-0.5B-shaped with fill-in-the-middle tokens: a suggestion takes about a second on one
    // thread, so a keystroke a few hundred milliseconds after the last lands while it is made.
    const completionModel = ensureFixtureModels({ bench: true }).bench;
    fs.writeFileSync(folderSettings, JSON.stringify({ "hearth.completions.model": completionModel }));
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("const total = ");
    // The setting reaches the editor through its file watcher: a keystroke every few seconds until a
    // request has named the model and the kernel has loaded it (a cancel ends a wait, not the load).
    const loaded = `completion model loaded: ${completionModel}`;
    const deadline = Date.now() + 150_000;
    while (!log().includes(loaded)) {
      assert.ok(Date.now() < deadline, `the completion model did not load in 150 s; the kernel's log ends:\n${log().slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 5_000));
      if (!log().includes(loaded)) await page.keyboard.type(" ");
    }
    clock.mark("completion model loaded");
    const cancelled = () => (log().match(/completion cancelled by the editor after \d+ ms/g) ?? []).length;
    const before = cancelled();
    for (const ch of "sum(a, b)") {
      await page.keyboard.type(ch);
      await new Promise((r) => setTimeout(r, 400));
      if (cancelled() > before) break;
    }
    await waitFor(async () => cancelled() > before, 10_000, "a suggestion in flight cancelled by the next keystroke");
    clock.mark("a keystroke cancelled the suggestion in flight");
    await shot("typing-cancels");
    passed++;
  });
});
