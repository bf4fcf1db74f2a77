// Rewinding files writes them, so in Restricted Mode the chat's rewind of the files (or both) and the
// undo of a rewind that changed files are refused with what to do, before the kernel is asked; the
// conversation alone writes nothing and goes to the kernel (issue 29 item 1 with issue 10 item 6).
import assert from "node:assert/strict";
import { it } from "node:test";
import { SessionRewind } from "../../../../extension/chat/sessionRewind.js";

const SESSION = "01a22e22-e42a-7000-aa2e-e74c9e777278";
const REWIND = "01a22e22-e42a-7000-aa2e-e74c9e777279";
const log = { info: () => undefined, warn: () => undefined, error: () => undefined };

function restrictedRewind() {
  const asked: string[] = [];
  const client = {
    request: async (method: string) => {
      asked.push(method);
      if (method === "session/history") return { rewinds: [] };
      return { rewindId: REWIND, files: [] };
    },
  };
  const shown: unknown[] = [];
  const reloads: number[] = [];
  const rewind = new SessionRewind({
    kernel: { ensureStarted: async () => client } as never,
    sessionId: () => SESSION,
    log,
    restricted: () => true,
    reload: async () => void reloads.push(1),
    open: async () => undefined,
    startTask: async () => undefined,
  });
  rewind.attach((m) => shown.push(m));
  return { rewind, asked, shown, reloads };
}

it("in Restricted Mode a rewind of the files or both is refused with what to do, and the kernel is never asked", async () => {
  for (const scope of ["files", "both"] as const) {
    const { rewind, asked, shown } = restrictedRewind();
    await rewind.rewind(3, scope);
    assert.deepEqual(asked, []);
    assert.equal(shown.length, 1);
    const [result] = shown as { type: string; toSeq: number; files: unknown[]; error: string }[];
    assert.deepEqual([result!.type, result!.toSeq, result!.files], ["rewind/result", 3, []]);
    assert.match(
      result!.error,
      /^Nothing was rewound: this folder is in Restricted Mode.*rewind the conversation only, or trust the folder/,
    );
  }
});

it("in Restricted Mode the conversation alone is rewound, and the transcript is shown again", async () => {
  const { rewind, asked, shown, reloads } = restrictedRewind();
  await rewind.rewind(3, "conversation");
  assert.deepEqual(asked, ["session/rewind", "session/history"]);
  assert.deepEqual(shown[0], { type: "rewind/result", toSeq: 3, files: [] });
  assert.equal(reloads.length, 1);
});

it("in Restricted Mode the undo of a rewind whose files it does not know is refused before the kernel is asked", async () => {
  const { rewind, asked, shown } = restrictedRewind();
  await rewind.undo(REWIND);
  assert.deepEqual(asked, []);
  assert.match((shown[0] as { error: string }).error, /^The rewind was not undone: this folder is in Restricted Mode/);
});
