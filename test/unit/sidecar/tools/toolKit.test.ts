// One argument validator for the execution gate and the tools (harness #5): what the gate
// (schemaCheck.argumentProblems) refuses, a tool's own recheck refuses too, including names that
// an object inherits from Object.prototype.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { argumentProblems } from "../../../../sidecar/agent/schemaCheck.js";
import type { ObjectSchema } from "../../../../sidecar/agent/ports/jsonSchema.js";
import { byteSize, checkArgs } from "../../../../sidecar/tools/toolKit.js";

const schema: ObjectSchema = {
  type: "object",
  properties: { path: { type: "string" }, depth: { type: "integer", minimum: 0, maximum: 3 } },
  required: ["path"],
  additionalProperties: false,
};
const requiresInherited: ObjectSchema = {
  type: "object",
  properties: { toString: { type: "string" as const } },
  required: ["toString"],
  additionalProperties: false,
};

describe("tool argument recheck (harness #5)", () => {
  test("harness #5: an undeclared key named after an Object.prototype member (constructor, toString, __proto__) is refused by the tools as by the gate", () => {
    for (const key of ["constructor", "toString", "hasOwnProperty", "__proto__"]) {
      const args = JSON.parse(`{"path":"a",${JSON.stringify(key)}:1}`);
      assert.notDeepEqual(argumentProblems(schema, args), [], `gate: ${key}`);
      assert.match(checkArgs(schema, args) ?? "", new RegExp(`\\$\\.${key}: not a declared property`), `tool: ${key}`);
    }
  });

  test("harness #5: a required key is present only when the arguments own it, not when Object.prototype supplies it", () => {
    assert.match(checkArgs(requiresInherited, {}) ?? "", /\$\.toString: required/);
    assert.equal(checkArgs(requiresInherited, { toString: "x" }), null);
  });

  test("harness #5: a tool's refusal names every problem the gate found, in its order, and says how to fix them", () => {
    assert.equal(
      checkArgs(schema, { depth: 9 }),
      "arguments do not match its schema ($.path: required; $.depth: above the maximum 3); fix them and call again",
    );
  });

  test("harness #5: the tools and the gate give the same verdict and the same reasons for any arguments", () => {
    const cases: unknown[] = [
      { path: "a" },
      { path: 7 },
      {},
      { path: "a", depth: 4 },
      { path: "a", depth: 1.5 },
      { path: "a", bogus: 1 },
      [],
      null,
    ];
    for (const args of cases) {
      const gate = argumentProblems(schema, args);
      const tool = checkArgs(schema, args);
      assert.equal(tool === null, gate.length === 0, JSON.stringify(args));
      for (const reason of gate) assert.ok(tool?.includes(reason), `${JSON.stringify(args)}: ${tool} lacks ${reason}`);
    }
  });
});

test("a ceiling in a description is short and exact: whole MiB or KiB, else bytes (issue 25, item 10)", () => {
  assert.equal(byteSize(1_048_576), "1 MiB");
  assert.equal(byteSize(65_536), "64 KiB");
  assert.equal(byteSize(1_500_000), "1500000 bytes", "never rounded: the tool refuses at the exact figure");
  assert.equal(byteSize(1536), "1536 bytes");
  assert.equal(byteSize(512), "512 bytes");
});
