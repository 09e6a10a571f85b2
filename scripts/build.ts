// Bundles the CLI and the GitHub action into one ESM file each with esbuild (dist/ is built, not
// committed: workflows in this repository build it before `uses: ./action`).
import { build } from "esbuild";
import { chmod } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The CLI and the GitHub action (action/action.yml runs dist/benchgate-action.js). */
const ENTRIES = [
  { entry: "action/src/cli/index.ts", out: "dist/benchgate.js" },
  { entry: "action/src/action/index.ts", out: "dist/benchgate-action.js" },
] as const;

export async function buildAll(): Promise<void> {
  for (const { entry, out } of ENTRIES) await buildOne(entry, out);
}

async function buildOne(entry: string, out: string): Promise<void> {
  const outfile = path.join(root, out);
  await build({
    entryPoints: [path.join(root, entry)],
    outfile,
    bundle: true,
    platform: "node",
    target: "node24",
    format: "esm",
    sourcemap: "linked",
    legalComments: "linked",
    logLevel: "warning",
    // Some CommonJS dependencies call require() for Node built-ins; give the ESM bundle one.
    banner: {
      js: 'import { createRequire as __bgCreateRequire } from "node:module";\nconst require = __bgCreateRequire(import.meta.url);',
    },
  });
  await chmod(outfile, 0o755);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildAll();
  console.log(`built ${ENTRIES.map((e) => e.out).join(", ")}`);
}
