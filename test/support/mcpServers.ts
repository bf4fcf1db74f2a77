// The MCP servers the tests start as real child processes: the registry's reference servers
// (devDependencies) and the hostile fixture (test/fixtures/mcp/hostileServer.mjs).
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const server = (pkg: string) => path.join(ROOT, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js");

export const EVERYTHING = server("server-everything");
export const FILESYSTEM = server("server-filesystem");
export const MEMORY = server("server-memory");
export const HOSTILE = path.join(ROOT, "test", "fixtures", "mcp", "hostileServer.mjs");

/** A stdio transport spec running `script` with this Node. */
export function nodeServer(script: string, ...args: string[]) {
  return { type: "stdio" as const, command: process.execPath, args: [script, ...args], env: {} };
}
