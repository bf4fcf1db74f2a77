// The RPC endpoint in-process over real streams: the in-flight bound (issue 2), and a client that
// left while the kernel writes to it (issue 23, item 3).
import assert from "node:assert/strict";
import { PassThrough, Writable } from "node:stream";
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

/** The kernel's side of a socket whose other end has gone: every write fails as a dead socket's does. */
function departedClientStream(): Writable {
  return new Writable({
    write(_chunk, _enc, done) {
      done(Object.assign(new Error("This socket has been ended by the other party"), { code: "EPIPE" }));
    },
  });
}

it("a write to a client that left kills nothing: its notifications are dropped and its approval request fails at once, with no unhandled rejection (issue 23, item 3)", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  try {
    const logged: string[] = [];
    const waiting: { prefix: string; found: () => void }[] = [];
    const logs = (prefix: string) =>
      new Promise<void>((found) => {
        if (logged.some((l) => l.startsWith(prefix))) found();
        else waiting.push({ prefix, found });
      });
    const log = (line: string) => {
      logged.push(line);
      for (const w of waiting) if (line.startsWith(w.prefix)) w.found();
    };
    const input = new PassThrough();
    const departed = startRpcServer({ input, output: departedClientStream(), handlers: {}, log });
    // A frame the framing guard refuses is answered on the same dead stream, first in its write queue.
    input.write("Content-Length: 2\r\n\r\n[]");
    await logs("rejected frame");
    departed.client.notify("kernel/log", { level: "info", message: "to a client that left" });
    departed.client.notify("kernel/log", { level: "info", message: "and again" });
    await assert.rejects(
      departed.client.request("approval/request", {
        sessionId: "s",
        turnId: "r",
        call: { callId: "c", name: "shell", arguments: { command: "true" } },
        inputHash: "h",
        effectClass: "non_idempotent_write",
        preview: { kind: "text", text: "true" },
      }),
      /the client left before it answered approval\/request/,
    );
    await logs("a client left while the kernel wrote to it");
    assert.deepEqual(unhandled, [], "no write to a departed client surfaces as an unhandled rejection");
    assert.equal(logged.filter((l) => l.startsWith("a client left")).length, 1, "the departure is logged once");
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
});
