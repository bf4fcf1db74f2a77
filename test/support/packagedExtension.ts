// The .vsix that `npm run package` built (the README's test command builds it before the suites),
// and a way to unpack it the way VS Code installs it: its extension/ folder is the installed
// extension.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(".");

export function packagedVsix(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
  const file = path.join(ROOT, `${pkg.name}-${process.platform}-${process.arch}-${pkg.version}.vsix`);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run package\` first (\`npm test\` does)`);
  return file;
}

/** Unpacks the .vsix into `dir` and returns the installed extension's folder. */
export function unpackVsix(vsix: string, dir: string): string {
  execFileSync("unzip", ["-q", "-o", vsix, "-d", dir]);
  return path.join(dir, "extension");
}

/**
 * A PATH with every program of this one except Node and npm: the person's machine has VS Code and
 * nothing else (issue 10). Links in `dir` to each program of the usual folders.
 */
export function pathWithoutNode(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const folder of ["/usr/local/bin", "/usr/bin", "/bin"]) {
    if (!fs.existsSync(folder)) continue;
    for (const name of fs.readdirSync(folder)) {
      if (/^(node|nodejs|npm|npx|corepack)$/.test(name) || fs.existsSync(path.join(dir, name))) continue;
      fs.symlinkSync(path.join(folder, name), path.join(dir, name));
    }
  }
  return dir;
}
