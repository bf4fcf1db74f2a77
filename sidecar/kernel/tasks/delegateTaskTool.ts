// delegate_task (issue 12, item 3): a coordinator chat hands an instruction to a background task (a
// leaf session in its own workstream, control plane #4) and gets its result back as the call's output.
// Leaf sessions never see or run it (roles.ts). Starting an agent is asked for like a write: the
// person sees the instruction first (harness #8); the task's own effects ask again on their own.
import type { ObjectSchema } from "../../agent/ports/jsonSchema.js";
import type { Tool } from "../../agent/ports/tools.js";
import { defineTool, fail, succeed } from "../../tools/toolKit.js";
import type { TaskService } from "./taskService.js";

const schema: ObjectSchema = {
  type: "object",
  properties: {
    instruction: {
      type: "string",
      description: "What the background task should do, complete on its own",
      minLength: 1,
      maxLength: 20_000,
    },
    title: { type: "string", description: "A short title for the Tasks view", minLength: 1, maxLength: 200 },
  },
  required: ["instruction"],
  additionalProperties: false,
};

/**
 * `tasks` is read when the tool runs: the task service is built after the tool set it uses. The
 * kernel offers it unbound (for the policy and the ceiling); each coordinator session gets its own
 * instance bound to it (`parentSessionId`), with the same definition and so the same authority.
 */
export function delegateTaskTool(tasks: () => TaskService, parentSessionId: string | null): Tool {
  const definition = defineTool({
    name: "delegate_task",
    description: "Run a self-contained instruction as a background task with its own chat, and get its result.",
    parameters: schema,
    effectClass: "non_idempotent_write",
    retryPolicy: "never_auto_retry",
    cancellation: "Interruptible",
    requiresApproval: true,
    config: {},
  });
  return {
    definition,
    async propose(args) {
      return { preview: { kind: "text", text: `start a background task: ${String(args.instruction)}` } };
    },
    async invoke(args, _proposal, ctx) {
      const task = await tasks().start(
        {
          instruction: String(args.instruction),
          ...(typeof args.title === "string" ? { title: args.title } : {}),
          ...(parentSessionId ? { parentSessionId } : {}),
        },
        { clientId: "kernel:delegate_task", requestId: ctx.callId },
      );
      const onAbort = () => void tasks().cancel(task.taskId);
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      try {
        const ended = await tasks().ended(task.taskId);
        const result = tasks().result(task.taskId);
        if (ended.state === "completed") return succeed(`task ${task.taskId} ("${ended.title}") completed:\n${result ?? "(no answer)"}`);
        return fail(
          `task ${task.taskId} ("${ended.title}") ${ended.state}${ended.reason ? `: ${ended.reason}` : ""}; see it in the Tasks view`,
        );
      } finally {
        ctx.signal.removeEventListener("abort", onAbort);
      }
    },
  };
}
