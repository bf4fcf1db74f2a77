// Commands whose capability has not landed yet: they exist, explain themselves and fail clearly.
import { ExitCode } from "../exitCodes.js";

export function pending(command: string, what: string): (argv: string[]) => Promise<number> {
  return async () => {
    process.stderr.write(`hearth ${command}: not available yet: ${what} is not part of this build. Run \`hearth --help\` for what works now.\n`);
    return ExitCode.Unavailable;
  };
}
