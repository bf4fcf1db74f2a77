// task/start|list|show|cancel|resume|dismiss: thin calls into the task service and the control plane.
import type { ControlPlane } from "../control/controlPlane.js";
import type { ShutdownGate } from "../shutdownGate.js";
import type { TaskService } from "../tasks/taskService.js";
import type { TurnNarrowing } from "../../../shared/node/kernelSettingsView.js";
import type { ClientChannel, Handlers } from "./types.js";

export function taskHandlers(deps: {
  tasks: TaskService;
  control: ControlPlane;
  gate: ShutdownGate;
  /** The starting client's stricter settings apply to the task it starts (clientNarrowings.ts). */
  narrowing: (client: ClientChannel) => TurnNarrowing | undefined;
}) {
  return {
    "task/start": async (params, ctx) => {
      deps.gate.assertAccepting("task/start");
      return { task: await deps.tasks.start(params, ctx, deps.narrowing(ctx.client)) };
    },
    "task/list": async (params) => ({ tasks: deps.control.tasks(params?.limit ?? 200) }),
    "task/show": async (params) => ({ task: deps.control.task(params.taskId), result: deps.control.taskResult(params.taskId) }),
    "task/cancel": async (params) => deps.tasks.cancel(params.taskId),
    "task/resume": async (params, ctx) => {
      deps.gate.assertAccepting("task/resume");
      return { task: await deps.tasks.resume(params.taskId, ctx) };
    },
    "task/dismiss": async (params) => ({ task: deps.tasks.dismiss(params.taskId) }),
  } satisfies Handlers;
}
