// Wires the model's choice, progress and status into VS Code (issue 10, items 3-4): the status
// bar item, "Hearth: Select Model", the cancellable progress notification of a download or load,
// and the model part of the chat view (its welcome when no model is set).
import * as vscode from "vscode";
import { downloadTransfer, modelDisplayName, type ModelFromWebview, type ModelSnapshot } from "../../shared/protocol/modelView.js";
import type { ToWebview } from "../../shared/protocol/webview.js";
import { MODEL_SETTING } from "../chat/chatController.js";
import type { KernelSupervisor } from "../kernel/kernelSupervisor.js";
import { pickModel, serverSpec, serverUrlProblem } from "./modelPicker.js";
import { gpuOfferOnLoad } from "./gpuOffer.js";
import { ModelService } from "./modelService.js";
import { createModelStatusBar, SELECT_MODEL_COMMAND } from "./statusBar.js";
import { errorMessage } from "../../shared/errors.js";
import { plainText } from "../plainText.js";

/** What the chat view needs: where to post, and the person's model messages. */
export interface ModelViewPort {
  attach(post: ((message: ToWebview) => void) | undefined): void;
  /** The view (re)loaded its page: send it the model's state and choices again. */
  show(): void;
  onMessage(message: ModelFromWebview): void;
}

export function wireModels(
  context: vscode.ExtensionContext,
  kernel: KernelSupervisor | undefined,
  log: vscode.LogOutputChannel,
  onSwitched?: (spec: string) => Promise<void>,
): ModelViewPort {
  const noFolder = (): void =>
    void vscode.window.showWarningMessage("Hearth works on a folder: open one (File › Open Folder…), then choose a model.");
  if (!kernel) {
    context.subscriptions.push(vscode.commands.registerCommand(SELECT_MODEL_COMMAND, noFolder));
    return { attach: () => undefined, show: () => undefined, onMessage: noFolder };
  }
  const service = new ModelService({
    kernel,
    setting: () => vscode.workspace.getConfiguration().get<string>(MODEL_SETTING, ""),
    setSetting: (spec) => vscode.workspace.getConfiguration().update(MODEL_SETTING, spec, vscode.ConfigurationTarget.Global),
    log,
  });
  const status = createModelStatusBar();
  status.render(service.current);
  let post: ((message: ToWebview) => void) | undefined;
  const show = (s: ModelSnapshot): void => post?.({ type: "model/view", model: s });

  const use = async (spec: string): Promise<void> => {
    const changed = spec !== service.current.setting;
    const title = `Hearth: ${/^(hf|huggingface):|^https?:/.test(spec) ? "getting" : "loading"} ${modelDisplayName(spec)}`;
    try {
      const loaded = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (progress, token) => {
          let reported = 0;
          const listener = service.onChange((s) => {
            if (!s.progress) return;
            const percent = Math.floor(s.progress.fraction * 100);
            const what = s.progress.phase === "download" ? "Downloading" : "Loading";
            const transfer = downloadTransfer(s.progress);
            const detail = transfer === null ? "" : `: ${transfer}`;
            progress.report({ message: `${what} ${percent}%${detail}`, increment: Math.max(0, percent - reported) });
            reported = Math.max(reported, percent);
          });
          token.onCancellationRequested(
            () => void service.cancel().catch((e: unknown) => log.warn(`model: cancel failed: ${errorMessage(e)}`)),
          );
          return service.use(spec).finally(() => listener.dispose());
        },
      );
      // A chat keeps the model it was created with: a new model continues it in a new chat, said in the chat.
      if (loaded && changed) await onSwitched?.(spec);
    } catch (e) {
      void vscode.window
        .showErrorMessage(plainText(`Hearth could not load ${modelDisplayName(spec)}: ${errorMessage(e)}`), "Show Log")
        .then((pick) => pick && log.show());
    }
  };

  const select = async (): Promise<void> => {
    await service.refresh();
    const catalog = service.current.catalog;
    if (!catalog) {
      void vscode.window.showErrorMessage("Hearth could not list the models: its background process did not answer. See Hearth: Show Log.");
      return;
    }
    const spec = await pickModel(catalog, service.current.setting);
    if (spec) await use(spec);
  };

  context.subscriptions.push(
    status.item,
    service,
    service.onChange((s) => {
      status.render(s);
      show(s);
    }),
    service.onChange(gpuOfferOnLoad(context, kernel, log)),
    vscode.commands.registerCommand(SELECT_MODEL_COMMAND, select),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(MODEL_SETTING) && service.settingChanged()),
  );

  return {
    attach: (p) => {
      post = p;
    },
    show: () => {
      show(service.current);
      if (!service.current.catalog && kernel.state.kind === "ready") void service.refresh();
    },
    onMessage: (message) => {
      switch (message.type) {
        case "model/use":
          void use(message.spec);
          return;
        case "model/useServer": {
          const problem = serverUrlProblem(message.url);
          if (problem) void vscode.window.showErrorMessage(`Hearth: ${problem}.`);
          else void use(serverSpec(message.url, message.model));
          return;
        }
        case "model/cancel":
          void service.cancel();
          return;
        case "model/pick":
          void select();
          return;
        case "model/setApiKey":
          void vscode.commands.executeCommand("hearth.setApiKey");
          return;
      }
    },
  };
}
