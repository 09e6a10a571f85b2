#!/usr/bin/env bash
# Installs everything benchgate's tests and demo need on a fresh Debian machine (idempotent):
# Node dependencies (including Node 24 from the npm registry), hyperfine, critcmp, oha, Chromium (the
# history page's browser tests and benchmark drive it headless through playwright-core), the
# workflow linters actionlint and zizmor (into .benchgate/tools, where scripts/lint-workflows.ts
# looks first), and a Rust toolchain check. Run as root or with sudo available for apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1msetup:\033[0m %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then as_root apt-get update -qq; apt_updated=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# Pinned versions of the workflow linters (docs/workflows.md).
ACTIONLINT_VERSION=v1.7.12
ZIZMOR_VERSION=1.32.0
TOOLS="$PWD/.benchgate/tools"

if ! command -v cargo >/dev/null 2>&1; then
  if [ -x "$HOME/.cargo/bin/cargo" ]; then export PATH="$HOME/.cargo/bin:$PATH"; else
    say "cargo not found: install Rust (https://rustup.rs) first"; exit 3; fi
fi

if ! command -v hyperfine >/dev/null 2>&1; then
  say "installing hyperfine (Debian package)"
  apt_install hyperfine
fi

if [ ! -x /usr/bin/chromium ]; then
  # The Debian package, not playwright's browser download (which needs a host we cannot reach).
  say "installing Chromium (Debian package) for the history page's tests"
  apt_install chromium
fi

if [ ! -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then
  # The comment's ✅ ❌ 🔴 in the screenshots docs/images holds (scripts/screenshots.ts).
  say "installing a colour emoji font (Debian fonts-noto-color-emoji) for the comment's screenshots"
  apt_install fonts-noto-color-emoji
fi

if ! command -v valgrind >/dev/null 2>&1; then
  # Instruction counts (gungraun and instructions suites) run under Valgrind.
  say "installing Valgrind (Debian package) for instruction counts"
  apt_install valgrind
fi

# gungraun's runner must be exactly the library's version; benchgate installs the one a crate's
# Cargo.lock names on first use. Installed here ahead of time for the demo crate's version, into
# the folder benchgate looks in (docs/run.md), so the demo and tests do not wait for it.
GUNGRAUN_VERSION=0.20.0
BENCHGATE_TOOLS="${BENCHGATE_TOOLS_DIR:-${BENCHGATE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/benchgate}/tools}"
GUNGRAUN_ROOT="$BENCHGATE_TOOLS/gungraun-runner-$GUNGRAUN_VERSION"
if [ ! -x "$GUNGRAUN_ROOT/bin/gungraun-runner" ]; then
  say "installing gungraun-runner $GUNGRAUN_VERSION (cargo install, ~2 min) into $GUNGRAUN_ROOT"
  mkdir -p "$BENCHGATE_TOOLS"
  (cd "$BENCHGATE_TOOLS" && env -u CARGO_TARGET_DIR cargo install --locked gungraun-runner \
    --version "=$GUNGRAUN_VERSION" --root "$GUNGRAUN_ROOT" --quiet)
fi

# Load suites (kind: load) drive HTTP servers with oha and read its --output-format json.
if ! command -v oha >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/oha" ]; then
  say "installing oha 1.16.0 (cargo install, ~5 min)"
  cargo install oha --version 1.16.0 --locked --quiet
fi

if ! command -v critcmp >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/critcmp" ]; then
  say "installing critcmp 0.1.8 (cargo install, ~1 min)"
  cargo install critcmp --version 0.1.8 --locked --quiet
fi

if [ "$("$TOOLS/bin/actionlint" --version 2>/dev/null | head -n 1)" != "$ACTIONLINT_VERSION" ]; then
  go_bin="$(command -v go || true)"
  if [ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ]; then go_bin=/usr/local/go/bin/go; fi
  if [ -z "$go_bin" ]; then
    say "installing Go (Debian package golang-go) to build actionlint"
    apt_install golang-go
    go_bin="$(command -v go)"
  fi
  go_minor="$("$go_bin" env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')"
  if [ "$go_minor" -lt 21 ] 2>/dev/null; then
    # actionlint needs Go 1.25; Go 1.21+ fetches that toolchain from the module proxy by itself.
    say "warning: $("$go_bin" version) is too old to build actionlint (needs Go >= 1.21): skipped"
  else
    say "installing actionlint $ACTIONLINT_VERSION (go install, ~1 min)"
    # GOTOOLCHAIN=auto overrides Debian's go.env, which pins the installed toolchain.
    if ! log="$(GOBIN="$TOOLS/bin" GOTOOLCHAIN=auto "$go_bin" install \
      "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION" 2>&1)"; then
      printf '%s\n' "$log" >&2; say "installing actionlint failed"; exit 3
    fi
  fi
fi

if [ "$("$TOOLS/venv/bin/zizmor" --version 2>/dev/null)" != "zizmor $ZIZMOR_VERSION" ]; then
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    say "installing python3-venv (Debian package) for zizmor"
    apt_install python3 python3-venv
  fi
  say "installing zizmor $ZIZMOR_VERSION (pip, into .benchgate/tools/venv)"
  rm -rf "$TOOLS/venv"
  python3 -m venv "$TOOLS/venv"
  "$TOOLS/venv/bin/pip" install --quiet --disable-pip-version-check "zizmor==$ZIZMOR_VERSION"
fi

say "installing Node dependencies (npm ci)"
npm ci --no-audit --no-fund --loglevel=error

say "building the CLI bundle"
node_modules/.bin/node scripts/build.ts

say "ready: $(node_modules/.bin/node --version), $(hyperfine --version), $(valgrind --version), gungraun-runner $GUNGRAUN_VERSION, $(/usr/bin/chromium --version 2>/dev/null || echo chromium missing), $(PATH="$HOME/.cargo/bin:$PATH" critcmp --version 2>/dev/null || echo critcmp), $(PATH="$HOME/.cargo/bin:$PATH" oha --version 2>/dev/null || echo oha missing), $(cargo --version), actionlint $("$TOOLS/bin/actionlint" --version 2>/dev/null | head -n 1 || echo missing), $("$TOOLS/venv/bin/zizmor" --version 2>/dev/null || echo zizmor missing)"
