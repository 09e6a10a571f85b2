import { describe, expect, it } from "vitest";
import { format } from "prettier";
import { parse } from "yaml";
import { InputError } from "../errors.ts";
import { MAX_SHARDS } from "../core/shard-blocks.ts";
import { PINNED_ACTIONS, pinnedUses } from "./pinned-actions.ts";
import {
  DEFAULT_RUNNER_LABELS,
  HARNESS_DIR,
  MAX_WORKFLOW_SHARDS,
  WORKFLOW_PATHS,
  isPinnedActionRef,
  renderWorkflows,
  type WorkflowOptions,
} from "./workflows.ts";

const PINNED = `owner/repo/action@${"a".repeat(40)}`;
const options = (overrides: Partial<WorkflowOptions> = {}): WorkflowOptions => ({
  actionRef: PINNED,
  runnerLabels: DEFAULT_RUNNER_LABELS,
  defaultBranch: "main",
  ...overrides,
});

type Json = Record<string, unknown>;
interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Json;
  readonly "continue-on-error"?: unknown;
}
interface Job {
  readonly name?: string;
  readonly "runs-on": unknown;
  readonly steps: readonly Step[];
  readonly outputs?: Json;
  readonly strategy?: Json;
  readonly concurrency?: Json;
}

function jobs(text: string): Record<string, Job> {
  return (parse(text) as { jobs: Record<string, Job> }).jobs;
}

