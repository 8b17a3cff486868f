//! The real `hookc` binary, run in temporary directories.

use crate::support::{hookc, stderr, stdout};
use std::path::Path;

const RULES: &str = r#"
rule audit pre_tool_use when kind == write => log "write to {path}"
rule protect pre_tool_use when path == "generated.txt" => block "hook_blocked" "managed elsewhere"
rule no-rm pre_tool_use when command matches /rm\s+-rf\s+\// => deny "destructive: {command}"
"#;

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    std::fs::write(dir.path().join("rules/main.rules"), RULES).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

#[test]
fn check_passes_the_shipped_rules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = hookc(root, &["check", "rules/"], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("no problems"), "{}", stderr(&output));
}

#[test]
fn check_defaults_to_rules_and_reports_errors_with_exit_1() {
    let dir = project();
    let output = hookc(dir.path(), &["check"], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("checked 1 file: 3 rules, no problems"));

    write(&dir.path().join("rules"), "bad.rules", "pre_tool_use when comand == \"x\" => dney\n");
    let output = hookc(dir.path(), &["check"], b"");
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(text.contains("error[E0102]: unknown field `comand`"), "{text}");
    assert!(text.contains("--> rules/bad.rules:1:19"), "{text}");
    assert!(text.contains("error[E0104]: unknown action `dney`"), "{text}");
    assert!(text.contains("2 errors"), "{text}");
}

#[test]
fn check_json_lists_the_same_diagnostics_on_stdout() {
    let dir = project();
    write(dir.path(), "bad.rules", "stop => block \"x\"\n");
    let output = hookc(dir.path(), &["check", "bad.rules", "--format", "json"], b"");
    assert_eq!(output.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json[0]["code"], "E0105");
    assert_eq!(json[0]["file"], "bad.rules");
    assert_eq!(json[0]["line"], 1);
    assert_eq!(json[0]["column"], 9);

    let clean = hookc(dir.path(), &["check", "rules", "--format", "json"], b"");
    assert_eq!(clean.status.code(), Some(0));
    assert_eq!(stdout(&clean).trim(), "[]");
}

#[test]
fn check_usage_and_io_problems_exit_2() {
    let dir = project();
    let missing = hookc(dir.path(), &["check", "nowhere"], b"");
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("cannot read `nowhere`"), "{}", stderr(&missing));

    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let empty = hookc(dir.path(), &["check", "empty"], b"");
    assert_eq!(empty.status.code(), Some(2));
    assert!(stderr(&empty).contains("no `.rules` files found in `empty`"));

    std::fs::write(dir.path().join("latin1.rules"), b"pre_tool_use => context \"\xe9\"\n").unwrap();
    let latin1 = hookc(dir.path(), &["check", "latin1.rules"], b"");
    assert_eq!(latin1.status.code(), Some(2));
    assert!(stderr(&latin1).contains("is not valid UTF-8"));

    let bad_flag = hookc(dir.path(), &["check", "--format", "xml"], b"");
    assert_eq!(bad_flag.status.code(), Some(2));
}

#[test]
fn files_are_tried_in_path_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rules/sub")).unwrap();
    write(&dir.path().join("rules"), "b.rules", "rule b pre_tool_use => context \"b\"\n");
    write(&dir.path().join("rules"), "a.rules", "rule a pre_tool_use => context \"a\"\n");
    write(&dir.path().join("rules/sub"), "c.rules", "rule c pre_tool_use => context \"c\"\n");
    write(&dir.path().join("rules"), "notes.txt", "not rules\n");
    let output = hookc(dir.path(), &["eval", "--rules", "rules"], br#"{"event":"pre_tool_use","tool":"t"}"#);
    assert_eq!(stdout(&output).trim(), r#"{"additionalContext":["a","b","c"],"matched":["a","b","c"]}"#);
}

/// Every event of the evaluation table, against the shipped rules: the bundle and the rule files
/// must give byte-identical output.
#[test]
fn eval_with_bundle_and_rules_is_identical() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("policy.json");
    let compiled = hookc(root, &["compile", "rules", "-o", bundle.to_str().unwrap()], b"");
    assert_eq!(compiled.status.code(), Some(0), "{}", stderr(&compiled));
    let rules = shipped_rule_count(root);
    assert!(stderr(&compiled).contains(&format!("compiled {rules} rules")), "{}", stderr(&compiled));

    let events = [
        r#"{"event":"pre_tool_use","tool":"Write","cwd":"/repo","args":{"file_path":"/repo/Cargo.lock","content":"x"}}"#,
        r#"{"event":"pre_tool_use","tool":"Bash","args":{"command":"rm -rf /"}}"#,
        r#"{"event":"pre_tool_use","tool":"Bash","args":{"command":"git push --force"}}"#,
        r#"{"event":"pre_tool_use","tool":"read_file","args":{"path":"config/.env"}}"#,
        r#"{"event":"pre_tool_use","tool":"read_file","args":{"path":"config/.env.example"}}"#,
        r#"{"event":"post_tool_use","tool":"Bash","args":{},"result":{"content":"AKIAABCDEFGHIJKLMNOP"}}"#,
        r#"{"event":"stop","history":[]}"#,
        r#"{"event":"user_prompt_submit","prompt":"hi"}"#,
    ];
    let mut decided = 0;
    for event in events {
        let from_rules = hookc(root, &["eval", "--rules", "rules"], event.as_bytes());
        let from_bundle = hookc(root, &["eval", "--bundle", bundle.to_str().unwrap()], event.as_bytes());
        assert_eq!(from_rules.status.code(), Some(0), "{event}: {}", stderr(&from_rules));
        assert_eq!(stdout(&from_rules), stdout(&from_bundle), "{event}");
        if stdout(&from_rules).trim() != "{}" {
            decided += 1;
        }
    }
    assert_eq!(decided, 5, "the shipped rules should decide five of these events");
}

#[test]
fn eval_reads_a_file_prints_json_and_logs_to_stderr() {
    let dir = project();
    write(
        dir.path(),
        "event.json",
        r#"{"event":"pre_tool_use","tool":"Write","args":{"file_path":"./generated.txt"}}"#,
    );
    let output = hookc(dir.path(), &["eval", "--rules", "rules", "--input", "event.json"], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output).trim(),
        r#"{"blockingError":{"code":"hook_blocked","message":"managed elsewhere"},"matched":["audit","protect"]}"#
    );
    assert!(stderr(&output).contains("log: audit: write to generated.txt"));

    let pretty = hookc(dir.path(), &["eval", "--rules", "rules", "--input", "event.json", "--pretty"], b"");
    assert!(stdout(&pretty).contains("\n  \"blockingError\": {"));
}

