//! What a turn did, read from each agent's own transcript at Stop: real transcripts captured
//! from Claude Code 2.1.197, Codex 0.169 and Gemini CLI 0.61 (`tests/fixtures/transcripts`,
//! each copied inside the Stop hook as the agent had written it then, beside the hook's real
//! payload), and generated ones.

use crate::support::{fixtures, hookc, spawn_hookc, stderr, stdout, Tape};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Logs every field a stop rule reads about the turn.
const SHOW: &str = "stop => log \"active={stop_hook_active} calls={tool_calls} tools=[{tools_used}] commands=[{commands}] files=[{files_written}]\"\n\
subagent_stop => log \"active={stop_hook_active} calls={tool_calls} tools=[{tools_used}] commands=[{commands}] files=[{files_written}]\"\n";

fn verb(agent: &str) -> Vec<&str> {
    match agent {
        "claude" => vec!["claude"],
        "codex" => vec!["claude", "--agent", "codex"],
        "gemini" => vec!["gemini"],
        other => vec!["hook", other],
    }
}

/// A captured Stop payload, pointed at its captured transcript.
fn captured(agent: &str, case: &str) -> Vec<u8> {
    let dir = fixtures("transcripts").join(agent);
    let mut payload: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{case}.payload.json"))).unwrap()).unwrap();
    let field = if payload["hook_event_name"] == "SubagentStop" { "agent_transcript_path" } else { "transcript_path" };
    payload[field] = json!(dir.join(format!("{case}.jsonl")));
    payload.to_string().into_bytes()
}

fn run(agent: &str, rules: &Path, payload: &[u8]) -> std::process::Output {
    let mut args = verb(agent);
    args.extend(["--rules", rules.file_name().unwrap().to_str().unwrap()]);
    hookc(rules.parent().unwrap(), &args, payload)
}

/// [`run`] on the test clock: with how long hookc waited for the transcript.
fn run_timed(agent: &str, rules: &Path, payload: &[u8]) -> (std::process::Output, std::time::Duration) {
    let mut args = verb(agent);
    args.extend(["--rules", rules.file_name().unwrap().to_str().unwrap()]);
    crate::support::hookc_on_test_clock(rules.parent().unwrap(), &args, payload)
}

/// How long hookc waits at most for a transcript to hold the turn (`SETTLE` in
/// crates/agents/src/transcript.rs).
const SETTLE: std::time::Duration = std::time::Duration::from_millis(2500);

fn rules_file(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("turn.rules");
    std::fs::write(&path, text).unwrap();
    path
}

/// The turn of every captured transcript: only the calls since the last prompt, a forced
/// continuation inside the turn, the second prompt of a resumed session starting afresh, a
/// subagent's own transcript, and Claude Code's transcript read before it had written the
/// turn's end.
#[test]
fn every_agents_transcript_gives_the_turn_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let rules = rules_file(dir.path(), SHOW);
    let first = "calls=3 tools=[{shell}, {write}{edit}] commands=[echo built > out.txt] files=[out.txt, notes.txt]";
    let continued =
        "calls=4 tools=[{shell}, {write}{edit}] commands=[echo built > out.txt, echo make test] files=[out.txt, notes.txt]";
    let second = "calls=1 tools=[{shell}] commands=[echo second > second.txt] files=[second.txt]";
    let second_continued =
        "calls=2 tools=[{shell}] commands=[echo second > second.txt, echo make test again] files=[second.txt]";
    let cases = [
        ("prompt-1-stop-1", false, first),
        ("prompt-1-stop-2", true, continued),
        ("prompt-2-stop-1", false, second),
        ("prompt-2-stop-2", true, second_continued),
    ];
    for agent in ["claude", "codex", "gemini"] {
        let (shell, write, edit) = match agent {
            "claude" => ("Bash", "Write", ", Edit"),
            "codex" => ("Bash", "apply_patch", ""),
            _ => ("run_shell_command", "write_file", ", replace"),
        };
        for (case, active, expected) in cases {
            let expected = expected.replace("{shell}", shell).replace("{write}", write).replace("{edit}", edit);
            let output = run(agent, &rules, &captured(agent, case));
            assert_eq!(output.status.code(), Some(0), "{agent} {case}: {}", stderr(&output));
            assert_eq!(
                stderr(&output).trim(),
                format!("hookc: log: turn.rules:1: active={active} {expected}"),
                "{agent} {case}"
            );
        }
    }
    let output = run("claude", &rules, &captured("claude", "subagent-stop"));
    assert_eq!(
        stderr(&output).trim(),
        "hookc: log: turn.rules:2: active=false calls=1 tools=[Bash] commands=[echo from-sub > sub.txt] files=[sub.txt]"
    );
}

