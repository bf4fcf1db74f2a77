import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { plainText } from "../../../extension/plainText.js";

describe("plainText: a notification never shows Markdown backticks (issue 25 item 11)", () => {
  it("a code span becomes a quoted name; a stray backtick goes; other text is kept", () => {
    assert.equal(plainText("wrote 28 bytes to `app.txt`"), "wrote 28 bytes to “app.txt”");
    assert.equal(plainText("run ``npm test`` then `hearth task list`"), "run “npm test” then “hearth task list”");
    assert.equal(plainText("a lone ` tick"), "a lone  tick");
    assert.equal(plainText("no quoting here"), "no quoting here");
  });
});
