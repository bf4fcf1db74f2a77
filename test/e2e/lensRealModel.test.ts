// The approve-edit code lenses (issue 14) once through real inference: the workbench's Hearth runs
// the synthetic tool-call model (test/fixtures/models.ts) on node-llama-cpp, so every proposal here
// is what the model really generated, not a script. Its random weights talk nonsense; the test
// asserts the path a proposal takes, not its text: the proposal opens in its file with pending-hunk
// decorations and the Accept / Reject / Show diff lenses; Accept makes the file on disk exactly what
// Show diff showed and what the journal recorded; Reject of the next proposal writes nothing, the
// turn goes on to the batch's next call, and the loop guard ends it as docs/harness.md says.
// Screenshots of each step are kept in the run folder.
//
// How the model is steered (make-fixtures.mjs): its weights force a grammar-constrained tool call
// after each newline and close string arguments as soon as the grammar allows. Sampling is greedy
// (temperature 0), so with `hearth.tools.enabled` = ["edit_file"] it always answers one batch of
// identical calls edit_file {path: "Here", oldText: "Here", newText: ""} (the shortest strings the
// schema allows), as many as fit in the round's 1,024 tokens (about twenty).
// - The workspace's file `Here` holds "HHereere": "Here" occurs in it exactly once, and removing it
//   leaves "Here", which again occurs once. So call 1 is a valid edit (HHereere → Here) and so is
//   call 2 on what call 1 wrote (Here → empty line): two different real proposals in one batch.
// - `hearth.agent.repeatedFailureLimit` = 2: the second identical denial stops the turn, so the
//   twenty calls need three decisions, not twenty (a denial is a failing call to the loop guard).
//   The third call (after call 2 was rejected, still Here → empty line) is the second identical
//   denial; no call is left to propose against a file without its oldText (such a refused
//   proposal would not reach the person: the harness answers it with the refusal, docs/edits.md).
// The model never gets a round after the batch here: the guard ends the turn first.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { defaultJournalPath } from "../../shared/node/paths.js";
import { inputHashOf } from "../../sidecar/agent/canonicalJson.js";
import { ensureFixtureModels } from "../fixtures/models.js";
import { readHearthLog } from "./support/codeServer.js";
import type { Page } from "./support/playwright.js";
import { newScenario } from "./support/scenario.js";
import { lens, openChat, sendChat } from "./support/scriptedChat.js";
import { waitFor, webviewViewFrame } from "./support/webview.js";

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { publisher: string; name: string };
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;

// The file the model's edit_file names, with its oldText "Here" nested twice (see above).
const TARGET = "Here";
const ORIGINAL = "This file is edited by a model with random weights.\nHHereere\nThe line above holds its oldText nested twice.\n";
const APPROVAL = /approval: edit_file \(non_idempotent_write\) call (\S+) in run \S+ → (approve|deny) \(([^\n]*)\)/g;

interface JournaledCall {
  callId: string;
  name: string;
  arguments: Record<string, unknown>;
}
interface JournaledWrite {
  call_id: string;
  input_hash: string;
  path: string;
  existed_before: number;
  before_content: Buffer | null;
  after_sha256: string;
}

