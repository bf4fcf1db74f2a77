// What an MCP server hands back as text for a message (issue 28, item 5): a prompt's messages
// (prompts/get) become the person's message, a resource's contents (resources/read) an attachment.
// Text only: an embedded text resource is its text; an image, audio or binary blob is refused with
// the reason, since the message the model reads is text and a part left out would change what it says.
import { singleLine } from "../../../shared/boundedText.js";

/** The most text a prompt's messages or a resource may give (bytes of UTF-8). */
export const MCP_TEXT_MAX_BYTES = 256 * 1024;

export type McpText = { ok: true; text: string } | { ok: false; problem: string };

type Part = { type?: unknown; text?: unknown; resource?: unknown; uri?: unknown; mimeType?: unknown; blob?: unknown };

/** One resource content ({uri, text} or {uri, blob}) as text. */
function resourceText(r: Part, what: string): McpText {
  if (typeof r.text === "string") return { ok: true, text: r.text };
  const kind = typeof r.mimeType === "string" ? r.mimeType : "binary";
  return {
    ok: false,
    problem: `${what} is binary (${kind}${typeof r.uri === "string" ? `, ${r.uri}` : ""}): Hearth sends only text to the model; use a text resource instead`,
  };
}

function partText(p: Part, what: string): McpText {
  switch (p.type) {
    case "text":
      return typeof p.text === "string" ? { ok: true, text: p.text } : { ok: false, problem: `${what} has a text part without text` };
    case "resource":
      return resourceText((p.resource ?? {}) as Part, `${what}'s embedded resource`);
    case "resource_link":
      return { ok: true, text: `(resource ${typeof p.uri === "string" ? p.uri : "without a URI"})` };
    case "image":
    case "audio":
      return {
        ok: false,
        problem: `${what} holds ${p.type === "image" ? "an image" : "audio"}: Hearth's messages are text only; pick a prompt that gives text`,
      };
    default:
      return { ok: false, problem: `${what} holds a part of unknown type ${JSON.stringify(singleLine(String(p.type), 40))}` };
  }
}

function bounded(text: string, what: string): McpText {
  const bytes = Buffer.byteLength(text);
  if (bytes > MCP_TEXT_MAX_BYTES)
    return {
      ok: false,
      problem: `${what} is ${bytes} bytes, more than the ${MCP_TEXT_MAX_BYTES} Hearth takes; it is not cut, since a part left out changes it`,
    };
  return { ok: true, text };
}

/** A prompt's messages as one message: each message's text, a message not the person's marked with its role. */
export function promptMessagesText(messages: readonly unknown[], what: string): McpText {
  const texts: string[] = [];
  for (const [i, m] of messages.entries()) {
    const { role, content } = (m ?? {}) as { role?: unknown; content?: unknown };
    const t = partText((content ?? {}) as Part, `message ${i + 1} of ${what}`);
    if (!t.ok) return t;
    texts.push(role === "user" || role === undefined ? t.text : `(${String(role)}) ${t.text}`);
  }
  if (texts.length === 0) return { ok: false, problem: `${what} gave no messages: nothing to send` };
  return bounded(texts.join("\n\n"), what);
}

/** A resource's contents as one text. */
export function resourceContentsText(contents: readonly unknown[], what: string): McpText {
  const texts: string[] = [];
  for (const c of contents) {
    const t = resourceText((c ?? {}) as Part, what);
    if (!t.ok) return t;
    texts.push(t.text);
  }
  if (texts.length === 0) return { ok: false, problem: `${what} has no contents` };
  return bounded(texts.join("\n\n"), what);
}
