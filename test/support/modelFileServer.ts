// A local HTTP server for model downloads (unit tests and the e2e): serves one file under any path
// with Range support, counts the body bytes it sends, and while `slowFirstChunk` is on it trickles every
// request that covers one byte of the first chunk and holds that byte back until `slowFirstChunk` is
// turned off: a download cancelled meanwhile holds every other chunk, and a resumed one must fetch only
// what is missing. (Holding only the request from byte 0 was not enough: under load the downloader asked
// again for the rest of that slow chunk, got it at once, finished the file and, cancelled, renamed it to
// its final name: firstRun e2e (e) found no partial file.) The hold is what makes a cancel deterministic (issue 23, item 2): however loaded the machine,
// the download cannot finish before the test's cancel. node-llama-cpp's downloader aborts the held
// request when it is cancelled and keeps its `.ipull` file (modelDownload.test.ts). The same hold was
// reverted once (77b0f80) while the downloader was still given a `headers` option, which made it finish
// cancelled downloads whole (removed in 92e5508); without it the hold keeps the partial in the e2e too.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ModelFileServer {
  url: string;
  /** Body bytes of ranged requests sent since start (or the last `resetCount`). */
  sentBytes(): number;
  resetCount(): void;
  /** Requests seen: method, path and Range header. */
  requests: string[];
  /** The User-Agent header of each request seen, in order ("" when none was sent). */
  userAgents: string[];
  slowFirstChunk: boolean;
  close(): Promise<void>;
}

/** The byte no response sends while slow mode is on: inside the file's first chunk, so the download cannot end. */
const HELD_BYTE = 256 * 1024;

export async function startModelFileServer(body: Buffer): Promise<ModelFileServer> {
  let sent = 0;
  const trickling = new Set<NodeJS.Timeout>();
  const state = { slowFirstChunk: false };
  const requests: string[] = [];
  const userAgents: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.range ?? ""}`.trim());
    userAgents.push(req.headers["user-agent"] ?? "");
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    const start = m ? Number(m[1]) : 0;
    const end = m?.[2] ? Math.min(Number(m[2]), body.length - 1) : body.length - 1;
    res.writeHead(m ? 206 : 200, {
      "content-type": "application/octet-stream",
      "accept-ranges": "bytes",
      "content-length": end - start + 1,
      ...(m ? { "content-range": `bytes ${start}-${end}/${body.length}` } : {}),
    });
    if (req.method === "HEAD") return res.end();
    const slice = body.subarray(start, end + 1);
    // Only ranged bodies count: a downloader's first plain GET reads the headers and hangs up.
    if (state.slowFirstChunk && m && start <= HELD_BYTE && HELD_BYTE <= end) {
      // Every request that covers the held byte trickles (64 KiB per 50 ms) and stops before it until
      // the test turns `slowFirstChunk` off; the rest arrive at once. Any request, not only the one
      // from 0: a downloader that asks again for the rest of a slow chunk must not finish the file.
      const heldAt = HELD_BYTE - start;
      let pos = 0;
      const timer = setInterval(() => {
        if (pos + 64 * 1024 > heldAt && state.slowFirstChunk) {
          if (pos < heldAt) {
            const upTo = slice.subarray(pos, heldAt);
            pos = heldAt;
            sent += upTo.length;
            res.write(upTo);
          }
          return;
        }
        const piece = slice.subarray(pos, pos + 64 * 1024);
        pos += piece.length;
        sent += piece.length;
        if (pos >= slice.length) {
          clearInterval(timer);
          res.end(piece);
        } else res.write(piece);
      }, 50);
      trickling.add(timer);
      res.on("close", () => {
        clearInterval(timer);
        trickling.delete(timer);
      });
      return;
    }
    if (m) sent += slice.length;
    res.end(slice);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sentBytes: () => sent,
    resetCount: () => {
      sent = 0;
    },
    requests,
    userAgents,
    get slowFirstChunk() {
      return state.slowFirstChunk;
    },
    set slowFirstChunk(v: boolean) {
      state.slowFirstChunk = v;
    },
    close: async () => {
      for (const timer of trickling) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
