// The method table's types: one handler per protocol method, each receiving parsed params.
import type { RequestMethod, RequestParams, RequestResult } from "../../../shared/protocol/index.js";
import type { requests } from "../../../shared/protocol/index.js";
import type { z } from "zod";
import type { ClientChannel, RequestContext } from "../clientChannel.js";

export type { ClientChannel, RequestContext };
export type ParsedParams<M extends RequestMethod> = z.output<(typeof requests)[M]["params"]>;
export type Handler<M extends RequestMethod> = (params: ParsedParams<M>, ctx: RequestContext) => Promise<RequestResult<M>>;
/** Some methods' handlers: what one group of handlers returns (`satisfies Handlers`), what the RPC server dispatches on. */
export type Handlers = { [M in RequestMethod]?: Handler<M> };
/** Every method's handler: the kernel's table (kernel.ts), where a method without a handler does not compile. */
export type AllHandlers = { [M in RequestMethod]: Handler<M> };
export type { RequestParams };
