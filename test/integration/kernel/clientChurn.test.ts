// Clients arriving and leaving at once while a background task streams (issue 23, item 3): a
// client that half-closes its socket while the kernel writes to it (a broadcast delta, an approval
// request) must cost the kernel nothing: the kernel stays up, every other client hears every event,
// and the task's turn completes. Real kernel process, real sockets, real CLI commands, the scripted model.
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { it } from "node:test";
import { connectOrStartKernel } from "../../../shared/node/kernelLauncher.js";
import { AUTH_PREFIX } from "../../../shared/node/kernelSocket.js";
import { journalLockPath, kernelEndpoint } from "../../../shared/node/paths.js";
import type { NotificationParams, TaskSummary } from "../../../shared/protocol/index.js";
import { PROTOCOL_VERSION } from "../../../shared/protocol/index.js";
import { DIST, tempDir } from "../../support/kernelProcess.js";
import { alive, isolatedEnv, runCli, waitFor } from "../../support/cliProcess.js";

const ROUNDS_OF_CLIENTS = 5;
const CLIENTS_PER_ROUND = 12;
/** Rounds whose clients also include ones that stop reading first (the kernel's writes to them pile up). */
const STALLING_ROUNDS = 2;
const STALLED_PER_ROUND = 2;
const CLI_COMMANDS_AT_ONCE = 6;
const STREAMED_PARTS = 4000;
/** Each delta's size: a stalled client's socket buffers (a few hundred KiB) fill within a second of stream. */
const PART_BYTES = 1024;
/** What the steady client hears after a client stalls before that client leaves: well past its socket buffers. */
const STALL_BYTES = 1024 * 1024;

function frame(message: unknown): string {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/**
 * One client that initializes, waits until the kernel writes to it unasked (a broadcast or an
 * approval request: the frame after initialize's answer), then half-closes and waits for the close.
 * The kernel's next write to it finds a socket the other end has ended (EPIPE).
 */
function halfClosingClient(socketPath: string, secret: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath, () => {
      s.write(`${AUTH_PREFIX}${secret}\n`);
      s.write(
        frame({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { clientName: "churn", clientVersion: "0", protocolVersion: PROTOCOL_VERSION },
        }),
      );
    });
    let heard = "";
    let ended = false;
    s.setEncoding("utf8").on("data", (chunk: string) => {
      heard += chunk;
      if (!ended && heard.split("Content-Length:").length > 2) {
        ended = true;
        s.end();
      }
    });
    s.once("close", () =>
      ended ? resolve() : reject(new Error(`the kernel closed a client before it left; it heard ${heard.slice(0, 300)}`)),
    );
    s.once("error", () => {
      /* a reset after the half-close is the kernel letting go; "close" follows */
    });
  });
}

/** What the steady client has heard so far, and a way to wait until it has heard more (or the stream has ended). */
interface Stream {
  heard(): number;
  untilHeard(bytes: number): Promise<void>;
}

/**
 * One client that initializes, then stops reading while the task streams: the kernel's writes to it
 * back up in its socket and in the connection's queue. Once the steady client has heard far more
 * than the socket holds, it half-closes, and after a little more stream it leaves with unread data,
 * so every write still queued to it fails (EPIPE, "ended by the other party", a destroyed stream).
 */
function stalledClient(socketPath: string, secret: string, stream: Stream): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath, () => {
      s.write(`${AUTH_PREFIX}${secret}\n`);
      s.write(
        frame({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { clientName: "stalled", clientVersion: "0", protocolVersion: PROTOCOL_VERSION },
        }),
      );
    });
    let heard = "";
    const onData = (chunk: string) => {
      heard += chunk;
      if (heard.split("Content-Length:").length < 2) return;
      s.off("data", onData);
      s.pause();
      void (async () => {
        await stream.untilHeard(stream.heard() + STALL_BYTES);
        s.end();
        await stream.untilHeard(stream.heard() + 64 * PART_BYTES);
        s.destroy();
      })().catch(reject);
    };
    s.setEncoding("utf8").on("data", onData);
    s.once("close", () => resolve());
    s.once("error", () => {
      /* the kernel letting go of a client that left; "close" follows */
    });
  });
}

function lastReconcileReport(logPath: string): Record<string, number> {
  const line = fs
    .readFileSync(logPath, "utf8")
    .split("\n")
    .filter((l) => l.includes("journal reconciled: "))
    .at(-1);
  assert.ok(line, `the kernel log ${logPath} has a reconcile line`);
  return JSON.parse(line.slice(line.indexOf("journal reconciled: ") + "journal reconciled: ".length)) as Record<string, number>;
}

