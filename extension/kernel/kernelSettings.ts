// The settings a person changes, turned into the kernel's environment at each (re)start: the kernel
// reads the same variables from a terminal (README: configuration), so the CLI and the editor share
// one set of knobs. Both lists derive from the one schema (shared/kernelSettings.ts, issue 22 item 2).
// API keys never pass through here: they come from SecretStorage (apiKeys.ts).
// Pure: it reads settings through a getter, so it is tested without an editor.
export { KERNEL_SETTINGS, type SettingsSource as KernelSettingsSource } from "../../shared/kernelSettings.js";
export { envForSettings as kernelEnv } from "../../shared/kernelSettings.js";
