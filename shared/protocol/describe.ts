// Renders the protocol reference (docs/protocol.md) from the schemas themselves, so the document
// can never drift from what both ends validate (STYLE.md: generated, never hand-copied).
import { z } from "zod";
import { ErrorCode } from "../errors.js";
import { notifications, requests, serverRequests } from "./methods.js";
import { PROTOCOL_VERSION } from "./version.js";

function schemaBlock(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  delete (json as { $schema?: string }).$schema;
  return "```json\n" + JSON.stringify(json, null, 2) + "\n```";
}

/**
 * One name per concept on the protocol, in the code and in the view (issue 22, item 4). The journal's
 * tables keep the specifications' names; the control plane's SQL is the one place that translates.
 */
const GLOSSARY = [
  "## Glossary",
  "",
  "| name | what it is | journal table (spec 004's name) |",
  "| --- | --- | --- |",
  "| session | one conversation: its messages, its model, its workspace | `sessions` |",
  "| turn (`turnId`) | a person's message and everything that answers it, up to its end; `turn/*` | `runs` |",
  "| attempt (`attemptId`) | one try at a turn; a resumed turn gets a new attempt | `run_attempts` |",
  "| task (`taskId`) | work that runs in the background in a session of its own, started by a person or a turn's `delegate_task`; `task/*` | `delegations` |",
  "| tool call (`callId`) | one tool the model asked for in a turn, run at most once | `tool_invocations` |",
  "| client | a window, a terminal (`hearth`) or a task that talks to the kernel; who started a turn | `run_origins` |",
  "",
  "Protocol 2 renamed `runId` to `turnId` and `delegationId` to `taskId`; a client and a kernel of",
  "different protocols refuse each other at `initialize`.",
];

export function protocolMarkdown(): string {
  const out: string[] = [
    `# Hearth kernel protocol, version ${PROTOCOL_VERSION}`,
    "",
    "JSON-RPC 2.0 over the kernel's stdio with `Content-Length` framing (vscode-jsonrpc). Generated from",
    "`shared/protocol/` by `npm run docs`; a test fails when this file is stale.",
    "",
    ...GLOSSARY,
    "",
    "## Error codes",
    "",
    "| name | code |",
    "| --- | --- |",
    ...Object.entries(ErrorCode).map(([name, code]) => `| ${name} | ${code} |`),
    "",
    "## Requests (client → kernel)",
  ];
  for (const [method, spec] of Object.entries(requests)) {
    out.push("", `### \`${method}\``, "", "Params:", "", schemaBlock(spec.params), "", "Result:", "", schemaBlock(spec.result));
  }
  out.push("", "## Notifications (kernel → client)");
  for (const [method, schema] of Object.entries(notifications)) out.push("", `### \`${method}\``, "", schemaBlock(schema));
  out.push("", "## Requests (kernel → client)");
  for (const [method, spec] of Object.entries(serverRequests)) {
    out.push("", `### \`${method}\``, "", "Params:", "", schemaBlock(spec.params), "", "Result:", "", schemaBlock(spec.result));
  }
  return out.join("\n") + "\n";
}
