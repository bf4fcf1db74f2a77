// harness #19: the versioned authority snapshot. `AgentSessionBuilder.authoritySnapshot()` and
// `build()` resolve it through the same function, so what a resume compares is what runs.
// Approval policy is intentionally absent: it is process-local and grants nothing durable (#8).
import { ErrorCode, HearthError } from "../../shared/errors.js";
import { digestOf } from "./canonicalJson.js";
import type { Tool } from "./ports/tools.js";

export const AUTHORITY_SNAPSHOT_VERSION = 1;

/** Supplied by the caller, who opened the workspace descriptor (the agent never touches the disk). */
export interface AuthorityInputs {
  /** Canonical (realpath) workspace folder. */
  readonly workspacePath: string;
  /** Identity of the opened workspace descriptor, e.g. fs.fstat's dev and ino as decimal strings. */
  readonly workspaceIdentity: { readonly dev: string; readonly ino: string };
  /** Which optional built-ins were opted into (web_fetch). */
  readonly enablement?: Readonly<Record<string, boolean>>;
  /** Effective configured ceilings (shell timeout, output bytes, ...). */
  readonly ceilings?: Readonly<Record<string, number>>;
}

export interface ToolAuthority {
  readonly name: string;
  readonly description: string;
  readonly parameters: unknown;
  readonly effectClass: string;
  readonly retryPolicy: string;
  readonly requiresApproval: boolean;
  readonly identityDigest: string;
  readonly cancellation: string;
}

export interface AgentAuthoritySnapshot {
  readonly version: number;
  readonly workspace: { readonly path: string; readonly dev: string; readonly ino: string };
  /** Exact definitions, sorted by name. */
  readonly tools: readonly ToolAuthority[];
  readonly enablement: Readonly<Record<string, boolean>>;
  readonly ceilings: Readonly<Record<string, number>>;
  /** harness #21: one immutable cancellation policy per tool. */
  readonly cancellationPolicies: Readonly<Record<string, string>>;
  readonly digests: {
    readonly workspace: string;
    readonly tools: string;
    readonly enablement: string;
    readonly ceilings: string;
    /** Over everything above: what ledger claims and resumes compare. */
    readonly authority: string;
  };
}

export function resolveAuthority(inputs: AuthorityInputs, tools: ReadonlyMap<string, Tool>): AgentAuthoritySnapshot {
  const workspace = { path: inputs.workspacePath, dev: inputs.workspaceIdentity.dev, ino: inputs.workspaceIdentity.ino };
  const sorted: ToolAuthority[] = [...tools.values()]
    .map(({ definition: d }) => ({
      name: d.name,
      description: d.description,
      parameters: d.parameters,
      effectClass: d.effectClass,
      retryPolicy: d.retryPolicy,
      requiresApproval: d.requiresApproval,
      identityDigest: d.identityDigest,
      cancellation: d.cancellation,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const enablement = { ...(inputs.enablement ?? {}) };
  const ceilings = { ...(inputs.ceilings ?? {}) };
  const parts = {
    workspace: digestOf("hearth.authority.workspace.v1", workspace),
    tools: digestOf("hearth.authority.tools.v1", sorted),
    enablement: digestOf("hearth.authority.enablement.v1", enablement),
    ceilings: digestOf("hearth.authority.ceilings.v1", ceilings),
  };
  return deepFreeze({
    version: AUTHORITY_SNAPSHOT_VERSION,
    workspace,
    tools: sorted,
    enablement,
    ceilings,
    cancellationPolicies: Object.fromEntries(sorted.map((t) => [t.name, t.cancellation])),
    digests: { ...parts, authority: digestOf("hearth.authority.v1", { version: AUTHORITY_SNAPSHOT_VERSION, ...parts }) },
  });
}

/** Fails closed when a resumed session's recorded authority differs from what would run now. */
export function assertSameAuthority(
  recorded: AgentAuthoritySnapshot["digests"] & { version?: number },
  current: AgentAuthoritySnapshot,
): void {
  if (recorded.authority === current.digests.authority) return;
  const drifted = (["workspace", "tools", "enablement", "ceilings"] as const).filter((k) => recorded[k] !== current.digests[k]);
  const what = drifted.length > 0 ? drifted.join(", ") : `snapshot version (${String(recorded.version)} → ${current.version})`;
  throw new HearthError(
    ErrorCode.Refused,
    `refused to resume: the session's authority drifted (${what} changed since it was recorded); start a new ` +
      `session to run under the current tools and workspace`,
    { drifted },
  );
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
