// Condensing a session on demand (issue 13, item 3: session/compact, `hearth compact`): every turn
// but the last into one summary, journaled like the automatic condensing before a round.
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { Condensation } from "../../../shared/protocol/records.js";
import { ContextCondenser, toModelMessages, type AgentMessage, type CondensationStore } from "../../agent/index.js";
import type { AgentModel } from "../../agent/ports/model.js";
import type { ControlPlane } from "../control/controlPlane.js";
import type { ProfileRow } from "../control/sessions.js";
import type { ClientChannel } from "../clientChannel.js";
import type { ModelHost } from "../model/modelHost.js";
import { defaultInstructions } from "./defaultInstructions.js";
import { JournalCondensations, viewFromJournal } from "./journalCondensations.js";
import { leaseModel } from "./sessionAgent.js";

export interface CompactDeps {
  control: ControlPlane;
  models: ModelHost;
  workspacePath: string;
  /** True while a turn of the session runs: compacting then would race the turn's own view. */
  running: (sessionId: string) => boolean;
}

/** session/compact: every turn but the last into one summary, journaled; null when there is nothing older to condense. */
export async function compactSession(deps: CompactDeps, sessionId: string, client: ClientChannel): Promise<Condensation | null> {
  if (deps.running(sessionId))
    throw new HearthError(ErrorCode.Conflict, `refused: session ${sessionId} is running a turn; compact it once the turn has finished`);
  // Held like a turn from here, before the first await (issue 23, item 9): no run is admitted while
  // the model loads or the summary is written, so no run can see a view made after its admission.
  const release = deps.control.holdForCompaction(sessionId);
  const holder = `compact:${sessionId}`;
  try {
    const profile = deps.control.profile(sessionId);
    const model = await leaseModel(deps.models, profile.model_profile, holder, client);
    try {
      return await condenseEarlierTurns(deps, sessionId, model, profile, { trigger: "on_demand", signal: new AbortController().signal });
    } finally {
      deps.models.release(holder);
    }
  } finally {
    release();
  }
}

export interface CondenseRun {
  trigger: "automatic" | "on_demand";
  signal: AbortSignal;
  /** Called just before the view is journaled (synchronously, in the same tick): throws to keep it out. */
  beforeSave?: (started: CondensationContext) => void;
}

export type CondensationContext = ReturnType<ControlPlane["condensationContext"]>;

/** Every turn but the last into one summary, journaled; null when there is nothing older to condense. */
export async function condenseEarlierTurns(
  deps: Pick<CompactDeps, "control" | "workspacePath">,
  sessionId: string,
  model: AgentModel,
  profile: ProfileRow,
  run: CondenseRun,
): Promise<Condensation | null> {
  const started = deps.control.condensationContext(sessionId);
  const { history, latest } = started;
  const messages = history.map(({ seq: _seq, ...m }) => m as AgentMessage);
  const journal = new JournalCondensations(deps.control, sessionId, null, history);
  const store: CondensationStore = {
    save: (record) => {
      run.beforeSave?.(started);
      return journal.save(record);
    },
  };
  const condenser = new ContextCondenser(model, store, viewFromJournal(latest, history));
  const done = await condenser.compact({
    sessionKey: sessionId,
    trigger: run.trigger,
    instructions: [{ role: "system", text: profile.system_prompt || defaultInstructions(deps.workspacePath) }],
    history: messages,
    signal: run.signal,
    requestOf: (m) => ({ sessionKey: sessionId, messages: toModelMessages(m, true), tools: [], options: JSON.parse(profile.options_json) }),
  });
  return done ? deps.control.latestCondensation(sessionId) : null;
}
