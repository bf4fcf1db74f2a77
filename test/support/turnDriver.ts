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
      this.events.set(n.turnId, [...(this.events.get(n.turnId) ?? []), n.event]);
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
  async completion(turnId: string): Promise<Extract<TurnEvent, { type: "completed" }>> {
    await this.until(() => (this.events.get(turnId) ?? []).some((e) => e.type === "completed"), `run ${turnId} to complete`);
    return this.events.get(turnId)!.find((e) => e.type === "completed") as Extract<TurnEvent, { type: "completed" }>;
  }

  answerText(turnId: string): string {
    return (this.events.get(turnId) ?? [])
      .filter((e) => e.type === "answer_delta")
      .map((e) => (e as { text: string }).text)
      .join("");
  }
}
