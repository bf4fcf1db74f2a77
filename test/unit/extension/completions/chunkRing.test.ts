// The ring of chunks from other files sent with a completion (issue 31): bounded in count and lines,
// identical chunks not added again (their place kept, so the prompt's head stays the same), an edited
// version of the same code replacing the older one, the oldest leaving first, and the file being
// completed left out of its own request.
import assert from "node:assert/strict";
import { it } from "node:test";
import { CHUNK_LINES, ChunkRing } from "../../../../extension/completions/chunkRing.js";
import { COMPLETION_CHUNKS } from "../../../../shared/protocol/methods.js";

const file = (name: string, lines: number) => Array.from({ length: lines }, (_, i) => `const ${name}${i} = ${i};`).join("\n");

it("takes CHUNK_LINES lines around the line picked", () => {
  const ring = new ChunkRing();
  ring.pick("a.ts", file("a", 200), 100);
  const [chunk] = ring.for("other.ts");
  assert.equal(chunk?.filename, "a.ts");
  const lines = chunk!.text.trimEnd().split("\n");
  assert.equal(lines.length, CHUNK_LINES);
  assert.equal(lines[0], `const a${100 - CHUNK_LINES / 2} = ${100 - CHUNK_LINES / 2};`);
  // Near the end of a file the chunk is the file's last lines.
  ring.pick("b.ts", file("b", 200), 199);
  assert.equal(ring.for("other.ts")[1]!.text.trimEnd().split("\n").at(-1), "const b199 = 199;");
});

it("holds at most COMPLETION_CHUNKS chunks, oldest first, the oldest leaving first", () => {
  const ring = new ChunkRing();
  for (let i = 0; i < COMPLETION_CHUNKS + 5; i++) ring.pick(`f${i}.ts`, file(`f${i}_`, 10), 0);
  const held = ring.for("other.ts").map((c) => c.filename);
  assert.equal(held.length, COMPLETION_CHUNKS);
  assert.deepEqual(
    held,
    Array.from({ length: COMPLETION_CHUNKS }, (_, i) => `f${i + 5}.ts`),
  );
});

it("keeps an identical chunk in its place, and replaces an edited version of the same code", () => {
  const ring = new ChunkRing();
  ring.pick("a.ts", file("a", 40), 10);
  ring.pick("b.ts", file("b", 40), 10);
  ring.pick("a.ts", file("a", 40), 10);
  assert.deepEqual(
    ring.for("other.ts").map((c) => c.filename),
    ["a.ts", "b.ts"],
    "the same chunk again changes nothing",
  );
  const edited = file("a", 40).replace("const a5 = 5;", "const a5 = 50;");
  ring.pick("a.ts", edited, 10);
  const held = ring.for("other.ts");
  assert.deepEqual(
    held.map((c) => c.filename),
    ["b.ts", "a.ts"],
    "the edited chunk replaced its older version, last",
  );
  assert.match(held[1]!.text, /const a5 = 50;/);
});

it("leaves the file being completed out of its own request, and ignores blank lines", () => {
  const ring = new ChunkRing();
  ring.pick("a.ts", file("a", 40), 0);
  ring.pick("b.ts", "\n\n\n", 0);
  ring.pick("c.ts", file("c", 40), 0);
  assert.deepEqual(
    ring.for("a.ts").map((c) => c.filename),
    ["c.ts"],
  );
});
