// biome-ignore-all lint/suspicious/noTemplateCurlyInString: prompt file texts, whose ${…} variables are the subject
// Prompt files as slash commands in a real workbench (issue 27, item 3): typing `/` lists the
// workspace's prompt files under the built-in commands, with their descriptions, a file named like
// a built-in and a malformed one listed with why; `/explain the journal` picked with the keyboard
// asks its `${input:…}` question in VS Code's input box, and the expansion is the message the model
// is shown, in the file's mode (the scripted round fails the turn otherwise); `/quote` sends the
// active editor's file and selected text, in the composer's mode.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { newScenario } from "./support/scenario.js";
import { openActivityBarContainer, webviewViewFrame } from "./support/webview.js";
import { scriptedModel, startWorkbench, turnEnds } from "./support/scriptedChat.js";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;

describe("prompt files as slash commands in a real VS Code workbench (issue 27)", { timeout: 180_000 }, () => {
  const { scratch, workspace, started, shot, end } = newScenario("prompts", "hearth-e2e-prompts-");
  let passed = false;

  before(async () => {
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
      fs.writeFileSync(path.join(workspace, rel), text);
    };
    write(
      ".github/prompts/explain.prompt.md",
      "---\ndescription: Explain a topic\nmode: ask\nargument-hint: TOPIC\n---\nExplain {{args}} for ${input:audience:who reads it}.\n",
    );
    write(".hearth/prompts/new.md", "Not the built-in.\n");
    write(".hearth/prompts/quote.md", "---\ndescription: Quote the selection\n---\nIn ${file}: ${selection}\n");
    write("src/lib.ts", "alpha\nbeta\ngamma\n");
    write(".hearth/prompts/bad.md", "---\nmode: [ask\n---\nx\n");
    const script = path.join(scratch, "script.json");
    fs.writeFileSync(
      script,
      JSON.stringify({
        rounds: [
          {
            expectUsers: ["Explain the journal for new contributors."],
            expectTools: ["list_dir", "read_file", "search_files"],
            expectSystemIncludes: ["# Mode: Ask"],
            text: ["Explained."],
          },
          {
            expectUsers: ["Explain the journal for new contributors.", "In src/lib.ts: beta"],
            expectSystemExcludes: ["# Mode: Ask"],
            text: ["Quoted."],
          },
        ],
      }),
    );
    const model = scriptedModel(script, { HEARTH_HOME: path.join(scratch, "hearth") });
    await startWorkbench(started, { scratch, workspace, ...model });
  });

  after(async () => {
    await end(passed);
  });

  it("`/` lists the prompt files; /explain asks its question and sends the expansion in Ask mode", async () => {
    const page = started.browser!.page;
    await openActivityBarContainer(page, "Hearth");
    const view = webviewViewFrame(page, EXTENSION_ID);
    const box = view.locator("#message textarea");
    await box.fill("/", { timeout: 60_000 });
    const items = view.locator('[data-testid="slash-item"]');
    await view.locator('[data-testid="slash-item"].prompt').first().waitFor({ state: "visible", timeout: 30_000 });
    assert.deepEqual(await items.locator(".slash-name").allTextContents(), [
      "/new",
      "/compact",
      "/undo",
      "/task MESSAGE",
      "/mode NAME",
      "/bad",
      "/new",
      "/quote",
      "/explain TOPIC",
    ]);
    const hints = await items.locator(".slash-hint").allTextContents();
    assert.match(hints[5]!, /bad\.md: its front matter is not YAML/);
    assert.match(hints[6]!, /\/new is a built-in command, which runs instead; rename \.hearth\/prompts\/new\.md/);
    assert.equal(hints[8], "Explain a topic");
    await box.press("ArrowUp"); // wraps to the last entry, which the list scrolls into sight
    await shot("prompt-files-listed");

    await box.fill("/ex");
    // The list filters as the box changes: Enter picks what is highlighted once it is the match.
    await view.locator('[data-testid="slash-item"].active', { hasText: "/explain" }).waitFor({ state: "visible", timeout: 10_000 });
    await box.press("Enter");
    assert.equal(await box.inputValue(), "/explain ");
    await page.keyboard.type("the journal");
    await box.press("Enter");
    const question = page.locator(".quick-input-widget input");
    await question.waitFor({ state: "visible", timeout: 15_000 });
    assert.equal(await question.getAttribute("placeholder"), "who reads it");
    await shot("prompt-question");
    await question.fill("new contributors");
    await question.press("Enter");
    assert.equal(await turnEnds(page, EXTENSION_ID, 1), "completed", "the model was shown the expansion, in Ask mode");
    await shot("prompt-sent");
    passed = true;
  });

  it("${file} and ${selection} are the active editor's: /quote sends them, in the composer's mode", async () => {
    passed = false;
    const page = started.browser!.page;
    // Quick Open is the workbench's key, and the chat's webview has the focus: press again if it went there.
    const quickInput = page.locator(".quick-input-widget input");
    for (let tries = 0; !(await quickInput.isVisible()); tries++) {
      assert.ok(tries < 5, "Quick Open did not open");
      await page.locator(".part.editor").first().click();
      await page.keyboard.press("Control+P");
      await quickInput.waitFor({ state: "visible", timeout: 3_000 }).catch(() => undefined);
    }
    await quickInput.fill("lib.ts");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "lib.ts" }).first().click();
    await page.locator(".monaco-editor .view-line", { hasText: "beta" }).first().click();
    await page.keyboard.press("Home");
    await page.keyboard.press("Shift+End");
    const view = webviewViewFrame(page, EXTENSION_ID);
    const box = view.locator("#message textarea");
    await box.fill("/quote");
    await box.press("Escape"); // closes the list: Enter sends
    await box.press("Enter");
    assert.equal(await turnEnds(page, EXTENSION_ID, 2), "completed", "the model was shown the file and the selected text");
    assert.equal(await view.locator('[data-testid="user-message"]').last().locator(".body").textContent(), "In src/lib.ts: beta");
    await shot("prompt-selection-sent");
    passed = true;
  });
});
