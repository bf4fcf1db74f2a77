// ADAPTER_CAPABILITY_MATRIX: the source of truth for what each adapter can do (control plane #16, adapter
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
  capabilities: Record<CapabilityKey, CapabilityDeclaration>;
}

const req: CapabilityDeclaration = { level: "required" };
const no: CapabilityDeclaration = { level: "unsupported" };

export const ADAPTER_CAPABILITY_MATRIX = {
  // node-llama-cpp in the kernel: the KV cache is process-local, so the worker is pinned and nothing
  // of it survives a restart; a cancel is acknowledged once the cancelled round's native work has
  // ended (its answer comes first: a started prompt batch runs to its end; TurnService waits for
  // ModelHost.settled, harness #18, #22), and left unacknowledged when it outlasts the wait.
  llama: {
    credentialScope: "local_user",
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

/** Unknown adapters fail closed (control plane #16). */
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