#[test]
fn eval_rejects_bad_input_with_one_line_and_no_panic() {
    let dir = project();
    let huge = {
        let mut event = br#"{"event":"user_prompt_submit","prompt":""#.to_vec();
        event.extend(std::iter::repeat_n(b'a', 33 * 1024 * 1024));
        event.extend(br#""}"#);
        event
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("garbage", b"not json".to_vec(), "not valid JSON"),
        ("empty", Vec::new(), "not valid JSON"),
        ("truncated", br#"{"event":"pre_tool_use","tool":"#.to_vec(), "not valid JSON"),
        ("unknown event", br#"{"event":"pre_tool_used","tool":"x"}"#.to_vec(), "unknown event `pre_tool_used`"),
        ("missing field", br#"{"event":"post_tool_use","tool":"x"}"#.to_vec(), "needs the field `result`"),
        ("wrong type", br#"{"event":"pre_tool_use","tool":"x","args":[]}"#.to_vec(), "invalid type"),
        ("misspelt field", br#"{"event":"pre_tool_use","tool":"x","arg":{}}"#.to_vec(), "unknown field `arg`"),
        ("invalid UTF-8", b"{\"event\":\"user_prompt_submit\",\"prompt\":\"\xff\"}".to_vec(), "not valid UTF-8"),
        ("oversized", huge, "larger than"),
    ];
    for (what, input, expected) in cases {
        let output = hookc(dir.path(), &["eval", "--rules", "rules"], &input);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{what}: {text}");
        assert!(text.contains(expected), "{what}: {text}");
        assert_eq!(text.trim().lines().count(), 1, "{what}: {text}");
        assert!(!text.contains("panicked"), "{what}: {text}");
        assert!(stdout(&output).is_empty(), "{what}: printed a result");
    }
}

#[test]
fn eval_refuses_a_bad_bundle_clearly() {
    let dir = project();
    let event = br#"{"event":"user_prompt_submit","prompt":"x"}"#;
    let compiled = hookc(dir.path(), &["compile", "-o", "policy.json", "--format", "json"], b"");
    assert_eq!(compiled.status.code(), Some(0), "{}", stderr(&compiled));
    let bundle = std::fs::read_to_string(dir.path().join("policy.json")).unwrap();
    let compiled = hookc(dir.path(), &["compile", "-o", "policy.hcb"], b"");
    assert_eq!(compiled.status.code(), Some(0), "{}", stderr(&compiled));
    let binary = std::fs::read(dir.path().join("policy.hcb")).unwrap();
    let at = binary.windows(17).position(|window| window == b"managed elsewhere").expect("a rule's reason");
    let mut tampered = binary.clone();
    tampered[at..at + 4].copy_from_slice(b"fine");
    std::fs::write(dir.path().join("tampered.hcb"), tampered).unwrap();
    let mut old = binary.clone();
    old[8] = 2;
    std::fs::write(dir.path().join("old.hcb"), old).unwrap();
    std::fs::write(dir.path().join("short.hcb"), &binary[..binary.len() - 3]).unwrap();

    write(dir.path(), "tampered.json", &bundle.replace("managed elsewhere", "fine"));
    write(dir.path(), "old.json", &bundle.replace(r#""version":3"#, r#""version":0"#));
    write(dir.path(), "other.json", r#"{"format":"other","version":1,"source_hash":"","table_hash":"","rules":[]}"#);
    let cases = [
        ("tampered.json", "modified after `hookc compile`"),
        ("old.json", "bundle format version 0 is not supported"),
        ("other.json", "the format is `other`"),
        ("missing.json", "cannot read bundle `missing.json`"),
        ("tampered.hcb", "does not match its digest"),
        ("old.hcb", "bundle format version 2 is not supported"),
        ("short.hcb", "its length is"),
    ];
    // A binary bundle's blocks are verified when a call reads them: this call reads the rules.
    let write_event = br#"{"event":"pre_tool_use","tool":"Write","cwd":"/w","args":{"file_path":"/w/generated.txt"}}"#;
    for (file, expected) in cases {
        let event = if file.ends_with(".hcb") { &write_event[..] } else { &event[..] };
        let output = hookc(dir.path(), &["eval", "--bundle", file], event);
        let text = stderr(&output);
        assert_ne!(output.status.code(), Some(0), "{file}");
        assert!(text.contains(expected), "{file}: {text}");
        assert!(stdout(&output).is_empty());
    }
}

#[test]
fn eval_and_compile_refuse_invalid_rules() {
    let dir = project();
    write(&dir.path().join("rules"), "bad.rules", "stop => deny\n");
    let eval = hookc(dir.path(), &["eval", "--rules", "rules"], br#"{"event":"stop"}"#);
    assert_eq!(eval.status.code(), Some(1));
    assert!(stderr(&eval).contains("error[E0105]"));
    assert!(stdout(&eval).is_empty());

    let compile = hookc(dir.path(), &["compile", "-o", "policy.json"], b"");
    assert_eq!(compile.status.code(), Some(1));
    assert!(stderr(&compile).contains("not compiled"));
    assert!(!dir.path().join("policy.json").exists());

    let usage = hookc(dir.path(), &["eval"], b"");
    assert_eq!(usage.status.code(), Some(2));
}

/// How many rules `rules/` declares (every shipped rule is named).
fn shipped_rule_count(root: &Path) -> usize {
    let files = std::fs::read_dir(root.join("rules")).unwrap();
    let texts =
        files.map(|entry| entry.unwrap().path()).filter(|path| path.extension().is_some_and(|ext| ext == "rules"));
    texts
        .map(|path| std::fs::read_to_string(path).unwrap().lines().filter(|line| line.starts_with("rule ")).count())
        .sum()
}

#[test]
fn the_shipped_rules_pass_their_tests_with_full_coverage() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = hookc(root, &["test", "rules", "--min-coverage", "100"], b"");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}{}", stderr(&output));
    let rules = shipped_rule_count(root);
    assert!(text.contains(&format!("coverage: {rules} of {rules} rules fired in some case (100.0%)")), "{text}");
    assert!(text.lines().last().unwrap().ends_with("passed, 0 failed"), "{text}");
}

/// Every pack passes its tests at full coverage, alone, all together and with the baseline, and
/// checks clean.
#[test]
fn every_pack_passes_its_tests_alone_and_together() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut folders: Vec<String> = std::fs::read_dir(root.join("packs"))
        .unwrap()
        .map(|entry| format!("packs/{}", entry.unwrap().file_name().to_string_lossy()))
        .collect();
    folders.sort();
    assert!(folders.len() >= 8, "{folders:?}");
    folders.push("packs".to_string());
    for folder in &folders {
        let output = hookc(root, &["test", folder, "--min-coverage", "100"], b"");
        assert_eq!(output.status.code(), Some(0), "{folder}: {}{}", stdout(&output), stderr(&output));
    }
    // The baseline's cases hold with every pack on (a case a pack's rule may join says
    // `matched_includes`).
    let together = hookc(root, &["test", "rules", "packs", "--min-coverage", "100"], b"");
    assert_eq!(together.status.code(), Some(0), "{}{}", stdout(&together), stderr(&together));
    let checked = hookc(root, &["check", "--deny-warnings", "packs"], b"");
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
}

/// The baseline and the packs are inside the binary: `builtin:NAME` loads them without a
/// checkout, and decides as the files do.
#[test]
fn shipped_rule_sets_are_built_in_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let event =
        br#"{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","args":{"command":"kubectl delete namespace prod"}}"#;
    let output = hookc(dir.path(), &["eval", "--rules", "builtin:baseline", "--rules", "builtin:kubernetes"], event);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("kubernetes/delete-namespace"), "{}", stdout(&output));
    let all = hookc(dir.path(), &["eval", "--rules", "builtin:packs"], event);
    assert!(stdout(&all).contains("kubernetes/delete-namespace"), "{}", stdout(&all));
    let root = br#"{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","args":{"command":"rm -rf /"}}"#;
    let baseline = hookc(dir.path(), &["eval", "--rules", "builtin:baseline"], root);
    assert!(stdout(&baseline).contains("no-rm-root"), "{}", stdout(&baseline));
    let unknown = hookc(dir.path(), &["eval", "--rules", "builtin:nope"], event);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("the names are baseline, packs,"), "{}", stderr(&unknown));
    // `init` wires them by name, no path to resolve.
    let init = hookc(
        dir.path(),
        &["init", "claude", "--rules", "builtin:baseline", "--rules", "builtin:iac", "--command", "hookc"],
        b"",
    );
    assert_eq!(init.status.code(), Some(0), "{}", stderr(&init));
    assert!(
        stdout(&init).contains("hookc hook claude --rules builtin:baseline --rules builtin:iac"),
        "{}",
        stdout(&init)
    );
    // What is built in is what the folders hold.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (path, text) in hookc::builtin::FILES {
        assert_eq!(std::fs::read_to_string(root.join(path)).unwrap(), *text, "{path}");
    }
}

#[test]
fn test_reports_failures_coverage_and_mistakes_in_test_files() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "policy.rules",
        "rule guard pre_tool_use when path == \"a\" => deny \"no a\"\nrule quiet pre_tool_use when tool == never => log \"x\"\n",
    );
    write(
        dir.path(),
        "policy.test.yaml",
        r#"
- name: passes
  event: {event: pre_tool_use, tool: write_file, args: {path: a}}
  expect: {permissionBehavior: deny, matched: [guard]}
- name: wrong reason
  event: {event: pre_tool_use, tool: write_file, args: {path: a}}
  expect: {permissionReason: "no b"}
- name: names a rule that does not exist
  event: {event: pre_tool_use, tool: write_file, args: {path: b}}
  expect: {matched: [gaurd]}
- name: names a field a result does not have
  event: {event: pre_tool_use, tool: write_file, args: {path: b}}
  expect: {permission: deny}
- name: an event that does not exist
  event: {event: pre_tool_used, tool: x}
  expect: {matched: []}
"#,
    );
    let output = hookc(dir.path(), &["test", "."], b"");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    for expected in [
        "FAIL ./policy.test.yaml #2 wrong reason",
        r#"    permissionReason: expected "no b", got "no a""#,
        "    `matched` names the rule `gaurd`, which the rule set does not have",
        "    `expect` names `permission`, which a HookResult does not have; did you mean `permissionReason`?",
        "    bad event: unknown event `pre_tool_used`",
        "coverage: 1 of 2 rules fired in some case (50.0%)",
        "    never fired: quiet (./policy.rules:2:1)",
    ] {
        assert!(text.lines().any(|line| line.starts_with(expected)), "missing {expected:?} in\n{text}");
    }
    assert_eq!(text.lines().last(), Some("1 passed, 4 failed"));

    // Coverage below the minimum fails a run whose cases pass.
    write(dir.path(), "policy.test.yaml", "- name: passes\n  event: {event: pre_tool_use, tool: write_file, args: {path: a}}\n  expect: {matched: [guard]}\n");
    let below = hookc(dir.path(), &["test", ".", "--min-coverage", "75"], b"");
    assert_eq!(below.status.code(), Some(1));
    assert!(stdout(&below).contains("coverage 50.0% is below the required 75%"), "{}", stdout(&below));
    let enough = hookc(dir.path(), &["test", ".", "--min-coverage", "50"], b"");
    assert_eq!(enough.status.code(), Some(0), "{}", stdout(&enough));

    let no_tests = tempfile::tempdir().unwrap();
    write(no_tests.path(), "policy.rules", "stop => log \"x\"\n");
    let none = hookc(no_tests.path(), &["test", "."], b"");
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("no `*.test.yaml` files found"));
}

