// extension/chat/chatTurnStates.ts: the chat's turn as a table (issue 22 item 6), walked.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CHAT_TURN_MOVES, ChatTurnState, type ChatTurnPhase } from "../../../../extension/chat/chatTurnStates.js";

const PHASES = Object.keys(CHAT_TURN_MOVES) as ChatTurnPhase[];

function reachable(from: ChatTurnPhase): Set<ChatTurnPhase> {
  const seen = new Set<ChatTurnPhase>([from]);
  const todo = [from];
  while (todo.length) for (const next of CHAT_TURN_MOVES[todo.pop()!]) if (!seen.has(next) && seen.add(next)) todo.push(next);
  return seen;
}

describe("the chat's turn state machine (issue 22 item 6)", () => {
  it("every phase is reachable from idle and leads back to idle: no chat is left busy for good", () => {
    assert.deepEqual([...reachable("idle")].sort(), [...PHASES].sort());
    for (const phase of PHASES) assert.ok(reachable(phase).has("idle"), `${phase} can end`);
  });

  it("moves only where the table allows, says which moves were allowed, and changes nothing when refused", () => {
    const state = new ChatTurnState(() => undefined);
    assert.throws(() => state.moveTo("running"), /cannot move from idle to running \(allowed: starting, following\)/);
    assert.equal(state.phase, "idle");
    for (const from of PHASES)
      for (const to of PHASES) {
        if (from === to) continue;
        const walk = new ChatTurnState(() => undefined);
        // Reach `from` along the table, then try `to`.
        const path = pathTo(from);
        for (const step of path) walk.moveTo(step);
        if (CHAT_TURN_MOVES[from].includes(to)) walk.moveTo(to);
        else assert.throws(() => walk.moveTo(to), new RegExp(`from ${from} to ${to}`));
      }
  });

  it("busy flips once when a turn begins and once when it ends, whatever phases it goes through", () => {
    const flips: boolean[] = [];
    const state = new ChatTurnState((busy) => flips.push(busy));
    for (const phase of ["starting", "running", "disconnected", "following", "running", "idle", "following", "idle"] as const)
      state.moveTo(phase);
    assert.deepEqual(flips, [true, false, true, false]);
    assert.equal(state.busy, false);
  });
});

/** The moves from idle to `target` (breadth first). */
function pathTo(target: ChatTurnPhase): ChatTurnPhase[] {
  const back = new Map<ChatTurnPhase, ChatTurnPhase>();
  const queue: ChatTurnPhase[] = ["idle"];
  while (queue.length) {
    const at = queue.shift()!;
    for (const next of CHAT_TURN_MOVES[at]) if (next !== "idle" && !back.has(next)) back.set(next, at) && queue.push(next);
  }
  const path: ChatTurnPhase[] = [];
  for (let at = target; at !== "idle"; at = back.get(at)!) path.unshift(at);
  return path;
}
