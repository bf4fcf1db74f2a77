// Capabilities read from the exact chat template (harness #20), for the cases no fixture model shows:
// a GGUF without a template, and a template that refuses a system message. The fixtures with real
// templates are in test/integration/llama/templateCapabilities.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ChatMLChatWrapper, QwenChatWrapper } from "node-llama-cpp";
import { capabilitiesOf } from "../../../../../sidecar/inference/llama/capabilities.js";

// Gemma's published template, in the part that matters here.
const REFUSES_SYSTEM =
  "{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}" +
  "{% for message in messages %}{{ '<start_of_turn>' + message['role'] + '\\n' + message['content'] | trim + '<end_of_turn>\\n' }}{% endfor %}";

describe("chat template capabilities (harness #20)", () => {
  test("harness #20: a GGUF without a chat template proves nothing the wrapper does not rule out", () => {
    assert.deepEqual(capabilitiesOf(new QwenChatWrapper({ keepOnlyLastThought: false }), null), {
      systemRole: "unknown",
      toolCalls: "unknown",
      reasoningHistory: "unknown",
      thinkingToggle: "unknown",
    });
  });

  test("harness #20: a template that refuses a system message disproves the system role whatever the wrapper allows", () => {
    const caps = capabilitiesOf(new ChatMLChatWrapper(), REFUSES_SYSTEM);
    assert.equal(caps.systemRole, "disproven");
    assert.equal(caps.toolCalls, "disproven");
  });
});
