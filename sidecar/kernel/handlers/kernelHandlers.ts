// initialize and kernel/shutdown: the handshake and the clean exit.
import { PROTOCOL_VERSION, REQUEST_METHODS } from "../../../shared/protocol/index.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { Handlers, RequestContext } from "./types.js";
import type { KernelConfig } from "../kernelInfo.js";
import type { ShutdownGate } from "../shutdownGate.js";

export interface KernelHandlerDeps {
  config: KernelConfig;
  gate: ShutdownGate;
  /** Names of methods that have a handler, reported so clients can adapt. */
  implementedMethods: () => string[];
  adapters: () => string[];
  tools: () => string[];
  /** The start settings clients compare with their own (shared/node/kernelSettingsView.ts). */
  settings: Record<string, string>;
  /**
   * A client initialized with its own settings: where they are stricter, they apply to its runs.
   * Returns what was narrowed, one sentence each. Called before the answer is written.
   */
  join: (ctx: RequestContext, clientSettings: Record<string, string> | undefined) => string[];
  /** After the answer is written: the client's handlers are in place once it reads it. */
  initialized: (ctx: RequestContext) => void;
  /** Called after the shutdown reply has been sent. */
  exit: () => void;
}

export function kernelHandlers(deps: KernelHandlerDeps) {
  return {
    initialize: async (params, ctx) => {
      if (params.protocolVersion !== PROTOCOL_VERSION) {
        throw new HearthError(
          ErrorCode.InvalidParams,
          `protocol mismatch: the client speaks protocol ${params.protocolVersion}, this kernel (Hearth ` +
            `${deps.config.kernelVersion}) speaks ${PROTOCOL_VERSION}; install matching versions of the client and kernel`,
        );
      }
      const narrowed = deps.join(ctx, params.settings);
      setImmediate(() => deps.initialized(ctx));
      return {
        kernelVersion: deps.config.kernelVersion,
        protocolVersion: PROTOCOL_VERSION,
        workspaceRoot: deps.config.workspaceRoot,
        journalPath: deps.config.journalPath,
        kernelPid: process.pid,
        capabilities: {
          implementedMethods: deps.implementedMethods().filter((m) => REQUEST_METHODS.includes(m as never)),
          adapters: deps.adapters(),
          tools: deps.tools(),
        },
        settings: deps.settings,
        narrowed,
      };
    },
    "kernel/shutdown": async () => {
      deps.gate.assertAccepting("kernel/shutdown");
      // After the reply has been queued: the writer sends it in later microtasks.
      setTimeout(deps.exit, 10);
      return { ok: true as const };
    },
  } satisfies Handlers;
}