describe("approve-edit lenses through real inference on the synthetic tool-call model (issue 14)", { timeout: 240_000 }, () => {
  const { scratch, workspace, clock, started, shot, end } = newScenario("lensRealModel", "hearth-e2e-lensreal-");
  const hearthHome = path.join(scratch, "hearth-home");
  const targetPath = path.join(workspace, TARGET);
  let passed = 0;
  /** The call accepted in (a) and the bytes it left, for (b) to check against the journaled batch. */
  let accepted: { callId: string; bytes: Buffer } | undefined;
  const view = () => webviewViewFrame(started.browser!.page, EXTENSION_ID);
  const approvals = () =>
    [...readHearthLog(started.server!.userDataDir).matchAll(APPROVAL)].map((m) => ({ callId: m[1]!, decision: m[2]!, reason: m[3]! }));

  before(async () => {
    const { tool } = ensureFixtureModels();
    fs.mkdirSync(workspace);
    fs.writeFileSync(targetPath, ORIGINAL);
    await openChat(started, {
      scratch,
      workspace,
      settings: {
        "hearth.model": tool,
        "hearth.tools.enabled": ["edit_file"],
        "hearth.agent.repeatedFailureLimit": 2,
        "hearth.inference.threads": 1,
        "hearth.inference.contextSize": 4096,
        "hearth.inference.gpu": "off",
      },
      env: { HEARTH_HOME: hearthHome },
    });
    clock.mark("workbench and chat view open");
  });

  after(() => end(passed === 2));

  /** Waits for a pending proposal's lenses; on a timeout, says what the model did instead. */
  async function proposalDrawn(): Promise<void> {
    await lens(started.browser!.page, "Accept (1 hunk)")
      .waitFor({ state: "visible", timeout: 60_000 })
      .catch(async (e: Error) => {
        const calls = await view().locator('[data-testid="tool-call"]').allTextContents();
        const results = await view().locator('[data-testid="tool-result"]').allTextContents();
        throw new Error(`${e.message}\nthe model's calls: ${JSON.stringify(calls)}; results: ${JSON.stringify(results)}`);
      });
  }

  /**
   * Clicks a top lens and waits for the Hearth log to record the answer, then for the answered
   * proposal's lenses to be gone from the page. The batch's next call draws the same titles, and a
   * lens the editor has not redrawn yet still carries the answered call (a click there only says
   * "already answered"): each rendering has fresh element ids (`c<n>`), so the stale ones are
   * awaited by id. A second click is made only if nothing was answered within 10 s.
   */
  async function answerWith(title: string): Promise<{ callId: string; decision: string; reason: string }> {
    const page = started.browser!.page;
    const before = approvals().length;
    const shown = await page.locator(".monaco-editor .codelens-decoration a").evaluateAll((links) => links.map((l) => l.id));
    for (let attempt = 0; attempt < 2; attempt++) {
      await lens(page, title)
        .first()
        .click({ timeout: 10_000 })
        .catch(() => undefined);
      const answered = await waitFor(() => approvals().length > before, 10_000, `an answer after ${title}`).then(
        () => true,
        () => false,
      );
      if (answered) break;
    }
    clock.mark(`answer ${before + 1} (${title}) logged`);
    const now = approvals();
    assert.equal(now.length, before + 1, `one answer for one ${title}: ${JSON.stringify(now.slice(before))}`);
    await waitFor(
      async () =>
        (await page.locator(".monaco-editor .codelens-decoration a").evaluateAll((links) => links.map((l) => l.id))).every(
          (id) => !shown.includes(id),
        ),
      10_000,
      `the lenses of the answered proposal to go (${title})`,
    );
    return now.at(-1)!;
  }

  /** The pending hunk as drawn (issue 25 item 9): the tops of the lines on the removed-line and on the inserted-line background. */
  async function drawn(page: Page): Promise<{ removedLines: string[]; addedLines: string[] }> {
    const editor = page.locator(".editor-group-container.active .monaco-editor").first();
    const rows = await editor.locator(".view-overlays > div").evaluateAll((all) =>
      all.flatMap((row) =>
        Array.from(row.children)
          .filter((d) => /\bced-/.test(d.className) && getComputedStyle(d).backgroundColor !== "rgba(0, 0, 0, 0)")
          .map((d) => ({
            top: (row as HTMLElement).style.top,
            rgb: (getComputedStyle(d).backgroundColor.match(/\d+/g) ?? []).map(Number),
          })),
      ),
    );
    // Red has more red than green, green the other way round (any theme's diff colours).
    const removedLines = rows.filter((r) => r.rgb[0]! > r.rgb[1]!).map((r) => r.top);
    const addedLines = rows.filter((r) => r.rgb[0]! <= r.rgb[1]!).map((r) => r.top);
    return { removedLines, addedLines };
  }

  function journal(): { calls: JournaledCall[]; writes: JournaledWrite[] } {
    const db = new Database(defaultJournalPath(workspace, { HEARTH_HOME: hearthHome }), { readonly: true, fileMustExist: true });
    try {
      const bodies = db.prepare("SELECT body_json FROM conversation_journal WHERE role = 'assistant' ORDER BY session_id, seq").all() as {
        body_json: string;
      }[];
      const calls = bodies.flatMap((row) => (JSON.parse(row.body_json) as { toolCalls?: JournaledCall[] }).toolCalls ?? []);
      const writes = db
        .prepare(
          `SELECT ti.call_id, ti.input_hash, fw.path, fw.existed_before, fw.before_content, fw.after_sha256
           FROM file_writes fw JOIN tool_invocations ti ON ti.invocation_id = fw.invocation_id ORDER BY fw.created_at`,
        )
        .all() as JournaledWrite[];
      return { calls, writes };
    } finally {
      db.close();
    }
  }

  it("(a) a real proposal opens in its file with decorations and lenses; Accept makes the file exactly what Show diff showed and the journal recorded", async () => {
    const page = started.browser!.page;
    await sendChat(page, EXTENSION_ID, "Change the file Here, please.");
    await proposalDrawn();
    clock.mark("first proposal drawn");
    assert.equal(await lens(page, "Reject").count(), 1);
    assert.equal(await lens(page, "Show diff").count(), 1);
    assert.equal(await lens(page, "Reject this hunk").count(), 1, "one lens over the one hunk");
    assert.match((await page.locator(".tabs-container .tab.active").first().textContent()) ?? "", /^\s*Here\b/, "the target is open");
    assert.equal(await page.locator(".monaco-dialog-box").count(), 0, "no modal dialog");
    const pending = await drawn(page);
    assert.equal(
      pending.removedLines.length,
      1,
      `the line the proposal replaces is on the removed-line background: ${JSON.stringify(pending)}`,
    );
    assert.equal(pending.addedLines.length, 1, `the proposed line is drawn as a line of its own: ${JSON.stringify(pending)}`);
    assert.equal(fs.readFileSync(targetPath, "utf8"), ORIGINAL, "nothing is written before Accept");
    await shot("1-proposal-pending");

    // Show diff: the proposal whole, in its own tab; it answers nothing.
    await lens(page, "Show diff").click();
    const diff = page.locator(".monaco-diff-editor").first();
    await diff.waitFor({ state: "visible", timeout: 30_000 });
    assert.match((await page.locator(".tabs-container .tab.active").first().textContent()) ?? "", /Here \(proposed by Hearth\)/);
    await diff.locator(".editor.modified .view-line").first().waitFor({ state: "visible", timeout: 10_000 });
    const shownLines = await diff.locator(".editor.modified .view-line").evaluateAll((lines) =>
      lines
        .map((l) => ({ top: Number.parseFloat((l as HTMLElement).style.top), text: (l.textContent ?? "").replace(/\u00a0/g, " ") }))
        .sort((a, b) => a.top - b.top)
        .map((l) => l.text),
    );
    // The left side is the file as it is: the proposal's drawings (its `+ …` text) stay out of it.
    const originalSide = await diff
      .locator(".editor.original .view-lines span")
      .evaluateAll((spans) => spans.map((s) => getComputedStyle(s, "::after").content).filter((c) => c && c !== "none" && c !== "normal"));
    await shot("2-show-diff");
    assert.deepEqual(originalSide, [], "Show diff's side of the file as it is carries no proposed text");
    assert.deepEqual(approvals(), [], "Show diff answers nothing");
    await page.locator(".tabs-container .tab").first().click(); // the pending file's tab, beside the diff's
    await lens(page, "Accept (1 hunk)").waitFor({ state: "visible", timeout: 30_000 });

    const answer = await answerWith("Accept (1 hunk)");
    assert.deepEqual(
      [answer.decision, answer.reason],
      ["approve", "accepted in the editor: the proposed change to Here as shown (1 hunk)"],
    );
    await waitFor(() => fs.readFileSync(targetPath, "utf8") !== ORIGINAL, 30_000, "the kernel to write the accepted proposal");
    clock.mark("accepted proposal written");
    const written = fs.readFileSync(targetPath);
    accepted = { callId: answer.callId, bytes: written };
    // What the person saw in Show diff is what landed (an editor shows a text's lines).
    assert.deepEqual(written.toString("utf8").split("\n"), shownLines, "the file on disk is what Show diff showed");
    // The journal keeps the accepted call's write: the file as it was, and the hash of exactly these bytes.
    const { writes } = journal();
    assert.equal(writes.length, 1, "one write, the accepted one");
    const [write] = writes;
    assert.deepEqual([write!.call_id, write!.path, write!.existed_before], [answer.callId, TARGET, 1]);
    assert.deepEqual(write!.before_content, Buffer.from(ORIGINAL), "the journal's pre-image is the file as it was");
    assert.equal(write!.after_sha256, createHash("sha256").update(written).digest("hex"), "the kernel wrote exactly these bytes");
    passed++;
  });

  it("(b) Reject of the batch's next real proposal writes nothing; the turn goes on to the next call, and the loop guard ends it after the second identical denial", async () => {
    const page = started.browser!.page;
    const before = fs.readFileSync(targetPath);
    // The batch's next call is proposed against what call 1 wrote, and drawn at once.
    await proposalDrawn();
    await page
      .locator(".editor-group-container.active .monaco-editor .view-line")
      .filter({ hasText: /^Here$/ })
      .waitFor({ state: "visible", timeout: 10_000 });
    assert.equal((await drawn(page)).removedLines.length, 1, "the next proposal's hunk is drawn");
    await shot("3-accepted-next-pending");
    const first = await answerWith("Reject");
    assert.deepEqual(
      [first.decision, first.reason],
      ["deny", "the person rejected the proposed change to Here in the editor; nothing was written"],
    );
    // The turn went on: the batch's next (identical) call is proposed and drawn again.
    await proposalDrawn();
    assert.deepEqual(fs.readFileSync(targetPath), before, "a rejected proposal writes nothing");
    const second = await answerWith("Reject");
    assert.notEqual(second.callId, first.callId, "another call of the batch");
    const status = view().locator('[data-testid="turn-status"]').first();
    await status.waitFor({ state: "attached", timeout: 60_000 });
    clock.mark("turn stopped after two rejections");
    assert.equal(await status.getAttribute("data-status"), "stopped", `the turn's status reads: ${await status.textContent()}`);
    assert.match(
      (await status.textContent()) ?? "",
      /^Stopped: the model made the same failing call 2 times \(edit_file \{"path":"Here","oldText":"Here","newText":""\}\)/,
    );
    await lens(page, "Reject").waitFor({ state: "detached", timeout: 10_000 });
    assert.deepEqual(fs.readFileSync(targetPath), before, "byte-identical: the rejections wrote nothing");
    // The batch is journaled when the turn ends: the model's calls as it proposed them. The accepted
    // one, applied to the file as it was, is exactly what was written, and it is the call the ledger
    // dispatched (its input hash).
    const { calls, writes } = journal();
    assert.equal(writes.length, 1, "the journal still records only the accepted write");
    assert.ok(calls.length >= 3, `the model proposed a batch of calls: ${JSON.stringify(calls)}`);
    const call = calls.find((c) => c.callId === accepted!.callId);
    assert.ok(call, `the accepted call ${accepted!.callId} is journaled`);
    assert.deepEqual([call.name, call.arguments.path], ["edit_file", TARGET]);
    const { oldText, newText } = call.arguments as { oldText: string; newText: string };
    assert.equal(ORIGINAL.split(oldText).length, 2, "the model's oldText occurred exactly once in the file");
    assert.equal(accepted!.bytes.toString("utf8"), ORIGINAL.replace(oldText, newText), "the file is exactly the journaled proposal");
    assert.equal(writes[0]!.input_hash, inputHashOf(call.arguments), "the ledger dispatched exactly that call");
    const results = await view().locator('[data-testid="tool-result"]').allTextContents();
    assert.equal(
      results.filter((r) => r.includes("the person rejected the proposed change to Here in the editor")).length,
      2,
      JSON.stringify(results),
    );
    assert.equal(approvals().length, 3, "one answer per request: one accept, two rejections");
    await status.scrollIntoViewIfNeeded();
    await shot("4-stopped");
    passed++;
  });
});
