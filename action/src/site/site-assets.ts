// The page's app script and stylesheet (action/site/, uPlot bundled in). The dist bundles carry
// them as a string constant that scripts/build.ts defines at build time, so the published CLI
// and action need no node_modules and no build step at run time; from TypeScript sources
// (tests, `npm run benchgate`) they are bundled on first use with esbuild, a dev dependency, so
// an edit to the page shows up without a rebuild and nothing stale can be picked up.

// The bundler defines the shape it produces; imports run from here to it, never back.
import type { SiteAssets } from "./build-site-bundle.ts";

export type { SiteAssets };

// JSON text put in by esbuild's `define` in dist/*.js; undeclared (typeof "undefined") in sources.
declare const BENCHGATE_SITE_ASSETS: string | undefined;

let fromSources: Promise<SiteAssets> | undefined;

export function loadSiteAssets(): Promise<SiteAssets> {
  if (typeof BENCHGATE_SITE_ASSETS !== "undefined")
    return Promise.resolve(JSON.parse(BENCHGATE_SITE_ASSETS) as SiteAssets);
  fromSources ??= import("./build-site-bundle.ts").then((m) => m.buildSiteBundle());
  return fromSources;
}
