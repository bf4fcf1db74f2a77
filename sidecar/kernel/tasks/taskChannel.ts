// The way back to people for a background task's turn: its events go to every connected client,
// and an approval request goes only to the clients that can ask a person (a window, issue 24), each
// marked with the task so the editor can show it without taking focus, or is answered by a person at
// a terminal through `hearth task approve|deny ID` (task/answer). A non-interactive client (a
// `hearth exec --approve` policy) is never asked: its policy answers only its own run's calls. The
// first decision answers it (exactly as a chat's: ClientApproval echoes the call id and input hash,
// harness #8) and is journaled with who decided. A client that cannot answer (it left, it has no
// approval handler) is not a denial: the task waits for a person, also while no client is connected.
// Only the turn's own abort (cancel, shutdown) ends the wait, and ClientApproval makes that a denial.
// The problems a task's write leaves (issue 29 item 4) are asked of a connected window.
import { ErrorCode, errorMessage } from "../../../shared/errors.js";
import { DisposableStore, toDisposable } from "../../../shared/lifecycle.js";
import type { ServerRequestMethod, ServerRequestParams, ServerRequestResult } from "../../../shared/protocol/index.js";
import type { ClientChannel } from "../clientChannel.js";
import type { ClientPrincipals } from "../principals/clientPrincipals.js";
import { decidedBy, KERNEL_RULE, type DecidedBy, type DecisionJournal } from "../principals/decisionJournal.js";
import type { DecisionSurface } from "../../../shared/protocol/index.js";
import type { ClientRegistry } from "./clientRegistry.js";

type Request = ServerRequestParams<"approval/request">;
type Answer = ServerRequestResult<"approval/request">;

export interface TaskChannelDeps {
  clients: ClientRegistry;
  principals: ClientPrincipals;
  decisions: DecisionJournal;
  /** The approvals tasks wait for now, answerable from a terminal (task/answer). */
  pending: PendingTaskApprovals;
}

/** A task's approval waiting for a person, keyed by its task. */
interface Pending {
  callId: string;
  answer(answer: Answer, who: { by: DecidedBy; surface: DecisionSurface }): void;
}

export class PendingTaskApprovals {
  private readonly waiting = new Map<string, Pending>();

  set(taskId: string, pending: Pending): void {
    this.waiting.set(taskId, pending);
  }

  clear(taskId: string, pending: Pending): void {
    if (this.waiting.get(taskId) === pending) this.waiting.delete(taskId);
  }

  /** A person's answer from a terminal; false when the task waits for no approval now. */
  answer(taskId: string, answer: Answer, by: DecidedBy): { answered: boolean; callId: string | null } {
    const pending = this.waiting.get(taskId);
    if (!pending) return { answered: false, callId: null };
    pending.answer(answer, { by, surface: "terminal" });
    return { answered: true, callId: pending.callId };
  }
}

export function taskChannel(deps: TaskChannelDeps, taskId: string, onApprovalChange: () => void): ClientChannel {
  const problems = new WriteProblemsWindows(deps);
  return {
    notify: (method, params) => deps.clients.notifyAll(method, params),
    request<M extends ServerRequestMethod>(
      method: M,
      params: ServerRequestParams<M>,
      signal?: AbortSignal,
    ): Promise<ServerRequestResult<M>> {
      if (method === "diagnostics/baseline" || method === "diagnostics/afterWrite")
        return problems.request(method, params as ServerRequestParams<"diagnostics/baseline">, signal) as Promise<ServerRequestResult<M>>;
      // A task runs apart from any window: its approvals are put to people, and the problems its writes
      // leave are asked of a window; nothing else has an editor to ask.
      if (method !== "approval/request") return Promise.reject(new NoEditorForTask(method));
      const approval = params as ServerRequestParams<"approval/request">;
      return firstAnswer(deps, taskId, { ...approval, taskId }, signal, onApprovalChange) as Promise<ServerRequestResult<M>>;
    },
  };
}