/// Gemini CLI says `stop_hook_active: false` again when its forced continuation ran a tool, so
/// a "continue once" rule looped it (captured: four continuations until the model ran out of
/// turns). The transcript shows the continuation: the loop ends after one.
#[test]
fn a_continuation_the_transcript_shows_is_not_forced_again() {
    let dir = tempfile::tempdir().unwrap();
    let rules = rules_file(dir.path(), "stop => continue \"run make test first\"\n");
    for (index, case) in ["loop-stop-1", "loop-stop-2", "loop-stop-3"].into_iter().enumerate() {
        let payload = captured("gemini", case);
        let said: Value = serde_json::from_slice(&payload).unwrap();
        assert_eq!(said["stop_hook_active"], false, "{case}: the agent says no continuation ran");
        let output = run("gemini", &rules, &payload);
        let answer: Value = serde_json::from_str(&stdout(&output)).unwrap();
        let forced = answer.get("decision") == Some(&json!("deny"));
        assert_eq!(forced, index == 0, "{case}: {answer}");
    }
}

/// The README's example, on each agent: the first Stop of a turn that wrote files without
/// running the tests continues it, in the agent's own answer; once the tests ran it stops.
#[test]
fn the_readmes_run_the_tests_rule_works_on_every_agent() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme.find("# the turn changed files").expect("the README shows the rule");
    let rule: String = readme[start..].split("\n\n").next().unwrap().lines().collect::<Vec<_>>().join("\n");
    let dir = tempfile::tempdir().unwrap();
    let rules = rules_file(dir.path(), &format!("{}\n", rule.trim_end_matches("```").trim()));
    for agent in ["claude", "codex", "gemini"] {
        let first = run(agent, &rules, &captured(agent, "prompt-1-stop-1"));
        assert_eq!(first.status.code(), Some(0), "{agent}: {}", stderr(&first));
        let answer: Value = serde_json::from_str(&stdout(&first)).unwrap();
        let decision = if agent == "gemini" { "deny" } else { "block" };
        assert_eq!(answer["decision"], decision, "{agent}: {answer}");
        assert!(answer["reason"].as_str().unwrap().contains("run make test"), "{agent}: {answer}");
        // After the continuation the tests ran: nothing to say (Gemini CLI always reads JSON).
        let done = run(agent, &rules, &captured(agent, "prompt-1-stop-2"));
        let done = stdout(&done);
        assert!(matches!(done.trim(), "" | "{}"), "{agent}: {done}");
        // A turn whose record cannot be read asks too (once: the agent then says it continued).
        let mut unknown: Value = serde_json::from_slice(&captured(agent, "prompt-1-stop-1")).unwrap();
        unknown["transcript_path"] = json!("/nonexistent/transcript.jsonl");
        let asked: Value = serde_json::from_str(&stdout(&run(agent, &rules, unknown.to_string().as_bytes()))).unwrap();
        assert_eq!(asked["decision"], decision, "{agent}: {asked}");
    }
}

