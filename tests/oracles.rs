//! The fuzzing oracles: what must hold for any input at each entry point, beyond "no panic".
//! The cargo-fuzz targets (`fuzz/fuzz_targets/`) include this file, and `cargo test` replays
//! every input a campaign kept (`fuzz/regressions/TARGET/`) through the same functions on
//! stable, so a finding stays fixed without nightly.

#![allow(dead_code)]

use hookc::source::{SourceFile, SourceMap};
use hookc::{answer_hook, Event, HookOptions, HookResult, PathCase, PathSettings, Policy};
use std::sync::OnceLock;

/// The shipped rule set, as every fuzz target judges events with it.
const SHIPPED: [(&str, &str); 3] = [
    ("rules/files.rules", include_str!("../rules/files.rules")),
    ("rules/output.rules", include_str!("../rules/output.rules")),
    ("rules/shell.rules", include_str!("../rules/shell.rules")),
];

/// Paths judged the same on every machine: no symlink resolution, a fixed home.
fn settings(case: PathCase) -> PathSettings {
    PathSettings::default().with_case(case).with_follow_links(false).with_home(Some("/home/u".to_string()))
}

fn shipped() -> &'static (Policy, Policy) {
    static POLICIES: OnceLock<(Policy, Policy)> = OnceLock::new();
    POLICIES.get_or_init(|| {
        let mut sources = SourceMap::default();
        for (name, text) in SHIPPED {
            sources.add(SourceFile::new(name, text));
        }
        let policy = Policy::from_sources(&sources).expect("the shipped rules check");
        let bundled = Policy::from_bundle_bytes(&policy.to_bundle()).expect("the shipped bundle loads");
        (
            policy.with_path_settings(settings(PathCase::Sensitive)),
            bundled.with_path_settings(settings(PathCase::Sensitive)),
        )
    })
}

/// Events of every kind and tool shape, for oracles that fuzz the rules rather than the event.
fn sample_events() -> &'static [Event] {
    static EVENTS: OnceLock<Vec<Event>> = OnceLock::new();
    EVENTS.get_or_init(|| {
        [
            r#"{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","args":{"command":"rm -rf / && git push -f"}}"#,
            r#"{"event":"pre_tool_use","tool":"Write","cwd":"/repo","args":{"file_path":"/repo/Cargo.lock","content":"x"}}"#,
            r#"{"event":"pre_tool_use","tool":"write_file","args":{"path":"./src/a.rs","content":"AKIA"}}"#,
            r#"{"event":"pre_tool_use","tool":"apply_patch","cwd":"C:\\repo","args":{"command":"*** Begin Patch\n*** Add File: a.txt\n*** Update File: ../x/.env\n"}}"#,
            r#"{"event":"pre_tool_use","tool":"mcp__fs__move_file","args":{"source":"a","destination":".git/config"}}"#,
            r#"{"event":"pre_tool_use","tool":"WebFetch","args":{"url":"https://Example.COM:8080/x"}}"#,
            r#"{"event":"pre_tool_use","tool":"my_tool","args":{"mode":3,"path":"x","nested":{"a":[1,"b"]}}}"#,
            r#"{"event":"post_tool_use","tool":"Read","args":{"file_path":"k.pem"},"result":{"content":"-----BEGIN RSA PRIVATE KEY-----\nx\n-----END RSA PRIVATE KEY-----","is_error":false}}"#,
            r#"{"event":"post_tool_use_failure","tool":"Bash","args":{"command":"jq"},"error":"not found"}"#,
            r#"{"event":"user_prompt_submit","prompt":"go","session_id":"s"}"#,
            r#"{"event":"stop","stop_hook_active":false,"history":[{"role":"tool","content":"x"},{"role":"assistant","content":"done"}]}"#,
            r#"{"event":"subagent_stop","stop_hook_active":true}"#,
            r#"{"event":"session_start","source":"startup"}"#,
            r#"{"event":"session_end","reason":"exit"}"#,
            r#"{"event":"pre_compact","trigger":"auto"}"#,
            r#"{"event":"notification","message":"hi\nthere"}"#,
        ]
        .iter()
        .map(|json| Event::from_json(json.as_bytes()).expect("a sample event parses"))
        .collect()
    })
}

/// A result or its error as comparable text.
fn outcome(result: Result<HookResult, hookc::EvalError>) -> Result<HookResult, String> {
    result.map_err(|error| error.to_string())
}

/// The same decision three ways: the index's candidates, every rule, and a bundle round trip.
fn decides_alike(policy: &Policy, bundled: &Policy, event: &Event) {
    let indexed = outcome(policy.evaluate(event));
    let exhaustive = outcome(policy.evaluate_exhaustive(event).map(|evaluation| evaluation.result));
    assert_eq!(indexed, exhaustive, "indexed and exhaustive evaluation differ on {event:?}");
    assert_eq!(indexed, outcome(bundled.evaluate(event)), "rules and their bundle differ on {event:?}");
}

