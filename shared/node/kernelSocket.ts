// The kernel's local socket, client side, and the handshake both ends speak (issue 12, item 2).
// Before any JSON-RPC frame the client sends one line `HEARTH-AUTH <secret>`; the kernel answers
// `OK` or a refusal line and closes. The secret is per kernel, in a 0600 file of an owner-only
// folder, so other users cannot reach the socket and processes without the secret cannot speak.
import fs from "node:fs";
import net from "node:net";
import { createMessageConnection, SocketMessageWriter } from "vscode-jsonrpc/node.js";
import { frameReader } from "./frameReader.js";
import { KernelClient } from "./kernelClient.js";
import type { KernelEndpoint } from "./paths.js";
import { errorMessage } from "../errors.js";

export const AUTH_PREFIX = "HEARTH-AUTH ";
export const AUTH_OK = "OK";
/** Longest handshake line the kernel reads before refusing: a secret is 64 hex digits. */
export const AUTH_MAX_BYTES = 256;
export const AUTH_TIMEOUT_MS = 5000;

/** Why a connection attempt found no kernel to talk to (as opposed to a refusal by a live one). */
export class NoKernelListening extends Error {}

export interface SocketKernel {
  client: KernelClient;
  /** Resolves when the connection closes (the kernel exited, or it was disposed). */
  closed: Promise<void>;
  dispose(): void;
}

/** Reads one `\n`-terminated line from a socket without consuming what follows it. */
export function readLine(socket: net.Socket, maxBytes: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error(`no handshake line within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const nl = buffered.indexOf(0x0a);
      if (nl >= 0) {
        // Stop listening before handing back what follows the line: unshift re-emits it as data.
        finish(null, buffered.subarray(0, nl).toString("utf8"));
        const rest = buffered.subarray(nl + 1);
        if (rest.length > 0) socket.unshift(rest);
      } else if (buffered.length > maxBytes) finish(new Error(`handshake line longer than ${maxBytes} bytes`));
    };
    const onEnd = () => finish(new Error("the other end closed before the handshake"));
    const finish = (err: Error | null, line?: string) => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.off("error", onEnd);
      socket.pause();
      if (err) reject(err);
      else resolve(line!);
    };
    socket.on("data", onData);
    socket.once("end", onEnd);
    socket.once("error", onEnd);
  });
}

/**
 * Connects to the kernel serving `endpoint`, or throws NoKernelListening when none is there (no
 * secret file, no socket, or a socket nobody listens on: the owner died).
 */
export async function connectKernelSocket(endpoint: KernelEndpoint): Promise<SocketKernel> {
  let secret: string;
  try {
    secret = fs.readFileSync(endpoint.secretPath, "utf8").trim();
  } catch {
    throw new NoKernelListening(`no kernel secret at ${endpoint.secretPath}`);
  }
  const socket = await new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect(endpoint.socketPath);
    s.once("connect", () => resolve(s));
    s.once("error", (e: NodeJS.ErrnoException) =>
      reject(
        ["ENOENT", "ECONNREFUSED", "ECONNRESET", "EPIPE"].includes(e.code ?? "")
          ? new NoKernelListening(`no kernel listens on ${endpoint.socketPath} (${e.code})`)
          : e,
      ),
    );
  });
  socket.write(`${AUTH_PREFIX}${secret}\n`);
  let answer: string;
  try {
    answer = await readLine(socket, AUTH_MAX_BYTES, AUTH_TIMEOUT_MS);
  } catch (e) {
    socket.destroy();
    throw new NoKernelListening(`the kernel at ${endpoint.socketPath} did not answer the handshake: ${errorMessage(e)}`);
  }
  if (answer !== AUTH_OK) {
    socket.destroy();
    throw new Error(`the kernel at ${endpoint.socketPath} refused this client: ${answer}`);
  }
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.resume();
  const connection = createMessageConnection(frameReader(socket), new SocketMessageWriter(socket));
  connection.listen();
  const client = new KernelClient(connection);
  return {
    client,
    closed,
    dispose: () => {
      client.dispose();
      socket.destroy();
    },
  };
}

/** The kernel's exit code when another kernel owns the journal: a launcher connects to that one instead. */
export const KERNEL_EXIT_JOURNAL_OWNED = 3;