/// What a transcript that cannot be read gives: the turn's fields are missing (a negated test
/// holds, so a "verify" rule asks once), never an error that blocks the Stop, and never a wait
/// on a FIFO or a device.
#[test]
fn an_unreadable_transcript_leaves_the_turn_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let rules = rules_file(
        dir.path(),
        "stop => log \"calls={tool_calls}\"\nstop when not commands matches /make test/ => continue \"run make test first\"\n",
    );
    let fifo = dir.path().join("fifo");
    #[cfg(unix)]
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let directory = dir.path().to_path_buf();
    let missing = dir.path().join("missing.jsonl");
    let garbage = dir.path().join("garbage.jsonl");
    std::fs::write(&garbage, b"\xff\xfe not json\n{\"type\":\n").unwrap();
    // A file that may yet be written is waited for, at most SETTLE; what will never be one (a
    // directory, a FIFO, a path whose directory does not exist) is not waited for at all.
    let never = dir.path().join("no-such-dir/t.jsonl");
    let waits = [(&missing, true), (&directory, false), (&fifo, false), (&garbage, true), (&never, false)];
    for (transcript, waits) in waits {
        let payload =
            json!({"hook_event_name": "Stop", "transcript_path": transcript, "last_assistant_message": "done"});
        let (output, waited) = run_timed("claude", &rules, payload.to_string().as_bytes());
        match waits {
            // Polled every 20 ms until the time waited and the time reading reach SETTLE.
            true => assert!(waited <= SETTLE && waited >= SETTLE / 2, "{transcript:?} waited {waited:?}"),
            false => assert_eq!(waited, Duration::ZERO, "{transcript:?}"),
        }
        assert_eq!(output.status.code(), Some(0), "{transcript:?}: {}", stderr(&output));
        let answer: Value = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(answer["decision"], "block", "{transcript:?}");
        // A file without the turn's prompt (here, none at all) is no known turn either.
        assert!(stderr(&output).contains("the event has no `tool_calls`"), "{transcript:?}: {}", stderr(&output));
    }
}

/// A transcript of hundreds of megabytes is read from its end only: its turn is found at the
/// first read, without waiting (what reading from the end costs is `benches/tail.rs`'s to say).
/// (The file is sparse: it takes no disk.)
#[test]
fn a_huge_transcript_is_read_from_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let rules = rules_file(dir.path(), SHOW);
    let path = dir.path().join("huge.jsonl");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(400 * 1024 * 1024).unwrap();
    drop(file);
    let mut tail = String::from("\n");
    tail.push_str(&claude_line(&Item::Prompt("go".into())));
    tail.push_str(&claude_line(&Item::Call("Bash".into(), json!({"command": "make test"}))));
    tail.push_str(&claude_line(&Item::Answer("done".into())));
    std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(tail.as_bytes()).unwrap();
    let payload = json!({"hook_event_name": "Stop", "transcript_path": path, "last_assistant_message": "done"});
    let (output, waited) = run_timed("claude", &rules, payload.to_string().as_bytes());
    assert_eq!(waited, Duration::ZERO, "the turn is there at the first read");
    assert!(stderr(&output).contains("calls=1 tools=[Bash] commands=[make test]"), "{}", stderr(&output));

    // A long turn (40 MiB, past the first read) is found by reading further back.
    let path = dir.path().join("long-turn.jsonl");
    let mut text = claude_line(&Item::Prompt("earlier".into()));
    text.push_str(&claude_line(&Item::Call("Bash".into(), json!({"command": "make test"}))));
    text.push_str(&claude_line(&Item::Prompt("go".into())));
    let big = "x".repeat(1024 * 1024);
    for _ in 0..40 {
        text.push_str(&claude_line(&Item::Call("Edit".into(), json!({"file_path": "big.txt", "new_string": big}))));
    }
    text.push_str(&claude_line(&Item::Answer("done".into())));
    std::fs::write(&path, text).unwrap();
    let payload = json!({"hook_event_name": "Stop", "transcript_path": path, "last_assistant_message": "done"});
    let output = run("claude", &rules, payload.to_string().as_bytes());
    assert!(stderr(&output).contains("calls=40 tools=[Edit] commands=[] files=[big.txt]"), "{}", stderr(&output));

    // A turn longer than the most that is read has no known start: unknown, not a shorter turn
    // (nor one that takes an earlier turn's `make test`). The middle is sparse.
    let path = dir.path().join("too-long-turn.jsonl");
    let mut file = std::fs::File::create(&path).unwrap();
    file.write_all(claude_line(&Item::Call("Bash".into(), json!({"command": "make test"}))).as_bytes()).unwrap();
    file.write_all(claude_line(&Item::Prompt("go".into())).as_bytes()).unwrap();
    file.set_len(300 * 1024 * 1024).unwrap();
    drop(file);
    let mut tail = String::from("\n");
    tail.push_str(&claude_line(&Item::Call("Bash".into(), json!({"command": "ls"}))));
    tail.push_str(&claude_line(&Item::Answer("done".into())));
    std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(tail.as_bytes()).unwrap();
    let payload = json!({"hook_event_name": "Stop", "transcript_path": path, "last_assistant_message": "done"});
    let (output, waited) = run_timed("claude", &rules, payload.to_string().as_bytes());
    assert!(stderr(&output).contains("the event has no `tool_calls`"), "{}", stderr(&output));
    // Its last answer is the payload's: the turn is all there, only too long to find its start.
    assert_eq!(waited, Duration::ZERO);
}

