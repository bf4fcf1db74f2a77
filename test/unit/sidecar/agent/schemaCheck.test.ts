// The bounded JSON Schema vocabulary and the recheck of proposed arguments (harness #5): each keyword's guard,
// the depth and error bounds, and names inherited from Object.prototype (added after a mutation run, docs/mutation.md).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, HearthError } from "../../../../shared/errors.js";
import { argumentProblems, vocabularyProblems } from "../../../../sidecar/agent/index.js";
import type { JsonSchema } from "../../../../sidecar/agent/ports/jsonSchema.js";
import { builder, CounterTool, FnModel, scripted } from "../../../support/harnessFixtures.js";

const TYPES = "string, integer, number, boolean, array, object";
const answerOnly = () => new FnModel(async () => ({ text: "ok", reasoning: "", toolCalls: [], stopReason: "end" }));

/** A string leaf `levels` schemas below the root, through object properties or array items. */
const viaProperties = (levels: number): unknown =>
  levels === 0 ? { type: "string" } : { type: "object", properties: { a: viaProperties(levels - 1) } };
const viaItems = (levels: number): unknown =>
  levels === 0 ? { type: "string" } : { type: "array", items: viaItems(levels - 1), maxItems: 1 };

describe("schema vocabulary (harness #5)", () => {
  it("harness #5: a definition nested deeper than 8 levels is refused, through properties and items; 8 levels are accepted", () => {
    assert.deepEqual(vocabularyProblems(viaProperties(8)), []);
    assert.deepEqual(vocabularyProblems(viaItems(8)), []);
    assert.deepEqual(vocabularyProblems(viaProperties(9)), [`$${".properties.a".repeat(9)}: nested deeper than 8 levels`]);
    assert.deepEqual(vocabularyProblems(viaItems(9)), [`$${".items".repeat(9)}: nested deeper than 8 levels`]);
  });

  it("harness #5: a schema that is not an object (a string, null, an array, a number, a missing items) is refused at its path", () => {
    assert.deepEqual(vocabularyProblems(null), ["$: must be a schema object"]);
    assert.deepEqual(vocabularyProblems({ type: "object", properties: { a: "string", b: null, c: [], d: 5 } }), [
      "$.properties.a: must be a schema object",
      "$.properties.b: must be a schema object",
      "$.properties.c: must be a schema object",
      "$.properties.d: must be a schema object",
    ]);
    assert.deepEqual(vocabularyProblems({ type: "array", maxItems: 1 }), ["$.items: must be a schema object"]);
  });

  it("harness #5: a type outside the six is refused, including a non-string and names inherited from Object.prototype", () => {
    for (const type of ["foo", ["string"], 5, undefined, "toString", "__proto__", "constructor"]) {
      assert.deepEqual(vocabularyProblems({ type }), [`$.type: ${JSON.stringify(type)} is not one of ${TYPES}`], String(type));
    }
  });

  it("harness #5: every type takes a description, which must be a string; keywords of another type are refused", () => {
    const described: JsonSchema = {
      type: "object",
      description: "o",
      properties: {
        s: { type: "string", description: "s" },
        i: { type: "integer", description: "i" },
        n: { type: "number", description: "n" },
        b: { type: "boolean", description: "b" },
        l: { type: "array", description: "l", items: { type: "string" }, maxItems: 1 },
      },
    };
    assert.deepEqual(vocabularyProblems(described), []);
    assert.deepEqual(vocabularyProblems({ type: "boolean", description: 5 }), ["$.description: must be a string"]);
    assert.deepEqual(vocabularyProblems({ type: "integer", minLength: 1, pattern: "x" }), [
      "$.minLength: keyword not in the bounded vocabulary for type integer",
      "$.pattern: keyword not in the bounded vocabulary for type integer",
    ]);
  });

  it("harness #5: string minLength and maxLength must each be non-negative integers (0 is allowed)", () => {
    for (const k of ["minLength", "maxLength"]) {
      for (const ok of [0, 3]) assert.deepEqual(vocabularyProblems({ type: "string", [k]: ok }), [], `${k} ${ok}`);
      for (const bad of ["3", 1.5, -1, Number.POSITIVE_INFINITY, Number.NaN, null]) {
        assert.deepEqual(vocabularyProblems({ type: "string", [k]: bad }), [`$.${k}: must be a non-negative integer`], `${k} ${bad}`);
      }
    }
  });

  it("harness #5: minimum and maximum of integers and numbers must be finite numbers, negative and fractional allowed", () => {
    for (const type of ["integer", "number"]) {
      for (const k of ["minimum", "maximum"]) {
        for (const ok of [-1.5, 0, 2.5]) assert.deepEqual(vocabularyProblems({ type, [k]: ok }), [], `${type} ${k} ${ok}`);
        for (const bad of ["0", Number.POSITIVE_INFINITY, Number.NaN, null]) {
          assert.deepEqual(vocabularyProblems({ type, [k]: bad }), [`$.${k}: must be a finite number`], `${type} ${k} ${bad}`);
        }
      }
    }
  });

  it("harness #5: an enum must be a non-empty array of strings", () => {
    assert.deepEqual(vocabularyProblems({ type: "string", enum: ["a"] }), []);
    for (const bad of [[], "a", "ab", {}, [1], ["a", 1]]) {
      assert.deepEqual(
        vocabularyProblems({ type: "string", enum: bad }),
        ["$.enum: must be a non-empty array of strings"],
        JSON.stringify(bad),
      );
    }
  });

  it("harness #5: an array must be bounded by a non-negative integer maxItems, and its items are checked at their path", () => {
    assert.deepEqual(vocabularyProblems({ type: "array", items: { type: "string" }, maxItems: 0 }), []);
    assert.deepEqual(vocabularyProblems({ type: "array", items: { type: "string" } }), ["$.maxItems: required, arrays must be bounded"]);
    for (const bad of ["2", -1, 1.5, Number.POSITIVE_INFINITY]) {
      assert.deepEqual(
        vocabularyProblems({ type: "array", items: { type: "string" }, maxItems: bad }),
        ["$.maxItems: must be a non-negative integer"],
        String(bad),
      );
    }
    assert.deepEqual(vocabularyProblems({ type: "array", items: { type: "string", maxLength: -1 }, maxItems: 1 }), [
      "$.items.maxLength: must be a non-negative integer",
    ]);
  });

  it("harness #5: an object needs properties as an object; required and additionalProperties are optional", () => {
    assert.deepEqual(vocabularyProblems({ type: "object", properties: {} }), []);
    assert.deepEqual(vocabularyProblems({ type: "object", properties: {}, additionalProperties: false }), []);
    for (const props of [undefined, null, [], "x"]) {
      const schema = props === undefined ? { type: "object" } : { type: "object", properties: props };
      assert.deepEqual(vocabularyProblems(schema), ["$.properties: required object"], JSON.stringify(props));
    }
  });

  it("harness #5: required lists only string names declared in properties, not ones inherited from Object.prototype", () => {
    const a = { a: { type: "string" } };
    assert.deepEqual(vocabularyProblems({ type: "object", properties: a, required: ["a"] }), []);
    assert.deepEqual(
      vocabularyProblems({ type: "object", properties: { constructor: { type: "string" } }, required: ["constructor"] }),
      [],
    );
    for (const [properties, required] of [
      [a, ["b"]],
      [a, "a"],
      [{ 1: { type: "string" } }, [1]],
      [{}, ["constructor"]],
      [{}, ["toString"]],
    ] as const) {
      assert.deepEqual(
        vocabularyProblems({ type: "object", properties, required }),
        ["$.required: must list names declared in properties"],
        JSON.stringify(required),
      );
    }
  });

  it("harness #5: additionalProperties may only be false", () => {
    for (const bad of [true, {}, "false"]) {
      assert.deepEqual(
        vocabularyProblems({ type: "object", properties: {}, additionalProperties: bad }),
        ["$.additionalProperties: only false is in the vocabulary"],
        JSON.stringify(bad),
      );
    }
  });

  it("harness #5: a definition with an inherited type name is refused when the session is built, as InvalidParams", () => {
    const tool = new CounterTool();
    (tool.definition.parameters.properties as Record<string, unknown>).by = { type: "toString" };
    assert.throws(
      () => builder(answerOnly(), [tool]).builder.build(),
      (e: unknown) =>
        e instanceof HearthError && e.code === ErrorCode.InvalidParams && /properties\.by\.type: "toString" is not one of/.test(e.message),
    );
  });
});

