import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { benchTargets, harnessOf } from "./cargo-benches.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describe("benchTargets", () => {
  it("finds the example crates' bench targets and their sources", () => {
    for (const [crate, benches] of [
      ["examples/demo-crate", ["demo", "counts"]],
      ["examples/tiny-bench", ["tiny"]],
    ] as const) {
      const toml = readFileSync(path.join(ROOT, crate, "Cargo.toml"), "utf8");
      const found = benchTargets(toml);
      expect(found.benches).toEqual(benches);
      expect(found.skipped).toEqual([]);
      for (const bench of benches)
        expect(readFileSync(path.join(ROOT, crate, found.paths.get(bench) ?? ""), "utf8")).toMatch(
          /fn main|main!/,
        );
    }
  });

  it("takes a target's path from Cargo.toml, else cargo's benches/NAME.rs", () => {
    const toml = [
      "[[bench]]",
      'name = "a"',
      "path = 'perf/a_bench.rs' # moved",
      "harness = false",
      "[[bench]]",
      'name = "b"',
      "harness = false",
    ].join("\n");
    expect([...benchTargets(toml).paths]).toEqual([
      ["a", "perf/a_bench.rs"],
      ["b", "benches/b.rs"],
    ]);
  });

  it("keeps file order, drops duplicates, reads single-quoted names, comments and CRLF", () => {
    const toml = [
      "[package]",
      'name = "not-a-bench"',
      "",
      "[[bench]]  # the parser",
      "name = 'parse'",
      "harness = false # Criterion",
      "",
      "[[ bench ]]",
      "harness = false",
      'name = "render"',
      "[[bench]]",
      'name = "parse"',
      "harness = false",
    ].join("\r\n");
    expect(benchTargets(toml)).toMatchObject({ benches: ["parse", "render"], skipped: [] });
  });

  it("skips libtest benches and names no target can have, saying why", () => {
    const toml = [
      "[[bench]]",
      'name = "libtest"',
      "[[bench]]",
      'name = "has space"',
      "harness = false",
      "[[bench]]",
      "harness = false",
    ].join("\n");
    const found = benchTargets(toml);
    expect(found.benches).toEqual([]);
    expect(found.skipped.map((s) => s.name)).toEqual(["libtest", "has space"]);
    expect(found.skipped[0]?.reason).toContain("harness = false");
  });

  it("ends a bench table at the next table, and ignores keys of other tables", () => {
    const toml = [
      "[[bench]]",
      'name = "a"',
      "[dependencies]",
      "harness = false",
      "[[bin]]",
      'name = "b"',
      "harness = false",
    ].join("\n");
    expect(benchTargets(toml).benches).toEqual([]);
  });

  it("does not read tables out of multi-line strings", () => {
    const toml = [
      "[package]",
      'description = """',
      "[[bench]]",
      'name = "fake"',
      "harness = false",
      '"""',
      "readme = '''",
      "[[bench]]",
      "'''",
      "[[bench]]",
      'name = "real"',
      "harness = false",
    ].join("\n");
    expect(benchTargets(toml).benches).toEqual(["real"]);
  });

  it("is quick on a large file", () => {
    const toml = '[[bench]]\nname = "x"\nharness = false\n'.repeat(20_000) + "#".repeat(100_000);
    const started = performance.now();
    expect(benchTargets(toml).benches).toEqual(["x"]);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("tells gungraun and iai-callgrind benches from Criterion ones by their source", () => {
    const source = (file: string): string => readFileSync(path.join(ROOT, file), "utf8");
    expect(harnessOf(source("examples/demo-crate/benches/counts.rs"))).toBe("gungraun");
    expect(harnessOf(source("action/test/fixtures/gungraun-0.20/crate/benches/sum.rs"))).toBe(
      "gungraun",
    );
    expect(harnessOf(source("action/test/fixtures/iai-callgrind-0.16/crate/benches/sum.rs"))).toBe(
      "gungraun",
    );
    expect(harnessOf(source("examples/demo-crate/benches/demo.rs"))).toBe("criterion");
    // A mention in a comment, or a crate with a similar name, is not a use.
    expect(harnessOf("// ported from gungraun::main!\nuse criterion::Criterion;\n")).toBe(
      "criterion",
    );
    expect(harnessOf("use my_gungraun_utils::x;\n")).toBe("criterion");
    expect(harnessOf("")).toBe("criterion");
  });
});