use std::io::Write;
use std::time::Duration;

/// Claude Code flushes its transcript every 100 ms and runs Stop hooks without waiting: a call
/// written after the Stop began is still part of the turn the rules see.
#[test]
fn claude_codes_late_transcript_is_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let rules = rules_file(dir.path(), SHOW);
    let path = dir.path().join("late.jsonl");
    let mut early = claude_line(&Item::Prompt("go".into()));
    early.push_str(&claude_line(&Item::Call("Bash".into(), json!({"command": "cargo build"}))));
    std::fs::write(&path, early).unwrap();
    let payload = json!({"hook_event_name": "Stop", "transcript_path": path, "last_assistant_message": "all done"});
    let mut child = spawn_hookc(&["claude", "--rules", rules.to_str().unwrap()], |_| {});
    child.stdin.take().unwrap().write_all(payload.to_string().as_bytes()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(150));
    let mut late = claude_line(&Item::Call("Bash".into(), json!({"command": "make test"})));
    late.push_str(&claude_line(&Item::Answer("all done".into())));
    std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(late.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(stderr(&output).contains("commands=[cargo build, make test]"), "{}", stderr(&output));
}

/// One thing a turn can hold.
#[derive(Clone, Debug)]
enum Item {
    Prompt(String),
    Continuation(String),
    Call(String, Value),
    Answer(String),
    Noise,
}

fn claude_line(item: &Item) -> String {
    let line = match item {
        Item::Prompt(text) => {
            json!({"type": "user", "isSidechain": false, "message": {"role": "user", "content": text}})
        }
        Item::Continuation(text) => json!({"type": "user", "isMeta": true, "isSidechain": false,
            "message": {"role": "user", "content": format!("Stop hook feedback:\n{text}")}}),
        Item::Call(tool, args) => json!({"type": "assistant", "isSidechain": false,
            "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": tool, "input": args}]}}),
        Item::Answer(text) => json!({"type": "assistant", "isSidechain": false,
            "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}}),
        Item::Noise => {
            json!({"type": "attachment", "attachment": {"type": "hook_additional_context", "content": ["x"]}})
        }
    };
    format!("{line}\n")
}

