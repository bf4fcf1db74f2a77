// The kernel's ground floor (issue 22, item 5): the way back to a client and the context of one
// request. Every floor above (control, turns, tasks, model, handlers) may use them; they import
// nothing of the kernel.
import type {
  NotificationMethod,
  NotificationParams,
  ServerRequestMethod,
  ServerRequestParams,
  ServerRequestResult,
} from "../../shared/protocol/index.js";

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
