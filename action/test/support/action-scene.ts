// What every test of the bundled action against the local GitHub server starts from: the
// repository and config names, the bot's id, the demo pull request the server serves, the
// checks after each test, and the set-up before the first (Node 24, the bundle, a scratch dir).
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import type { GitHubServer } from "./github-server.ts";
import { ensureBundle, TEST_CACHE } from "./run-action.ts";

export const DEMO_REPOSITORY = "octo-org/benchgate-demo";
/** Where the throw-away repositories keep the demo's test config. */
export const DEMO_CONFIG = "ci/benchgate.test.yml";
/** github-actions[bot]'s numeric user id. */
export const BOT_ID = 41898282;

/** Checks the Node version, builds the bundle if stale, and returns a fresh scratch folder. */
export async function prepareActionTest(name: string): Promise<string> {
  const major = Number(process.versions.node.split(".")[0]);
  expect(
    major,
    "run vitest with Node 24 (PATH=$PWD/node_modules/.bin:$PATH)",
  ).toBeGreaterThanOrEqual(24);
  await ensureBundle();
  mkdirSync(TEST_CACHE, { recursive: true });
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), `benchgate-${name}-`)));
}

/** The demo's pull request (the head patch: ×3 normalize) as the server's seed. */
export function demoPull(number: number, commits: { base: string; head: string }) {
  return {
    number,
    title: "Normalize in three passes",
    head: { sha: commits.head, ref: "feature/normalize" },
    base: { sha: commits.base, ref: "main" },
    user: "alice",
  };
}

/**
 * After each test: no request or response outside GitHub's OpenAPI description, and no injected
 * fault left unmet. Both lists are emptied first, so one test's leftovers never fail the next.
 */
export function expectServerClean(server: GitHubServer): void {
  const violations = server.violations.splice(0);
  const unused = server.faults.splice(0).filter((f) => (f.times ?? 1) > 0);
  expect(violations, "requests or responses outside GitHub's OpenAPI description").toEqual([]);
  expect(unused, "injected faults that no request met").toEqual([]);
}