fn codex_line(item: &Item) -> String {
    let line = match item {
        Item::Prompt(text) => json!({"type": "event_msg", "payload": {"type": "item_completed",
            "item": {"type": "UserMessage", "content": [{"type": "text", "text": text}]}}}),
        Item::Continuation(text) => json!({"type": "event_msg", "payload": {"type": "item_completed",
            "item": {"type": "HookPrompt", "fragments": [{"text": text}]}}}),
        Item::Call(tool, args) if tool == "apply_patch" => json!({"type": "response_item",
            "payload": {"type": "custom_tool_call", "name": tool, "call_id": "c", "input": args["input"]}}),
        Item::Call(tool, args) => json!({"type": "response_item",
            "payload": {"type": "function_call", "name": tool, "call_id": "c", "arguments": args.to_string()}}),
        Item::Answer(text) => json!({"type": "response_item",
            "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}}),
        Item::Noise => json!({"type": "response_item", "payload": {"type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "<environment_context>x</environment_context>"}]}}),
    };
    format!("{line}\n")
}

/// Gemini CLI writes a message, then again under the same id with its tool calls.
fn gemini_lines(item: &Item, id: usize) -> String {
    let message = |calls: Value| json!({"id": format!("m{id}"), "type": "gemini", "content": "", "toolCalls": calls});
    match item {
        Item::Prompt(text) | Item::Continuation(text) => {
            format!("{}\n", json!({"id": format!("u{id}"), "type": "user", "content": [{"text": text}]}))
        }
        Item::Call(tool, args) => format!(
            "{}\n{}\n{}\n",
            message(json!([])),
            message(json!([{"id": "c", "name": tool, "args": args}])),
            json!({"id": format!("r{id}"), "type": "user", "content": [{"functionResponse": {"id": "c", "name": tool}}]})
        ),
        Item::Answer(text) => format!("{}\n", json!({"id": format!("m{id}"), "type": "gemini", "content": text})),
        Item::Noise => format!("{}\n", json!({"$set": {"lastUpdated": "2026-11-30T18:32:42.320Z"}})),
    }
}

/// Generated sessions of several turns, each agent's way: the turn read is exactly the calls
/// after the last prompt, and a continuation anywhere in it is seen. Proptest, seeded: the
/// session is built from a tape of choices, which shrinks to the smallest failing session.
#[test]
fn generated_sessions_give_the_last_turn_on_every_agent() {
    use proptest::prelude::*;
    let dir = tempfile::tempdir().unwrap();
    let rules =
        rules_file(dir.path(), "stop => log \"active={stop_hook_active} calls={tool_calls} commands=[{commands}]\"\n");
    let config = ProptestConfig {
        cases: 24,
        rng_seed: proptest::test_runner::RngSeed::Fixed(24),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let cases = std::cell::Cell::new(0u64);
    proptest!(config, |(tape in proptest::collection::vec(any::<u32>(), 0..40))| {
        let seed = cases.get();
        cases.set(seed + 1);
        let mut rng = Tape::new(tape);
        let mut items = Vec::new();
        let mut prompt = String::new();
        for turn in 0..=rng.below(3) {
            prompt = format!("prompt {turn} of seed {seed}");
            items.push(Item::Prompt(prompt.clone()));
            for step in 0..rng.below(5) {
                items.push(match rng.below(4) {
                    0 => Item::Noise,
                    1 => Item::Continuation(format!("run the tests {step}")),
                    _ => Item::Call("shell".into(), json!({"command": format!("cmd-{turn}-{step}")})),
                });
            }
            items.push(Item::Answer(format!("answer {turn}")));
        }
        let last = items.iter().rposition(|item| matches!(item, Item::Prompt(_))).unwrap();
        let turn = &items[last + 1..];
        let commands: Vec<String> = turn
            .iter()
            .filter_map(|item| match item {
                Item::Call(_, args) => Some(args["command"].as_str().unwrap().to_string()),
                _ => None,
            })
            .collect();
        let continued = turn.iter().any(|item| matches!(item, Item::Continuation(_)));
        let answer = match items.last() {
            Some(Item::Answer(text)) => text.clone(),
            _ => unreachable!(),
        };
        for agent in ["claude", "codex", "gemini"] {
            let text: String = items
                .iter()
                .enumerate()
                .map(|(id, item)| {
                    let item = match item {
                        // Each agent's shell tool.
                        Item::Call(_, args) => Item::Call(
                            match agent {
                                "claude" => "Bash".into(),
                                "codex" => "shell".into(),
                                _ => "run_shell_command".into(),
                            },
                            if agent == "codex" {
                                json!({"command": ["bash", "-lc", args["command"]]})
                            } else {
                                args.clone()
                            },
                        ),
                        other => other.clone(),
                    };
                    match agent {
                        "claude" => claude_line(&item),
                        "codex" => codex_line(&item),
                        _ => gemini_lines(&item, id),
                    }
                })
                .collect();
            let path = dir.path().join(format!("{agent}-{seed}.jsonl"));
            std::fs::write(&path, text).unwrap();
            let event = if agent == "gemini" { "AfterAgent" } else { "Stop" };
            let payload = json!({"hook_event_name": event, "transcript_path": path, "prompt": prompt,
                "last_assistant_message": answer, "stop_hook_active": false});
            let output = run(agent, &rules, payload.to_string().as_bytes());
            let expected_commands: Vec<String> = commands
                .iter()
                .map(|command| if agent == "codex" { format!("bash -lc {command}") } else { command.clone() })
                .collect();
            let expected =
                format!("active={continued} calls={} commands=[{}]", commands.len(), expected_commands.join(", "));
            prop_assert!(
                stderr(&output).contains(&expected),
                "case {}, {}: {} (expected {})",
                seed,
                agent,
                stderr(&output),
                expected
            );
        }
    });
}

/// Found by a review: Gemini CLI's own "Please continue." is not a Stop hook's continuation; a
/// continuation that begins with the prompt's text is not the prompt; and a Claude Code
/// transcript that never records the payload's prompt is no known turn (not the one before).
#[test]
fn turn_boundaries_hold_where_a_review_found_they_did_not() {
    let dir = tempfile::tempdir().unwrap();
    let rules = rules_file(dir.path(), "stop => log \"active={stop_hook_active} calls={tool_calls}\"\n");
    let gemini = |name: &str, items: &[Item], prompt: &str| {
        let text: String = items.iter().enumerate().map(|(id, item)| gemini_lines(item, id)).collect();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let payload = json!({"hook_event_name": "AfterAgent", "transcript_path": path, "prompt": prompt, "stop_hook_active": false});
        stderr(&run("gemini", &rules, payload.to_string().as_bytes()))
    };
    let call = || Item::Call("run_shell_command".into(), json!({"command": "ls"}));
    let nudged = gemini(
        "nudged.jsonl",
        &[
            Item::Prompt("go".into()),
            call(),
            Item::Continuation("Please continue.".into()),
            call(),
            Item::Answer("ok".into()),
        ],
        "go",
    );
    assert!(nudged.contains("active=false calls=2"), "{nudged}");
    let prefix = gemini(
        "prefix.jsonl",
        &[
            Item::Prompt("y".into()),
            call(),
            Item::Continuation("you changed a.txt: run the tests".into()),
            call(),
            Item::Answer("ok".into()),
        ],
        "y",
    );
    assert!(prefix.contains("active=true calls=2"), "{prefix}");

    let path = dir.path().join("stale.jsonl");
    let mut text = String::new();
    for line in [
        json!({"type": "user", "promptId": "p-1", "message": {"role": "user", "content": "earlier"}}),
        json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "Bash", "input": {"command": "make test"}}]}}),
        json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "done"}]}}),
    ] {
        text.push_str(&format!("{line}\n"));
    }
    std::fs::write(&path, text).unwrap();
    let payload = json!({"hook_event_name": "Stop", "transcript_path": path, "prompt_id": "p-2", "last_assistant_message": "done"});
    let stale = stderr(&run("claude", &rules, payload.to_string().as_bytes()));
    assert!(stale.contains("the event has no `tool_calls`"), "{stale}");

    // A call whose input nests deeper than the JSON reader goes cannot hide in the turn: the
    // turn is unknown. A half-written last line is skipped.
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let hidden = format!(
        "{}{{\"type\":\"assistant\",\"message\":{{\"content\":[{{\"type\":\"tool_use\",\"name\":\"Write\",\"input\":{{\"file_path\":\"a.rs\",\"x\":{deep}}}}}]}}}}\n{}",
        claude_line(&Item::Prompt("go".into())),
        claude_line(&Item::Answer("done".into()))
    );
    std::fs::write(dir.path().join("deep.jsonl"), hidden).unwrap();
    let payload = json!({"hook_event_name": "Stop", "transcript_path": dir.path().join("deep.jsonl"), "last_assistant_message": "done"});
    let deep_turn = stderr(&run("claude", &rules, payload.to_string().as_bytes()));
    assert!(deep_turn.contains("the event has no `tool_calls`"), "{deep_turn}");
    let mut partial = claude_line(&Item::Prompt("go".into()));
    partial.push_str(&claude_line(&Item::Call("Bash".into(), json!({"command": "ls"}))));
    partial.push_str("{\"type\":\"assistant\",\"mess");
    std::fs::write(dir.path().join("partial.jsonl"), partial).unwrap();
    let payload = json!({"hook_event_name": "Stop", "transcript_path": dir.path().join("partial.jsonl")});
    let partial_turn = stderr(&run("claude", &rules, payload.to_string().as_bytes()));
    assert!(partial_turn.contains("calls=1"), "{partial_turn}");
}

