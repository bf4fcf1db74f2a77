// fetch for the MCP HTTP transport with each response body bounded: a server that floods one answer
// (or one event stream) is cut off with an error the connection reports, instead of growing the
// kernel's memory. Redirects are the SDK's business (it keeps them within the origin).
import { MAX_MESSAGE_BYTES } from "./stdioServerTransport.js";

/** An event stream lives as long as the session: it may carry many messages, each bounded by the SDK's parser. */
const MAX_RESPONSE_BYTES = 4 * MAX_MESSAGE_BYTES;

export async function boundedFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  if (!response.body) return response;
  let seen = 0;
  const capped = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > MAX_RESPONSE_BYTES)
          controller.error(new Error(`the MCP server's answer passed ${MAX_RESPONSE_BYTES} bytes; it was cut off`));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(capped, { status: response.status, statusText: response.statusText, headers: response.headers });
}
