// Bundles the history page's browser code (action/site/main.ts, with uPlot and its CSS) into
// one script and one stylesheet with esbuild. Called by scripts/build.ts, which embeds the
// result in the dist bundles, and by site-assets.ts when running from sources.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ToolError } from "../errors.ts";

const ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../site/main.ts");

/** Browsers of the last few years; the page uses nothing newer than ES2022 and the CSSOM. */
const TARGETS = ["chrome100", "firefox100", "safari15"];

/** The page's app script and stylesheet, as site-assets.ts hands them to the site writers. */
export interface SiteAssets {
  readonly script: string;
  readonly style: string;
}

export async function buildSiteBundle(): Promise<SiteAssets> {
  let esbuild: typeof import("esbuild");
  try {
    esbuild = await import("esbuild");
  } catch (error) {
    throw new ToolError(
      "the history page's script is not built into this copy of benchgate and esbuild is missing: run `npm ci` (or use the bundle from `npm run build`)",
      { cause: error },
    );
  }
  // uPlot's MIT licence asks for its notice in every copy; the minifier drops its header comment.
  const require = createRequire(import.meta.url);
  const uplotDir = path.dirname(require.resolve("uplot/package.json"));
  const { version } = JSON.parse(await readFile(path.join(uplotDir, "package.json"), "utf8")) as {
    version: string;
  };
  const licence = (await readFile(path.join(uplotDir, "LICENSE"), "utf8")).replaceAll("*/", "* /");
  const banner = `/*! benchgate history page. Includes uPlot ${version} (https://github.com/leeoniya/uPlot):\n${licence.trim()}\n*/`;
  let result;
  try {
    result = await esbuild.build({
      entryPoints: { "benchgate-app": ENTRY },
      bundle: true,
      platform: "browser",
      format: "iife",
      target: TARGETS,
      minify: true,
      charset: "ascii",
      legalComments: "none",
      banner: { js: banner, css: banner },
      outdir: "site-bundle",
      write: false,
      logLevel: "silent",
    });
  } catch (error) {
    throw new ToolError(`bundling the history page failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const text = (ext: string): string => {
    const file = result.outputFiles.find((f) => f.path.endsWith(ext));
    if (file === undefined) throw new ToolError(`bundling the history page wrote no ${ext} file`);
    return file.text;
  };
  return { script: text(".js"), style: text(".css") };
}
