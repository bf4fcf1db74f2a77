// webview/errorKinds.ts: a turn refused because the session's pinned authority drifted (an MCP
// server's tool list changed: harness #19, issue 28) offers to continue in a new chat next to the error, and
// where only the tools changed, to go on with the earlier ones (issue 25 item 2); the other kinds keep their buttons.
import assert from "node:assert/strict";
import { it } from "node:test";
import { actionsFor, classifyTurnError } from "../../../webview/errorKinds.js";

const DRIFT =
  "refused to resume: the session's authority drifted (tools changed since it was recorded); start a new session to run under the current tools and workspace";

it("a drifted authority is its own kind, and its first button continues in a new chat (harness #19)", () => {
  assert.equal(classifyTurnError(DRIFT), "toolDrift");
  assert.deepEqual(
    actionsFor("toolDrift").map((a) => [a.label, a.action]),
    [
      ["Continue in a new chat", "continueInNewChat"],
      ["Use the old tools for this chat", "keepChatTools"],
      ["Open the log", "showLog"],
    ],
  );
  assert.equal(classifyTurnError(DRIFT.replace("(tools changed", "(workspace changed")), "drift");
  assert.deepEqual(
    actionsFor("drift").map((a) => [a.label, a.action]),
    [
      ["Continue in a new chat", "continueInNewChat"],
      ["Open the log", "showLog"],
    ],
  );
  assert.equal(classifyTurnError("the model round failed: gguf could not load"), "model", "other errors keep their kind");
  assert.deepEqual(
    actionsFor("turn").map((a) => a.action),
    ["showLog"],
  );
});
