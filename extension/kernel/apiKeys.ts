// The API key for OpenAI-compatible servers lives in VS Code's SecretStorage (the OS keychain where
// there is one), never in settings, logs or the journal. The kernel gets it in its environment at
// start (HEARTH_OPENAI_API_KEY, which the kernel never logs or journals), so a changed key restarts it.
import * as vscode from "vscode";

const SECRET = "hearth.openai.apiKey";

export class ApiKeys implements vscode.Disposable {
  private key: string | undefined;
  private readonly loaded: Promise<void>;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    onChange: () => void,
  ) {
    this.loaded = this.reload();
    this.subscription = secrets.onDidChange((e) => {
      if (e.key === SECRET) void this.reload().then(onChange);
    });
  }

  /** Resolves once the stored key has been read (before the first kernel start). */
  ready(): Promise<void> {
    return this.loaded;
  }

  /** The kernel's environment entry for the key, empty when none is stored. */
  env(): Record<string, string> {
    return this.key ? { HEARTH_OPENAI_API_KEY: this.key } : {};
  }

  /** "Hearth: Set API Key…": asks with a password box; an empty answer changes nothing. */
  async promptAndStore(): Promise<void> {
    const value = await vscode.window.showInputBox({
      title: "Hearth: API key for OpenAI-compatible servers",
      prompt: "Stored in VS Code's secret storage and passed only to Hearth's kernel; never written to settings, logs or the journal.",
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (/\s/.test(v.trim()) ? "an API key has no spaces or line breaks" : undefined),
    });
    if (value === undefined || value.trim() === "") return;
    await this.secrets.store(SECRET, value.trim());
    void vscode.window.showInformationMessage("Hearth stored the API key and restarts its background process to use it.");
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET);
    void vscode.window.showInformationMessage("Hearth removed the stored API key.");
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private async reload(): Promise<void> {
    this.key = (await this.secrets.get(SECRET)) || undefined;
  }
}
