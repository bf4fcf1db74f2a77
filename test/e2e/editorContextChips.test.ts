// Context from the editor (issue 29 item 3) in a real workbench with Hearth's .vsix and a scripted
// model (test/fixtures/scripts/problems-chip.json): a TypeScript file with a type error gets its
// diagnostic from the workbench's own TypeScript server; @problems, picked from the @ menu, becomes a
// chip with its kind and size; sent, the model is shown exactly the Problems text (the script checks
// it) and the sent message keeps the chip. @changes with Git turned off (the e2e workbench's setting)
// is refused with what to do. A command run in a bash terminal (shell integration) is attached with
// @terminal, and the model is shown the command, its exit code and folder, and its output exactly (the
// round is added to the script here, since it names the workspace's path). A web page on a loopback
// server is attached with @url: the turn's first call is web_fetch, allowed on its chat card, and the
// model is shown the page as its result. Screenshots land in the run folder (test/e2e/.runs/editorContextChips-*).
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { newScenario } from "./support/scenario.js";
import { openChat, scriptedModel, sendChat, turnEnds } from "./support/scriptedChat.js";
import { pickFromAtMenu as pickFrom, quickOpen, runCommand, webviewViewFrame } from "./support/webview.js";
import type { FrameLocator } from "./support/playwright.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
const SCRIPT = path.join(ROOT, "test/fixtures/scripts/problems-chip.json");
const STEPS = 4;
const COMMAND = "echo hearth-terminal-check";

