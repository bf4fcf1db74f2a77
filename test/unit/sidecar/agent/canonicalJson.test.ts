// Canonical JSON, domain-separated digests and input hashes (harness #8 #19, docs/harness.md glossary):
// added after a mutation run of canonicalJson.ts (docs/mutation.md), where arrays, key order, the NUL
// separator and the digest's form were guarded by nothing but the digests' agreement with themselves.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { canonicalJson, digestOf, inputHashOf } from "../../../../sidecar/agent/canonicalJson.js";

/** The documented form, built independently: JSON.stringify of a copy whose object keys are inserted sorted. */
function sortedCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedCopy);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortedCopy((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

// No integer-like keys: JSON.stringify orders those numerically whatever the insertion order.
const value = {
  zeta: [3, { y: true, x: null, w: [] }, "s", [2, 1]],
  alpha: { nested: { b: 1.5, a: -2, c: 'x"y\n' } },
  mid: {},
  skipped: undefined,
};
const reordered = {
  skipped: undefined,
  mid: {},
  alpha: { nested: { c: 'x"y\n', a: -2, b: 1.5 } },
  zeta: [3, { w: [], x: null, y: true }, "s", [2, 1]],
};

describe("canonical JSON and digests", () => {
  it("harness #8: the input hash is SHA-256 of the arguments' JSON with keys sorted at every depth and arrays kept in order", () => {
    const expected = JSON.stringify(sortedCopy(value));
    assert.equal(canonicalJson(value), expected);
    assert.equal(canonicalJson(reordered), expected, "key order does not change the canonical form");
    assert.equal(inputHashOf(value), sha256(expected));
    assert.equal(inputHashOf(reordered), inputHashOf(value));
    const distinct = [[], [1], [1, 2], [2, 1], {}, { a: [1] }, { a: { "0": 1 } }, [[1], 2], [1, [2]]];
    assert.equal(new Set(distinct.map(inputHashOf)).size, distinct.length, "different arguments never share an input hash");
    for (const v of distinct) assert.equal(canonicalJson(v), JSON.stringify(v));
  });

  it("harness #19: a digest is `sha256:` and 64 hex digits over its label, a NUL byte and the canonical JSON, so two labels never collide", () => {
    const d = digestOf("hearth.test.v1", value);
    assert.match(d, /^sha256:[0-9a-f]{64}$/);
    assert.equal(d, `sha256:${sha256(`hearth.test.v1\0${JSON.stringify(sortedCopy(value))}`)}`);
    assert.notEqual(digestOf("hearth.other.v1", value), d);
    // Without the NUL the boundary between label and value could shift: "hearth.a1" + "2" = "hearth.a" + "12".
    assert.notEqual(digestOf("hearth.a1", 2), digestOf("hearth.a", 12));
  });

  it("harness #8 #19: a value with no JSON form is refused, never hashed as some other value", () => {
    for (const v of [undefined, () => 1, Symbol("s")]) {
      assert.throws(
        () => canonicalJson(v),
        (e: unknown) => e instanceof TypeError && e.message === `canonicalJson: ${typeof v} has no JSON form`,
      );
    }
    // [undefined] would otherwise hash like [] (JSON.stringify writes null, which is another value again).
    assert.throws(() => inputHashOf([undefined]), TypeError);
    assert.throws(() => inputHashOf({ a: [1, () => 1] }), TypeError);
    assert.throws(() => digestOf("hearth.test.v1", [undefined]), TypeError);
  });
});
