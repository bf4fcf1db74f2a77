// `hearth`: the terminal client of the kernel protocol (a client like the extension).
import { HEARTH_VERSION } from "../../shared/version.js";
import { UsageError } from "./args.js";
import { KernelStartError } from "./connect.js";
import { compact, compactHelp } from "./commands/compact.js";
import { doctor, doctorHelp } from "./commands/doctor.js";
import { erase, eraseHelp } from "./commands/erase.js";
import { exec, execHelp } from "./commands/exec.js";
import { instructions, instructionsHelp } from "./commands/instructions.js";
import { mcp, mcpHelp } from "./commands/mcp.js";
import { fork, forkHelp } from "./commands/fork.js";
import { rewind, rewindHelp } from "./commands/rewind.js";
import { modes, modesHelp } from "./commands/modes.js";
import { prompts, promptsHelp } from "./commands/prompts.js";
import { sessions, sessionsHelp } from "./commands/sessions.js";
import { show, showHelp } from "./commands/show.js";
import { task, taskHelp, tasks, tasksHelp } from "./commands/task.js";
import { ExitCode } from "./exitCodes.js";
import { errorMessage } from "../../shared/errors.js";

interface Command {
  summary: string;
  help: string;
  run: (argv: string[]) => Promise<number>;
}

const commands: Record<string, Command> = {
  compact: { summary: "condense a session's older turns into one summary now", help: compactHelp, run: compact },
  doctor: { summary: "check the runtime, native modules, journal and model setting", help: doctorHelp, run: doctor },
  erase: { summary: "erase a session's messages from the journal for good (asks first)", help: eraseHelp, run: erase },
  exec: { summary: "run one agent turn in a workspace and stream it", help: execHelp, run: exec },
  fork: { summary: "start a new session from a session's history before one of its user messages", help: forkHelp, run: fork },
  instructions: {
    summary: "list the instruction files (AGENTS.md, .clinerules, ...) turns are shown; turn one off or on",
    help: instructionsHelp,
    run: instructions,
  },
  modes: { summary: "list the modes (code, ask, plan, .hearth/modes); import a .roomodes", help: modesHelp, run: modes },
  prompts: {
    summary: "list the prompt files (.hearth/prompts, .github/prompts, .claude/commands) exec --prompt runs",
    help: promptsHelp,
    run: prompts,
  },
  mcp: { summary: "list, confirm, restart or turn off the workspace's MCP servers", help: mcpHelp, run: mcp },
  rewind: { summary: "go back to a user message: the conversation, the files or both (undoable)", help: rewindHelp, run: rewind },
  sessions: {
    summary: "list the sessions in a journal",
    help: sessionsHelp,
    run: sessions,
  },
  show: {
    summary: "show one session's history, turns, attempts and tool ledger",
    help: showHelp,
    run: show,
  },
  task: { summary: "start, show, cancel, resume or dismiss a background task", help: taskHelp, run: task },
  tasks: { summary: "list the workspace's background tasks", help: tasksHelp, run: tasks },
};

function usage(): string {
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `Hearth ${HEARTH_VERSION}: a local-first coding agent (terminal client)

usage: hearth <command> [options]

commands:
${rows.join("\n")}

Run \`hearth <command> --help\` for a command's options.
`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage());
    return name ? ExitCode.Ok : ExitCode.Usage;
  }
  if (name === "--version") {
    process.stdout.write(`${HEARTH_VERSION}\n`);
    return ExitCode.Ok;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`hearth: unknown command \`${name}\`\n\n${usage()}`);
    return ExitCode.Usage;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(command.help + "\n");
    return ExitCode.Ok;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof KernelStartError) {
      process.stderr.write(`hearth ${name}: ${e.message}\n`);
      return ExitCode.KernelError;
    }
    if (e instanceof UsageError) {
      process.stderr.write(`hearth ${name}: ${e.message}\n`);
      return ExitCode.Usage;
    }
    process.stderr.write(`hearth ${name}: ${errorMessage(e)}\n`);
    return ExitCode.Failed;
  }
}

process.exitCode = await main(process.argv.slice(2));
