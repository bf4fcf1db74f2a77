// Modes (issue 27, item 2), as pure functions: a mode file's front matter is read or refused with
// its reason; a mode offers exactly the tools its groups and names cover (an MCP tool is never
// "read"); a .roomodes file becomes mode files that read back as the same modes, and a Roo group
// limited by file is left out (narrower, never wider) with a note.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { offeredByMode } from "../../../../../sidecar/kernel/modes/modeCatalog.js";
import { BUILTIN_MODES, parseModeFile } from "../../../../../sidecar/kernel/modes/modeDefinitions.js";
import { importRoomodes } from "../../../../../sidecar/kernel/modes/roomodesImport.js";

const TOOLS = [
  { name: "read_file", effectClass: "read" },
  { name: "list_dir", effectClass: "read" },
  { name: "write_file", effectClass: "idempotent_write" },
  { name: "edit_file", effectClass: "non_idempotent_write" },
  { name: "shell", effectClass: "non_idempotent_write" },
  { name: "web_fetch", effectClass: "network" },
  { name: "delegate_task", effectClass: "non_idempotent_write" },
  { name: "mcp_docs_search", effectClass: "read" },
];
const offered = (tools: string[]) => [...offeredByMode({ tools }, TOOLS)].sort();

describe("mode files", () => {
  it("reads name, description, tools and the body as its instructions; the name defaults to the file's", () => {
    const r = parseModeFile(".hearth/modes/review.md", "---\ndescription: Reviews\ntools: [read, shell]\n---\nBe terse.\n");
    assert.deepEqual(r, {
      ok: true,
      mode: {
        name: "review",
        description: "Reviews",
        tools: ["read", "shell"],
        instructions: "# Mode: review\nBe terse.",
        source: ".hearth/modes/review.md",
      },
    });
  });

  for (const [text, why] of [
    ["Be terse.\n", /does not begin with a front matter block/],
    ["---\ntools: [read\n---\n", /front matter is not YAML/],
    ["---\ntools: []\n---\n", /tools must be a list of tool groups or tool names/],
    ["---\ntools: read\n---\n", /tools must be a list/],
    ["---\nname: Big Name\ntools: [read]\n---\n", /name "Big Name" must be lowercase/],
    ["---\ntools: [read]\ngroups: [edit]\n---\n", /unknown front matter "groups"/],
  ] as const) {
    it(`refuses ${JSON.stringify(text)} saying why and where the format is`, () => {
      const r = parseModeFile(".hearth/modes/x.md", text);
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.match(r.problem, why);
        assert.match(r.problem, /^\.hearth\/modes\/x\.md: .*docs\/modes\.md/);
      }
    });
  }
});

describe("the tools a mode offers", () => {
  it("Ask and Plan offer the read tools only: no write, shell, network, task or MCP tool", () => {
    for (const name of ["ask", "plan"])
      assert.deepEqual(offered([...BUILTIN_MODES.find((m) => m.name === name)!.tools]), ["list_dir", "read_file"]);
  });
  it("Code offers everything the session has", () => {
    assert.deepEqual(offered(["*"]), TOOLS.map((t) => t.name).sort());
  });
  it("groups and exact names combine; an unknown name offers nothing", () => {
    assert.deepEqual(offered(["edit", "web_fetch", "no_such_tool"]), ["edit_file", "web_fetch", "write_file"]);
    assert.deepEqual(offered(["command", "mcp", "tasks"]), ["delegate_task", "mcp_docs_search", "shell"]);
  });
});

describe(".roomodes import", () => {
  const roomodes = `customModes:
  - slug: docs-writer
    name: Documentation Writer
    roleDefinition: You write documentation.
    whenToUse: For docs
    customInstructions: Use British English.
    groups:
      - read
      - - edit
        - fileRegex: \\.md$
      - command
      - modes
  - slug: Bad Slug
    groups: [read]
`;

  it("writes mode files that read back as the mode, leaving out a file-limited group and saying so", () => {
    const r = importRoomodes(roomodes);
    assert.equal(r.ok, true);
    if (!r.ok) return;
    assert.deepEqual(
      r.modes.map((m) => m.name),
      ["docs-writer"],
    );
    const back = parseModeFile(".hearth/modes/docs-writer.md", r.modes[0]!.text);
    assert.deepEqual(back.ok && back.mode, {
      name: "docs-writer",
      description: "For docs",
      tools: ["read", "command"],
      instructions: "# Mode: docs-writer\nYou write documentation.\n\nUse British English.",
      source: ".hearth/modes/docs-writer.md",
    });
    assert.equal(r.notes.length, 3, r.notes.join("\n"));
    assert.match(r.notes.join("\n"), /docs-writer: group edit is limited to some files in Roo .*left out/);
    assert.match(r.notes.join("\n"), /group "modes" is not one Hearth knows/);
    assert.match(r.notes.join("\n"), /slug "Bad Slug" is not lowercase/);
  });

  it("reads Roo's JSON form too, and refuses a file with no customModes", () => {
    const json = importRoomodes(
      JSON.stringify({ customModes: [{ slug: "qa", roleDefinition: "Test things.", groups: ["read", "command"] }] }),
    );
    assert.equal(json.ok && json.modes[0]!.name, "qa");
    assert.deepEqual(importRoomodes("modes: []\n"), { ok: false, problem: ".roomodes has no `customModes` list" });
    assert.equal(importRoomodes("customModes: [\n").ok, false);
  });
});
