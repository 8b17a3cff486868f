#!/usr/bin/env bash
# Runs every real-client harness (agents/<agent>/client/run.sh) one after another and prints one
# summary line per agent, then `N passed, M failed` over all checks.
#
# usage: tests/clients/run-all.sh [-v] [AGENT ...]     (default: every agent folder with a client/run.sh)
#   -v   also print every agent's full output (otherwise only its FAIL/KNOWN/SKIP lines)
# Environment: see lib.sh (HOOKC, HOOKC_CLIENTS_CACHE, HOOKC_CLIENTS_TIMEOUT, HOOKC_CLIENTS_WORK).
# Exit status: 0 when nothing failed.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
AGENTS=$(cd "$HERE/../../agents" && pwd)

verbose=0
if [ "${1:-}" = -v ]; then verbose=1; shift; fi
agents=("$@")
if [ "${#agents[@]}" = 0 ]; then
  for d in "$AGENTS"/*/; do [ -x "$d/client/run.sh" ] && agents+=("$(basename "$d")"); done
fi

logs=$(mktemp -d "${HOOKC_CLIENTS_WORK:-${TMPDIR:-/tmp}}/hookc-clients-logs.XXXXXX")
total_pass=0 total_fail=0 total_known=0
summaries=()
for a in "${agents[@]}"; do
  script=$AGENTS/$a/client/run.sh
  log=$logs/$a.log
  if [ ! -x "$script" ]; then
    summaries+=("$(printf '%-9s ERROR  no %s' "$a" "$script")")
    total_fail=$((total_fail + 1))
    continue
  fi
  start=$(date +%s)
  rc=0
  if [ "$verbose" = 1 ]; then
    bash "$script" 2>&1 | tee "$log" || rc=$?
  else
    bash "$script" >"$log" 2>&1 || rc=$?
  fi
  secs=$(($(date +%s) - start))
  line=$(grep '^RESULT ' "$log" | tail -1 || true)
  if [ -z "$line" ]; then
    # The script stopped before its checks finished (install, mock or init failure): one failure.
    summaries+=("$(printf '%-9s ERROR  the harness stopped (exit %s) after %ss; last lines:' "$a" "$rc" "$secs")")
    while IFS= read -r l; do summaries+=("          $l"); done < <(tail -5 "$log")
    summaries+=("          log: $log")
    total_fail=$((total_fail + 1))
    continue
  fi
  p=$(sed -n 's/.* passed=\([0-9]*\).*/\1/p' <<<"$line")
  f=$(sed -n 's/.* failed=\([0-9]*\).*/\1/p' <<<"$line")
  k=$(sed -n 's/.* known=\([0-9]*\).*/\1/p' <<<"$line")
  total_pass=$((total_pass + p)) total_fail=$((total_fail + f)) total_known=$((total_known + k))
  verdict=PASS
  [ "$f" != 0 ] && verdict=FAIL
  summaries+=("$(printf '%-9s %-5s  %2s passed, %s failed, %s known limitation(s) in %ss  (log: %s)' "$a" "$verdict" "$p" "$f" "$k" "$secs" "$log")")
  while IFS= read -r l; do summaries+=("          $l"); done < <(grep -E '^(FAIL|KNOWN|SKIP|NOTE) ' "$log" || true)
done

echo
printf '%s\n' "${summaries[@]}"
[ "$total_known" = 0 ] || echo "$total_known known client limitation(s), counted neither as passed nor as failed"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
