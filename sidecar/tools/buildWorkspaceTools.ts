// The one entry point the kernel calls: opens the workspace descriptor and builds the tool set.
// File tools, shell, datetime and the network tools register independently, so policy can remove
// shell alone (spec 000 #12); network tools and datetime are opt-in (spec 000 #11). Ceilings
// enter through setters that clamp to the module's hard maxima.
import type { Tool } from "../agent/ports/tools.js";
import { AnchoredWorkspace, type ResolverKind, type WorkspaceIdentity } from "./anchoredFs.js";
import { clampCeiling, resolveCeilings, type Ceilings } from "./ceilings.js";
import { datetimeTool } from "./datetimeTool.js";
import { FileRestorer } from "./fileRestore.js";
import type { FileWriteSink } from "./fileWrites.js";
import { listDirTool } from "./listDirTool.js";
import { editFileTool, writeFileTool } from "./mutationTools.js";
import { readFileTool } from "./readFileTool.js";
import { searchFilesTool } from "./searchFilesTool.js";
import { captureShellEnvironment } from "./shellEnvironment.js";
import { shellTool } from "./shellTool.js";
import { MISSING_SEARCH_PROVIDER, webFetchTool, webSearchTool, type WebSearchProvider } from "./webTools.js";

export interface WorkspaceToolsConfig {
  readonly workspaceRoot: string;
  /** read_file, list_dir, search_files, write_file, edit_file (default true). */
  readonly files?: boolean;
  readonly shell: boolean;
  readonly datetime?: boolean;
  readonly network?: { readonly fetch?: boolean; readonly search?: WebSearchProvider | null };
  readonly ceilings?: Partial<Ceilings>;
  /** Forces a weaker resolver (tests, diagnostics); the default is the strongest available. */
  readonly resolver?: ResolverKind;
  /** Source of PATH/HOME for the shell (default process.env), captured once here. */
  readonly shellEnvSource?: NodeJS.ProcessEnv;
  readonly shellGraceMs?: number;
  /** Hears each successful write_file/edit_file install with the file's pre-image (undo, issue 14). */
  readonly writes?: FileWriteSink;
}

export interface WorkspaceTools {
  readonly tools: readonly Tool[];
  /** For the authority snapshot: canonical path, st_dev, st_ino of the held folder. */
  readonly workspace: WorkspaceIdentity;
  readonly resolver: ResolverKind;
  readonly ceilings: Ceilings;
  /** Puts files back or removes them through the same workspace descriptor (undo of a turn's edits). */
  readonly restorer: FileRestorer;
  /** Releases the workspace descriptor. The tools must not be used afterwards. */
  close(): void;
}

/** Builder with clamping setters; each setter returns the value actually in force. */
export class WorkspaceToolsBuilder {
  private readonly overrides: { -readonly [K in keyof Ceilings]?: number } = {};
  private shell = false;
  private files = true;
  private datetime = false;
  private fetch = false;
  private search: WebSearchProvider | null = null;

  constructor(private readonly workspaceRoot: string) {}

  setCeiling(key: keyof Ceilings, value: number): number {
    return (this.overrides[key] = clampCeiling(key, value));
  }
  setShellDefaultTimeoutMs(ms: number): number {
    return this.setCeiling("shellDefaultTimeoutMs", ms);
  }
  setShellMaxTimeoutMs(ms: number): number {
    return this.setCeiling("shellMaxTimeoutMs", ms);
  }
  setShellOutputBytes(n: number): number {
    return this.setCeiling("shellOutputBytes", n);
  }
  setFetchMaxBytes(n: number): number {
    return this.setCeiling("fetchMaxBytes", n);
  }
  setFetchTimeoutMs(ms: number): number {
    return this.setCeiling("fetchTimeoutMs", ms);
  }
  withFiles(on: boolean): this {
    this.files = on;
    return this;
  }
  withShell(on: boolean): this {
    this.shell = on;
    return this;
  }
  withDatetime(on: boolean): this {
    this.datetime = on;
    return this;
  }
  withFetch(on: boolean): this {
    this.fetch = on;
    return this;
  }
  withSearchProvider(provider: WebSearchProvider | null): this {
    this.search = provider;
    return this;
  }

  build(extra: Pick<WorkspaceToolsConfig, "resolver" | "shellEnvSource" | "shellGraceMs" | "writes"> = {}): WorkspaceTools {
    const ceilings = resolveCeilings(this.overrides);
    const ws = AnchoredWorkspace.open(this.workspaceRoot, { resolver: extra.resolver });
    try {
      const tools: Tool[] = [];
      if (this.files) {
        tools.push(readFileTool(ws, ceilings), listDirTool(ws, ceilings), searchFilesTool(ws, ceilings), writeFileTool(ws, ceilings, extra.writes), editFileTool(ws, ceilings, extra.writes));
      }
      if (this.shell) tools.push(shellTool(ws, ceilings, captureShellEnvironment(extra.shellEnvSource), { graceMs: extra.shellGraceMs }));
      if (this.datetime) tools.push(datetimeTool());
      if (this.fetch) tools.push(webFetchTool(ceilings));
      if (this.search) tools.push(webSearchTool(this.search, ceilings));
      return Object.freeze({
        tools: Object.freeze(tools),
        workspace: ws.identity,
        resolver: ws.resolver,
        ceilings,
        restorer: new FileRestorer(ws, ceilings.writeMaxBytes),
        close: () => ws.close(),
      });
    } catch (e) {
      ws.close();
      throw e;
    }
  }
}

export function buildWorkspaceTools(config: WorkspaceToolsConfig): WorkspaceTools {
  const search = config.network?.search;
  // A bare `true` (from JSON configuration) names no provider: say how to configure one.
  if ((search as unknown) === true || (search && typeof search.search !== "function")) throw new Error(MISSING_SEARCH_PROVIDER);
  const b = new WorkspaceToolsBuilder(config.workspaceRoot)
    .withFiles(config.files ?? true)
    .withShell(config.shell)
    .withDatetime(config.datetime ?? false)
    .withFetch(config.network?.fetch ?? false)
    .withSearchProvider(search ?? null);
  for (const [k, v] of Object.entries(config.ceilings ?? {})) if (typeof v === "number") b.setCeiling(k as keyof Ceilings, v);
  return b.build({ resolver: config.resolver, shellEnvSource: config.shellEnvSource, shellGraceMs: config.shellGraceMs, writes: config.writes });
}

export { MISSING_SEARCH_PROVIDER };
