// The demo crate's benchgate.yml for tests that run the real tools: short Criterion and
// hyperfine settings (one round near two seconds), and one build cache shared by every such test
// file, so the crate's dependencies compile once.
import os from "node:os";
import path from "node:path";
import { ROOT } from "./cli.ts";

export const TEST_CACHE = path.join(ROOT, ".benchgate/test-cache");
export const CARGO_BIN = path.join(os.homedir(), ".cargo/bin");

export interface DemoTestConfig {
  readonly rounds: number;
  readonly bench?: string;
  readonly filter?: string;
  /** YAML appended at the end (a budgets: block). */
  readonly budgets?: string;
}

export function demoTestConfig(options: DemoTestConfig): string {
  return `version: 1
rounds: ${options.rounds}
build:
  - ["cargo", "build", "--release", "--bin", "demo-cli"]
suites:
  - name: micro
    kind: criterion
    bench: ${options.bench ?? "demo"}
    filter: "${options.filter ?? "^(normalize|checksum/fnv1a)$"}"
    args: ["--warm-up-time", "0.05", "--measurement-time", "0.2", "--sample-size", "10"]
  - name: cli
    kind: hyperfine
    warmup: 1
    runs: 5
    args: ["-N"]
    commands:
      - name: help
        command: "{target}/release/demo-cli --help"
golden:
  checksums: baselines/checksums.sha256
  outputs: baselines/golden
  commands:
    - name: cli-help
      command: ["{target}/release/demo-cli", "--help"]
    - name: cli-stats
      command: ["{target}/release/demo-cli", "stats", "--count", "1000"]
${options.budgets ?? ""}`;
}
