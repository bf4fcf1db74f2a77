import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { ErrorCode, HearthError } from "../../../../shared/errors.js";
import { HEARTH_VERSION } from "../../../../shared/version.js";
import { downloadedModelPath, downloadModel, type DownloadProgress } from "../../../../sidecar/inference/modelDownload.js";
import { startModelFileServer } from "../../../support/modelFileServer.js";

const MB = 1024 * 1024;
// Four of node-llama-cpp's (ipull's) 5 MB chunks, so a cancel leaves whole chunks on disk.
const body = Buffer.alloc(20 * MB, 7);
body.write("GGUF", 0, "latin1");
for (let i = 0; i < body.length; i += 4096) body.writeUInt32LE(i, i + 4 < body.length ? i + 4 : i);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hearth-dl-"));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test("a cancelled download keeps its chunks and the next one fetches only what is missing (issue 10, item 4)", async () => {
  const server = await startModelFileServer(body);
  const prev = process.env.HF_ENDPOINT;
  process.env.HF_ENDPOINT = server.url; // the hf: URI resolves against the local server
  try {
    const uri = "hf:owner/repo/model-Q4_K_M.gguf";
    const modelsDir = path.join(dir, "models");
    server.slowFirstChunk = true;
    const abort = new AbortController();
    const seen: DownloadProgress[] = [];
    const first = downloadModel(uri, modelsDir, {
      signal: abort.signal,
      onProgress: (p) => {
        seen.push(p);
        // Everything but the held first chunk is in: cancel.
        if (p.receivedBytes >= body.length - 5 * MB) abort.abort();
      },
    });
    await assert.rejects(
      first,
      (e: unknown) =>
        e instanceof HearthError &&
        e.code === ErrorCode.ModelUnavailable &&
        (e.data as { cancelled?: boolean }).cancelled === true &&
        /resumes/.test(e.message),
    );
    assert.ok(seen.length > 0 && seen.every((p) => p.totalBytes === body.length), "progress carries the total");
    assert.ok(seen.at(-1)!.bytesPerSecond > 0, "progress carries the speed");
    assert.equal(await downloadedModelPath(uri, modelsDir), null, "a cancelled download is not a model yet");
    const kept = fs.readdirSync(modelsDir, { recursive: true }).map(String);
    assert.equal(
      kept.filter((f) => f.endsWith(".ipull")).length,
      1,
      `the cancelled download keeps its partial file (the first chunk was held, so it cannot have finished): ${kept.join(", ")}`,
    );

    server.slowFirstChunk = false;
    server.resetCount();
    const resumed: number[] = [];
    const file = await downloadModel(uri, modelsDir, { onProgress: (p) => resumed.push(p.receivedBytes) });
    // The chunk in flight at the cancel may be fetched again; every finished one is kept.
    assert.ok(server.sentBytes() <= body.length - 5 * MB, `the resumed download fetched ${server.sentBytes()} of ${body.length} bytes`);
    assert.ok(resumed[0]! >= 5 * MB, `the resumed download's progress starts from what was kept (${resumed[0]})`);
    assert.ok(fs.readFileSync(file).equals(body), "the file is whole and exact");
    assert.equal(await downloadedModelPath(uri, modelsDir), file, "once downloaded, it resolves without the network");
  } finally {
    if (prev === undefined) delete process.env.HF_ENDPOINT;
    else process.env.HF_ENDPOINT = prev;
    await server.close();
  }
});

// ipull renames its file to the final name once its byte count reaches the total, cancelled or not, and a
// count that includes a chunk asked for twice reaches it with parts missing: the next load trusted that file.
test("a download cancelled at its last byte leaves no model under its final name (issue 23: a cancelled download is not a model)", async () => {
  const server = await startModelFileServer(body);
  const prev = process.env.HF_ENDPOINT;
  process.env.HF_ENDPOINT = server.url;
  try {
    const uri = "hf:owner/repo/late-Q4_K_M.gguf";
    const modelsDir = path.join(dir, "late");
    const abort = new AbortController();
    await assert.rejects(
      downloadModel(uri, modelsDir, { signal: abort.signal, onProgress: (p) => p.receivedBytes >= p.totalBytes && abort.abort() }),
      (e: unknown) => e instanceof HearthError && (e.data as { cancelled?: boolean }).cancelled === true,
    );
    // The downloader closes behind the cancel: wait until its partial file is renamed or removed.
    await waitFor(() => {
      const files = fs.readdirSync(modelsDir, { recursive: true }).map(String);
      return !files.some((f) => f.endsWith(".ipull") || (f.endsWith(".gguf") && f.startsWith(".downloading")));
    });
    assert.equal(
      await downloadedModelPath(uri, modelsDir),
      null,
      `nothing under a final name: ${fs.readdirSync(modelsDir, { recursive: true }).join(", ")}`,
    );
    assert.deepEqual(
      fs.readdirSync(modelsDir).filter((f) => f.endsWith(".gguf")),
      [],
      "the models folder holds no file of the cancelled download",
    );

    const file = await downloadModel(uri, modelsDir);
    assert.ok(fs.readFileSync(file).equals(body), "the next load downloads it whole");
    assert.equal(path.dirname(file), modelsDir, "a finished download lands in the models folder");
    assert.deepEqual(fs.readdirSync(path.join(modelsDir, ".downloading")), [], "and leaves nothing staged");
  } finally {
    if (prev === undefined) delete process.env.HF_ENDPOINT;
    else process.env.HF_ENDPOINT = prev;
    await server.close();
  }
});

test("a finished URL download is found again without downloading it twice (staging keeps what skipExisting gave)", async () => {
  const small = body.subarray(0, 2 * MB);
  const server = await startModelFileServer(small);
  try {
    const modelsDir = path.join(dir, "again");
    const file = await downloadModel(`${server.url}/again-q8_0.gguf`, modelsDir);
    server.resetCount();
    assert.equal(await downloadModel(`${server.url}/again-q8_0.gguf`, modelsDir), file);
    assert.equal(server.sentBytes(), 0, "the second load fetched no body bytes");
  } finally {
    await server.close();
  }
});

async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
}

test("offline, a model download fails with an error that says what to do (issue 6, item 5)", async () => {
  const server = await startModelFileServer(body);
  const url = server.url;
  await server.close(); // nothing listens on that port any more: the network is unreachable
  await assert.rejects(
    downloadModel(`${url}/m-q8_0.gguf`, path.join(dir, "offline")),
    (e: unknown) =>
      e instanceof HearthError &&
      e.code === ErrorCode.ModelUnavailable &&
      /offline/.test(e.message) &&
      /GGUF file you already have/.test(e.message),
  );
});

test("every request of a model download names Hearth's exact version as its User-Agent (harness #11, issue 23 item 16)", async () => {
  const small = body.subarray(0, MB);
  const server = await startModelFileServer(small);
  try {
    const file = await downloadModel(`${server.url}/ua-q8_0.gguf`, path.join(dir, "ua"));
    assert.ok(fs.readFileSync(file).equals(small));
    assert.ok(
      server.requests.some((r) => r.startsWith("GET")),
      `the download's own requests reached the server: ${server.requests.join(", ")}`,
    );
    assert.deepEqual(
      server.userAgents.map((ua, i) => `${server.requests[i]} ${ua}`),
      server.requests.map((r) => `${r} Hearth/${HEARTH_VERSION}`),
    );
  } finally {
    await server.close();
  }
});
