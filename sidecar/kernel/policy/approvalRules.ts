// Approval rules (issue 27, item 4): allow / ask / deny per tool and, for shell, per command
// pattern, from the person's settings and from the workspace's .hearth/rules.json. Pure: the decision
// for one call names the rule that made it and where that rule is defined. Most restrictive wins
// (deny over ask over allow); what no rule decides asks, as today.
import { z } from "zod";
import { analyzeShellCommand, parsePattern, type ShellWord, type SimpleCommand } from "./shellCommand.js";

/** A command pattern: shell words, read by the same parser; a last word `*` stands for any further words. */
const pattern = z
  .string()
  .min(1)
  .max(1000)
  .superRefine((text, ctx) => {
    const p = parsePattern(text);
    if (!p.ok) ctx.addIssue({ code: "custom", message: `the pattern ${JSON.stringify(text)} is not usable: ${p.error}` });
  });

export const ApprovalRule = z
  .strictObject({
    tool: z.string().min(1).max(100),
    command: pattern.optional(),
    decision: z.enum(["allow", "ask", "deny"]),
    /** Shown in the decision; defaults to the rule written out. */
    name: z.string().min(1).max(200).optional(),
  })
  .refine((r) => r.command === undefined || r.tool === "shell", { message: "only shell rules take a command pattern" })
  .refine((r) => r.tool !== "shell" || r.command !== undefined || r.decision !== "allow", {
    message: 'a shell rule that allows needs a command pattern (use "command": "*" to allow any single command)',
  });
export type ApprovalRule = z.infer<typeof ApprovalRule>;

export const WorkspaceRulesFile = z.strictObject({ rules: z.array(ApprovalRule).max(500) });

export type RuleSource = "user settings (hearth.approval.rules)" | "workspace .hearth/rules.json";

export interface RuleRef {
  readonly rule: ApprovalRule;
  readonly source: RuleSource;
  /** 1-based position in its source. */
  readonly index: number;
}

export interface RuleSet {
  readonly user: readonly ApprovalRule[];
  readonly workspace: readonly ApprovalRule[];
  /** A trusted workspace's rules apply; in Restricted Mode no rule applies, the person's neither. */
  readonly trust: "trusted" | "restricted";
}

export type RuleDecision =
  | { readonly decision: "allow" | "deny"; readonly rule: RuleRef; readonly reason: string }
  | { readonly decision: "ask"; readonly rule?: RuleRef; readonly reason: string };

/** The rule and where it is defined: `"allow shell \`npm test\`" (workspace .hearth/rules.json #1)`. */
export function ruleLabel(ref: RuleRef): string {
  const r = ref.rule;
  const what = r.name ?? `${r.decision} ${r.tool}${r.command === undefined ? "" : ` \`${r.command}\``}`;
  return `"${what}" (${ref.source} #${ref.index})`;
}

export interface ToolCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

export function decideByRules(rules: RuleSet, call: ToolCall): RuleDecision {
  if (rules.trust === "restricted") return { decision: "ask", reason: "no approval rule applies in Restricted Mode" };
  const refs = [
    ...rules.user.map((rule, i) => ({ rule, source: "user settings (hearth.approval.rules)" as const, index: i + 1 })),
    ...rules.workspace.map((rule, i) => ({ rule, source: "workspace .hearth/rules.json" as const, index: i + 1 })),
  ].filter((r) => r.rule.tool === call.name);
  return call.name === "shell" ? decideShell(refs, String(call.arguments.command ?? "")) : decideTool(refs, call);
}