/** Writes whose problems are being collected at once, at most (a write that failed is never asked after). */
const MAX_WRITES_IN_FLIGHT = 64;

/**
 * The problems a task's write leaves (issue 29 item 4) are asked of a window of the folder, as a chat
 * turn's are asked of its own: the first window connected when the write is about to be installed notes
 * the file's problems, and the same window reports the new ones after it (it holds the baseline). With
 * no window connected the result says none were collected, as with the CLI.
 */
class WriteProblemsWindows {
  private readonly byCall = new Map<string, ClientChannel>();

  constructor(private readonly deps: Pick<TaskChannelDeps, "clients" | "principals">) {}

  request(
    method: "diagnostics/baseline" | "diagnostics/afterWrite",
    params: ServerRequestParams<"diagnostics/baseline">,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    if (method === "diagnostics/baseline") {
      const window = this.deps.clients.all().find((c) => this.deps.principals.of(c).kind === "window");
      if (!window) return Promise.reject(new NoEditorForTask(method));
      if (this.byCall.size >= MAX_WRITES_IN_FLIGHT) this.byCall.delete(this.byCall.keys().next().value!);
      this.byCall.set(params.callId, window);
      return window.request(method, params, signal);
    }
    const window = this.byCall.get(params.callId);
    this.byCall.delete(params.callId);
    if (!window) return Promise.reject(new NoEditorForTask(method));
    if (!this.deps.clients.all().includes(window))
      return Promise.reject(new Error("the window that noted the file's problems before the write has closed"));
    return window.request(method, params, signal);
  }
}

function firstAnswer(
  deps: TaskChannelDeps,
  taskId: string,
  params: Request,
  signal: AbortSignal | undefined,
  onChange: () => void,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const asked = new Map<ClientChannel, AbortController>();
    // What the wait listens to (clients arriving, the turn's abort): released when it settles.
    const listening = new DisposableStore();
    let settled = false;
    const pending: Pending = {
      callId: params.call.callId,
      answer: (answer, who) => {
        if (settled) return;
        finish();
        try {
          deps.decisions.record(params, answer, who);
          resolve(answer);
        } catch (e) {
          // A decision that cannot be journaled is not acted on.
          resolve({ decision: "deny", reason: `denied: the decision could not be journaled (${errorMessage(e)})` });
        }
      },
    };
    const finish = () => {
      settled = true;
      deps.pending.clear(taskId, pending);
      listening.dispose();
      for (const ac of asked.values()) ac.abort(new Error("answered by another client"));
      // After the approval port has moved the attempt back to running (it does so as it resumes).
      setImmediate(onChange);
    };
    const ask = (client: ClientChannel) => {
      const principal = deps.principals.of(client);
      if (settled || asked.has(client) || !principal.asksPerson) return;
      const ac = new AbortController();
      asked.set(client, ac);
      client.request("approval/request", params, ac.signal).then(
        (answer) => pending.answer(answer, decidedBy(principal, answer)),
        () => {
          /* this client could not answer; another one (or a later one) will */
        },
      );
    };
    const onAbort = () => {
      if (settled) return;
      finish();
      const reason = signal!.reason instanceof Error ? signal!.reason : new Error("the task's turn ended");
      reject(reason);
      try {
        deps.decisions.record(
          params,
          { decision: "deny", reason: `denied: ${reason.message} while the call waited for approval` },
          KERNEL_RULE,
        );
      } catch {
        /* the journal is closing (a shutdown): the ledger keeps the call's own outcome */
      }
    };
    deps.pending.set(taskId, pending);
    listening.add(deps.clients.onArrive(ask));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    listening.add(toDisposable(() => signal?.removeEventListener("abort", onAbort)));
    for (const c of deps.clients.all()) ask(c);
    setImmediate(onChange);
  });
}

/** What a task's turn hears when it asks an editor (JSON-RPC's "method not found": nobody there can answer). */
class NoEditorForTask extends Error {
  readonly code = ErrorCode.MethodNotFound;
  constructor(method: string) {
    super(`${method}: a background task has no editor attached`);
  }
}
