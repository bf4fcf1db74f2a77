// A guard in front of vscode-jsonrpc's reader: it parses the Content-Length framing itself, so an
// oversized or malformed message is answered with an error and discarded without ever being
// buffered whole, and the connection keeps serving (issue: bounded message size).
import { Transform, type TransformCallback } from "node:stream";
import { ErrorCode, errorMessage } from "../../shared/errors.js";
import { isObject } from "../../shared/isObject.js";

export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
const MAX_HEADER_BYTES = 8 * 1024;
const ID_SNIFF_BYTES = 4 * 1024;

export interface FrameRejection {
  id: string | number | null;
  code: number;
  message: string;
}

type State =
  | { kind: "header" }
  | { kind: "body"; length: number; chunks: Buffer[]; received: number }
  | { kind: "discard"; length: number; received: number; prefix: Buffer[] };

/** Pulls a request id out of the first bytes of a body that will not be parsed whole. */
function sniffId(prefix: Buffer): string | number | null {
  const m = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,16})/.exec(prefix.toString("utf8"));
  if (!m) return null;
  return m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : Number(m[1]);
}

/** Checks the JSON-RPC 2.0 envelope; returns a rejection or null when the body may pass. */
function checkEnvelope(body: Buffer): FrameRejection | null {
  let msg: unknown;
  try {
    msg = JSON.parse(body.toString("utf8"));
  } catch (e) {
    return {
      id: sniffId(body.subarray(0, ID_SNIFF_BYTES)),
      code: ErrorCode.ParseError,
      message: `parse error: the message is not valid JSON (${errorMessage(e)}); send one JSON-RPC 2.0 object per frame`,
    };
  }
  const id = isObject(msg) && (typeof msg.id === "string" || typeof msg.id === "number") ? msg.id : null;
  if (!isObject(msg) || msg.jsonrpc !== "2.0") {
    return {
      id,
      code: ErrorCode.InvalidRequest,
      message: 'invalid request: expected a JSON object with "jsonrpc": "2.0" (batches are not supported)',
    };
  }
  const isCall = typeof msg.method === "string";
  const isResponse = "id" in msg && ("result" in msg || "error" in msg);
  if (!isCall && !isResponse) {
    return {
      id,
      code: ErrorCode.InvalidRequest,
      message: 'invalid request: a message needs a string "method", or an "id" with "result" or "error"',
    };
  }
  return null;
}

export class BoundedFraming extends Transform {
  private state: State = { kind: "header" };
  private header = Buffer.alloc(0);

  constructor(
    private readonly onReject: (r: FrameRejection) => void,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let data = chunk;
    while (data.length > 0) data = this.consume(data);
    done();
  }

  private consume(data: Buffer): Buffer {
    if (this.state.kind === "header") return this.consumeHeader(data);
    const need = this.state.length - this.state.received;
    const take = data.subarray(0, need);
    this.state.received += take.length;
    if (this.state.kind === "body") this.state.chunks.push(take);
    else if (this.state.received - take.length < ID_SNIFF_BYTES) this.state.prefix.push(take);
    if (this.state.received === this.state.length) this.finishBody();
    return data.subarray(take.length);
  }

  private consumeHeader(data: Buffer): Buffer {
    const joined = Buffer.concat([this.header, data]);
    const end = joined.indexOf("\r\n\r\n");
    if (end < 0) {
      if (joined.length > MAX_HEADER_BYTES) {
        // A header this long cannot be framing; drop it and resynchronise on the next header.
        this.onReject({
          id: null,
          code: ErrorCode.InvalidRequest,
          message: "invalid request: frame header too long; send 'Content-Length: N\\r\\n\\r\\n' before each message",
        });
        this.header = Buffer.alloc(0);
      } else {
        this.header = joined;
      }
      return Buffer.alloc(0);
    }
    const headerText = joined.subarray(0, end).toString("ascii");
    this.header = Buffer.alloc(0);
    const m = /(?:^|\r\n)content-length:\s*(\d+)/i.exec(headerText);
    const rest = joined.subarray(end + 4);
    if (!m) {
      this.onReject({
        id: null,
        code: ErrorCode.InvalidRequest,
        message: "invalid request: frame header without Content-Length; send 'Content-Length: N\\r\\n\\r\\n' before each message",
      });
      return rest;
    }
    const length = Number(m[1]);
    this.state =
      length > this.maxBytes ? { kind: "discard", length, received: 0, prefix: [] } : { kind: "body", length, chunks: [], received: 0 };
    if (length === 0) this.finishBody();
    return rest;
  }

  private finishBody(): void {
    const s = this.state;
    this.state = { kind: "header" };
    if (s.kind === "discard") {
      this.onReject({
        id: sniffId(Buffer.concat(s.prefix).subarray(0, ID_SNIFF_BYTES)),
        code: ErrorCode.MessageTooLarge,
        message:
          `message too large: ${s.length} bytes exceeds the kernel's limit of ${this.maxBytes} bytes; send large content ` +
          `as a file in the workspace instead`,
      });
      return;
    }
    if (s.kind !== "body") return;
    const body = Buffer.concat(s.chunks);
    const rejection = checkEnvelope(body);
    if (rejection) {
      this.onReject(rejection);
      return;
    }
    this.push(`Content-Length: ${body.length}\r\n\r\n`);
    this.push(body);
  }
}
