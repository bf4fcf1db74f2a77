// The kernel process over real stdio: handshake, validation, bounds and shutdown (issue 2).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { after, describe, it } from "node:test";
import { ErrorCode } from "../../shared/errors.js";
import { PROTOCOL_VERSION, REQUEST_METHODS } from "../../shared/protocol/index.js";
import { HEARTH_VERSION } from "../../shared/version.js";
import type { KernelRequestError } from "../../shared/node/kernelClient.js";
import { DIST, startTestKernel, tempDir } from "../support/kernelProcess.js";

/** Sends raw bytes and collects raw framed replies: the way a broken client would talk. */
function rawKernel() {
  const root = tempDir("raw");
  const child = spawn(
    process.execPath,
    [path.join(DIST, "sidecar.mjs"), "--workspace", root, "--db", path.join(tempDir("rawdb"), "j.sqlite")],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let buffer = "";
  const waiters: (() => void)[] = [];
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d: string) => {
    buffer += d;
    waiters.splice(0).forEach((w) => {
      w();
    });
  });
  const replies = (): { id: unknown; result?: unknown; error?: { code: number; message: string } }[] =>
    buffer
      .split(/Content-Length: \d+\r\n\r\n/)
      .filter(Boolean)
      .map((b) => JSON.parse(b));
  return {
    child,
    sendBody(body: string | Buffer) {
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
      child.stdin.write(`Content-Length: ${bytes.length}\r\n\r\n`);
      child.stdin.write(bytes);
    },
    send(msg: unknown) {
      this.sendBody(JSON.stringify(msg));
    },
    async waitForReplies(n: number) {
      const deadline = Date.now() + 10_000;
      while (replies().length < n) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${n} replies; got ${buffer}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
      return replies();
    },
  };
}

describe("kernel protocol", () => {
  const kernels: { stop(): Promise<void> }[] = [];
  after(async () => {
    for (const k of kernels) await k.stop();
  });

  it("initialize returns kernel version, protocol version, workspace root and capabilities", async () => {
    const k = startTestKernel();
    kernels.push(k);
    const info = await k.client.initialize("test", "0");
    assert.equal(info.kernelVersion, HEARTH_VERSION);
    assert.equal(info.protocolVersion, PROTOCOL_VERSION);
    assert.equal(info.workspaceRoot, (await import("node:fs")).realpathSync(k.workspace));
    assert.equal(info.journalPath, k.journalPath);
    assert.ok(info.capabilities.implementedMethods.includes("initialize"));
  });

  it("refuses a client that speaks another protocol version", async () => {
    const k = startTestKernel();
    kernels.push(k);
    await assert.rejects(
      k.client.request("initialize", { clientName: "t", clientVersion: "0", protocolVersion: PROTOCOL_VERSION + 1 }),
      (e: KernelRequestError) => e.code === ErrorCode.InvalidParams && /protocol mismatch/.test(e.message),
    );
  });

  it("every protocol method answers: implemented, or NotImplemented with a clear message, never MethodNotFound", async () => {
    const k = startTestKernel();
    kernels.push(k);
    for (const method of REQUEST_METHODS) {
      if (method === "kernel/shutdown") continue;
      try {
        await k.client.connection.sendRequest(method, {});
      } catch (e) {
        const err = e as { code: number; message: string };
        assert.notEqual(err.code, ErrorCode.MethodNotFound, `${method} is unknown to the kernel`);
        if (err.code === ErrorCode.NotImplemented) assert.match(err.message, new RegExp(`not implemented: ${method}`));
      }
    }
  });

  it("malformed JSON, a bad envelope, an unknown method, invalid params and an oversized message each get an error and the kernel keeps serving", async () => {
    const raw = rawKernel();
    try {
      raw.sendBody('{"jsonrpc":"2.0","id":1,"method":"initialize",');
      raw.send({ hello: "world", id: 2 });
      raw.send({ jsonrpc: "2.0", id: 3, method: "no/such-method", params: {} });
      raw.send({ jsonrpc: "2.0", id: 4, method: "session/history", params: { sessionId: 42 } });
      raw.sendBody(
        Buffer.concat([
          Buffer.from('{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"pad":"'),
          Buffer.alloc(9 * 1024 * 1024, 97),
          Buffer.from('"}}'),
        ]),
      );
      raw.send({
        jsonrpc: "2.0",
        id: 6,
        method: "initialize",
        params: { clientName: "raw", clientVersion: "0", protocolVersion: PROTOCOL_VERSION },
      });
      const replies = await raw.waitForReplies(6);
      const byId = new Map(replies.map((r) => [r.id, r]));
      assert.equal(replies[0]!.error?.code, ErrorCode.ParseError);
      assert.equal(byId.get(2)?.error?.code, ErrorCode.InvalidRequest);
      assert.equal(byId.get(3)?.error?.code, ErrorCode.MethodNotFound);
      assert.equal(byId.get(4)?.error?.code, ErrorCode.InvalidParams);
      assert.match(byId.get(4)!.error!.message, /field `sessionId`/);
      assert.equal(byId.get(5)?.error?.code, ErrorCode.MessageTooLarge);
      assert.equal((byId.get(6)!.result as { kernelVersion: string }).kernelVersion, HEARTH_VERSION);
    } finally {
      raw.child.kill("SIGKILL");
    }
  });

  it("shuts down cleanly on kernel/shutdown, on stdin close and on SIGTERM", async () => {
    const a = startTestKernel();
    await a.client.request("kernel/shutdown", undefined);
    assert.deepEqual(await a.exited, { code: 0, signal: null });
    const b = startTestKernel();
    await b.client.initialize("t", "0");
    b.child.stdin!.end();
    assert.deepEqual(await b.exited, { code: 0, signal: null });
    const c = startTestKernel();
    await c.client.initialize("t", "0");
    c.child.kill("SIGTERM");
    assert.deepEqual(await c.exited, { code: 0, signal: null });
  });
});
