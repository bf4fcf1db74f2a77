// Network tools against a local HTTP server on 127.0.0.1 (harness #11): opt-in, approval
// always, exact version in the User-Agent, bounded size and time, cancellation, http(s) only,
// and a search provider only when one is configured, with its results validated.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import pkg from "../../../../package.json" with { type: "json" };
import type { Tool } from "../../../../sidecar/agent/ports/tools.js";
import { buildWorkspaceTools, MISSING_SEARCH_PROVIDER, type WorkspaceTools } from "../../../../sidecar/tools/buildWorkspaceTools.js";
import type { WebSearchProvider, WebSearchResult } from "../../../../sidecar/tools/webTools.js";

describe("network tools (harness #11)", () => {
  let dir: string;
  let server: http.Server;
  let base: string;
  const userAgents: string[] = [];
  const built: WorkspaceTools[] = [];
  const build = (cfg: Partial<Parameters<typeof buildWorkspaceTools>[0]> = {}) => {
    const b = buildWorkspaceTools({ workspaceRoot: dir, shell: false, ...cfg });
    built.push(b);
    return b;
  };
  const find = (b: WorkspaceTools, name: string): Tool | undefined => b.tools.find((t) => t.definition.name === name);
  const call = async (t: Tool, args: Record<string, unknown>, signal = new AbortController().signal) => {
    const ctx = { callId: crypto.randomUUID(), signal };
    return t.invoke(args, await t.propose(args, ctx), ctx);
  };

  before(async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hearth-net-")));
    server = http.createServer((req, res) => {
      userAgents.push(req.headers["user-agent"] ?? "");
      const url = req.url ?? "/";
      if (url === "/page") {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html><script>evil()</script><p>Hello &amp; welcome</p></html>");
      } else if (url === "/big") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("b".repeat(3 << 20));
      } else if (url === "/binary") {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(Buffer.from([0, 1, 2]));
      } else if (url === "/to-file") {
        res.writeHead(302, { location: "file:///etc/passwd" });
        res.end();
      } else if (url === "/redirect") {
        res.writeHead(301, { location: "/page" });
        res.end();
      } else if (url === "/hang") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("partial");
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("nope");
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const b of built) b.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("network tools and datetime are absent unless opted in (harness #11)", () => {
    const names = build().tools.map((t) => t.definition.name);
    assert.deepEqual(names, ["read_file", "list_dir", "search_files", "write_file", "edit_file"]);
    const opted = build({ datetime: true, network: { fetch: true } });
    assert.ok(find(opted, "web_fetch") && find(opted, "datetime"));
    assert.equal(find(opted, "web_search"), undefined, "no provider, no web_search");
  });

  test("network tools always require approval and are classed as network (harness #11)", () => {
    const b = build({ network: { fetch: true, search: provider([]) } });
    for (const name of ["web_fetch", "web_search"]) {
      const d = find(b, name)!.definition;
      assert.equal(d.requiresApproval, true);
      assert.equal(d.effectClass, "network");
    }
  });

  test("web_fetch identifies Hearth's exact version and returns page text (harness #11)", async () => {
    const r = await call(find(build({ network: { fetch: true } }), "web_fetch")!, { url: `${base}/redirect` });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /Hello & welcome/);
    assert.doesNotMatch(r.output, /evil/);
    assert.equal(userAgents.at(-1), `Hearth/${pkg.version}`);
  });

  test("web_fetch bounds the body size (harness #11)", async () => {
    const r = await call(find(build({ network: { fetch: true }, ceilings: { fetchMaxBytes: 4096 } }), "web_fetch")!, {
      url: `${base}/big`,
    });
    assert.match(r.output, /\[truncated at 4096 bytes\]/);
    assert.ok(r.output.length < 5000);
  });

  test("web_fetch bounds the time (harness #11)", async () => {
    const r = await call(find(build({ network: { fetch: true }, ceilings: { fetchTimeoutMs: 300 } }), "web_fetch")!, {
      url: `${base}/hang`,
    });
    assert.equal(r.ok, false);
    assert.match(r.output, /did not answer within 300 ms/);
  });

  test("web_fetch honours cancellation (harness #11, #21)", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const r = await call(find(build({ network: { fetch: true } }), "web_fetch")!, { url: `${base}/hang` }, ac.signal);
    assert.equal(r.ok, false);
    assert.match(r.output, /^cancelled/);
  });

  test("web_fetch fetches http(s) only, redirects included (harness #11)", async () => {
    const t = find(build({ network: { fetch: true } }), "web_fetch")!;
    for (const url of ["file:///etc/passwd", "ftp://127.0.0.1/x", "javascript:alert(1)", "not a url"]) {
      const r = await call(t, { url });
      assert.equal(r.ok, false);
      assert.match(r.output, /^refused: .* is not an http\(s\) URL/);
    }
    const r = await call(t, { url: `${base}/to-file` });
    assert.match(r.output, /^refused: .* redirects to a non-http\(s\) URL/);
    assert.match(
      (await call(t, { url: `${base}/binary` })).output,
      /^refused: .* application\/octet-stream; web_fetch returns text content only/,
    );
  });

  test("web_search with no provider is absent and says how to configure one (harness #11)", () => {
    assert.throws(
      () => build({ network: { search: true as unknown as WebSearchProvider } }),
      (e: Error) => e.message === MISSING_SEARCH_PROVIDER,
    );
    assert.match(MISSING_SEARCH_PROVIDER, /never picks a search vendor.*network\.search/);
  });

  test("web_search validates provider results: count, size, http(s) URLs (harness #11)", async () => {
    const ok: WebSearchResult = { title: "Hearth", url: "https://example.org/h", snippet: "a local agent" };
    const good = await call(find(build({ network: { search: provider([ok]) } }), "web_search")!, { query: "hearth" });
    assert.equal(good.ok, true);
    assert.match(good.output, /1\. Hearth\n {3}https:\/\/example\.org\/h/);
    const cases: Array<[unknown[], RegExp]> = [
      [Array(11).fill(ok), /11 results, more than the 10 asked for/],
      [[{ ...ok, url: "javascript:alert(1)" }], /non-http\(s\) URL/],
      [[{ ...ok, url: "file:///etc/passwd" }], /non-http\(s\) URL/],
      [[{ ...ok, snippet: "s".repeat(5000) }], /exceeds the size bounds/],
      [[{ title: 1, url: ok.url, snippet: "" }], /lacks a title, url or snippet/],
    ];
    for (const [results, why] of cases) {
      const r = await call(find(build({ network: { search: provider(results as WebSearchResult[]) } }), "web_search")!, { query: "q" });
      assert.equal(r.ok, false);
      assert.match(r.output, why);
    }
  });

  test("web_search passes cancellation to the provider and returns (harness #11)", async () => {
    let sawAbort = false;
    const slow: WebSearchProvider = {
      id: "test-slow",
      search: (_q, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            sawAbort = true;
            reject(new Error("aborted"));
          });
        }),
    };
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const r = await call(find(build({ network: { search: slow } }), "web_search")!, { query: "q" }, ac.signal);
    assert.match(r.output, /^cancelled/);
    assert.equal(sawAbort, true);
  });
});

function provider(results: readonly WebSearchResult[]): WebSearchProvider {
  return { id: "test-provider", search: async () => results };
}
