#!/usr/bin/env bash
# Prepares a dedicated self-hosted runner for benchmarking with benchgate (see docs/runner-host.md):
# CPU frequency governor "performance" on every CPU, turbo/boost off, optionally SMT off, the
# GitHub runner service pinned to isolated cores (a systemd drop-in with CPUAffinity=), and
# instructions for isolating cores on the kernel command line (never edited by this script).
#
# Idempotent: a setting already in place is left alone. Nothing is changed without --apply;
# --check only reads. sysfs settings do not survive a reboot: run `--apply` again at boot
# (docs/runner-host.md has a oneshot unit for that).
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: prepare-runner-host.sh [--check | --apply] [options]

Modes (default: show what --apply would do, change nothing):
  --check                 Report the current state; exit 0 when pinned, 1 when not.
  --apply                 Make the changes (needs root).

Options:
  --disable-smt           Also turn SMT (hyper-threading) off until reboot; with --check,
                          SMT being on counts as not pinned.
  --cpus LIST             The cores benchmarks run on, as a kernel CPU list (e.g. 2-3 or 2,3,6-7).
                          Default: the cores already isolated (/sys/devices/system/cpu/isolated).
  --runner-service UNIT   The GitHub runner's systemd unit (actions.runner.<owner>-<repo>.<name>.service):
                          write a drop-in that pins it to --cpus with CPUAffinity=; with --check,
                          a missing drop-in counts as not pinned.
  --root DIR              Read and write /sys and /etc under DIR (for testing on a fake tree).
  -h, --help              This help.

Exit codes: 0 done / pinned, 1 not pinned (--check), 2 bad usage, 3 a change failed.
EOF
}

