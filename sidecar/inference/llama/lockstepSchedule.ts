// Concurrent sessions share the one context; left alone their decode steps drift apart and rarely
// share a batch (the probe: 4 sessions gave 1.16x one session). Holding a dispatch for a few
// event-loop turns while several sessions generate lets each queue its next token into the same
// batch (lockstep: 1.53x in the probe). With one session generating it dispatches at once.
// Measured through LlamaChat it did not help yet (docs/models.md), so the adapter leaves it off by default.
import type { CustomBatchingDispatchSchedule } from "node-llama-cpp";

export function lockstepSchedule(generating: () => number, holdTurns: number): CustomBatchingDispatchSchedule {
  return (dispatch) => {
    let turns = holdTurns > 0 && generating() > 1 ? holdTurns + 1 : 1;
    const tick = () => {
      if (--turns <= 0) dispatch();
      else setImmediate(tick);
    };
    setImmediate(tick);
  };
}
