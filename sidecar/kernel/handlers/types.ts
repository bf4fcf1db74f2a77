// The method table's types: one handler per protocol method, each receiving parsed params.
import type {
  NotificationMethod,
  NotificationParams,
  RequestMethod,
  RequestParams,
  RequestResult,
  ServerRequestMethod,
  ServerRequestParams,
  ServerRequestResult,
} from "../../../shared/protocol/index.js";
import type { requests } from "../../../shared/protocol/index.js";
import type { z } from "zod";

/** The way back to the client: notifications and kernel → client requests (approvals). */
export interface ClientChannel {
  notify<M extends NotificationMethod>(method: M, params: NotificationParams<M>): void;
  request<M extends ServerRequestMethod>(method: M, params: ServerRequestParams<M>, signal?: AbortSignal): Promise<ServerRequestResult<M>>;
}

/** Correlation only: never authority (control plane #6, request-scoped state). */
export interface RequestContext {
  clientId: string;
  requestId: string;
  signal: AbortSignal;
  client: ClientChannel;
}

export type ParsedParams<M extends RequestMethod> = z.output<(typeof requests)[M]["params"]>;
export type Handler<M extends RequestMethod> = (params: ParsedParams<M>, ctx: RequestContext) => Promise<RequestResult<M>>;
export type Handlers = { [M in RequestMethod]?: Handler<M> };
export type { RequestParams };
