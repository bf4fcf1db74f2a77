// The kernel's local socket (issue 12, item 2): serves authenticated clients on a Unix socket in an
// owner-only folder. A client must send the per-kernel secret before any JSON-RPC frame reaches a
// handler; without it the connection is refused and closed. Each accepted socket is one client
// with its own RPC server (its own clientId, control plane #6).
import { randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import { AUTH_MAX_BYTES, AUTH_OK, AUTH_PREFIX, AUTH_TIMEOUT_MS, readLine } from "../../shared/node/kernelSocket.js";
import type { KernelEndpoint } from "../../shared/node/paths.js";
import { ensurePrivateDir, writePrivateFile } from "../../shared/node/privateFiles.js";
import path from "node:path";
import type { ClientChannel, Handlers } from "../kernel/handlers/types.js";
import { startRpcServer } from "./server.js";

export interface SocketEndpointOptions {
  endpoint: KernelEndpoint;
  handlers: Handlers;
  log: (line: string) => void;
  /** Called whenever an authenticated client arrives or leaves, with the number now connected. */
  onClients?: (count: number) => void;
  /** Called with each authenticated client's channel; the function it returns is called when that client leaves. */
  onClient?: (client: ClientChannel) => () => void;
}

export interface SocketEndpoint {
  clients(): number;
  close(): Promise<void>;
}

function secretMatches(line: string, secret: Buffer): boolean {
  if (!line.startsWith(AUTH_PREFIX)) return false;
  const offered = Buffer.from(line.slice(AUTH_PREFIX.length), "utf8");
  return offered.length === secret.length && timingSafeEqual(offered, secret);
}

/**
 * Listens on the endpoint's socket. The caller owns the journal lock, so a socket or secret left
 * at these paths belongs to a dead owner and is replaced.
 */
export async function startSocketEndpoint(opts: SocketEndpointOptions): Promise<SocketEndpoint> {
  const { socketPath, secretPath } = opts.endpoint;
  ensurePrivateDir(path.dirname(socketPath), opts.log);
  fs.rmSync(socketPath, { force: true });
  const secret = Buffer.from(randomBytes(32).toString("hex"), "utf8");
  writePrivateFile(secretPath, secret.toString("utf8"));
  const sockets = new Set<net.Socket>();
  let clients = 0;
  const changed = (delta: number) => {
    clients += delta;
    opts.onClients?.(clients);
  };

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    void readLine(socket, AUTH_MAX_BYTES, AUTH_TIMEOUT_MS).then(
      (line) => {
        if (!secretMatches(line, secret)) {
          opts.log("refused a socket client: it did not present this kernel's secret");
          socket.end(`refused: this kernel serves only clients that present its secret (in ${secretPath}, readable by its user only)\n`);
          return;
        }
        socket.write(`${AUTH_OK}\n`);
        const rpc = startRpcServer({ input: socket, output: socket, handlers: opts.handlers, log: opts.log });
        const left = opts.onClient?.(rpc.client);
        changed(+1);
        socket.once("close", () => {
          left?.();
          rpc.connection.dispose();
          changed(-1);
        });
        socket.resume();
      },
      (e: Error) => {
        opts.log(`refused a socket client: ${e.message}`);
        socket.destroy();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  opts.log(`serving clients on ${socketPath}`);
  return {
    clients: () => clients,
    async close() {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closing;
      fs.rmSync(secretPath, { force: true });
      // server.close removes the socket file; a leftover would only mislead the next client.
      fs.rmSync(socketPath, { force: true });
    },
  };
}