#[test]
fn check_explains_codes_denies_warnings_and_writes_sarif() {
    let dir = project();
    let explained = hookc(dir.path(), &["check", "--explain", "w0303"], b"");
    assert_eq!(explained.status.code(), Some(0));
    assert!(stdout(&explained).starts_with("## W0303 (warning):"), "{}", stdout(&explained));
    assert!(stdout(&explained).contains("**Fix.**"));
    let unknown = hookc(dir.path(), &["check", "--explain", "E9999"], b"");
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("no diagnostic code `E9999`"));

    write(dir.path(), "warn.rules", "let unused = [a]\npre_tool_use when kind == shell => ask \"shell\"\npre_tool_use when kind == shell => ask \"shell\"\n");
    let warned = hookc(dir.path(), &["check", "warn.rules"], b"");
    assert_eq!(warned.status.code(), Some(0), "warnings alone pass");
    assert!(
        stderr(&warned).contains("warning[W0305]") && stderr(&warned).contains("warning[W0304]"),
        "{}",
        stderr(&warned)
    );
    assert!(stderr(&warned).contains("2 warnings"));
    let denied = hookc(dir.path(), &["check", "warn.rules", "--deny-warnings"], b"");
    assert_eq!(denied.status.code(), Some(1));
    assert!(stderr(&denied).contains("error[W0305]"), "{}", stderr(&denied));

    let sarif = hookc(dir.path(), &["check", "warn.rules", "--format", "sarif"], b"");
    assert_eq!(sarif.status.code(), Some(0));
    let log: serde_json::Value = serde_json::from_str(&stdout(&sarif)).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "hookc");
    assert!(run["tool"]["driver"]["rules"].as_array().unwrap().len() >= 20);
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    let duplicate = results.iter().find(|result| result["ruleId"] == "W0304").unwrap();
    assert_eq!(duplicate["level"], "warning");
    let region = &duplicate["locations"][0]["physicalLocation"]["region"];
    assert_eq!((region["startLine"].as_u64(), region["startColumn"].as_u64()), (Some(3), Some(1)));
    let artifact = &duplicate["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!((artifact["uri"].as_str(), artifact["uriBaseId"].as_str()), (Some("warn.rules"), Some("%SRCROOT%")));
    let root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str().unwrap();
    assert!(root.starts_with("file:///") && root.ends_with('/'), "{root}");
    assert_eq!(duplicate["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 2);

    // Paths with spaces are percent-encoded; an absolute path is a `file://` URI.
    std::fs::create_dir(dir.path().join("my rules")).unwrap();
    std::fs::copy(dir.path().join("warn.rules"), dir.path().join("my rules/a b.rules")).unwrap();
    for (path, expected) in [
        ("my rules".to_string(), "my%20rules/a%20b.rules".to_string()),
        (dir.path().join("my rules").to_str().unwrap().to_string(), "file:///".to_string()),
    ] {
        let sarif = hookc(dir.path(), &["check", &path, "--format", "sarif"], b"");
        let log: serde_json::Value = serde_json::from_str(&stdout(&sarif)).unwrap();
        let uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(uri.starts_with(&expected) && uri.ends_with("my%20rules/a%20b.rules"), "{uri}");
    }
}

/// The README's tour of the language is rule source that checks clean, warnings included.
#[test]
fn the_readme_tour_checks_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let tour = readme.split("## A tour of the language").nth(1).unwrap();
    let block = tour.split("```").nth(1).unwrap().trim_start_matches('\n');
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tour.rules"), block).unwrap();
    let output = hookc(dir.path(), &["check", "--deny-warnings", "tour.rules"], b"");
    assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
}

/// An unwritable stdout (a full disk, a closed pipe) ends the hook with exit 2, never a panic's
/// 101: for an agent, any other exit lets the action run.
#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_stdout_blocks_rather_than_crashes() {
    use std::io::Write;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookc"))
        .args(["claude", "--rules", "rules"])
        .current_dir(root)
        .stdin(std::process::Stdio::piped())
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let payload = br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;
    child.stdin.take().unwrap().write_all(payload).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", String::from_utf8_lossy(&output.stderr));
}

