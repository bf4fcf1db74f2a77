// Child process for the full-disk test: runs under a small RLIMIT_FSIZE (set by the parent's
// `ulimit -f`), so writing past it fails with EFBIG like a full disk. SIGXFSZ is handled so the
// write returns the error instead of killing the process.
import type { ResolverKind } from "../../../../../sidecar/tools/anchoredFs.js";
import { buildWorkspaceTools } from "../../../../../sidecar/tools/buildWorkspaceTools.js";

process.on("SIGXFSZ", () => {});
const [, , ws, rel, bytes] = process.argv as [string, string, string, string, string];
const resolver = process.env.HEARTH_TOOLS_RESOLVER as ResolverKind | undefined;
const built = buildWorkspaceTools({ workspaceRoot: ws, shell: false, resolver });
const tool = built.tools.find((t) => t.definition.name === "write_file")!;
const ctx = { callId: "full-disk", signal: new AbortController().signal };
const args = { path: rel, content: "N".repeat(Number(bytes)) };
const proposal = await tool.propose(args, ctx);
const result = await tool.invoke(args, proposal, ctx);
built.close();
process.stdout.write(JSON.stringify(result) + "\n");
