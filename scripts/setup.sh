#!/usr/bin/env bash
# Installs everything benchgate's tests and demo need on a fresh Debian machine (idempotent):
# Node dependencies (including Node 24 from the npm registry), hyperfine, critcmp, and a Rust
# toolchain check. Run as root or with sudo available for apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1msetup:\033[0m %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v cargo >/dev/null 2>&1; then
  if [ -x "$HOME/.cargo/bin/cargo" ]; then export PATH="$HOME/.cargo/bin:$PATH"; else
    say "cargo not found: install Rust (https://rustup.rs) first"; exit 3; fi
fi

if ! command -v hyperfine >/dev/null 2>&1; then
  say "installing hyperfine (Debian package)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hyperfine >/dev/null
fi

if ! command -v critcmp >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/critcmp" ]; then
  say "installing critcmp 0.1.8 (cargo install, ~1 min)"
  cargo install critcmp --version 0.1.8 --locked --quiet
fi

say "installing Node dependencies (npm ci)"
npm ci --no-audit --no-fund --loglevel=error

say "building the CLI bundle"
node_modules/.bin/node scripts/build.ts

say "ready: $(node_modules/.bin/node --version), $(hyperfine --version), $(PATH="$HOME/.cargo/bin:$PATH" critcmp --version 2>/dev/null || echo critcmp), $(cargo --version)"