/// Agent payload → adapter: exit 0 with nothing or one JSON object on stdout, or exit 2 with
/// one line on stderr and nothing on stdout; every stderr line is one line.
pub fn adapter(data: &[u8]) {
    let (policy, _) = shipped();
    for protocol in hookc::agents::AGENTS.iter().copied() {
        let options = HookOptions::default().with_project_root(Some("/repo".to_string()));
        let answer = answer_hook(protocol, policy, data, &options);
        for line in &answer.stderr {
            assert!(!line.contains('\n'), "{}: a stderr line spans lines: {line:?}", protocol.id);
        }
        match answer.exit {
            0 => {
                if let Some(stdout) = &answer.stdout {
                    let json: serde_json::Value = serde_json::from_str(stdout)
                        .unwrap_or_else(|error| panic!("{}: stdout is not JSON ({error}): {stdout}", protocol.id));
                    assert!(json.is_object(), "{}: stdout is not an object: {stdout}", protocol.id);
                }
            }
            2 => {
                assert_eq!(answer.stdout, None, "{}: a blocked call printed an answer", protocol.id);
                assert_eq!(answer.stderr.len(), 1, "{}: a blocked call says why in one line", protocol.id);
            }
            other => panic!("{}: exit {other}: only 0 and 2 are answers", protocol.id),
        }
    }
}

/// Event JSON → evaluation with the shipped rules: indexed == exhaustive == bundle.
pub fn event(data: &[u8]) {
    let Ok(event) = Event::from_json(data) else { return };
    let (policy, bundled) = shipped();
    decides_alike(policy, bundled, &event);
}

/// Bundle text → load → evaluate: a bundle loads or is refused; a loaded one decides every
/// sample event without panicking, the same through the index as exhaustively.
pub fn bundle(data: &[u8]) {
    let Ok(policy) = Policy::from_bundle_bytes(data) else { return };
    let policy = policy.with_path_settings(settings(PathCase::Sensitive));
    for event in sample_events() {
        let indexed = outcome(policy.evaluate(event));
        let exhaustive = outcome(policy.evaluate_exhaustive(event).map(|evaluation| evaluation.result));
        assert_eq!(indexed, exhaustive, "indexed and exhaustive evaluation differ on {event:?}");
    }
}

/// Rule text → check → rendering: diagnostics render (plain, colour, JSON, SARIF) without
/// panicking; a rule set that checks clean compiles to a bundle that loads and decides as the
/// rules do.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut sources = SourceMap::default();
    sources.add(SourceFile::new("fuzz.rules", text));
    let diagnostics = match hookc::check_sources(&sources) {
        Ok(checked) => {
            let policy = Policy::from_sources(&sources).expect("a rule set that checks clean loads");
            let bundled = Policy::from_bundle_bytes(&policy.to_bundle()).expect("its bundle loads");
            let policy = policy.with_path_settings(settings(PathCase::Sensitive));
            let bundled = bundled.with_path_settings(settings(PathCase::Sensitive));
            for event in sample_events() {
                decides_alike(&policy, &bundled, event);
            }
            checked.warnings
        }
        Err(errors) => {
            assert!(errors.iter().any(|diagnostic| diagnostic.is_error()), "a failed check holds an error");
            errors
        }
    };
    for color in [false, true] {
        let _ = hookc::diagnostic::render(&diagnostics, &sources, color);
    }
    for diagnostic in &diagnostics {
        let _ = serde_json::to_string(&diagnostic.to_json(&sources)).expect("diagnostics serialise");
    }
    let _ = hookc::diagnostic::sarif::log(&diagnostics, &sources);
}

/// What a rule file means, apart from where each rule stands.
fn meaning(text: &str) -> Option<serde_json::Value> {
    let mut sources = SourceMap::default();
    sources.add(SourceFile::new("fuzz.rules", text));
    let checked = hookc::check_sources(&sources).ok()?;
    let mut rules = serde_json::to_value(&checked.rules).ok()?;
    for rule in rules.as_array_mut()? {
        let rule = rule.as_object_mut()?;
        rule.remove("origin");
        if rule.get("name").and_then(|name| name.as_str()).is_some_and(|name| name.starts_with("fuzz.rules:")) {
            rule.insert("name".to_string(), "unnamed".into());
        }
    }
    Some(rules)
}

/// The comments of a rule file, as the grammar finds them (a `#` in a string or regex is not
/// one), sorted: formatting may move a comment, never change or drop it.
fn comment_lines(text: &str) -> Vec<String> {
    let file = SourceFile::new("fuzz.rules", text);
    let mut comments: Vec<String> = hookc::comment_texts(&file).into_iter().map(str::to_string).collect();
    comments.sort();
    comments
}

/// Rule text → format: formatting a file that checks is idempotent, keeps what the rules mean,
/// and keeps every comment.
pub fn format(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Some(original) = meaning(text) else { return };
    let file = SourceFile::new("fuzz.rules", text);
    let once = hookc::format(0, &file).expect("a file that checks formats");
    let twice = hookc::format(0, &SourceFile::new("fuzz.rules", once.as_str())).expect("formatted text formats");
    assert_eq!(once, twice, "formatting is not idempotent");
    assert_eq!(meaning(&once), Some(original), "formatting changed the rules:\n{once}");
    assert_eq!(comment_lines(&once), comment_lines(text), "formatting changed the comments:\n{once}");
}

