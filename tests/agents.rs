//! The agent adapters through the real binary: each agent's `agents/ID/fixtures.yaml`
//! give a payload and the exact answer; fail-closed behaviour and `hookc init` are tested here.

use crate::support::{agent_folder, hookc, stderr, stdout};
use serde::Deserialize;
use serde_json::Value;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    stdin: Value,
    /// The expected stdout JSON (or text); `null` for no output.
    stdout: Value,
    /// A line expected on stderr.
    stderr: Option<String>,
    /// The event the hook command names (`--event`), for agents whose payloads do not.
    event: Option<String>,
    /// The agent whose hook the payload arrives at, when it is another's (VS Code runs Claude
    /// Code's hooks).
    hook: Option<String>,
    /// The exit code (default 0).
    exit: Option<i32>,
    /// More arguments, as `init` writes them for the agent.
    #[serde(default)]
    args: Vec<String>,
    /// Environment variables the agent sets for its hooks.
    #[serde(default)]
    env: std::collections::BTreeMap<String, String>,
}

/// The command lines for each fixture file: `hookc hook AGENT`, and the spelling settings
/// written by earlier releases use, which must answer the same.
fn verbs(agent: &str) -> Vec<Vec<&str>> {
    let older = match agent {
        "claude" => vec!["claude"],
        "codex" => vec!["claude", "--agent", "codex"],
        "gemini" => vec!["gemini"],
        _ => return vec![vec!["hook", agent]],
    };
    vec![vec!["hook", agent], older]
}

#[test]
fn every_agent_fixture_gets_its_exact_answer() {
    let policy = agent_folder("").join("fixtures.rules");
    let mut failures = Vec::new();
    let mut count = 0;
    for agent in hookc::agents::AGENTS {
        let file = agent_folder(agent.id).join("fixtures.yaml");
        let text = std::fs::read_to_string(&file).unwrap_or_else(|_| panic!("{} has no fixture file", agent.id));
        let cases: Vec<Case> =
            serde_yaml::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
        assert!(!cases.is_empty(), "{} has no cases", agent.id);
        let calls = cases.iter().flat_map(|case| {
            let verbs = match &case.hook {
                Some(host) => vec![vec!["hook", host.as_str()]],
                None => verbs(agent.id),
            };
            verbs.into_iter().map(move |verb| (case, verb))
        });
        for (case, mut args) in calls {
            count += 1;
            args.extend(["--rules", policy.to_str().unwrap()]);
            if let Some(event) = &case.event {
                args.extend(["--event", event.as_str()]);
            }
            args.extend(case.args.iter().map(String::as_str));
            let output = if case.env.is_empty() {
                hookc(Path::new(env!("CARGO_MANIFEST_DIR")), &args, case.stdin.to_string().as_bytes())
            } else {
                crate::support::hookc_with_env(
                    Path::new(env!("CARGO_MANIFEST_DIR")),
                    &args,
                    case.stdin.to_string().as_bytes(),
                    &case.env,
                )
            };
            let printed = stdout(&output);
            let actual: Value = if printed.trim().is_empty() {
                Value::Null
            } else {
                serde_json::from_str(&printed).unwrap_or(Value::String(printed.trim_end().to_string()))
            };
            let problem = if output.status.code() != Some(case.exit.unwrap_or(0)) {
                Some(format!("exit {:?}: {}", output.status.code(), stderr(&output)))
            } else if actual != case.stdout {
                Some(format!("\n  expected {}\n  actual   {}", case.stdout, actual))
            } else if case.stderr.as_ref().is_some_and(|line| !stderr(&output).lines().any(|l| l == line)) {
                Some(format!("stderr lacks {:?}: {}", case.stderr, stderr(&output)))
            } else {
                None
            };
            if let Some(problem) = problem {
                failures.push(format!("{} / {} ({}): {problem}", agent.id, case.name, args.join(" ")));
            }
        }
    }
    assert!(count >= 40, "only {count} agent cases");
    assert!(failures.is_empty(), "{} of {count} failed:\n{}", failures.len(), failures.join("\n"));
}

/// Writing a protected file gets the same decision whichever agent asks.
#[test]
fn one_rule_file_governs_all_three_agents() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let rules = rules.to_str().unwrap();
    let calls: [(&[&str], Value); 3] = [
        (
            &["claude"],
            serde_json::json!({"hook_event_name": "PreToolUse", "cwd": "/repo", "tool_name": "Write",
            "tool_input": {"file_path": "/repo/Cargo.lock", "content": "x"}}),
        ),
        (
            &["claude", "--agent", "codex"],
            serde_json::json!({"hook_event_name": "PreToolUse", "cwd": "/repo", "tool_name": "apply_patch",
            "tool_input": {"command": "*** Begin Patch\n*** Update File: Cargo.lock\n*** End Patch\n"}}),
        ),
        (
            &["gemini"],
            serde_json::json!({"hook_event_name": "BeforeTool", "cwd": "/repo", "tool_name": "write_file",
            "tool_input": {"file_path": "/repo/Cargo.lock", "content": "x"}}),
        ),
    ];
    let mut reasons = Vec::new();
    for (verb, payload) in calls {
        let mut args = verb.to_vec();
        args.extend(["--rules", rules]);
        let output = hookc(Path::new("."), &args, payload.to_string().as_bytes());
        assert_eq!(output.status.code(), Some(0), "{verb:?}: {}", stderr(&output));
        let answer: Value = serde_json::from_str(&stdout(&output)).unwrap();
        let (decision, reason) = match answer.get("hookSpecificOutput") {
            Some(specific) => (specific["permissionDecision"].clone(), specific["permissionDecisionReason"].clone()),
            None => (answer["decision"].clone(), answer["reason"].clone()),
        };
        assert_eq!(decision, "deny", "{verb:?}: {answer}");
        reasons.push(reason);
    }
    assert!(reasons.iter().all(|reason| *reason == reasons[0]), "{reasons:?}");
    assert!(reasons[0].as_str().unwrap().starts_with("Error [hook_blocked]: Cargo.lock is generated"));
}

