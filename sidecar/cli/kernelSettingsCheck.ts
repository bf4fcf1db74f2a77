// What a CLI command owes the person when it joins a kernel started under other settings (issue 22,
// item 2; issue 24, item 8): its environment goes with `initialize`, so its stricter settings apply to
// the runs it starts; the kernel's answer says which, and every other difference is told. Nothing is
// silent: both go to stderr, before the command's own output.
import { compareSettings, kernelSettingsView } from "../../shared/node/kernelSettingsView.js";
import type { RequestResult } from "../../shared/protocol/index.js";

/** The settings this command sends with `initialize`. */
export function cliSettings(): Record<string, string> {
  return kernelSettingsView(process.env);
}

/** The lines to print after joining: what the kernel narrowed for this command's runs, and what else differs. */
export function joinReport(info: RequestResult<"initialize">): string[] {
  const lines = info.narrowed.map((n) => `hearth: the kernel (pid ${info.kernelPid}) applies this command's stricter settings: ${n}`);
  const { told } = compareSettings({ settings: info.settings, tools: info.capabilities.tools }, cliSettings());
  if (told.length) {
    lines.push(
      `hearth: the kernel (pid ${info.kernelPid}) was started with other settings than this command's: ${told.join("; ")}. ` +
        `They last until it restarts: let it idle out, or stop it when nothing runs (kill ${info.kernelPid}), and the next command starts one with these`,
    );
  }
  return lines;
}
