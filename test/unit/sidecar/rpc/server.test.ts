// The RPC endpoint in-process over real streams: the in-flight bound (issue 2).
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { it } from "node:test";
import { CancellationTokenSource, createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js";
import { ErrorCode } from "../../../../shared/errors.js";
import { startRpcServer } from "../../../../sidecar/rpc/server.js";

it("rejects requests beyond the in-flight bound with Overloaded and serves again once they drain", async () => {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  startRpcServer({
    input: toServer,
    output: toClient,
    log: () => {},
    maxInFlight: 3,
    handlers: {
      "model/status": async () => {
        await gate;
        return { state: "none" as const, spec: null, error: null };
      },
    },
  });
  const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  client.listen();
  const calls = Array.from({ length: 5 }, () =>
    client.sendRequest("model/status").then(
      () => "ok",
      (e: { code: number }) => e.code,
    ),
  );
  await new Promise((r) => setTimeout(r, 100));
  release();
  const outcomes = await Promise.all(calls);
  assert.equal(outcomes.filter((o) => o === "ok").length, 3);
  assert.equal(outcomes.filter((o) => o === ErrorCode.Overloaded).length, 2);
  assert.equal(await client.sendRequest("model/status").then(() => "ok"), "ok");
  client.dispose();
});

it("a request its client cancels is answered Cancelled, and its handler's signal aborts, also when it was cancelled before dispatch", async () => {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const seen: boolean[] = [];
  startRpcServer({
    input: toServer,
    output: toClient,
    log: () => {},
    handlers: {
      // Waits for its cancel (or a second): what the signal said is what the client's cancel reached.
      "model/status": async (_p, ctx) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 1_000);
          ctx.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            resolve();
          });
        });
        seen.push(ctx.signal.aborted);
        ctx.signal.throwIfAborted();
        return { state: "none" as const, spec: null, error: null };
      },
    },
  });
  const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  client.listen();
  // Cancelled at once: vscode-jsonrpc queues the cancel with the request, before the server dispatches it.
  const cancels = [new CancellationTokenSource(), new CancellationTokenSource()];
  const early = client.sendRequest("model/status", cancels[0]!.token);
  cancels[0]!.cancel();
  const late = client.sendRequest("model/status", cancels[1]!.token);
  setTimeout(() => cancels[1]!.cancel(), 50);
  const codes = await Promise.all(
    [early, late].map((p) =>
      p.then(
        () => "answered",
        (e: { code: number }) => e.code,
      ),
    ),
  );
  assert.deepEqual(codes, [ErrorCode.Cancelled, ErrorCode.Cancelled]);
  assert.deepEqual(seen, [true, true]);
  client.dispose();
});
