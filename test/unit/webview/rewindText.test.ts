// The chat's rewind menu says what each choice would do before the person picks one (issue 29 item 1):
// the conversation's messages and turns, each file's planned outcome, and why a choice with nothing to
// do is not offered.
import assert from "node:assert/strict";
import { it } from "node:test";
import { rewindChoices, rewoundText } from "../../../webview/rewindText.js";

const SESSION = "01a22e22-e42a-7000-aa2e-e74c9e777278";
const conversation = { fromSeq: 3, throughSeq: 6, messages: 4, turns: 1 };

it("each choice carries its preview: the conversation's count and every file's planned outcome", () => {
  const files = [
    { path: "a.txt", outcome: "restored" as const, message: "would put `a.txt` back to its 5 bytes before these turns" },
    { path: "b.txt", outcome: "refused" as const, message: "refused: `b.txt` changed since these turns wrote it" },
  ];
  const choices = rewindChoices({ sessionId: SESSION, toSeq: 3, conversation, files });
  assert.deepEqual(
    choices.map((c) => [c.scope, c.disabled]),
    [
      ["conversation", null],
      ["files", null],
      ["both", null],
    ],
  );
  assert.match(choices[0]!.lines[0]!, /^4 messages \(1 turn\) from here on leave the model's view/);
  assert.deepEqual(
    choices[1]!.lines,
    files.map((f) => f.message),
  );
  assert.deepEqual(
    choices[2]!.lines.slice(1),
    files.map((f) => f.message),
  );
});

it("files and both are not offered when no file would change, and say why", () => {
  const none = rewindChoices({ sessionId: SESSION, toSeq: 3, conversation, files: [] });
  assert.deepEqual(
    none.map((c) => c.disabled),
    [null, "the turns from here on wrote no files", "the turns from here on wrote no files"],
  );
  const refusedOnly = rewindChoices({
    sessionId: SESSION,
    toSeq: 3,
    conversation,
    files: [{ path: "b.txt", outcome: "refused", message: "refused: changed since" }],
  });
  assert.equal(refusedOnly[1]!.disabled, "no file would change");
});

it("the fold's head names the turns and the messages the model no longer sees", () => {
  assert.equal(rewoundText({ fromSeq: 3, throughSeq: 6 }, 1), "Rewound: 1 turn (messages #3–#6) no longer shown to the model; kept here");
  assert.match(rewoundText({ fromSeq: 3, throughSeq: 12 }, 3), /^Rewound: 3 turns /);
});
