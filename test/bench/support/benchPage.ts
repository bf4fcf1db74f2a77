// A bench's page in headless Chromium (the e2e's browser): the view's own modules, bundled for the
// browser from an entry written inline, as the chat view's bundle is.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The page's script: `contents` imports the repository's modules by paths relative to its root. */
export async function bundlePage(contents: string, sourcefile: string): Promise<string> {
  const esbuild = await import("esbuild");
  const built = await esbuild.build({
    stdin: { contents, resolveDir: root, sourcefile, loader: "ts" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
  });
  return built.outputFiles[0]!.text;
}

/** What a bench asks of the browser's page. */
export type BenchPage = {
  setContent(html: string): Promise<void>;
  addScriptTag(o: { content: string }): Promise<unknown>;
  evaluate<R, A>(fn: (a: A) => R, arg: A): Promise<R>;
};
