// Kept equal to package.json's version by a test (bundles should not carry package.json).
export const VERSION = "0.1.0";
export const GENERATOR = Object.freeze({ name: "benchgate", version: VERSION });
