//! `hookc replay` and the audit log through the real binary.

use crate::support::{fixtures, hookc, stderr, stdout};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn replay_prints_the_transcript_with_every_decision() {
    let session = fixtures("replay").join("session.yaml");
    let output = hookc(root(), &["replay", session.to_str().unwrap(), "--rules", "rules"], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    insta::assert_snapshot!(stdout(&output));

    let json = hookc(root(), &["replay", session.to_str().unwrap(), "--rules", "rules", "--format", "json"], b"");
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(value["outcome"]["completed"], "done");
    let blocked = value["steps"].as_array().unwrap().iter().find(|step| step["hook"]["call_id"] == "c1").unwrap();
    assert_eq!(blocked["hook"]["result"]["blockingError"]["code"], "hook_blocked");
}

/// `log` records reach the transcript, both formats, on every event.
#[test]
fn replay_keeps_every_log_record() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("session.yaml"),
        "prompt: go\ntools:\n  - {name: Bash, effect: read, schema: {command: string}}\nreplies:\n  - tool_calls:\n      - {id: c1, tool: Bash, args: {command: ls}}\n  - text: done\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("log.rules"),
        "user_prompt_submit => log \"prompt {prompt}\"\npre_tool_use => log \"ran {command}\"\nstop => log \"stopped after {tool_calls}\"\n",
    )
    .unwrap();
    let output = hookc(dir.path(), &["replay", "session.yaml", "--rules", "log.rules"], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    for expected in ["log log.rules:1: prompt go", "log log.rules:2: ran ls", "log log.rules:3: stopped after 1"] {
        assert!(text.contains(expected), "{expected:?} missing from\n{text}");
    }
    let json = hookc(dir.path(), &["replay", "session.yaml", "--rules", "log.rules", "--format", "json"], b"");
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let logs: Vec<String> = value["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|step| step["hook"]["logs"].as_array().cloned().unwrap_or_default())
        .map(|log| log["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(logs, ["prompt go", "ran ls", "stopped after 1"]);
}

#[test]
fn replay_exit_status_says_whether_the_session_ran_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    // The Stop rule forces one more turn, but the script has no reply left.
    std::fs::write(dir.path().join("short.yaml"), "prompt: go\nreplies:\n  - text: done\n").unwrap();
    std::fs::write(dir.path().join("more.rules"), "stop when tool_calls == 0 => continue \"use a tool first\"\n")
        .unwrap();
    let output = hookc(dir.path(), &["replay", "short.yaml", "--rules", "more.rules"], b"");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("the session failed: the model failed: the script has no reply for request 2"),
        "{}",
        stderr(&output)
    );

    std::fs::write(dir.path().join("bad.yaml"), "prompt: go\nreplys: []\n").unwrap();
    let bad = hookc(dir.path(), &["replay", "bad.yaml", "--rules", "more.rules"], b"");
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("unknown field `replys`"), "{}", stderr(&bad));
}

#[test]
fn eval_and_claude_append_one_audit_line_per_decision() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    let rules = root().join("rules");
    let (log_arg, rules_arg) = (log.to_str().unwrap(), rules.to_str().unwrap());
    let native = br#"{"event":"pre_tool_use","tool":"Bash","args":{"command":"rm -rf /"}}"#;
    assert_eq!(
        hookc(dir.path(), &["eval", "--rules", rules_arg, "--audit-log", log_arg], native).status.code(),
        Some(0)
    );
    let claude = br#"{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"Write","tool_input":{"file_path":"/repo/Cargo.lock","content":"x"}}"#;
    assert_eq!(
        hookc(dir.path(), &["claude", "--rules", rules_arg, "--audit-log", log_arg], claude).status.code(),
        Some(0)
    );
    let lines: Vec<serde_json::Value> =
        std::fs::read_to_string(&log).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!((lines[0]["tool"].as_str(), lines[0]["decision"].as_str()), (Some("Bash"), Some("deny")));
    assert_eq!(lines[0]["rules"], serde_json::json!(["no-rm-root"]));
    assert_eq!(lines[0]["target"], "rm -rf /");
    assert_eq!((lines[1]["tool"].as_str(), lines[1]["decision"].as_str()), (Some("Write"), Some("block")));
    assert_eq!((lines[1]["kind"].as_str(), lines[1]["target"].as_str()), (Some("write"), Some("/repo/Cargo.lock")));
    assert!(lines[1]["policy"].as_str().unwrap().starts_with("sha256:"));
    assert!(lines[1]["time"].as_str().unwrap().starts_with("20"), "{}", lines[1]["time"]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&log).unwrap().permissions().mode() & 0o777, 0o600, "the log is the user's alone");
    }
}

/// The audit log is an observer: when it cannot be written the decision is the same.
#[test]
fn an_audit_log_that_cannot_be_opened_changes_no_decision() {
    let native = br#"{"event":"pre_tool_use","tool":"Bash","args":{"command":"rm -rf /"}}"#;
    let plain = hookc(root(), &["eval", "--rules", "rules"], native);
    let broken = hookc(root(), &["eval", "--rules", "rules", "--audit-log", "/nonexistent/dir/audit.jsonl"], native);
    assert_eq!(broken.status.code(), plain.status.code());
    assert_eq!(stdout(&broken), stdout(&plain));
    assert!(stderr(&broken).contains("cannot open the audit log"), "{}", stderr(&broken));
}

