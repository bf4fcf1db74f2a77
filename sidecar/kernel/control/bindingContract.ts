// spec 004 identity: kernel ids and adapter-native ids are separate namespaces. These checks reject
// an adapter that reports a kernel id as its own (conflation) or changes its id mid-binding (drift).
import { createHash } from "node:crypto";
import { ErrorCode, HearthError } from "../../../shared/errors.js";

export interface BindingIdentity {
  sessionId: string;
  bindingId: string;
  adapterNativeSessionId: string | null;
}

function refuse(message: string): never {
  throw new HearthError(ErrorCode.Refused, `refused adapter result: ${message}; this is an adapter bug: report it with the adapter name`);
}

export function assertAdapterBindingContract(binding: BindingIdentity, kernelIds: readonly string[] = []): void {
  const native = binding.adapterNativeSessionId;
  if (native === null) return;
  if (native === binding.sessionId || native === binding.bindingId || kernelIds.includes(native)) {
    refuse(`the adapter returned kernel id ${native} as its native session id (kernel ids are minted by Hearth, never by an adapter)`);
  }
}

export function assertAdapterAttemptResultContract(
  binding: BindingIdentity,
  result: { adapterNativeSessionId: string | null },
  kernelIds: readonly string[] = [],
): void {
  assertAdapterBindingContract({ ...binding, adapterNativeSessionId: result.adapterNativeSessionId }, kernelIds);
  if (binding.adapterNativeSessionId !== null && result.adapterNativeSessionId !== binding.adapterNativeSessionId) {
    refuse(
      `the attempt result names native session ${String(result.adapterNativeSessionId)} but binding ${binding.bindingId} is bound to ${binding.adapterNativeSessionId} (drift)`,
    );
  }
}

/** Stable kernel-effective inputs that decide whether a binding can be reused (spec 004 binding compatibility). */
export interface CompatibilityInputs {
  profileGeneration: number;
  kernelPolicyVersion: number;
  workingDirectory: string;
  systemPrompt: string;
  /** Tool servers as the adapter effectively sees them; request-scoped env is stripped first. */
  toolServers: readonly { name: string; command: string; env?: Record<string, string> }[];
}

const REQUEST_SCOPED_ENV = /^HEARTH_REQUEST_/;

export function compatibilityHash(inputs: CompatibilityInputs): string {
  const servers = inputs.toolServers
    .map((s) => ({
      name: s.name,
      command: s.command,
      env: Object.fromEntries(
        Object.entries(s.env ?? {})
          .filter(([k]) => !REQUEST_SCOPED_ENV.test(k))
          .sort(),
      ),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const canonical = JSON.stringify([
    inputs.profileGeneration,
    inputs.kernelPolicyVersion,
    inputs.workingDirectory,
    inputs.systemPrompt,
    servers,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}
