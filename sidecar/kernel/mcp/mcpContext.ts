// MCP prompts as slash commands and MCP resources as `@` attachments (issue 28, item 5), over the
// hub's running servers: a prompt is `/server:prompt`, its arguments asked as a prompt file's
// `${input:…}` questions, its messages (prompts/get) the text sent; a resource is read (resources/read)
// when the message is admitted, bounded and text only. Restricted Mode offers none, as for tools.
// Listing starts no server; running a prompt by name starts the servers that may start, as a turn does.
import { singleLine } from "../../../shared/boundedText.js";
import { ErrorCode, errorMessage, HearthError } from "../../../shared/errors.js";
import type { McpResourceView } from "../../../shared/protocol/mcp.js";
import type { PromptView } from "../../../shared/protocol/prompts.js";
import { promptMessagesText, resourceContentsText } from "../../tools/mcp/mcpContent.js";
import type { McpListedPrompt } from "../../tools/mcp/mcpListings.js";
import type { McpServerConnection } from "../../tools/mcp/mcpServerConnection.js";

type Server = { name: string; connection: McpServerConnection };
type Servers = { runningServers(readOnly: boolean): Server[]; startedServers(readOnly: boolean): Promise<Server[]> };

/** A server's description is its word, shown in the slash list: bounded as a tool's is. */
const MAX_DESCRIPTION_CHARS = 1024;
const RESTRICTED = "the folder is not trusted (Restricted Mode): no MCP server runs; trust the folder to use them";

/** The command's name: `server:prompt`, lowercased, any character a command name cannot hold as `_`. */
export function mcpPromptName(server: string, prompt: string): string {
  const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9._-]+/g, "_");
  return `${slug(server)}:${slug(prompt)}`;
}

function promptView(server: string, p: McpListedPrompt): PromptView {
  return {
    name: mcpPromptName(server, p.name),
    description: (p.description ?? "").slice(0, MAX_DESCRIPTION_CHARS),
    argumentHint: "",
    source: `MCP server "${server}", prompt "${p.name}"`,
    origin: "mcp",
    mode: null,
    inputs: (p.arguments ?? []).map((a) => ({
      name: a.name,
      placeholder: `${a.description ?? ""}${a.required ? "" : `${a.description ? " " : ""}(optional: leave empty to omit)`}`,
      ...(a.required ? {} : { optional: true }),
    })),
    needs: { selection: false, file: false },
    ignored: [],
  };
}

export class McpContext {
  constructor(private readonly servers: Servers) {}

  /** Every running server's prompts as slash commands. */
  prompts(readOnly: boolean): PromptView[] {
    return this.servers.runningServers(readOnly).flatMap((s) => s.connection.prompts.map((p) => promptView(s.name, p)));
  }

  /** The prompt of that name; its server started first if it may start and never ran (`hearth exec --prompt`). */
  private async findPrompt(name: string, readOnly: boolean) {
    for (const s of await this.servers.startedServers(readOnly)) {
      const p = s.connection.prompts.find((q) => mcpPromptName(s.name, q.name) === name);
      if (p) return { server: s, prompt: p };
    }
    throw new HearthError(
      ErrorCode.NotFound,
      `there is no MCP prompt /${name} now: ${readOnly ? RESTRICTED : "no running MCP server lists it (`hearth mcp list` shows each server's state); list the prompts again"}`,
    );
  }

  /** `/server:prompt args` as the message: its arguments from `inputs` (an empty optional one omitted), then `args` after a blank line. */
  async expand(
    name: string,
    inputs: Readonly<Record<string, string>>,
    args: string,
    readOnly: boolean,
  ): Promise<{ text: string; source: string }> {
    const { server, prompt } = await this.findPrompt(name, readOnly);
    const declared = prompt.arguments ?? [];
    const refuse = (why: string) => new HearthError(ErrorCode.InvalidParams, `refused /${name}: ${why}`);
    const unasked = Object.keys(inputs).filter((k) => !declared.some((a) => a.name === k));
    if (unasked.length > 0) throw refuse(`it takes no argument named ${unasked.join(", ")}`);
    const given: Record<string, string> = {};
    for (const a of declared) {
      const v = Object.hasOwn(inputs, a.name) ? inputs[a.name]! : "";
      if (v === "" && a.required) throw refuse(`it needs the argument ${a.name}: give it when asked`);
      if (v !== "") given[a.name] = v;
    }
    let messages: unknown[];
    try {
      messages = await server.connection.getPrompt(prompt.name, given);
    } catch (e) {
      throw refuse(`MCP server "${server.name}" answered: ${singleLine(errorMessage(e), 400)}`);
    }
    const text = promptMessagesText(messages, `prompt "${prompt.name}" of MCP server "${server.name}"`);
    if (!text.ok) throw refuse(text.problem);
    return { text: args === "" ? text.text : `${text.text}\n\n${args}`, source: promptView(server.name, prompt).source };
  }

  /** Every running server's resources, for the `@` picker; a server that cannot list them says why. */
  async resources(readOnly: boolean): Promise<{ resources: McpResourceView[]; notes: string[] }> {
    if (readOnly) return { resources: [], notes: [RESTRICTED] };
    const resources: McpResourceView[] = [];
    const notes: string[] = [];
    for (const s of this.servers.runningServers(readOnly)) {
      try {
        for (const r of await s.connection.resources())
          resources.push({ server: s.name, uri: r.uri, name: r.name, description: r.description ?? "", mimeType: r.mimeType ?? null });
      } catch (e) {
        notes.push(`MCP server "${s.name}" could not list its resources: ${singleLine(errorMessage(e), 300)}`);
      }
    }
    return { resources, notes };
  }

  /** One resource's text, read now for a message; refused, saying why, when it cannot be. */
  async read(server: string, uri: string, readOnly: boolean): Promise<string> {
    const refuse = (why: string) =>
      new HearthError(ErrorCode.InvalidParams, `refused: the attached resource ${server}: ${uri} ${why}; remove its chip, then send again`);
    if (readOnly) throw refuse(`cannot be read: ${RESTRICTED}`);
    const s = this.servers.runningServers(readOnly).find((r) => r.name === server);
    if (!s) throw refuse(`cannot be read: MCP server "${server}" is not running`);
    let contents: unknown[];
    try {
      contents = await s.connection.readResource(uri);
    } catch (e) {
      throw refuse(`could not be read (${singleLine(errorMessage(e), 400)})`);
    }
    const text = resourceContentsText(contents, "it");
    if (!text.ok) throw refuse(`cannot be attached: ${text.problem}`);
    return text.text;
  }
}
