// A small, strict flag parser: unknown flags are errors that name the flag and the command's help.
export interface ParsedArgs {
  flags: Map<string, string | true>;
  positionals: string[];
}

export class UsageError extends Error {}

/** `spec` maps each allowed flag to whether it takes a value. */
export function parseArgs(argv: string[], spec: Record<string, boolean>, command: string): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--") || arg === "--") {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (!(name in spec)) throw new UsageError(`unknown option --${name} for \`hearth ${command}\`; see \`hearth ${command} --help\``);
    if (!spec[name]) {
      flags.set(name, true);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`option --${name} needs a value; see \`hearth ${command} --help\``);
    flags.set(name, value);
  }
  return { flags, positionals };
}

export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === "string" ? v : undefined;
}
