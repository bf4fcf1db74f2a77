// The clients connected to this kernel now (socket clients and the stdio one). Background tasks
// belong to no client: their events and approval requests go to whoever is connected (issue 12).
// A client counts once it has initialized: it registers its approval handler before (or right as)
// its `initialize` answer arrives, so a request sent earlier would find no handler and be lost.
import { Emitter, type Event } from "../../../shared/event.js";
import type { NotificationMethod, NotificationParams } from "../../../shared/protocol/index.js";
import type { ClientChannel } from "../clientChannel.js";

export class ClientRegistry {
  private readonly connected = new Set<ClientChannel>();
  private readonly initialized = new Set<ClientChannel>();
  private readonly arrivals = new Emitter<ClientChannel>();
  /** Fires for every client that becomes ready from now on. */
  readonly onArrive: Event<ClientChannel> = this.arrivals.event;

  /** Registers a connected client; the returned function unregisters it when it leaves. */
  add(client: ClientChannel): () => void {
    this.connected.add(client);
    return () => {
      this.connected.delete(client);
      this.initialized.delete(client);
    };
  }

  /** The client answered `initialize`: from now on it hears tasks' events and approval requests. */
  ready(client: ClientChannel): void {
    if (!this.connected.has(client) || this.initialized.has(client)) return;
    this.initialized.add(client);
    this.arrivals.fire(client);
  }

  all(): ClientChannel[] {
    return [...this.initialized];
  }

  notifyAll<M extends NotificationMethod>(method: M, params: NotificationParams<M>): void {
    for (const c of this.initialized) c.notify(method, params);
  }
}