describe("context from the editor: @problems and @changes chips (issue 29 item 3)", { timeout: 300_000 }, () => {
  const { scratch, workspace, clock, started, page, shot, end } = newScenario("editorContextChips", "hearth-e2e-chips-");
  let passed = 0;
  const view = (): FrameLocator => webviewViewFrame(page(), EXTENSION_ID);
  const quickInput = () => page().locator(".quick-input-widget input");
  let server: http.Server | undefined;
  let pageUrl = "";

  /** Types "@" after `prefix` in the message box and picks the row of the @ menu that shows `text`. */
  const pickFromAtMenu = (prefix: string, filter: string, text: string, menuShot?: string) =>
    pickFrom(page(), view(), `${prefix}@`, filter, text, async () => {
      if (!menuShot) return;
      await page().locator(".quick-input-list .monaco-list-row", { hasText: "@terminal" }).first().waitFor({ state: "visible" });
      await shot(menuShot);
    });

  before(async () => {
    fs.mkdirSync(workspace, { recursive: true });
    // Exported, so the TypeScript server reports the type error alone (an unused local would add a hint).
    fs.writeFileSync(path.join(workspace, "broken.ts"), 'export const n: number = "x";\n');
    // The fixture's round for @problems, then one for @terminal, which names the workspace's path.
    const script = path.join(scratch, "script.json");
    const fixture = JSON.parse(fs.readFileSync(SCRIPT, "utf8")) as { rounds: { expectUsers: string[] }[] };
    const terminal = `$ ${COMMAND}\n(exit code 0, in ${workspace})\nhearth-terminal-check\n`;
    const users = [...fixture.rounds[0]!.expectUsers, `And this\n\n<attached terminal="bash">\n${terminal}</attached>`];
    fixture.rounds.push({ text: ["It printed its word."], expectUsers: users } as (typeof fixture.rounds)[number]);
    // @url: the kernel proposes the fetch in the model's place (round 3 is never asked); the model's
    // round after it must be shown the page as the fetch's result.
    const srv = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body><h1>Release notes</h1><p>Version 2 drops Node 18.</p></body></html>");
    });
    server = srv;
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    pageUrl = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/notes`;
    const fetched = `HTTP 200 ${pageUrl}\n\nRELEASE NOTES\n\nVersion 2 drops Node 18.`;
    fixture.rounds.push(
      { text: ["never: the kernel fetches first"] } as unknown as (typeof fixture.rounds)[number],
      { text: ["Version 2 drops Node 18."], expectToolOutputs: [fetched] } as unknown as (typeof fixture.rounds)[number],
    );
    fs.writeFileSync(script, JSON.stringify(fixture));
    // bash, whose shell integration VS Code injects: the terminal's commands and output are told apart.
    const model = scriptedModel(script);
    const settings = {
      ...model.settings,
      "terminal.integrated.defaultProfile.linux": "bash",
      "terminal.integrated.shellIntegration.enabled": true,
      // The DOM renderer, so the prompt's text can be awaited before typing, as a person would.
      "terminal.integrated.gpuAcceleration": "off",
      // @url fetches with web_fetch, which is opt-in.
      "hearth.tools.webFetch": true,
    };
    await openChat(started, { scratch, workspace, env: model.env, settings });
    clock.mark("workbench and chat view open");
  });

  after(async () => {
    server?.closeAllConnections();
    server?.close();
    await end(passed === STEPS);
  });

  it("@problems carries the TypeScript error as a chip with its kind and size, and the model is shown exactly that text", async () => {
    // broken.ts in the editor: the TypeScript server reports diagnostics of the files that are open.
    await quickOpen(page(), "broken.ts");
    await page().locator(".monaco-editor .squiggly-error").first().waitFor({ state: "attached", timeout: 120_000 });
    clock.mark("the TypeScript error is in the editor");
    await shot("a-typescript-error");

    await pickFromAtMenu("Fix it ", "@problems", "the workspace's problems", "b-at-menu");
    const chips = view().locator('[data-testid="composer-chips"] [data-testid="context-chip"]');
    await chips.first().waitFor({ state: "visible", timeout: 15_000 });
    assert.equal(await chips.first().getAttribute("data-kind"), "problems");
    assert.equal(await chips.first().locator(".chip-label").textContent(), "problems: workspace");
    assert.match((await chips.first().locator('[data-testid="chip-size"]').textContent()) ?? "", /^\d+ B$/);
    assert.equal(await view().locator("#message textarea").inputValue(), "Fix it ", "the @ is not kept in the message");
    await shot("c-problems-chip-before-send");

    await sendChat(page(), EXTENSION_ID, "Fix it");
    // The script's round fails the turn unless the model is shown the typed text and the Problems text exactly.
    assert.equal(
      await turnEnds(page(), EXTENSION_ID, 1),
      "completed",
      (await view().locator('[data-testid="turn-status"]').first().textContent()) ?? "",
    );
    const sent = view().locator('[data-testid="user-message"]').last();
    assert.equal(await sent.locator(".body").textContent(), "Fix it");
    assert.deepEqual(await sent.locator('[data-testid="context-chip"] .chip-label').allTextContents(), ["problems: workspace"]);
    assert.equal(await chips.count(), 0, "the composer's chip goes with the message");
    await sent.scrollIntoViewIfNeeded();
    await shot("d-problems-chip-sent");
    passed++;
  });

  it("@changes with Git turned off is refused, saying why and what to do; no chip is added", async () => {
    await pickFromAtMenu("", "@changes", "the working tree's diff");
    const notice = view().locator(".notice").filter({ hasText: "git.enabled is false" }).last();
    await notice.waitFor({ state: "attached", timeout: 30_000 });
    assert.match(
      (await notice.textContent()) ?? "",
      /^The changes were not attached: Git is turned off in this window \(git\.enabled is false\)\. Turn it on, then attach @changes again\.$/,
    );
    assert.equal(await view().locator('[data-testid="composer-chips"] [data-testid="context-chip"]').count(), 0);
    await notice.scrollIntoViewIfNeeded();
    await shot("e-changes-refused");
    passed++;
  });

  it("@terminal carries the last command of a bash terminal with its exit code, folder and output; the model is shown exactly that", async () => {
    await runCommand(page(), "Terminal: Create New Terminal");
    const terminal = page().locator(".terminal-wrapper .xterm").first();
    await terminal.waitFor({ state: "visible", timeout: 30_000 });
    await terminal.locator(".xterm-rows", { hasText: /[#$] *$/ }).waitFor({ state: "visible", timeout: 30_000 });
    await terminal.click();
    await page().keyboard.type(COMMAND);
    await page().keyboard.press("Enter");
    const chips = view().locator('[data-testid="composer-chips"] [data-testid="context-chip"]');
    // The terminal draws on a canvas, so its text cannot be awaited: the command's end reaches the
    // extension once it ran; ask again while the chip is refused because none has ended yet.
    for (let tries = 0; (await chips.count()) === 0; tries++) {
      assert.ok(tries < 10, `no terminal chip: ${await view().locator(".notice").last().textContent()}`);
      await pickFromAtMenu("", "@terminal", "the active terminal's last command", tries === 0 ? "f-at-menu-terminal" : undefined);
      await chips
        .first()
        .waitFor({ state: "visible", timeout: 3_000 })
        .catch(() => undefined);
    }
    assert.equal(await chips.first().locator(".chip-label").textContent(), "terminal: bash");
    assert.match((await chips.first().locator('[data-testid="chip-size"]').textContent()) ?? "", /^\d+ B$/);
    await shot("g-terminal-chip-before-send");
    await sendChat(page(), EXTENSION_ID, "And this");
    // The script's round fails the turn unless the model is shown the command, how it ended and its output exactly.
    assert.equal(
      await turnEnds(page(), EXTENSION_ID, 2),
      "completed",
      (await view().locator('[data-testid="turn-status"]').nth(1).textContent()) ?? "",
    );
    const sent = view().locator('[data-testid="user-message"]').last();
    assert.deepEqual(await sent.locator('[data-testid="context-chip"] .chip-label').allTextContents(), ["terminal: bash"]);
    await sent.scrollIntoViewIfNeeded();
    await shot("h-terminal-chip-sent");
    passed++;
  });

  it("@url asks for a web page's address; sent, the turn's first call is web_fetch, allowed on its card, and the model is shown the page", async () => {
    await pickFromAtMenu("", "@url", "a web page");
    await page().locator(".quick-input-widget", { hasText: "Attach a web page" }).waitFor({ state: "visible", timeout: 15_000 });
    await quickInput().fill(pageUrl);
    await quickInput().press("Enter");
    const chips = view().locator('[data-testid="composer-chips"] [data-testid="context-chip"]');
    await chips.first().waitFor({ state: "visible", timeout: 15_000 });
    assert.equal(await chips.first().getAttribute("data-kind"), "url");
    assert.equal(await chips.first().locator(".chip-label").textContent(), `url: ${pageUrl}`);
    await shot("i-url-chip-before-send");
    await sendChat(page(), EXTENSION_ID, "What changed?");
    const card = view().locator('[data-testid="approval-card"]').last();
    await card.waitFor({ state: "visible", timeout: 60_000 });
    assert.match((await card.textContent()) ?? "", new RegExp(`fetch ${pageUrl.replace(/[.]/g, "\\.")}`));
    await shot("j-url-fetch-asks");
    await card.locator('[data-testid="approval-allow"]').click();
    // The script's round fails the turn unless the model is shown the page as the fetch's result.
    assert.equal(
      await turnEnds(page(), EXTENSION_ID, 3),
      "completed",
      (await view().locator('[data-testid="turn-status"]').nth(2).textContent()) ?? "",
    );
    const sent = view().locator('[data-testid="user-message"]').last();
    assert.deepEqual(await sent.locator('[data-testid="context-chip"] .chip-label').allTextContents(), [`url: ${pageUrl}`]);
    const fetchCard = view().locator(".tool-call", { hasText: "web_fetch" }).last();
    await fetchCard.scrollIntoViewIfNeeded();
    await shot("k-url-fetched-and-answered");
    passed++;
  });
});
