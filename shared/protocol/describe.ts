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

export function protocolMarkdown(): string {
  const out: string[] = [
    `# Hearth kernel protocol, version ${PROTOCOL_VERSION}`,
    "",
    "JSON-RPC 2.0 over the kernel's stdio with `Content-Length` framing (vscode-jsonrpc). Generated from",
    "`shared/protocol/` by `npm run docs`; a test fails when this file is stale.",
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
