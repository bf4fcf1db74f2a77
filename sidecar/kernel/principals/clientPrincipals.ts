// Who each connected client is (issue 24): what it said in `initialize` (its kind, its folder,
// whether it can ask a person), checked against the one folder this kernel serves. The kernel,
// not each client, decides from this where a run's approvals go and who a decision is journaled as.
import fs from "node:fs";
import path from "node:path";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { ClientPrincipal } from "../../../shared/protocol/index.js";
import type { ClientChannel } from "../clientChannel.js";

export interface Principal {
  /** unnamed: a client that did not say who it is (never asked for a task's approval). */
  kind: ClientPrincipal["kind"] | "unnamed";
  clientId: string;
  asksPerson: boolean;
}

export class ClientPrincipals {
  private readonly known = new WeakMap<ClientChannel, Principal>();
  private readonly gone = new WeakSet<ClientChannel>();

  constructor(private readonly served: { workspaceRoot: string; journalPath: string }) {}

  /** `initialize`: refuses a client of another folder; otherwise records who it is. */
  admit(client: ClientChannel, clientId: string, said: ClientPrincipal | undefined): void {
    if (said) this.assertSameFolder(said.folder);
    this.known.set(
      client,
      said ? { kind: said.kind, clientId, asksPerson: said.asksPerson } : { kind: "unnamed", clientId, asksPerson: false },
    );
  }

  of(client: ClientChannel): Principal {
    return this.known.get(client) ?? { kind: "unnamed", clientId: "", asksPerson: false };
  }

  /** The client's connection closed. */
  left(client: ClientChannel): void {
    this.gone.add(client);
  }

  /**
   * A client following a run takes over its approvals only when it is the same kind of client as
   * the one that started it and that one has gone: a reloaded window picking up its own chat turn.
   * Any other follower only watches (issue 24, item 4).
   */
  mayTakeOver(starter: ClientChannel, follower: ClientChannel): boolean {
    const was = this.of(starter);
    return was.kind === "window" && this.of(follower).kind === "window" && this.gone.has(starter);
  }

  private assertSameFolder(folder: string): void {
    let canonical = path.resolve(folder);
    try {
      canonical = fs.realpathSync(canonical);
    } catch {
      /* a folder that does not exist cannot be the one served: compared as given */
    }
    if (canonical === this.served.workspaceRoot) return;
    throw new HearthError(
      ErrorCode.Refused,
      `refused: this kernel serves the folder ${this.served.workspaceRoot} (journal ${this.served.journalPath}), not ${canonical}; ` +
        "a kernel works in one folder only. Use your folder's own journal (leave out --db), or stop this kernel and start one for your folder",
    );
  }
}
