// The kernel's own reads of workspace files (.hearth/rules.json, issue 27) go through the workspace
// descriptor on every resolver (harness #9): a link out of the folder is refused, absent is no error.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { SECRET, STATIC_RESOLVERS, suiteSandbox } from "./hostileSupport.js";

for (const resolver of STATIC_RESOLVERS) {
  describe(`workspace text for the kernel, ${resolver} resolver (harness #9)`, () => {
    const s = suiteSandbox(resolver);

    test("reads a file, says absent for none, refuses links, oversize and binary files", () => {
      fs.mkdirSync(path.join(s().ws, ".hearth"));
      fs.writeFileSync(path.join(s().ws, ".hearth", "rules.json"), '{"rules":[]}');
      assert.deepEqual(s().built.readText(".hearth/rules.json", 1000), { ok: true, text: '{"rules":[]}' });
      assert.deepEqual(s().built.readText(".hearth/none.json", 1000), { ok: true, text: null });
      assert.equal(s().built.readText(".hearth/rules.json", 5).ok, false);
      fs.symlinkSync(path.join(s().outside, "secret.txt"), path.join(s().ws, ".hearth", "link.json"));
      const link = s().built.readText(".hearth/link.json", 1000);
      assert.ok(!link.ok && /symbolic link/.test(link.message) && !link.message.includes(SECRET), JSON.stringify(link));
      const outOfFolder = s().built.readText("../outside/secret.txt", 1000);
      assert.equal(outOfFolder.ok, false);
      fs.writeFileSync(path.join(s().ws, "bin.json"), Buffer.from([0, 1, 2]));
      assert.equal(s().built.readText("bin.json", 1000).ok, false);
    });
  });
}