/// Killed mid-run, the audit log holds only whole lines.
#[test]
fn a_killed_run_leaves_only_whole_audit_lines() {
    let dir = tempfile::tempdir().unwrap();
    let session = "prompt: go\ntools:\n  - {name: read_file, effect: read, schema: {path: string}}\n\
                   replies:\n  - tool_calls:\n      - {id: c, tool: read_file, args: {path: a}, repeat: 200000}\n  - text: done\n";
    std::fs::write(dir.path().join("long.yaml"), session).unwrap();
    std::fs::write(dir.path().join("audit.rules"), "pre_tool_use => log \"x\"\n").unwrap();
    let log = dir.path().join("audit.jsonl");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookc"))
        .args(["replay", "long.yaml", "--rules", "audit.rules", "--audit-log", log.to_str().unwrap()])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait (bounded) until records are being written, then kill the process mid-run.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::metadata(&log).map_or(0, |meta| meta.len()) < 64 * 1024 {
        assert!(std::time::Instant::now() < deadline, "no audit records within 60 s");
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be killed");
        std::thread::yield_now();
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "the process was killed, not finished");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.ends_with('\n'), "the last line is whole");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 100, "{} lines", lines.len());
    for line in lines {
        let record: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|error| panic!("a broken line {line:?}: {error}"));
        assert!(record["event"].is_string());
    }
}

/// The rules' `log` records reach the audit log whichever verb ran them: `replay` goes through
/// the hook registry, `eval` and `claude` through the policy directly.
#[test]
fn log_records_reach_the_audit_log_from_every_verb() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("log.rules"), "user_prompt_submit => log \"prompt: {prompt}\"\n").unwrap();
    std::fs::write(dir.path().join("session.yaml"), "prompt: go\nreplies:\n  - text: done\n").unwrap();
    let log = dir.path().join("audit.jsonl");
    let log_arg = log.to_str().unwrap();
    let replay = hookc(dir.path(), &["replay", "session.yaml", "--rules", "log.rules", "--audit-log", log_arg], b"");
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    let native = br#"{"event":"user_prompt_submit","prompt":"go"}"#;
    let eval = hookc(dir.path(), &["eval", "--rules", "log.rules", "--audit-log", log_arg], native);
    assert_eq!(eval.status.code(), Some(0), "{}", stderr(&eval));
    let claude = br#"{"hook_event_name":"UserPromptSubmit","prompt":"go"}"#;
    let agent = hookc(dir.path(), &["claude", "--rules", "log.rules", "--audit-log", log_arg], claude);
    assert_eq!(agent.status.code(), Some(0), "{}", stderr(&agent));
    let text = std::fs::read_to_string(&log).unwrap();
    let prompts: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|record| record["event"] == "user_prompt_submit")
        .collect();
    assert_eq!(prompts.len(), 3, "{text}");
    for record in prompts {
        assert_eq!(record["logs"][0]["message"], "prompt: go", "{record}");
    }
}

/// Found by a review: an audit log the agent swaps for a link (symbolic or hard) to another file
/// is refused, never appended to; the decision is unchanged.
#[test]
fn an_audit_log_that_is_a_link_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("bashrc");
    std::fs::write(&victim, "# startup file\n").unwrap();
    let payload = br#"{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"Bash","tool_input":{"command":"echo $(touch /tmp/x)"}}"#;
    let rules = root().join("rules");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&victim, dir.path().join("symlinked.jsonl")).unwrap();
    std::fs::hard_link(&victim, dir.path().join("hardlinked.jsonl")).unwrap();
    for log in ["symlinked.jsonl", "hardlinked.jsonl"] {
        let output = hookc(dir.path(), &["claude", "--rules", rules.to_str().unwrap(), "--audit-log", log], payload);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(stderr(&output).contains("a link: the audit log must be a file of its own"), "{}", stderr(&output));
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "# startup file\n", "{log}");
    }
    // A dangling link is not followed to create its target either.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.path().join("created"), dir.path().join("dangling.jsonl")).unwrap();
        hookc(dir.path(), &["claude", "--rules", rules.to_str().unwrap(), "--audit-log", "dangling.jsonl"], payload);
        assert!(!dir.path().join("created").exists());
    }
    // A target is cut to 512 characters in all, the ellipsis included.
    let long = format!(
        r#"{{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"Bash","tool_input":{{"command":"echo {}"}}}}"#,
        "é".repeat(600)
    );
    hookc(dir.path(), &["claude", "--rules", rules.to_str().unwrap(), "--audit-log", "audit.jsonl"], long.as_bytes());
    let record: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap().lines().next().unwrap())
            .unwrap();
    let target = record["target"].as_str().unwrap();
    assert_eq!(target.chars().count(), 512);
    assert!(target.ends_with('…'));
}

/// Found by a review: a call the policy could not decide is recorded too — a policy that cannot
/// load (with `--fail-open` as well), a payload that cannot be read.
#[test]
fn calls_that_could_not_be_decided_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let rules = root().join("rules");
    let rm = br#"{"hook_event_name":"PreToolUse","session_id":"s9","cwd":"/r","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;
    let allowed =
        hookc(dir.path(), &["claude", "--rules", "missing.rules", "--fail-open", "--audit-log", "a.jsonl"], rm);
    assert_eq!(allowed.status.code(), Some(0));
    let blocked =
        hookc(dir.path(), &["gemini", "--rules", rules.to_str().unwrap(), "--audit-log", "a.jsonl"], b"not json");
    assert_eq!(blocked.status.code(), Some(2));
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(dir.path().join("a.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!((lines[0]["decision"].as_str(), lines[0]["policy"].as_str()), (Some("error"), Some("unavailable")));
    assert_eq!((lines[0]["event"].as_str(), lines[0]["tool"].as_str()), (Some("pre_tool_use"), Some("Bash")));
    assert!(lines[0]["error"].as_str().unwrap().contains("missing.rules"));
    assert_eq!((lines[1]["event"].as_str(), lines[1]["agent"].as_str()), (Some("unknown"), Some("gemini")));
    assert!(lines[1]["error"].as_str().unwrap().contains("not valid JSON"));
}