/// An audit log path that is a FIFO with no reader (which an agent could create) is refused at
/// once, with a warning; the decision goes on unchanged.
#[cfg(unix)]
#[test]
fn a_fifo_audit_log_never_holds_a_decision() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("audit.jsonl");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let payload = br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;
    // Held by the FIFO, the call would be answered by its deadline instead, saying so.
    let fifo = fifo.to_str().unwrap();
    let output = hookc(root, &["claude", "--rules", "rules", "--audit-log", fifo, "--deadline", "30"], payload);
    assert!(!stderr(&output).contains("deadline"), "{}", stderr(&output));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains(r#""permissionDecision":"deny""#), "{}", stdout(&output));
    assert!(stderr(&output).contains("not a regular file"), "{}", stderr(&output));
}

/// A reader that closes early (`| head`) ends the output quietly; no panic, no message.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for args in [&["test", "rules/", "-v"][..], &["man"][..], &["completions", "bash"][..]] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookc"))
            .args(args)
            .current_dir(root)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 16];
        child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        assert_eq!(stderr(&output), "", "{args:?}");
        assert!(matches!(output.status.code(), Some(0 | 141)), "{args:?}: {:?}", output.status);
    }
}

#[test]
fn completions_and_the_man_page_come_from_the_command_line_itself() {
    let dir = tempfile::tempdir().unwrap();
    for (shell, marker) in
        [("bash", "_hookc()"), ("zsh", "#compdef hookc"), ("fish", "complete -c hookc"), ("powershell", "hookc")]
    {
        let output = hookc(dir.path(), &["completions", shell], b"");
        assert_eq!(output.status.code(), Some(0), "{shell}");
        assert!(stdout(&output).contains(marker), "{shell}");
        assert!(stdout(&output).contains("explain"), "{shell}: every verb is completed");
    }
    let man = stdout(&hookc(dir.path(), &["man"], b""));
    assert!(man.contains(".TH hookc 1"), "{man}");
    assert!(man.contains("completions"), "{man}");
}

/// `--color` decides; without it `CLICOLOR_FORCE` colours and `NO_COLOR` does not.
#[test]
fn color_follows_the_flag_and_the_environment() {
    let dir = project();
    write(dir.path(), "rules/bad.rules", "pre_tool_use when tol == Bash => deny\n");
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_hookc"))
            .args(args)
            .current_dir(dir.path())
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        stderr(&output).contains('\u{1b}')
    };
    assert!(run(&["check", "--color", "always"], &[]));
    assert!(!run(&["check", "--color", "never"], &[("CLICOLOR_FORCE", "1")]));
    assert!(run(&["check"], &[("CLICOLOR_FORCE", "1")]));
    assert!(!run(&["check"], &[("NO_COLOR", "1")]), "not a terminal, and NO_COLOR");
    assert!(!run(&["check"], &[]), "not a terminal");
}

