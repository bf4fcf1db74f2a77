// The one way Hearth reads JSON-RPC frames from a stream: a kernel's stdio, the kernel's socket, a
// client's connection to the kernel. vscode-jsonrpc's reader arms a 10 s "partial message" timer when
// a frame arrives in part and re-arms it for as long as the frame stays incomplete; disposing the
// connection does not clear it. So a peer that died mid-frame (kill -9 while it wrote an event) left a
// timer that kept the reading process alive for ever: the crash campaign's test process outlived its
// tests (issue 23, item 2), and a window or kernel would keep one per peer lost that way. Nothing in
// Hearth listens for partial-message notices, so the timer is off.
import { StreamMessageReader } from "vscode-jsonrpc/node.js";

export function frameReader(readable: NodeJS.ReadableStream): StreamMessageReader {
  const reader = new StreamMessageReader(readable);
  reader.partialMessageTimeout = 0;
  return reader;
}
