// Once a local model is loaded, asks the kernel whether a GPU build that does not ship could run it
// faster (an NVIDIA GPU with the model on the CPU or Vulkan: llama.cpp's CUDA build, 538 MB), and
// offers the download. Nothing is fetched unless the person says Download (issue 10, item 1).
import * as vscode from "vscode";
import { formatBytes } from "../../shared/byteFormat.js";
import type { ModelSnapshot } from "../../shared/protocol/modelView.js";
import type { KernelSupervisor } from "../kernel/kernelSupervisor.js";

const DONT_ASK = "hearth.gpuOffer.dontAsk";
const DOWNLOAD = "Download";
const NEVER = "Don't Ask Again";

/** Asks at most once per window, after the first local model is loaded. */
export function gpuOfferOnLoad(
  context: vscode.ExtensionContext,
  kernel: KernelSupervisor,
  log: vscode.LogOutputChannel,
): (s: ModelSnapshot) => void {
  let asked = false;
  return (s) => {
    if (asked || s.state !== "loaded" || context.globalState.get<boolean>(DONT_ASK)) return;
    asked = true;
    offer(context, kernel, log).catch((e: Error) => {
      log.error(`GPU build: ${e.message}`);
      void vscode.window
        .showErrorMessage(`Hearth could not install the CUDA build: ${e.message}`, "Show Log")
        .then((pick) => pick && log.show());
    });
  };
}

async function offer(context: vscode.ExtensionContext, kernel: KernelSupervisor, log: vscode.LogOutputChannel): Promise<void> {
  const client = await kernel.ensureStarted();
  const { offer } = await client.request("model/gpuOffer", undefined);
  if (!offer) return;
  log.info(`GPU build offered: ${offer.reason}`);
  const pick = await vscode.window.showInformationMessage(
    `Hearth: ${offer.reason}. Download llama.cpp's CUDA build (about ${formatBytes(offer.approxBytes)}) from the npm registry? The kernel restarts to use it.`,
    DOWNLOAD,
    "Not Now",
    NEVER,
  );
  if (pick === NEVER) return void (await context.globalState.update(DONT_ASK, true));
  if (pick !== DOWNLOAD) return;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: "Hearth: downloading llama.cpp's CUDA build", cancellable: true },
    async (progress, token) => {
      token.onCancellationRequested(() => void client.request("model/cancelLoad", undefined).catch(() => undefined));
      client.onNotification("model/progress", (p) => {
        if (p.spec === "llama.cpp CUDA build" && p.receivedBytes !== undefined)
          progress.report({ message: `${formatBytes(p.receivedBytes)} of about ${formatBytes(offer.approxBytes)}` });
      });
      return client.request("model/installGpuBuild", { gpu: "cuda" });
    },
  );
  log.info(`GPU build installed: ${result.installed.join(", ") || "already there"}`);
  if (result.restartNeeded) await kernel.restart();
}