#[test]
fn test_prints_json_and_junit_filters_and_names_every_case() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let json = hookc(root, &["test", "rules/", "--format", "json"], b"");
    assert_eq!(json.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(report["passed"], cases.len());
    assert_eq!(report["failed"], 0);
    assert_eq!(report["coverage"]["percent"], 100.0);
    assert!(cases.iter().all(|case| case["passed"] == true && case["file"].as_str().unwrap().ends_with(".test.yaml")));

    let junit = stdout(&hookc(root, &["test", "rules/", "--format", "junit"], b""));
    assert!(junit.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hookc test\""));
    assert_eq!(junit.matches("<testcase ").count(), cases.len());
    let test_files = std::fs::read_dir(root.join("rules"))
        .unwrap()
        .filter(|entry| entry.as_ref().unwrap().file_name().to_string_lossy().ends_with(".test.yaml"))
        .count();
    assert_eq!(junit.matches("<testsuite ").count(), test_files, "a suite per test file");
    assert!(junit.contains("the MCP filesystem server&apos;s write"), "names are escaped");

    let filtered = hookc(root, &["test", "rules/", "--filter", "MCP filesystem", "-v"], b"");
    let text = stdout(&filtered);
    let ran: Vec<&str> = text.lines().filter(|line| line.starts_with("ok ")).collect();
    assert!(!ran.is_empty() && ran.iter().all(|line| line.contains("MCP filesystem")), "{text}");
    assert!(text.contains(&format!("{} passed, 0 failed", ran.len())), "{text}");

    // A failing case in JUnit: its problems in <failure>, special characters escaped.
    let dir = project();
    write(
        dir.path(),
        "rules/main.test.yaml",
        "- name: \"<wrong> & 'quoted'\"\n  event: {event: pre_tool_use, tool: Write, args: {file_path: generated.txt}}\n  expect: {permissionBehavior: deny}\n",
    );
    let failing = hookc(dir.path(), &["test", "--format", "junit"], b"");
    assert_eq!(failing.status.code(), Some(1));
    let xml = stdout(&failing);
    assert!(xml.contains("name=\"#1 &lt;wrong&gt; &amp; &apos;quoted&apos;\""), "{xml}");
    assert!(xml.contains("<failure message=\"permissionBehavior: expected &quot;deny&quot;"), "{xml}");
}

/// Rule and test discovery follows links but not loops.
#[test]
fn discovery_survives_symlink_loops() {
    let dir = project();
    write(dir.path(), "rules/main.test.yaml", "- name: x\n  event: {event: pre_tool_use, tool: Write, args: {file_path: generated.txt}}\n  expect: {matched: [audit, protect]}\n");
    #[cfg(unix)]
    {
        std::fs::create_dir(dir.path().join("rules/sub")).unwrap();
        std::os::unix::fs::symlink("..", dir.path().join("rules/sub/up")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("rules"), dir.path().join("rules/self")).unwrap();
    }
    let check = hookc(dir.path(), &["check", "rules"], b"");
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert!(stderr(&check).contains("checked 1 file: 3 rules"), "{}", stderr(&check));
    let test = hookc(dir.path(), &["test", "rules"], b"");
    assert!(stdout(&test).contains("1 passed, 0 failed"), "{}", stdout(&test));
}

/// A real agent's payload can be evaluated and explained as its hook would see it.
#[test]
fn eval_and_explain_read_an_agents_own_payload() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let claude = br#"{"session_id":"s","transcript_path":"/nowhere.jsonl","cwd":"/repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}"#;
    let native = hookc(root, &["eval", "--rules", "rules"], claude);
    assert_eq!(native.status.code(), Some(1));
    assert!(stderr(&native).contains("unknown field `transcript_path`"), "{}", stderr(&native));
    let as_claude = hookc(root, &["eval", "--rules", "rules", "--agent", "claude"], claude);
    assert_eq!(as_claude.status.code(), Some(0), "{}", stderr(&as_claude));
    let result: serde_json::Value = serde_json::from_str(&stdout(&as_claude)).unwrap();
    assert_eq!(result["matched"], serde_json::json!(["no-rm-root"]));

    let gemini = br#"{"hook_event_name":"BeforeTool","cwd":"/repo","tool_name":"write_file","tool_input":{"file_path":"/repo/Cargo.lock","content":"x"}}"#;
    let explained = hookc(root, &["explain", "--rules", "rules", "--agent", "gemini"], gemini);
    assert_eq!(explained.status.code(), Some(0), "{}", stderr(&explained));
    assert!(stdout(&explained).contains("evaluation stopped at `protect-generated`"), "{}", stdout(&explained));

    // A Stop reads the agent's transcript, as the hook does.
    let fixtures = root.join("tests/fixtures/transcripts/codex");
    let mut stop: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures.join("prompt-1-stop-1.payload.json")).unwrap()).unwrap();
    stop["transcript_path"] = fixtures.join("prompt-1-stop-1.jsonl").to_str().unwrap().into();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "stop.rules", "stop when tool_calls >= 0 => continue \"ran {commands}\"\n");
    let output = hookc(dir.path(), &["eval", "--rules", "stop.rules", "--agent", "codex"], stop.to_string().as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains(r#""forceContinue":"ran echo built > out.txt""#), "{}", stdout(&output));
}

/// Every verb's `--help` ends with examples, and every flag an example uses is one of the
/// verb's own.
#[test]
fn every_verb_has_examples_that_use_its_own_flags() {
    let dir = tempfile::tempdir().unwrap();
    // Every verb the command line lists, so a new one is checked the day it is added.
    let top = stdout(&hookc(dir.path(), &["--help"], b""));
    let listed = top.split("Commands:").nth(1).unwrap().split("Options:").next().unwrap();
    let verbs: Vec<&str> =
        listed.lines().filter_map(|line| line.split_whitespace().next()).filter(|verb| *verb != "help").collect();
    assert!(verbs.len() >= 15 && verbs.contains(&"hook") && verbs.contains(&"lsp"), "{verbs:?}");
    for verb in verbs {
        let help = stdout(&hookc(dir.path(), &[verb, "--help"], b""));
        let examples = help.split("Example").nth(1).unwrap_or_else(|| panic!("`hookc {verb} --help` has no example"));
        for line in examples.lines().filter(|line| line.contains(&format!("hookc {verb}"))) {
            for flag in line.split_whitespace().filter(|word| word.starts_with("--")) {
                let flag = flag.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '-');
                assert!(
                    help.contains(&format!("{flag} ")) || help.contains(&format!("{flag}\n")),
                    "`hookc {verb}`: the example uses {flag}, which the verb does not have:\n{line}"
                );
            }
        }
    }
}

