// The undo side of the file tools (issue 14 item 5; harness #9, #17), on every resolver: a journaled
// path cannot lead the restorer out of the workspace or through a link, a file is only put back or
// removed while it still holds exactly what the turn left, and nothing outside ever changes.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { sha256 } from "../../../../sidecar/tools/fileAccess.js";
import { SECRET, STATIC_RESOLVERS, suiteSandbox } from "./hostileSupport.js";

for (const resolver of STATIC_RESOLVERS) {
  describe(`undo restorer, ${resolver} resolver (issue 14 item 5, harness #9)`, () => {
    const s = suiteSandbox(resolver);
    const outsideHash = sha256(SECRET + "\n");

    test("a journaled path that leaves the folder, is absolute or passes through a link is refused; outside is untouched", () => {
      fs.symlinkSync(s().outside, path.join(s().ws, "link"));
      for (const p of ["../outside/secret.txt", path.join(s().outside, "secret.txt"), "link/secret.txt"]) {
        const restored = s().built.restorer.restore({ path: p, sha256: outsideHash }, Buffer.from("overwritten"));
        assert.equal(restored.ok, false, `restore of ${p} was refused`);
        assert.match(restored.message, /^refused: /);
        const removed = s().built.restorer.remove({ path: p, sha256: outsideHash });
        assert.equal(removed.ok, false, `remove of ${p} was refused`);
      }
      s().assertOutsideUntouched();
    });

    test("a file that no longer holds what the turn left is neither restored nor removed", () => {
      fs.writeFileSync(path.join(s().ws, "moved.txt"), "the person's text\n");
      const left = { path: "moved.txt", sha256: sha256("what the turn wrote\n") };
      assert.match(s().built.restorer.restore(left, Buffer.from("before\n")).message, /changed since the turn wrote it/);
      assert.match(s().built.restorer.remove(left).message, /changed since the turn wrote it/);
      assert.equal(fs.readFileSync(path.join(s().ws, "moved.txt"), "utf8"), "the person's text\n");
      assert.match(s().built.restorer.remove({ path: "gone.txt", sha256: left.sha256 }).message, /was deleted since the turn wrote it/);
    });

    test("a file still as the turn left it is put back byte for byte, or removed, leaving no temp file", () => {
      fs.writeFileSync(path.join(s().ws, "kept.txt"), "turn\n");
      const before = Buffer.from([0x61, 0x0d, 0x0a, 0x62]); // CRLF, no final newline
      assert.equal(s().built.restorer.restore({ path: "kept.txt", sha256: sha256("turn\n") }, before).ok, true);
      assert.deepEqual(fs.readFileSync(path.join(s().ws, "kept.txt")), before);
      fs.writeFileSync(path.join(s().ws, "made.txt"), "made\n");
      assert.equal(s().built.restorer.remove({ path: "made.txt", sha256: sha256("made\n") }).ok, true);
      assert.equal(fs.existsSync(path.join(s().ws, "made.txt")), false);
      assert.deepEqual(
        fs.readdirSync(s().ws).filter((n) => n.includes(".hearth-")),
        [],
        "no temp file left",
      );
    });
  });
}
