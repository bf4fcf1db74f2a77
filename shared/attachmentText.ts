// How attached context travels inside the user message (issue 15): the model reads exactly the
// journaled text, so the attachments are blocks after the typed text; the chat view splits them off
// again to show the typed text and one chip per block. One format for the kernel and the view.
import { type Attachment, isEditorKind } from "./protocol/attachments.js";

const QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;
const KINDS = "file|selection|resource|folder|url|problems|terminal|changes";
const HEADER = new RegExp(String.raw`\n\n<attached (${KINDS})=(${QUOTED})(?: lines="(\d+)-(\d+)")?(?: server=(${QUOTED}))?>\n`, "g");
const CLOSE = "</attached>";

export function composeMessage(typed: string, blocks: { attachment: Attachment; text: string }[]): string {
  return (
    typed +
    blocks
      .map(({ attachment: a, text }) => {
        const lines = a.kind === "selection" ? ` lines="${a.startLine}-${a.endLine}"` : "";
        const server = a.kind === "resource" ? ` server=${JSON.stringify(a.server ?? "")}` : "";
        return `\n\n<attached ${a.kind}=${JSON.stringify(a.path)}${lines}${server}>\n${text}${text.endsWith("\n") ? "" : "\n"}${CLOSE}`;
      })
      .join("")
  );
}

/** The size in bytes of each attachment block's text, in order (none: the message has no blocks). */
export function blockBytes(message: string): number[] {
  const headers = [...message.matchAll(HEADER)];
  const first = headers[0];
  if (!first || !message.endsWith(CLOSE)) return [];
  const blocks = headers.filter((h) => h.index >= first.index);
  const encoder = new TextEncoder();
  return blocks.map((h, i) => {
    const body = message.slice(h.index + h[0].length, (blocks[i + 1]?.index ?? message.length) - CLOSE.length);
    return encoder.encode(body).length;
  });
}

/**
 * The typed text and the attachments of a composed message (none: the message is all typed text).
 * An editor attachment (problems, terminal, changes) comes back with its text as `content`, so its
 * chip can show its size.
 */
export function splitMessage(message: string): { typed: string; attachments: Attachment[] } {
  const headers = [...message.matchAll(HEADER)];
  const first = headers[0];
  // The blocks follow the typed text and end the message; a header-like line elsewhere is text.
  if (!first || !message.endsWith(CLOSE)) return { typed: message, attachments: [] };
  const blocks = headers.filter((h) => h.index >= first.index);
  const attachments = blocks.map((h, i): Attachment => {
    const path = JSON.parse(h[2]!) as string;
    const kind = h[1] as Attachment["kind"];
    if (kind === "resource") return { kind, path, server: JSON.parse(h[5] ?? '""') as string };
    if (kind === "selection") return { kind, path, startLine: Number(h[3]), endLine: Number(h[4]) };
    if (!isEditorKind(kind)) return { kind, path };
    const end = (blocks[i + 1]?.index ?? message.length) - CLOSE.length;
    return { kind, path, content: message.slice(h.index + h[0].length, end) };
  });
  return { typed: message.slice(0, first.index), attachments };
}
