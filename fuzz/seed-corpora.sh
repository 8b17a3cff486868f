#!/usr/bin/env bash
# Seeds each target's corpus (fuzz/corpus/TARGET, not committed) from the repository's own
# inputs: the shipped rules, the rule fixtures, the event tables, the agent payload fixtures and
# the real clients' captured payloads in ../shared/realclient/payloads when present.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=fuzz/corpus
mkdir -p "$corpus"/{adapter,event,bundle,check,format,policy,shell,python,javascript,lexical,lsp}
n=0
seed() { n=$((n + 1)); cp "$2" "$corpus/$1/seed-$n"; }
for file in rules/*.rules tests/fixtures/diagnostics/*.rules agents/fixtures.rules; do
    for target in check format policy lsp; do seed "$target" "$file"; done
done
# The LSP's framing: an editor's first messages, framed.
frame() { printf 'Content-Length: %s\r\n\r\n%s' "${#1}" "$1"; }
frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}' >"$corpus/lsp/initialize"
{ frame '{"jsonrpc":"2.0","method":"initialized","params":{}}'
  frame '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.rules","text":"pre_tool_use => deny"}}}'
} >"$corpus/lsp/did-open"
# Rules and events embedded in the YAML tables, one file each.
python3 - "$corpus" <<'PY'
import json, sys, yaml, glob, os
corpus = sys.argv[1]
n = 0
def put(target, text):
    global n
    n += 1
    with open(os.path.join(corpus, target, f"yaml-{n}"), "w") as f:
        f.write(text)
def load(path):
    try:
        return yaml.safe_load(open(path)) or []
    except yaml.YAMLError as error:  # PyYAML is stricter than serde_yaml on some flow mappings
        print(f"skipped {path}: {error.problem}", file=sys.stderr)
        return []
for path in glob.glob("tests/fixtures/eval/*.yaml"):
    for group in load(path):
        if "rules" in group:
            put("policy", group["rules"]); put("check", group["rules"]); put("format", group["rules"])
        for case in group.get("cases", []) + ([group] if "event" in group else []):
            if "event" in case:
                put("event", json.dumps(case["event"]))
for path in glob.glob("agents/*/fixtures.yaml"):  # agents/example too: its payloads are Claude Code's shape
    for case in load(path):
        if isinstance(case.get("stdin"), dict):
            put("adapter", json.dumps(case["stdin"]))
PY
for file in ../shared/realclient/payloads/*.json; do
    [ -e "$file" ] && seed adapter "$file"
done
cargo run --quiet --release -- compile rules -o "$corpus/bundle/shipped.json" >/dev/null
echo "seeded: $(for t in adapter event bundle check format policy; do printf '%s=%s ' "$t" "$(ls "$corpus/$t" | wc -l)"; done)"
# Command lines: every shell command the rule tests spell.
python3 - "$corpus" <<'PY'
import json, sys, yaml, glob, os
corpus = sys.argv[1]
n = 0
for path in glob.glob("rules/*.test.yaml"):
    for case in yaml.safe_load(open(path)) or []:
        args = (case.get("event") or {}).get("args") or {}
        line = args.get("command") or args.get("cmd")
        if isinstance(line, list):
            line = "\0".join(line)
        if isinstance(line, str):
            n += 1
            with open(os.path.join(corpus, "shell", f"line-{n}"), "w") as f:
                f.write(line)
print(f"seeded {n} command lines", file=sys.stderr)
PY

# Code in other languages: every script of the benign corpus's lines, and the string literals of
# the parsed readers' tests (Python, JavaScript). A lexical target's input starts with the byte
# that chooses its language, as its oracle reads it.
python3 - "$corpus" <<'PY'
import re, sys, yaml, os
corpus = sys.argv[1]
counts = {}
def put(target, code, prefix=b""):
    counts[target] = counts.get(target, 0) + 1
    with open(os.path.join(corpus, target, f"code-{counts[target]}"), "wb") as f:
        f.write(prefix + code.encode())
def scripts(corpus_file):
    for entry in yaml.safe_load(open(corpus_file)) or []:
        line = entry["line"]
        heredoc = re.search(r"<<-?'?(\w+)'?\n(.*)\n\1", line, re.S)
        code = re.search(r"(?:-[ceErp]|--eval|--print|eval) '((?:[^']|'\\'')*)'", line)
        if heredoc:
            yield heredoc.group(2)
        elif code:
            yield code.group(1).replace("'\\''", "'")
for code in scripts("tests/corpus/benign/python.yaml"):
    put("python", code)
for code in scripts("tests/corpus/benign/node.yaml"):
    put("javascript", code)
for choice, name in enumerate(["perl", "ruby", "php", "awk", "lua"]):
    path = f"tests/corpus/benign/{name}.yaml"
    if os.path.exists(path):
        for code in scripts(path):
            put("lexical", code, bytes([choice]))
for target, source in [("python", "python.rs"), ("javascript", "javascript.rs")]:
    text = open(f"crates/core/src/shell/{source}").read()
    for code in re.findall(r'^\s*"((?:[^"\\]|\\.)*)",?$', text, re.M):
        put(target, code.encode().decode("unicode_escape", errors="ignore"))
    for code in re.findall(r'r#"(.*?)"#', text):
        put(target, code)
print(f"seeded code: {counts}", file=sys.stderr)
PY
