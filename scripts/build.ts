// Bundles the CLI into one ESM file with esbuild (dist/ is built, not committed).
import { build } from "esbuild";
import { chmod } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export async function buildAll(): Promise<void> {
  const outfile = path.join(root, "dist/benchgate.js");
  await build({
    entryPoints: [path.join(root, "action/src/cli/index.ts")],
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
  console.log("built dist/benchgate.js");
}
