// The detached kernel's socket and the privacy of Hearth's data (issue 12, item 2; issue 11, item 17):
// only clients with the per-kernel secret are served, the kernel exits when idle, a crashed one is
// replaced by the next client, and every folder/file it creates is owner-only.
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { it } from "node:test";
import { connectOrStartKernel } from "../../../shared/node/kernelLauncher.js";
import { defaultJournalPath, kernelEndpoint } from "../../../shared/node/paths.js";
import { DIST, tempDir } from "../../support/kernelProcess.js";
import { alive, isolatedEnv, waitFor } from "../../support/cliProcess.js";

function setup(prefix: string, idleSeconds = 2) {
  const root = tempDir(prefix);
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const env = isolatedEnv(root, idleSeconds);
  return { root, workspace, env, home: env.HEARTH_HOME, journalPath: defaultJournalPath(workspace, env) };
}

/** Sends raw bytes to the socket and returns everything the kernel answers before it closes. */
function rawExchange(socketPath: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath, () => s.write(bytes));
    let answer = "";
    s.setEncoding("utf8").on("data", (c: string) => {
      answer += c;
    });
    s.once("close", () => resolve(answer));
    s.once("error", reject);
    setTimeout(() => {
      s.destroy();
      reject(new Error(`the kernel kept the connection open; it answered ${JSON.stringify(answer)}`));
    }, 10_000);
  });
}

const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);

it("a socket client without the kernel's secret is refused before any request reaches a handler (issue 12, item 2)", async () => {
  const t = setup("socket-auth", 30);
  const kernel = await connectOrStartKernel({ distDir: DIST, workspace: t.workspace, env: t.env });
  const { socketPath, secretPath } = kernelEndpoint(kernel.journalPath, t.env);
  try {
    const info = await kernel.client.initialize("test", "0");
    assert.equal(kernel.started, true);
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { clientName: "x", clientVersion: "0", protocolVersion: 1 },
    });
    const frame = `Content-Length: ${Buffer.byteLength(initialize)}\r\n\r\n${initialize}`;
    assert.match(await rawExchange(socketPath, frame), /^refused: this kernel serves only clients that present its secret/);
    assert.match(await rawExchange(socketPath, `HEARTH-AUTH ${"0".repeat(64)}\n${frame}`), /^refused: /);
    const secret = fs.readFileSync(secretPath, "utf8");
    assert.match(
      await rawExchange(socketPath, `HEARTH-AUTH ${secret.slice(0, -1)}\n`),
      /^refused: /,
      "a prefix of the secret is not the secret",
    );
    assert.equal(mode(secretPath), "600");
    assert.equal(mode(path.dirname(socketPath)), "700");
    // The same kernel still serves its authenticated client.
    assert.equal((await kernel.client.request("session/list", { limit: 10 })).sessions.length, 0);
    process.kill(info.kernelPid, "SIGTERM");
  } finally {
    kernel.dispose();
  }
});

it("Hearth's folders are 0700 and its files 0600 from creation, and wider ones are repaired at open (issue 11, item 17)", async () => {
  const t = setup("private");
  process.umask(0o022); // the usual umask that made the journal 0644
  // A journal folder and file left readable by an older Hearth.
  fs.mkdirSync(path.dirname(t.journalPath), { recursive: true, mode: 0o755 });
  fs.chmodSync(path.dirname(t.journalPath), 0o755);
  const kernel = await connectOrStartKernel({ distDir: DIST, workspace: t.workspace, env: t.env });
  try {
    const info = await kernel.client.initialize("test", "0");
    await kernel.client.request("session/create", { title: "private" }); // writes the WAL
    for (const dir of [
      t.home,
      path.join(t.home, "journals"),
      path.join(t.home, "kv-state"),
      path.join(t.home, "models"),
      path.join(t.home, "run"),
    ]) {
      assert.equal(mode(dir), "700", dir);
    }
    for (const file of [
      t.journalPath,
      `${t.journalPath}-wal`,
      `${t.journalPath}-shm`,
      `${t.journalPath}.lock`,
      kernelEndpoint(t.journalPath, t.env).logPath,
    ]) {
      assert.equal(mode(file), "600", file);
    }
    process.kill(info.kernelPid, "SIGTERM");
    await waitFor(() => !alive(info.kernelPid), "the kernel to stop");
    fs.chmodSync(t.journalPath, 0o644);
    fs.chmodSync(path.join(t.home, "journals"), 0o755);
  } finally {
    kernel.dispose();
  }
  const again = await connectOrStartKernel({ distDir: DIST, workspace: t.workspace, env: t.env });
  try {
    const info = await again.client.initialize("test", "0");
    assert.equal(mode(t.journalPath), "600");
    assert.equal(mode(path.join(t.home, "journals")), "700");
    assert.match(fs.readFileSync(kernelEndpoint(t.journalPath, t.env).logPath, "utf8"), /repaired permissions of .*\.sqlite: 644 → 600/);
    process.kill(info.kernelPid, "SIGTERM");
  } finally {
    again.dispose();
  }
});

it("a detached kernel exits after its idle period with no client, and a crashed one is replaced by the next client (issue 12, item 2)", async () => {
  const t = setup("idle", 1);
  const first = await connectOrStartKernel({ distDir: DIST, workspace: t.workspace, env: t.env });
  const pid = (await first.client.initialize("test", "0")).kernelPid;
  const joined = await connectOrStartKernel({ distDir: DIST, workspace: t.workspace, env: t.env });
  assert.equal(joined.started, false);
  assert.equal((await joined.client.initialize("test", "0")).kernelPid, pid, "a second client joins the running kernel");
  joined.dispose();
  await new Promise((r) => setTimeout(r, 1500));
  assert.ok(alive(pid), "a kernel with a client stays up past its idle period");
  first.dispose();
  await waitFor(() => !alive(pid), "the idle kernel to exit", 10_000);
  assert.equal(fs.existsSync(kernelEndpoint(t.journalPath, t.env).socketPath), false, "it removed its socket");

  const second = await connectOrStartKernel({ distDir: DIST, workspace: t.workspace, env: t.env });
  const crashed = (await second.client.initialize("test", "0")).kernelPid;
  process.kill(crashed, "SIGKILL");
  await second.closed;
  second.dispose();
  const third = await connectOrStartKernel({ distDir: DIST, workspace: t.workspace, env: t.env });
  try {
    const info = await third.client.initialize("test", "0");
    assert.equal(third.started, true);
    assert.notEqual(info.kernelPid, crashed);
    assert.match(fs.readFileSync(kernelEndpoint(t.journalPath, t.env).logPath, "utf8"), /journal reconciled/);
    process.kill(info.kernelPid, "SIGTERM");
  } finally {
    third.dispose();
  }
});
