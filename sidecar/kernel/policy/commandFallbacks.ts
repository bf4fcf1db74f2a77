// Simple commands that no approval rule may allow, because what they run is not what a rule's words
// say (issue 27, item 4): shells and evaluators run their arguments as code, wrappers run another
// command, `find -exec` runs one per file. Each asks instead; the command it would run is returned
// so that a deny rule still finds it (`sudo rm -rf /` is denied by a rule denying `rm`).
import type { ShellWord } from "./shellCommand.js";

export interface CommandFallback {
  readonly reason: string;
  /** Commands the wrapper may run: every literal suffix of its words (options are not parsed). */
  readonly inner: readonly (readonly ShellWord[])[];
  /** A script it runs (`sh -c SCRIPT`, `eval WORDS`), to be parsed in turn for deny rules. */
  readonly script?: string;
}

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox"]);
const EVALUATORS = new Set(["eval", "source", ".", "exec", "command", "builtin", "alias", "trap"]);
const WRAPPERS = new Set([
  "env",
  "sudo",
  "doas",
  "su",
  "runuser",
  "pkexec",
  "nohup",
  "timeout",
  "nice",
  "ionice",
  "chrt",
  "taskset",
  "time",
  "stdbuf",
  "setsid",
  "chroot",
  "unbuffer",
  "flock",
  "xargs",
  "parallel",
  "watch",
  "strace",
  "ltrace",
]);
/** find actions that run a command or write or delete files. */
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);
/** Commands that change how the shell reads the rest of the line. */
const STATE_CHANGERS = new Set(["export", "unset", "readonly", "local", "set", "shift", "umask", "ulimit"]);

function basename(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? path : path.slice(slash + 1);
}

function suffixes(words: readonly ShellWord[], from: number): ShellWord[][] {
  const out: ShellWord[][] = [];
  for (let i = from; i < words.length; i++) if (words[i]!.literal) out.push(words.slice(i));
  return out;
}

/** Why this simple command must ask whatever the rules say, or null when a rule may decide it. */
export function commandFallback(words: readonly ShellWord[]): CommandFallback | null {
  const name = words[0]!;
  if (!name.literal) return { reason: "a command name that expands (a variable, a glob or a substitution)", inner: [] };
  for (const w of words) {
    // The workspace's rules live in .hearth/rules.json: a command naming that folder never runs unasked.
    if (w.text.includes(".hearth")) return { reason: "a command naming .hearth/, where the workspace's approval rules live", inner: [] };
  }
  const base = basename(name.text);
  if (SHELLS.has(base)) {
    const c = words.findIndex((w, i) => i > 0 && w.literal && w.text.startsWith("-") && !w.text.startsWith("--") && w.text.includes("c"));
    const script = c > 0 ? words[c + 1] : undefined;
    return {
      reason: `${base} runs a shell script (sh -c, bash -c, or a script file)`,
      inner: [],
      script: script?.literal ? script.text : undefined,
    };
  }
  if (EVALUATORS.has(base)) {
    const rest = words.slice(1);
    const script = rest.every((w) => w.literal) ? rest.map((w) => w.text).join(" ") : undefined;
    return { reason: `\`${base}\` runs its arguments as a command`, inner: suffixes(words, 1), script };
  }
  if (WRAPPERS.has(base)) return { reason: `\`${base}\` runs another command`, inner: suffixes(words, 1) };
  if (base === "find") {
    const action = words.findIndex((w) => FIND_ACTIONS.has(w.text));
    if (action > 0) return { reason: `find ${words[action]!.text} runs a command or changes files`, inner: suffixes(words, action + 1) };
  }
  if (STATE_CHANGERS.has(base)) return { reason: `\`${base}\` changes the shell's state for the commands after it`, inner: [] };
  return null;
}
