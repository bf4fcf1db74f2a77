// web_fetch and web_search: opt-in network tools that always require approval and never pick a
// vendor on their own (harness #11). web_search exists only with a provider the user configured;
// its results are validated here whatever the provider returns.
import { untilAborted } from "../agent/cancellation.js";
import type { ObjectSchema } from "../agent/ports/jsonSchema.js";
import type { Tool } from "../agent/ports/tools.js";
import type { Ceilings } from "./ceilings.js";
import { httpGet, parseHttpUrl, USER_AGENT } from "./httpClient.js";
import { badArgs, defineTool, fail, succeed } from "./toolKit.js";

/** One search hit as a provider reports it. */
export interface WebSearchResult {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

/** A search backend the user configured explicitly. `id` enters the tool's identity. */
export interface WebSearchProvider {
  readonly id: string;
  /** Must observe `signal`: work it starts may not outlive the call. */
  search(query: string, opts: { maxResults: number; signal: AbortSignal }): Promise<readonly WebSearchResult[]>;
}

export const MISSING_SEARCH_PROVIDER =
  "web_search is not available: no search provider is configured. Hearth never picks a search vendor on its own; " +
  "pass one explicitly (network.search in buildWorkspaceTools) to enable it.";

const TITLE_MAX = 300;
const SNIPPET_MAX = 1000;
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
    description: `Fetch an http(s) URL (at most ${ceilings.fetchMaxBytes} bytes, ${ceilings.fetchTimeoutMs / 1000}s). Text content only.`,
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

export function webSearchTool(provider: WebSearchProvider, ceilings: Ceilings): Tool {
  const schema: ObjectSchema = {
    type: "object",
    properties: { query: { type: "string", description: "What to search for", minLength: 1, maxLength: 500 } },
    required: ["query"],
    additionalProperties: false,
  };
  const max = ceilings.searchResultsMax;
  const definition = defineTool({
    name: "web_search",
    description: `Search the web with the configured provider (${provider.id}); up to ${max} results.`,
    parameters: schema,
    effectClass: "network",
    retryPolicy: "safe_retry",
    cancellation: "Interruptible",
    requiresApproval: true,
    config: { provider: provider.id, searchResultsMax: max, fetchTimeoutMs: ceilings.fetchTimeoutMs },
  });
  return {
    definition,
    async propose(args) {
      return { preview: { kind: "text", text: `search the web via ${provider.id}: ${JSON.stringify(args.query)}` } };
    },
    async invoke(args, _proposal, ctx) {
      const bad = badArgs("web_search", schema, args);
      if (bad) return bad;
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(ceilings.fetchTimeoutMs)]);
      let results: readonly WebSearchResult[];
      try {
        results = await untilAborted(provider.search(args.query as string, { maxResults: max, signal }), signal);
      } catch (e) {
        if (ctx.signal.aborted) return fail("cancelled: the search was aborted");
        return fail(`the search provider ${provider.id} failed: ${(e as Error).message}`);
      }
      const checked = validateResults(results, max);
      if (!checked.ok) return fail(`the search provider ${provider.id} returned invalid results: ${checked.message}`);
      if (checked.results.length === 0) return succeed(`no results for ${JSON.stringify(args.query)}`);
      return succeed(checked.results.map((r, i) => `${i + 1}. ${r.title}\n   ${r.url}\n   ${r.snippet}`).join("\n"));
    },
  };
}

/** harness #11: count, size and URL checks on whatever the provider returned. */
export function validateResults(results: unknown, max: number): { ok: true; results: WebSearchResult[] } | { ok: false; message: string } {
  if (!Array.isArray(results)) return { ok: false, message: "not a list" };
  if (results.length > max) return { ok: false, message: `${results.length} results, more than the ${max} asked for` };
  const out: WebSearchResult[] = [];
  for (const [i, r] of results.entries()) {
    const { title, url, snippet } = (r ?? {}) as Record<string, unknown>;
    if (typeof title !== "string" || typeof url !== "string" || typeof snippet !== "string")
      return { ok: false, message: `result ${i + 1} lacks a title, url or snippet string` };
    if (title.length > TITLE_MAX || snippet.length > SNIPPET_MAX || url.length > URL_MAX)
      return { ok: false, message: `result ${i + 1} exceeds the size bounds` };
    if (!parseHttpUrl(url)) return { ok: false, message: `result ${i + 1} has a non-http(s) URL` };
    out.push({ title: title.replace(/\s+/g, " ").trim(), url, snippet: snippet.replace(/\s+/g, " ").trim() });
  }
  return { ok: true, results: out };
}

function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript)[\s\S]*?<\/\1>/gi, "")
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr)>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n\n")
    .trim();
}
