// The person's confirmations of workspace and imported MCP servers (issue 28, item 1), journaled:
// one row per server name and exact configuration, with what was shown, who confirmed and when.
import type { Journal } from "../../journal/journal.js";
import { nowIso } from "../control/transition.js";

export interface Confirmation {
  readonly name: string;
  readonly configDigest: string;
  readonly sourceLabel: string;
  readonly commandLine: string;
  readonly by: { readonly kind: string; readonly clientId: string };
}

export class McpConfirmations {
  constructor(private readonly journal: Journal) {}

  has(name: string, configDigest: string): boolean {
    return (
      this.journal.db
        .prepare("SELECT 1 FROM mcp_server_confirmations WHERE server_name = ? AND config_digest = ?")
        .get(name, configDigest) !== undefined
    );
  }

  record(c: Confirmation): void {
    this.journal.withTransaction((db) =>
      db
        .prepare(
          `INSERT OR IGNORE INTO mcp_server_confirmations
             (server_name, config_digest, source_label, command_line, confirmed_by_kind, confirmed_by_id, confirmed_at)
           VALUES (?,?,?,?,?,?,?)`,
        )
        .run(c.name, c.configDigest, c.sourceLabel, c.commandLine, c.by.kind, c.by.clientId, nowIso()),
    );
  }
}