/// Rule text → policy → evaluation of the sample events: indexed == exhaustive == bundle, with
/// paths compared case-sensitively and case-insensitively.
pub fn policy(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(policy) = Policy::from_source("fuzz.rules", text) else { return };
    let bundle = policy.to_bundle();
    for case in [PathCase::Sensitive, PathCase::Insensitive] {
        let bundled = Policy::from_bundle_bytes(&bundle).expect("a checked rule set's bundle loads");
        let policy = policy.clone().with_path_settings(settings(case));
        let bundled = bundled.with_path_settings(settings(case));
        for event in sample_events() {
            decides_alike(&policy, &bundled, event);
        }
    }
}

/// A command line → the shipped rules, as each agent's shell tool sends it (a string; Codex's
/// argv, the line split at NUL bytes): indexed == exhaustive == bundle, and the line names the
/// same decision whichever string tool carries it.
pub fn shell(data: &[u8]) {
    let Ok(line) = std::str::from_utf8(data) else { return };
    let (policy, bundled) = shipped();
    let decide = |tool: &str, args: serde_json::Value| {
        let json = serde_json::json!({"event": "pre_tool_use", "tool": tool, "cwd": "/repo", "args": args});
        let event = Event::from_json(json.to_string().as_bytes()).expect("a shell event parses");
        decides_alike(policy, bundled, &event);
        outcome(policy.evaluate(&event))
    };
    let bash = decide("Bash", serde_json::json!({"command": line}));
    let gemini = decide("run_shell_command", serde_json::json!({"command": line}));
    assert_eq!(bash, gemini, "Bash and run_shell_command decide {line:?} differently");
    let argv: Vec<&str> = line.split('\0').collect();
    let _argv_decision = decide("shell", serde_json::json!({"command": argv}));
}

/// Bytes as Python code: see [`interpreted`].
pub fn python(data: &[u8]) {
    interpreted("python3 -c", "python3 -", data);
}

/// Bytes as JavaScript or TypeScript code: see [`interpreted`].
pub fn javascript(data: &[u8]) {
    interpreted("node -e", "node -", data);
}

/// Bytes as code for a lexical reader, the first byte choosing the language (Perl, Ruby, PHP,
/// awk, Lua): see [`interpreted`].
pub fn lexical(data: &[u8]) {
    let Some((&choice, code)) = data.split_first() else { return };
    let (option, stdin) = match choice % 5 {
        0 => ("perl -e", "perl -"),
        1 => ("ruby -e", "ruby -"),
        2 => ("php -r", "php"),
        3 => ("awk", "awk -f /dev/stdin"),
        _ => ("lua -e", "lua -"),
    };
    interpreted(option, stdin, code);
}

/// Bytes as code given to an interpreter on its command line (`python3 -c CODE`) and by a
/// quoted heredoc (`python3 - <<'EOF'`): the two spellings hand it the same code, so the
/// heredoc is decided no weaker than the command line (the shell reader may read a heredoc it
/// cannot parse more warily, word by word, but never lose the code), each the same three ways.
fn interpreted(option: &str, stdin: &str, data: &[u8]) {
    let Ok(code) = std::str::from_utf8(data) else { return };
    const END: &str = "HOOKC_FUZZ_EOF";
    if code.contains('\0') || code.lines().any(|line| line == END) {
        return;
    }
    let (policy, bundled) = shipped();
    let decide = |line: String| {
        let json =
            serde_json::json!({"event": "pre_tool_use", "tool": "Bash", "cwd": "/repo", "args": {"command": line}});
        let event = Event::from_json(json.to_string().as_bytes()).expect("a shell event parses");
        decides_alike(policy, bundled, &event);
        outcome(policy.evaluate(&event))
    };
    // How strongly a decision refuses: nothing, ask, deny or block, a line not judged.
    let rank = |decision: &Result<HookResult, String>| match decision {
        Ok(result) if result.blocking_error.is_some() => 2,
        Ok(result) => match result.permission_behavior {
            hookc::Permission::Deny => 2,
            hookc::Permission::Ask => 1,
            _ => 0,
        },
        Err(_) => 3,
    };
    let quoted = format!("'{}'", code.replace('\'', r"'\''"));
    let given = decide(format!("{option} {quoted}"));
    let heredoc = decide(format!("{stdin} <<'{END}'\n{code}\n{END}"));
    assert!(
        rank(&heredoc) >= rank(&given).min(2),
        "a heredoc is decided weaker than {option} for {code:?}: {heredoc:?} {given:?}"
    );
}

/// Bytes → `hookc lsp`'s input framing, then completion, hover and formatting over the bytes as
/// a document: never a panic or an allocation of what a header claims; positions round-trip.
pub fn lsp(data: &[u8]) {
    let _messages = hookc_cli::lsp_exercise(data);
}
