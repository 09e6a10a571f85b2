// The demo crate's HTTP server (examples/demo-crate/src/bin/demo-server.rs) as a crate of its
// own, without the demo's benchmark dependencies: what load-suite tests and bench/load-suite.ts
// build for base and head in a few seconds, with no crate to fetch.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEMO_CRATE } from "./git-repo.ts";

const CARGO_TOML = `[package]
name = "demo-crate"
version = "0.1.0"
edition = "2021"
publish = false

[workspace]

[[bin]]
name = "demo-server"
path = "src/bin/demo-server.rs"
`;

export const SERVER_SOURCE = "src/bin/demo-server.rs";

/** Writes the crate into `dir`; returns the server's source, for edits in a head commit. */
export function writeDemoServerCrate(dir: string): string {
  mkdirSync(path.join(dir, "src/bin"), { recursive: true });
  cpSync(path.join(DEMO_CRATE, "src/lib.rs"), path.join(dir, "src/lib.rs"));
  const server = readFileSync(path.join(DEMO_CRATE, SERVER_SOURCE), "utf8");
  writeFileSync(path.join(dir, SERVER_SOURCE), server);
  writeFileSync(path.join(dir, "Cargo.toml"), CARGO_TOML);
  return server;
}

/** The server with every request `ms` milliseconds slower (its EXTRA_DELAY_MS constant). */
export function withDelay(server: string, ms: number): string {
  const slowed = server.replace(
    "const EXTRA_DELAY_MS: u64 = 0;",
    `const EXTRA_DELAY_MS: u64 = ${ms};`,
  );
  if (slowed === server) throw new Error(`${SERVER_SOURCE} has no EXTRA_DELAY_MS = 0 to change`);
  return slowed;
}
