// A typed client of the kernel protocol: validates params before sending and results on arrival.
import { CancellationTokenSource, ResponseError, type MessageConnection } from "vscode-jsonrpc/node.js";
import {
  notifications,
  PROTOCOL_VERSION,
  requests,
  serverRequests,
  type ClientPrincipal,
  type NotificationMethod,
  type NotificationParams,
  type RequestMethod,
  type RequestParams,
  type RequestResult,
  type ServerRequestMethod,
  type ServerRequestParams,
  type ServerRequestResult,
} from "../protocol/index.js";
import { Emitter } from "../event.js";
import type { IDisposable } from "../lifecycle.js";

export class KernelRequestError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "KernelRequestError";
  }
}

export class KernelClient {
  /** One emitter per notification method: the connection itself keeps one handler per method. */
  private readonly notifications = new Map<string, Emitter<unknown>>();

  constructor(readonly connection: MessageConnection) {}

  /** `signal`: aborting it sends $/cancelRequest, so the kernel stops the work (its handler's signal aborts). */
  async request<M extends RequestMethod>(method: M, params: RequestParams<M>, signal?: AbortSignal): Promise<RequestResult<M>> {
    const spec = requests[method];
    const checked = spec.params.parse(params);
    const cancel = signal ? new CancellationTokenSource() : undefined;
    const onAbort = () => cancel?.cancel();
    signal?.addEventListener("abort", onAbort, { once: true });
    let raw: unknown;
    try {
      signal?.throwIfAborted();
      // No params means no "params" member at all: vscode-jsonrpc would otherwise send [].
      // A token is passed only when there is one: vscode-jsonrpc would send an undefined argument as a param.
      const args: unknown[] = [...(checked === undefined ? [] : [checked]), ...(cancel ? [cancel.token] : [])];
      raw = await this.connection.sendRequest(method, ...args);
    } catch (e) {
      if (e instanceof ResponseError) throw new KernelRequestError(method, e.code, e.message, e.data);
      throw e;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      cancel?.dispose();
    }
    return spec.result.parse(raw) as RequestResult<M>;
  }

  /**
   * `client`: who this client is (issue 24); a kernel of another folder refuses it. `settings`: this
   * client's own start settings (kernelSettingsView), so its stricter ones apply to its runs (issue 22).
   */
  initialize(
    clientName: string,
    clientVersion: string,
    who: { client?: ClientPrincipal; settings?: Record<string, string> } = {},
  ): Promise<RequestResult<"initialize">> {
    return this.request("initialize", {
      clientName,
      clientVersion,
      protocolVersion: PROTOCOL_VERSION,
      ...(who.client ? { client: who.client } : {}),
      ...(who.settings ? { settings: who.settings } : {}),
    });
  }

  /** Every handler of a method hears each notification that passes the method's schema. */
  onNotification<M extends NotificationMethod>(method: M, handler: (params: NotificationParams<M>) => void): IDisposable {
    let emitter = this.notifications.get(method);
    if (!emitter) {
      const created = new Emitter<unknown>();
      emitter = created;
      this.notifications.set(method, created);
      this.connection.onNotification(method, (raw: unknown) => {
        const parsed = notifications[method].safeParse(raw);
        if (parsed.success) created.fire(parsed.data);
      });
    }
    return emitter.event(handler as (params: unknown) => void);
  }

  /** Answers kernel → client requests such as approval/request. */
  onServerRequest<M extends ServerRequestMethod>(
    method: M,
    handler: (params: ServerRequestParams<M>, signal: AbortSignal) => Promise<ServerRequestResult<M>>,
  ): void {
    this.connection.onRequest(method, async (raw: unknown, token) => {
      const params = serverRequests[method].params.parse(raw) as ServerRequestParams<M>;
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      return serverRequests[method].result.parse(await handler(params, controller.signal));
    });
  }

  dispose(): void {
    this.connection.dispose();
    for (const emitter of this.notifications.values()) emitter.dispose();
  }
}
