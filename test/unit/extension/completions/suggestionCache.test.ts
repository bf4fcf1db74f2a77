// Suggestions by the text around the cursor (issue 31, item 2): a window answered before is answered
// again without the model, and so is one the person reached by typing what the suggestion showed; any
// other window (another suffix, a character the suggestion did not have, the whole middle typed) is not.
import assert from "node:assert/strict";
import { it } from "node:test";
import { SuggestionCache } from "../../../../extension/completions/suggestionCache.js";

const at = { prefix: "function add(a, b) {\n  ", suffix: "\n}\n" };
const middle = "return a + b;";
const typed = (chars: string) => ({ prefix: at.prefix + chars, suffix: at.suffix });

it("answers the window it was given, and the rest of the middle while the person types it", () => {
  const cache = new SuggestionCache();
  assert.equal(cache.lookup(at), null);
  cache.store(at, middle);
  assert.equal(cache.lookup(at), middle);
  assert.equal(cache.lookup(typed("r")), "eturn a + b;");
  assert.equal(cache.lookup(typed("return a")), " + b;");
});

it("does not answer a window the middle does not lead to", () => {
  const cache = new SuggestionCache();
  cache.store(at, middle);
  assert.equal(cache.lookup(typed("x")), null, "a character the suggestion did not have");
  assert.equal(cache.lookup({ prefix: at.prefix, suffix: "\n}\nexport {};\n" }), null, "another suffix");
  assert.equal(cache.lookup(typed(middle)), null, "the whole middle typed: the model says what follows");
  assert.equal(cache.lookup({ prefix: at.prefix.slice(1), suffix: at.suffix }), null, "a prefix that starts elsewhere");
});

it("remembers that the model had nothing to add at a window", () => {
  const cache = new SuggestionCache();
  cache.store(at, "");
  assert.equal(cache.lookup(at), "");
  assert.equal(cache.lookup(typed("r")), null);
});

it("keeps the most recently used windows and forgets the oldest beyond its bound", () => {
  const cache = new SuggestionCache();
  cache.store(at, middle);
  for (let i = 0; i < 63; i++) cache.store(typed(`// ${i}\n`), `${i}`);
  assert.equal(cache.lookup(at), middle, "64 windows fit; the first is used again, so it is the newest");
  cache.store(typed("// new\n"), "new");
  assert.equal(cache.lookup(typed("// 0\n")), null, "the least recently used went");
  assert.equal(cache.lookup(at), middle);
  cache.clear();
  assert.equal(cache.lookup(at), null);
});
