// `benchgate init` through the real CLI, in throw-away directories.
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  existsSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { validateConfig } from "../src/schemas/validate-document.ts";
import { DEFAULT_ACTION_REF, WORKFLOW_PATHS } from "../src/init/workflows.ts";
import { ROOT, expectInputError, runCli } from "./support/cli.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "benchgate-init-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
function freshDir(cargoToml?: string): string {
  const dir = path.join(scratch, `repo-${++n}`);
  mkdirSync(dir);
  if (cargoToml !== undefined) writeFileSync(path.join(dir, "Cargo.toml"), cargoToml);
  return dir;
}
const read = (dir: string, file: string): string => readFileSync(path.join(dir, file), "utf8");
const PINNED = `my-org/benchgate/action@${"c".repeat(40)}`;
/** `benchgate init --dir DIR --action-ref PINNED ARGS`. */
const initPinned = (dir: string, ...args: string[]): ReturnType<typeof runCli> =>
  runCli(["init", "--dir", dir, "--action-ref", PINNED, ...args]);
const ALL_FILES = [...Object.values(WORKFLOW_PATHS), "benchgate.yml", ".github/actionlint.yaml"];

describe("benchgate init", () => {
  it("writes the workflows and a valid benchgate.yml with the crate's Criterion and gungraun benches", () => {
    const dir = freshDir(read(path.join(ROOT, "examples/demo-crate"), "Cargo.toml"));
    cpSync(path.join(ROOT, "examples/demo-crate/benches"), path.join(dir, "benches"), {
      recursive: true,
    });
    const r = runCli(["init", "--dir", dir, "--action-ref", PINNED]);
    expect(r.status, r.stderr).toBe(0);
    for (const file of ALL_FILES) expect(r.stdout).toContain(`wrote ${path.join(dir, file)}`);
    expect(r.stdout).toMatch(/Next steps:[\s\S]*self-hosted runner[\s\S]*"benchgate" check/);
    expect(r.stdout).toContain("prepare-runner-host.sh");
    expect(r.stderr).toBe("");
    const config = validateConfig(parse(read(dir, "benchgate.yml")) as unknown, "benchgate.yml");
    // benches/demo.rs uses Criterion, benches/counts.rs gungraun (instruction counts).
    expect(config.suites).toEqual([
      expect.objectContaining({ kind: "criterion", bench: "demo" }),
      { name: "counts", kind: "gungraun", bench: "counts" },
    ]);
    expect(read(dir, WORKFLOW_PATHS.pr)).toContain(`uses: ${PINNED}\n`);
    // actionlint knows self-hosted, linux and x64, but not the runner's own label.
    expect(parse(read(dir, ".github/actionlint.yaml"))).toEqual({
      "self-hosted-runner": { labels: ["benchgate"] },
    });
    // The closing lines say how to try it before committing anything.
    expect(r.stdout).toContain(
      `\n  cd ${dir} && benchgate run --config benchgate.yml --base HEAD~1 --head HEAD\n`,
    );
  });

  it("--runner github-hosted measures on ubuntu-latest, writes no label config, and says what that costs", () => {
    const dir = freshDir();
    const r = initPinned(dir, "--runner", "github-hosted", "--bench", "parse");
    expect(r.status, r.stderr).toBe(0);
    for (const file of Object.values(WORKFLOW_PATHS)) {
      const text = read(dir, file);
      const { jobs } = parse(text) as { jobs: Record<string, { "runs-on": unknown }> };
      expect(jobs["measure"]?.["runs-on"], file).toBe("ubuntu-latest");
      expect(text, file).not.toContain("self-hosted");
      expect(text, file).toContain("timing verdicts are wider");
    }
    expect(existsSync(path.join(dir, ".github/actionlint.yaml"))).toBe(false);
    expect(read(dir, "benchgate.yml")).toContain("gungraun\n# suites count instructions");
    expect(r.stdout).toContain("runner: GitHub-hosted (ubuntu-latest)");
    expect(r.stdout).not.toContain("prepare-runner-host.sh");
    expect(r.stdout).toContain("benchgate run --config benchgate.yml");
  });

  it("keeps an existing actionlint config, and says which labels it lacks", () => {
    const dir = freshDir();
    mkdirSync(path.join(dir, ".github"));
    const mine = "self-hosted-runner:\n  labels: [gpu]\n";
    writeFileSync(path.join(dir, ".github/actionlint.yaml"), mine);
    const r = initPinned(dir, "--bench", "b", "--force");
    expect(r.status, r.stderr).toBe(0);
    expect(read(dir, ".github/actionlint.yaml")).toBe(mine);
    expect(r.stdout).toContain("its self-hosted-runner labels must include benchgate");
    writeFileSync(
      path.join(dir, ".github/actionlint.yaml"),
      "self-hosted-runner:\n  labels: [gpu, benchgate]\n",
    );
    const again = initPinned(dir, "--bench", "b", "--force");
    expect(again.stdout).not.toContain("actionlint.yaml");
  });

  it("takes --bench, --runner-labels and --default-branch", () => {
    const dir = freshDir();
    const r = runCli([
      "init",
      "--dir",
      dir,
      "--action-ref",
      PINNED,
      "--runner-labels",
      "self-hosted, linux,bench-1",
      "--default-branch",
      "trunk",
      "--bench",
      "parse",
      "render",
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(read(dir, WORKFLOW_PATHS.main)).toContain("branches: [trunk]");
    expect(read(dir, WORKFLOW_PATHS.pr)).toContain("runs-on: [self-hosted, linux, bench-1]");
    expect(read(dir, "benchgate.yml")).toMatch(/bench: parse[\s\S]*bench: render/);
  });

  it("--shards 3 writes the measure job as a matrix of three and the report job over all of them", () => {
    const dir = freshDir();
    const r = runCli(["init", "--dir", dir, "--action-ref", PINNED, "--shards", "3"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("shards: 3 measure jobs per run");
    for (const file of Object.values(WORKFLOW_PATHS)) {
      const { jobs } = parse(read(dir, file)) as {
        jobs: Record<string, { strategy?: unknown; steps: { uses?: string; with?: object }[] }>;
      };
      expect(jobs["measure"]?.strategy, file).toEqual({
        "fail-fast": false,
        matrix: { shard: [1, 2, 3] },
      });
      const gate = (job: string): object | undefined =>
        jobs[job]?.steps.find((s) => s.uses === PINNED)?.with;
      expect(gate("measure"), file).toMatchObject({ shard: "${{ matrix.shard }}/3" });
      expect(gate("report"), file).toMatchObject({
        shards: 3,
        results: "${{ runner.temp }}/measured",
      });
    }
    // Sequential rounds within the time budget, each shard running its own looks.
    const config = read(dir, "benchgate.yml");
    expect(config).toMatch(/^rounds: auto$/m);
    expect(config).toMatch(/^time-budget: 15m$/m);
    expect(config).toContain("Each shard runs its own rounds");
  });

  it("--shards 1 writes the same workflows as no --shards", () => {
    const [plain, one] = [[], ["--shards", "1"]].map((extra) => {
      const dir = freshDir();
      const r = runCli(["init", "--dir", dir, "--action-ref", PINNED, "--bench", "b", ...extra]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).not.toContain("shards:");
      return Object.values(WORKFLOW_PATHS).map((file) => read(dir, file));
    });
    expect(one).toEqual(plain);
  });

  it("warns when the action is not pinned to a commit, and says when no bench was found", () => {
    const dir = freshDir('[package]\nname = "x"\n');
    const r = runCli(["init", "--dir", dir]);
    expect(r.status, r.stderr).toBe(0);
    // Said where it is used, and left for zizmor to report (unpinned-uses): never hidden.
    expect(read(dir, WORKFLOW_PATHS.pr)).toContain(
      `uses: ${DEFAULT_ACTION_REF} # NOT PINNED: use the release's 40-hex commit SHA`,
    );
    expect(r.stderr).toContain("is not pinned to a commit SHA");
    expect(r.stderr).toContain(
      "benchgate init --action-ref benchgate/benchgate/action@<40-hex SHA> --workflows-only --force",
    );
    expect(r.stderr).toContain("no bench target");
    expect(read(dir, "benchgate.yml")).toContain("# suites:");
  });

  it("refuses to overwrite, naming the files and writing nothing; --force replaces them", () => {
    const dir = freshDir();
    mkdirSync(path.join(dir, ".github/workflows"), { recursive: true });
    writeFileSync(path.join(dir, WORKFLOW_PATHS.main), "mine\n");
    writeFileSync(path.join(dir, "benchgate.yml"), "version: 1\n");
    const refused = expectInputError(runCli(["init", "--dir", dir, "--action-ref", PINNED]));
    expect(refused).toContain(`refusing to overwrite ${WORKFLOW_PATHS.main}, benchgate.yml`);
    expect(existsSync(path.join(dir, WORKFLOW_PATHS.pr))).toBe(false);
    expect(read(dir, WORKFLOW_PATHS.main)).toBe("mine\n");

    const forced = runCli([
      "init",
      "--dir",
      dir,
      "--action-ref",
      PINNED,
      "--force",
      "--bench",
      "b",
    ]);
    expect(forced.status, forced.stderr).toBe(0);
    expect(read(dir, WORKFLOW_PATHS.main)).toContain("name: benchgate-main");
    expect(read(dir, "benchgate.yml")).toContain("bench: b");
  });

  it("--workflows-only leaves benchgate.yml alone", () => {
    const dir = freshDir();
    writeFileSync(path.join(dir, "benchgate.yml"), "version: 1\n");
    const r = runCli(["init", "--dir", dir, "--action-ref", PINNED, "--workflows-only"]);
    expect(r.status, r.stderr).toBe(0);
    expect(read(dir, "benchgate.yml")).toBe("version: 1\n");
    expect(existsSync(path.join(dir, WORKFLOW_PATHS.command))).toBe(true);
  });

  it("rejects bad usage with one error line", () => {
    const dir = freshDir();
    const cases: [string[], RegExp][] = [
      [["--action-ref", "x/y@${{ github.head_ref }}"], /action ref/],
      [["--action-ref", "x/y@v1 --force"], /action ref/],
      [["--runner-labels", "a b"], /runner label/],
      [["--runner-labels", " , "], /runner labels/],
      [["--default-branch", "a..b"], /default branch/],
      [["--bench", "no good"], /bench target/],
      [["--shards", "0"], /--shards must be an integer in \[1, 64\], got "0"/],
      [["--shards", "65"], /--shards must be an integer in \[1, 64\], got "65"/],
      [["--shards", "abc"], /--shards must be an integer in \[1, 64\], got "abc"/],
      [["--shards", "2.5"], /--shards must be an integer/],
      [["--runner", "cloud"], /--runner: give self-hosted or github-hosted, got "cloud"/],
      [
        ["--runner", "github-hosted", "--runner-labels", "a"],
        /--runner-labels is for a self-hosted runner/,
      ],
      [["extra"], /no arguments/],
      [["--what"], /unknown option/],
    ];
    for (const [args, message] of cases)
      expect(expectInputError(runCli(["init", "--dir", dir, ...args]), args.join(" "))).toMatch(
        message,
      );
    expect(expectInputError(runCli(["init", "--dir", path.join(dir, "nope")]))).toMatch(
      /not a directory/,
    );
    expect(existsSync(path.join(dir, ".github"))).toBe(false);
  });

  it("has --help and is listed in benchgate --help", () => {
    const help = runCli(["init", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: benchgate init");
    expect(help.stdout).toContain("--action-ref REF");
    expect(help.stdout).toMatch(/--runner KIND {10}where the measure job runs/);
    expect(help.stdout).toMatch(/--shards N {2,}measure on N runners at once \(1 to 64/);
    expect(runCli(["--help"]).stdout).toMatch(/^ {2}init {6}/m);
  });
});
