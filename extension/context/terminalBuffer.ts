// The last command's output as the terminal's own buffer holds it. VS Code's shell integration stream
// (execution.read()) loses a short command's output when the output and the command's end reach the
// window together (seen with code-server 4.139's VS Code: `echo` came back empty on every run of the
// e2e on a fresh machine). The workbench still knows the output from the buffer's command marks;
// "Copy Last Command Output" is the one way an extension can read it, so it goes through the
// clipboard, and the person's clipboard text is put back.
import * as vscode from "vscode";

/** The active terminal's last command output from its buffer, or undefined if none could be read. */
export async function lastOutputFromBuffer(): Promise<string | undefined> {
  const clipboard = vscode.env.clipboard;
  const saved = await clipboard.readText();
  try {
    await vscode.commands.executeCommand("workbench.action.terminal.copyLastCommandOutput");
    const copied = await clipboard.readText();
    // Nothing copied leaves the clipboard as it was (an image there too): no output is known.
    return copied === saved ? undefined : copied;
  } catch {
    return undefined; // a workbench without the command: the output stays unknown
  } finally {
    if ((await clipboard.readText()) !== saved) await clipboard.writeText(saved);
  }
}
