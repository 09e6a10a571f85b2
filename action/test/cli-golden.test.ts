// `benchgate golden check|update` on a copy of examples/demo-crate (with this repository's
// baselines/ beside it) with the real cargo build.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI_SOURCE, ROOT } from "./support/cli.ts";
import { copyDemoCrate, replaceOnce } from "./support/git-repo.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "benchgate-golden-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
// Only demo-cli is built (no dependencies), into the shared test cache's own folder.
const TARGET = path.join(ROOT, ".benchgate/test-cache/target-golden");

function golden(dir: string, args: readonly string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [CLI_SOURCE, "golden", ...args, "--target-dir", TARGET], {
    cwd: dir,
    encoding: "utf8",
    env: {
      ...process.env,
      PATH: `${path.join(os.homedir(), ".cargo/bin")}:${process.env["PATH"] ?? ""}`,
    },
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe("benchgate golden", { timeout: 300_000 }, () => {
  it("check passes, a changed output fails with a diff, update records it, check passes again", () => {
    const dir = path.join(scratch, "crate");
    copyDemoCrate(dir);
    const checksums = path.join(dir, "baselines/checksums.sha256");
    const before = readFileSync(checksums, "utf8");

    const clean = golden(dir, ["check"]);
    expect(clean.out).toContain("all 2 golden outputs match");
    expect(clean.status).toBe(0);

    const cli = path.join(dir, "src/bin/demo-cli.rs");
    writeFileSync(cli, replaceOnce(readFileSync(cli, "utf8"), "print this help", "print the help"));
    const changed = golden(dir, ["check"]);
    expect(changed.status).toBe(1);
    expect(changed.out).toMatch(/CHANGED\s+cli-help/);
    expect(changed.out).toContain("-  demo-cli help                print this help");
    expect(changed.out).toContain("+  demo-cli help                print the help");
    expect(changed.out).toMatch(/ok\s+cli-stats/);

    const updated = golden(dir, ["update"]);
    expect(updated.status).toBe(0);
    expect(updated.out).toContain("1 of 2 entries changed (cli-help)");
    const after = readFileSync(checksums, "utf8");
    expect(after).not.toBe(before);
    expect(after.split("\n").find((l) => l.endsWith("cli-stats"))).toBe(
      before.split("\n").find((l) => l.endsWith("cli-stats")),
    );
    expect(readFileSync(path.join(dir, "baselines/golden/cli-help.out"), "utf8")).toContain(
      "print the help",
    );
    expect(golden(dir, ["check", "--no-build"]).status).toBe(0);
  });

  it("bad usage and a config without golden: exit 2", () => {
    const dir = path.join(scratch, "bare");
    copyDemoCrate(dir);
    expect(golden(dir, ["verify"]).status).toBe(2);
    writeFileSync(path.join(dir, "benchgate.yml"), "version: 1\n");
    const none = golden(dir, ["check"]);
    expect(none.status).toBe(2);
    expect(none.out).toContain("no golden: block");
  });
});
