// A CLI command whose kernel dies while it waits for an answer exits 4 and says what happened
// (README: exit codes; issue 23, item 4): it used to wait on a request that could never settle, and
// node ended it with exit 13 and no word. Real kernel, real CLI, a model server that never answers.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { it } from "node:test";
import { connectOrStartKernel } from "../../../shared/node/kernelLauncher.js";
import { DIST, tempDir } from "../../support/kernelProcess.js";
import { alive, isolatedEnv, startCli, waitFor } from "../../support/cliProcess.js";

it("a CLI command whose kernel is killed mid-request exits 4 with a message, never 13 in silence (README exit codes; issue 23, item 4)", async () => {
  // The model server takes each request and never answers: `hearth compact` waits in the
  // kernel's capability probe of the session's model for as long as the test wants.
  const posts: string[] = [];
  const server = http.createServer((req) => {
    posts.push(`${req.method} ${req.url}`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const root = tempDir("dies-mid-request");
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace);
  const env = isolatedEnv(root, 30);
  const kernel = await connectOrStartKernel({ distDir: DIST, workspace, env });
  const info = await kernel.client.initialize("test", "0");
  try {
    const model = `openai:http://127.0.0.1:${(server.address() as AddressInfo).port}/v1#m`;
    const { sessionId } = await kernel.client.request("session/create", { model });
    const compact = startCli(["compact", "--workspace", workspace, sessionId], env);
    await waitFor(() => posts.length > 0, "the compact request to reach the model server");
    process.kill(info.kernelPid, "SIGKILL");
    const result = await compact.result;
    assert.equal(result.code, 4, `exit ${result.code}: ${result.stderr}`);
    assert.match(
      result.stderr,
      /^hearth compact: the kernel \(pid \d+, journal .*\) closed the connection before it answered: it stopped or crashed/,
    );
    assert.match(result.stderr, /see its log .*\.log/, "it says where to look");
  } finally {
    kernel.dispose();
    if (alive(info.kernelPid)) process.kill(info.kernelPid, "SIGKILL");
    server.closeAllConnections();
    server.close();
  }
});
