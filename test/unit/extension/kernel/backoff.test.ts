// issue 2: a crashed kernel is restarted with exponential backoff, capped, forgiven after a healthy period.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Backoff, DEFAULT_BACKOFF } from "../../../../extension/kernel/backoff.js";

describe("kernel restart backoff", () => {
  it("doubles from 0.5 s and caps at 30 s while the kernel keeps crashing quickly (issue 2: restart with backoff)", () => {
    const b = new Backoff();
    const delays = Array.from({ length: 9 }, () => b.next(1000));
    assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it("starts again at 0.5 s after a kernel that stayed up for the healthy period (issue 2)", () => {
    const b = new Backoff();
    b.next(10);
    b.next(10);
    assert.equal(b.next(10), 2000);
    assert.equal(b.next(DEFAULT_BACKOFF.healthyMs), 500);
    assert.equal(b.next(10), 1000);
  });

  it("a restart the person asks for forgets the crash history (issue 2)", () => {
    const b = new Backoff();
    b.next(10);
    b.next(10);
    b.reset();
    assert.equal(b.next(10), 500);
  });
});
