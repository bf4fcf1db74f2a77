// Which JSON-schema keywords the grammar of a tool call enforces while the model generates, and which
// only the schema check before dispatch enforces (issue 13, item 1; harness #5). Each row: one schema
// with that bound, 200 grammar-constrained generations at temperature 1 from the synthetic tool-call
// model (random weights: it writes whatever the grammar lets through), every proposed call checked.
import assert from "node:assert/strict";
import { test } from "node:test";
import { llamaModelForFile } from "../../support/llamaModel.js";
import { argumentProblems } from "../../../sidecar/agent/schemaCheck.js";
import type { JsonSchema, ObjectSchema } from "../../../sidecar/agent/ports/jsonSchema.js";

const GENERATIONS = 200;

interface Row {
  keyword: string;
  schema: ObjectSchema;
  /** "grammar": no generated call violates it; "check": the grammar lets violations through, the check refuses them. */
  enforcedBy: "grammar" | "check";
}

const one = (p: JsonSchema): ObjectSchema => ({ type: "object", properties: { p }, required: ["p"] });

export const KEYWORD_TABLE: Row[] = [
  { keyword: "enum (string)", schema: one({ type: "string", enum: ["alpha", "beta", "gamma"] }), enforcedBy: "grammar" },
  { keyword: "minLength", schema: one({ type: "string", minLength: 3 }), enforcedBy: "grammar" },
  { keyword: "maxLength", schema: one({ type: "string", maxLength: 4 }), enforcedBy: "grammar" },
  {
    keyword: "minimum+maximum, integer range of at most 64 values (written as an enum)",
    schema: one({ type: "integer", minimum: 0, maximum: 3 }),
    enforcedBy: "grammar",
  },
  { keyword: "maxItems", schema: one({ type: "array", items: { type: "boolean" }, maxItems: 2 }), enforcedBy: "grammar" },
  {
    keyword: "required (the grammar writes every declared property)",
    schema: { type: "object", properties: { a: { type: "boolean" }, b: { type: "string", maxLength: 2 } }, required: ["a"] },
    enforcedBy: "grammar",
  },
  {
    keyword: "additionalProperties: false",
    schema: { type: "object", properties: { a: { type: "boolean" } }, additionalProperties: false },
    enforcedBy: "grammar",
  },
  { keyword: "minimum+maximum, wide integer range", schema: one({ type: "integer", minimum: 100, maximum: 600_000 }), enforcedBy: "check" },
  { keyword: "minimum alone (integer)", schema: one({ type: "integer", minimum: 10 }), enforcedBy: "check" },
  { keyword: "minimum+maximum (number)", schema: one({ type: "number", minimum: 0, maximum: 1 }), enforcedBy: "check" },
];

const llama = llamaModelForFile((paths) => ({
  modelPath: paths.tool,
  threads: 1,
  contextSize: 512,
  maxSessions: 1,
  batchSize: 64,
  stateStore: null,
}));

for (const row of KEYWORD_TABLE) {
  test(`tool-call grammar, ${row.keyword}: enforced by the ${row.enforcedBy === "grammar" ? "grammar while generating" : "schema check only"} (harness #5, issue 13)`, async () => {
    const tools = [{ name: "probe", description: "A probe of one schema keyword", parameters: row.schema }];
    let calls = 0;
    const violations: string[] = [];
    for (let seed = 0; seed < GENERATIONS; seed++) {
      const round = await llama.model.generate(
        {
          sessionKey: row.keyword,
          messages: [{ role: "user", text: "Call the probe." }],
          tools,
          options: { maxTokens: 40, temperature: 1, seed },
          signal: new AbortController().signal,
        },
        () => undefined,
      );
      for (const call of round.toolCalls) {
        calls++;
        assert.equal(call.name, "probe");
        const problems = argumentProblems(row.schema, call.arguments);
        if (problems.length > 0) violations.push(`${JSON.stringify(call.arguments)}: ${problems.join("; ")}`);
      }
    }
    assert.ok(calls >= GENERATIONS / 2, `only ${calls} calls in ${GENERATIONS} generations: too few to judge the keyword`);
    if (row.enforcedBy === "grammar")
      assert.deepEqual(violations, [], `${violations.length} of ${calls} calls broke a keyword the grammar enforces`);
    // The listing stays honest: a keyword listed as check-only is one the grammar really lets through.
    else assert.ok(violations.length > 0, `no call of ${calls} broke ${row.keyword}: the grammar may enforce it now; move it to "grammar"`);
  });
}
