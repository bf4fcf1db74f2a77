// The CUDA build of llama.cpp does not ship in the .vsix; it is offered when this machine could use
// it and installed from the npm registry only when the person confirms (issue 10, item 1). A real
// HTTP registry on 127.0.0.1 serves real npm-style tarballs.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import * as tar from "tar";
import { HEARTH_VERSION } from "../../../../../shared/version.js";
import { CUDA_BUILD, gpuBuildOffer, installGpuBuild } from "../../../../../sidecar/inference/llama/gpuBuilds.js";
import { tempDir } from "../../../../support/kernelProcess.js";

const VERSION = "3.21.1";
const base = { platform: "linux", arch: "x64", nvidiaDriver: true, usingGpu: false as const };

describe("the CUDA build offer", () => {
  it("is offered on linux-x64 with an NVIDIA driver while the model runs on the CPU or Vulkan, saying why", () => {
    const packagesDir = tempDir("gpu-offer");
    const offer = gpuBuildOffer({ ...base, packagesDir });
    assert.deepEqual(offer?.packages, ["@node-llama-cpp/linux-x64-cuda", "@node-llama-cpp/linux-x64-cuda-ext"]);
    assert.match(offer!.reason, /NVIDIA GPU was found, but your model runs on the CPU/);
    assert.match(gpuBuildOffer({ ...base, usingGpu: "vulkan", packagesDir })!.reason, /runs on vulkan/);
  });

  it("is not offered without an NVIDIA driver, on another platform, when CUDA is in use, or once installed", () => {
    const packagesDir = tempDir("gpu-offer");
    assert.equal(gpuBuildOffer({ ...base, nvidiaDriver: false, packagesDir }), null);
    assert.equal(gpuBuildOffer({ ...base, platform: "darwin", packagesDir }), null);
    assert.equal(gpuBuildOffer({ ...base, usingGpu: "cuda", packagesDir }), null);
    for (const p of CUDA_BUILD.packages) {
      fs.mkdirSync(path.join(packagesDir, ...p.split("/")), { recursive: true });
      fs.writeFileSync(path.join(packagesDir, ...p.split("/"), "package.json"), "{}");
    }
    assert.equal(gpuBuildOffer({ ...base, packagesDir }), null);
  });
});

describe("installing the CUDA build from the npm registry", () => {
  const tarballs = new Map<string, Buffer>();
  let slow = false;
  const userAgents: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    userAgents.push(req.headers["user-agent"]);
    const body = tarballs.get(req.url ?? "");
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "content-length": String(body.length) });
    if (!slow) return void res.end(body);
    res.write(body.subarray(0, 1000)); // then stall: the person cancels
  });
  let registry = "";

  before(async () => {
    for (const name of CUDA_BUILD.packages) {
      const src = tempDir("gpu-pkg");
      fs.mkdirSync(path.join(src, "package", "bins"), { recursive: true });
      fs.writeFileSync(path.join(src, "package", "package.json"), JSON.stringify({ name, version: VERSION }));
      fs.writeFileSync(path.join(src, "package", "bins", "llama-addon.node"), Buffer.alloc(200_000, name.length));
      const file = path.join(src, "pkg.tgz");
      await tar.c({ gzip: true, cwd: src, file }, ["package"]);
      tarballs.set(`/${name}/-/${name.split("/")[1]}-${VERSION}.tgz`, fs.readFileSync(file));
    }
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => server.close());

  function packagesDir(): string {
    const dir = tempDir("gpu-install");
    fs.mkdirSync(path.join(dir, "@node-llama-cpp"));
    return dir;
  }

  it("unpacks both packages where node-llama-cpp looks for them, reports progress, installs nothing twice, and names Hearth's exact version as its User-Agent (harness #11)", async () => {
    const dir = packagesDir();
    userAgents.length = 0;
    const progress: number[] = [];
    const installed = await installGpuBuild(CUDA_BUILD, {
      registry,
      packagesDir: dir,
      version: VERSION,
      onProgress: (n) => progress.push(n),
    });
    assert.deepEqual(installed, [...CUDA_BUILD.packages]);
    for (const name of CUDA_BUILD.packages) {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, ...name.split("/"), "package.json"), "utf8")) as { name: string };
      assert.equal(pkg.name, name);
      assert.equal(fs.statSync(path.join(dir, ...name.split("/"), "bins", "llama-addon.node")).size, 200_000);
    }
    assert.ok(progress.length > 0 && progress.at(-1)! > progress[0]!, "progress grows");
    assert.deepEqual(
      fs.readdirSync(path.join(dir, "@node-llama-cpp")).sort(),
      ["linux-x64-cuda", "linux-x64-cuda-ext"],
      "no staging folder is left",
    );
    assert.deepEqual(await installGpuBuild(CUDA_BUILD, { registry, packagesDir: dir, version: VERSION }), []);
    assert.deepEqual(userAgents, [`Hearth/${HEARTH_VERSION}`, `Hearth/${HEARTH_VERSION}`], "one request per package, each naming Hearth");
  });

  it("a cancelled download leaves nothing where node-llama-cpp would load it, and says so", async () => {
    const dir = packagesDir();
    const abort = new AbortController();
    slow = true;
    try {
      const install = installGpuBuild(CUDA_BUILD, {
        registry,
        packagesDir: dir,
        version: VERSION,
        signal: abort.signal,
        onProgress: () => abort.abort(),
      });
      await assert.rejects(install, /cancelled; nothing of it was installed/);
    } finally {
      slow = false;
    }
    assert.deepEqual(fs.readdirSync(path.join(dir, "@node-llama-cpp")), []);
  });

  it("a package the registry does not have fails with what to check, installing nothing", async () => {
    const dir = packagesDir();
    await assert.rejects(installGpuBuild(CUDA_BUILD, { registry, packagesDir: dir, version: "0.0.0" }), /registry answered 404/);
    assert.deepEqual(fs.readdirSync(path.join(dir, "@node-llama-cpp")), []);
  });
});
