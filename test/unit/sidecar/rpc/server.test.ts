// The RPC endpoint in-process over real streams: the in-flight bound (issue 2).
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { it } from "node:test";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js";
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
