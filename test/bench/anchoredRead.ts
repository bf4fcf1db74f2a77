// Anchored read cost as a ratio to fs.readFileSync, both measured in this run (medians over
// rounds). run: node --import tsx test/bench/anchoredRead.ts
// Writes test/bench/results/anchoredRead.json (`rows`: one per size and resolver, for run.mjs's table).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AnchoredWorkspace, type ResolverKind } from "../../sidecar/tools/anchoredFs.js";
import { openFileForRead, readBounded, resolvePath } from "../../sidecar/tools/fileAccess.js";
import { writeBenchResults } from "./support/benchProcess.js";

const ROUNDS = 9;
const SIZES = [
  { label: "1KB", bytes: 1024, iterations: 1000 },
  { label: "1MB", bytes: 1 << 20, iterations: 40 },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timePerOp(iterations: number, fn: () => void): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - t0) / iterations;
}

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hearth-bench-")));
fs.mkdirSync(path.join(dir, "src", "deep"), { recursive: true });
const resolvers: ResolverKind[] = process.platform === "linux" ? ["openat2", "procfd"] : ["pathwalk"];
const results: Record<string, unknown>[] = [];
const rows: { name: string; ours: number; anchor: number; ratio: number; unit: string; anchorName: string }[] = [];
try {
  for (const size of SIZES) {
    const rel = `src/deep/file-${size.label}.txt`;
    const full = path.join(dir, rel);
    fs.writeFileSync(full, "x".repeat(size.bytes - 1) + "\n");
    for (const resolver of resolvers) {
      const ws = AnchoredWorkspace.open(dir, { resolver });
      const anchored = (): void => {
        const p = resolvePath(ws, rel);
        if (!p.ok) throw new Error(p.message);
        const f = openFileForRead(ws, p.path);
        if (!f.ok) throw new Error(f.message);
        try {
          readBounded(f.fd, 16 << 20, Number(f.stat.size));
        } finally {
          fs.closeSync(f.fd);
        }
      };
      const plain = (): void => {
        fs.readFileSync(full);
      };
      anchored();
      plain();
      const a: number[] = [];
      const b: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        // Interleaved rounds so drift on a shared machine hits both sides alike.
        b.push(timePerOp(size.iterations, plain));
        a.push(timePerOp(size.iterations, anchored));
      }
      const row = {
        size: size.label,
        resolver: ws.resolver,
        anchoredMedianUs: +(median(a) / 1000).toFixed(2),
        readFileSyncMedianUs: +(median(b) / 1000).toFixed(2),
        ratio: +(median(a) / median(b)).toFixed(2),
        rounds: ROUNDS,
        iterationsPerRound: size.iterations,
      };
      results.push(row);
      rows.push({
        name: `anchored read of a ${size.label} file (${row.resolver}), per read`,
        ours: row.anchoredMedianUs,
        anchor: row.readFileSyncMedianUs,
        ratio: row.ratio,
        unit: "µs",
        anchorName: "fs.readFileSync",
      });
      console.log(
        `${row.size.padEnd(4)} ${row.resolver.padEnd(8)} anchored ${row.anchoredMedianUs} µs  readFileSync ${row.readFileSyncMedianUs} µs  ratio ${row.ratio}x`,
      );
      ws.close();
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
const out = writeBenchResults("anchoredRead", {
  results,
  rows,
});
console.log(`wrote ${path.relative(process.cwd(), out)}`);