MODE=plan
DISABLE_SMT=0
CPUS=""
RUNNER_SERVICE=""
ROOT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --check) MODE=check ;;
    --apply) MODE=apply ;;
    --disable-smt) DISABLE_SMT=1 ;;
    --cpus) [ $# -ge 2 ] || { echo "--cpus needs a CPU list" >&2; exit 2; }; CPUS="$2"; shift ;;
    --runner-service)
      [ $# -ge 2 ] || { echo "--runner-service needs a unit name" >&2; exit 2; }
      RUNNER_SERVICE="$2"; shift ;;
    --root) [ $# -ge 2 ] || { echo "--root needs a directory" >&2; exit 2; }; ROOT="${2%/}"; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if [ -n "$CPUS" ] && ! [[ "$CPUS" =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]]; then
  echo "--cpus: not a CPU list: $CPUS (expected e.g. 2-3 or 2,3,6-7)" >&2
  exit 2
fi
if [ -n "$RUNNER_SERVICE" ] && ! [[ "$RUNNER_SERVICE" =~ ^[A-Za-z0-9@._:-]+\.service$ ]]; then
  echo "--runner-service: not a systemd service name: $RUNNER_SERVICE" >&2
  exit 2
fi
if [ "$MODE" = apply ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
  echo "--apply needs root (run it with sudo)" >&2
  exit 2
fi

CPU_DIR="$ROOT/sys/devices/system/cpu"
DROPIN_NAME="50-benchgate-pinning.conf"
NOT_PINNED=0
FAILED=0

ok() { printf '  ok    %s\n' "$*"; }
info() { printf '  info  %s\n' "$*"; }
bad() { printf '  FAIL  %s\n' "$*"; NOT_PINNED=1; }
would() { printf '  plan  %s\n' "$*"; }
changed() { printf '  done  %s\n' "$*"; }
error() { printf '  ERROR %s\n' "$*" >&2; FAILED=1; }

read_file() { if [ -r "$1" ]; then tr -d '\n' <"$1"; fi; }

# Writes VALUE to a sysfs FILE when it differs (plan mode only says so).
set_value() {
  local file="$1" value="$2" what="$3" current
  current="$(read_file "$file")"
  if [ "$current" = "$value" ]; then return 0; fi
  if [ "$MODE" = plan ]; then
    would "$what: $current -> $value ($file)"
  elif printf '%s\n' "$value" >"$file" 2>/dev/null; then
    changed "$what: $current -> $value"
  else
    error "$what: could not write $value to $file"
  fi
}

echo "== CPU frequency governor"
shopt -s nullglob
governors=("$CPU_DIR"/cpu[0-9]*/cpufreq/scaling_governor)
if [ ${#governors[@]} -eq 0 ]; then
  info "no cpufreq interface (typical of VMs: the host controls frequency); nothing to set"
else
  for file in "${governors[@]}"; do
    cpu="${file#"$CPU_DIR"/}"
    cpu="${cpu%%/*}"
    current="$(read_file "$file")"
    if [ "$MODE" = check ]; then
      if [ "$current" = performance ]; then ok "$cpu: performance"; else bad "$cpu: $current"; fi
      continue
    fi
    available="$(read_file "${file%scaling_governor}scaling_available_governors")"
    if [ -n "$available" ] && ! [[ " $available " == *" performance "* ]]; then
      error "$cpu: governor performance not offered (available: $available)"
      continue
    fi
    set_value "$file" performance "$cpu governor"
  done
fi

echo "== Turbo / boost"
boosts=("$CPU_DIR"/cpufreq/boost "$CPU_DIR"/cpufreq/policy[0-9]*/boost)
existing_boosts=()
for file in "${boosts[@]}"; do [ -e "$file" ] && existing_boosts+=("$file"); done
if [ -e "$CPU_DIR/intel_pstate/no_turbo" ]; then
  file="$CPU_DIR/intel_pstate/no_turbo"
  if [ "$MODE" = check ]; then
    if [ "$(read_file "$file")" = 1 ]; then ok "intel_pstate turbo off"; else bad "intel_pstate turbo on"; fi
  else
    set_value "$file" 1 "intel_pstate no_turbo"
  fi
elif [ ${#existing_boosts[@]} -gt 0 ]; then
  for file in "${existing_boosts[@]}"; do
    if [ "$MODE" = check ]; then
      if [ "$(read_file "$file")" = 0 ]; then ok "boost off ($file)"; else bad "boost on ($file)"; fi
    else
      set_value "$file" 0 "cpufreq boost"
    fi
  done
else
  info "no turbo/boost control exposed; nothing to set"
fi

echo "== SMT (hyper-threading)"
smt="$(read_file "$CPU_DIR/smt/control")"
case "$smt" in
  "") info "no SMT control exposed" ;;
  notsupported | notimplemented) info "SMT: $smt" ;;
  off | forceoff) ok "SMT: $smt" ;;
  *)
    if [ "$DISABLE_SMT" -eq 1 ]; then
      if [ "$MODE" = check ]; then bad "SMT: $smt (--disable-smt asked for off)"
      else set_value "$CPU_DIR/smt/control" off "SMT"; fi
    else
      info "SMT: $smt (pass --disable-smt to turn it off, or isolate whole cores with their siblings)"
    fi
    ;;
esac

echo "== Isolated cores"
isolated="$(read_file "$CPU_DIR/isolated")"
online="$(read_file "$CPU_DIR/online")"
if [ -n "$isolated" ]; then
  ok "isolated CPUs: $isolated (online: ${online:-unknown})"
else
  if [ "$MODE" = check ]; then bad "no isolated CPUs (online: ${online:-unknown})"; fi
  suggestion="${CPUS:-}"
  if [ -z "$suggestion" ] && [[ "$online" =~ ^0-([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 1 ]; then
    suggestion="1"
    [ "${BASH_REMATCH[1]}" -gt 1 ] && suggestion="1-${BASH_REMATCH[1]}"
  fi
  suggestion="${suggestion:-<LIST>}"
  cat <<EOF
  To isolate cores, add to the kernel command line (this script never edits the bootloader):
      isolcpus=managed_irq,domain,$suggestion nohz_full=$suggestion rcu_nocbs=$suggestion
  e.g. in /etc/default/grub append them to GRUB_CMDLINE_LINUX, run update-grub, reboot.
  Keep CPU 0 (and its SMT sibling) for the OS and the runner's own process; with SMT on,
  isolate both threads of each core (see /sys/devices/system/cpu/cpu*/topology/thread_siblings_list).
EOF
fi
CPUS="${CPUS:-$isolated}"

echo "== Runner service"
if [ -z "$RUNNER_SERVICE" ]; then
  info "no --runner-service given; to pin a job by hand: taskset -c ${CPUS:-<LIST>} <command>"
elif [ -z "$CPUS" ]; then
  if [ "$MODE" = check ]; then bad "cannot pin $RUNNER_SERVICE: no isolated CPUs and no --cpus"
  else error "cannot pin $RUNNER_SERVICE: no isolated CPUs and no --cpus"; fi
else
  dropin_dir="$ROOT/etc/systemd/system/$RUNNER_SERVICE.d"
  dropin="$dropin_dir/$DROPIN_NAME"
  content="# Written by benchgate scripts/prepare-runner-host.sh: run the GitHub runner (and so every
# benchmark it starts) on the isolated cores only.
[Service]
CPUAffinity=$CPUS
"
  current="$(cat "$dropin" 2>/dev/null || true)"
  if [ "$current" = "${content%$'\n'}" ]; then
    ok "$RUNNER_SERVICE pinned to CPUs $CPUS ($dropin)"
  elif [ "$MODE" = check ]; then
    bad "$RUNNER_SERVICE is not pinned to CPUs $CPUS (no matching $dropin)"
  elif [ "$MODE" = plan ]; then
    would "write $dropin:"
    printf '%s' "$content" | sed 's/^/          /'
    would "then: systemctl daemon-reload && systemctl restart $RUNNER_SERVICE"
  else
    mkdir -p "$dropin_dir"
    tmp="$(mktemp "$dropin_dir/.benchgate.XXXXXX")"
    printf '%s' "$content" >"$tmp"
    chmod 0644 "$tmp"
    mv "$tmp" "$dropin"
    changed "wrote $dropin"
    if [ -z "$ROOT" ] && command -v systemctl >/dev/null 2>&1; then
      systemctl daemon-reload
      changed "systemctl daemon-reload; restart the runner when idle: systemctl restart $RUNNER_SERVICE"
    fi
  fi
fi

echo
if [ "$FAILED" -ne 0 ]; then
  echo "some changes failed (see ERROR above)"
  exit 3
fi
case "$MODE" in
  check)
    if [ "$NOT_PINNED" -ne 0 ]; then echo "not pinned (see FAIL above)"; exit 1; fi
    echo "pinned"
    ;;
  plan) echo "nothing changed; run again with --apply (as root) to make the changes marked plan" ;;
  apply) echo "applied; sysfs settings last until reboot (see docs/runner-host.md)" ;;
esac
