// The detectors on real recorded Criterion trees (bench/data, see its README): 5 A/A rounds per
// side of examples/tiny-bench and of bs58 0.5.1's own benches, on a shared 2-core VM. The
// bimodal smells there depend on the machine the rounds were recorded on: not asserted.
import { describe, expect, it } from "vitest";
import type { SourcedSummary } from "../core/pairing.ts";
import { ingest } from "../ingest/index.ts";
import { nodeFileReader } from "../io/node-files.ts";
import { kindsOf, ofKind, smellsOf, type ShapedSuite } from "../../test/support/smell-suites.ts";

const DATA = decodeURIComponent(new URL("../../../bench/data", import.meta.url).pathname);

async function recorded(name: string): Promise<ShapedSuite> {
  const dir = `${DATA}/${name}/criterion`;
  const base: SourcedSummary[] = [];
  const head: SourcedSummary[] = [];
  for (let round = 1; round <= 5; round++)
    for (const side of ["base", "head"] as const) {
      const summary = await ingest(
        "criterion",
        dir,
        { baseline: `${side}-${round}`, side, round },
        nodeFileReader,
      );
      (side === "base" ? base : head).push({ source: `${dir}/${side}-${round}`, summary });
    }
  return { base, head };
}

const STRUCTURAL = ["identical-timings", "flat-scaling", "complexity-change", "timer-resolution"];

describe("recorded suites", () => {
  it("tiny-bench raises nothing but underpowered", async () => {
    const suite = await recorded("aa-tiny-bench-0.1.0");
    expect(suite.head[0]?.summary.benchmarks).toHaveLength(11);
    expect(kindsOf(smellsOf(suite))).toEqual(["underpowered"]);
  });

  it("bs58 raises the drift smell for exactly the six */encode_bs58_noalloc benchmarks", async () => {
    // bs58's encode bench does `onto(&mut output)` on one String that grows every iteration.
    const suite = await recorded("aa-bs58-0.5.1");
    expect(suite.head[0]?.summary.benchmarks).toHaveLength(70);
    const smells = smellsOf(suite);
    const drift = ofKind(smells, "high-variance").filter((s) =>
      s.evidence.includes("rises with the sample's position"),
    );
    expect(drift).toHaveLength(1);
    expect([...(drift[0]?.benchmarks ?? [])].sort()).toEqual([
      "10_bytes/encode_bs58_noalloc",
      "10_bytes_max/encode_bs58_noalloc",
      "10_bytes_zero/encode_bs58_noalloc",
      "1_byte/encode_bs58_noalloc",
      "32_bytes/encode_bs58_noalloc",
      "5_bytes/encode_bs58_noalloc",
    ]);
    expect(drift[0]?.suite).toBe("criterion");
    expect(kindsOf(smells).filter((k) => STRUCTURAL.includes(k))).toEqual([]);
    expect(smells.some((s) => s.fails === true)).toBe(false);
  });
});
