// The context port (issue 13, item 3): how a session's committed history is shown to the model once
// it no longer fits. The full history stays in memory and in the journal; a CondensedView says what
// the model sees instead, and the kernel journals every new view as its own event.

/**
 * What the model sees in place of committed history: the first `replacedCount` history messages
 * replaced by one summary, and the outputs of the tool calls in `elidedCallIds` replaced by a marker.
 * Cumulative: a later view's summary covers the earlier one's.
 */
export interface CondensedView {
  readonly summary: string | null;
  readonly replacedCount: number;
  readonly elidedCallIds: readonly string[];
}

export const NO_CONDENSATION: CondensedView = { summary: null, replacedCount: 0, elidedCallIds: [] };

export interface CondensationRecord {
  readonly view: CondensedView;
  /** "automatic": a round would not have fit; "on_demand": a person asked (session/compact). */
  readonly trigger: "automatic" | "on_demand";
  /** Prompt tokens before and after, as the model counts them. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

/** Where the kernel journals a new view before it is used (the view a restart resumes with). */
export interface CondensationStore {
  save(record: CondensationRecord): Promise<void>;
}

/** How full a model's context is for one request. */
export interface ContextMeasure {
  readonly promptTokens: number;
  readonly contextSize: number;
}