function decideTool(refs: RuleRef[], call: ToolCall): RuleDecision {
  const deny = refs.find((r) => r.rule.decision === "deny");
  if (deny) return denied(deny);
  const ask = refs.find((r) => r.rule.decision === "ask");
  if (ask) return { decision: "ask", rule: ask, reason: `asked by rule ${ruleLabel(ask)}` };
  const allow = refs.find((r) => r.rule.decision === "allow");
  if (!allow) return { decision: "ask", reason: `no approval rule covers ${call.name}` };
  // The workspace's rules live in .hearth/: a write there is how a model would widen its own rules.
  const target = String(call.arguments.path ?? "");
  if (target.split("/").includes(".hearth"))
    return { decision: "ask", reason: "a write into .hearth/, where the workspace's approval rules live, always asks" };
  return { decision: "allow", rule: allow, reason: `approved by rule ${ruleLabel(allow)}` };
}

function decideShell(refs: RuleRef[], command: string): RuleDecision {
  const wholeTool = refs.find((r) => r.rule.decision === "deny" && r.rule.command === undefined);
  if (wholeTool) return denied(wholeTool);
  const analysis = analyzeShellCommand(command);
  if (!analysis.ok) return { decision: "ask", reason: `no rule can vouch for this command: ${analysis.error}` };
  for (const c of analysis.commands) {
    const deny = refs.find((r) => r.rule.decision === "deny" && matches(r.rule, c.words, "prefix"));
    if (deny) return denied(deny);
  }
  if (analysis.fallbacks.length > 0)
    return { decision: "ask", reason: `no rule can vouch for this command: ${analysis.fallbacks.join("; ")}` };
  const direct = analysis.commands.filter((c) => c.origin === "direct");
  if (direct.length === 0) return { decision: "ask", reason: "the command runs nothing a rule could cover" };
  let firstAllow: RuleRef | undefined;
  for (const c of direct) {
    const ask = refs.find((r) => r.rule.decision === "ask" && (r.rule.command === undefined || matches(r.rule, c.words, "prefix")));
    if (ask) return { decision: "ask", rule: ask, reason: `asked by rule ${ruleLabel(ask)}` };
    const allow = refs.find((r) => r.rule.decision === "allow" && matches(r.rule, c.words, "exact"));
    if (!allow) return { decision: "ask", reason: `no approval rule covers \`${show(c)}\`` };
    firstAllow ??= allow;
  }
  return { decision: "allow", rule: firstAllow!, reason: `approved by rule ${ruleLabel(firstAllow!)}` };
}

function denied(ref: RuleRef): RuleDecision {
  const where = ref.source.startsWith("user") ? "the hearth.approval.rules setting" : "the workspace's .hearth/rules.json";
  return { decision: "deny", rule: ref, reason: `denied by rule ${ruleLabel(ref)}; to run it, change that rule in ${where}` };
}

function show(c: SimpleCommand): string {
  return c.words.map((w) => (w.literal ? w.text : "…")).join(" ");
}

/**
 * Whether a rule's pattern covers a simple command. An allow rule covers exactly its words (a last
 * `*` takes any further words); a deny or ask rule covers every command its words begin. A word that
 * expands matches no pattern word, and a deny rule also finds a command named by path (`/bin/rm`).
 */
function matches(rule: ApprovalRule, words: readonly ShellWord[], how: "exact" | "prefix"): boolean {
  if (rule.command === undefined) return false;
  const { fixed, rest } = patternWords(rule as ApprovalRule & { command: string });
  if (words.length < fixed.length) return false;
  if (words.length > fixed.length && how === "exact" && !rest) return false;
  return fixed.every((p, i) => {
    const w = words[i]!;
    if (!w.literal) return false;
    return w.text === p || (how === "prefix" && i === 0 && w.text.endsWith(`/${p}`));
  });
}

/** Each rule's pattern parsed once: a long command line is checked against every rule per simple command. */
const patternCache = new WeakMap<ApprovalRule, { fixed: readonly string[]; rest: boolean }>();

function patternWords(rule: ApprovalRule & { command: string }): { fixed: readonly string[]; rest: boolean } {
  let words = patternCache.get(rule);
  if (!words) {
    const p = parsePattern(rule.command);
    words = p.ok ? { fixed: p.words, rest: p.rest } : { fixed: [], rest: false };
    patternCache.set(rule, words);
  }
  return words;
}
