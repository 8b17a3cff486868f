//! The binding on the native target: what the browser build runs, without a browser.

use hookc_wasm::api;
use serde_json::{json, Value};

fn policy(text: &str) -> hookc::Policy {
    api::load("t.rules", text).unwrap()
}

fn decide(policy: &hookc::Policy, event: Value) -> Value {
    serde_json::from_str(&api::evaluate(policy, &event.to_string()).unwrap()).unwrap()
}

#[test]
fn links_on_disk_are_not_followed() {
    // Linux's /proc/self/root is a link to /: followed, this is /etc/passwd (the evaluation
    // fixtures' file_system case); with the file system off it is only its own spelling.
    let rules = r#"rule passwd pre_tool_use when kind == write and path == "/etc/passwd" => deny "the password file""#;
    let event = json!({"event": "pre_tool_use", "tool": "Write", "cwd": "/repo",
                       "args": {"file_path": "/proc/self/root/etc/passwd", "content": "x"}});
    assert_eq!(decide(&policy(rules), event.clone()), json!({}));
    let attached = hookc::Policy::from_source("t.rules", rules).unwrap();
    let followed = attached.evaluate(&hookc::Event::from_json(event.to_string().as_bytes()).unwrap()).unwrap();
    if cfg!(target_os = "linux") {
        assert_eq!(followed.permission_behavior, hookc::Permission::Deny, "the native policy follows the link");
    }
}

#[test]
fn tilde_is_no_directory_of_the_process() {
    // The process's home (HOME) is not read: an absolute path under it is only absolute.
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let rules = r#"rule rc pre_tool_use when path == "~/.bashrc" => deny "shell start-up file""#;
    let event = json!({"event": "pre_tool_use", "tool": "Read", "cwd": "/repo",
                       "args": {"file_path": format!("{home}/.bashrc")}});
    assert_eq!(decide(&policy(rules), event), json!({}));
    // `~/…` as written is still the home spelling rules name.
    let event = json!({"event": "pre_tool_use", "tool": "Read", "cwd": "/repo", "args": {"file_path": "~/.bashrc"}});
    assert_eq!(decide(&policy(rules), event)["permissionBehavior"], "deny");
}

#[test]
fn errors_carry_codes_and_diagnostics() {
    let failure = api::load("bad.rules", "rule x pre_tool_use when kind == wirte => deny").unwrap_err();
    assert!(failure.code().as_str().starts_with('E'), "{failure:?}");
    let diagnostics = failure.diagnostics().cloned().unwrap();
    assert_eq!(diagnostics[0]["code"], failure.code().as_str());
    let json = failure.to_json();
    assert_eq!(json["code"], failure.code().as_str());
    let policy = policy(r#"rule a pre_tool_use when tool == "Bash" => deny "no""#);
    assert_eq!(api::evaluate(&policy, "{").unwrap_err().code().as_str(), "HOOKC_EVENT");
    assert_eq!(api::evaluate(&policy, &"[".repeat(100_000)).unwrap_err().code().as_str(), "HOOKC_EVENT");
    assert_eq!(api::answer(&policy, "nobody", "{}", None).unwrap_err().code().as_str(), "HOOKC_AGENT");
}

#[test]
fn check_reports_errors_and_lints_with_positions() {
    let report = api::check("p.rules", "rule a pre_tool_use when kind == wirte => deny \"x\"\n");
    assert_eq!(report["rules"], Value::Null);
    let first = &report["diagnostics"][0];
    assert_eq!(first["severity"], "error");
    assert_eq!(first["line"], 1);
    assert!(first["column"].as_u64().unwrap() > 1);
    let clean = api::check("p.rules", "rule a pre_tool_use when kind == shell => deny \"x\"\n");
    assert_eq!(clean["rules"], 1);
    assert_eq!(clean["diagnostics"], json!([]));
}

#[test]
fn answers_and_explains_as_the_command_does() {
    let policy = policy(r#"rule rmrf pre_tool_use when runs rm => deny "destructive""#);
    let payload = json!({"hook_event_name": "PreToolUse", "cwd": "/repo", "tool_name": "Bash",
                         "tool_input": {"command": "cd /tmp && rm -rf build"}})
    .to_string();
    let answer = api::answer(&policy, "claude", &payload, None).unwrap();
    let stdout: Value = serde_json::from_str(answer["stdout"].as_str().unwrap()).unwrap();
    assert_eq!(stdout["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(answer["exit"], 0);
    let explained: Value =
        serde_json::from_str(&api::explain_payload(&policy, "claude", &payload, None).unwrap()).unwrap();
    let text = explained.to_string();
    assert!(text.contains("rmrf") && text.contains("fired"), "{text}");
    let agents = api::agents();
    assert!(agents.as_array().unwrap().iter().any(|agent| agent["id"] == "claude"));
}

#[test]
fn the_shipped_baseline_loads_by_name_and_decides_as_the_command() {
    let files = api::builtin("baseline").unwrap();
    let policy = api::load_all(&files.to_string()).unwrap();
    let decided = decide(
        &policy,
        json!({"event": "pre_tool_use", "tool": "Bash", "cwd": "/repo",
                                          "args": {"command": "rm -rf ~"}}),
    );
    assert_eq!(decided["permissionBehavior"], "deny");
    assert_eq!(api::builtin("nope").unwrap_err().code().as_str(), "HOOKC_LOAD");
}
