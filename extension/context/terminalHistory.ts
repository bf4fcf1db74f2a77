// The last command of each terminal and its output (issue 29 item 3, @terminal), through VS Code's
// shell integration: a command's output can be read only from its start (execution.read()), so every
// command is followed from the moment it starts and the last one that ended is kept per terminal.
// The API is VS Code 1.93's; the types here are the few members used, since the engine is older.
import * as vscode from "vscode";

export interface ShellExecution {
  readonly commandLine: { readonly value: string };
  readonly cwd?: vscode.Uri;
  read(): AsyncIterable<string>;
}
interface StartEvent {
  readonly terminal: vscode.Terminal;
  readonly execution: ShellExecution;
}
interface EndEvent extends StartEvent {
  readonly exitCode: number | undefined;
}
/** The members of `vscode.window` that shell integration adds (absent before VS Code 1.93). */
interface ShellIntegrationEvents {
  readonly onDidStartTerminalShellExecution?: vscode.Event<StartEvent>;
  readonly onDidEndTerminalShellExecution?: vscode.Event<EndEvent>;
}

export interface FinishedCommand {
  command: string;
  cwd?: string;
  exitCode?: number;
  output: string;
}

/** Output kept of a running command, its end: far more than a chip sends, little enough to hold per terminal. */
const KEEP_CHARS = 256_000;
/** How long an ended command's output may take to drain before what arrived is kept. */
const DRAIN_MS = 1_000;

export class TerminalHistory implements vscode.Disposable {
  private readonly reading = new Map<ShellExecution, { output: string; drained: Promise<void> }>();
  private readonly last = new WeakMap<vscode.Terminal, FinishedCommand>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** False on a VS Code without the shell integration API: the chip says so. */
  readonly supported: boolean;

  constructor() {
    const events = vscode.window as unknown as ShellIntegrationEvents;
    this.supported = events.onDidStartTerminalShellExecution !== undefined && events.onDidEndTerminalShellExecution !== undefined;
    if (!this.supported) return;
    this.subscriptions.push(
      events.onDidStartTerminalShellExecution!((e) => this.follow(e.execution)),
      events.onDidEndTerminalShellExecution!((e) => void this.ended(e)),
    );
  }

  /** The last command that ended in this terminal since the window started, if any. */
  lastCommand(terminal: vscode.Terminal): FinishedCommand | undefined {
    return this.last.get(terminal);
  }

  private follow(execution: ShellExecution): void {
    const entry = { output: "", drained: Promise.resolve() };
    entry.drained = (async () => {
      for await (const data of execution.read()) {
        entry.output += data;
        if (entry.output.length > KEEP_CHARS) entry.output = entry.output.slice(entry.output.length - KEEP_CHARS);
      }
    })().catch(() => undefined); // a stream cut by a closed terminal keeps what it read
    this.reading.set(execution, entry);
  }

  private async ended(e: EndEvent): Promise<void> {
    const entry = this.reading.get(e.execution);
    this.reading.delete(e.execution);
    if (entry) await Promise.race([entry.drained, new Promise((resolve) => setTimeout(resolve, DRAIN_MS))]);
    this.last.set(e.terminal, {
      command: e.execution.commandLine.value,
      ...(e.execution.cwd ? { cwd: e.execution.cwd.fsPath } : {}),
      ...(e.exitCode !== undefined ? { exitCode: e.exitCode } : {}),
      output: entry?.output ?? "",
    });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
