// initialize and kernel/shutdown: the handshake and the clean exit.
import { PROTOCOL_VERSION, REQUEST_METHODS } from "../../../shared/protocol/index.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { Handlers } from "./types.js";
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
  /** Called after the shutdown reply has been sent. */
  exit: () => void;
}

export function kernelHandlers(deps: KernelHandlerDeps): Handlers {
  return {
    initialize: async (params) => {
      if (params.protocolVersion !== PROTOCOL_VERSION) {
        throw new HearthError(
          ErrorCode.InvalidParams,
          `protocol mismatch: the client speaks protocol ${params.protocolVersion}, this kernel (Hearth ` +
            `${deps.config.kernelVersion}) speaks ${PROTOCOL_VERSION}; install matching versions of the client and kernel`,
        );
      }
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
      };
    },
    "kernel/shutdown": async () => {
      deps.gate.assertAccepting("kernel/shutdown");
      // After the reply has been queued: the writer sends it in later microtasks.
      setTimeout(deps.exit, 10);
      return { ok: true as const };
    },
  };
}