/// The pre-commit hooks and the GitHub Action run real verbs with real flags.
#[test]
fn the_pre_commit_hooks_and_the_action_run_real_commands() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let help = |verb: &str| stdout(&hookc(root, &[verb, "--help"], b""));
    let hooks: serde_json::Value =
        serde_yaml::from_str(&std::fs::read_to_string(root.join(".pre-commit-hooks.yaml")).unwrap()).unwrap();
    let mut commands: Vec<String> = hooks
        .as_array()
        .unwrap()
        .iter()
        .map(|hook| {
            let args: Vec<&str> = hook["args"]
                .as_array()
                .map(|args| args.iter().map(|arg| arg.as_str().unwrap()).collect())
                .unwrap_or_default();
            // The entry runs the release binary through `release/pre-commit.sh` (tests/release.rs).
            let entry = hook["entry"].as_str().unwrap().replacen("release/pre-commit.sh", "hookc", 1);
            format!("{entry} {}", args.join(" "))
        })
        .collect();
    let action = std::fs::read_to_string(root.join("action.yml")).unwrap();
    let action: serde_json::Value = serde_yaml::from_str(&action).unwrap();
    for step in action["runs"]["steps"].as_array().unwrap() {
        for line in step["run"].as_str().unwrap_or_default().lines() {
            commands.extend(line.split("hookc ").skip(1).map(|rest| format!("hookc {rest}")));
        }
    }
    assert!(commands.len() >= 6, "{commands:?}");
    for command in &commands {
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "hookc", "{command}");
        let verb_help = help(words[1]);
        assert!(verb_help.contains("Usage: hookc"), "{command}: no verb `{}`", words[1]);
        for flag in words.iter().filter(|word| word.starts_with("--")) {
            let flag = flag.trim_end_matches(';');
            assert!(
                verb_help.contains(&format!("{flag} ")) || verb_help.contains(&format!("{flag}\n")),
                "{command}: no flag {flag}"
            );
        }
    }
    // The hooks as pre-commit runs them, on the shipped rules.
    for hook in hooks.as_array().unwrap().iter().filter(|hook| hook["pass_filenames"] == false) {
        let mut args: Vec<&str> = hook["entry"].as_str().unwrap().split_whitespace().skip(1).collect();
        args.extend(hook["args"].as_array().unwrap().iter().map(|arg| arg.as_str().unwrap()));
        let output = hookc(root, &args, b"");
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}{}", stdout(&output), stderr(&output));
    }
}

/// `hookc test` takes files too: a rule file brings its test file, a test file is not rules.
#[test]
fn test_takes_rule_and_test_files_by_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for args in [&["test", "rules/files.rules"][..], &["test", "rules/files.rules", "rules/files.test.yaml"][..]] {
        let output = hookc(root, args, b"");
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}{}", stdout(&output), stderr(&output));
        let last = stdout(&output).lines().last().unwrap().to_string();
        let passed: usize = last.split(' ').next().unwrap().parse().unwrap();
        assert!(passed > 0 && last.ends_with("passed, 0 failed"), "{last}");
    }
    let alone = hookc(root, &["test", "rules/files.test.yaml"], b"");
    assert_eq!(alone.status.code(), Some(2));
    assert!(stderr(&alone).contains("name the rule files or directories too"), "{}", stderr(&alone));
}

#[test]
fn a_filter_that_matches_no_case_fails() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = hookc(root, &["test", "rules/", "--filter", "no case is named like this"], b"");
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("no case's name contains"), "{}", stderr(&output));
}

/// One policy identity: the same rules hash alike through `rules`, `./rules`, `rules/`, an
/// absolute path, a copy elsewhere and `compile` run from another directory; a change of
/// content or of file order changes it.
#[test]
fn the_policy_hash_does_not_depend_on_how_the_rules_are_named() {
    let dir = project();
    write(&dir.path().join("rules"), "second.rules", "rule second pre_tool_use => context \"2\"\n");
    let hash_of = |cwd: &Path, rules: &str| {
        let output = hookc(cwd, &["check", rules], b"");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let text = stderr(&output);
        text.lines().find_map(|line| line.strip_prefix("policy ")).map(str::to_string).expect(&text)
    };
    let absolute = dir.path().join("rules");
    let reference = hash_of(dir.path(), "rules");
    assert!(reference.starts_with("sha256:"), "{reference}");
    for spelling in ["./rules", "rules/", "./rules/../rules", absolute.to_str().unwrap()] {
        assert_eq!(hash_of(dir.path(), spelling), reference, "{spelling}");
    }
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("team-policy");
    std::fs::create_dir(&copy).unwrap();
    for name in ["main.rules", "second.rules"] {
        std::fs::copy(absolute.join(name), copy.join(name)).unwrap();
    }
    assert_eq!(hash_of(elsewhere.path(), "team-policy"), reference, "a copy elsewhere");

    // compile, from another directory, records the same identity in the bundle.
    let bundle = elsewhere.path().join("policy.json");
    let compiled =
        hookc(elsewhere.path(), &["compile", absolute.to_str().unwrap(), "-o", "policy.json", "--format", "json"], b"");
    assert!(stderr(&compiled).contains(&reference), "{}", stderr(&compiled));
    let stored: serde_json::Value = serde_json::from_slice(&std::fs::read(bundle).unwrap()).unwrap();
    assert_eq!(stored["source_hash"], reference.as_str());

    // The order the files are tried in is part of the identity, and so is every byte.
    std::fs::rename(copy.join("second.rules"), copy.join("a-second.rules")).unwrap();
    assert_ne!(hash_of(elsewhere.path(), "team-policy"), reference, "order changed");
    std::fs::rename(copy.join("a-second.rules"), copy.join("second.rules")).unwrap();
    std::fs::write(copy.join("second.rules"), "rule second pre_tool_use => context \"3\"\n").unwrap();
    assert_ne!(hash_of(elsewhere.path(), "team-policy"), reference, "content changed");
    // A shipped rule set hashes as its checkout does.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(hash_of(root, "rules"), hash_of(dir.path(), "builtin:baseline"));
}

