// Kernel-minted identifiers (control plane #1; harness #4): UUIDv7, time-ordered, never taken
// from a provider or adapter. Uses the Web Crypto API so it runs in Node, the webview and tests alike.

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
let lastMs = 0;
let counter = 0;

/** A RFC 9562 UUIDv7. Monotonic within one process even when the clock stalls. */
export function uuidv7(nowMs: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let ms = Math.max(nowMs, lastMs);
  if (ms === lastMs) {
    counter = (counter + 1) & 0xfff;
    if (counter === 0) ms += 1; // 12-bit sequence exhausted: borrow the next millisecond
  } else {
    counter = bytes[6]! & 0x07; // random start leaves room to count upward
  }
  lastMs = ms;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const h = Array.from(bytes, (b) => HEX[b]).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const UUIDV7_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isUuidv7(value: string): boolean {
  return UUIDV7_PATTERN.test(value);
}
