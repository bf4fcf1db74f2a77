// A `hearth.model` that names a file which is not there is said when the setting changes, not at
// the next send (issue 25 item 11). Only an absolute path is checked here: hf:, openai: and
// scripted: specs and names the kernel resolves (its models folder) are the kernel's to judge.
// Pure (existence is passed in), so it is unit-tested.
import path from "node:path";

/** Why `setting` cannot be loaded, in words for the person, or null when nothing is wrong here. */
export function modelSettingProblem(setting: string, exists: (file: string) => boolean): string | null {
  const spec = setting.trim();
  if (!spec || /^[a-z][a-z0-9+.-]+:/i.test(spec) || !path.isAbsolute(spec)) return null;
  if (exists(spec)) return null;
  return `The model file ${spec} (the hearth.model setting) does not exist. Choose a model with Hearth: Select Model, or correct the path in Settings.`;
}