it("clients connecting, half-closing and leaving at once while a task streams never take the kernel down: every turn on it completes (issue 23, item 3)", async () => {
  const root = tempDir("churn");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const script = path.join(root, "script.json");
  const parts = Array.from({ length: STREAMED_PARTS }, (_, i) => `${i} `.padEnd(PART_BYTES, "x"));
  fs.writeFileSync(
    script,
    JSON.stringify({
      rounds: [{ text: parts, delayMs: 2, toolCalls: [{ name: "shell", arguments: { command: "echo checked" } }] }, { text: ["Done."] }],
    }),
  );
  const model = `scripted:${script}`;
  const journalPath = path.join(root, "journal.sqlite");
  const env = { HEARTH_ALLOW_SCRIPTED: "1", ...isolatedEnv(root, 30) };
  const kernel = await connectOrStartKernel({ distDir: DIST, workspace, journalPath, env });
  // Named by the journal file's identity (issue 24), so known once the kernel has made the file.
  const endpoint = kernelEndpoint(journalPath, env);
  // A window: the one client that may answer the task's approval (issue 24).
  const info = await kernel.client.initialize("steady", "0", { client: { kind: "window", folder: workspace, asksPerson: true } });
  const died = kernel.closed.then(() => {
    throw new Error(`the kernel died under client churn; its log ends: ${fs.readFileSync(endpoint.logPath, "utf8").slice(-1500)}`);
  });
  died.catch(() => {});
  try {
    // The steady client answers the task's approval only once every other client has come and gone:
    // until then each arriving client is sent the approval request as well.
    let churnDone!: () => void;
    const afterChurn = new Promise<void>((r) => {
      churnDone = r;
    });
    kernel.client.onServerRequest("approval/request", async () => {
      await afterChurn;
      return { decision: "approve", reason: "approved by the steady client" };
    });
    let streamed = "";
    let streamEnded = false;
    let latest: TaskSummary | undefined;
    const listeners = new Set<() => void>();
    kernel.client.onNotification("turn/event", (n: NotificationParams<"turn/event">) => {
      if (n.event.type === "answer_delta") streamed += n.event.text;
      if (n.event.type === "tool_call") streamEnded = true; // the round's stream is over; the task waits for approval
      for (const l of listeners) l();
    });
    const stream: Stream = {
      heard: () => streamed.length,
      untilHeard: (bytes) =>
        new Promise((resolve) => {
          const check = () => {
            if (streamed.length < bytes && !streamEnded) return;
            listeners.delete(check);
            resolve();
          };
          listeners.add(check);
          check();
        }),
    };
    kernel.client.onNotification("task/updated", (n) => {
      latest = n.task;
    });
    const { task } = await kernel.client.request("task/start", { instruction: "stream", model });
    const secret = fs.readFileSync(endpoint.secretPath, "utf8").trim();

    for (let round = 0; round < ROUNDS_OF_CLIENTS; round++) {
      const leaving = Array.from({ length: CLIENTS_PER_ROUND }, () => halfClosingClient(endpoint.socketPath, secret));
      if (round < STALLING_ROUNDS)
        for (let i = 0; i < STALLED_PER_ROUND; i++) leaving.push(stalledClient(endpoint.socketPath, secret, stream));
      await Promise.race([Promise.all(leaving), died]);
    }
    // The terminal's way: several commands at once on one folder, each joining and leaving.
    const commands = Array.from({ length: CLI_COMMANDS_AT_ONCE }, () =>
      runCli(["tasks", "--workspace", workspace, "--db", journalPath, "--json"], env),
    );
    for (const listed of await Promise.race([Promise.all(commands), died])) {
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        (JSON.parse(listed.stdout) as { tasks: TaskSummary[] }).tasks.map((t) => t.taskId),
        [task.taskId],
      );
    }
    assert.ok(alive(info.kernelPid), "the kernel is still up after every client left");

    churnDone();
    await Promise.race([
      waitFor(() => latest?.taskId === task.taskId && latest.state === "completed", "the task to complete", 60_000),
      died,
    ]);
    assert.equal(streamed, `${parts.join("")}Done.`, "the steady client heard every delta, whatever the others did");
    assert.equal((await kernel.client.request("task/show", { taskId: task.taskId })).result, "Done.");
    assert.equal(Number(fs.readFileSync(journalLockPath(journalPath), "utf8")), info.kernelPid, "the same kernel owns the journal");
    process.kill(info.kernelPid, "SIGTERM");
    await waitFor(() => !alive(info.kernelPid), "the kernel to stop");
  } finally {
    kernel.dispose();
    if (alive(info.kernelPid)) process.kill(info.kernelPid, "SIGKILL");
  }

  // The next kernel finds nothing its predecessor left behind.
  const next = await connectOrStartKernel({ distDir: DIST, workspace, journalPath, env });
  try {
    const nextInfo = await next.client.initialize("test", "0");
    const report = lastReconcileReport(endpoint.logPath);
    assert.equal(report.runsFailed, 0, JSON.stringify(report));
    assert.equal(report.attemptsOrphaned, 0, JSON.stringify(report));
    process.kill(nextInfo.kernelPid, "SIGTERM");
  } finally {
    next.dispose();
  }
});