describe("argument recheck (harness #5)", () => {
  const str: JsonSchema = { type: "string" };

  it("harness #5: a string must be a string within minLength, maxLength and its enum", () => {
    assert.deepEqual(argumentProblems(str, "x"), []);
    for (const bad of [5, null, ["x"]]) assert.deepEqual(argumentProblems(str, bad), ["$: expected a string"]);
    assert.deepEqual(argumentProblems({ type: "string", minLength: 2 }, "a"), ["$: shorter than 2"]);
    assert.deepEqual(argumentProblems({ type: "string", minLength: 2 }, "ab"), []);
    assert.deepEqual(argumentProblems({ type: "string", maxLength: 2 }, "abc"), ["$: longer than 2"]);
    assert.deepEqual(argumentProblems({ type: "string", maxLength: 2 }, "ab"), []);
    assert.deepEqual(argumentProblems({ type: "string", enum: ["a", "b"] }, "c"), ['$: must be one of "a", "b"']);
  });

  it("harness #5: an integer or number must be a finite number (an integer for integer) within minimum and maximum, bounds inclusive", () => {
    for (const bad of ["1", null, Number.POSITIVE_INFINITY, Number.NaN]) {
      assert.deepEqual(argumentProblems({ type: "number" }, bad), ["$: expected a number"], String(bad));
      assert.deepEqual(argumentProblems({ type: "integer" }, bad), ["$: expected an integer"], String(bad));
    }
    assert.deepEqual(argumentProblems({ type: "integer" }, 1.5), ["$: expected an integer"]);
    assert.deepEqual(argumentProblems({ type: "number" }, 1.5), []);
    const bounded: JsonSchema = { type: "number", minimum: 1, maximum: 3 };
    for (const ok of [1, 2.5, 3]) assert.deepEqual(argumentProblems(bounded, ok), [], String(ok));
    assert.deepEqual(argumentProblems(bounded, 0.5), ["$: below the minimum 1"]);
    assert.deepEqual(argumentProblems(bounded, 3.5), ["$: above the maximum 3"]);
  });

  it("harness #5: a boolean must be a boolean", () => {
    assert.deepEqual(argumentProblems({ type: "boolean" }, false), []);
    assert.deepEqual(argumentProblems({ type: "boolean" }, "true"), ["$: expected a boolean"]);
  });

  it("harness #5: an array must be an array of at most maxItems; only the first maxItems items are checked", () => {
    const ints: JsonSchema = { type: "array", items: { type: "integer" }, maxItems: 2 };
    for (const bad of ["abc", {}, null]) assert.deepEqual(argumentProblems(ints, bad), ["$: expected an array"], JSON.stringify(bad));
    assert.deepEqual(argumentProblems(ints, [1, "x"]), ["$[1]: expected an integer"]);
    assert.deepEqual(argumentProblems(ints, [1, 2, 3]), ["$: more than 2 items"]);
    assert.deepEqual(argumentProblems({ type: "array", items: { type: "integer" }, maxItems: 1 }, [1, "x"]), ["$: more than 1 items"]);
  });

  it("harness #5: an object must be a plain object; undeclared names are refused only under additionalProperties false", () => {
    const open: JsonSchema = { type: "object", properties: { a: str } };
    for (const bad of ["x", null, [], 5]) assert.deepEqual(argumentProblems(open, bad), ["$: expected an object"], JSON.stringify(bad));
    assert.deepEqual(argumentProblems(open, {}), []);
    assert.deepEqual(argumentProblems(open, { a: "x", extra: 1 }), []);
    const closed: JsonSchema = { type: "object", properties: { a: str }, additionalProperties: false };
    assert.deepEqual(argumentProblems(closed, { a: "x", extra: 1, toString: "t" }), [
      "$.extra: not a declared property",
      "$.toString: not a declared property",
    ]);
    const nested: JsonSchema = {
      type: "object",
      properties: { a: { type: "array", items: { type: "object", properties: { b: { type: "integer" } } }, maxItems: 3 } },
    };
    assert.deepEqual(argumentProblems(nested, { a: [{ b: 1 }, { b: "x" }] }), ["$.a[1].b: expected an integer"]);
  });

  it("harness #5: a required name is present only as the arguments' own property, not one inherited from Object.prototype", () => {
    const schema: JsonSchema = { type: "object", properties: { constructor: str, toString: str }, required: ["constructor", "toString"] };
    assert.deepEqual(argumentProblems(schema, {}), ["$.constructor: required", "$.toString: required"]);
    assert.deepEqual(argumentProblems(schema, { constructor: "c", toString: "t" }), []);
  });

  it("harness #5: at most 5 problems are reported, in order", () => {
    const names = ["a", "b", "c", "d", "e", "f", "g"];
    const schema: JsonSchema = { type: "object", properties: Object.fromEntries(names.map((n) => [n, str])), required: names };
    assert.deepEqual(argumentProblems(schema, {}), ["$.a: required", "$.b: required", "$.c: required", "$.d: required", "$.e: required"]);
  });

  it("harness #5: a call missing a required argument named like an Object.prototype member is refused before dispatch and never run", async () => {
    const tool = new CounterTool();
    const params = tool.definition.parameters as { properties: Record<string, unknown>; required: string[] };
    Object.assign(params.properties, { constructor: { type: "string" } }); // an own property, as JSON gives it
    params.required = ["by", "constructor"];
    const { memory, builder: b } = builder(scripted([{ toolCalls: [{ name: "counter", arguments: { by: 1 } }] }, { text: ["ok"] }]), [
      tool,
    ]);
    const out = await b.build().runTurn("go");
    assert.equal(out.status, "completed");
    assert.deepEqual(tool.effects, []);
    const result = memory.history.find((m) => m.role === "tool");
    assert.match(
      result?.role === "tool" ? result.output : "",
      /^refused: arguments do not match the counter schema \(\$\.constructor: required\)/,
    );
  });
});
