// biome-ignore-all lint/suspicious/noTemplateCurlyInString: prompt file texts, whose ${…} variables are the subject
// `/name args` from the chat (issue 27, item 3), editor side, against a real kernel through the real
// supervisor and chat controller, with the scripted model. The person's answers to the input boxes
// and the active editor come in through ChatPrompts' ports (VS Code's input box does not run here).
// Invariants: each `${input:…}` is asked once, in order, with its placeholder; the kernel's expansion
// (inputs, the selection, the file, the arguments) is the user message the model is shown; a
// cancelled question or a missing selection sends nothing and gives `/name args` back to the box.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, it } from "node:test";
import { ChatController } from "../../../extension/chat/chatController.js";
import { ChatPrompts } from "../../../extension/chat/chatPrompts.js";
import type { KernelSupervisor } from "../../../extension/kernel/kernelSupervisor.js";
import { PROMPT_SELECTION_MAX_CHARS, type PromptEditor } from "../../../shared/protocol/prompts.js";
import type { ToWebview } from "../../../shared/protocol/webview.js";
import { isolatedEnv } from "../../support/cliProcess.js";
import { tempDir } from "../../support/kernelProcess.js";
import { quietLog, stopWindowKernels, windowKernel } from "../../support/windowKernel.js";
import { EVERYTHING } from "../../support/mcpServers.js";

const kernels: KernelSupervisor[] = [];
after(() => stopWindowKernels(kernels));

function harness(rounds: unknown[], answers: (string | undefined)[], editor: PromptEditor, extraEnv: Record<string, string> = {}) {
  const root = tempDir("chat-prompts");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(path.join(workspace, ".hearth", "prompts"), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, ".hearth", "prompts", "rename.md"),
    "---\ndescription: Rename a symbol\n---\nIn ${file}, rename ${input:old:the current name} to ${input:new} in `${selection}` ($ARGUMENTS); keep ${input:old} working.\n",
  );
  const script = path.join(root, "script.json");
  fs.writeFileSync(script, JSON.stringify({ rounds }));
  const log = quietLog;
  const kernel = windowKernel(workspace, { ...isolatedEnv(root, 5), HEARTH_ALLOW_SCRIPTED: "1", ...extraEnv });
  kernels.push(kernel);
  let stored: string | undefined;
  const chat = new ChatController({
    kernel,
    model: () => `scripted:${script}`,
    store: {
      get: () => stored,
      set: (id: string | undefined) => {
        stored = id;
      },
    },
    log,
    restricted: () => false,
  });
  const asked: { title: string; prompt: string; placeholder: string }[] = [];
  const prompts = new ChatPrompts({
    kernel,
    log,
    restricted: () => false,
    ask: async (q) => {
      asked.push(q);
      return answers.shift();
    },
    editor: () => editor,
    send: (text, attachments, mode) => chat.send(text, attachments, mode),
  });
  const posted: ToWebview[] = [];
  chat.attach((m) => posted.push(m));
  prompts.attach((m) => posted.push(m));
  return { prompts, chat, asked, posted, session: () => stored };
}

