// Canonical JSON (sorted keys, no whitespace) and SHA-256 digests over it. Input hashes and
// authority digests must not depend on key order, or a resume would see drift that is not there.
import { createHash } from "node:crypto";

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} has no JSON form`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** Domain-separated digest: the same value under two domains never collides. */
export function digestOf(domain: string, value: unknown): string {
  return "sha256:" + createHash("sha256").update(domain).update("\0").update(canonicalJson(value)).digest("hex");
}

/**
 * The input hash an approval and a ledger claim carry: SHA-256 (hex) of the canonical JSON of the
 * call's arguments. The same formula as the kernel ledger's `inputHash`, so an approval's echo and
 * the ledger row name one input. The call id and tool name travel beside it, never inside it.
 */
export function inputHashOf(args: unknown): string {
  return createHash("sha256").update(canonicalJson(args)).digest("hex");
}
