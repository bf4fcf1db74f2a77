// The CLI's flag parsing: what a person types is either understood or refused with the flag and
// the help to read (STYLE.md: errors a person can act on).
import assert from "node:assert/strict";
import { it } from "node:test";
import { flagString, flagStrings, parseArgs, UsageError } from "../../../../sidecar/cli/args.js";

const SPEC = { workspace: true, json: false };

it("reads flags with values (both --x v and --x=v), switches, positionals and what follows --", () => {
  const a = parseArgs(["--workspace", "/w", "--json", "hello", "--", "--not-a-flag"], SPEC, "exec");
  assert.equal(flagString(a, "workspace"), "/w");
  assert.equal(a.flags.get("json"), true);
  assert.deepEqual(a.positionals, ["hello", "--not-a-flag"]);
  assert.equal(flagString(parseArgs(["--workspace=/x"], SPEC, "exec"), "workspace"), "/x");
});

it("refuses an unknown flag and a flag without its value, naming the flag and the help", () => {
  assert.throws(
    () => parseArgs(["--bogus"], SPEC, "exec"),
    (e: Error) => e instanceof UsageError && /unknown option --bogus for `hearth exec`.*hearth exec --help/.test(e.message),
  );
  assert.throws(
    () => parseArgs(["--workspace"], SPEC, "exec"),
    (e: Error) => e instanceof UsageError && /option --workspace needs a value/.test(e.message),
  );
});

it("a flag that may be given again keeps every value in order; absent, none (hearth exec --input, issue 27)", () => {
  const spec = { input: "many" as const, json: false };
  assert.deepEqual(flagStrings(parseArgs(["--input", "a=1", "--input=b=2", "x"], spec, "exec"), "input"), ["a=1", "b=2"]);
  assert.deepEqual(flagStrings(parseArgs(["x"], spec, "exec"), "input"), []);
  assert.equal(flagString(parseArgs(["--input", "a=1"], spec, "exec"), "input"), undefined, "never read as one value");
});
