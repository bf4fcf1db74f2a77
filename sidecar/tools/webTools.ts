// web_fetch: the opt-in network tool (hearth.tools.webFetch, HEARTH_WEB_FETCH=1); it always requires
// approval and goes only where the model asked, after a person allowed it (harness #11).
import { convert } from "html-to-text";
import type { ObjectSchema } from "../agent/ports/jsonSchema.js";
import type { Tool } from "../agent/ports/tools.js";
import type { Ceilings } from "./ceilings.js";
import { USER_AGENT } from "../../shared/version.js";
import { httpGet, parseHttpUrl } from "./httpClient.js";
import { badArgs, byteSize, defineTool, fail } from "./toolKit.js";

const URL_MAX = 2048;

export function webFetchTool(ceilings: Ceilings): Tool {
  const schema: ObjectSchema = {
    type: "object",
    properties: { url: { type: "string", description: "An http(s) URL", minLength: 1, maxLength: URL_MAX } },
    required: ["url"],
    additionalProperties: false,
  };
  const definition = defineTool({
    name: "web_fetch",
    description: `Fetch an http(s) URL's text (at most ${byteSize(ceilings.fetchMaxBytes)}, ${ceilings.fetchTimeoutMs / 1000} s).`,
    parameters: schema,
    effectClass: "network",
    retryPolicy: "safe_retry",
    cancellation: "Interruptible", // the request is aborted with the call; nothing is detached
    requiresApproval: true,
    config: { fetchMaxBytes: ceilings.fetchMaxBytes, fetchTimeoutMs: ceilings.fetchTimeoutMs, userAgent: USER_AGENT },
  });
  return {
    definition,
    async propose(args) {
      return { preview: { kind: "text", text: `fetch ${String(args.url)} (as ${USER_AGENT})` } };
    },
    async invoke(args, _proposal, ctx) {
      const bad = badArgs("web_fetch", schema, args);
      if (bad) return bad;
      const url = args.url as string;
      if (!parseHttpUrl(url))
        return fail(`refused: ${JSON.stringify(url.slice(0, 200))} is not an http(s) URL; web_fetch fetches http:// and https:// only`);
      const r = await httpGet(url, { maxBytes: ceilings.fetchMaxBytes, timeoutMs: ceilings.fetchTimeoutMs, signal: ctx.signal });
      if (!r.ok) return fail(r.message);
      if (!/^(text\/|application\/(json|xml|xhtml\+xml|javascript))/i.test(r.contentType) && r.contentType !== "") {
        return fail(`refused: ${r.url} answered with ${r.contentType}; web_fetch returns text content only`);
      }
      let text = new TextDecoder("utf-8").decode(r.body);
      if (/html/i.test(r.contentType)) text = htmlToText(text);
      const note = r.truncated ? `\n[truncated at ${ceilings.fetchMaxBytes} bytes]` : "";
      return { ok: r.status >= 200 && r.status < 300, output: `HTTP ${r.status} ${r.url}\n\n${text}${note}` };
    },
  };
}

/** A page as the text a person reads: no scripts, styles or markup; links keep their words, not their targets. */
function htmlToText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { ignoreHref: true } },
      { selector: "img", format: "skip" },
    ],
  }).trim();
}
