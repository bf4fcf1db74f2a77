// The kernel stops in the order declared as data (issue 22, item 1: kernel.ts SHUTDOWN_ORDER), never
// in the order its parts happened to register.
import assert from "node:assert/strict";
import { it } from "node:test";
import { SHUTDOWN_ORDER } from "../../../../sidecar/kernel/kernel.js";
import { ShutdownGate } from "../../../../sidecar/kernel/shutdownGate.js";

it("steps run once in the declared order whatever order they registered in, a failing one logged and passed", async () => {
  const gate = new ShutdownGate(SHUTDOWN_ORDER);
  const ran: string[] = [];
  const lines: string[] = [];
  for (const step of [...SHUTDOWN_ORDER].reverse()) {
    gate.onShutdown(step, () => {
      ran.push(step);
      if (step === "tools") throw new Error("boom");
    });
  }
  assert.equal(gate.accepting, true);
  await Promise.all([gate.shutdown((l) => lines.push(l)), gate.shutdown((l) => lines.push(l))]);
  assert.deepEqual(ran, [...SHUTDOWN_ORDER]);
  assert.deepEqual(lines, ["shutdown step tools failed: boom"]);
  assert.throws(() => gate.assertAccepting("turn/start"), /refused: turn\/start: the kernel is shutting down/);
});

it("a step the order does not declare is refused at registration, so no hook runs out of place", () => {
  assert.throws(() => new ShutdownGate(SHUTDOWN_ORDER).onShutdown("cache", () => undefined), /"cache" is not in the declared order/);
});

it("the socket closes after the turns stop and the journal after everything that writes it; the lock goes last", () => {
  const at = (s: (typeof SHUTDOWN_ORDER)[number]) => SHUTDOWN_ORDER.indexOf(s);
  assert.ok(at("tasks") < at("turns"), "tasks stop accepting before the turns stop: a stopped task is orphaned, not cancelled");
  assert.ok(at("turns") < at("socket"), "clients get the turns' last events");
  assert.ok(Math.max(at("turns"), at("tools"), at("model")) < at("journal"));
  assert.equal(SHUTDOWN_ORDER.at(-1), "journal lock");
});
