// ADAPTER_CAPABILITY_MATRIX: the source of truth for what each adapter can do (spec 004, adapter
// capabilities are explicit). Every adapter declares every key; known limitations name a follow-up.
import { ErrorCode, HearthError } from "../../../shared/errors.js";

export const CAPABILITY_KEYS = [
  "toolCalls",
  "streaming",
  "cancelAcknowledgement",
  "nativeResume",
  "pinnedWorker",
  "reasoning",
  "systemRole",
] as const;
export type CapabilityKey = (typeof CAPABILITY_KEYS)[number];
export type CapabilityLevel = "required" | "unsupported" | "known_limitation";
export type CredentialScope = "local_user" | "managed_cloud";

export interface CapabilityDeclaration {
  level: CapabilityLevel;
  /** Required for known_limitation: where the gap is tracked. */
  followUp?: string;
}

export interface AdapterDeclaration {
  credentialScope: CredentialScope;
  /** 'none': the adapter's session lives in this process only (pinned worker, stale after restart). */
  resumeFidelity: "none" | "native";
  capabilities: Record<CapabilityKey, CapabilityDeclaration>;
}

const req: CapabilityDeclaration = { level: "required" };
const no: CapabilityDeclaration = { level: "unsupported" };

export const ADAPTER_CAPABILITY_MATRIX = {
  // node-llama-cpp in the kernel: the KV cache is process-local, so the worker is pinned and a
  // restart stales the binding; cancellation is acknowledged because the abort runs in-process.
  llama: {
    credentialScope: "local_user",
    resumeFidelity: "none",
    capabilities: {
      toolCalls: req,
      streaming: req,
      cancelAcknowledgement: req,
      nativeResume: no,
      pinnedWorker: req,
      reasoning: {
        level: "known_limitation",
        followUp: "docs/control-plane.md#known-limitations (reasoning depends on the GGUF chat template)",
      },
      systemRole: req,
    },
  },
  // An OpenAI-compatible HTTP server the user runs or holds a key for: the credential is the user's.
  openai: {
    credentialScope: "local_user",
    resumeFidelity: "none",
    capabilities: {
      toolCalls: req,
      streaming: req,
      cancelAcknowledgement: {
        level: "known_limitation",
        followUp: "docs/control-plane.md#known-limitations (closing the HTTP stream does not confirm the server stopped)",
      },
      nativeResume: no,
      pinnedWorker: no,
      reasoning: no,
      systemRole: req,
    },
  },
  // Replays a script for tests and demos (explicit opt-in); everything is in-process.
  scripted: {
    credentialScope: "local_user",
    resumeFidelity: "none",
    capabilities: {
      toolCalls: req,
      streaming: req,
      cancelAcknowledgement: req,
      nativeResume: no,
      pinnedWorker: req,
      reasoning: req,
      systemRole: req,
    },
  },
} as const satisfies Record<string, AdapterDeclaration>;

export type AdapterName = keyof typeof ADAPTER_CAPABILITY_MATRIX;

/** Unknown adapters fail closed (spec 004). */
export function adapterDeclaration(adapter: string): AdapterDeclaration {
  if (!Object.hasOwn(ADAPTER_CAPABILITY_MATRIX, adapter)) {
    throw new HearthError(
      ErrorCode.Refused,
      `refused: unknown adapter \`${adapter}\`; Hearth runs only ${Object.keys(ADAPTER_CAPABILITY_MATRIX).join(", ")}; choose a model spec for one of them`,
    );
  }
  return ADAPTER_CAPABILITY_MATRIX[adapter as AdapterName];
}

/** Which adapter a model spec selects: `openai:URL#model`, `scripted:FILE`, else a GGUF for llama. */
export function adapterForModelSpec(spec: string): AdapterName {
  if (spec.startsWith("openai:")) return "openai";
  if (spec.startsWith("scripted:")) return "scripted";
  return "llama";
}

/** The boundary a session persists at creation: credential scope plus, for local_user, the exact adapter. */
export function providerBoundary(adapter: string): string {
  const d = adapterDeclaration(adapter);
  return d.credentialScope === "local_user" ? `local_user:${adapter}` : "managed_cloud";
}

/**
 * spec 004: missing adapter arguments inherit the session's boundary; a local-user session is
 * pinned to its exact adapter; unknown adapters fail closed.
 */
export function resolveAdapterWithinBoundary(boundary: string, requested: string | undefined): string {
  const pinned = boundary.startsWith("local_user:") ? boundary.slice("local_user:".length) : null;
  if (requested === undefined) {
    if (pinned === null)
      throw new HearthError(
        ErrorCode.Refused,
        `refused: session boundary ${boundary} needs an explicit managed adapter, and Hearth has none`,
      );
    adapterDeclaration(pinned);
    return pinned;
  }
  const d = adapterDeclaration(requested);
  if (pinned !== null && requested !== pinned) {
    throw new HearthError(
      ErrorCode.Refused,
      `refused: this session is pinned to adapter ${pinned} (boundary ${boundary}); it cannot switch to ${requested}; start a new session for ${requested}`,
    );
  }
  if (pinned === null && d.credentialScope !== "managed_cloud") {
    throw new HearthError(ErrorCode.Refused, `refused: a managed session may select only managed-cloud adapters, not ${requested}`);
  }
  return requested;
}