/// Factory Droid's and Qwen Code's transcripts, captured from the real clients (0.225.2,
/// 0.15.10): the first Stop continues, the second (after the continuation) does not, whatever
/// Qwen Code's flag says (it says true at both), and a turn that ran a tool shows it.
#[test]
fn droid_and_qwen_transcripts_tell_a_continuation() {
    let dir = tempfile::tempdir().unwrap();
    let rules =
        rules_file(dir.path(), &format!("{SHOW}stop when not stop_hook_active => continue \"run the tests\"\n"));
    for (agent, shell) in [("droid", "Execute"), ("qwen", "run_shell_command")] {
        let cases = [
            ("stop-1", "active=false calls=0 tools=[] commands=[] files=[]", true),
            ("stop-2", "active=true calls=0 tools=[] commands=[] files=[]", false),
            (
                "after-tool",
                &*format!("active=false calls=1 tools=[{shell}] commands=[echo hi > out.txt] files=[out.txt]"),
                true,
            ),
        ];
        for (case, expected, continues) in cases {
            let output = run(agent, &rules, &captured(agent, case));
            assert_eq!(output.status.code(), Some(0), "{agent} {case}: {}", stderr(&output));
            assert!(
                stderr(&output).contains(&format!("hookc: log: turn.rules:1: {expected}")),
                "{agent} {case}: {}",
                stderr(&output)
            );
            assert_eq!(stdout(&output).contains("run the tests"), continues, "{agent} {case}: {}", stdout(&output));
        }
    }
}

