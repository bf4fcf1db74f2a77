// One schema names every knob (issue 22, item 2): package.json's settings, the variables the code
// reads and the join comparison all agree with it, and every knob is either compared or marked harmless.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { COMPARED_ENV, integerDefault, KERNEL_SETTINGS, KNOBS, parseKernelEnv } from "../../../shared/kernelSettings.js";
import { DEFAULT_LOOP_LIMITS } from "../../../sidecar/agent/loopGuard.js";
import { compareSettings, kernelSettingsView } from "../../../shared/node/kernelSettingsView.js";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
  contributes: { configuration: { properties: Record<string, Record<string, unknown>> } };
};
const properties = pkg.contributes.configuration.properties;

/** Every HEARTH_* name the shipped code mentions (HEARTH_VERSION is a constant, not a knob). */
function namesInSource(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (p.endsWith(".ts")) for (const m of fs.readFileSync(p, "utf8").matchAll(/\bHEARTH_[A-Z_]+\b/g)) names.add(m[0]);
    }
  };
  for (const dir of ["sidecar", "shared", "extension"]) walk(dir);
  names.delete("HEARTH_VERSION");
  return names;
}

describe("the settings schema", () => {
  it("package.json contributes exactly the schema's settings, with the same type, default, bounds, choices and scope", () => {
    const settings = KNOBS.flatMap((k) => (k.setting ? [k.setting] : []));
    assert.deepEqual(Object.keys(properties).sort(), settings.map((s) => s.key).sort());
    for (const s of settings) {
      const p = properties[s.key]!;
      const shape = {
        type: p.type,
        default: p.default,
        minimum: p.minimum,
        maximum: p.maximum,
        enum: (p.enum ?? (p.items as { enum?: string[] } | undefined)?.enum) as string[] | undefined,
        scope: p.scope ?? "window",
      };
      assert.deepEqual(
        shape,
        { type: s.type, default: s.default, minimum: s.minimum, maximum: s.maximum, enum: s.enum, scope: s.scope },
        s.key,
      );
    }
  });

  it("every HEARTH_* variable the code reads is a knob of the schema", () => {
    const known = new Set(KNOBS.flatMap((k) => (k.env ? [k.env] : [])));
    assert.deepEqual([...namesInSource()].filter((n) => !known.has(n)).sort(), []);
  });

  it("every setting whose change needs a restart restarts the kernel, hearth.tasks.maxConcurrent included", () => {
    assert.ok(KERNEL_SETTINGS.includes("hearth.tasks.maxConcurrent"));
    assert.deepEqual(
      [...KERNEL_SETTINGS].sort(),
      KNOBS.filter((k) => k.setting && k.restart)
        .map((k) => k.setting!.key)
        .sort(),
    );
  });

  it("every knob the kernel reads is compared when a client joins, or marked harmless with a reason", () => {
    for (const knob of KNOBS) {
      const name = knob.env ?? knob.setting!.key;
      if (typeof knob.onJoin === "object") {
        assert.ok(knob.onJoin.harmless.length > 10, name);
        continue;
      }
      if (knob.env === null || knob.env === "HEARTH_WEB_FETCH") continue; // folded into HEARTH_TOOLS, compared as tools below
      assert.ok(COMPARED_ENV.includes(knob.env), `${name} is neither compared nor harmless`);
    }
  });

  it("a difference in any one compared knob is narrowed or told, never silent", () => {
    const kernel = { settings: kernelSettingsView({}), tools: ["read_file", "shell", "web_fetch"] };
    const stricter: Record<string, string> = {
      HEARTH_TOOLS: "read_file",
      HEARTH_WEB_FETCH: "0",
      HEARTH_APPROVE_READS: "1",
      HEARTH_MAX_ROUNDS: "5",
      HEARTH_REPEATED_FAILURE_LIMIT: "1",
    };
    for (const name of COMPARED_ENV) {
      const value = stricter[name] ?? (name === "HEARTH_GPU" ? "off" : name === "HEARTH_OPENAI_API_KEY" ? "sk-test" : "1");
      const { narrowed, told } = compareSettings(kernel, kernelSettingsView({ [name]: value }));
      const knob = KNOBS.find((k) => k.env === name)!;
      if (knob.onJoin === "narrowing" && name !== "HEARTH_WEB_FETCH") assert.equal(narrowed.length, 1, `${name}: ${narrowed}`);
      else if (name !== "HEARTH_WEB_FETCH") assert.equal(told.length, 1, `${name}: ${told}`);
    }
    // The API key never appears, only that it differs.
    assert.doesNotMatch(JSON.stringify(compareSettings(kernel, kernelSettingsView({ HEARTH_OPENAI_API_KEY: "sk-test" }))), /sk-test/);
  });

  it("a client's stricter settings narrow its runs; looser ones leave the kernel's and are told", () => {
    const kernel = { settings: kernelSettingsView({ HEARTH_MAX_ROUNDS: "10" }), tools: ["read_file", "list_dir", "shell"] };
    const stricter = compareSettings(
      kernel,
      kernelSettingsView({ HEARTH_TOOLS: "read_file,list_dir", HEARTH_APPROVE_READS: "1", HEARTH_MAX_ROUNDS: "4" }),
    );
    assert.deepEqual(stricter.narrowing, { tools: ["read_file", "list_dir"], approveReads: true, maxRounds: 4 });
    assert.deepEqual(stricter.told, []);
    const looser = compareSettings(kernel, kernelSettingsView({ HEARTH_MAX_ROUNDS: "50" }));
    assert.deepEqual(looser.narrowing, {});
    assert.equal(looser.told.length, 1);
    assert.deepEqual(compareSettings(kernel, kernel.settings), { narrowing: {}, narrowed: [], told: [] });
  });

  it("the schema's defaults for the loop limits are the agent's own, so an unset variable and the default setting compare equal", () => {
    assert.equal(integerDefault("HEARTH_MAX_ROUNDS"), DEFAULT_LOOP_LIMITS.maxRounds);
    assert.equal(integerDefault("HEARTH_REPEATED_FAILURE_LIMIT"), DEFAULT_LOOP_LIMITS.repeatedFailures);
  });

  it("a bad value stops the kernel with a message naming the variable and what to do", () => {
    const parsed = parseKernelEnv({ HEARTH_MAX_ROUNDS: "many", HEARTH_APPROVE_READS: "yes" });
    assert.equal(parsed.ok, false);
    assert.deepEqual(!parsed.ok && parsed.errors, [
      "HEARTH_APPROVE_READS=yes is neither 1 nor 0; set 1 to turn it on, or unset it",
      "HEARTH_MAX_ROUNDS=many is not a positive integer; unset it or give a number such as 2",
    ]);
  });
});
