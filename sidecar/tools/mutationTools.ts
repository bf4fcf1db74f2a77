// write_file and edit_file: the proposal reads the target (no effects), records its identity and
// the exact new content with a unified diff for the approver; invoke installs exactly that content
// if the target is still what was proposed (harness #17, #22; ARCHITECTURE "Edits").
import { createTwoFilesPatch } from "diff";
import type { ObjectSchema } from "../agent/ports/jsonSchema.js";
import type { Tool, ToolProposal } from "../agent/ports/tools.js";
import type { AnchoredWorkspace } from "./anchoredFs.js";
import { currentTarget, installAtomically, openParent, type ExpectedTarget } from "./atomicWrite.js";
import type { Ceilings } from "./ceilings.js";
import { decodeText, resolvePath, sha256 } from "./fileAccess.js";
import type { FileWriteSink, PreImage } from "./fileWrites.js";
import { canonicalJson } from "../agent/canonicalJson.js";
import { byteSize, checkArgs, defineTool, fail, refusalOf, refusedProposal, succeed } from "./toolKit.js";
import { showPath, type WorkspacePath } from "./workspacePath.js";

/** What invoke re-verifies: the same arguments, the same target, the approved content. */
interface MutationExpectation {
  readonly argsDigest: string;
  readonly target: ExpectedTarget;
  readonly newContent: string;
  /** The target's bytes as proposed against, journaled after the install so the turn can be undone. */
  readonly before: PreImage;
}

const writeSchema: ObjectSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File path relative to the workspace folder", minLength: 1, maxLength: 4096 },
    content: { type: "string", description: "The complete new content of the file" },
  },
  required: ["path", "content"],
  additionalProperties: false,
};

const editSchema: ObjectSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File path relative to the workspace folder", minLength: 1, maxLength: 4096 },
    oldText: { type: "string", description: "Exact text to replace; must occur exactly once", minLength: 1 },
    newText: { type: "string", description: "Replacement text" },
  },
  required: ["path", "oldText", "newText"],
  additionalProperties: false,
};

export function writeFileTool(ws: AnchoredWorkspace, ceilings: Ceilings, writes?: FileWriteSink): Tool {
  return mutationTool(ws, ceilings, writes, {
    name: "write_file",
    description: `Create or overwrite a file (at most ${byteSize(ceilings.writeMaxBytes)}).`,
    schema: writeSchema,
    effectClass: "idempotent_write",
    plan: (_path, current, args) => ({ ok: true, newContent: args.content as string, createParents: true, current }),
  });
}

export function editFileTool(ws: AnchoredWorkspace, ceilings: Ceilings, writes?: FileWriteSink): Tool {
  return mutationTool(ws, ceilings, writes, {
    name: "edit_file",
    description: "Replace oldText, which must occur exactly once (add nearby lines), with newText.",
    schema: editSchema,
    effectClass: "non_idempotent_write",
    plan: (p, current, args) => {
      if (current === null) return { ok: false, message: `refused: ${showPath(p.text)} does not exist; use write_file to create it` };
      const oldText = args.oldText as string;
      const count = countOccurrences(current, oldText);
      if (count === 0)
        return {
          ok: false,
          message: `refused: oldText was not found in ${showPath(p.text)}; read the file and copy the text exactly, including whitespace`,
        };
      if (count > 1)
        return {
          ok: false,
          message: `refused: oldText occurs ${count} times in ${showPath(p.text)}; include more surrounding lines so it matches exactly once`,
        };
      const at = current.indexOf(oldText);
      return {
        ok: true,
        newContent: current.slice(0, at) + (args.newText as string) + current.slice(at + oldText.length),
        createParents: false,
        current,
      };
    },
  });
}

type Plan = { ok: true; newContent: string; createParents: boolean; current: string | null } | { ok: false; message: string };

interface MutationSpec {
  name: string;
  description: string;
  schema: ObjectSchema;
  effectClass: "idempotent_write" | "non_idempotent_write";
  plan(p: WorkspacePath, current: string | null, args: Record<string, unknown>): Plan;
}

function mutationTool(ws: AnchoredWorkspace, ceilings: Ceilings, writes: FileWriteSink | undefined, spec: MutationSpec): Tool {
  const max = ceilings.writeMaxBytes;
  const definition = defineTool({
    name: spec.name,
    description: spec.description,
    parameters: spec.schema,
    effectClass: spec.effectClass,
    retryPolicy: "never_auto_retry",
    cancellation: "FinishOnceStarted", // harness #22: a started install completes or rolls back
    requiresApproval: true,
    config: { writeMaxBytes: max },
  });

  function propose(args: Record<string, unknown>): ToolProposal {
    const problem = checkArgs(spec.schema, args);
    if (problem) return refusedProposal(`refused: ${spec.name} ${problem}`);
    const p = resolvePath(ws, args.path as string);
    if (!p.ok) return refusedProposal(p.message);
    if (p.path.parts.length === 0 || p.path.mustBeDirectory)
      return refusedProposal(`refused: ${showPath(p.path.text)} names a directory; give a file path`);
    const parent = openParent(ws, p.path, false);
    let target: ExpectedTarget = { existed: false };
    let current: string | null = null;
    let before: PreImage = { existed: false };
    if (parent.ok) {
      try {
        const now = currentTarget(ws, parent.dir, p.path, max);
        if (!now.ok) return refusedProposal(now.message);
        target = now.target;
        if (now.target.existed && now.content) before = { existed: true, sha256: now.target.identity.sha256, content: now.content };
        if (now.content) {
          current = decodeText(now.content);
          if (current === null) return refusedProposal(`refused: ${showPath(p.path.text)} is binary; ${spec.name} edits text files only`);
        }
      } finally {
        ws.release(parent.dir);
      }
    } else if (!parent.missing) {
      return refusedProposal(parent.message);
    }
    const plan = spec.plan(p.path, current, args);
    if (!plan.ok) return refusedProposal(plan.message);
    if (Buffer.byteLength(plan.newContent) > max)
      return refusedProposal(`refused: the new content of ${showPath(p.path.text)} is over the ${max}-byte bound`);
    const shown = p.path.parts.join("/");
    const diff = createTwoFilesPatch(
      target.existed ? `a/${shown}` : "/dev/null",
      `b/${shown}`,
      current ?? "",
      plan.newContent,
      undefined,
      undefined,
      { context: 3 },
    );
    const expected: MutationExpectation = { argsDigest: sha256(canonicalJson(args)), target, newContent: plan.newContent, before };
    return { preview: { kind: "diff", path: shown, diff, newContent: plan.newContent }, expected };
  }

  return {
    definition,
    async propose(args) {
      return propose(args);
    },
    async invoke(args, proposal, ctx) {
      const refused = refusalOf(proposal);
      if (refused) return fail(refused);
      const e = proposal.expected as MutationExpectation | undefined;
      if (!e || e.argsDigest !== sha256(canonicalJson(args)))
        return fail(`refused: ${spec.name} was invoked with arguments other than the proposed ones; propose again`);
      const p = resolvePath(ws, args.path as string);
      if (!p.ok) return fail(p.message);
      const content = Buffer.from(e.newContent);
      const r = installAtomically(ws, p.path, content, e.target, max);
      if (!r.ok) return fail(r.message);
      writes?.fileWritten({ callId: ctx.callId, path: p.path.parts.join("/"), before: e.before, afterSha256: sha256(content) });
      return succeed(r.message);
    },
  };
}

function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) n++;
  return n;
}
