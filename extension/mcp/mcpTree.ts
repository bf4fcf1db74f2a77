// The MCP view in the Hearth container (issue 28, item 6): each configured server with its state,
// where it is configured and what it runs; its tools as children (an unavailable one with why).
// Confirm (a modal showing the command line, trusted workspaces only), restart, turn off and on act on
// one server through the kernel. Reading the list starts no server.
import * as vscode from "vscode";
import { errorMessage } from "../../shared/errors.js";
import type { McpServerView } from "../../shared/protocol/index.js";
import type { KernelSupervisor } from "../kernel/kernelSupervisor.js";
import { confirmQuestion, serverContext, serverDescription, serverIcon, serverTooltip } from "./mcpText.js";
import { plainText } from "../plainText.js";

export const MCP_VIEW = "hearth.mcpView";

type Node = { kind: "server"; server: McpServerView } | { kind: "tool"; tool: McpServerView["tools"][number] };

export class McpTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private servers: McpServerView[] = [];
  private readonly view: vscode.TreeView<Node>;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly kernel: KernelSupervisor,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.view = vscode.window.createTreeView(MCP_VIEW, { treeDataProvider: this });
    this.subscriptions.push(
      this.view,
      this.view.onDidChangeVisibility((e) => e.visible && void this.refresh()),
      vscode.commands.registerCommand("hearth.mcp.refresh", () => this.refresh()),
      vscode.commands.registerCommand("hearth.mcp.confirm", (n?: Node) => this.confirm(n)),
      vscode.commands.registerCommand("hearth.mcp.restart", (n?: Node) => this.control(n, "restart")),
      vscode.commands.registerCommand("hearth.mcp.turnOff", (n?: Node) => this.control(n, "off")),
      vscode.commands.registerCommand("hearth.mcp.turnOn", (n?: Node) => this.control(n, "on")),
    );
  }

  async refresh(): Promise<void> {
    try {
      const { servers, problems } = await (await this.kernel.ensureStarted()).request("mcp/list", {});
      this.servers = servers;
      for (const p of problems) this.log.warn(`MCP configuration ${p.sourceLabel}${p.server ? ` (${p.server})` : ""}: ${p.message}`);
      this.view.message = servers.length
        ? problems.length
          ? `${problems.length} configuration problem${problems.length === 1 ? "" : "s"}: see Hearth: Show Log`
          : undefined
        : "No MCP servers. Add them to .vscode/mcp.json or the hearth.mcp.servers setting (docs/mcp.md).";
    } catch (e) {
      this.view.message = `Could not list the MCP servers: ${errorMessage(e)}`;
    }
    this.changed.fire(undefined);
  }

  private async confirm(node: Node | undefined): Promise<void> {
    const server = node?.kind === "server" ? node.server : await this.pick("needs_confirmation");
    if (!server) return;
    // issue 28 item 1: in Restricted Mode no server starts, so none is confirmed either.
    if (!vscode.workspace.isTrusted) {
      restricted(server.name);
      return;
    }
    const q = confirmQuestion(server);
    const answer = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, "Start Server");
    if (answer !== "Start Server") return;
    await this.act(server.name, (k) => k.request("mcp/confirm", { name: server.name, configDigest: server.configDigest }));
  }

  private async control(node: Node | undefined, action: "restart" | "off" | "on"): Promise<void> {
    const server = node?.kind === "server" ? node.server : await this.pick(null);
    if (server && action !== "off" && !vscode.workspace.isTrusted) {
      restricted(server.name);
      return;
    }
    if (server) await this.act(server.name, (k) => k.request("mcp/control", { name: server.name, action }));
  }

  private async act(name: string, run: (k: Awaited<ReturnType<KernelSupervisor["ensureStarted"]>>) => Promise<{ server: McpServerView }>) {
    try {
      const { server } = await run(await this.kernel.ensureStarted());
      if (server.state === "crashed")
        void vscode.window.showErrorMessage(plainText(`MCP server "${name}" did not start: ${server.lastError ?? "unknown error"}`));
    } catch (e) {
      void vscode.window.showErrorMessage(plainText(`MCP server "${name}": ${errorMessage(e)}`));
    }
    await this.refresh();
  }

  private async pick(blocked: McpServerView["blocked"]): Promise<McpServerView | undefined> {
    await this.refresh();
    const choices = this.servers.filter((s) => blocked === null || s.blocked === blocked);
    const picked = await vscode.window.showQuickPick(
      choices.map((s) => ({ label: s.name, description: serverDescription(s), detail: s.commandLine, server: s })),
      { placeHolder: "MCP server" },
    );
    return picked?.server;
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.servers.map((server) => ({ kind: "server", server }));
    return node.kind === "server" ? node.server.tools.map((tool) => ({ kind: "tool", tool })) : [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === "tool") {
      const item = new vscode.TreeItem(node.tool.name);
      item.description = node.tool.available ? node.tool.mcpName : `unavailable: ${node.tool.reason ?? ""}`;
      item.tooltip = node.tool.available ? `${node.tool.mcpName}: asks before each call` : node.tool.reason;
      item.iconPath = new vscode.ThemeIcon(node.tool.available ? "tools" : "warning");
      return item;
    }
    const s = node.server;
    const item = new vscode.TreeItem(
      s.name,
      s.tools.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.description = serverDescription(s);
    item.tooltip = serverTooltip(s);
    item.iconPath = new vscode.ThemeIcon(serverIcon(s));
    item.contextValue = serverContext(s);
    return item;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.changed.dispose();
  }
}

/** issue 28 item 1: in Restricted Mode no MCP server starts; the person is told why and what to do. */
function restricted(name: string): void {
  void vscode.window.showWarningMessage(
    `MCP server "${name}" was not started: this folder is in Restricted Mode, where no MCP server runs. Trust the folder first.`,
  );
}
