// harness #5: tool definitions and implementations are immutable after build and form the
// authority ceiling. The active subset may shrink or restore only inside it; replacement rejects
// unknown names atomically and never touches the authority snapshot.
import { ErrorCode, HearthError } from "../../shared/errors.js";
import type { ModelToolDefinition } from "./ports/model.js";
import type { Tool, ToolDefinition } from "./ports/tools.js";
import { vocabularyProblems } from "./schemaCheck.js";

const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const POLICIES = new Set(["FinishOnceStarted", "Interruptible"]);

/** Validates and freezes the tool list; throws a HearthError naming each problem. */
export function freezeTools(tools: readonly Tool[]): ReadonlyMap<string, Tool> {
  const problems: string[] = [];
  const map = new Map<string, Tool>();
  for (const tool of tools) {
    const d = tool.definition;
    if (!TOOL_NAME.test(d.name)) problems.push(`tool name ${JSON.stringify(d.name)} must match ${TOOL_NAME}`);
    if (map.has(d.name)) problems.push(`tool ${d.name} is registered twice`);
    if (d.parameters?.type !== "object") problems.push(`tool ${d.name}: parameters must be an object schema`);
    problems.push(...vocabularyProblems(d.parameters).map((p) => `tool ${d.name}: ${p}`));
    if (!POLICIES.has(d.cancellation))
      problems.push(`tool ${d.name}: cancellation policy ${JSON.stringify(d.cancellation)} is not FinishOnceStarted or Interruptible`);
    map.set(d.name, snapshotTool(tool));
  }
  if (problems.length > 0) {
    throw new HearthError(ErrorCode.InvalidParams, `refused to build the agent session: ${problems.join("; ")}`);
  }
  return map;
}

/** A frozen copy of the definition bound to the implementation: later edits to either object change nothing here. */
function snapshotTool(tool: Tool): Tool {
  const definition = deepFreeze(structuredClone(tool.definition));
  return Object.freeze({
    definition,
    propose: tool.propose.bind(tool),
    invoke: tool.invoke.bind(tool),
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

export class ToolCeiling {
  private active: ReadonlySet<string>;

  constructor(private readonly tools: ReadonlyMap<string, Tool>) {
    this.active = new Set(tools.keys()); // all available names begin enabled
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  isEnabled(name: string): boolean {
    return this.active.has(name);
  }

  activeNames(): string[] {
    return this.names().filter((n) => this.active.has(n));
  }

  /** Atomic replacement: either every name is inside the ceiling and the subset changes, or nothing does. */
  private setActive(names: readonly string[]): void {
    const unknown = names.filter((n) => !this.tools.has(n));
    if (unknown.length > 0) {
      throw new HearthError(
        ErrorCode.Refused,
        `refused to enable ${unknown.map((n) => JSON.stringify(n)).join(", ")}: not in this session's tool ceiling ` +
          `(${this.names().join(", ") || "none"}); the ceiling is fixed when the session is built`,
      );
    }
    this.active = new Set(names);
  }

  disable(names: readonly string[]): void {
    const wanted = new Set(names);
    this.setActive([...names.filter((n) => !this.tools.has(n)), ...this.activeNames().filter((n) => !wanted.has(n))]);
  }

  /** Active definitions plus disabled ones that committed or current-turn calls need for replay. */
  advertised(namesInHistory: ReadonlySet<string>): ModelToolDefinition[] {
    return this.names()
      .filter((n) => this.active.has(n) || namesInHistory.has(n))
      .map((n) => toModelDefinition(this.tools.get(n)!.definition));
  }
}

function toModelDefinition(d: ToolDefinition): ModelToolDefinition {
  return { name: d.name, description: d.description, parameters: d.parameters };
}
