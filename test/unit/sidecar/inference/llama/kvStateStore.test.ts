import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { KvStateStore } from "../../../../../sidecar/inference/llama/kvStateStore.js";

const toks = (seed: number) => Array.from({ length: 32 }, (_, i) => seed * 1000 + i);
const write = (bytes: number) => async (f: string) => fs.writeFileSync(f, Buffer.alloc(bytes));

test("saved KV state stays within its disk budget, evicting the least recently used first (issue 6, item 2)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-kvs-"));
  try {
    const store = new KvStateStore(dir, 2500);
    await store.save({ sessionKey: "a", modelKey: "m", wrapper: "Qwen", tokens: toks(1) }, write(1000));
    await new Promise((r) => setTimeout(r, 5));
    await store.save({ sessionKey: "b", modelKey: "m", wrapper: "Qwen", tokens: toks(2) }, write(1000));
    await new Promise((r) => setTimeout(r, 5));
    assert.ok(store.find("m", "Qwen", [...toks(1), 7]), "a lookup marks a as recently used");
    await new Promise((r) => setTimeout(r, 5));
    await store.save({ sessionKey: "c", modelKey: "m", wrapper: "Qwen", tokens: toks(3) }, write(1000));
    assert.deepEqual(
      store
        .entries()
        .map((e) => e.sessionKey)
        .sort(),
      ["a", "c"],
    );
    assert.ok(store.totalBytes() <= 2500);
    assert.equal(fs.readdirSync(dir).length, 4, "evicted entries leave no files behind");
    // A newer state of the same session replaces the older one.
    await store.save({ sessionKey: "a", modelKey: "m", wrapper: "Qwen", tokens: [...toks(1), 5, 6] }, write(1000));
    assert.deepEqual(
      store
        .entries()
        .filter((e) => e.sessionKey === "a")
        .map((e) => e.tokens.length),
      [34],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
