// The kernel's JSON-RPC endpoint: validates every params object with the shared schema, bounds the
// requests in flight, maps errors to stable codes, and holds no logic of its own (ARCHITECTURE.md).
import type { Readable, Writable } from "node:stream";
import {
  createMessageConnection,
  ResponseError,
  StreamMessageWriter,
  type CancellationToken,
  type MessageConnection,
  type MessageWriter,
} from "vscode-jsonrpc/node.js";
import { ErrorCode, HearthError, isHearthError, errorMessage } from "../../shared/errors.js";
import { Emitter } from "../../shared/event.js";
import {
  notifications,
  PROTOCOL_VERSION,
  requests,
  serverRequests,
  type NotificationMethod,
  type NotificationParams,
  type RequestMethod,
  type ServerRequestMethod,
  type ServerRequestParams,
  type ServerRequestResult,
} from "../../shared/protocol/index.js";
import { uuidv7 } from "../../shared/ids.js";
import { frameReader } from "../../shared/node/frameReader.js";
import { BoundedFraming } from "./boundedFraming.js";
import { describeZodError } from "./zodErrors.js";
import type { ClientChannel, Handlers, RequestContext } from "../kernel/handlers/types.js";

export const MAX_IN_FLIGHT = 64;

export interface RpcServer {
  connection: MessageConnection;
  client: ClientChannel;
  inFlight(): number;
}

export interface RpcServerOptions {
  input: Readable;
  output: Writable;
  handlers: Handlers;
  log: (line: string) => void;
  maxInFlight?: number;
  maxMessageBytes?: number;
}

/**
 * The writer to one client. vscode-jsonrpc rethrows a failed write where nothing can catch it (a
 * request's promise executor), and a client that leaves mid-write is ordinary (a window reload, a
 * CLI command that is done): EPIPE on a socket the other end ended would be an unhandled rejection
 * that kills the kernel with every turn on it (issue 23, item 3). So a write never fails here: a
 * failure goes to onFailed, which ends that client's connection.
 */
function departureSafeWriter(output: Writable, onFailed: (e: unknown) => void): MessageWriter {
  const inner = new StreamMessageWriter(output);
  return {
    onError: inner.onError,
    onClose: inner.onClose,
    write: (message) => inner.write(message).catch(onFailed),
    end: () => inner.end(),
    dispose: () => inner.dispose(),
  };
}

