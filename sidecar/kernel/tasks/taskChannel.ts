// The way back to people for a background task's turn: its events go to every connected client,
// and an approval request goes to every connected client marked with the task, so the editor can
// show it without taking focus. The first decision answers it (exactly as a chat's: ClientApproval
// echoes the call id and input hash, harness #8). A client that cannot answer (it left, it has no
// approval handler) is not a denial: the task waits for a person, also while no client is connected.
// Only the turn's own abort (cancel, shutdown) ends the wait, and ClientApproval makes that a denial.
import { DisposableStore, toDisposable } from "../../../shared/lifecycle.js";
import type { ServerRequestMethod, ServerRequestParams, ServerRequestResult } from "../../../shared/protocol/index.js";
import type { ClientChannel } from "../clientChannel.js";
import type { ClientRegistry } from "./clientRegistry.js";

export function taskChannel(clients: ClientRegistry, delegationId: string, onApprovalChange: () => void): ClientChannel {
  return {
    notify: (method, params) => clients.notifyAll(method, params),
    request<M extends ServerRequestMethod>(
      method: M,
      params: ServerRequestParams<M>,
      signal?: AbortSignal,
    ): Promise<ServerRequestResult<M>> {
      return firstAnswer(clients, method, { ...params, delegationId }, signal, onApprovalChange);
    },
  };
}

function firstAnswer<M extends ServerRequestMethod>(
  clients: ClientRegistry,
  method: M,
  params: ServerRequestParams<M>,
  signal: AbortSignal | undefined,
  onChange: () => void,
): Promise<ServerRequestResult<M>> {
  return new Promise((resolve, reject) => {
    const asked = new Map<ClientChannel, AbortController>();
    // What the wait listens to (clients arriving, the turn's abort): released when it settles.
    const listening = new DisposableStore();
    let settled = false;
    const finish = () => {
      settled = true;
      listening.dispose();
      for (const ac of asked.values()) ac.abort(new Error("answered by another client"));
      // After the approval port has moved the attempt back to running (it does so as it resumes).
      setImmediate(onChange);
    };
    const ask = (client: ClientChannel) => {
      if (settled || asked.has(client)) return;
      const ac = new AbortController();
      asked.set(client, ac);
      client.request(method, params, ac.signal).then(
        (answer) => {
          if (settled) return;
          finish();
          resolve(answer);
        },
        () => {
          /* this client could not answer; another one (or a later one) will */
        },
      );
    };
    const onAbort = () => {
      if (settled) return;
      finish();
      reject(signal!.reason instanceof Error ? signal!.reason : new Error("the task's turn ended"));
    };
    listening.add(clients.onArrive(ask));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    listening.add(toDisposable(() => signal?.removeEventListener("abort", onAbort)));
    for (const c of clients.all()) ask(c);
    setImmediate(onChange);
  });
}
