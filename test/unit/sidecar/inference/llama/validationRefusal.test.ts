import assert from "node:assert/strict";
import { test } from "node:test";
import { LlamaJsonSchemaValidationError, type ChatModelFunctions } from "node-llama-cpp";
import { callRefusedByValidation } from "../../../../../sidecar/inference/llama/validationRefusal.js";

test("a call node-llama-cpp's own validation refuses goes to the schema check instead of failing the turn (harness #5, issue 13)", () => {
  const params = { type: "object", properties: { depth: { type: "integer" } } } as const;
  const functions: ChatModelFunctions = {
    other: { description: "o", params: { type: "object", properties: {} } },
    list_dir: { description: "l", params },
  };
  const refused = new LlamaJsonSchemaValidationError('Expected type "integer" but got "number"', { depth: Infinity }, params);
  assert.deepEqual(callRefusedByValidation(refused, functions), { name: "list_dir", arguments: { depth: Infinity } });
  assert.equal(callRefusedByValidation(new Error("decode failed"), functions), null, "any other error still fails the round");
  assert.equal(callRefusedByValidation(refused, undefined), null);
});