/// `runs` at Stop reads the commands the turn ran, with how each call ended: generated turns of
/// writes (some refused) and commands (some failing, some that only mention `make test`), against
/// a model of what "the tests ran and passed after the last edit" means.
#[test]
fn stop_rules_read_what_ran_how_it_ended_and_when() {
    use proptest::prelude::*;
    let policy = hookc::Policy::from_source(
        "verify.rules",
        // A continuation ends the evaluation: the log comes first.
        "rule wrote stop when files_written like \"**\" => log \"wrote {files_written}\"\n\
         rule verify\nstop when not runs make test (ok and after_writes) => continue \"run make test\"\n",
    )
    .unwrap();
    // (command line or None for a write, whether it really is `make test`, failed)
    let step = prop_oneof![
        Just(("make test", true)),
        Just(("cd src && make test", true)),
        Just(("sudo make test -j4", true)),
        Just(("echo make test", false)),
        Just(("printf 'make test'", false)),
        Just(("make test-unit", false)),
        Just(("make build", false)),
        Just(("WRITE", false)),
    ];
    let config = ProptestConfig {
        cases: 400,
        rng_seed: proptest::test_runner::RngSeed::Fixed(23),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(steps in proptest::collection::vec((step, any::<bool>()), 0..7))| {
        let mut history = vec![json!({"role": "user", "content": "fix it"})];
        let mut last_write = None;
        let mut verified_at = Vec::new();
        let mut wrote_any = false;
        for (index, ((line, real), failed)) in steps.iter().enumerate() {
            let id = format!("c{index}");
            let (tool, args) = match *line {
                "WRITE" => ("Write", json!({"file_path": "/repo/src/app.ts", "content": "x"})),
                line => ("Bash", json!({"command": line})),
            };
            history.push(json!({"role": "assistant", "content": "", "tool_calls": [{"id": id, "tool": tool, "args": args}]}));
            history.push(json!({"role": "tool", "content": "…", "tool_call_id": id, "is_error": failed}));
            if *line == "WRITE" && !failed {
                last_write = Some(index);
                wrote_any = true;
            }
            if *real && !failed {
                verified_at.push(index);
            }
        }
        let event = json!({"event": "stop", "cwd": "/repo", "stop_hook_active": false, "history": history});
        let event = hookc::Event::from_json(event.to_string().as_bytes()).unwrap();
        let evaluation = policy.evaluate_full(&event).unwrap();
        let verified = verified_at.iter().any(|at| last_write.is_none_or(|last| *at >= last));
        prop_assert_eq!(evaluation.result.force_continue.is_some(), !verified, "{:?}", steps);
        let logged = evaluation.logs.iter().any(|log| log.rule == "wrote");
        prop_assert_eq!(logged, wrote_any, "a refused write is no file written: {:?}", steps);
    });
}

