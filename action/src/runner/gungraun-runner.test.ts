import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { harnessInLock } from "./gungraun-runner.ts";
import { errorOf } from "../../test/support/input-error.ts";

const FIXTURE = new URL("../../test/fixtures/gungraun-0.20/crate/Cargo.lock", import.meta.url);

const lock = (...packages: [string, string][]): string =>
  [
    "version = 4",
    ...packages.map(([n, v]) => `[[package]]\nname = "${n}"\nversion = "${v}"\n`),
  ].join("\n");

describe("harnessInLock: which runner a Cargo.lock asks for", () => {
  it("reads gungraun's version from a real lock file", () => {
    expect(harnessInLock(readFileSync(FIXTURE, "utf8"), "Cargo.lock")).toEqual({
      library: "gungraun",
      version: "0.20.0",
    });
  });

  it("reads iai-callgrind, ignores its runner and macros packages, and finds nothing elsewhere", () => {
    const text = lock(
      ["iai-callgrind", "0.16.1"],
      ["iai-callgrind-runner", "0.16.1"],
      ["serde", "1.0.0"],
    );
    expect(harnessInLock(text, "Cargo.lock")).toEqual({
      library: "iai-callgrind",
      version: "0.16.1",
    });
    expect(harnessInLock(lock(["criterion", "0.8.2"]), "Cargo.lock")).toBeUndefined();
  });

  it("refuses two harness versions: one bench target runs with one runner", () => {
    const text = lock(["gungraun", "0.20.0"], ["gungraun", "0.19.4"]);
    expect(errorOf(() => harnessInLock(text, "Cargo.lock")).message).toMatch(
      /names gungraun 0\.20\.0 and gungraun 0\.19\.4/,
    );
  });

  // The version becomes a folder name and a `cargo install --version` argument (docs/threat-model.md, I8).
  it.each(["../../etc", "0.20.0 --root /", "0.20", "-1.0.0", "0.20.0/x", ""])(
    "refuses the version %j before it reaches a path or a command line",
    (version) => {
      expect(
        errorOf(() => harnessInLock(lock(["gungraun", version]), "Cargo.lock")).message,
      ).toMatch(/gungraun has no valid version in the lock file/);
    },
  );
});
