import path from "node:path";
import { fileURLToPath } from "node:url";

/** The folder holding the built bundles: the CLI is dist/cli.mjs, so it is this file's folder. */
export function distDir(): string {
  return path.dirname(fileURLToPath(import.meta.url));
}