#[test]
fn anything_that_goes_wrong_blocks_with_exit_2_unless_fail_open() {
    let dir = tempfile::tempdir().unwrap();
    let policy = agent_folder("").join("fixtures.rules");
    let policy = policy.to_str().unwrap();
    std::fs::write(dir.path().join("broken.rules"), "pre_tool_use => nope\n").unwrap();
    let huge = {
        let mut payload = br#"{"hook_event_name":"UserPromptSubmit","prompt":""#.to_vec();
        payload.extend(std::iter::repeat_n(b'a', 33 * 1024 * 1024));
        payload.extend(br#""}"#);
        payload
    };
    for (verb, tool_event) in [(vec!["claude"], "PreToolUse"), (vec!["gemini"], "BeforeTool")] {
        let good =
            format!(r#"{{"hook_event_name":"{tool_event}","tool_name":"Bash","tool_input":{{"command":"ls"}}}}"#)
                .into_bytes();
        let cases: Vec<(&str, Vec<&str>, Vec<u8>, &str)> = vec![
            ("garbage", vec!["--rules", policy], b"garbage".to_vec(), "not valid JSON"),
            ("empty stdin", vec!["--rules", policy], Vec::new(), "the hook payload is empty"),
            (
                "truncated JSON",
                vec!["--rules", policy],
                format!(r#"{{"hook_event_name":"{tool_event}","tool_na"#).into_bytes(),
                "not valid JSON",
            ),
            (
                "missing field",
                vec!["--rules", policy],
                format!(r#"{{"hook_event_name":"{tool_event}","tool_input":{{}}}}"#).into_bytes(),
                "has no `tool_name`",
            ),
            (
                "unknown event",
                vec!["--rules", policy],
                br#"{"hook_event_name":"MadeUpEvent"}"#.to_vec(),
                "unsupported hook event `MadeUpEvent`",
            ),
            ("invalid UTF-8", vec!["--rules", policy], b"{\"hook_event_name\":\"\xff\"}".to_vec(), "not valid UTF-8"),
            ("huge input", vec!["--rules", policy], huge.clone(), "larger than"),
            ("missing bundle", vec!["--bundle", "missing.json"], good.clone(), "cannot read bundle `missing.json`"),
            ("broken rules", vec!["--rules", "broken.rules"], good, "the rules have 1 error(s)"),
        ];
        for (what, policy_args, input, expected) in &cases {
            let mut args = verb.clone();
            args.extend(policy_args.iter().copied());
            let output = hookc(dir.path(), &args, input);
            let text = stderr(&output);
            assert_eq!(output.status.code(), Some(2), "{verb:?} {what}: {text}");
            assert!(text.contains(expected), "{verb:?} {what}: {text}");
            assert_eq!(text.trim().lines().count(), 1, "{verb:?} {what}: {text}");
            assert!(stdout(&output).is_empty(), "{verb:?} {what}");

            args.push("--fail-open");
            let open = hookc(dir.path(), &args, input);
            assert_eq!(open.status.code(), Some(0), "{verb:?} {what} --fail-open");
            assert!(stderr(&open).contains("--fail-open: not enforcing"), "{verb:?} {what}");
            let expected_stdout = if verb[0] == "gemini" { "{}" } else { "" };
            assert_eq!(stdout(&open).trim(), expected_stdout, "{verb:?} {what}");
        }
    }
}

#[test]
fn a_hand_made_bundle_that_cannot_evaluate_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let rules = r#"[["pre_tool_use",null,{"name":"bad","event":"pre_tool_use","origin":"x:1:1","condition":{"test":["command",{"matches":{"pattern":"("}}]},"actions":[{"permission":{"behavior":"allow","reason":null}}]}]]"#;
    let hash = hookc::bundle::table_hash(rules).unwrap();
    let bundle =
        format!(r#"{{"format":"hookc-bundle","version":2,"source_hash":"s","table_hash":"{hash}","rules":{rules}}}"#);
    std::fs::write(dir.path().join("bad.json"), bundle).unwrap();
    let payload = br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    let output = hookc(dir.path(), &["claude", "--bundle", "bad.json"], payload);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("rule `bad` (x:1:1): invalid pattern"), "{}", stderr(&output));
}

/// Runs hookc in `dir` with these environment variables; the exit code and what it printed
/// (stdout, then stderr).
fn hookc_with_env(dir: &Path, args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> (Option<i32>, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_hookc"))
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (output.status.code(), stdout(&output) + &stderr(&output))
}

/// A project with a rule file and its compiled bundle, for `hookc init`.
/// What keeps a test policy's own files and wiring out of the agent's reach.
const GUARD: &str = "rule guard pre_tool_use when access == write and path like [\"rules\", \"rules/**\", \".claude/**\", \"policy.json\"] => deny \"the policy\"\n";

fn project_with_policy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    std::fs::write(dir.path().join("rules/a.rules"), "pre_tool_use when command == \"rm\" => deny\n").unwrap();
    let compiled = hookc(dir.path(), &["compile", "rules", "-o", "policy.json"], b"");
    assert_eq!(compiled.status.code(), Some(0), "{}", stderr(&compiled));
    dir
}

/// Every path `init` writes works from any directory: `$CLAUDE_PROJECT_DIR` for Claude Code
/// (the settings can be committed), absolute for the others.
#[test]
fn init_prints_a_hook_for_every_event_with_paths_that_work_anywhere() {
    let dir = project_with_policy();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let root = root.to_str().unwrap();
    let expectations = [
        ("claude", 11, "hookc hook claude --bundle \"$CLAUDE_PROJECT_DIR\"/policy.json".to_string(), "*"),
        ("codex", 6, format!("hookc hook codex --bundle {root}/policy.json"), "*"),
        ("gemini", 8, format!("hookc hook gemini --bundle {root}/policy.json"), ".*"),
    ];
    for (agent, events, command, matcher) in expectations {
        let output = hookc(dir.path(), &["init", agent, "--bundle", "policy.json", "--command", "hookc"], b"");
        assert_eq!(output.status.code(), Some(0), "{agent}: {}", stderr(&output));
        let settings: Value = serde_json::from_str(&stdout(&output)).unwrap();
        let hooks = settings["hooks"].as_object().unwrap();
        assert_eq!(hooks.len(), events, "{agent}: {hooks:?}");
        for (event, groups) in hooks {
            assert_eq!(groups[0]["hooks"][0]["command"], command.as_str(), "{agent} {event}");
        }
        let tool_event = if agent == "gemini" { "BeforeTool" } else { "PreToolUse" };
        assert_eq!(hooks[tool_event][0]["matcher"], matcher, "{agent}");
    }
}

/// Committed wiring: `init` writes the launcher and settings that name no path of this machine;
/// a teammate's checkout elsewhere runs them from a subdirectory with hookc on `PATH`, is blocked
/// with a message without it, never runs a hookc planted in the project, `node_modules/.bin` or
/// `.venv/bin`, and refuses a hookc of another version than the pin.
#[test]
fn committed_wiring_works_on_any_checkout_and_fails_closed() {
    let dir = project_with_policy();
    let output = hookc(dir.path(), &["init", "claude", "--rules", "rules", "--write"], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("wrote the launchers `.hookc/hookc` and `.hookc/hookc.ps1`"),
        "{}",
        stderr(&output)
    );
    let settings = std::fs::read_to_string(dir.path().join(".claude/settings.json")).unwrap();
    assert!(!settings.contains("powershell"), "Claude Code has no Windows command key: {settings}");
    let root = std::fs::canonicalize(dir.path()).unwrap();
    assert!(!settings.contains(root.to_str().unwrap()), "a path of this machine: {settings}");
    assert!(!settings.contains(env!("CARGO_BIN_EXE_hookc")), "{settings}");
    let settings: Value = serde_json::from_str(&settings).unwrap();
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"].as_str().unwrap().to_string();
    // Claude Code runs hooks with `sh -c`: the command reads the launcher into that shell.
    assert!(command.ends_with(r#"exit 2; }; hookc hook claude --rules rules"#), "{command}");
    assert!(command.contains(r#"hookc() { . "$l"; echo"#), "{command}");
    assert!(!command.starts_with("sh -c"), "{command}");

    // A teammate's checkout: the project copied elsewhere, run from a subdirectory.
    let elsewhere = tempfile::tempdir().unwrap();
    let checkout = elsewhere.path().join("checkout");
    std::fs::create_dir_all(checkout.join("src")).unwrap();
    for file in ["rules/a.rules", ".hookc/hookc", ".claude/settings.json"] {
        std::fs::create_dir_all(checkout.join(file).parent().unwrap()).unwrap();
        std::fs::copy(dir.path().join(file), checkout.join(file)).unwrap();
    }
    let bin = elsewhere.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_hookc"), bin.join("hookc")).unwrap();
    let run_in = |shell: &str, path: &str, extra: &[(&str, &str)]| {
        let payload = r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm"}}"#;
        let mut child = std::process::Command::new(shell);
        child
            .arg("-c")
            .arg(&command)
            .current_dir(checkout.join("src"))
            .env_clear()
            .env("PATH", path)
            .env("CLAUDE_PROJECT_DIR", &checkout)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        for (name, value) in extra {
            child.env(name, value);
        }
        let mut child = child.spawn().unwrap();
        // A launcher that finds no hookc exits before it reads the payload: a closed pipe is no
        // failure of this test (the exit code and message are what it checks).
        let _ = std::io::Write::write_all(&mut child.stdin.take().unwrap(), payload.as_bytes());
        let output = child.wait_with_output().unwrap();
        (output.status.code(), stdout(&output), stderr(&output))
    };
    let run = |path: &str, extra: &[(&str, &str)]| run_in("sh", path, extra);
    let system = "/usr/bin:/bin";
    // The agents that run hooks with `bash -c` (Gemini CLI, Qwen Code, Copilot CLI) read the
    // launcher into bash alike.
    let (code, out, _) = run_in("bash", &format!("{}:{system}", bin.display()), &[]);
    assert_eq!((code, out.contains("\"deny\"")), (Some(0), true), "bash: {out}");
    let (code, _, err) = run_in("bash", system, &[]);
    assert_eq!(code, Some(2), "bash: {err}");
    let (code, out, _) = run(&format!("{}:{system}", bin.display()), &[]);
    assert_eq!((code, out.contains("\"deny\"")), (Some(0), true), "{out}");
    let (code, out, err) = run(system, &[]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("no hookc 0.1 found on this machine") && err.contains("This call is blocked"), "{err}");
    // Planted where the agent can write: never run.
    for planted in ["tools", "node_modules/.bin", ".venv/bin"] {
        let place = checkout.join(planted);
        std::fs::create_dir_all(&place).unwrap();
        std::fs::write(place.join("hookc"), "#!/bin/sh\nexit 0\n").unwrap();
        make_executable(&place.join("hookc"));
        let (code, _, err) = run(&format!("{}:{system}", place.display()), &[]);
        assert_eq!(code, Some(2), "{planted}: {err}");
        let outside = elsewhere.path().join(planted);
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::copy(place.join("hookc"), outside.join("hookc")).unwrap();
        make_executable(&outside.join("hookc"));
        if planted != "tools" {
            let (code, _, err) = run(&format!("{}:{system}", outside.display()), &[]);
            assert_eq!(code, Some(2), "{planted} outside the project: {err}");
        }
    }
    // A link outside the project that leads into it is refused; one that leads elsewhere outside
    // (Homebrew's bin) is followed.
    #[cfg(unix)]
    {
        let links = elsewhere.path().join("links");
        std::fs::create_dir_all(&links).unwrap();
        std::os::unix::fs::symlink(checkout.join("tools/hookc"), links.join("hookc")).unwrap();
        let (code, _, err) = run(&format!("{}:{system}", links.display()), &[]);
        assert_eq!(code, Some(2), "a link into the project: {err}");
        assert!(err.contains("no hookc 0.1 found"), "{err}");
        let cellar = elsewhere.path().join("cellar");
        std::fs::create_dir_all(&cellar).unwrap();
        std::os::unix::fs::symlink(bin.join("hookc"), cellar.join("hookc")).unwrap();
        let (code, out, err) = run(&format!("{}:{system}", cellar.display()), &[]);
        assert_eq!(
            (code, out.contains("\"deny\"")),
            (Some(0), true),
            "a link to a hookc outside the project: {out}{err}"
        );
    }
    // A global npm install: `bin/hookc` links to npm's Node script, whose platform package holds
    // the native binary. The launcher runs the native binary (the script here would fail), and
    // refuses the script when no platform package is there.
    #[cfg(unix)]
    {
        let npm = elsewhere.path().join("npm");
        let script = npm.join("lib/node_modules/hookc/bin/hookc.js");
        std::fs::create_dir_all(script.parent().unwrap()).unwrap();
        std::fs::write(&script, "#!/usr/bin/env node\nprocess.exit(1)\n").unwrap();
        make_executable(&script);
        std::fs::create_dir_all(npm.join("bin")).unwrap();
        std::os::unix::fs::symlink("../lib/node_modules/hookc/bin/hookc.js", npm.join("bin/hookc")).unwrap();
        let path = format!("{}:{system}", npm.join("bin").display());
        let (code, _, err) = run(&path, &[]);
        assert_eq!(code, Some(2), "no platform package: {err}");
        assert!(err.contains("npm's Node script"), "{err}");
        let native = npm.join("lib/node_modules/@hookc/linux-x64-gnu");
        std::fs::create_dir_all(&native).unwrap();
        std::fs::copy(env!("CARGO_BIN_EXE_hookc"), native.join("hookc")).unwrap();
        let (code, out, err) = run(&path, &[]);
        assert_eq!((code, out.contains("\"deny\"")), (Some(0), true), "the npm install's native binary: {out}{err}");
    }
    let (code, _, err) = run(&format!(".:{system}"), &[("HOOKC", "./tools/hookc")]);
    assert_eq!(code, Some(2), "a relative HOOKC or PATH entry: {err}");
    // Another version than the pin refuses the call.
    let launcher = std::fs::read_to_string(checkout.join(".hookc/hookc")).unwrap();
    std::fs::write(checkout.join(".hookc/hookc"), launcher.replace("PIN='0.1'", "PIN='9.9'")).unwrap();
    let (code, _, err) = run(&format!("{}:{system}", bin.display()), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("pins hookc 9.9"), "{err}");
    // An empty launcher, or one cut short, blocks too (reading it ran nothing: not an allow), in
    // dash and in bash; so does one the shell cannot read (bash goes on after a failed `.`).
    let launcher_path = checkout.join(".hookc/hookc");
    let launcher = std::fs::read_to_string(&launcher_path).unwrap();
    for cut in ["", "PIN='0.1'\n", &launcher[..launcher.len() / 2]] {
        std::fs::write(&launcher_path, cut).unwrap();
        for shell in ["sh", "bash"] {
            let (code, out, err) = run_in(shell, &format!("{}:{system}", bin.display()), &[]);
            assert_eq!(code, Some(2), "{shell}, a launcher of {} bytes: {out}{err}", cut.len());
        }
    }
    std::fs::write(&launcher_path, &launcher).unwrap();
    // (Only where a mode 000 file cannot be read: not as root, which reads it anyway.)
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&launcher_path, std::fs::Permissions::from_mode(0o000)).unwrap();
        if std::fs::File::open(&launcher_path).is_err() {
            for shell in ["sh", "bash"] {
                let (code, _, err) = run_in(shell, &format!("{}:{system}", bin.display()), &[]);
                assert_eq!(code, Some(2), "{shell}, an unreadable launcher: {err}");
            }
        }
        std::fs::set_permissions(&launcher_path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    // Without the launcher, the command itself blocks with a message (not sh's 127).
    std::fs::remove_file(checkout.join(".hookc/hookc")).unwrap();
    let (code, _, err) = run(&format!("{}:{system}", bin.display()), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no launcher at"), "{err}");
}

/// Windows teammates: the agents with a Windows command key (Copilot CLI, VS Code) get a
/// `powershell` command beside the POSIX one, running `.hookc/hookc.ps1` with the same
/// arguments; the PowerShell launcher is pinned and refuses what the POSIX one refuses. (No
/// PowerShell runs here: this checks what is written, not a run on Windows.)
#[test]
fn committed_wiring_gives_windows_teammates_a_powershell_command() {
    let dir = project_with_policy();
    for (agent, settings, key) in
        [("copilot", ".github/hooks/hookc.json", "bash"), ("vscode", ".github/hooks/hookc-vscode.json", "command")]
    {
        let output = hookc(dir.path(), &["init", agent, "--rules", "rules", "--write"], b"");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(settings)).unwrap()).unwrap();
        let hooks = written["hooks"].as_object().unwrap();
        let mut seen = 0;
        for (event, entries) in hooks {
            for entry in entries.as_array().unwrap() {
                let posix = entry[key].as_str().unwrap();
                if !posix.contains(".hookc/hookc") {
                    continue;
                }
                seen += 1;
                let windows = entry["powershell"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{agent} {event}: no powershell key: {entry}"));
                assert!(
                    windows.contains("'.hookc\\hookc.ps1'") && windows.contains("[scriptblock]::Create"),
                    "{windows}"
                );
                let args = posix.rsplit_once(" hookc ").unwrap().1;
                assert!(
                    windows.ends_with(&format!(" $r {args}")),
                    "{agent} {event}: the same arguments: {windows} / {posix}"
                );
                assert!(windows.contains("exit 2"), "a missing launcher blocks: {windows}");
            }
        }
        assert!(seen > 0, "{agent}: launcher hooks written: {written}");
        if agent == "copilot" {
            assert!(hooks["preToolUse"][0]["powershell"].as_str().unwrap().contains("$env:COPILOT_PROJECT_DIR"));
            assert!(hooks["preToolUse"][0]["powershell"].as_str().unwrap().ends_with("--event preToolUse"));
        }
    }
    // Settings written before the Windows command existed get it when init runs again.
    let file = dir.path().join(".github/hooks/hookc.json");
    let old = std::fs::read_to_string(&file).unwrap();
    let mut stripped: Value = serde_json::from_str(&old).unwrap();
    for entries in stripped["hooks"].as_object_mut().unwrap().values_mut() {
        for entry in entries.as_array_mut().unwrap() {
            entry.as_object_mut().unwrap().remove("powershell");
        }
    }
    std::fs::write(&file, serde_json::to_string_pretty(&stripped).unwrap()).unwrap();
    let output = hookc(dir.path(), &["init", "copilot", "--rules", "rules", "--write"], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        serde_json::from_str::<Value>(&std::fs::read_to_string(&file).unwrap()).unwrap(),
        serde_json::from_str::<Value>(&old).unwrap()
    );
    let ps1 = std::fs::read_to_string(dir.path().join(".hookc/hookc.ps1")).unwrap();
    assert!(ps1.contains("$Pin = '0.1'"), "{ps1}");
    for refused in ["\\node_modules\\.bin\\", "\\.venv\\Scripts\\", "IsPathRooted", "StartsWith($Inside"] {
        assert!(ps1.contains(refused), "the PowerShell launcher refuses like the POSIX one: {refused}");
    }
    assert!(ps1.contains("'--require-version', $Pin"), "{ps1}");
    // A pin is a version, never text spliced into the launchers.
    let output = hookc(dir.path(), &["init", "copilot", "--rules", "rules", "--pin", "0.1'; rm -rf ~; '"], b"");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("is not a version"), "{}", stderr(&output));
}

fn make_executable(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// `init` refuses a policy that does not exist or does not check: wired in, it would block
/// every call. Nothing is written.
#[test]
fn init_refuses_a_policy_that_would_block_every_call() {
    let dir = project_with_policy();
    std::fs::write(dir.path().join("broken.rules"), "pre_tool_use when comand == \"x\" => deny\n").unwrap();
    // A regex over the size limit: a hook call would find it only when it reaches it.
    std::fs::write(dir.path().join("huge.rules"), "pre_tool_use when command matches /\\w{200}x\\w{200}/ => deny\n")
        .unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["--rules", "missing.rules"], "missing.rules"),
        (&["--bundle", "missing.json"], "missing.json"),
        (&["--rules", "broken.rules"], "the rules have 1 error(s)"),
        (&["--rules", "huge.rules"], "the rules have 1 error(s)"),
        (&["--bundle", "rules/a.rules"], "not a hookc bundle"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["init", "claude", "--write"];
        all.extend_from_slice(args);
        let output = hookc(dir.path(), &all, b"");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains(expected), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains("would block every call"), "{}", stderr(&output));
        assert!(!dir.path().join(".claude").exists(), "{args:?} wrote settings");
    }
}

#[test]
fn init_write_merges_keeps_a_backup_and_is_idempotent() {
    let dir = project_with_policy();
    let settings = dir.path().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let original = r#"{"model": "opus", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh"}]}]}}"#;
    std::fs::write(&settings, original).unwrap();

    let first = hookc(dir.path(), &["init", "claude", "--write", "--command", "hookc"], b"");
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(stderr(&first).contains("11 hook(s) added, 0 already present"), "{}", stderr(&first));
    let merged: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(merged["model"], "opus");
    let pre = merged["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2);
    assert_eq!(pre[0]["hooks"][0]["command"], "./mine.sh", "the user's own hook stays first and untouched");
    assert_eq!(pre[1]["hooks"][0]["command"], "hookc hook claude --rules \"$CLAUDE_PROJECT_DIR\"/rules");
    let keys: Vec<&String> = merged.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["model", "hooks"], "key order is kept");
    assert_eq!(std::fs::read_to_string(dir.path().join(".claude/settings.json.bak")).unwrap(), original);

    // Nothing to change: nothing written, no second backup.
    let second = hookc(dir.path(), &["init", "claude", "--write", "--command", "hookc"], b"");
    assert!(stderr(&second).contains("nothing changed"), "{}", stderr(&second));
    assert!(!dir.path().join(".claude/settings.json.bak.1").exists(), "a backup of an unchanged file");
    let again: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(again, merged);

    // Settings an earlier release wrote (`hookc claude …`) are rewritten in place, not doubled.
    let older = std::fs::read_to_string(&settings).unwrap().replace("hookc hook claude ", "hookc claude ");
    std::fs::write(&settings, &older).unwrap();
    let third = hookc(dir.path(), &["init", "claude", "--write", "--command", "hookc"], b"");
    assert!(
        stderr(&third).contains("0 hook(s) added, 0 already present, 11 rewritten from an older spelling"),
        "{}",
        stderr(&third)
    );
    let rewritten: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(rewritten, merged);
}

#[test]
fn init_write_refuses_a_malformed_settings_file_and_leaves_it() {
    let dir = project_with_policy();
    let settings = dir.path().join("settings.json");
    std::fs::write(&settings, "{ not json").unwrap();
    let output = hookc(dir.path(), &["init", "gemini", "--write", "--settings", "settings.json"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("settings.json` is not valid JSON"), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{ not json");
    assert!(!dir.path().join("settings.json.bak").exists());
}

/// A settings file may hold API keys: its mode is kept (and the backup's), a symlink is written
/// through (it stays a link), and a read-only file is refused, not replaced.
#[cfg(unix)]
#[test]
fn init_write_keeps_modes_follows_symlinks_and_refuses_read_only_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = project_with_policy();
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    let secret = dir.path().join("secret.json");
    std::fs::write(&secret, r#"{"env": {"API_KEY": "k"}}"#).unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::create_dir(dir.path().join(".claude")).unwrap();
    std::os::unix::fs::symlink(&secret, dir.path().join(".claude/settings.json")).unwrap();

    let output = hookc(dir.path(), &["init", "claude", "--write"], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let link = std::fs::symlink_metadata(dir.path().join(".claude/settings.json")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    assert!(std::fs::read_to_string(&secret).unwrap().contains("hookc"));
    assert_eq!(mode(&secret), 0o600);
    assert_eq!(mode(&dir.path().join("secret.json.bak")), 0o600);

    let locked = dir.path().join("locked.json");
    std::fs::write(&locked, "{}").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
    let output = hookc(dir.path(), &["init", "gemini", "--write", "--settings", "locked.json"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("is read-only; it was not changed"), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&locked).unwrap(), "{}");
}

/// Codex: hooks are per project unless `--global`; Codex runs only trusted hooks, which `init`
/// says plainly, and `--trust` records in `config.toml` as `/hooks` → trust does.
#[test]
fn init_codex_wires_the_project_and_records_trust() {
    let dir = project_with_policy();
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| hookc_with_env(dir.path(), args, &[("CODEX_HOME", home.path().as_os_str())]);
    let (code, said) = run(&["init", "codex", "--write", "--command", "hookc"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(dir.path().join(".codex/hooks.json").exists());
    assert!(!home.path().join("hooks.json").exists(), "a project's hooks went user-wide");
    assert!(said.contains("6 of 6 hookc hook(s) are untrusted: Codex will not run them"), "{said}");
    assert!(said.contains("is not a trusted project"), "{said}");

    let (code, said) = run(&["init", "codex", "--write", "--command", "hookc", "--trust"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("6 hook(s) recorded as trusted"), "{said}");
    let config = std::fs::read_to_string(home.path().join("config.toml")).unwrap();
    let hooks_json = dir.path().join(".codex/hooks.json");
    let key = format!("[hooks.state.\"{}:pre_tool_use:0:0\"]", hooks_json.display());
    assert!(config.contains(&key), "{config}");
    assert_eq!(config.matches("trusted_hash = \"sha256:").count(), 6, "{config}");
    let (_, said) = run(&["init", "codex", "--write", "--command", "hookc", "--trust"]);
    assert!(said.contains("all 6 hookc hook(s) are trusted"), "{said}");

    let (code, said) = run(&["init", "codex", "--write", "--command", "hookc", "--global"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(home.path().join("hooks.json").exists());
    assert!(!said.contains("trusted project"), "{said}");
}

/// After the agent did `cd src`, the payload's `cwd` is `/repo/src`; the project root each agent
/// tells its hooks (or `--project-root`) still anchors paths, so the shipped `Cargo.lock` rule holds.
#[test]
fn the_project_root_anchors_paths_after_cd() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let write = serde_json::json!({"hook_event_name": "PreToolUse", "cwd": "/repo/src", "tool_name": "Write",
        "tool_input": {"file_path": "/repo/Cargo.lock", "content": "x"}});
    let gemini = serde_json::json!({"hook_event_name": "BeforeTool", "cwd": "/repo/src", "tool_name": "replace",
        "tool_input": {"file_path": "../Cargo.lock", "old_string": "a", "new_string": "b"}});
    type Case<'a> = (&'a [&'a str], Option<(&'a str, &'a str)>, &'a Value);
    let cases: [Case<'_>; 4] = [
        (&["claude"], Some(("CLAUDE_PROJECT_DIR", "/repo")), &write),
        (&["claude", "--project-root", "/repo"], None, &write),
        (&["gemini"], Some(("GEMINI_PROJECT_DIR", "/repo")), &gemini),
        (&["gemini"], Some(("CLAUDE_PROJECT_DIR", "/repo")), &gemini),
    ];
    for (verb, env, payload) in cases {
        let mut child = crate::support::spawn_hookc(verb, |command| {
            command.arg("--rules").arg(&rules).env_remove("CLAUDE_PROJECT_DIR").env_remove("GEMINI_PROJECT_DIR");
            if let Some((name, value)) = env {
                command.env(name, value);
            }
        });
        use std::io::Write;
        child.stdin.take().unwrap().write_all(payload.to_string().as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        let answer = stdout(&output);
        assert!(answer.contains("Cargo.lock is generated"), "{verb:?} {env:?}: {answer} {}", stderr(&output));
    }
}

/// `--path-case insensitive` (the default on macOS and Windows) folds case in path comparisons.
#[test]
fn path_case_can_be_chosen_on_the_command_line() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let payload = br#"{"hook_event_name":"PreToolUse","cwd":"/Repo","tool_name":"Write","tool_input":{"file_path":"/REPO/CARGO.LOCK","content":"x"}}"#;
    let folded =
        hookc(Path::new("."), &["claude", "--rules", rules.to_str().unwrap(), "--path-case", "insensitive"], payload);
    assert!(stdout(&folded).contains("\"deny\""), "{}", stdout(&folded));
    let exact =
        hookc(Path::new("."), &["claude", "--rules", rules.to_str().unwrap(), "--path-case", "sensitive"], payload);
    assert_eq!(stdout(&exact).trim(), "", "{}", stderr(&exact));
}

/// A failure on a Stop that already forced a continuation lets the agent stop (exit 0, the
/// reason on stderr): a broken policy must never loop an agent. Any other failure blocks.
#[test]
fn a_broken_policy_never_loops_an_agent_at_stop() {
    let dir = tempfile::tempdir().unwrap();
    // Gemini CLI says `stop_hook_active: false` again after a continuation that ran a tool:
    // every failing AfterAgent stops.
    let cases: [(&[&str], &str, i32); 6] = [
        (&["claude", "--rules", "missing.rules"], r#"{"hook_event_name":"Stop","stop_hook_active":true}"#, 0),
        (&["claude", "--rules", "missing.rules"], r#"{"hook_event_name":"SubagentStop","stop_hook_active":true}"#, 0),
        (&["gemini", "--rules", "missing.rules"], r#"{"hook_event_name":"AfterAgent","stop_hook_active":true}"#, 0),
        (&["gemini", "--rules", "missing.rules"], r#"{"hook_event_name":"AfterAgent","stop_hook_active":false}"#, 0),
        (&["claude", "--rules", "missing.rules"], r#"{"hook_event_name":"Stop","stop_hook_active":false}"#, 2),
        (&["claude", "--rules", "missing.rules"], r#"{"hook_event_name":"PreToolUse","stop_hook_active":true}"#, 2),
    ];
    for (args, payload, exit) in cases {
        let output = hookc(dir.path(), args, payload.as_bytes());
        assert_eq!(output.status.code(), Some(exit), "{args:?} {payload}: {}", stderr(&output));
        assert!(stderr(&output).contains("missing.rules"), "{}", stderr(&output));
        let expected = if args[0] == "gemini" { "{}" } else { "" };
        assert_eq!(stdout(&output).trim(), expected, "{args:?} {payload}");
    }
}

/// Runs a hook with the payload written and stdin left open; returns the output and how long
/// the call took.
fn hookc_stdin_open(args: &[&str], payload: &[u8]) -> (std::process::Output, std::time::Duration) {
    use std::io::Write;
    let started = std::time::Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookc"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(payload).unwrap();
    stdin.flush().unwrap();
    // `stdin` stays open until the call has answered.
    let output = child.wait_with_output().unwrap();
    drop(stdin);
    (output, started.elapsed())
}

/// The payload ends where its JSON value ends: an agent that writes it and keeps stdin open
/// gets its answer at once (braces inside strings do not end it early).
#[test]
fn a_complete_payload_is_answered_without_waiting_for_end_of_file() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let payload = br#" {"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"Bash",
        "tool_input":{"command":"echo '}\"{]' && git reset --hard"}}"#;
    // Had it waited for the end of input, the deadline's answer would be the one given.
    let (output, _) = hookc_stdin_open(&["claude", "--rules", rules.to_str().unwrap(), "--deadline", "20"], payload);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("git reset --hard"), "{}", stdout(&output));
    assert!(!stderr(&output).contains("no complete hook payload"), "{}", stderr(&output));
}

/// A payload that never completes is answered at the deadline, as a failure: blocked, or let
/// through under `--fail-open`; a Stop that already continued may stop.
#[test]
fn a_payload_that_never_completes_is_answered_at_the_deadline() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let rules = rules.to_str().unwrap();
    let cases: [(&[&str], &[u8], i32); 4] = [
        (&["claude"], b"", 2),
        (&["gemini"], br#"{"hook_event_name":"BeforeTool","tool_name":"x""#, 2),
        (&["claude", "--fail-open"], br#"{"hook_event_name":"#, 0),
        (&["claude"], br#"{"hook_event_name":"Stop","stop_hook_active":true,"x":["#, 2),
    ];
    for (verb, payload, exit) in cases {
        let args: Vec<&str> = verb.iter().copied().chain(["--rules", rules, "--deadline", "0.3"]).collect();
        let (output, took) = hookc_stdin_open(&args, payload);
        assert_eq!(output.status.code(), Some(exit), "{verb:?}: {}", stderr(&output));
        assert!(
            stderr(&output).contains("no complete hook payload arrived on stdin within 0.3 s"),
            "{}",
            stderr(&output)
        );
        assert!(took < std::time::Duration::from_secs(10), "{took:?}");
    }
}

/// One `apply_patch` naming 12,000 files (about 550 KB) is decided per file in linear time, well
/// inside the agent's timeout: the strictest answer over the files wins.
#[test]
fn a_patch_of_twelve_thousand_files_is_decided_quickly_in_bounded_memory() {
    let files: String = (0..12_000).map(|i| format!("*** Add File: src/dir{}/file{i}.txt\n+x\n", i % 50)).collect();
    let patch = format!("*** Begin Patch\n{files}*** Update File: Cargo.lock\n@@\n-a\n+b\n*** End Patch\n");
    let payload = serde_json::json!({"hook_event_name": "PreToolUse", "cwd": "/repo", "tool_name": "apply_patch",
        "tool_input": {"command": patch}});
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let started = std::time::Instant::now();
    let output = hookc(
        Path::new("."),
        &["claude", "--agent", "codex", "--rules", rules.to_str().unwrap(), "--project-root", "/repo"],
        payload.to_string().as_bytes(),
    );
    let took = started.elapsed();
    assert!(stdout(&output).contains("Cargo.lock is generated"), "{} {}", stdout(&output), stderr(&output));
    // A debug build; the release build takes about 0.05 s and 16 MB (`/usr/bin/time -f %M`).
    assert!(took < std::time::Duration::from_secs(10), "{took:?}");
}

/// The agent, capability and kind tables in the docs, and the baseline's list of every agent's
/// settings, are generated from the agents' folders, which the adapters, `hookc check --agent`
/// and `init` read; `HOOKC_BLESS=1 cargo test tables_in_the_docs` rewrites them.
#[test]
fn the_tables_in_the_docs_are_the_ones_the_code_reads() {
    let paths: String =
        hookc::agents::protected_paths().iter().map(|path| format!("  {},\n", serde_json::json!(path))).collect();
    let settings = format!("let agent_settings = [\n{paths}]\n\n");
    let regions: [(&str, &str, String, &str); 4] = [
        ("docs/agents.md", "agents", hookc::agents::overview(), "<!-- "),
        ("docs/agents.md", "capabilities", hookc::agents::markdown(), "<!-- "),
        ("docs/paths.md", "kinds", hookc::agents::kinds(), "<!-- "),
        ("rules/files.rules", "agent-settings", settings, "# "),
    ];
    let mut stale = Vec::new();
    for (file, name, table, comment) in regions {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let page = std::fs::read_to_string(&path).unwrap();
        let close = if comment == "<!-- " { " -->" } else { "" };
        let (begin, end) = (format!("{comment}{name}:begin{close}\n"), format!("{comment}{name}:end{close}"));
        let start = page.find(&begin).unwrap() + begin.len();
        let stop = page.find(&end).unwrap();
        if std::env::var_os("HOOKC_BLESS").is_some() {
            std::fs::write(&path, format!("{}{table}{}", &page[..start], &page[stop..])).unwrap();
        } else if page[start..stop] != table {
            stale.push(format!("{file} ({name})"));
        }
    }
    assert!(stale.is_empty(), "out of date: {stale:?}: run `HOOKC_BLESS=1 cargo test tables_in_the_docs`");
}

/// `hookc check --agent` warns (W0311) where a rule will not do what it says on that agent.
#[test]
fn check_for_an_agent_warns_where_a_rule_departs_on_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.rules"),
        "rule force pre_tool_use when command contains \"push --force\" => ask \"force push\"\n\
         rule compact pre_compact => block \"no\" \"summarise first\"\n\
         rule ok pre_tool_use when command == \"rm\" => deny\n",
    )
    .unwrap();
    let plain = hookc(dir.path(), &["check", "a.rules"], b"");
    assert!(!stderr(&plain).contains("W0311"), "{}", stderr(&plain));
    let codex = hookc(dir.path(), &["check", "a.rules", "--agent", "codex", "--format", "json"], b"");
    let found: Vec<Value> = serde_json::from_str(&stdout(&codex)).unwrap();
    let messages: Vec<&str> = found.iter().map(|d| d["message"].as_str().unwrap()).collect();
    assert_eq!(
        messages,
        ["Codex does not honour `ask` on `pre_tool_use`", "hookc does not answer Codex at `pre_compact`"]
    );
    let gemini = hookc(dir.path(), &["check", "a.rules", "--agent", "gemini", "--agent", "claude"], b"");
    assert!(stderr(&gemini).contains("Gemini CLI takes no notice"), "{}", stderr(&gemini));
    assert_eq!(stderr(&gemini).matches("W0311").count(), 2, "{}", stderr(&gemini));
}

/// `hookc doctor` runs every hookc hook an agent's settings wire, with a synthetic payload per
/// event, and reports what would happen; any problem exits 1.
#[test]
fn doctor_runs_the_wired_hooks_and_reports_what_would_happen() {
    let dir = project_with_policy();
    let home = tempfile::tempdir().unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_hookc")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let run = |args: &[&str]| {
        hookc_with_env(
            dir.path(),
            args,
            &[
                ("HOME", home.path().as_os_str()),
                ("CODEX_HOME", home.path().join(".codex").as_os_str()),
                ("PATH", std::ffi::OsStr::new(&path)),
            ],
        )
    };
    let (code, said) = run(&["doctor", "claude"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("hookc is not wired into Claude Code here"), "{said}");

    assert_eq!(run(&["init", "claude", "--write", "--command", "hookc"]).0, Some(0));
    // A policy the agent can change is no policy: its files and the settings that wire it.
    let (code, said) = run(&["doctor", "claude"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("the agent can change the policy that governs it"), "{said}");
    assert!(said.contains("`rm -f .claude/settings.json` (none)"), "{said}");
    // The rules the hook reads are the hook's own files: refused whatever the rules say.
    for call in ["`Write rules/a.rules`", "`rm -rf rules`"] {
        assert!(!said.contains(call), "{call}: {said}");
    }
    std::fs::write(dir.path().join("rules/guard.rules"), GUARD).unwrap();
    let (code, said) = run(&["doctor", "claude"]);
    assert_eq!(code, Some(0), "{said}");
    assert_eq!(said.matches("answered in").count(), 11, "{said}");
    assert!(said.contains("the policy refuses or asks before the agent changes any of its"), "{said}");

    // The rules go missing: every call would be blocked, and doctor says so per event.
    std::fs::rename(dir.path().join("rules"), dir.path().join("gone")).unwrap();
    let (code, said) = run(&["doctor", "claude"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("problem: PreToolUse: exit 2: hookc: cannot read"), "{said}");
    assert!(said.contains("every tool call is blocked"), "{said}");
    std::fs::rename(dir.path().join("gone"), dir.path().join("rules")).unwrap();

    // Codex: untrusted hooks in an untrusted project will not run.
    assert_eq!(run(&["init", "codex", "--write", "--command", "hookc"]).0, Some(0));
    let (code, said) = run(&["doctor", "codex"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("Codex: 6 hook(s) untrusted"), "{said}");
    assert!(said.contains("is not a trusted project"), "{said}");
    assert_eq!(run(&["init", "codex", "--write", "--command", "hookc", "--trust"]).0, Some(0));
    let (_, said) = run(&["doctor", "codex"]);
    assert!(said.contains("ok: Codex: all 6 hookc hook(s) are trusted"), "{said}");

    // A timeout at or below hookc's deadline lets the agent cut a slow call off and run it.
    let settings = dir.path().join(".gemini/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, r#"{"hooks": {"BeforeTool": [{"matcher": ".*", "hooks": [{"type": "command", "command": "hookc gemini --rules rules", "timeout": 5000}]}]}}"#).unwrap();
    let (code, said) = run(&["doctor", "gemini"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("the agent's timeout (5 s) is not above hookc's deadline (8 s)"), "{said}");
}

/// After a tool, Claude Code takes exit 2 as a message beside the output, which still reaches
/// the model: when the policy cannot check an output, the output is withheld instead (Codex
/// replaces the output with exit 2's stderr, so exit 2 stays).
#[test]
fn an_output_the_policy_cannot_check_is_withheld_not_delivered() {
    let dir = tempfile::tempdir().unwrap();
    let bash = br#"{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"cat .env"},"tool_response":{"stdout":"AKIAABCDEFGHIJKLMNOP","stderr":"","interrupted":false}}"#;
    let output = hookc(dir.path(), &["claude", "--rules", "missing.rules"], bash);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let answer: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let replaced = answer["hookSpecificOutput"]["updatedToolOutput"]["stdout"].as_str().unwrap();
    assert!(
        replaced.starts_with("[hookc could not check this output, so it is withheld: cannot read `missing.rules`"),
        "{replaced}"
    );
    assert!(!stdout(&output).contains("AKIA"), "{}", stdout(&output));
    assert!(stderr(&output).contains("the tool's output is withheld"), "{}", stderr(&output));

    let codex = hookc(dir.path(), &["claude", "--agent", "codex", "--rules", "missing.rules"], bash);
    assert_eq!(codex.status.code(), Some(2), "{}", stderr(&codex));
    // A payload that cannot be read is blocked as before.
    let garbage = hookc(dir.path(), &["claude", "--rules", "missing.rules"], br#"{"hook_event_name":"PostToolUse"}"#);
    assert_eq!(garbage.status.code(), Some(2));
}

/// Agents reject a blank reason (Codex then runs the call, or shows the original output): a
/// blank deny or a rewrite to nothing still carries text.
#[test]
fn a_blank_reason_or_rewrite_is_never_sent_blank() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("blank.rules"),
        "rule nothing pre_tool_use when command == \"rm\" => deny \"\"\n\
         rule gone post_tool_use when output contains \"AKIA\" => redact /AKIA[0-9A-Z]{16}\\s*/ \"\"\n",
    )
    .unwrap();
    let deny = br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm"}}"#;
    let post = br#"{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"x"},"tool_response":"AKIAABCDEFGHIJKLMNOP\n"}"#;
    for agent in ["claude", "codex"] {
        let output = hookc(dir.path(), &["claude", "--agent", agent, "--rules", "blank.rules"], deny);
        let answer: Value = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(
            answer["hookSpecificOutput"]["permissionDecisionReason"], "denied by hookc rules: nothing",
            "{agent}"
        );
    }
    let codex = hookc(dir.path(), &["claude", "--agent", "codex", "--rules", "blank.rules"], post);
    let answer: Value = serde_json::from_str(&stdout(&codex)).unwrap();
    assert_eq!(answer["reason"], "[the output was removed by hookc rules: gone]");
    let gemini = hookc(
        dir.path(),
        &["gemini", "--rules", "blank.rules"],
        br#"{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm"}}"#,
    );
    assert!(stdout(&gemini).contains("denied by hookc rules: nothing"), "{}", stdout(&gemini));
}

/// What an adversarial review found in `init`: user settings never name the policy by
/// `$CLAUDE_PROJECT_DIR` (it would be every project's), a link planted at the temporary or
/// backup name is never written through, and Codex trust lands in inline-table configs.
#[cfg(unix)]
#[test]
fn init_is_safe_where_a_review_found_it_was_not() {
    let dir = project_with_policy();
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        hookc_with_env(
            dir.path(),
            args,
            &[("HOME", home.path().as_os_str()), ("CODEX_HOME", home.path().join("codex").as_os_str())],
        )
    };
    let user = home.path().join(".claude/settings.json");
    let (code, said) = run(&["init", "claude", "--write", "--settings", user.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{said}");
    let written = std::fs::read_to_string(&user).unwrap();
    assert!(!written.contains("CLAUDE_PROJECT_DIR"), "{written}");
    assert!(
        written.contains(&format!("--rules {}/rules", std::fs::canonicalize(dir.path()).unwrap().display())),
        "{written}"
    );
    assert!(
        written.contains(&format!("{}", std::fs::canonicalize(env!("CARGO_BIN_EXE_hookc")).unwrap().display())),
        "the program is named by its absolute path: {written}"
    );

    // Links at every name init might write: none is followed.
    let victim = home.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    std::fs::write(dir.path().join(".claude/settings.json"), "{}").unwrap();
    std::os::unix::fs::symlink(&victim, dir.path().join(".claude/settings.json.bak")).unwrap();
    let (code, said) = run(&["init", "claude", "--write"]);
    assert_eq!(code, Some(0), "{said}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(!std::fs::symlink_metadata(dir.path().join(".claude/settings.json")).unwrap().file_type().is_symlink());
    assert!(said.contains("settings.json.bak.1"), "{said}");

    // An inline `hooks` table in Codex's config takes the trust entries.
    std::fs::create_dir_all(home.path().join("codex")).unwrap();
    std::fs::write(home.path().join("codex/config.toml"), "model = \"m\"\nhooks = { state = {} }\n").unwrap();
    let (code, said) = run(&["init", "codex", "--write", "--global", "--trust"]);
    assert_eq!(code, Some(0), "{said}");
    let (_, said) = run(&["doctor", "codex"]);
    assert!(said.contains("ok: Codex: all 6 hookc hook(s) are trusted"), "{said}");
}

/// `doctor` flags hooks that run but enforce nothing, and does not wait past a hook's timeout
/// on a child the hook left running.
#[test]
fn doctor_flags_hooks_that_enforce_nothing_and_bounds_its_wait() {
    let dir = project_with_policy();
    let home = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_hookc");
    let settings = dir.path().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let hooks = serde_json::json!({"hooks": {
        "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": format!("{bin} claude --rules rules"), "timeout": 10, "async": true}]}],
        "Stop": [{"hooks": [{"type": "command", "command": format!("(sleep 30 &); {bin} claude --rules rules"), "timeout": 2}]}]
    }});
    std::fs::write(&settings, hooks.to_string()).unwrap();
    let started = std::time::Instant::now();
    let output = std::process::Command::new(bin)
        .args(["doctor", "claude"])
        .current_dir(dir.path())
        .env("HOME", home.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("PreToolUse: `async: true`"), "{said}");
    assert!(said.contains("Stop: no answer within the agent's timeout (2 s)"), "{said}");
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
}

/// 301 regexes that compile large (`\w{50}x\w{50}N`: 5 MB each with Unicode classes) took
/// seconds and gigabytes per call, and `check` 17 s and 1.8 GB. Now `check` warns of each (W0312)
/// within its sizing budget, and a call that reaches them through `--rules`, `--bundle` or `eval`
/// fails closed once it has spent 0.7 s compiling, each saying why in the same words. (A debug
/// build, so 80 of them are enough to pass the budget; the release build's figures on 301 are in
/// README.md.)
#[test]
fn patterns_that_compile_huge_fail_closed_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let rules: String = (0..80)
        .map(|n| format!("pre_tool_use when command matches /\\w{{50}}x\\w{{50}}{n}/ => deny \"r{n}\"\n"))
        .collect();
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    std::fs::write(dir.path().join("rules/huge.rules"), rules).unwrap();
    let payload = br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo hello"}}"#;
    std::fs::write(dir.path().join("payload.json"), payload).unwrap();
    let timed = |args: &[&str]| {
        let started = std::time::Instant::now();
        let output = hookc(dir.path(), args, payload);
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "{args:?}: {:?}", started.elapsed());
        output
    };
    let checked = timed(&["check", "rules"]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    assert_eq!(stderr(&checked).matches("W0312").count() + stdout(&checked).matches("W0312").count(), 80);
    let compiled = timed(&["compile", "rules", "-o", "huge.json"]);
    assert_eq!(compiled.status.code(), Some(0), "{}", stderr(&compiled));
    let reason = "spent more than 0.7 s compiling the rules' patterns";
    for args in [
        &["hook", "claude", "--rules", "rules"][..],
        &["hook", "claude", "--bundle", "huge.json"],
        &["eval", "--rules", "rules", "--agent", "claude", "--input", "payload.json"],
        &["eval", "--bundle", "huge.json", "--agent", "claude", "--input", "payload.json"],
    ] {
        let output = timed(args);
        assert_ne!(output.status.code(), Some(0), "{args:?} fails closed: {}", stdout(&output));
        assert!(stderr(&output).contains(reason), "{args:?}: {}", stderr(&output));
    }
}

/// `doctor` knows hookc's hooks whatever the program is called: `init` names it by its resolved
/// path (found by a review: a binary installed as `hookc-1.2` behind a `hookc` link was "not
/// wired").
#[test]
fn doctor_finds_hooks_of_a_hookc_by_another_name() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("hookc-1.2");
    if std::fs::hard_link(env!("CARGO_BIN_EXE_hookc"), &program).is_err() {
        std::fs::copy(env!("CARGO_BIN_EXE_hookc"), &program).unwrap();
    }
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("rules")).unwrap();
    std::fs::write(
        project.join("rules/p.rules"),
        format!("pre_tool_use when path == \"generated.txt\" => deny \"no\"\n{GUARD}"),
    )
    .unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(&program).args(args).current_dir(&project).env("HOME", dir.path()).output().unwrap()
    };
    // Named settings are wired with this hookc's own path (the launcher is the project default).
    assert_eq!(run(&["init", "claude", "--write", "--settings", ".claude/settings.json"]).status.code(), Some(0));
    let doctor = run(&["doctor", "claude"]);
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert_eq!(doctor.status.code(), Some(0), "{report}");
    assert!(report.contains("no problems found"), "{report}");
}

/// Found by a review: with stderr closed, a hook still exits 0 or 2 (it exited 101, which lets
/// the action run).
#[test]
#[cfg(unix)]
fn a_closed_stderr_never_lets_a_call_through() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.rules"), "pre_tool_use when command matches /rm -rf/ => deny \"no\"\n").unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookc"))
        .args(["claude", "--rules", "missing.rules"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(writer)
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#)
        .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(2));
}

/// hookc's OpenCode plugin, run by Node as OpenCode runs it: it refuses the call on a denial and
/// on anything it cannot read (hookc missing, crashed, exiting 1, answering garbage), applies a
/// rewrite, lets a harmless call through, and is valid JavaScript (a plugin with a syntax error
/// loads silently in OpenCode and guards nothing).
#[test]
fn the_plugin_fails_closed_on_anything_it_cannot_read() {
    if std::process::Command::new("node").arg("--version").output().is_err() {
        eprintln!("node is not installed: the plugin is not run here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    std::fs::write(
        dir.path().join("rules/a.rules"),
        "pre_tool_use when command == \"rm -rf /\" => deny \"no\"\npre_tool_use when command == \"make ship\" => set command = \"make ship --dry-run\", allow\n",
    )
    .unwrap();
    let script = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.to_string_lossy().into_owned()
    };
    let real = env!("CARGO_BIN_EXE_hookc").to_string();
    let cases = [
        ("real hookc, a denial", real.clone(), "rm -rf /", Some("no")),
        ("real hookc, a harmless call", real.clone(), "ls", None),
        ("real hookc, a rewrite", real.clone(), "make ship", None),
        ("hookc missing", "/nonexistent/hookc".to_string(), "ls", Some("")),
        ("hookc crashing", script("crash.sh", "kill -SEGV $$"), "ls", Some("")),
        // It reads its input first: one that exits before the plugin has written it fails the
        // write instead (EPIPE, refused too), which is not the case here.
        ("hookc exiting 1", script("fail.sh", "cat >/dev/null; echo broken >&2; exit 1"), "ls", Some("broken")),
        ("garbage", script("garbage.sh", "cat >/dev/null; echo hello"), "ls", Some("cannot read")),
        (
            "an unknown decision",
            script("odd.sh", "cat >/dev/null; echo '{\"decision\":\"maybe\"}'"),
            "ls",
            Some("cannot read"),
        ),
    ];
    for (what, program, command, refused) in cases {
        let init = hookc(dir.path(), &["init", "opencode", "--write", "--command", &program], b"");
        assert_eq!(init.status.code(), Some(0), "{what}: {}", stderr(&init));
        let plugin = dir.path().join(".opencode/plugin/hookc.js");
        let module = dir.path().join("plugin.mjs");
        std::fs::copy(&plugin, &module).unwrap();
        let check = std::process::Command::new("node").arg("--check").arg(&module).output().unwrap();
        assert!(
            check.status.success(),
            "the plugin is not valid JavaScript: {}",
            String::from_utf8_lossy(&check.stderr)
        );
        let driver = format!(
            "import {{ Hookc }} from {module:?};\nconst hooks = await Hookc({{ directory: {dir:?}, worktree: {dir:?} }});\nconst output = {{ args: {{ command: {command:?} }} }};\ntry {{ await hooks['tool.execute.before']({{ tool: 'bash', sessionID: 's', callID: 'c' }}, output); console.log(JSON.stringify({{ ran: true, args: output.args }})); }} catch (error) {{ console.log(JSON.stringify({{ ran: false, reason: error.message }})); }}\n",
            module = module.to_string_lossy(),
            dir = dir.path().to_string_lossy(),
        );
        std::fs::write(dir.path().join("driver.mjs"), driver).unwrap();
        let run = std::process::Command::new("node").arg(dir.path().join("driver.mjs")).output().unwrap();
        let said: Value = serde_json::from_slice(&run.stdout).unwrap_or_else(|_| {
            panic!("{what}: {}{}", String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr))
        });
        match refused {
            Some(reason) => {
                assert_eq!(said["ran"], false, "{what}: {said}");
                assert!(said["reason"].as_str().unwrap().contains(reason), "{what}: {said}");
            }
            None => assert_eq!(said["ran"], true, "{what}: {said}"),
        }
        if command == "make ship" {
            assert_eq!(said["args"]["command"], "make ship --dry-run", "{what}: {said}");
        }
    }
}

/// A tool no table knows, and an MCP server `vocab::mcp` does not know, are recorded as such in
/// the audit log, and `doctor` lists them from there: rules on `kind` and `path` do not see such
/// a tool's calls, nor the service such a server sends to.
#[test]
fn a_tool_no_table_knows_is_reported() {
    let dir = project_with_policy();
    let init = hookc(
        dir.path(),
        &["init", "claude", "--write", "--command", env!("CARGO_BIN_EXE_hookc"), "--audit-log", "audit.jsonl"],
        b"",
    );
    assert_eq!(init.status.code(), Some(0), "{}", stderr(&init));
    for tool in ["FancyWrite", "Bash", "mcp__acme-internal__sync", "mcp__github-mcp-server__create_issue"] {
        let payload = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": dir.path(),
            "tool_name": tool, "tool_input": {"target": "generated.txt"}});
        let args = ["hook", "claude", "--rules", "rules", "--audit-log", "audit.jsonl"];
        let output = hookc(dir.path(), &args, payload.to_string().as_bytes());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    }
    let log = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    let records: Vec<Value> = log.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(records[0]["unknown_tool"], true, "{log}");
    assert_eq!(records[1].get("unknown_tool"), None, "{log}");
    assert_eq!((records[2].get("unknown_tool"), &records[2]["unknown_server"]), (None, &Value::Bool(true)), "{log}");
    assert_eq!(records[3].get("unknown_server"), None, "{log}: github's server is known under its usual name");
    let doctor = stdout(&hookc(dir.path(), &["doctor", "claude"], b""));
    assert!(doctor.contains("records calls of tools no table knows on Claude Code: `FancyWrite`"), "{doctor}");
    assert!(
        doctor.contains("records calls to MCP servers hookc does not know on Claude Code: `acme-internal`"),
        "{doctor}"
    );
}

/// Where exit 2 blocks but loses the reason (Copilot CLI tells the model only `hook exited with
/// code 2`) or does not block at all (Cline), a call hookc cannot decide is refused in the
/// agent's own dialect, saying why.
#[test]
fn a_failure_is_a_refusal_the_agent_reads() {
    let dir = tempfile::tempdir().unwrap();
    let copilot =
        serde_json::json!({"sessionId": "s", "cwd": "/repo", "toolName": "bash", "toolArgs": {"command": "ls"}});
    let output = hookc(
        dir.path(),
        &["hook", "copilot", "--rules", "missing", "--event", "preToolUse"],
        copilot.to_string().as_bytes(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let answer: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(answer["permissionDecision"], "deny", "{answer}");
    assert!(answer["permissionDecisionReason"].as_str().unwrap().starts_with("hookc: cannot read"), "{answer}");
    let cline = serde_json::json!({"taskId": "t", "tool_call": {"id": "c", "name": "run_commands", "input": {"commands": ["ls"]}}});
    let output = hookc(
        dir.path(),
        &["hook", "cline", "--rules", "missing", "--event", "PreToolUse"],
        cline.to_string().as_bytes(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let answer: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(answer["cancel"], true, "{answer}");
    // After the call there is nothing to refuse: Copilot's postToolUse fails by exit 2.
    let post = serde_json::json!({"sessionId": "s", "cwd": "/repo", "toolName": "bash", "toolArgs": {"command": "ls"},
        "toolResult": {"resultType": "success", "textResultForLlm": ""}});
    let output = hookc(
        dir.path(),
        &["hook", "copilot", "--rules", "missing", "--event", "postToolUse"],
        post.to_string().as_bytes(),
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}

/// A Stop over the size limit is read on as a stream: with `stop_hook_active: true` at the top
/// level the agent may stop (exit 0), as at every other failure there; the same words inside the
/// model's own message do not count, and the payload is then refused as too large (exit 2).
#[test]
fn an_over_long_stop_that_already_continued_may_stop() {
    let dir = tempfile::tempdir().unwrap();
    let policy = agent_folder("").join("fixtures.rules");
    let big = "m".repeat(33 * 1024 * 1024);
    let forged = format!(r#"{big}\", \"stop_hook_active\": true, \""#);
    let cases = [
        (format!(r#"{{"hook_event_name":"Stop","last_assistant_message":"{big}","stop_hook_active":true}}"#), 0),
        (format!(r#"{{"stop_hook_active":true,"hook_event_name":"Stop","last_assistant_message":"{big}"}}"#), 0),
        (format!(r#"{{"hook_event_name":"Stop","last_assistant_message":"{big}","stop_hook_active":false}}"#), 2),
        (format!(r#"{{"hook_event_name":"Stop","last_assistant_message":"{forged}","stop_hook_active":false}}"#), 2),
        (format!(r#"{{"hook_event_name":"Stop","nested":{{"stop_hook_active":true}},"x":"{big}"}}"#), 2),
    ];
    for (index, (payload, exit)) in cases.iter().enumerate() {
        let output = hookc(dir.path(), &["claude", "--rules", policy.to_str().unwrap()], payload.as_bytes());
        assert_eq!(output.status.code(), Some(*exit), "case {index}: {}", stderr(&output));
        assert!(stderr(&output).contains("larger than"), "case {index}: {}", stderr(&output));
    }
}

/// Copilot CLI runs a project's hooks only in a trusted folder, and none, silently, elsewhere
/// (checked on 1.0.102: the protected write went through). `init` says so, `doctor` counts it as
/// a problem, and `init --trust` records the folder as Copilot does (`trustedFolders` in
/// `$COPILOT_HOME/config.json`, its comment header kept); a listed folder above the project, or
/// the older `trusted_folders` key, counts.
#[test]
fn copilot_hooks_outside_a_trusted_folder_are_reported_and_trust_records_it() {
    let dir = project_with_policy();
    let home = tempfile::tempdir().unwrap();
    let env = [("COPILOT_HOME", home.path().as_os_str()), ("HOME", home.path().as_os_str())];
    let run = |args: &[&str]| hookc_with_env(dir.path(), args, &env);
    let config = home.path().join("config.json");
    let project = std::fs::canonicalize(dir.path()).unwrap();

    let (code, said) =
        run(&["init", "copilot", "--rules", "rules", "--write", "--command", env!("CARGO_BIN_EXE_hookc")]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("is not a trusted folder") && said.contains("none of these will run"), "{said}");
    let (code, said) = run(&["doctor", "copilot"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("is not a trusted folder") && said.contains("runs none of its project hooks"), "{said}");

    // Copilot's own file: a comment header, other settings, another folder trusted.
    std::fs::write(&config, "// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  \"trustedFolders\": [\"/elsewhere\"],\n  \"firstLaunchAt\": \"x\"\n}\n").unwrap();
    let (code, said) =
        run(&["init", "copilot", "--rules", "rules", "--write", "--trust", "--command", env!("CARGO_BIN_EXE_hookc")]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("recorded as a trusted folder"), "{said}");
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(
        text.starts_with("// User settings belong in settings.json.\n// This file is managed automatically.\n{"),
        "{text}"
    );
    let value: Value =
        serde_json::from_str(text.split_once('{').map(|(_, rest)| format!("{{{rest}")).unwrap().as_str()).unwrap();
    assert_eq!(value["trustedFolders"], serde_json::json!(["/elsewhere", project.to_str().unwrap()]));
    assert_eq!(value["firstLaunchAt"], "x");
    let (_, said) = run(&["doctor", "copilot"]);
    assert!(said.contains("is a trusted folder") && !said.contains("is not a trusted folder"), "{said}");
    // Trusting again changes nothing.
    let (code, said) =
        run(&["init", "copilot", "--rules", "rules", "--write", "--trust", "--command", env!("CARGO_BIN_EXE_hookc")]);
    assert_eq!(code, Some(0), "{said}");
    assert_eq!(std::fs::read_to_string(&config).unwrap(), text);

    // A folder above the project, under the older key, counts too.
    std::fs::write(&config, format!("{{\"trusted_folders\": [\"{}\"]}}", project.parent().unwrap().display())).unwrap();
    let (_, said) = run(&["doctor", "copilot"]);
    assert!(said.contains("is a trusted folder"), "{said}");
    // A sibling whose name starts the same does not.
    std::fs::write(&config, format!("{{\"trustedFolders\": [\"{}x\"]}}", project.display())).unwrap();
    let (_, said) = run(&["doctor", "copilot"]);
    assert!(said.contains("is not a trusted folder"), "{said}");
}

/// Gemini CLI trusts folders too, on by default (0.61: `security.folderTrust.enabled ?? true`):
/// in a folder not trusted it ignores the project's hooks (headless, it does not start). Its
/// file maps a path to a level; the longest path that covers the project decides.
#[test]
fn gemini_folder_trust_is_read_as_gemini_reads_it() {
    let dir = project_with_policy();
    let home = tempfile::tempdir().unwrap();
    let env = [("HOME", home.path().as_os_str())];
    let run = |args: &[&str]| hookc_with_env(dir.path(), args, &env);
    let project = std::fs::canonicalize(dir.path()).unwrap();
    let folders = home.path().join(".gemini/trustedFolders.json");
    let (code, said) =
        run(&["init", "gemini", "--rules", "rules", "--write", "--command", env!("CARGO_BIN_EXE_hookc")]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("is not a trusted folder"), "{said}");
    let doctor = || run(&["doctor", "gemini"]).1;
    assert!(doctor().contains("is not a trusted folder"), "{}", doctor());

    std::fs::create_dir_all(folders.parent().unwrap()).unwrap();
    let levels = |entries: &[(std::path::PathBuf, &str)]| {
        let map: serde_json::Map<String, Value> =
            entries.iter().map(|(path, level)| (path.display().to_string(), Value::from(*level))).collect();
        std::fs::write(&folders, serde_json::to_string(&map).unwrap()).unwrap();
    };
    let (parent, src) = (project.parent().unwrap().to_path_buf(), project.join("src"));
    for (entries, trusted) in [
        (vec![(project.clone(), "TRUST_FOLDER")], true),
        (vec![(parent.clone(), "TRUST_FOLDER")], true),
        (vec![(src.clone(), "TRUST_PARENT")], true),
        (vec![(parent.clone(), "TRUST_FOLDER"), (project.clone(), "DO_NOT_TRUST")], false),
        (vec![(parent.clone(), "DO_NOT_TRUST"), (project.clone(), "TRUST_FOLDER")], true),
        (vec![(src.clone(), "TRUST_FOLDER")], false),
    ] {
        levels(&entries);
        let said = doctor();
        assert_eq!(!said.contains("is not a trusted folder"), trusted, "{entries:?}: {said}");
    }

    // init --trust records the project as Gemini CLI's dialog does.
    std::fs::remove_file(&folders).unwrap();
    let (code, said) =
        run(&["init", "gemini", "--rules", "rules", "--write", "--trust", "--command", env!("CARGO_BIN_EXE_hookc")]);
    assert_eq!(code, Some(0), "{said}");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&folders).unwrap()).unwrap();
    assert_eq!(written, serde_json::json!({ project.to_str().unwrap(): "TRUST_FOLDER" }));
    assert!(doctor().contains("is a trusted folder"), "{}", doctor());

    // Folder trust turned off in the user's settings: the hooks run anywhere.
    std::fs::remove_file(&folders).unwrap();
    std::fs::write(home.path().join(".gemini/settings.json"), r#"{"security": {"folderTrust": {"enabled": false}}}"#)
        .unwrap();
    assert!(doctor().contains("folder trust is turned off"), "{}", doctor());
}

/// `hookc init` adds the hosts of the project's git remotes to the policy's `known_hosts`, once,
/// and says so; without `--write` it only says what it would add.
#[test]
fn init_seeds_known_hosts_with_the_git_remotes() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = dir.path().join("rules");
    std::fs::create_dir(&rules).unwrap();
    std::fs::copy(root.join("rules/network.rules"), rules.join("network.rules")).unwrap();
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git").arg("-C").arg(dir.path()).args(args).status();
        status.is_ok_and(|status| status.success())
    };
    if !git(&["init", "-q"]) {
        eprintln!("skipped: git is not installed");
        return;
    }
    assert!(git(&["remote", "add", "origin", "git@GitHub.com:acme/app.git"]));
    assert!(git(&["remote", "add", "mirror", "https://git.example.net/acme/app.git"]));
    let before = std::fs::read_to_string(rules.join("network.rules")).unwrap();

    let printed = hookc(dir.path(), &["init", "claude", "--rules", "rules", "--command", "hookc"], b"");
    assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
    assert!(
        stderr(&printed).contains("lacks the git remotes' hosts (git.example.net, github.com)"),
        "{}",
        stderr(&printed)
    );
    assert_eq!(std::fs::read_to_string(rules.join("network.rules")).unwrap(), before, "printing writes nothing");

    let written = hookc(dir.path(), &["init", "claude", "--rules", "rules", "--command", "hookc", "--write"], b"");
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    let after = std::fs::read_to_string(rules.join("network.rules")).unwrap();
    assert!(after.contains("  \"github.com\",\n") && after.contains("  \"git.example.net\",\n"), "{after}");
    let checked = hookc(dir.path(), &["check", "rules"], b"");
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));

    // Once is enough: a second run finds them there.
    let again = hookc(dir.path(), &["init", "claude", "--rules", "rules", "--command", "hookc", "--write"], b"");
    assert!(!stderr(&again).contains("known_hosts"), "{}", stderr(&again));
    assert_eq!(std::fs::read_to_string(rules.join("network.rules")).unwrap(), after);
}

/// Adding an agent is its folder and one line in the list: the made-up `agents/example`, compiled
/// in with the `example-agent` feature (tests/example-agent.sh), is answered, listed, wired by
/// `init` and run by `doctor` with nothing else in hookc naming it. Every test that reads every
/// agent (its fixtures above, the checker's, the baseline's, the oracles') takes it too.
#[cfg(feature = "example-agent")]
#[test]
fn an_agent_is_its_folder_and_one_line_in_the_list() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Nothing outside its folder names it, but the one line in the list.
    let mut named = Vec::new();
    for dir in ["crates", "src", "bindings/node/src", "bindings/python/src", "bindings/wasm/src"] {
        for entry in walkdir::WalkDir::new(root.join(dir)).into_iter().filter_map(Result::ok) {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            for line in text.lines().filter(|line| line.contains("\"example\"") || line.trim() == "example,") {
                named.push(format!("{}: {}", entry.path().display(), line.trim()));
            }
        }
    }
    assert_eq!(named.len(), 1, "named outside agents/example: {named:#?}");
    assert!(named[0].ends_with("example,"), "{named:?}");

    let checked = hookc(root, &["check", "--agent", "example", "rules"], b"");
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));

    let dir = project_with_policy();
    let home = tempfile::tempdir().unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_hookc")).parent().unwrap().to_str().unwrap().to_string();
    let env: std::collections::BTreeMap<String, String> = [
        ("HOME".to_string(), home.path().to_str().unwrap().to_string()),
        ("PATH".to_string(), format!("{bin}:/usr/bin:/bin")),
    ]
    .into();
    let init =
        crate::support::hookc_with_env(dir.path(), &["init", "example", "--rules", "rules", "--write"], b"", &env);
    assert_eq!(init.status.code(), Some(0), "{}", stderr(&init));
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(".example/settings.json")).unwrap()).unwrap();
    let events: Vec<&String> = settings["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(events, ["BeforeTool", "AfterTool", "Stop"], "{settings}");
    let doctor = crate::support::hookc_with_env(dir.path(), &["doctor", "example"], b"", &env);
    let report = stdout(&doctor) + &stderr(&doctor);
    for event in ["BeforeTool", "AfterTool", "Stop"] {
        assert!(report.contains(&format!("ok: {event}")), "{event} did not run:\n{report}");
    }
    let denied = crate::support::hookc_with_env(
        dir.path(),
        &["hook", "example", "--rules", "rules"],
        br#"{"hook_event_name":"BeforeTool","session_id":"s","cwd":"/repo","tool_name":"run","tool_input":{"command":"rm"}}"#,
        &env,
    );
    assert!(stdout(&denied).contains(r#""permissionDecision":"deny""#), "{}", stdout(&denied));
}
