// What the tool ceiling admits at build (harness #5): added after a mutation run of toolCeiling.ts
// (docs/mutation.md), where the tool-name rule and the object-schema rule for parameters were unguarded.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../shared/errors.js";
import { builder, CounterTool, FnModel } from "../../../support/harnessFixtures.js";

const answerOnly = () => new FnModel(async () => ({ text: "ok", reasoning: "", toolCalls: [], stopReason: "end" }));
const buildWith = (tool: CounterTool) => builder(answerOnly(), [tool]).builder.build();
const refusedWith = (text: string) => (e: unknown) =>
  e instanceof HearthError && e.code === ErrorCode.InvalidParams && e.message.includes(text);

describe("tool ceiling at build (harness #5)", () => {
  it("harness #5: a tool name outside ^[a-z][a-z0-9_]{0,63}$ is refused at build, naming it", () => {
    for (const name of ["Counter", "9lives", "-rm", "read-file", "read_file!", "a".repeat(65), ""]) {
      assert.throws(
        () => buildWith(new CounterTool({ name })),
        refusedWith(`tool name ${JSON.stringify(name)} must match /^[a-z][a-z0-9_]{0,63}$/`),
        JSON.stringify(name),
      );
    }
    for (const name of ["a", `a${"_9".repeat(31)}z`]) {
      assert.deepEqual(buildWith(new CounterTool({ name })).activeTools(), [name], `${name.length} characters`);
    }
  });

  it("harness #5: a tool whose parameters are not an object schema is refused at build, also inside the vocabulary or missing", () => {
    for (const parameters of [{ type: "string" }, { type: "array", items: { type: "integer" }, maxItems: 2 }, undefined, null]) {
      const tool = new CounterTool();
      (tool.definition as { parameters: unknown }).parameters = parameters;
      assert.throws(() => buildWith(tool), refusedWith("tool counter: parameters must be an object schema"), JSON.stringify(parameters));
    }
  });
});
