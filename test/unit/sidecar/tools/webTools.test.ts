// web_fetch against a local HTTP server on 127.0.0.1 (harness #11): opt-in, approval always,
// exact version in the User-Agent, bounded size and time, cancellation, http(s) only.
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
import { buildWorkspaceTools, type WorkspaceTools } from "../../../../sidecar/tools/buildWorkspaceTools.js";

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
      } else if (url === "/article") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          "<html><head><style>p{color:red}</style></head><body><!-- <p>hidden</p> --><h1>Title</h1>" +
            '<p title="a > b">It&#8217;s &mdash; fine</p><a href="http://example.test/secret-target">docs</a></body></html>',
        );
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

  test("web_fetch is absent unless opted in (harness #11)", () => {
    const names = build().tools.map((t) => t.definition.name);
    assert.deepEqual(names, ["read_file", "list_dir", "search_files", "write_file", "edit_file"]);
    assert.ok(find(build({ network: { fetch: true } }), "web_fetch"));
  });

  test("web_fetch always requires approval and is classed as network (harness #11)", () => {
    const d = find(build({ network: { fetch: true } }), "web_fetch")!.definition;
    assert.equal(d.requiresApproval, true);
    assert.equal(d.effectClass, "network");
  });

  test("web_fetch identifies Hearth's exact version and returns page text (harness #11)", async () => {
    const r = await call(find(build({ network: { fetch: true } }), "web_fetch")!, { url: `${base}/redirect` });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /Hello & welcome/);
    assert.doesNotMatch(r.output, /evil/);
    assert.equal(userAgents.at(-1), `Hearth/${pkg.version}`);
  });

  test("web_fetch reads a page as its text: comments, attributes, entities and link targets as a person sees them", async () => {
    const r = await call(find(build({ network: { fetch: true } }), "web_fetch")!, { url: `${base}/article` });
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /Title/i);
    assert.match(r.output, /It\u2019s \u2014 fine/);
    assert.match(r.output, /docs/);
    for (const leaked of ["hidden", 'b">', "secret-target", "color:red", "&#8217;"])
      assert.ok(!r.output.includes(leaked), `${leaked} leaked: ${r.output}`);
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
});
