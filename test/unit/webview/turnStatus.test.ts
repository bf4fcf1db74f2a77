// webview/turnStatus.ts in a real DOM (jsdom): a turn's footer says how it ended (issue 25, item 10).
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { JSDOM } from "jsdom";

const { window } = new JSDOM("<!DOCTYPE html><body></body>");
after(() => window.close());
(globalThis as { document?: unknown }).document = window.document;
const { turnStatus, isAuthorityDrift, driftText } = await import("../../../webview/turnStatus.js");

describe("a turn's status line (issue 25, item 10)", () => {
  it("an answer cut at the token cap says so and what to do next, never plain Completed", () => {
    const [status, hint] = turnStatus({ status: "completed", stoppedAtTokenCap: true });
    assert.equal(status?.textContent, "Stopped at the token cap: the answer is cut off");
    assert.equal(status?.dataset.cut, "token-cap");
    assert.match(hint?.textContent ?? "", /Send “continue”/);
  });

  it("a finished answer says Completed, with no hint", () => {
    const parts = turnStatus({ status: "completed" });
    assert.equal(parts.length, 1);
    assert.equal(parts[0]?.textContent, "Completed");
    assert.equal(parts[0]?.dataset.status, "completed");
  });

  it("a chat that cannot go on because its tools changed says so in plain words, not the kernel's (issue 25, item 2)", () => {
    const message =
      "model_failed: refused to resume: the session's authority drifted (tools changed since it was recorded); start a new session to run under the current tools and workspace";
    assert.equal(isAuthorityDrift(message), true);
    const [status] = turnStatus({ status: "failed", error: { message } });
    assert.match(
      status?.textContent ?? "",
      /^The tools Hearth offers changed since this chat began\. Continue in a new chat.* Or use the old tools for this chat/,
    );
    assert.doesNotMatch(status?.textContent ?? "", /authority|session/);
    assert.equal(isAuthorityDrift("model_failed: the model round failed"), false);
  });

  it("the drift's words name what changed, as the kernel's refusal does: the folder, the tools, both, or neither named", () => {
    const refusal = (what: string) =>
      `refused to resume: the session's authority drifted (${what} changed since it was recorded); start a new session`;
    assert.match(driftText(refusal("workspace")), /^The folder changed since this chat began/);
    assert.match(driftText(refusal("workspace, enablement")), /^The tools Hearth offers and the folder changed since this chat began/);
    assert.match(driftText(refusal("ceilings")), /^The tools Hearth offers changed/);
    assert.match(driftText(refusal("snapshot version (1 → 2)")), /^This chat began with other tools or another folder than Hearth has now/);
  });
});
