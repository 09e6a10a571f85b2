// Bundles the CLI and the GitHub action into one ESM file each with esbuild (dist/ is built, not
// committed: workflows in this repository build it before `uses: ./action`). The history page's
// browser bundle (action/site/, uPlot included) is built first and embedded in both as a
// constant, so `benchgate history site` and the gh-pages writer need nothing at run time.
import { build } from "esbuild";
import { buildSiteBundle } from "../action/src/site/build-site-bundle.ts";
import type { SiteAssets } from "../action/src/site/site-assets.ts";
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
  const site = await buildSiteBundle();
  for (const { entry, out } of ENTRIES) {
    await buildNodeBundle(path.join(root, entry), path.join(root, out), site);
  }
}

/** One Node ESM bundle as dist/ has them (exported for the history page's bundle test). */
export async function buildNodeBundle(
  entryFile: string,
  outfile: string,
  site: SiteAssets,
): Promise<void> {
  await build({
    entryPoints: [entryFile],
    outfile,
    bundle: true,
    platform: "node",
    target: "node24",
    format: "esm",
    sourcemap: "linked",
    legalComments: "linked",
    logLevel: "warning",
    // action/src/site/site-assets.ts reads this instead of bundling the page at run time; its
    // fallback imports esbuild, which stays out of the bundle and is never reached. A string
    // literal (JSON text) is inlined where it is used; an object would become a module of its
    // own with an init call in front of every other module.
    define: { BENCHGATE_SITE_ASSETS: JSON.stringify(JSON.stringify(site)) },
    external: ["esbuild"],
    // Some CommonJS dependencies call require() for Node built-ins; give the ESM bundle one.
    banner: {
      js: 'import { createRequire as __bgCreateRequire } from "node:module";\nconst require = __bgCreateRequire(import.meta.url);',
    },
  });
  await chmod(outfile, 0o755);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildAll();
  // On stderr: as npm's prepack this must not mix into `npm pack --json`'s output.
  process.stderr.write(`built ${ENTRIES.map((e) => e.out).join(", ")}\n`);
}