/// `matched_includes` checks that some rules fired among others, so a recipe's cases hold beside
/// other rule sets; a rule that did not fire, or an unknown name, fails the case.
#[test]
fn test_cases_may_name_some_of_the_rules_that_fired() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "r.rules",
        "rule recipe pre_tool_use when command contains \"push\" => ask \"push\"\nrule team pre_tool_use when command contains \"git\" => log \"git\"\n",
    );
    let cases = |expect: &str| {
        format!("- name: c\n  event: {{event: pre_tool_use, tool: Bash, args: {{command: git push}}}}\n  expect: {expect}\n")
    };
    for (expect, passes, said) in [
        ("{matched_includes: [recipe]}", true, ""),
        ("{matched_includes: [team, recipe]}", true, ""),
        ("{matched: [recipe]}", false, "matched"),
        ("{matched_includes: [nope]}", false, "which the rule set does not have"),
        ("{matched_includes: [recipe], matched: [recipe, team]}", false, "give one"),
    ] {
        write(dir.path(), "r.test.yaml", &cases(expect));
        let output = hookc(dir.path(), &["test", "."], b"");
        assert_eq!(output.status.code() == Some(0), passes, "{expect}: {}", stdout(&output));
        assert!(stdout(&output).contains(said), "{expect}: {}", stdout(&output));
    }
    write(
        dir.path(),
        "r.test.yaml",
        "- name: c\n  event: {event: pre_tool_use, tool: Bash, args: {command: git status}}\n  expect: {matched_includes: [recipe]}\n",
    );
    let output = hookc(dir.path(), &["test", "."], b"");
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("the rule `recipe` did not fire (fired: team)"), "{}", stdout(&output));
}

/// hookc's own files are out of the agent's reach whatever the rules say: a policy with no rule
/// about them still refuses every write, truncation, move or deletion of the audit log, the rule
/// files, the bundle, its signature and the trust key, by any spelling or through a link; reading
/// them is left to the rules.
#[test]
fn the_hook_keeps_its_own_files_whatever_the_rules_say() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    write(dir.path(), "rules/a.rules", "pre_tool_use when command == \"never\" => deny\n");
    std::fs::create_dir_all(root.join("logs")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("logs/audit.jsonl"), root.join("innocent.txt")).unwrap();
    let compiled = hookc(dir.path(), &["compile", "rules", "-o", "policy.json"], b"");
    assert_eq!(compiled.status.code(), Some(0), "{}", stderr(&compiled));
    let call = |args: &[&str], tool: &str, input: serde_json::Value| {
        let payload =
            serde_json::json!({"hook_event_name": "PreToolUse", "cwd": root, "tool_name": tool, "tool_input": input});
        let output = crate::support::hookc_with_env(
            dir.path(),
            args,
            payload.to_string().as_bytes(),
            &[("CLAUDE_PROJECT_DIR".to_string(), root.display().to_string())].into_iter().collect(),
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output)
    };
    let rules = ["hook", "claude", "--rules", "rules", "--audit-log", "logs/audit.jsonl"];
    let bash = |command: &str| serde_json::json!({"command": command});
    let refused = [
        bash("rm logs/audit.jsonl"),
        bash("echo > logs/audit.jsonl"),
        bash(&format!("truncate -s 0 {}/logs/audit.jsonl", root.display())),
        bash("mv logs/audit.jsonl /tmp/x"),
        bash("cd logs && rm -f ./audit.jsonl"),
        bash("rm -rf rules"),
        bash("sed -i s/never/ever/ rules/a.rules"),
        bash("rm -r logs"),
    ];
    for input in refused {
        let said = call(&rules, "Bash", input.clone());
        assert!(
            said.contains("\"deny\"") && said.contains("belongs to the hook that governs this agent"),
            "{input}: {said}"
        );
    }
    for (tool, input) in [
        ("Write", serde_json::json!({"file_path": root.join("rules/a.rules"), "content": ""})),
        ("Edit", serde_json::json!({"file_path": "logs/audit.jsonl", "old_string": "a", "new_string": "b"})),
    ] {
        let said = call(&rules, tool, input.clone());
        assert!(said.contains("\"deny\""), "{tool} {input}: {said}");
    }
    #[cfg(unix)]
    {
        let said = call(&rules, "Bash", bash("echo forged > innocent.txt"));
        assert!(said.contains("\"deny\"") && said.contains("audit log"), "through a link: {said}");
    }
    // Reading them, writing elsewhere, and writing into a directory many things go to (the
    // project root, home, the temp directory) is for the rules to decide.
    for command in ["cat logs/audit.jsonl", "grep never rules/a.rules", "echo hi > logs/other.txt", "cp a.txt ."] {
        assert!(!call(&rules, "Bash", bash(command)).contains("\"deny\""), "{command}");
    }
    // An audit log in the temp directory or home: copying a file there is not a write of the log.
    for log in ["/tmp/hookc-guard-test.jsonl", "~/hookc-guard-test.jsonl"] {
        let log = log.replace('~', &std::env::var("HOME").unwrap());
        let args = ["hook", "claude", "--rules", "rules", "--audit-log", log.as_str()];
        let dir_of = std::path::Path::new(&log).parent().unwrap().display().to_string();
        assert!(!call(&args, "Bash", bash(&format!("cp a.txt {dir_of}"))).contains("\"deny\""), "{log}");
        assert!(call(&args, "Bash", bash(&format!("rm -f {log}"))).contains("\"deny\""), "{log}");
        let _ = std::fs::remove_file(&log);
    }
    // The audit record names the guard.
    call(&rules, "Bash", bash("rm logs/audit.jsonl"));
    let log = std::fs::read_to_string(root.join("logs/audit.jsonl")).unwrap();
    assert!(log.lines().last().unwrap().contains("\"rules\":[\"hookc/own-files\"]"), "{log}");

    // A signed bundle, its signature and the trust key.
    let key = minisign::KeyPair::generate_unencrypted_keypair().unwrap();
    let signature =
        minisign::sign(None, &key.sk, std::fs::File::open(root.join("policy.json")).unwrap(), None, None).unwrap();
    std::fs::write(root.join("policy.json.minisig"), signature.to_string()).unwrap();
    std::fs::write(root.join("key.pub"), key.pk.to_box().unwrap().to_string()).unwrap();
    let signed = ["hook", "claude", "--bundle", "policy.json", "--trust-key", "key.pub"];
    for command in ["rm policy.json", "echo > policy.json.minisig", "cp /dev/null policy.json", "echo x > key.pub"] {
        let said = call(&signed, "Bash", bash(command));
        assert!(said.contains("\"deny\"") && said.contains("belongs to the hook"), "{command}: {said}");
    }
    assert!(!call(&signed, "Bash", bash("cat key.pub")).contains("\"deny\""));
}