/// The turn is read the same way every time: a Stop that starts while the transcript does not
/// exist yet, or holds only the prompt, waits until it holds the turn (on Claude Code the
/// payload's final answer too), on every agent, with the machine busy.
#[test]
fn a_stop_waits_for_a_missing_or_short_transcript_under_load() {
    let dir = tempfile::tempdir().unwrap();
    let rules = rules_file(dir.path(), SHOW);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let load: Vec<_> = (0..2)
        .map(|_| {
            let stop = std::sync::Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut spin = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    spin = spin.wrapping_mul(6364136223846793005).wrapping_add(1);
                }
                spin
            })
        })
        .collect();
    for (agent, shell) in [("claude", "Bash"), ("codex", "shell"), ("gemini", "run_shell_command")] {
        let items = [
            Item::Prompt("go".into()),
            Item::Call(shell.into(), json!({"command": "make test"})),
            Item::Answer("all done".into()),
        ];
        for short in [false, true] {
            let path = dir.path().join(format!("{agent}-{short}.jsonl"));
            let lines: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(at, item)| match agent {
                    "claude" => claude_line(item),
                    "codex" => codex_line(item),
                    _ => gemini_lines(item, at),
                })
                .collect();
            if short {
                std::fs::write(&path, &lines[0]).unwrap();
            }
            let payload = json!({"hook_event_name": if agent == "gemini" { "AfterAgent" } else { "Stop" },
                "transcript_path": path, "prompt": "go", "last_assistant_message": "all done", "prompt_response": "all done", "stop_hook_active": false});
            let mut args = verb(agent);
            args.extend(["--rules", rules.to_str().unwrap()]);
            let mut child = spawn_hookc(&args, |_| {});
            child.stdin.take().unwrap().write_all(payload.to_string().as_bytes()).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(300));
            let rest = if short { lines[1..].concat() } else { lines.concat() };
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .unwrap()
                .write_all(rest.as_bytes())
                .unwrap();
            let output = child.wait_with_output().unwrap();
            assert!(stderr(&output).contains("commands=[make test]"), "{agent} short={short}: {}", stderr(&output));
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for thread in load {
        let _ = thread.join();
    }
}
