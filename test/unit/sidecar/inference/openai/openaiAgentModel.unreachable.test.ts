// A model server Hearth cannot reach: the error names the reason the connection failed, so a person
// knows whether to start the server or change the URL.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ErrorCode, HearthError } from "../../../../../shared/errors.js";
import { OpenAiAgentModel } from "../../../../../sidecar/inference/openai/openaiAgentModel.js";

const generate = (baseUrl: string) =>
  new OpenAiAgentModel({ baseUrl, model: "m", env: {} }).generate(
    { sessionKey: "s", messages: [{ role: "user", text: "hi" }], tools: [], options: {}, signal: new AbortController().signal },
    () => undefined,
  );

test("a port that fetch refuses to use (WHATWG 'bad port', e.g. 6000) is named as the reason, not a bare 'fetch failed'", async () => {
  await assert.rejects(
    generate("http://127.0.0.1:6000/v1"),
    (e: unknown) =>
      e instanceof HearthError &&
      e.code === ErrorCode.ModelUnavailable &&
      /port 6000 is one that fetch refuses.*start the server on another port/.test(e.message),
  );
});