describe("renderWorkflows", () => {
  it("writes the three workflows, each parsing as YAML", () => {
    const files = renderWorkflows(options());
    expect([...files.keys()]).toEqual([
      WORKFLOW_PATHS.pr,
      WORKFLOW_PATHS.command,
      WORKFLOW_PATHS.main,
    ]);
    for (const text of files.values()) expect(() => parse(text) as unknown).not.toThrow();
  });

  it("uses a remote action directly, with no build steps", () => {
    for (const text of renderWorkflows(options()).values()) {
      const steps = Object.values(jobs(text)).flatMap((job) => job.steps);
      expect(steps.filter((s) => s.uses === PINNED).length).toBeGreaterThan(0);
      expect(steps.some((s) => s.run !== undefined)).toBe(false);
      expect(text).not.toContain(HARNESS_DIR);
    }
  });

  it("builds a local action from a trusted commit beside the subject, never the subject's copy", () => {
    const trusted = {
      [WORKFLOW_PATHS.pr]: "${{ github.event.pull_request.base.sha }}",
      [WORKFLOW_PATHS.command]: "${{ github.sha }}",
      [WORKFLOW_PATHS.main]: "${{ github.sha }}",
    };
    for (const [file, text] of renderWorkflows(options({ actionRef: "./action" }))) {
      for (const job of Object.values(jobs(text))) {
        const steps = job.steps;
        const gate = steps.findIndex((s) => s.uses?.startsWith("./") === true);
        expect(steps[gate]?.uses).toBe(`./${HARNESS_DIR}/action`);
        const harness = steps.findIndex((s) => s.with?.["path"] === HARNESS_DIR);
        expect(steps[harness]?.with?.["ref"]).toBe(trusted[file as keyof typeof trusted]);
        const build = steps.findIndex((s) => s.run?.includes("npm run build") === true);
        expect(harness).toBeLessThan(build);
        expect(build).toBeLessThan(gate);
        // The subject's checkout cleans the workspace, so it must come before the harness.
        const subject = steps.findIndex((s) => s.with?.["fetch-depth"] === 0);
        if (subject !== -1) expect(subject).toBeLessThan(harness);
      }
    }
  });

  it("passes the pinned commit and the command's options to measure, and the target to report", () => {
    const command = jobs(renderWorkflows(options()).get(WORKFLOW_PATHS.command) ?? "");
    const measure = command["measure"];
    expect(measure?.steps[0]?.with?.["ref"]).toBe("${{ needs.authorize.outputs.head-sha }}");
    expect(measure?.steps.find((s) => s.uses === PINNED)?.with).toEqual({
      mode: "measure",
      out: "${{ runner.temp }}/benchgate",
      "base-sha": "${{ needs.authorize.outputs.base-sha }}",
      "head-sha": "${{ needs.authorize.outputs.head-sha }}",
      rounds: "${{ needs.authorize.outputs.rounds }}",
      filter: "${{ needs.authorize.outputs.filter }}",
    });
    const report = command["report"];
    // The report job checks out the base commit (for its config), never the pinned head.
    expect(report?.steps[0]?.with?.["ref"]).toBe("${{ needs.authorize.outputs.base-sha }}");
    expect(report?.steps.find((s) => s.uses === PINNED)?.with).toEqual({
      mode: "report",
      results: "${{ runner.temp }}/measured",
      "measure-result": "${{ needs.measure.result }}",
      out: "${{ runner.temp }}/benchgate",
      "base-sha": "${{ needs.authorize.outputs.base-sha }}",
      "head-sha": "${{ needs.authorize.outputs.head-sha }}",
      "pr-number": "${{ needs.authorize.outputs.pr-number }}",
      "command-comment-id": "${{ needs.authorize.outputs.comment-id }}",
      rounds: "${{ needs.authorize.outputs.rounds }}",
      filter: "${{ needs.authorize.outputs.filter }}",
      "check-id": "${{ needs.authorize.outputs.check-id }}",
    });
    expect(Object.keys(command["authorize"]?.outputs ?? {}).sort()).toEqual(
      [
        "base-sha",
        "check-id",
        "comment-id",
        "filter",
        "head-sha",
        "pr-number",
        "rounds",
        "run",
      ].sort(),
    );
  });

  it("writes the runner labels and default branch as YAML that reads back as strings", () => {
    const files = renderWorkflows(
      options({ runnerLabels: ["self-hosted", "true", "2025", "bench.box"], defaultBranch: "on" }),
    );
    const main = parse(files.get(WORKFLOW_PATHS.main) ?? "") as {
      on: { push: { branches: unknown[] } };
      jobs: { measure: Job };
    };
    expect(main.on.push.branches).toEqual(["on"]);
    expect(main.jobs.measure["runs-on"]).toEqual(["self-hosted", "true", "2025", "bench.box"]);
  });

  it("refuses values that could change the workflow's meaning", () => {
    const bad: Partial<WorkflowOptions>[] = [
      { actionRef: "owner/repo@v1 # x" },
      { actionRef: "owner/repo@${{ github.head_ref }}" },
      { actionRef: 'owner/repo@"v1"' },
      { actionRef: "owner/repo" },
      { actionRef: "docker://alpine:3" },
      { actionRef: "owner/../repo@v1" },
      { actionRef: "./../outside" },
      { actionRef: "./a\nrun: x" },
      { runnerLabels: [] },
      { runnerLabels: ["self-hosted", "has space"] },
      { runnerLabels: ["[x]"] },
      { defaultBranch: "main\n  - dev" },
      { defaultBranch: "a..b" },
      { defaultBranch: "-x" },
      { defaultBranch: "release/" },
    ];
    for (const b of bad)
      expect(() => renderWorkflows(options(b)), JSON.stringify(b)).toThrow(InputError);
  });

  it("accepts usual refs and says which are pinned to a commit", () => {
    for (const ref of ["owner/repo@v1", "owner/repo/action@v0.1.2", PINNED, "./action", "./a/b"])
      expect(() => renderWorkflows(options({ actionRef: ref }))).not.toThrow();
    expect(isPinnedActionRef(PINNED)).toBe(true);
    expect(isPinnedActionRef("./action")).toBe(true);
    expect(isPinnedActionRef("owner/repo@v1")).toBe(false);
    expect(isPinnedActionRef(`owner/repo@${"A".repeat(40)}`)).toBe(false);
  });

  it("pins every third-party action it uses to a 40-hex commit with its version", () => {
    for (const [name, pin] of Object.entries(PINNED_ACTIONS)) {
      expect(pin.sha).toMatch(/^[0-9a-f]{40}$/);
      // dtolnay/rust-toolchain makes no releases: its pin is the head of its stable branch.
      expect(pin.version).toMatch(name === "rustToolchain" ? /^stable$/ : /^v\d+\.\d+\.\d+$/);
    }
    const text = [...renderWorkflows(options({ actionRef: "./action" })).values()].join("\n");
    for (const name of ["checkout", "setupNode", "uploadArtifact", "rustToolchain"] as const)
      expect(text).toContain(`uses: ${pinnedUses(name)}`);
    const hosted = [...renderWorkflows(options({ runner: "github-hosted" })).values()].join("\n");
    expect(hosted).toContain(`uses: ${pinnedUses("rustCache")}`);
  });

  it("installs the Rust toolchain before measuring; caches cargo only on a GitHub-hosted runner", () => {
    for (const runner of ["self-hosted", "github-hosted"] as const) {
      for (const [file, text] of renderWorkflows(options({ runner }))) {
        const steps = jobs(text)["measure"]?.steps ?? [];
        const toolchain = steps.findIndex(
          (s) =>
            s.uses === PINNED_ACTIONS.rustToolchain.action + "@" + PINNED_ACTIONS.rustToolchain.sha,
        );
        const cache = steps.findIndex(
          (s) => s.uses?.startsWith(`${PINNED_ACTIONS.rustCache.action}@`) === true,
        );
        const measure = steps.findIndex((s) => s.with?.["mode"] === "measure");
        expect(steps[toolchain]?.with?.["toolchain"], file).toBe("stable");
        expect(toolchain, file).toBeLessThan(measure);
        if (runner === "self-hosted") {
          expect(cache, file).toBe(-1);
          continue;
        }
        expect(cache, file).toBeGreaterThan(toolchain);
        expect(cache, file).toBeLessThan(measure);
        // Only pushes to the default branch write the cache: a /rebench run shares the default
        // branch's cache scope and may run a fork's code.
        expect(steps[cache]?.with?.["save-if"], file).toBe(file === WORKFLOW_PATHS.main);
        expect(steps[cache]?.with?.["cache-directories"], file).toBe("~/.cache/benchgate");
        expect(
          steps.some(
            (s) => s.run?.includes("install -y --no-install-recommends valgrind") === true,
          ),
          file,
        ).toBe(true);
      }
    }
  });

  it("with --runner github-hosted measures on ubuntu-latest, with no self-hosted label, and says what that costs", () => {
    for (const [file, text] of renderWorkflows(options({ runner: "github-hosted" }))) {
      for (const [id, job] of Object.entries(jobs(text)))
        expect(job["runs-on"], `${file} ${id}`).toBe("ubuntu-latest");
      expect(text).not.toMatch(/self-hosted|benchgate\]/);
      expect(text).toMatch(/timing verdicts are wider/);
      expect(text).toMatch(/Instruction counts \(gungraun suites,\n# under Valgrind\)/);
    }
    // The self-hosted workflows say nothing of it.
    for (const text of renderWorkflows(options()).values())
      expect(text).not.toMatch(/GitHub-hosted \(`benchgate init/);
    expect(() => renderWorkflows(options({ runner: "cloud" as "github-hosted" }))).toThrow(
      InputError,
    );
  });

  it("marks an action ref that is not a commit SHA where it is used, and leaves it for zizmor to report", () => {
    const text = [...renderWorkflows(options({ actionRef: "owner/repo/action@v1" })).values()].join(
      "\n",
    );
    const uses = text.split("\n").filter((line) => line.includes("owner/repo/action@v1"));
    expect(uses.length).toBe(7);
    for (const line of uses)
      expect(line).toMatch(
        /uses: owner\/repo\/action@v1 # NOT PINNED: use the release's 40-hex commit SHA/,
      );
    expect([...renderWorkflows(options()).values()].join("\n")).not.toContain("NOT PINNED");
  });

  it("is already formatted as prettier formats YAML, at 80 and 100 columns", async () => {
    for (const [actionRef, runner] of [
      [PINNED, "self-hosted"],
      ["./action", "self-hosted"],
      [PINNED, "github-hosted"],
    ] as const) {
      // 18 shards: the longest matrix written as [1, …] on one line; 19: the first block list.
      for (const shards of [1, 2, 18, 19, 64]) {
        for (const text of renderWorkflows(options({ actionRef, shards, runner })).values()) {
          for (const printWidth of [80, 100])
            expect(await format(text, { parser: "yaml", printWidth })).toBe(text);
        }
      }
    }
  });
});

describe("renderWorkflows with shards", () => {
  const ARTIFACT = "benchgate-measured-${{ github.run_attempt }}";

  it("writes exactly today's workflows for one shard", () => {
    for (const actionRef of [PINNED, "./action"])
      expect(renderWorkflows(options({ actionRef, shards: 1 }))).toEqual(
        renderWorkflows(options({ actionRef })),
      );
  });

  it("makes the measure job a matrix that never cancels a shard, and names the shard", () => {
    for (const [file, text] of renderWorkflows(options({ shards: 3 }))) {
      const measure = jobs(text)["measure"];
      expect(measure?.strategy, file).toEqual({ "fail-fast": false, matrix: { shard: [1, 2, 3] } });
      expect(measure?.name, file).toBe("measure (shard ${{ matrix.shard }}/3)");
      // Every shard on a runner with the same labels: the machines are meant to be identical.
      expect(measure?.["runs-on"], file).toEqual([...DEFAULT_RUNNER_LABELS]);
      const gate = measure?.steps.find((s) => s.uses === PINNED);
      expect(gate?.with?.["mode"], file).toBe("measure");
      expect(gate?.with?.["shard"], file).toBe("${{ matrix.shard }}/3");
      const upload = measure?.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
      expect(upload?.with?.["name"], file).toBe(`${ARTIFACT}-shard-\${{ matrix.shard }}`);
      expect(upload?.with?.["path"], file).toBe("${{ runner.temp }}/benchgate");
    }
  });

  it("has the report job fetch every shard into shard-<i> and tell the action how many there are", () => {
    for (const [file, text] of renderWorkflows(options({ shards: 3 }))) {
      const report = jobs(text)["report"];
      const fetches = report?.steps.filter((s) => s.uses?.startsWith("actions/download-artifact@"));
      expect(
        fetches?.map((s) => s.with),
        file,
      ).toEqual(
        [1, 2, 3].map((i) => ({
          name: `${ARTIFACT}-shard-${i}`,
          path: `\${{ runner.temp }}/measured/shard-${i}`,
        })),
      );
      // A shard that left no artifact is the action's error verdict, not a stopped job.
      for (const fetch of fetches ?? []) expect(fetch["continue-on-error"], file).toBe(true);
      const gate = report?.steps.find((s) => s.uses === PINNED);
      expect(gate?.with, file).toMatchObject({
        mode: "report",
        results: "${{ runner.temp }}/measured",
        shards: 3,
        "measure-result": "${{ needs.measure.result }}",
      });
      expect(gate?.with?.["shard"], file).toBeUndefined();
      // The decision comes after every fetch.
      expect(report?.steps.at(-1), file).toBe(gate);
    }
  });

  it("gives each shard of a command run its own concurrency group, so siblings never cancel each other", () => {
    const command = jobs(renderWorkflows(options({ shards: 2 })).get(WORKFLOW_PATHS.command) ?? "");
    expect(command["measure"]?.concurrency).toEqual({
      group: "benchgate-command-${{ github.event.issue.number }}-shard-${{ matrix.shard }}",
      "cancel-in-progress": true,
    });
    const single = jobs(renderWorkflows(options()).get(WORKFLOW_PATHS.command) ?? "");
    expect(single["measure"]?.concurrency).toEqual({
      group: "benchgate-command-${{ github.event.issue.number }}",
      "cancel-in-progress": true,
    });
  });

  it("writes a long matrix as a block list that reads back as every shard", () => {
    const text = renderWorkflows(options({ shards: 64 })).get(WORKFLOW_PATHS.main) ?? "";
    const shards = Array.from({ length: 64 }, (_, i) => i + 1);
    expect(jobs(text)["measure"]?.strategy?.["matrix"]).toEqual({ shard: shards });
    expect(text).toContain("        shard:\n          - 1\n          - 2\n");
    expect(jobs(text)["report"]?.steps.filter((s) => s.with?.["path"] !== undefined)).toHaveLength(
      64,
    );
  });

  it("refuses a shard count that is not a whole number from 1 to 64, the action's own limit", () => {
    expect(MAX_WORKFLOW_SHARDS).toBe(MAX_SHARDS);
    for (const shards of [0, -1, 65, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => renderWorkflows(options({ shards })), String(shards)).toThrow(
        /shards: give a whole number from 1 to 64/,
      );
  });
});
