// Bounds on what the tools read, write, run and fetch (harness #9, #12). Each has a
// conservative default and a hard module maximum; setters clamp into [min, hard max], so no
// configuration can lift a bound past the module's ceiling.
export interface Ceilings {
  readonly readMaxBytes: number;
  readonly writeMaxBytes: number;
  readonly listMaxEntries: number;
  readonly listMaxDepth: number;
  readonly searchMaxFiles: number;
  readonly searchMaxDirs: number;
  readonly searchMaxMatches: number;
  readonly searchMaxFileBytes: number;
  readonly shellDefaultTimeoutMs: number;
  readonly shellMaxTimeoutMs: number;
  readonly shellOutputBytes: number;
  readonly fetchMaxBytes: number;
  readonly fetchTimeoutMs: number;
  readonly searchResultsMax: number;
}

type Bound = { min: number; default: number; hardMax: number };

export const BOUNDS: { readonly [K in keyof Ceilings]: Bound } = {
  readMaxBytes: { min: 1024, default: 1 << 20, hardMax: 16 << 20 },
  writeMaxBytes: { min: 1024, default: 4 << 20, hardMax: 32 << 20 },
  listMaxEntries: { min: 10, default: 500, hardMax: 5000 },
  listMaxDepth: { min: 1, default: 3, hardMax: 8 },
  searchMaxFiles: { min: 10, default: 5000, hardMax: 50_000 },
  // Folders opened by one search: empty folders cost an open each, so files alone do not bound it.
  searchMaxDirs: { min: 10, default: 2000, hardMax: 20_000 },
  searchMaxMatches: { min: 1, default: 200, hardMax: 2000 },
  searchMaxFileBytes: { min: 1024, default: 1 << 20, hardMax: 8 << 20 },
  // harness #12: a conservative default; the hard ceiling admits one 20-minute build/test gate.
  shellDefaultTimeoutMs: { min: 100, default: 120_000, hardMax: 20 * 60_000 },
  shellMaxTimeoutMs: { min: 100, default: 20 * 60_000, hardMax: 20 * 60_000 },
  shellOutputBytes: { min: 1024, default: 64 << 10, hardMax: 1 << 20 },
  fetchMaxBytes: { min: 1024, default: 2 << 20, hardMax: 10 << 20 },
  fetchTimeoutMs: { min: 100, default: 30_000, hardMax: 120_000 },
  // No tool reads it since web_search went; it stays because every session's pinned authority digest
  // covers all ceilings, and dropping one would refuse every existing session on resume (harness #19).
  searchResultsMax: { min: 1, default: 10, hardMax: 50 },
};

export function clampCeiling(key: keyof Ceilings, value: number): number {
  const b = BOUNDS[key];
  if (!Number.isFinite(value)) return b.default;
  return Math.min(b.hardMax, Math.max(b.min, Math.floor(value)));
}

export function defaultCeilings(): Ceilings {
  return Object.fromEntries(Object.entries(BOUNDS).map(([k, b]) => [k, b.default])) as unknown as Ceilings;
}

/** Applies overrides through the clamp; unknown keys are ignored by type. */
export function resolveCeilings(overrides: Partial<Ceilings> = {}): Ceilings {
  const out: Record<string, number> = { ...defaultCeilings() };
  for (const [k, v] of Object.entries(overrides)) {
    if (v !== undefined && k in BOUNDS) out[k] = clampCeiling(k as keyof Ceilings, v);
  }
  return Object.freeze(out) as unknown as Ceilings;
}
