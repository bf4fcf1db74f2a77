// Reads every MCP configuration source (issue 28, item 1), in precedence order: the person's
// hearth.mcp.servers setting (HEARTH_MCP_SERVERS), the workspace's .vscode/mcp.json and .roo/mcp.json
// (through the workspace descriptor, as each session is built, so an edit applies to the next chat),
// then Cline's and Roo's own settings files in the person's editor profile, imported.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { errorMessage } from "../../../shared/errors.js";
import {
  type McpConfig,
  type McpSource,
  mergeConfigs,
  parseConfigText,
  serversFromFile,
  serversFromUserSetting,
} from "../../tools/mcp/mcpConfig.js";
import type { WorkspaceText } from "../../tools/workspaceText.js";

const MAX_CONFIG_BYTES = 1 << 20;
const WORKSPACE_FILES = [".vscode/mcp.json", ".roo/mcp.json"];

/** Cline's and Roo's files in each VS Code flavour's profile (Linux and macOS layouts). */
export function importedConfigFiles(env: NodeJS.ProcessEnv = process.env): { label: string; file: string }[] {
  const home = env.HOME ?? os.homedir();
  const configRoots =
    process.platform === "darwin"
      ? [path.join(home, "Library", "Application Support")]
      : [env.XDG_CONFIG_HOME || path.join(home, ".config")];
  const flavours = ["Code", "Code - Insiders", "VSCodium"];
  const agents = [
    { label: "Cline", ext: "saoudrizwan.claude-dev", file: "cline_mcp_settings.json" },
    { label: "Roo", ext: "rooveterinaryinc.roo-cline", file: "mcp_settings.json" },
  ];
  return configRoots.flatMap((root) =>
    flavours.flatMap((flavour) =>
      agents.map((a) => {
        const file = path.join(root, flavour, "User", "globalStorage", a.ext, "settings", a.file);
        return { label: `${a.label} (${file})`, file };
      }),
    ),
  );
}

export interface SourceReaders {
  /** HEARTH_MCP_SERVERS: the hearth.mcp.servers setting as JSON. */
  readonly userSetting: string | undefined;
  readonly readWorkspace: (relPath: string, maxBytes: number) => WorkspaceText;
  readonly importFiles: readonly { label: string; file: string }[];
}

function fromText(text: string, source: McpSource): McpConfig {
  const parsed = parseConfigText(text);
  if (!parsed.ok) return { servers: [], problems: [{ source, server: null, message: parsed.message }] };
  return serversFromFile(parsed.value, source);
}

function userConfig(raw: string | undefined): McpConfig {
  if (raw === undefined || raw.trim() === "") return { servers: [], problems: [] };
  const source: McpSource = { kind: "user", label: "hearth.mcp.servers" };
  const parsed = parseConfigText(raw);
  if (!parsed.ok) return { servers: [], problems: [{ source, server: null, message: parsed.message }] };
  return serversFromUserSetting(parsed.value);
}

function workspaceConfig(relPath: string, read: SourceReaders["readWorkspace"]): McpConfig {
  const source: McpSource = { kind: "workspace", label: relPath };
  const file = read(relPath, MAX_CONFIG_BYTES);
  if (!file.ok) return { servers: [], problems: [{ source, server: null, message: file.message }] };
  return file.text === null ? { servers: [], problems: [] } : fromText(file.text, source);
}

function importedConfig(label: string, file: string): McpConfig {
  const source: McpSource = { kind: "imported", label };
  let text: string;
  try {
    const stat = fs.statSync(file);
    if (stat.size > MAX_CONFIG_BYTES)
      return { servers: [], problems: [{ source, server: null, message: `larger than ${MAX_CONFIG_BYTES} bytes` }] };
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { servers: [], problems: [] };
    return { servers: [], problems: [{ source, server: null, message: `could not be read: ${errorMessage(e)}` }] };
  }
  return fromText(text, source);
}

export function readMcpConfig(readers: SourceReaders): McpConfig {
  return mergeConfigs([
    userConfig(readers.userSetting),
    ...WORKSPACE_FILES.map((f) => workspaceConfig(f, readers.readWorkspace)),
    ...readers.importFiles.map((f) => importedConfig(f.label, f.file)),
  ]);
}
