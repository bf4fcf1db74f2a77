// `hearth doctor` reports the journal's size, free pages, row counts and last integrity check
// (issue 26 item 5), through the built CLI as a person runs it.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../../support/cliProcess.js";
import { openFixture, runningRun } from "../../support/journalFixture.js";
import { tempDir } from "../../support/kernelProcess.js";

describe("hearth doctor: the journal (issue 26, item 5)", () => {
  it("reports the journal's size, its row counts and when its integrity was last checked", async () => {
    const root = tempDir("doctor");
    const ws = path.join(root, "ws");
    fs.mkdirSync(ws);
    const f = openFixture(path.join(root, "journal.sqlite"));
    runningRun(f);
    f.close();
    const r = await runCli(["doctor", "--db", f.file, "--workspace", ws, "--json"], { HEARTH_HOME: path.join(root, "home") });
    const report = JSON.parse(r.stdout) as { checks: { name: string; ok: boolean; detail: string }[] };
    const journal = report.checks.find((c) => c.name === "journal");
    assert.ok(journal, r.stdout + r.stderr);
    assert.equal(journal.ok, true, journal.detail);
    assert.match(journal.detail, /\d+\.\d MiB \(WAL [\d.]+ MiB; [\d.]+ MiB free, given back as it frees\)/);
    assert.match(journal.detail, /rows: sessions 1, runs 1, conversation_journal 1, tool_invocations 0, events \d+/);
    assert.match(journal.detail, /integrity checked \d{4}-\d\d-\d\dT[\d:.]+Z: ok \(\d+ ms\)/);
  });

  it("says a journal that was never opened is not created yet, and fails on one whose last check found damage", async () => {
    const root = tempDir("doctor");
    const env = { HEARTH_HOME: path.join(root, "home") };
    const missing = await runCli(["doctor", "--db", path.join(root, "none.sqlite"), "--workspace", root, "--json"], env);
    const none = (JSON.parse(missing.stdout) as { checks: { name: string; detail: string }[] }).checks.find((c) => c.name === "journal");
    assert.match(none?.detail ?? "", /not created yet/);
    const f = openFixture(path.join(root, "journal.sqlite"));
    f.close();
    fs.writeFileSync(
      `${f.file}.integrity.json`,
      JSON.stringify({ result: "damaged: page 7 is never used", at: new Date().toISOString(), ms: 3 }),
    );
    const damaged = await runCli(["doctor", "--db", f.file, "--workspace", root, "--json"], env);
    const journal = (JSON.parse(damaged.stdout) as { checks: { name: string; ok: boolean; detail: string }[] }).checks.find(
      (c) => c.name === "journal",
    );
    assert.equal(journal?.ok, false);
    assert.match(journal?.detail ?? "", /damaged: page 7 is never used/);
    assert.equal(damaged.code, 1);
  });
});
