// `node scripts/screenshots.ts`: redraws the pictures in docs/images from the tests that take them,
// so the docs show what the code renders today: the PR comment as GitHub renders it (fail, pass,
// inconclusive, the demo's; action/test/comment-rendered.test.ts) and the history page's first
// screen after the demo (action/test/support/history-screenshot.ts, from the demo's recorded
// history). The tests assert on the DOM, never on pixels; this only points their screenshot
// folder at docs/images. Emoji need a colour emoji font (Debian: fonts-noto-color-emoji, which
// scripts/setup.sh installs).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const images = path.join(root, "docs/images");
const TESTS = ["action/test/comment-rendered.test.ts"];

const result = spawnSync(path.join(root, "node_modules/.bin/vitest"), ["run", ...TESTS], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, BENCHGATE_SCREENSHOTS_DIR: images },
});
if (result.status !== 0) {
  process.stderr.write(`screenshots: the tests failed (exit ${String(result.status)})\n`);
  process.exit(1);
}
const page = spawnSync(process.execPath, ["action/test/support/history-screenshot.ts"], {
  cwd: root,
  stdio: "inherit",
});
if (page.status !== 0) {
  process.stderr.write(`screenshots: the history page's failed (exit ${String(page.status)})\n`);
  process.exit(1);
}
process.stderr.write(`screenshots: written to ${path.relative(root, images)}/\n`);
