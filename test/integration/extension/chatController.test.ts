// The chat view's controller (extension side) against a real kernel through the real supervisor,
// with the scripted model: lazy session, streamed turn, history on reload, Stop, no model.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { ChatController, NO_MODEL } from "../../../extension/chat/chatController.js";
import { HISTORY_PAGE_MESSAGES } from "../../../extension/chat/transcriptMessage.js";
import type { KernelSupervisor } from "../../../extension/kernel/kernelSupervisor.js";
import type { ToWebview } from "../../../shared/protocol/webview.js";
import { isolatedEnv } from "../../support/cliProcess.js";
import { tempDir } from "../../support/kernelProcess.js";
import { quietLog, stopWindowKernels, windowKernel } from "../../support/windowKernel.js";

function script(root: string, rounds: unknown[]): string {
  const file = path.join(root, `script-${fs.readdirSync(root).filter((f) => f.startsWith("script")).length}.json`);
  fs.writeFileSync(file, JSON.stringify({ rounds }));
  return `scripted:${file}`;
}

function harness(rounds: unknown[], model?: string) {
  const root = tempDir("chat");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const log = quietLog;
  const env: Record<string, string> = { ...isolatedEnv(root, 5), HEARTH_ALLOW_SCRIPTED: "1" };
  // A window's supervisor on the folder's shared kernel; a reloaded window is a new one.
  const supervisor = () => windowKernel(workspace, env);
  const kernel = supervisor();
  let stored: string | undefined;
  const store = {
    get: () => stored,
    set: (id: string | undefined) => {
      stored = id;
    },
  };
  let spec = model ?? script(root, rounds);
  /** The person sets hearth.model to another model (a second script). */
  const setModel = (next: string) => {
    spec = next;
  };
  const controller = (
    on: KernelSupervisor = kernel,
  ): { chat: ChatController; posted: ToWebview[]; until(test: (m: ToWebview) => boolean): Promise<ToWebview> } => {
    const chat = new ChatController({ kernel: on, model: () => spec, store, log, restricted: () => false });
    const posted: ToWebview[] = [];
    const waiters: { test(m: ToWebview): boolean; resolve(m: ToWebview): void }[] = [];
    chat.attach((m) => {
      posted.push(m);
      for (const w of waiters.filter((w) => w.test(m))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    });
    const until = (test: (m: ToWebview) => boolean): Promise<ToWebview> => {
      const seen = posted.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such message; posted: ${JSON.stringify(posted.map((p) => p.type))}`)), 20_000);
        waiters.push({
          test,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    };
    return { chat, posted, until };
  };
  return { kernel, supervisor, workspace, store, controller, env, setModel, script: (r: unknown[]) => script(root, r) };
}

const completed = (m: ToWebview): boolean => m.type === "chat/event" && m.event.type === "completed";

describe("chat controller with a real kernel", () => {
  const kernels: KernelSupervisor[] = [];
  after(() => stopWindowKernels(kernels));

  it("with no model set it says how to set hearth.model, gives the message back to the box with its chips and never starts the kernel (nothing typed is lost, issue 25 item 6)", async () => {
    const h = harness([], "");
    kernels.push(h.kernel);
    const { chat, posted } = h.controller();
    const chip = { kind: "file" as const, path: "README.md" };
    await chat.send("hello", [chip]);
    assert.deepEqual(posted, [
      { type: "chat/notice", level: "error", message: NO_MODEL },
      { type: "chat/unsent", text: "hello", attachments: [chip] },
    ]);
    assert.match(NO_MODEL, /hearth\.model.*GGUF.*hf:.*openai:/);
    assert.equal(h.kernel.state.kind, "idle");
    assert.equal(h.store.get(), undefined);
  });

  it("the first message creates the session, the turn's deltas stream in order and equal the history a reloaded view shows (harness #3)", async () => {
    const h = harness([
      { reasoning: ["think"], text: ["Reading ", "notes."], toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
      { text: ["It says ", "alpha."] },
    ]);
    kernels.push(h.kernel);
    fs.writeFileSync(path.join(h.workspace, "notes.txt"), "alpha\n");
    const { chat, posted, until } = h.controller();
    await chat.send("what is in notes.txt?");
    await until(completed);
    const sessionId = h.store.get();
    assert.ok(sessionId, "the session id is remembered");
    const turn = posted.find((m) => m.type === "chat/turn");
    assert.deepEqual(turn && { type: turn.type, message: turn.type === "chat/turn" && turn.message }, {
      type: "chat/turn",
      message: "what is in notes.txt?",
    });
    const events = posted.flatMap((m) => (m.type === "chat/event" ? [m.event] : []));
    const answer = events.flatMap((e) => (e.type === "answer_delta" ? [e.text] : [])).join("");
    assert.equal(answer, "Reading notes.It says alpha.");
    assert.deepEqual(
      events.filter((e) => e.type === "tool_call" || e.type === "tool_result").map((e) => e.type),
      ["tool_call", "tool_result"],
    );
    assert.deepEqual(events.at(-1), { type: "completed", status: "completed" });
    assert.deepEqual(posted.at(-1), { type: "chat/busy", busy: false });
    chat.dispose();

    // A reloaded view (a new controller over the same workspaceState) shows the committed history.
    const reloaded = h.controller();
    await reloaded.chat.showTranscript();
    const transcript = await reloaded.until((m) => m.type === "chat/transcript");
    assert.ok(transcript.type === "chat/transcript");
    assert.equal(transcript.sessionId, sessionId);
    assert.deepEqual(
      transcript.messages.map((m) => m.role),
      ["user", "assistant", "tool", "assistant"],
    );
    const committed = transcript.messages.flatMap((m) => (m.role === "assistant" ? [m.text] : [])).join("");
    assert.equal(committed, answer);

    await reloaded.chat.newChat();
    assert.equal(h.store.get(), undefined, "New chat forgets the session");
    assert.deepEqual(reloaded.posted.at(-1), { type: "chat/transcript", sessionId: null, messages: [] });
    reloaded.chat.dispose();
  });

  it("a chat whose tools changed since it began offers a new chat carrying its conversation, and the old chat stays as it was (issue 25, item 2; harness #19)", async () => {
    const h = harness([{ text: ["The build uses esbuild."] }, { text: ["never reached"] }]);
    kernels.push(h.kernel);
    const { chat, posted, until } = h.controller();
    await chat.send("how is this built?");
    await until(completed);
    const oldSession = h.store.get();
    assert.ok(oldSession);
    // The person removes tools in the settings: the kernel restarts on the new list.
    h.env.HEARTH_TOOLS = "read_file";
    await h.kernel.restart();
    posted.length = 0;
    await chat.send("and the tests?");
    const failed = await until(completed);
    assert.ok(failed.type === "chat/event" && failed.event.type === "completed");
    assert.equal(failed.event.status, "failed");
    assert.match(
      failed.event.error?.message ?? "",
      /authority drifted \(tools changed/,
      "the view classifies it by these words (webview/turnStatus.ts)",
    );

    await chat.continueInNewChat();
    const unsent = await until((m) => m.type === "chat/unsent");
    assert.ok(unsent.type === "chat/unsent");
    assert.equal(
      unsent.carried,
      "The conversation so far, from an earlier chat:\n\nPerson: how is this built?\n\nHearth: The build uses esbuild.\n\nPerson: and the tests?",
    );
    assert.equal(h.store.get(), undefined, "a new chat is current");
    assert.deepEqual(
      posted.find((m) => m.type === "chat/transcript"),
      { type: "chat/transcript", sessionId: null, messages: [] },
    );
    const client = await h.kernel.ensureStarted();
    const old = await client.request("session/history", { sessionId: oldSession });
    assert.deepEqual(
      old.messages.map((m) => m.role),
      ["user", "assistant", "user"],
      "the old chat keeps its messages (in History)",
    );
    chat.dispose();
  });

  it("a chat whose tools changed goes on with its earlier tools when the person chooses them: said once, the refused message sent again and answered with those tools (issue 25 item 2)", async () => {
    const earlier = ["edit_file", "list_dir", "read_file", "search_files", "shell", "write_file"];
    const h = harness([
      { text: ["The build uses esbuild."] },
      { expectTools: earlier, expectUsers: ["how is this built?", "and the tests?"], text: ["With node --test."] },
    ]);
    kernels.push(h.kernel);
    const { chat, posted, until } = h.controller();
    await chat.send("how is this built?");
    await until(completed);
    const sessionId = h.store.get();
    h.env.HEARTH_TOOLS = "read_file";
    await h.kernel.restart();
    posted.length = 0;
    await chat.send("and the tests?");
    const failed = await until(completed);
    assert.ok(failed.type === "chat/event" && failed.event.type === "completed" && failed.event.status === "failed");
    posted.length = 0;

    await chat.chooseEarlierTools();
    const answered = await until(completed);
    assert.ok(answered.type === "chat/event" && answered.event.type === "completed");
    assert.equal(answered.event.status, "completed", JSON.stringify(answered.event));
    assert.deepEqual(
      posted.filter((m) => m.type === "chat/notice"),
      [
        {
          type: "chat/notice",
          level: "info",
          message: "This chat goes on with the tools it began with; new chats use the tools set now. Your message is sent again.",
        },
      ],
      "said once, in plain words",
    );
    assert.deepEqual(
      posted.flatMap((m) => (m.type === "chat/turn" ? [{ message: m.message, again: m.again }] : [])),
      [{ message: "and the tests?", again: true }],
      "sent again, and the view told that it shows the message already (once, as the model sees it)",
    );
    assert.equal(h.store.get(), sessionId, "the same chat goes on");
    chat.dispose();
  });

  it("a chat made with another model than the one set never swaps it silently: reopened, it says so; sending is refused with the message kept until the person chooses (issue 25 item 2)", async () => {
    const h = harness([{ text: ["Made with the first model."] }, { text: ["Still the first model."] }]);
    kernels.push(h.kernel);
    const { chat, posted, until } = h.controller();
    await chat.send("first question");
    await until(completed);
    const made = h.store.get();
    assert.ok(made);
    h.setModel(h.script([{ text: ["The second model answers."] }]));
    await chat.newChat();
    posted.length = 0;
    await chat.openSession(made);
    const said = await until((m) => m.type === "chat/notice");
    assert.ok(said.type === "chat/notice");
    assert.equal(said.kind, "modelMismatch");
    assert.match(
      said.message,
      /This chat was made with script-0\.json; Hearth now uses script-1\.json\. Sending here would load script-0\.json/,
    );
    posted.length = 0;
    await chat.send("second question", [{ kind: "file" as const, path: "a.txt" }]);
    const refused = posted.find((m) => m.type === "chat/notice");
    assert.ok(refused?.type === "chat/notice" && refused.kind === "modelMismatch" && /^Your message was not sent/.test(refused.message));
    assert.deepEqual(
      posted.find((m) => m.type === "chat/unsent"),
      { type: "chat/unsent", text: "second question", attachments: [{ kind: "file", path: "a.txt" }] },
      "the message and its chip go back to the box",
    );
    assert.equal(posted.filter((m) => m.type === "chat/turn").length, 0, "no turn started, so no model was loaded");
    await chat.keepChatModel();
    posted.length = 0;
    await chat.send("second question");
    const answered = await until(completed);
    assert.ok(answered.type === "chat/event" && answered.event.type === "completed" && answered.event.status === "completed");
    const text = posted.flatMap((m) => (m.type === "chat/event" && m.event.type === "answer_delta" ? [m.event.text] : [])).join("");
    assert.equal(text, "Still the first model.", "the person chose the chat's own model");
    chat.dispose();
  });

  it("switching the model continues the open chat in a new one that carries it, and says so (issue 25 item 2)", async () => {
    const h = harness([{ text: ["Answered by the first model."] }]);
    kernels.push(h.kernel);
    const { chat, posted, until } = h.controller();
    await chat.send("what is this repo?");
    await until(completed);
    const old = h.store.get();
    posted.length = 0;
    const next = h.script([{ text: ["x"] }]);
    h.setModel(next);
    await chat.modelSwitched(next);
    assert.equal(h.store.get(), undefined, "a new chat is current");
    const unsent = posted.find((m) => m.type === "chat/unsent");
    assert.ok(unsent?.type === "chat/unsent");
    assert.match(unsent.carried ?? "", /Person: what is this repo\?\n\nHearth: Answered by the first model\./);
    const notice = posted.find((m) => m.type === "chat/notice");
    assert.ok(notice?.type === "chat/notice");
    assert.match(
      notice.message,
      /^Hearth now uses script-1\.json\. The chat "what is this repo\?" was made with script-0\.json and stays in History as it was/,
    );
    const client = await h.kernel.ensureStarted();
    assert.equal((await client.request("session/history", { sessionId: old! })).messages.length, 2, "the old chat is kept as it was");
    chat.dispose();
  });

  it("a long chat opens at its latest page of whole turns, and the older page ends right before it: together, the whole chat in order (issue 26 item 4)", async () => {
    const TURNS = 110; // 220 messages: more than one page of HISTORY_PAGE_MESSAGES
    const h = harness(Array.from({ length: TURNS }, (_, i) => ({ text: [`answer ${i + 1}`] })));
    kernels.push(h.kernel);
    const first = h.controller();
    for (let i = 1; i <= TURNS; i++) {
      first.posted.length = 0;
      await first.chat.send(`question ${i}`);
      await first.until(completed);
    }
    first.chat.dispose();
    // The view reloads: a new controller on the same stored session.
    const { chat, posted, until } = h.controller();
    await chat.showTranscript();
    const latest = posted.find((m) => m.type === "chat/transcript");
    assert.ok(latest?.type === "chat/transcript" && latest.sessionId);
    assert.equal(latest.hasOlder, true);
    assert.ok(latest.messages.length <= HISTORY_PAGE_MESSAGES, `${latest.messages.length} messages in the first page`);
    assert.equal(latest.messages[0]?.role, "user", "the page starts at a turn, never inside one");
    assert.deepEqual(
      latest.messages.slice(-2).map((m) => (m.role === "tool" ? m.output : m.text)),
      [`question ${TURNS}`, `answer ${TURNS}`],
    );
    await chat.loadOlder(latest.sessionId, latest.messages[0]!.seq);
    const older = await until((m) => m.type === "chat/older");
    assert.ok(older.type === "chat/older");
    assert.equal(older.hasOlder, false);
    const client = await h.kernel.ensureStarted();
    const whole = await client.request("session/history", { sessionId: latest.sessionId });
    assert.deepEqual(
      [...older.messages, ...latest.messages].map((m) => m.seq),
      whole.messages.map((m) => m.seq),
      "the two pages are the whole chat, oldest first, nothing repeated or missing",
    );
    chat.dispose();
  });

  it("the transcript names the chat and each call's ledger state; a past chat reopens from the list; Compact condenses it and the transcript marks the range (issue 15 items 2-3, issue 13)", async () => {
    const h = harness([
      { text: ["First ", "answer."], toolCalls: [{ name: "read_file", arguments: { path: "missing.txt" } }] },
      { text: ["No such file."] },
      { text: ["Second answer."] },
      { text: ["The person asked about missing.txt and then asked again."] },
    ]);
    kernels.push(h.kernel);
    const { chat, posted, until } = h.controller();
    await chat.send("read missing.txt");
    await until(completed);
    const first = h.store.get()!;
    const named = posted.find((m) => m.type === "chat/transcript" && m.sessionId === first);
    assert.ok(named?.type === "chat/transcript" && named.session, "the new chat's transcript names it at once");
    assert.equal(named.session.title, "read missing.txt");
    assert.match(named.session.model, /^scripted:/);
    await chat.send("and again?");
    await until((m) => m.type === "chat/busy" && !m.busy && posted.filter(completed).length === 2);

    // Compact: the earlier turn is condensed for the model; the transcript carries the condensation.
    posted.length = 0;
    await chat.compact();
    const notice = await until((m) => m.type === "chat/notice");
    assert.ok(notice.type === "chat/notice");
    assert.match(notice.message, /^Compacted: the model now sees a summary of the earlier turns/, notice.message);
    const compacted = posted.find((m) => m.type === "chat/transcript");
    assert.ok(compacted?.type === "chat/transcript" && compacted.condensations?.length === 1);
    const c = compacted.condensations[0]!;
    assert.equal(c.trigger, "on_demand");
    assert.equal(c.fromSeq, compacted.messages[0]!.seq);
    assert.ok(
      c.throughSeq !== null && c.throughSeq < compacted.messages.findLast((m) => m.role === "user")!.seq,
      "the last turn stays whole",
    );
    assert.equal(compacted.messages.length, 6, "every message stays in the transcript");
    const call = compacted.messages.find((m) => m.role === "tool");
    assert.ok(call?.role === "tool");
    assert.deepEqual(compacted.calls?.[call.callId]?.status, "failed", "the card's state is the ledger's");

    // A new chat, then the first one reopened from the history list.
    await chat.newChat();
    await chat.openSession(first);
    assert.equal(h.store.get(), first, "the reopened chat is remembered across reloads");
    const reopened = posted.findLast((m) => m.type === "chat/transcript");
    assert.ok(reopened?.type === "chat/transcript");
    assert.equal(reopened.sessionId, first);
    assert.equal(reopened.messages.length, 6);
    chat.dispose();
  });

  it("a view reloaded mid-turn follows the running turn, and Stop cancels it: the view is told it ended cancelled is told it ended cancelled (control plane #13: truthful cancellation)", async () => {
    const h = harness([{ text: ["slow ", "answer ", "that ", "never ", "ends"], delayMs: 500 }]);
    kernels.push(h.kernel);
    const { chat, posted, until } = h.controller();
    await chat.send("go");
    await until((m) => m.type === "chat/event" && m.event.type === "answer_delta");
    // The view reloads mid-turn: it gets the committed transcript and then follows the running turn.
    await chat.showTranscript();
    const follow = posted.find((m) => m.type === "chat/turn" && m.message === null);
    assert.ok(follow, "a reloaded view is told which turn is still running");
    await chat.stop();
    const done = await until(completed);
    assert.ok(done.type === "chat/event" && done.event.type === "completed");
    assert.equal(done.event.status, "cancelled");
    assert.deepEqual(posted.at(-1), { type: "chat/busy", busy: false });
    chat.dispose();
  });

  it("a window reloaded mid-turn joins the kernel, which kept running the turn, and the new view follows it to its end (issue 12, item 2: the kernel outlives the window)", async () => {
    const h = harness([{ text: ["one ", "two ", "three ", "four"], delayMs: 400 }]);
    const { chat, until } = h.controller();
    await chat.send("count");
    await until((m) => m.type === "chat/event" && m.event.type === "answer_delta");
    const pid = h.kernel.pid!;
    // The window goes: its controller and supervisor are disposed; the kernel goes on.
    chat.dispose();
    await h.kernel.dispose();
    const window2 = h.supervisor();
    kernels.push(window2);
    const reloaded = h.controller(window2);
    await reloaded.chat.showTranscript();
    assert.equal(window2.pid, pid, "the reloaded window joined the running kernel");
    const done = await reloaded.until(completed);
    assert.ok(done.type === "chat/event" && done.event.type === "completed");
    assert.equal(done.event.status, "completed", "the turn ran to its end across the reload");
    // The view shows the history before the turn, then the whole turn: what streamed before the
    // reload (from turn/follow) and after it, as if it had never left.
    const shown = reloaded.posted.slice(reloaded.posted.findLastIndex((m) => m.type === "chat/transcript"));
    assert.ok(shown[0]?.type === "chat/transcript");
    assert.deepEqual(
      { sessionId: shown[0].sessionId, messages: shown[0].messages },
      { sessionId: h.store.get(), messages: [{ seq: 1, role: "user", text: "count" }] },
    );
    assert.deepEqual({ ...shown[1], turnId: "" }, { type: "chat/turn", turnId: "", message: null }, "the view is told a turn is running");
    const answer = shown.flatMap((m) => (m.type === "chat/event" && m.event.type === "answer_delta" ? [m.event.text] : [])).join("");
    assert.equal(answer, "one two three four");
    assert.deepEqual(reloaded.posted.at(-1), { type: "chat/busy", busy: false });
    reloaded.chat.dispose();
  });

  it("a kernel killed mid-turn: once a new kernel serves, the view says the turn ended without an answer and why, and the chat is free again (issue 12: crash → the next kernel reconciles)", async () => {
    const h = harness([{ text: ["never ", "finished"], delayMs: 2000 }]);
    kernels.push(h.kernel);
    const { chat, posted, until } = h.controller();
    await chat.send("go");
    await until((m) => m.type === "chat/turn");
    const pid = h.kernel.pid!;
    process.kill(pid, "SIGKILL");
    const notice = await until((m) => m.type === "chat/notice");
    assert.ok(notice.type === "chat/notice");
    assert.match(
      notice.message,
      new RegExp(
        `^The turn ended without an answer: the kernel \\(pid ${pid}\\) exited unexpectedly after [\\d.]+ s\\. What it finished before that stays in this chat\\.$`,
      ),
    );
    assert.notEqual(h.kernel.pid, pid, "a new kernel serves the folder");
    assert.deepEqual(posted.at(-1), { type: "chat/busy", busy: false });
    const transcript = posted.findLast((m) => m.type === "chat/transcript");
    assert.deepEqual(
      transcript?.type === "chat/transcript" && transcript.messages.map((m) => m.role),
      ["user"],
      "the reconciled history: the message, no answer",
    );
    chat.dispose();
  });
});
