// docs/protocol.md is generated from the schemas; a stale copy fails (STYLE.md: never hand-copied).
import assert from "node:assert/strict";
import fs from "node:fs";
import { it } from "node:test";
import { protocolMarkdown } from "../../shared/protocol/describe.js";

it("docs/protocol.md matches the schemas (run `npm run docs` after changing shared/protocol/)", () => {
  assert.equal(fs.readFileSync("docs/protocol.md", "utf8"), protocolMarkdown());
});