/// A policy loaded from files keeps them out of the agent's reach in-process as the hook command
/// does (the Claude Agent SDK integrations answer through `hookc::runtime::answer`): the same bytes
/// as `hookc hook claude`, for the rule files and for a bundle and its signature.
#[test]
fn an_in_process_answer_keeps_the_policys_own_files_as_the_command_does() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    write(dir.path(), "rules/a.rules", "pre_tool_use when command == \"never\" => deny\n");
    let from_rules = hookc::Policy::from_paths(&[root.join("rules")]).unwrap();
    std::fs::write(root.join("policy.hcb"), from_rules.to_bundle()).unwrap();
    let from_bundle = hookc::Policy::load_bundle(root.join("policy.hcb")).unwrap();
    let cases = [
        (&from_rules, ["--rules", "rules"], ["rm -rf rules", "mv rules rules.old", "chmod 000 rules/a.rules"]),
        (
            &from_bundle,
            ["--bundle", "policy.hcb"],
            ["rm policy.hcb", "echo x > policy.hcb.minisig", "mv policy.hcb /tmp/p"],
        ),
    ];
    for (policy, load, commands) in cases {
        for command in commands {
            let payload = serde_json::json!({"hook_event_name": "PreToolUse", "cwd": root, "tool_name": "Bash",
                "tool_input": {"command": command}})
            .to_string();
            let answer = hookc::runtime::answer(policy, "claude", &payload, None).unwrap();
            let said = answer.stdout.clone().unwrap_or_default();
            assert!(said.contains("\"deny\"") && said.contains("belongs to the hook"), "{command}: {said}");
            let args = ["hook", "claude", load[0], load[1]];
            let output = hookc(dir.path(), &args, payload.as_bytes());
            assert_eq!(stdout(&output).trim_end(), said.trim_end(), "{command}: in-process and command agree");
        }
    }
    // Rules given as text have no files of their own; the caller guards what it loaded them from.
    let from_text = hookc::Policy::from_source("a.rules", "pre_tool_use when command == \"never\" => deny\n").unwrap();
    assert!(from_text.own_files().is_empty());
    assert_eq!(from_rules.own_files().len(), 1);
    // What the caller guards stays guarded when the own files are dropped, even the same file.
    let settings = hookc::PathSettings::default().with_guarded(from_rules.own_files().to_vec());
    let caller = from_rules.clone().with_path_settings(settings).without_own_files();
    let payload = serde_json::json!({"hook_event_name": "PreToolUse", "cwd": root, "tool_name": "Bash",
        "tool_input": {"command": "rm -rf rules"}})
    .to_string();
    let said = hookc::runtime::answer(&caller, "claude", &payload, None).unwrap().stdout.unwrap_or_default();
    assert!(said.contains("belongs to the hook"), "{said}");
    assert_eq!(
        from_bundle.own_files().iter().map(|file| file.what).collect::<Vec<_>>(),
        ["the policy bundle", "the policy bundle's signature"]
    );
}

/// A project whose rules decide nothing, for the hook's own guard alone.
fn unruled_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    std::fs::write(dir.path().join("rules/a.rules"), "pre_tool_use when tool == \"nothing\" => deny\n").unwrap();
    dir
}

/// What `hookc hook claude` in `root`, with the variables `env`, answers to a call of `tool`.
fn hook_call(
    root: &Path,
    env: &std::collections::BTreeMap<String, String>,
    tool: &str,
    input: serde_json::Value,
) -> String {
    let payload = serde_json::json!({"session_id": "s", "hook_event_name": "PreToolUse", "cwd": root,
        "tool_name": tool, "tool_input": input});
    let args = ["hook", "claude", "--rules", "rules"];
    stdout(&crate::support::hookc_with_env(root, &args, payload.to_string().as_bytes(), env))
}

/// An agent's settings moved by a variable (`CODEX_HOME`, `CLAUDE_CONFIG_DIR`) are where it reads
/// its hooks: the hook, which runs with the agent's variables, guards them wherever they are.
#[test]
fn settings_a_variable_moved_are_guarded() {
    let dir = unruled_project();
    let root = dir.path();
    let codex = root.join("codex-home");
    let claude = root.join("claude-config");
    std::fs::create_dir_all(&codex).unwrap();
    std::fs::create_dir_all(&claude).unwrap();
    let env: std::collections::BTreeMap<String, String> = [
        ("CODEX_HOME".to_string(), codex.display().to_string()),
        ("CLAUDE_CONFIG_DIR".to_string(), claude.display().to_string()),
    ]
    .into();
    let writes = [
        ("Bash", serde_json::json!({"command": format!("echo '{{}}' > {}/hooks.json", codex.display())})),
        ("Write", serde_json::json!({"file_path": claude.join("settings.json"), "content": "{}"})),
        ("Bash", serde_json::json!({"command": format!("rm -rf {}", claude.display())})),
    ];
    for (tool, input) in &writes {
        let said = hook_call(root, &env, tool, input.clone());
        assert!(said.contains("\"deny\"") && said.contains("where a variable moved them"), "{tool} {input}: {said}");
    }
    // Without the variables they are ordinary directories, for the rules to decide.
    for (tool, input) in &writes {
        assert!(!hook_call(root, &Default::default(), tool, input.clone()).contains("\"deny\""), "{tool} {input}");
    }
}

/// The hook's own binary, and a `hookc` any directory earlier on `PATH` would run in its place,
/// are the hook's: a write there decides what the next hook call runs. A later directory's is not.
#[test]
fn the_hook_binary_and_its_shadows_on_path_are_guarded() {
    let dir = unruled_project();
    let root = dir.path();
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_hookc")).unwrap();
    let exe_dir = exe.parent().unwrap().to_path_buf();
    let (early, late) = (root.join("early"), root.join("late"));
    std::fs::create_dir_all(&early).unwrap();
    std::fs::create_dir_all(&late).unwrap();
    let path = std::env::join_paths([early.clone(), exe_dir, late.clone()]).unwrap();
    let env: std::collections::BTreeMap<String, String> =
        [("PATH".to_string(), path.to_string_lossy().into_owned())].into();
    let bash = |command: String| hook_call(root, &env, "Bash", serde_json::json!({"command": command}));
    for command in [
        format!("cp /tmp/always-allow {}", early.join("hookc").display()),
        format!("ln -sf /tmp/always-allow {}", early.join("hookc.exe").display()),
        format!("cat evil > {}", exe.display()),
    ] {
        let said = bash(command.clone());
        assert!(said.contains("\"deny\"") && said.contains("hook"), "{command}: {said}");
    }
    let said = bash(format!("cp ./build/hookc {}", late.join("hookc").display()));
    assert!(!said.contains("\"deny\""), "a later directory's: {said}");
}