async function completed(posted: ToWebview[], count: number): Promise<void> {
  const done = () => posted.filter((m) => m.type === "chat/event" && m.event.type === "completed").length;
  const deadline = Date.now() + 20_000;
  while (done() < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.equal(done(), count, "the turn completed");
}

const EXPANDED = "In src/app.ts, rename parse to parseAll in `parse(x)` (and its tests); keep parse working.";

it("each input is asked once with its placeholder; the kernel's expansion is the message the model is shown (issue 27)", async () => {
  const h = harness([{ expectUsers: [EXPANDED], text: ["Renamed."] }], ["parse", "parseAll"], {
    file: "src/app.ts",
    selection: "parse(x)",
  });
  await h.prompts.run({ name: "rename", args: "and its tests", attachments: [], mode: undefined });
  assert.deepEqual(h.asked, [
    { title: "/rename (1 of 2)", prompt: "old", placeholder: "the current name" },
    { title: "/rename (2 of 2)", prompt: "new", placeholder: "" },
  ]);
  const deadline = Date.now() + 20_000;
  while (!h.posted.some((m) => m.type === "chat/event" && m.event.type === "completed") && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const turn = h.posted.find((m) => m.type === "chat/turn") as Extract<ToWebview, { type: "chat/turn" }> | undefined;
  assert.equal(turn?.message, EXPANDED, "the chat shows the expanded prompt as the person's message");
  const done = h.posted.find((m) => m.type === "chat/event" && m.event.type === "completed") as
    | Extract<ToWebview, { type: "chat/event" }>
    | undefined;
  assert.equal(done?.event.type === "completed" ? done.event.status : undefined, "completed", JSON.stringify(done));
});

it("a cancelled question, a missing or too long selection sends nothing and gives the command back to the box (issue 27)", async () => {
  const cancelled = harness([], ["parse", undefined], { file: "src/app.ts", selection: "parse(x)" });
  await cancelled.prompts.run({ name: "rename", args: "now", attachments: [], mode: undefined });
  assert.equal(cancelled.asked.length, 2);
  assert.deepEqual(cancelled.posted.slice(-2), [
    { type: "chat/notice", level: "info", message: "/rename was not sent: the question “new” was cancelled." },
    { type: "chat/unsent", text: "/rename now" },
  ]);
  assert.equal(cancelled.session(), undefined, "no session, no turn");

  const noSelection = harness([], ["parse", "parseAll"], { file: "src/app.ts" });
  await noSelection.prompts.run({ name: "rename", args: "", attachments: [], mode: undefined });
  const [notice, unsent] = noSelection.posted.slice(-2) as [{ message: string }, ToWebview];
  assert.match(notice.message, /^\/rename was not sent\. Could not run \/rename: .*uses the selection: select text in an editor/);
  assert.deepEqual(unsent, { type: "chat/unsent", text: "/rename" });
  assert.equal(noSelection.session(), undefined);

  const huge = harness([], ["parse", "parseAll"], { file: "src/app.ts", selection: "x".repeat(PROMPT_SELECTION_MAX_CHARS + 1) });
  await huge.prompts.run({ name: "rename", args: "", attachments: [], mode: undefined });
  assert.match(
    (huge.posted.at(-2) as { message: string }).message,
    /the selection is 262145 characters, more than the 262144 a prompt takes; select less/,
  );
  assert.equal(huge.session(), undefined);
});

it("an MCP prompt /server:prompt asks its arguments, an optional one may be left empty, and its messages are sent (issue 28 item 5)", async () => {
  const servers = [{ name: "everything", type: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] }];
  const h = harness(
    [{ text: ["Hello."] }, { expectUsers: ["hi", "What's weather in Oslo?"], text: ["Sunny."] }],
    ["Oslo", ""],
    {},
    { HEARTH_MCP_SERVERS: JSON.stringify(servers), HOME: tempDir("home") },
  );
  // The chat's first turn starts the person's servers; their prompts are listed from then on.
  await h.chat.send("hi");
  await completed(h.posted, 1);
  await h.prompts.run({ name: "everything:args-prompt", args: "", attachments: [], mode: undefined });
  assert.deepEqual(h.asked, [
    { title: "/everything:args-prompt (1 of 2)", prompt: "city", placeholder: "Name of the city" },
    {
      title: "/everything:args-prompt (2 of 2)",
      prompt: "state (optional)",
      placeholder: "(optional: leave empty to omit)",
    },
  ]);
  await completed(h.posted, 2);
  const turns = h.posted.filter((m) => m.type === "chat/turn") as Extract<ToWebview, { type: "chat/turn" }>[];
  assert.equal(turns.at(-1)?.message, "What's weather in Oslo?", "the prompt's message is the person's message");
});
