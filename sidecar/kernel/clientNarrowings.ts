// What each client's stricter settings take away from the runs it starts (issue 22, item 2; issue 24,
// item 8): set when it initializes, read when it starts a turn or a task. Keyed by the connection's
// channel, so it goes with the connection. A client that sent no settings gets the kernel's own alone.
import { compareSettings, type TurnNarrowing } from "../../shared/node/kernelSettingsView.js";
import type { ClientChannel } from "./clientChannel.js";

export class ClientNarrowings {
  private readonly byClient = new WeakMap<ClientChannel, TurnNarrowing>();

  constructor(private readonly kernel: { settings: Record<string, string>; tools: () => readonly string[] }) {}

  /** Records the client's narrowing; returns what it narrows, one sentence each (the `initialize` answer's `narrowed`). */
  join(client: ClientChannel, clientSettings: Record<string, string> | undefined): string[] {
    if (!clientSettings) {
      this.byClient.delete(client);
      return [];
    }
    const { narrowing, narrowed } = compareSettings({ settings: this.kernel.settings, tools: this.kernel.tools() }, clientSettings);
    this.byClient.set(client, narrowing);
    return narrowed;
  }

  /** The narrowing for the runs this client starts; undefined when it narrows nothing. */
  for(client: ClientChannel): TurnNarrowing | undefined {
    const n = this.byClient.get(client);
    return n && Object.keys(n).length ? n : undefined;
  }
}
