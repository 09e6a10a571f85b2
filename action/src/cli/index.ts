#!/usr/bin/env node
import { main } from "./main.ts";
import { nodeDeps } from "./node-deps.ts";

process.exitCode = await main(
  process.argv.slice(2),
  nodeDeps,
  process.env["BENCHGATE_DEBUG"] === "1",
);
