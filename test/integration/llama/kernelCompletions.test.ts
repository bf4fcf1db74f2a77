// Completions as you type through the whole kernel (issue 31): `completion/infill` on the loaded local
// model answers the middle, model/status says whether the model can fill in the middle, a client's
// $/cancelRequest stops a completion at once and the next is served, nothing of it enters the journal,
// and a model without fill-in-the-middle tokens is refused with what to do.
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { after, it } from "node:test";
import { ErrorCode } from "../../../shared/errors.js";
import { KernelRequestError } from "../../../shared/node/kernelClient.js";
import { ensureFixtureModels, FIM_MODEL_MIDDLE } from "../../fixtures/models.js";
import { startTestKernel, tempDir, type TestKernel } from "../../support/kernelProcess.js";

const kernels: TestKernel[] = [];
after(async () => {
  for (const k of kernels) await k.stop();
});

async function kernelWith(model: string): Promise<TestKernel> {
  const k = startTestKernel({ env: { HEARTH_HOME: tempDir("home"), HEARTH_THREADS: "1", HEARTH_CONTEXT_SIZE: "1024" } });
  kernels.push(k);
  await k.client.initialize("test", "0");
  await k.client.request("model/load", { spec: model });
  return k;
}

const prefix = "function add(a: number, b: number): number {\n  ";
const suffix = "\n}\n";

it("fills in the middle on the loaded model, stops on the client's cancel, and journals nothing", async () => {
  const k = await kernelWith(ensureFixtureModels().fim);
  assert.equal((await k.client.request("model/status", {})).infill, true);
  const r = await k.client.request("completion/infill", { prefix, suffix, maxTokens: 16 });
  assert.equal(r.text, FIM_MODEL_MIDDLE);

  // A keystroke makes the completion queued behind the one in flight stale: its cancel, sent while it
  // waits for the completions' session, ends it without running it; the one in flight is answered.
  // The one in flight evaluates a fresh prompt of ~1,000 tokens (hundreds of ms of native work), while
  // the cancel is already in the kernel's socket buffer when it starts.
  const fresh = `${Array.from({ length: 60 }, (_, i) => `let v${i} = ${i};`).join("\n")}\n${prefix}`;
  const inFlight = k.client.request("completion/infill", { prefix: fresh, suffix, maxTokens: 16 });
  const abort = new AbortController();
  const stale = k.client.request("completion/infill", { prefix: `${prefix}// xy`, suffix, maxTokens: 16 }, abort.signal);
  abort.abort();
  await assert.rejects(stale, (e: unknown) => e instanceof KernelRequestError && e.code === ErrorCode.Cancelled);
  assert.equal((await inFlight).text, FIM_MODEL_MIDDLE);
  assert.equal((await k.client.request("completion/infill", { prefix, suffix })).text, FIM_MODEL_MIDDLE);

  const db = new Database(k.journalPath, { readonly: true });
  try {
    const rows = db
      .prepare("SELECT (SELECT count(*) FROM sessions) + (SELECT count(*) FROM runs) + (SELECT count(*) FROM conversation_journal) AS n")
      .get() as { n: number };
    assert.equal(rows.n, 0, "a completion is not a conversation");
  } finally {
    db.close();
  }
});

it("refuses completions on a model without fill-in-the-middle tokens, saying what to do", async () => {
  const k = await kernelWith(ensureFixtureModels().chat);
  assert.equal((await k.client.request("model/status", {})).infill, false);
  await assert.rejects(
    k.client.request("completion/infill", { prefix, suffix }),
    (e: unknown) => e instanceof KernelRequestError && /no fill-in-the-middle tokens.*choose a code model/.test(e.message),
  );
});