export function startRpcServer(opts: RpcServerOptions): RpcServer {
  // The client left: its connection closed or was disposed, or a write to it failed.
  let disposed = false;
  let writeFailed = false;
  const writer = departureSafeWriter(opts.output, (e) => {
    if (!writeFailed) opts.log(`a client left while the kernel wrote to it (${errorMessage(e)}); its events are dropped`);
    writeFailed = true;
    leave();
  });
  const framing = new BoundedFraming((r) => {
    opts.log(`rejected frame: ${r.message}`);
    void writer.write({ jsonrpc: "2.0", id: r.id, error: { code: r.code, message: r.message } } as never);
  }, opts.maxMessageBytes);
  opts.input.pipe(framing);
  const connection = createMessageConnection(frameReader(framing), writer);
  // A closed connection never answers: disposing it fails what the kernel still waits for from this
  // client (approval requests) at once; other clients are untouched.
  const leave = () => {
    disposed = true;
    connection.dispose();
  };
  connection.onClose(leave);
  connection.onDispose(() => {
    disposed = true;
  });
  // control plane #6: request-scoped state is keyed by (clientId, requestId); one stdio connection is one client.
  const clientId = uuidv7();
  const maxInFlight = opts.maxInFlight ?? MAX_IN_FLIGHT;
  let inFlight = 0;
  let requestCounter = 0;

  const client: ClientChannel = {
    notify<M extends NotificationMethod>(method: M, params: NotificationParams<M>): void {
      const checked = notifications[method].parse(params);
      // A socket client may leave mid-turn (a window reload): its events are dropped, the turn goes
      // on, and the journal keeps the truth for whoever asks next (issue 12, item 2).
      if (disposed) return;
      // Never rejects (departureSafeWriter): a write to a client that left ends that client only.
      void connection.sendNotification(method, checked);
    },
    async request<M extends ServerRequestMethod>(
      method: M,
      params: ServerRequestParams<M>,
      signal?: AbortSignal,
    ): Promise<ServerRequestResult<M>> {
      const spec = serverRequests[method];
      // A departed client is no one to ask: the caller decides what no answer means (ClientApproval: a denial).
      const departed = () => new Error(`the client left before it answered ${method}`);
      if (disposed) throw departed();
      const token = signal ? abortToToken(signal) : undefined;
      let raw: unknown;
      try {
        raw = await connection.sendRequest(method, spec.params.parse(params), token);
      } catch (e) {
        throw disposed ? departed() : e;
      }
      const parsed = spec.result.safeParse(raw);
      if (!parsed.success) throw new Error(`the client answered ${method} with an invalid result: ${describeZodError(parsed.error)}`);
      return parsed.data as ServerRequestResult<M>;
    },
  };

  // The star handler sees every request uniformly (method, raw params, token), so unknown methods,
  // positional params and missing params all get the same validated path.
  connection.onRequest(async (method: string, rawParams: unknown, token) => {
    if (!Object.hasOwn(requests, method)) {
      throw new ResponseError(
        ErrorCode.MethodNotFound,
        `method not found: ${method}; this kernel speaks protocol ${PROTOCOL_VERSION} (see docs/protocol.md)`,
      );
    }
    if (inFlight >= maxInFlight) {
      throw new ResponseError(
        ErrorCode.Overloaded,
        `overloaded: ${inFlight} requests are in flight (limit ${maxInFlight}); wait for some to finish and retry`,
      );
    }
    inFlight++;
    try {
      return await dispatch(method as RequestMethod, rawParams, token);
    } catch (e) {
      throw toResponseError(e, method, opts.log);
    } finally {
      inFlight--;
    }
  });

  async function dispatch(method: RequestMethod, rawParams: unknown, token: CancellationToken): Promise<unknown> {
    if (Array.isArray(rawParams)) {
      throw new ResponseError(
        ErrorCode.InvalidParams,
        `invalid params for ${method}: params must be an object with named fields, not an array`,
      );
    }
    const parsed = requests[method].params.safeParse(rawParams);
    if (!parsed.success) {
      throw new ResponseError(ErrorCode.InvalidParams, `invalid params for ${method}: ${describeZodError(parsed.error)}`);
    }
    const handler = opts.handlers[method] as ((p: unknown, c: RequestContext) => Promise<unknown>) | undefined;
    if (!handler) {
      throw new ResponseError(
        ErrorCode.NotImplemented,
        `not implemented: ${method} is part of protocol ${PROTOCOL_VERSION} but this kernel does not implement it yet`,
      );
    }
    const controller = new AbortController();
    // A request cancelled before it is dispatched comes with vscode-jsonrpc's static Cancelled token,
    // whose event never fires: it is checked here, or the cancelled work would run to its end.
    if (token.isCancellationRequested) controller.abort(new Error("request cancelled by client"));
    else token.onCancellationRequested(() => controller.abort(new Error("request cancelled by client")));
    // Request ids are correlation only, never authority (control plane #6), so a kernel counter serves.
    const ctx: RequestContext = { clientId, requestId: String(++requestCounter), signal: controller.signal, client };
    try {
      return await handler(parsed.data, ctx);
    } catch (e) {
      // What a cancelled request ends with is the cancel, not an internal error (the client asked for it).
      if (controller.signal.aborted && !isHearthError(e))
        throw new HearthError(ErrorCode.Cancelled, `cancelled: ${method} was cancelled by the client before it was answered`);
      throw e;
    }
  }
  connection.listen();
  return { connection, client, inFlight: () => inFlight };
}

function abortToToken(signal: AbortSignal) {
  const cancelled = new Emitter<void>();
  signal.addEventListener("abort", () => cancelled.fire(), { once: true });
  return {
    get isCancellationRequested() {
      return signal.aborted;
    },
    onCancellationRequested: (listener: () => void) => cancelled.event(listener),
  };
}

function toResponseError(e: unknown, method: string, log: (l: string) => void): ResponseError<unknown> {
  if (e instanceof ResponseError) return e;
  if (isHearthError(e)) return new ResponseError(e.code, e.message, e.data);
  log(`internal error in ${method}: ${(e as Error)?.stack ?? String(e)}`);
  return new ResponseError(ErrorCode.InternalError, `internal error in ${method}: ${errorMessage(e)}; see the kernel log`);
}
