// A peer that dies in the middle of a JSON-RPC frame leaves nothing behind in the reader's process
// (issue 23, item 2): the crash campaign's kill -9 landed while the kernel wrote a frame, and the
// test process then stayed alive for ever after its tests passed.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createMessageConnection, StreamMessageWriter } from "vscode-jsonrpc/node.js";
import { frameReader } from "../../../../shared/node/frameReader.js";

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

it("a peer killed mid-frame leaves no timer that keeps the reading process alive (issue 23, item 2)", async () => {
  const before = timers();
  // A real process that writes the header and half the body of a frame, then is killed.
  const child = spawn(
    process.execPath,
    ["-e", `process.stdout.write('Content-Length: 200\\r\\n\\r\\n{"jsonrpc":"2.0","method":"turn/ev'); setInterval(() => {}, 1000);`],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const connection = createMessageConnection(frameReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.listen();
  await once(child.stdout, "data"); // the reader has the partial frame
  await sleep(20);
  child.kill("SIGKILL");
  await once(child, "close");
  connection.dispose();
  await sleep(20);
  assert.equal(timers(), before, "no timer is left armed for the frame that will never be completed");
});
