#!/bin/sh
# Builds the npm packages as a release would, for this machine's platform (linux-x64-gnu): the
# main package `hookc` and the platform package `@hookc/linux-x64-gnu` (the Node addon and the
# native command), packs both with `npm pack`, installs both tarballs together into a temporary
# project and into a temporary global prefix, and checks what a user gets:
#   - require('hookc') and import 'hookc' decide in-process;
#   - the `hookc` command (npm's Node script) runs the native binary; with the platform package
#     missing it exits 2 with a message;
#   - a project wired by `hookc init` whose launcher finds the global npm install runs the native
#     binary, never Node (HOOKC_NATIVE would make the script run /bin/false).
# No install scripts run (npm's --ignore-scripts is not needed: neither package has any).
# Not part of .ci/run: it builds the release binary and the addon.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
repo=$(CDPATH= cd -- "$here/../.." && pwd)
target=${CARGO_TARGET_DIR:-$repo/target/bindings}
# (A failed build stops here: `| tail` would hide it, and a stale library be packed.)
(cd "$here" && CARGO_TARGET_DIR=$target cargo build --release --locked --quiet)
(cd "$repo" && cargo build --release --locked --quiet)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node "$here/npm/package.mjs" linux-x64-gnu "$work/platform" "$target/release/libhookc_node.so" "$repo/target/release/hookc"
(cd "$here" && npm pack --silent --pack-destination "$work") >/dev/null
(cd "$work/platform" && npm pack --silent --pack-destination "$work") >/dev/null
main=$work/hookc-0.1.0.tgz platform=$work/hookc-linux-x64-gnu-0.1.0.tgz
ls "$main" "$platform" >/dev/null
fail() { echo "FAIL $*" >&2; exit 1; }
pass() { echo "ok - $*"; }
# What the main package holds: no native files, no install scripts.
tar -tzf "$main" | grep -q 'package/hookc.node' && fail "the main package carries a native module"
tar -xzOf "$main" package/package.json | node -e 'const p=JSON.parse(require("fs").readFileSync(0));if(p.scripts&&["preinstall","install","postinstall","prepare"].some(k=>p.scripts[k]))process.exit(1)' ||
    fail "the main package has an install script"
pass "the main package holds no native file and no install script"

# A project that installs both tarballs.
mkdir -p "$work/project" && cd "$work/project"
echo '{"name":"try-hookc","version":"1.0.0","private":true}' >package.json
npm install --silent --no-audit --no-fund "$main" "$platform" >/dev/null 2>"$work/npm.err" || { cat "$work/npm.err" >&2; fail "npm install"; }
[ -f node_modules/@hookc/linux-x64-gnu/hookc.node ] || fail "the platform package is not installed"
node -e '
const { Policy, HookRegistry } = require("hookc");
const policy = Policy.fromSource("t.rules", "pre_tool_use when command == \"rm -rf ~\" => deny \"no\"");
const result = policy.evaluate({ event: "pre_tool_use", tool: "Bash", args: { command: "rm -rf ~" } });
if (result.permissionBehavior !== "deny") process.exit(1);
new HookRegistry().addRules(policy).run({ event: "pre_tool_use", tool: "Bash", args: { command: "ls" } }).then((r) => process.exit(r.permissionBehavior ? 1 : 0));
' || fail "require('hookc')"
pass "require('hookc') decides in-process (the addon from @hookc/linux-x64-gnu)"
cat >esm.mjs <<'JS'
import { Policy } from 'hookc';
const result = Policy.fromRules(['builtin:baseline']).evaluate({ event: 'pre_tool_use', tool: 'Bash', cwd: '/repo', args: { command: 'rm -rf ~' } });
if (result.permissionBehavior !== 'deny') process.exit(1);
JS
node esm.mjs || fail "import 'hookc'"
pass "import { Policy } from 'hookc' (ESM) decides"
version=$(npx --no-install hookc --version) || fail "npx hookc --version"
[ "$version" = "hookc 0.1.0" ] || fail "npx hookc --version printed $version"
file -b node_modules/@hookc/linux-x64-gnu/hookc | grep -q ELF || fail "the platform package's hookc is not the native binary"
pass "the hookc command runs the native binary ($version)"
mv node_modules/@hookc/linux-x64-gnu "$work/aside"
set +e
npx --no-install hookc --version >/dev/null 2>"$work/missing.err"
code=$?
set -e
[ "$code" = 2 ] && grep -q 'the native binary for linux-x64 is missing' "$work/missing.err" || { cat "$work/missing.err" >&2; fail "a missing platform package: exit $code"; }
mv "$work/aside" node_modules/@hookc/linux-x64-gnu
pass "without the platform package the command exits 2 and says why"

# A global install, found by a project's launcher: the native binary runs, never Node.
npm install --silent --no-audit --no-fund -g --prefix "$work/global" "$main" "$platform" >/dev/null 2>"$work/npm.err" || { cat "$work/npm.err" >&2; fail "npm install -g"; }
mkdir -p "$work/wired/rules" && cd "$work/wired" && git init -q .
printf 'pre_tool_use when command == "rm -rf ~" => deny "no"\n' >rules/a.rules
"$work/global/bin/hookc" init claude --write --rules rules >/dev/null 2>&1 || fail "hookc init through npm's command"
command=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(".claude/settings.json")).hooks.PreToolUse[0].hooks[0].command)')
payload='{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}'
out=$(echo "$payload" | env -i PATH="$work/global/bin:/usr/bin:/bin" HOME="$work" HOOKC_NATIVE=/bin/false CLAUDE_PROJECT_DIR="$work/wired" sh -c "$command") ||
    fail "the wired hook through the global npm install"
echo "$out" | grep -q '"deny"' || fail "the wired hook did not deny: $out"
pass "a project's launcher runs the npm install's native binary, not its Node script"
echo "npm packages: all checks passed"
