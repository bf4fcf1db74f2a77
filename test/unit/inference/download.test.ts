import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { downloadFile, resolveHfModel } from "../../../sidecar/inference/download.js";
import { parseModelSpec } from "../../../sidecar/inference/modelSpec.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";

const body = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));

/** A local server with Range support; `cutAfter` drops the first connection after that many bytes. */
async function serve(cutAfter: number | null) {
  const ranges: (string | undefined)[] = [];
  let cut = cutAfter;
  const server = http.createServer((req, res) => {
    ranges.push(req.headers.range);
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    const start = m ? Number(m[1]) : 0;
    const slice = body.subarray(start);
    res.writeHead(m ? 206 : 200, { "content-length": slice.length, ...(m ? { "content-range": `bytes ${start}-${body.length - 1}/${body.length}` } : {}) });
    if (cut !== null) {
      res.write(slice.subarray(0, cut));
      cut = null;
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    res.end(slice);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, ranges, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test("an interrupted download resumes from the partial file with a Range request (issue 6, item 5)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-dl-"));
  const { server, ranges, url } = await serve(70_000);
  try {
    const dest = path.join(dir, "m.gguf");
    await assert.rejects(downloadFile(`${url}/m.gguf`, dest), (e: unknown) => e instanceof HearthError && /run it again to resume/.test(e.message));
    const partial = fs.statSync(`${dest}.partial`).size;
    assert.ok(partial > 0 && partial < body.length, `partial ${partial}`);
    const progress: number[] = [];
    await downloadFile(`${url}/m.gguf`, dest, { onProgress: (p) => progress.push(p.receivedBytes) });
    assert.deepEqual(fs.readFileSync(dest), body);
    assert.equal(ranges.at(-1), `bytes=${partial}-`);
    assert.equal(progress.at(-1), body.length);
    assert.ok(progress[0]! > partial, "progress counts the resumed bytes");
    assert.equal(fs.existsSync(`${dest}.partial`), false);
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("offline, a model download fails with an error that says what to do (issue 6, item 5)", async () => {
  const { server, url } = await serve(null);
  server.close(); // nothing listens on that port any more: the network is unreachable
  await new Promise((r) => server.once("close", r));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-dl-"));
  try {
    const spec = parseModelSpec("hf:owner/repo/model-q8_0.gguf");
    assert.equal(spec.kind, "hf");
    await assert.rejects(resolveHfModel(spec as Extract<typeof spec, { kind: "hf" }>, dir, { endpoint: url }),
      (e: unknown) => e instanceof HearthError && e.code === ErrorCode.ModelUnavailable && /offline/.test(e.message) && /GGUF file you already have/.test(e.message));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
