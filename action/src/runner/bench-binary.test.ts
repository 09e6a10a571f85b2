import { describe, expect, it } from "vitest";
import { benchBinaryOf } from "./bench-binary.ts";

const PATHS = { worktree: "/tmp/wt/base", target: "/cache/target-base" };
/** A message as cargo 1.95 prints it for `cargo bench --no-run --message-format=json-…`. */
const artifact = (fields: { name?: string; kind?: unknown; exe?: unknown; manifest?: unknown }) =>
  JSON.stringify({
    reason: "compiler-artifact",
    package_id: "path+file:///tmp/wt/base#demo-crate@0.1.0",
    manifest_path: "manifest" in fields ? fields.manifest : "/tmp/wt/base/crates/demo/Cargo.toml",
    target: {
      kind: fields.kind ?? ["bench"],
      crate_types: ["bin"],
      name: fields.name ?? "demo",
      src_path: "/tmp/wt/base/crates/demo/benches/demo.rs",
    },
    profile: { opt_level: "3", test: true },
    features: [],
    filenames: ["/cache/target-base/release/deps/demo-0bee31d624d3f9af"],
    executable:
      "exe" in fields ? fields.exe : "/cache/target-base/release/deps/demo-0bee31d624d3f9af",
    fresh: true,
  });
const LIB = JSON.stringify({
  reason: "compiler-artifact",
  manifest_path: "/tmp/wt/base/crates/demo/Cargo.toml",
  target: { kind: ["lib"], name: "demo" },
  executable: null,
});
const FINISHED = JSON.stringify({ reason: "build-finished", success: true });

describe("benchBinaryOf: the bench executable in cargo's JSON messages", () => {
  it("takes the bench target's executable, run in its package's folder", () => {
    const stdout = [LIB, artifact({}), FINISHED, ""].join("\n");
    expect(benchBinaryOf(stdout, "demo", PATHS)).toEqual({
      executable: "/cache/target-base/release/deps/demo-0bee31d624d3f9af",
      cwd: "/tmp/wt/base/crates/demo",
    });
  });

  it("skips other targets, other kinds and lines that are not messages", () => {
    const stdout = [
      "warning: not JSON",
      "{ broken",
      "[1, 2]",
      artifact({ name: "other" }),
      artifact({ kind: ["bin"] }),
      artifact({ kind: "bench" }),
    ].join("\n");
    expect(benchBinaryOf(stdout, "demo", PATHS)).toBeUndefined();
  });

  it("uses no executable outside the side's target directory, nor a package outside its worktree", () => {
    for (const exe of [
      "/usr/bin/true",
      "/cache/target-base/../target-head/release/deps/demo-1",
      "release/deps/demo-1",
      "/cache/target-base",
      7,
    ])
      expect(benchBinaryOf(artifact({ exe }), "demo", PATHS), String(exe)).toBeUndefined();
    for (const manifest of ["/etc/Cargo.toml", "/tmp/wt/head/Cargo.toml", "Cargo.toml", null])
      expect(
        benchBinaryOf(artifact({ manifest }), "demo", PATHS),
        String(manifest),
      ).toBeUndefined();
  });

  it("uses none when the messages name two executables for the target", () => {
    const two = [artifact({}), artifact({ exe: "/cache/target-base/release/deps/demo-ffff" })].join(
      "\n",
    );
    expect(benchBinaryOf(two, "demo", PATHS)).toBeUndefined();
    // The same one twice (a fresh and a rebuilt message) is one.
    expect(benchBinaryOf([artifact({}), artifact({})].join("\n"), "demo", PATHS)).toBeDefined();
  });
});
