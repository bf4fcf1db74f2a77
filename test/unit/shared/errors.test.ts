// errorMessage: what every refusal and log line says about a thrown value. JavaScript can throw
// anything; the text must never be "undefined" for a thrown string, nor throw for null.
import assert from "node:assert/strict";
import { test } from "node:test";
import { errorMessage, HearthError, ErrorCode } from "../../../shared/errors.js";

test("errorMessage gives an error's message, and any other thrown value as text", () => {
  assert.equal(errorMessage(new Error("disk full")), "disk full");
  assert.equal(errorMessage(new HearthError(ErrorCode.Refused, "refused: outside the workspace")), "refused: outside the workspace");
  assert.equal(errorMessage("a thrown string"), "a thrown string");
  assert.equal(errorMessage(undefined), "undefined");
  assert.equal(errorMessage(null), "null");
  assert.equal(errorMessage(42), "42");
  // An error from another realm (a worker, vm) is not `instanceof Error` but has its message.
  assert.equal(errorMessage({ name: "Error", message: "from elsewhere" }), "from elsewhere");
  assert.equal(errorMessage({ message: 7 }), "[object Object]");
});
