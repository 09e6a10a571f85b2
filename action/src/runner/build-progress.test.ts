import { describe, expect, it } from "vitest";
import { BuildProgress, compiledCrate } from "./build-progress.ts";

function watched(status?: (text: string) => void) {
  let now = 0;
  const said: string[] = [];
  const watch = new BuildProgress({
    label: "building base",
    clock: { now: () => now, date: () => new Date(0) },
    write: (text) => said.push(text),
    ...(status === undefined ? {} : { status }),
  });
  return { watch, said, at: (ms: number) => (now = ms) };
}

describe("BuildProgress", () => {
  it("reads cargo's Compiling lines, and nothing else", () => {
    expect(compiledCrate("   Compiling syn v2.0.87")).toBe("syn v2.0.87");
    expect(compiledCrate("   Compiling demo v0.1.0 (/tmp/w/base)")).toBe("demo v0.1.0");
    expect(compiledCrate("    Finished `bench` profile [optimized] target(s) in 1m 02s")).toBe(
      undefined,
    );
  });

  it("a CI log: a changed count at most every 10 s, a heartbeat after 25 s of nothing", () => {
    const { watch, said, at } = watched();
    for (let i = 0; i < 30; i++) {
      at(i * 300);
      watch.line(`   Compiling crate${i} v1.0.${i}`);
    }
    at(10_000);
    watch.line("   Compiling serde v1.0.200");
    expect(said).toEqual(["building base: 0:10 elapsed, 31 crates compiled (now serde v1.0.200)"]);
    // A long link: cargo says nothing; the heartbeat still does.
    at(20_000);
    watch.tick();
    expect(said).toHaveLength(1);
    at(35_000);
    watch.tick();
    expect(said.at(-1)).toBe(
      "building base: 0:35 elapsed, 31 crates compiled (now serde v1.0.200)",
    );
    // A crate compiled since: the next tick after 10 s says it.
    at(36_000);
    watch.line("   Compiling demo v0.1.0 (/w)");
    at(45_000);
    watch.tick();
    expect(said.at(-1)).toBe("building base: 0:45 elapsed, 32 crates compiled (now demo v0.1.0)");
  });

  it("a terminal: crates update the status line; the heartbeat still writes lines", () => {
    const status: string[] = [];
    const { watch, said, at } = watched((text) => status.push(text));
    at(1000);
    watch.line("   Compiling libc v0.2.150");
    expect(status).toEqual(["building base: 0:01 elapsed, 1 crate compiled (now libc v0.2.150)"]);
    at(26_000);
    watch.tick();
    expect(said).toEqual(["building base: 0:26 elapsed, 1 crate compiled (now libc v0.2.150)"]);
  });
});
