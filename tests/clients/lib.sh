# shellcheck shell=bash disable=SC2034  # variables set here are read by the run.sh scripts
# Shared helpers for the real-client harnesses (agents/<agent>/client/run.sh). Source it.
#
# Environment:
#   HOOKC                   the hookc binary (default: <repo>/target/release/hookc)
#   HOOKC_CLIENTS_CACHE     where clients are installed (default: $HOME/.cache/hookc-clients)
#   HOOKC_CLIENTS_TIMEOUT   seconds each client run may take (default: 120)
#   HOOKC_CLIENTS_WORK      where the per-run temp dirs go (default: $TMPDIR or /tmp)
#   HOOKC_CLIENTS_ARTIFACTS copy every scenario's audit log, mock requests and client output here
#                           (default: <run dir>/artifacts; the run dir is kept and printed)
#
# Every client runs under `env -i` with a fresh HOME and a fresh git workspace, under `timeout`,
# in its own session (killed by its id afterwards). Mocks listen on 127.0.0.1 only and are killed
# on exit by their ids.

HC_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
HC_REPO=$(cd "$HC_DIR/../.." && pwd)
HOOKC=${HOOKC:-$HC_REPO/target/release/hookc}
case $HOOKC in /*) ;; *) HOOKC=$(cd "$(dirname "$HOOKC")" && pwd)/$(basename "$HOOKC") ;; esac
HC_CACHE=${HOOKC_CLIENTS_CACHE:-$HOME/.cache/hookc-clients}
HC_TIMEOUT=${HOOKC_CLIENTS_TIMEOUT:-120}
HC_NODE_DIR=$(dirname "$(command -v node)")
HC_PATH="$HC_NODE_DIR:/usr/local/bin:/usr/bin:/bin"

HC_PIDS=()
HC_PASSED=0
HC_FAILED=0
HC_KNOWN=0
HC_AGENT=""
HC_RUN=""

# The rule reasons the checks look for.
HC_WRITE_REASON="generated.txt is managed elsewhere"
HC_RM_REASON="destructive command"
HC_STOP_REASON="run the tests before you finish"

hc_cleanup() {
  local pid
  for pid in "${HC_PIDS[@]}"; do
    kill -- "-$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
  done
  HC_PIDS=()
}
trap hc_cleanup EXIT
trap 'hc_cleanup; exit 130' INT TERM

hc_say() { printf '%s\n' "$*"; }
hc_info() { printf '    %s\n' "$*"; }
hc_pass() { HC_PASSED=$((HC_PASSED + 1)); printf 'PASS  %s/%s: %s\n' "$HC_AGENT" "$1" "$2"; }
hc_fail() { HC_FAILED=$((HC_FAILED + 1)); printf 'FAIL  %s/%s: %s\n' "$HC_AGENT" "$1" "$2"; }
# An expected, documented limitation of the client (not a pass, not a hookc failure).
hc_known() { HC_KNOWN=$((HC_KNOWN + 1)); printf 'KNOWN %s/%s: %s\n' "$HC_AGENT" "$1" "$2"; }
# hc_check ID MESSAGE CONDITION-RESULT(0|1)
hc_check() { if [ "$3" = 0 ]; then hc_pass "$1" "$2"; else hc_fail "$1" "$2"; fi; }

hc_need() {
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null 2>&1 || { echo "missing tool: $t" >&2; exit 2; }
  done
}

# hc_begin AGENT: checks the tools, makes the run dir.
hc_begin() {
  HC_AGENT=$1
  hc_need node npm jq git timeout setsid
  [ -x "$HOOKC" ] || { echo "hookc not found or not executable: $HOOKC (set HOOKC)" >&2; exit 2; }
  local base=${HOOKC_CLIENTS_WORK:-${TMPDIR:-/tmp}}
  mkdir -p "$base"
  HC_RUN=$(mktemp -d "$base/hookc-client-$HC_AGENT.XXXXXX")
  HC_ARTIFACTS=${HOOKC_CLIENTS_ARTIFACTS:-$HC_RUN/artifacts}
  mkdir -p "$HC_ARTIFACTS"
  hc_say "== $HC_AGENT: real-client harness ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  hc_info "hookc: $HOOKC ($("$HOOKC" --version 2>&1 | head -1))"
  hc_info "run dir: $HC_RUN"
}

# hc_install NAME PACKAGE VERSION BIN_RELATIVE_PATH [VERSION_PACKAGE]
# Installs PACKAGE@VERSION into $HC_CACHE/NAME unless it is already there (the package.json of
# VERSION_PACKAGE, default PACKAGE, says VERSION and the binary exists). Sets HC_BIN.
hc_install() {
  local name=$1 pkg=$2 ver=$3 rel=$4 vpkg=${5:-$2}
  local dir=$HC_CACHE/$name have
  have=$(jq -r '.version // empty' "$dir/node_modules/$vpkg/package.json" 2>/dev/null || true)
  if [ -x "$dir/$rel" ] && [ "$have" = "$ver" ]; then
    hc_info "client: $pkg@$ver (cached in $dir)"
  else
    hc_info "client: installing $pkg@$ver into $dir (have: ${have:-nothing}) ..."
    mkdir -p "$dir"
    # A package.json of its own, so npm does not walk up to some parent project.
    [ -f "$dir/package.json" ] || printf '{"name":"hookc-client-%s","private":true}\n' "$name" >"$dir/package.json"
    if ! (cd "$dir" && timeout 1800 npm install --no-audit --no-fund "$pkg@$ver") >"$dir/install.log" 2>&1; then
      tail -20 "$dir/install.log" >&2
      echo "install of $pkg@$ver failed (log: $dir/install.log)" >&2
      exit 2
    fi
    have=$(jq -r '.version // empty' "$dir/node_modules/$vpkg/package.json" 2>/dev/null || true)
    if [ ! -x "$dir/$rel" ] || [ "$have" != "$ver" ]; then
      echo "install of $pkg@$ver did not give $dir/$rel at $ver (have ${have:-nothing})" >&2
      exit 2
    fi
    hc_info "client: installed $pkg@$ver"
  fi
  HC_BIN=$dir/$rel
}

# The policy every scenario runs with.
hc_write_rules() {
  mkdir -p "$1"
  cat >"$1/policy.rules" <<'EOF'
rule protect-generated pre_tool_use when access == write and path == "generated.txt" => block "hook_blocked" "generated.txt is managed elsewhere"
rule no-rm-home pre_tool_use when runs rm (flags in [r, R, recursive] and operands in ["~", "/"]) => deny "destructive command: {command}"
rule keep-going stop when not stop_hook_active => continue "run the tests before you finish"
EOF
}

# hc_new_run NAME: a fresh scenario dir R with a git workspace WS (holding rules/), a fresh home H
# (with a canary file) and the mock's log dir M. Checks the rules.
hc_new_run() {
  HC_SCN=$1
  R=$HC_RUN/$1
  WS=$R/ws
  H=$R/home
  M=$R/mock
  AUDIT=$R/audit.jsonl
  mkdir -p "$WS" "$H" "$M"
  echo "canary: rm -rf ~ did not run" >"$H/canary.txt"
  git -C "$WS" init -q .
  git -C "$WS" -c user.name=hookc-clients -c user.email=hookc-clients@localhost commit -q --allow-empty -m "empty start"
  hc_write_rules "$WS/rules"
  if ! "$HOOKC" check "$WS/rules" >"$R/check.out" 2>&1; then
    cat "$R/check.out" >&2
    echo "hookc check rejected the policy" >&2
    exit 2
  fi
}

# hc_init AGENT [EXTRA INIT ARGS...]: `hookc init AGENT --write` in the workspace, with the
# audit log. This is what wires hookc into the client. The clients run with a clean PATH that
# has no hookc on it, so the hooks name $HOOKC itself (`--command`): the project's launcher,
# init's default, would rightly find no hookc and block every call
# (agents/claude/client/committed-wiring.sh runs the launcher on the real Claude Code).
# With HC_LAUNCHER=1 the hooks run the project's launcher instead, as init wires a project by
# default, and the client is given HOOKC=$HOOKC (an absolute path outside the workspace) so the
# launcher finds this hookc: the launcher read into the agent's own shell, on the real client.
hc_init() {
  local agent=$1
  shift
  local program=(--command "$HOOKC")
  [ "${HC_LAUNCHER:-0}" = 1 ] && program=()
  if ! (cd "$WS" && "$HOOKC" init "$agent" --write "${program[@]}" --rules rules --audit-log "$AUDIT" "$@") >"$R/init.out" 2>&1; then
    cat "$R/init.out" >&2
    echo "hookc init $agent --write failed" >&2
    exit 2
  fi
}

# hc_remove_policy: the rules dir goes away after init (fail-closed scenario).
hc_remove_policy() { mv "$WS/rules" "$R/rules.removed"; }

# hc_mock anthropic|openai SCENARIO.json: starts the mock on 127.0.0.1 with @WS@ in the
# scenario replaced by the workspace. Sets PORT and MOCK_PID.
hc_mock() {
  local kind=$1 scn=$2 js
  case $kind in
    anthropic) js=$HC_DIR/mocks/anthropic-mock.js ;;
    openai) js=$HC_DIR/mocks/openai-mock.js ;;
    *) echo "unknown mock $kind" >&2; exit 2 ;;
  esac
  sed "s|@WS@|$WS|g" "$scn" >"$R/scenario.json"
  node "$js" "$R/scenario.json" "$M" 0 </dev/null 2>"$R/mock.err" &
  MOCK_PID=$!
  HC_PIDS+=("$MOCK_PID")
  local _
  for _ in $(seq 100); do
    [ -s "$M/port" ] && break
    sleep 0.1
  done
  [ -s "$M/port" ] || { cat "$R/mock.err" >&2; echo "mock did not start" >&2; exit 2; }
  PORT=$(cat "$M/port")
  touch "$M/requests.jsonl"
}

hc_mock_stop() {
  kill "$MOCK_PID" 2>/dev/null || true
  wait "$MOCK_PID" 2>/dev/null || true
}

# hc_client [VAR=value ...] -- COMMAND ARGS...: runs the client in WS with `env -i`, HOME=$H,
# under timeout, in a session of its own (whatever it leaves behind is killed by that id).
# Output in $R/client.out; sets CLIENT_RC and CLIENT_SECS.
hc_client() {
  local envs=()
  while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  case $H in "$HC_RUN"/*) ;; *) echo "refusing to run a client with HOME=$H outside the run dir" >&2; exit 2 ;; esac
  local t0 pid
  t0=$(date +%s)
  if [ -n "${HC_MOVE_POLICY:-}" ]; then
    # The policy goes away mid-session, out of the agent's hands: while the model's second call
    # (three seconds of `sleep 1`) runs, once it is decided.
    (for _ in $(seq 600); do
      if grep -q 'sleep 1; done' "$AUDIT" 2>/dev/null; then mv "$WS/rules" "$R/rules.removed"; break; fi
      sleep 0.1
    done) &
    HC_PIDS+=("$!")
  fi
  [ "${HC_LAUNCHER:-0}" = 1 ] && envs+=("HOOKC=$HOOKC")
  (cd "$WS" && exec setsid timeout -k 10 "$HC_TIMEOUT" env -i PATH="$HC_PATH" HOME="$H" TERM=dumb LANG=C.UTF-8 NO_COLOR=1 "${envs[@]}" "$@") \
    </dev/null >"$R/client.out" 2>&1 &
  pid=$!
  HC_PIDS+=("$pid")
  CLIENT_RC=0
  wait "$pid" || CLIENT_RC=$?
  kill -- "-$pid" 2>/dev/null || true
  CLIENT_SECS=$(($(date +%s) - t0))
  echo "rc=$CLIENT_RC secs=$CLIENT_SECS" >>"$R/client.out"
}

# Drops what the clients unpack or download into a fresh HOME and workspace (Copilot unpacks
# ~235 MB into ~/.cache per HOME; OpenCode and Kilo npm-install their plugin SDK), keeping the
# evidence: settings, transcripts, logs, the mock's records and the audit log.
hc_trim() {
  case $R in "$HC_RUN"/?*) ;; *) return 0 ;; esac
  rm -rf "$R/home/.cache" "$R/home/.npm"
  find "$R" -type d -name node_modules -prune -exec rm -rf {} + 2>/dev/null || true
}

# Saves this scenario's evidence into the artifacts dir.
hc_save() {
  hc_trim
  local d=$HC_ARTIFACTS/$HC_SCN
  mkdir -p "$d"
  cp "$R/client.out" "$d/client.out" 2>/dev/null || true
  cp "$M/requests.jsonl" "$d/mock-requests.jsonl" 2>/dev/null || true
  [ -f "$AUDIT" ] && cp "$AUDIT" "$d/audit.jsonl"
  return 0
}

# --- what the model saw ---------------------------------------------------------------------

# Main (tool-carrying) requests the mock received.
# HC_AUX_PATTERN (optional): a string that marks a client's background requests (they carry
# tools too) so they are not counted as the main loop's.
hc_main_bodies() {
  if [ -n "${HC_AUX_PATTERN:-}" ]; then
    jq -c 'select(.kind == "main") | .body' "$M/requests.jsonl" 2>/dev/null | { grep -vF -- "$HC_AUX_PATTERN" || true; }
  else
    jq -c 'select(.kind == "main") | .body' "$M/requests.jsonl" 2>/dev/null
  fi
}
hc_main_requests() { hc_main_bodies | wc -l | tr -d ' '; }
# How many main requests carry STRING anywhere in their body.
hc_requests_with() { hc_main_bodies | grep -cF -- "$1" || true; }
# The tool results (and user texts after the first answer) in the last main request, one a line.
hc_model_saw() {
  hc_main_bodies | tail -1 | jq -c '.messages // []' 2>/dev/null |
    jq -r '.[] |
      if .role == "tool" then "tool result: " + (.content | if type == "string" then . else tostring end)
      elif (.content | type) == "array" then
        (.content[] | select(type == "object") |
          if .type == "tool_result" then "tool result: " + (.content | if type == "string" then . else tostring end)
          else empty end)
      else empty end' 2>/dev/null | cut -c1-300 || true
}

# How many main requests end in a user prompt (not a tool result) that carries STRING: a hook's
# text the client turned into a new turn (a Stop continuation).
hc_prompts_with() {
  hc_main_bodies | jq -c '.messages[-1] // {} | select(.role == "user") |
      if (.content | type) == "array" then
        select(all(.content[]; (type == "object" and .type == "tool_result") | not)) | [.content[] | .text? // empty] | join(" ")
      else .content | tostring end' 2>/dev/null | grep -cF -- "$1" || true
}

# What the person running the client saw on the terminal: colours, the clients' own log lines
# (--print-logs), JS stack frames and telemetry noise taken out; at most 12 lines.
hc_person_sees() {
  local seen
  seen=$(sed -e 's/\x1b\[[0-9;]*m//g' "$R/client.out" |
    awk '/^(Warning: AI SDK|DeprecationWarning: AI SDK)/{skip=1; next} skip && /^ +at /{next} {skip=0} {print}' |
    grep -vE '^(INFO|WARN|DEBUG) |^timestamp=|^ +at |^rc=[0-9]+ secs=|PostHog|posthog|^ *(path|errno|code): |^warn: |^\s*$' |
    head -12 || true)
  if [ -n "$seen" ]; then
    printf '%s\n' "$seen" | sed 's/^/      | /'
  else
    echo "      | (nothing at all)"
  fi
}

# --- audit ----------------------------------------------------------------------------------

# One line per audit record: event, tool, target -> decision (rules) reason.
hc_audit_show() {
  if [ ! -s "$AUDIT" ]; then
    hc_info "audit: (no records in $AUDIT)"
    return 0
  fi
  jq -r '"    audit: \(.event) \(.tool // "-") \((.target // "-") | tostring | .[0:60]) -> \(.decision) \(.rules // [] | join(",")) \(.reason // .error // "" | .[0:100])"' "$AUDIT" 2>/dev/null ||
    sed 's/^/    audit(raw): /' "$AUDIT"
}
# hc_audit_has JQ-CONDITION: is there an audit record matching it.
hc_audit_has() { [ -s "$AUDIT" ] && jq -e -s "any(.[]; $1)" "$AUDIT" >/dev/null 2>&1; }

# hc_home_probe: after the allow scenario, HC_HOME_OK=1 if the shell tool's $HOME (written to
# home.txt by the scenario's second call) was the temp home; the rm scenario runs only then.
hc_home_probe() {
  HC_HOME_OK=0
  if [ -f "$WS/home.txt" ] && [ "$(cat "$WS/home.txt")" = "$H" ]; then HC_HOME_OK=1; fi
  hc_info "shell tool's HOME: $(cat "$WS/home.txt" 2>/dev/null || echo '(home.txt missing)') (temp home: $H)"
}

# hc_audit_checks: check 6, from AUDIT_ALLOW, AUDIT_WRITE, AUDIT_RM, AUDIT_FAILCLOSED and
# (if set) AUDIT_STOP: hookc's own audit records say what each call was and what it decided.
hc_audit_checks() {
  local a
  a=$AUDIT
  AUDIT=$AUDIT_ALLOW
  hc_check 6-audit "allow run: a pre_tool_use record for 'echo hi > out.txt' with decision none/allow" \
    "$(hc_audit_has '.event == "pre_tool_use" and (.target // "" | tostring | contains("echo hi")) and (.decision == "none" or .decision == "allow")' && echo 0 || echo 1)"
  AUDIT=$AUDIT_WRITE
  hc_check 6-audit "write run: a pre_tool_use write record decided block by protect-generated" \
    "$(hc_audit_has '.event == "pre_tool_use" and .decision == "block" and ((.rules // []) | index("protect-generated"))' && echo 0 || echo 1)"
  AUDIT=$AUDIT_RM
  hc_check 6-audit "rm run: a pre_tool_use record decided deny by no-rm-home" \
    "$(hc_audit_has '.event == "pre_tool_use" and .decision == "deny" and ((.rules // []) | index("no-rm-home"))' && echo 0 || echo 1)"
  AUDIT=$AUDIT_FAILCLOSED
  if [ -s "$AUDIT" ]; then
    hc_info "fail-closed run: hookc wrote $(wc -l <"$AUDIT" | tr -d ' ') audit record(s) without a policy:"
    hc_audit_show
  else
    hc_info "fail-closed run: no audit record (hookc could not load the policy, and logged nothing)"
  fi
  if [ -n "${AUDIT_STOP:-}" ]; then
    AUDIT=$AUDIT_STOP
    local n
    n=$([ -s "$AUDIT" ] && jq -s '[.[] | select(.event == "stop" and .decision == "continue")] | length' "$AUDIT" || echo 0)
    hc_check 6-audit "stop run: exactly one stop record decided continue by keep-going ($n)" "$([ "$n" = 1 ] && echo 0 || echo 1)"
  fi
  AUDIT=$a
}

# --- the checks, shared by the run.sh scripts ---------------------------------------------------
# Each run.sh defines `run_scenario NAME [nopolicy]`: hc_new_run, hc_init, the client's own
# config, hc_mock, hc_client, hc_mock_stop, then hc_after_run.

hc_after_run() {
  hc_save
  hc_info "[$HC_SCN] client rc=$CLIENT_RC in ${CLIENT_SECS}s, $(hc_main_requests) model requests; the model saw:"
  hc_model_saw | sed 's/^/      /'
  hc_audit_show
}

hc_yes() { if "$@"; then echo 0; else echo 1; fi; }
hc_file_is() { [ "$(cat "$1" 2>/dev/null)" = "$2" ]; }

# 3. an unrelated call passes. Run first: its second call proves the shell tool's HOME is the
# temp home, and only then does the rm scenario run.
hc_do_allow() {
  run_scenario allow
  hc_check 3-allow "echo hi > out.txt ran (out.txt: $(cat "$WS/out.txt" 2>/dev/null || echo missing))" "$(hc_yes hc_file_is "$WS/out.txt" hi)"
  hc_home_probe
  AUDIT_ALLOW=$AUDIT
}

# 1. the protected write. REASON_TO_MODEL=0: the client gives the model no tool result on a block.
hc_do_write() {
  run_scenario write
  hc_check 1-write "write of generated.txt blocked: file not created" "$(hc_yes test ! -e "$WS/generated.txt")"
  local n
  n=$(hc_requests_with "$HC_WRITE_REASON")
  if [ "${REASON_TO_MODEL:-1}" = 1 ]; then
    hc_check 1-write "the rule's reason reached the model ($n requests carry it)" "$(hc_yes test "$n" -ge 1)"
  else
    hc_info "the model was not told ($n requests carry the reason): this client ends the task on a block"
  fi
  AUDIT_WRITE=$AUDIT
}

# 2. rm -rf ~ via the shell tool.
hc_do_rm() {
  if [ "${HC_HOME_OK:-0}" != 1 ]; then
    hc_fail 2-rm "not run: the allow scenario did not show the shell tool's HOME to be the temp home"
    AUDIT_RM=/nonexistent
    return 0
  fi
  run_scenario rm
  hc_check 2-rm "rm -rf ~ blocked: the canary in the temp HOME survived" "$(hc_yes test -f "$H/canary.txt")"
  local n
  n=$(hc_requests_with "$HC_RM_REASON")
  if [ "${REASON_TO_MODEL:-1}" = 1 ]; then
    hc_check 2-rm "the rule's reason reached the model ($n requests carry it)" "$(hc_yes test "$n" -ge 1)"
  else
    hc_info "the model was not told ($n requests carry the reason): this client ends the task on a block"
  fi
  AUDIT_RM=$AUDIT
}

# 4. fail-closed: the rules dir is removed after init, the write scenario runs again.
# Then (if the agent has a midsession.json) the policy goes missing in the middle of a session:
# the model's first call moves rules/ away, its next call writes other.txt (a file the policy
# would allow); other.txt must not be created. That reaches PreToolUse without a policy even on
# clients where a failing UserPromptSubmit already ends the first run. Whether both calls are in
# one model turn or two depends on the client (some run every call's PreToolUse hook before any
# call, some fire UserPromptSubmit again between turns): each midsession.json says.
hc_do_failclosed() {
  run_scenario write nopolicy
  hc_check 4-failclosed "policy missing: generated.txt not created" "$(hc_yes test ! -e "$WS/generated.txt")"
  hc_info "where it stopped: $(hc_main_requests) model requests; audit: $(jq -r '.event + "=" + .decision' "$AUDIT" 2>/dev/null | tr '\n' ' ')"
  hc_info "what the person saw (client rc=$CLIENT_RC):"
  hc_person_sees
  AUDIT_FAILCLOSED=$AUDIT
  local extra
  extra=$(hc_prompts_with "hookc: ")
  if [ "$extra" != 0 ]; then
    hc_say "NOTE  $HC_AGENT/4-failclosed: $extra extra model turn(s) whose prompt is hookc's error: the client took hookc's failing (exit 2) Stop as 'keep going'"
  fi
  if [ -f "$HERE/midsession.json" ]; then
    # The model's first call tries to move the rules away, which the hook refuses (they are its
    # own files); the harness then removes them itself while the second call (three seconds of `sleep 1`) runs,
    # and the third, a write, must be blocked.
    HC_MOVE_POLICY=1 run_scenario midsession
    local moved=no first
    [ -d "$R/rules.removed" ] && [ ! -e "$WS/rules" ] && moved=yes
    first=$(jq -r 'select(.event == "pre_tool_use") | .decision + " " + ((.rules // []) | join(","))' "$AUDIT" 2>/dev/null | head -n1)
    # (Cline ends the task on a refused call: its scenario has no such first call.)
    if grep -q 'mv rules' "$HERE/midsession.json"; then
      hc_check 4-failclosed "the agent's own \`mv rules rules.removed\` refused as the hook's own files ($first)" \
        "$(hc_yes test "$first" = "deny hookc/own-files")"
    fi
    hc_check 4-failclosed "policy removed mid-session by the harness ($moved): the next write (other.txt) not created" \
      "$(hc_yes test "$moved" = yes -a ! -e "$WS/other.txt")"
    hc_info "pre_tool_use audit: $(jq -r 'select(.event == "pre_tool_use") | (.tool // "-") + "=" + .decision' "$AUDIT" 2>/dev/null | tr '\n' ' ')"
  fi
}

# 5. Stop continues exactly once, then the session ends by itself.
hc_do_stop() {
  run_scenario stop
  local n_main n_reason
  n_main=$(hc_main_requests)
  n_reason=$(hc_requests_with "$HC_STOP_REASON")
  hc_check 5-stop "$1 continued once: $n_main model requests (want 2), $n_reason carry the reason (want 1), client rc=$CLIENT_RC (want 0)" \
    "$(hc_yes test "$n_main" = 2 -a "$n_reason" = 1 -a "$CLIENT_RC" = 0)"
  AUDIT_STOP=$AUDIT
}

# --- end --------------------------------------------------------------------------------------

hc_finish() {
  hc_say "artifacts: $HC_ARTIFACTS"
  hc_say "RESULT $HC_AGENT passed=$HC_PASSED failed=$HC_FAILED known=$HC_KNOWN"
  [ "$HC_FAILED" = 0 ]
}

# hc_plugin_agent AGENT PLUGIN_DIR CONFIG_FILE -- ENV=VALUE ...
# The whole run for an agent wired by hookc's JS plugin (OpenCode and its fork Kilo): the same
# checks, with the agent's own plugin folder, config file and environment. The caller has run
# hc_begin and hc_install (HC_BIN is the client). Neither has a Stop hook, so there is no check 5.
hc_plugin_agent() {
  local agent=$1 plugin_dir=$2 config=$3
  shift 4
  local env=("$@") bin=$HC_BIN
  # run_scenario NAME [nopolicy], as every run.sh defines it.
  run_scenario() {
    hc_new_run "$1${2:+-$2}"
    hc_init "$agent"
    [ -f "$WS/$plugin_dir/hookc.js" ] || { echo "init did not write $plugin_dir/hookc.js" >&2; exit 2; }
    if [ "${2:-}" = nopolicy ]; then hc_remove_policy; fi
    hc_mock anthropic "$HC_AGENT_DIR/$1.json"
    cat >"$WS/$config" <<J
{"autoupdate":false,"share":"disabled","model":"anthropic/claude-sonnet-4-5",
 "provider":{"anthropic":{"options":{"baseURL":"http://127.0.0.1:$PORT/v1","apiKey":"dummy"}}},
 "permission":{"bash":"allow","edit":"allow"}}
J
    hc_client "${env[@]}" -- "$bin" run --print-logs "Do the task."
    hc_mock_stop
    hc_after_run
    grep -E 'ERROR|failed to load plugin' "$R/client.out" | grep -v 'models.dev\|posthog' | head -5 | sed 's/^/      log: /' || true
  }
  hc_do_allow
  hc_do_write
  hc_do_rm
  hc_do_failclosed
  hc_say "SKIP  $agent/5-stop: it has no Stop hook (session.idle is observe-only)"
  AUDIT_STOP=""
  hc_audit_checks
  hc_finish
}
