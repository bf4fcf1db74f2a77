import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, it } from "node:test";
import { LatestPacer } from "../../../../extension/model/latestPacer.js";

describe("download progress reaches the view paced, and its latest value always arrives", () => {
  it("a burst inside one interval delivers its first value at once and its last at the interval's end", async () => {
    const seen: number[] = [];
    const pacer = new LatestPacer<number>(40, (v) => seen.push(v));
    for (const v of [0.1, 0.4, 0.6, 0.8]) pacer.push(v);
    assert.deepEqual(seen, [0.1], "the first value goes at once; the rest wait for the interval");
    await sleep(80);
    assert.deepEqual(seen, [0.1, 0.8], "the burst's last value arrives although nothing followed it");
    pacer.cancel();
  });

  it("an urgent value (a new phase, the end) goes at once and drops what was held", async () => {
    const seen: string[] = [];
    const pacer = new LatestPacer<string>(40, (v) => seen.push(v));
    pacer.push("download 10%");
    pacer.push("download 20%");
    pacer.push("load 0%", true);
    await sleep(80);
    assert.deepEqual(seen, ["download 10%", "load 0%"]);
  });

  it("cancel forgets a held value, and leaves no timer behind", async () => {
    const seen: number[] = [];
    const pacer = new LatestPacer<number>(40, (v) => seen.push(v));
    pacer.push(1);
    pacer.push(2);
    pacer.cancel();
    await sleep(80);
    assert.deepEqual(seen, [1]);
  });
});
