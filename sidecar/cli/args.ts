// The CLI's flags, parsed strictly by node:util's parseArgs: an unknown flag or a missing value is a
// usage error that names the flag and the command's help.
import { parseArgs as parseNodeArgs } from "node:util";

export interface ParsedArgs {
  flags: Map<string, string | true | string[]>;
  positionals: string[];
}

export class UsageError extends Error {}

/** `spec` maps each allowed flag to whether it takes a value, or `"many"`: a value, and it may be given again. */
export function parseArgs(argv: string[], spec: Record<string, boolean | "many">, command: string): ParsedArgs {
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, takes]) => [
      name,
      takes === "many" ? { type: "string" as const, multiple: true } : { type: takes ? ("string" as const) : ("boolean" as const) },
    ]),
  );
  let parsed: ReturnType<typeof parseNodeArgs>;
  try {
    parsed = parseNodeArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (e) {
    throw new UsageError(usageMessage(e as Error & { code?: string }, command));
  }
  const flags: ParsedArgs["flags"] = new Map();
  for (const [name, value] of Object.entries(parsed.values))
    if (typeof value === "string" || value === true) flags.set(name, value);
    else if (Array.isArray(value))
      flags.set(
        name,
        value.filter((v): v is string => typeof v === "string"),
      );
  return { flags, positionals: parsed.positionals };
}

function usageMessage(e: Error & { code?: string }, command: string): string {
  const flag = /'(-{1,2}[^' ]+)/.exec(e.message)?.[1] ?? "";
  const help = `see \`hearth ${command} --help\``;
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION")
    return `unknown option ${flag} for \`hearth ${command}\` (a message that starts with - goes after --); ${help}`;
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return `option ${flag} needs a value; ${help}`;
  return `${e.message}; ${help}`;
}

export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === "string" ? v : undefined;
}

/** A flag given any number of times (`"many"` in the spec): its values in order, [] when absent. */
export function flagStrings(args: ParsedArgs, name: string): string[] {
  const v = args.flags.get(name);
  return Array.isArray(v) ? v : [];
}
