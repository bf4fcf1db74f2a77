// The first message's prompt stays small (issue 25, item 10): a new chat on the editor's default tool
// set, with the default instructions, rendered by the real chat wrapper of the Qwen2.5 template and
// counted with the fixture GGUF's tokenizer, as the kernel's measure (condensing, context fill) counts
// it. It was 2,709 tokens: a third of an 8k context before the person's first word.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { envForSettings } from "../../../shared/kernelSettings.js";
import { toFunctions } from "../../../sidecar/inference/llama/chatHistory.js";
import { toolSignatureLines } from "../../../sidecar/inference/llama/leanToolDocs.js";
import { delegateTaskTool } from "../../../sidecar/kernel/tasks/delegateTaskTool.js";
import { applyToolPolicy } from "../../../sidecar/kernel/toolPolicy.js";
import { defaultInstructions } from "../../../sidecar/kernel/turns/defaultInstructions.js";
import { buildWorkspaceTools } from "../../../sidecar/tools/buildWorkspaceTools.js";
import { llamaModelForFile } from "../../support/llamaModel.js";

const FIRST_PROMPT_BUDGET = 1000;

const loaded = llamaModelForFile((models) => ({
  modelPath: models.templates.qwen25,
  threads: 1,
  gpu: false,
  contextSize: 8192,
  maxSessions: 1,
}));
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-first-prompt-"));
const tools = buildWorkspaceTools({ workspaceRoot: workspace, shell: true });
after(() => {
  tools.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

/** The tools a new chat is offered under the editor's default settings, as the kernel builds them (kernel.ts). */
function defaultToolDefinitions() {
  const env = envForSettings({ get: <T>(_key: string, fallback: T) => fallback });
  const offered = applyToolPolicy([...tools.tools, delegateTaskTool(() => assert.fail("never run"), null)], env.HEARTH_TOOLS);
  return offered.map(({ definition: d }) => ({ name: d.name, description: d.description, parameters: d.parameters }));
}

test(`the first prompt (instructions + default tool definitions) is at most ${FIRST_PROMPT_BUDGET} tokens on the Qwen2.5 template (issue 25, item 10)`, async () => {
  const definitions = defaultToolDefinitions();
  assert.deepEqual(
    definitions.map((d) => d.name),
    ["read_file", "list_dir", "search_files", "write_file", "edit_file", "shell", "delegate_task"],
    "the editor's default tool set",
  );
  const request = {
    sessionKey: "first-prompt",
    messages: [
      { role: "system" as const, text: defaultInstructions(fs.realpathSync(workspace)) },
      { role: "user" as const, text: "What does this project do?" },
    ],
    options: {},
  };
  const withTools = await loaded.model.measure({ ...request, tools: definitions });
  const withoutTools = await loaded.model.measure({ ...request, tools: [] });
  console.log(
    `first prompt: ${withTools.promptTokens} tokens (${withoutTools.promptTokens} without tools) of a ${withTools.contextSize}-token context`,
  );
  assert.ok(
    withTools.promptTokens <= FIRST_PROMPT_BUDGET,
    `the first prompt is ${withTools.promptTokens} tokens, over the ${FIRST_PROMPT_BUDGET}-token budget`,
  );
  // Small because lean, not because tools went missing: every tool and parameter is still documented.
  const lines = toolSignatureLines(toFunctions(definitions) ?? {}, true).split("\n");
  assert.equal(lines.length, definitions.length);
  for (const [i, d] of definitions.entries()) {
    assert.ok(lines[i]?.startsWith(`${d.name}(`), lines[i]);
    for (const param of Object.keys(d.parameters.properties))
      assert.match(lines[i]!, new RegExp(`\\b${param}\\??: `), `${d.name} documents ${param}`);
    assert.ok(d.description.length >= 30, `${d.name} says what it does`);
  }
  assert.ok(withTools.promptTokens - withoutTools.promptTokens >= 200, "the tool list is in the prompt");
});

test("the tool list is one signature line a tool, with the schema's types, enums and optional parameters", () => {
  const lines = toolSignatureLines(
    {
      list_dir: {
        description: "List a directory",
        params: {
          type: "object",
          properties: { path: { type: "string" }, depth: { enum: [1, 2, 3] }, names: { type: "array", items: { type: "string" } } },
          required: ["path"],
        },
      },
      now: { description: "The time" },
    },
    true,
  );
  assert.equal(lines, "list_dir(path: string, depth?: 1|2|3, names?: string[]): List a directory\nnow(): The time");
  assert.equal(
    toolSignatureLines({ list_dir: { description: "d", params: { type: "object", properties: { p: { type: "string" } } } } }, false),
    "list_dir(): d",
  );
});
