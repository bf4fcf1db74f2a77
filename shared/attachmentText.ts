// How attached context travels inside the user message (issue 15): the model reads exactly the
// journaled text, so the attachments are blocks after the typed text; the chat view splits them off
// again to show the typed text and one chip per block. One format for the kernel and the view.
import type { Attachment } from "./protocol/attachments.js";

const QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;
const HEADER = new RegExp(
  String.raw`\n\n<attached (file|selection|resource)=(${QUOTED})(?: lines="(\d+)-(\d+)")?(?: server=(${QUOTED}))?>\n`,
  "g",
);

export function composeMessage(typed: string, blocks: { attachment: Attachment; text: string }[]): string {
  return (
    typed +
    blocks
      .map(({ attachment: a, text }) => {
        const lines = a.kind === "selection" ? ` lines="${a.startLine}-${a.endLine}"` : "";
        const server = a.kind === "resource" ? ` server=${JSON.stringify(a.server ?? "")}` : "";
        return `\n\n<attached ${a.kind}=${JSON.stringify(a.path)}${lines}${server}>\n${text}${text.endsWith("\n") ? "" : "\n"}</attached>`;
      })
      .join("")
  );
}

/** The typed text and the attachments of a composed message (none: the message is all typed text). */
export function splitMessage(message: string): { typed: string; attachments: Attachment[] } {
  const headers = [...message.matchAll(HEADER)];
  const first = headers[0];
  // The blocks follow the typed text and end the message; a header-like line elsewhere is text.
  if (!first || !message.endsWith("</attached>")) return { typed: message, attachments: [] };
  const attachments = headers
    .filter((h) => h.index >= first.index)
    .map((h): Attachment => {
      const path = JSON.parse(h[2]!) as string;
      if (h[1] === "resource") return { kind: "resource", path, server: JSON.parse(h[5] ?? '""') as string };
      return h[1] === "selection" ? { kind: "selection", path, startLine: Number(h[3]), endLine: Number(h[4]) } : { kind: "file", path };
    });
  return { typed: message.slice(0, first.index), attachments };
}
