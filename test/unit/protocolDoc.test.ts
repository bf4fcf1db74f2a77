// docs/protocol.md is generated from the schemas; a stale copy fails (STYLE.md: never hand-copied).
import assert from "node:assert/strict";
import fs from "node:fs";
import { it } from "node:test";
import { z } from "zod";
import { protocolMarkdown } from "../../shared/protocol/describe.js";
import { notifications, requests, serverRequests } from "../../shared/protocol/methods.js";

it("docs/protocol.md matches the schemas (run `npm run docs` after changing shared/protocol/)", () => {
  assert.equal(fs.readFileSync("docs/protocol.md", "utf8"), protocolMarkdown());
});

/** Every property name any schema of the protocol declares, however deeply nested. */
function propertyNames(json: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(json)) for (const v of json) propertyNames(v, into);
  else if (json && typeof json === "object") {
    const properties = (json as { properties?: Record<string, unknown> }).properties;
    if (properties) for (const name of Object.keys(properties)) into.add(name);
    for (const v of Object.values(json)) propertyNames(v, into);
  }
  return into;
}

it("one name per concept: the protocol says turnId and taskId, never the journal's runId or delegationId (issue 22, item 4)", () => {
  const schemas = [...Object.values(requests), ...Object.values(serverRequests)].flatMap((m) => [m.params, m.result]);
  const all = [...schemas, ...Object.values(notifications)].map((s) => z.toJSONSchema(s, { io: "input", unrepresentable: "any" }));
  const names = propertyNames(all);
  assert.ok(names.has("turnId") && names.has("taskId"), "the protocol names turns and tasks");
  for (const spec of ["runId", "delegationId", "activeRunId"])
    assert.ok(!names.has(spec), `a schema declares ${spec}; call it by its glossary name`);
});
