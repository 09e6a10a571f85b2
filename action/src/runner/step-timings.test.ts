import { describe, expect, it } from "vitest";
import { stepKind } from "./step-timings.ts";

describe("stepKind", () => {
  it("names cargo by its role and a bench executable run directly by what it is", () => {
    expect(stepKind(["cargo", "bench", "--no-run", "--bench", "demo"])).toBe("cargo build");
    expect(stepKind(["cargo", "bench", "--bench", "demo", "--", "--list"])).toBe("cargo bench");
    expect(stepKind(["/usr/bin/hyperfine", "--style", "basic"])).toBe("hyperfine");
    // schedule: pairs runs `target/release/deps/demo-<hash> --bench …`: one name, not one per hash.
    expect(stepKind(["/t/release/deps/demo-0bee31d624d3f9af", "--bench", "--noplot"])).toBe(
      "bench executable",
    );
  });
});
