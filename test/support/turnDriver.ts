// Drives turns over the real protocol: collects each run's events and answers approvals.
import type { NotificationParams, ServerRequestParams, ServerRequestResult, TurnEvent } from "../../shared/protocol/index.js";
import type { KernelClient } from "../../shared/node/kernelClient.js";

export type ApprovalAnswer = (req: ServerRequestParams<"approval/request">) => ServerRequestResult<"approval/request">;

export class TurnDriver {
  readonly events = new Map<string, TurnEvent[]>();
  readonly approvals: ServerRequestParams<"approval/request">[] = [];
  private waiters: (() => void)[] = [];

  constructor(
    readonly client: KernelClient,
    answer: ApprovalAnswer = () => ({ decision: "deny", reason: "denied by the test" }),
  ) {
    client.onNotification("turn/event", (n: NotificationParams<"turn/event">) => {
      this.events.set(n.runId, [...(this.events.get(n.runId) ?? []), n.event]);
      this.waiters.splice(0).forEach((w) => {
        w();
      });
    });
    client.onServerRequest("approval/request", async (req) => {
      this.approvals.push(req);
      this.waiters.splice(0).forEach((w) => {
        w();
      });
      return answer(req);
    });
  }

  async until(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  /** Waits for the run's `completed` event and returns it. */
  async completion(runId: string): Promise<Extract<TurnEvent, { type: "completed" }>> {
    await this.until(() => (this.events.get(runId) ?? []).some((e) => e.type === "completed"), `run ${runId} to complete`);
    return this.events.get(runId)!.find((e) => e.type === "completed") as Extract<TurnEvent, { type: "completed" }>;
  }

  answerText(runId: string): string {
    return (this.events.get(runId) ?? [])
      .filter((e) => e.type === "answer_delta")
      .map((e) => (e as { text: string }).text)
      .join("");
  }
}
