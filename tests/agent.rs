//! The hook runtime and the reference loop, to the seed's contract (000 P04, 003 observers).

use hookc::model::result::{BlockingError, HookResult, Permission, ToolOutput};
use hookc::runtime::audit::AuditLog;
use hookc::runtime::*;
use hookc::vocab::EventKind;
use hookc::Policy;
use serde_json::{json, Map, Value};
use std::sync::{Arc, Mutex};

fn definitions() -> Vec<ToolDefinition> {
    let schema = |fields: &[&str]| fields.iter().map(|field| (field.to_string(), ArgType::String)).collect();
    vec![
        ToolDefinition {
            name: "write_file".into(),
            effect: Effect::Write,
            schema: schema(&["path", "content"]),
            optional: Default::default(),
        },
        ToolDefinition {
            name: "read_file".into(),
            effect: Effect::Read,
            schema: schema(&["path"]),
            optional: Default::default(),
        },
    ]
}

fn args(value: Value) -> Map<String, Value> {
    value.as_object().unwrap().clone()
}

fn call(id: &str, tool: &str, arguments: Value) -> ToolCallRequest {
    ToolCallRequest { id: id.into(), tool: tool.into(), args: args(arguments) }
}

fn rules(text: &str) -> Arc<Policy> {
    Arc::new(Policy::from_source("test.rules", text).unwrap())
}

/// A permission policy that counts its calls and answers with a fixed decision.
struct CountingPolicy {
    decision: (Permission, String),
    calls: Mutex<usize>,
}

impl PermissionPolicy for CountingPolicy {
    fn decide(&self, _: &PreparedCall) -> (Permission, String) {
        *self.calls.lock().unwrap() += 1;
        self.decision.clone()
    }
}

/// An approval that records what it was shown.
#[derive(Default)]
struct RecordingApproval {
    seen: Vec<PreparedCall>,
}

impl Approval for RecordingApproval {
    fn approve(&mut self, call: &PreparedCall, _: &str) -> bool {
        self.seen.push(call.clone());
        true
    }
}

struct Harness {
    model: ScriptedModel,
    tools: ScriptedTools,
    policy: CountingPolicy,
    approval: RecordingApproval,
}

impl Harness {
    fn new(replies: Vec<ChatMessage>) -> Self {
        Harness {
            model: ScriptedModel::new(replies),
            tools: ScriptedTools::new(definitions()),
            policy: CountingPolicy {
                decision: (Permission::Allow, "allowed by the test policy".into()),
                calls: Mutex::new(0),
            },
            approval: RecordingApproval::default(),
        }
    }

    fn run(&mut self, hooks: &HookRegistry, prompt: &str) -> Result<RunReport, RunError> {
        let report = AgentRunner {
            model: &mut self.model,
            tools: &mut self.tools,
            policy: &self.policy,
            approval: &mut self.approval,
            hooks,
            max_turns: 8,
            cwd: Some("/repo".into()),
        }
        .run(prompt);
        // 8. Every request the model received had every tool call paired with one result.
        for request in &self.model.requests {
            check_pairing(request).unwrap();
        }
        report
    }

    fn policy_calls(&self) -> usize {
        *self.policy.calls.lock().unwrap()
    }
}

fn tool_results(report: &RunReport) -> Vec<(String, String)> {
    report
        .history
        .iter()
        .filter(|m| m.role == Role::Tool)
        .map(|m| (m.tool_call_id.clone().unwrap(), m.content.clone()))
        .collect()
}

/// Counts PostToolUse runs.
fn count_posts(hooks: &mut HookRegistry) -> Arc<Mutex<usize>> {
    let posts = Arc::new(Mutex::new(0));
    let counter = Arc::clone(&posts);
    hooks.register(EventKind::PostToolUse, move |_| {
        *counter.lock().unwrap() += 1;
        Ok(HookResult::default())
    });
    posts
}

#[test]
fn a_hook_allow_is_only_a_recommendation_and_a_system_deny_wins() {
    let mut hooks = HookRegistry::new();
    hooks.add_rules(rules("pre_tool_use when tool == write_file => allow \"the hook likes it\""));
    let posts = count_posts(&mut hooks);
    let mut harness = Harness::new(vec![
        ChatMessage::assistant("", vec![call("c1", "write_file", json!({"path": "/etc/passwd", "content": "x"}))]),
        ChatMessage::assistant("done", vec![]),
    ]);
    harness.policy.decision = (Permission::Deny, "outside the workspace".into());
    let report = harness.run(&hooks, "go").unwrap();
    assert_eq!(tool_results(&report), [("c1".into(), "Error [permission_denied]: outside the workspace".into())]);
    assert!(harness.tools.invoked.is_empty(), "the handler must not run");
    assert_eq!(*posts.lock().unwrap(), 0, "PostToolUse must not run");
}

#[test]
fn a_block_skips_permission_handler_and_post_tool_use() {
    let mut hooks = HookRegistry::new();
    hooks.add_rules(rules(
        "pre_tool_use when path == \"generated.txt\" => block \"hook_blocked\" \"generated.txt is managed elsewhere\"",
    ));
    let posts = count_posts(&mut hooks);
    let mut harness = Harness::new(vec![
        ChatMessage::assistant("", vec![call("c1", "write_file", json!({"path": "./generated.txt", "content": "x"}))]),
        ChatMessage::assistant("done", vec![]),
    ]);
    let report = harness.run(&hooks, "go").unwrap();
    assert_eq!(
        tool_results(&report),
        [("c1".into(), "Error [hook_blocked]: generated.txt is managed elsewhere".into())]
    );
    assert_eq!(harness.policy_calls(), 0);
    assert!(harness.tools.invoked.is_empty());
    assert_eq!(*posts.lock().unwrap(), 0);
    assert_eq!(report.outcome, Outcome::Completed("done".into()));
}

/// A valid rewrite: approval and handler see the same frozen arguments (an invalid one:
/// `an_invalid_rewrite_stops_the_chain_at_the_hook_that_returned_it`).
#[test]
fn a_valid_rewrite_is_exactly_what_approval_and_the_handler_see() {
    let mut hooks = HookRegistry::new();
    hooks.add_rules(rules("pre_tool_use when tool == write_file => set path = \"sandbox/{path}\""));
    let mut harness = Harness::new(vec![
        ChatMessage::assistant("", vec![call("c1", "write_file", json!({"path": "a.txt", "content": "x"}))]),
        ChatMessage::assistant("done", vec![]),
    ]);
    harness.policy.decision = (Permission::Ask, "writes ask".into());
    harness.run(&hooks, "go").unwrap();
    assert_eq!(harness.approval.seen.len(), 1);
    assert_eq!(harness.tools.invoked, harness.approval.seen, "approval saw exactly what the handler got");
    assert_eq!(harness.tools.invoked[0].args["path"], "sandbox/a.txt");
    assert_eq!(harness.tools.invoked[0].id, "c1");
}

#[test]
fn hook_failures_are_paired_errors_and_say_whether_the_handler_ran() {
    let mut hooks = HookRegistry::new();
    hooks.register(EventKind::PreToolUse, |event| match event.tool_call().map(|call| call.tool.as_str()) {
        Some("write_file") => Err("the pre hook broke".into()),
        _ => Ok(HookResult::default()),
    });
    hooks.register(EventKind::PostToolUse, |_| panic!("the post hook panicked"));
    let mut harness = Harness::new(vec![
        ChatMessage::assistant(
            "",
            vec![
                call("c1", "write_file", json!({"path": "a", "content": "x"})),
                call("c2", "read_file", json!({"path": "b"})),
            ],
        ),
        ChatMessage::assistant("done", vec![]),
    ]);
    let report = harness.run(&hooks, "go").unwrap();
    assert_eq!(
        tool_results(&report),
        [
            ("c1".into(), "Error [hook_execution_error]: PreToolUse hook failed".into()),
            ("c2".into(), "Error [hook_execution_error]: PostToolUse hook failed".into()),
        ]
    );
    assert_eq!(harness.tools.invoked.len(), 1, "only c2's handler ran");
    assert_eq!(harness.tools.invoked[0].id, "c2");
}

#[test]
fn a_post_tool_use_stop_pairs_every_call_and_ends_without_another_request() {
    let mut hooks = HookRegistry::new();
    hooks.add_rules(rules("post_tool_use when path == \"a\" => stop \"enough\""));
    let mut harness = Harness::new(vec![
        ChatMessage::assistant(
            "",
            vec![
                call("c1", "read_file", json!({"path": "a"})),
                call("c2", "read_file", json!({"path": "b"})),
                call("c3", "read_file", json!({"path": "c"})),
            ],
        ),
        ChatMessage::assistant("never requested", vec![]),
    ]);
    harness.tools =
        ScriptedTools::new(definitions()).output("c1", ToolOutput { content: "contents of a".into(), is_error: false });
    let report = harness.run(&hooks, "go").unwrap();
    assert_eq!(
        tool_results(&report),
        [
            ("c1".into(), "contents of a".into()),
            ("c2".into(), SKIPPED_AFTER_STOP.into()),
            ("c3".into(), SKIPPED_AFTER_STOP.into()),
        ]
    );
    assert_eq!(report.outcome, Outcome::Stopped("contents of a".into()));
    assert_eq!(harness.model.requests.len(), 1);
    assert_eq!(harness.model.remaining(), 1);
    check_pairing(&report.history).unwrap();
}

#[test]
fn stop_forces_at_most_one_extra_turn() {
    // The recorder runs first: the first `continue` ends the remaining Stop hooks.
    let mut hooks = HookRegistry::new();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    hooks.register(EventKind::Stop, move |event| {
        record.lock().unwrap().push(event.stop_info().unwrap().stop_hook_active);
        Ok(HookResult::default())
    });
    hooks.add_rules(rules("stop when tool_calls == 0 => continue \"verify the result with a tool first\""));
    let mut harness = Harness::new(vec![
        ChatMessage::assistant("done", vec![]),
        ChatMessage::assistant("really done", vec![]),
        ChatMessage::assistant("never requested", vec![]),
    ]);
    let report = harness.run(&hooks, "go").unwrap();
    assert_eq!(report.outcome, Outcome::Completed("really done".into()));
    assert_eq!(harness.model.requests.len(), 2, "exactly one extra model turn");
    assert_eq!(*seen.lock().unwrap(), [false, true], "the second Stop runs, seeing stop_hook_active");
    let second_request = &harness.model.requests[1];
    assert_eq!(second_request.last().unwrap(), &ChatMessage::user("verify the result with a tool first"));
}

#[test]
fn context_goes_where_the_seed_puts_it_and_invalid_prompt_or_stop_results_fail_the_run() {
    let mut hooks = HookRegistry::new();
    hooks.add_rules(rules(
        "user_prompt_submit => context \"check the acceptance criteria\"\npre_tool_use => context \"pre\"\npost_tool_use => context \"post\"",
    ));
    let mut harness = Harness::new(vec![
        ChatMessage::assistant("", vec![call("c1", "read_file", json!({"path": "a"}))]),
        ChatMessage::assistant("done", vec![]),
    ]);
    let report = harness.run(&hooks, "go").unwrap();
    let roles: Vec<(Role, &str)> = report.history.iter().map(|m| (m.role, m.content.as_str())).collect();
    assert_eq!(
        roles,
        [
            (Role::User, "go"),
            (Role::System, "check the acceptance criteria"),
            (Role::Assistant, ""),
            (Role::Tool, "ok"),
            (Role::System, "pre"),
            (Role::System, "post"),
            (Role::Assistant, "done"),
        ]
    );

    for event in [EventKind::UserPromptSubmit, EventKind::Stop] {
        let mut hooks = HookRegistry::new();
        hooks.register(event, |_| {
            Ok(HookResult {
                blocking_error: Some(BlockingError { code: "x".into(), message: "y".into() }),
                ..HookResult::default()
            })
        });
        let mut harness = Harness::new(vec![ChatMessage::assistant("done", vec![])]);
        let error = harness.run(&hooks, "go").unwrap_err();
        assert_eq!(error.to_string(), format!("{} HookResult does not allow fields: blockingError", event.seed_name()));
    }
}

#[test]
fn hooks_run_in_registration_order_and_later_hooks_see_earlier_rewrites() {
    let mut hooks = HookRegistry::new();
    hooks.register(EventKind::PreToolUse, |_| {
        Ok(HookResult {
            updated_input: Some(args(json!({"path": "rewritten", "content": "x"}))),
            ..HookResult::default()
        })
    });
    hooks.add_rules(rules("pre_tool_use when path == \"rewritten\" => deny \"the rules saw the rewrite\""));
    hooks.register(EventKind::PreToolUse, |_| {
        Ok(HookResult { permission_behavior: Permission::Allow, ..HookResult::default() })
    });
    let event = hookc::Event::from_json(
        br#"{"event":"pre_tool_use","tool":"write_file","args":{"path":"original","content":"x"}}"#,
    )
    .unwrap();
    let result = hooks.run(&event).unwrap();
    assert_eq!(result.permission_behavior, Permission::Deny, "a later allow never weakens a deny");
    assert_eq!(result.permission_reason.as_deref(), Some("the rules saw the rewrite"));
    assert_eq!(result.updated_input.unwrap()["path"], "rewritten");
}

#[test]
fn a_native_result_with_fields_its_event_cannot_carry_is_a_contract_error() {
    let mut hooks = HookRegistry::new();
    hooks.register(EventKind::PreToolUse, |_| {
        Ok(HookResult {
            updated_output: Some(ToolOutput { content: "x".into(), is_error: false }),
            force_continue: Some("y".into()),
            ..HookResult::default()
        })
    });
    let event = hookc::Event::from_json(br#"{"event":"pre_tool_use","tool":"t"}"#).unwrap();
    // The registry throws `validateFor`'s own text (the upstream hooks.test.ts case "every event
    // rejects fields owned by another event"); the loop gives the model the fixed text instead.
    let error = hooks.run(&event).unwrap_err();
    assert_eq!(
        error,
        HookError::Contract {
            message: "PreToolUse HookResult does not allow fields: updatedOutput, forceContinue".into(),
            detail: None,
        }
    );
    assert_eq!(error.to_string(), "PreToolUse HookResult does not allow fields: updatedOutput, forceContinue");
    assert_eq!(error.for_model(EventKind::PreToolUse), "PreToolUse hook returned an invalid update");
    assert_eq!(error.for_model(EventKind::PreToolUse), hookc::runtime::INVALID_UPDATE);
}

/// One `read_file` call through the loop with `hooks`: the report, what the PreToolUse observers
/// read as the error of each run, and the harness (what the policy and the tools saw).
fn one_read(mut hooks: HookRegistry) -> (RunReport, Vec<Option<String>>, Harness) {
    let errors = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&errors);
    hooks.observe(Some(EventKind::PreToolUse), move |observation| {
        sink.lock().unwrap().push(observation.error.map(str::to_string));
    });
    let mut harness = Harness::new(vec![
        ChatMessage::assistant("", vec![call("c1", "read_file", json!({"path": "a"}))]),
        ChatMessage::assistant("done", vec![]),
    ]);
    let report = harness.run(&hooks, "go").unwrap();
    let errors = errors.lock().unwrap().clone();
    (report, errors, harness)
}

/// In the loop, a PreToolUse result with fields its event cannot carry fails the call with the
/// seed's one text for the model; the observers (and so the audit record) read what was wrong.
#[test]
fn the_loop_gives_the_model_the_fixed_text_and_the_audit_the_detail() {
    let mut hooks = HookRegistry::new();
    hooks.register(EventKind::PreToolUse, |_| {
        Ok(HookResult {
            updated_output: Some(ToolOutput { content: "x".into(), is_error: false }),
            ..HookResult::default()
        })
    });
    let (report, errors, harness) = one_read(hooks);
    assert_eq!(
        tool_results(&report),
        [("c1".into(), "Error [hook_contract_error]: PreToolUse hook returned an invalid update".into())]
    );
    assert_eq!(errors, [Some("PreToolUse HookResult does not allow fields: updatedOutput".into())]);
    assert_eq!(harness.policy_calls(), 0);
    assert!(harness.tools.invoked.is_empty());
}

/// The seed's `validateFor` lists the fields in the order the seed declares them.
#[test]
fn contract_errors_list_fields_in_the_seeds_order() {
    let mut hooks = HookRegistry::new();
    hooks.register(EventKind::Stop, |_| {
        Ok(HookResult {
            blocking_error: Some(BlockingError { code: "x".into(), message: "y".into() }),
            updated_input: Some(Map::new()),
            ..HookResult::default()
        })
    });
    let event = hookc::Event::from_json(br#"{"event":"stop"}"#).unwrap();
    assert_eq!(
        hooks.run(&event).unwrap_err().to_string(),
        "Stop HookResult does not allow fields: updatedInput, blockingError"
    );
}

/// Each PreToolUse rewrite is checked when its hook returns it: a later hook that would repair
/// it, the permission policy and the handler never run, the model reads the seed's text only,
/// and the audit record says what was wrong.
#[test]
fn an_invalid_rewrite_stops_the_chain_at_the_hook_that_returned_it() {
    let mut hooks = HookRegistry::new();
    hooks.register(EventKind::PreToolUse, |_| {
        Ok(HookResult { updated_input: Some(args(json!({"path": 3}))), ..HookResult::default() })
    });
    let later = Arc::new(Mutex::new(0));
    let counter = Arc::clone(&later);
    hooks.register(EventKind::PreToolUse, move |_| {
        *counter.lock().unwrap() += 1;
        Ok(HookResult { updated_input: Some(args(json!({"path": "repaired"}))), ..HookResult::default() })
    });
    let (report, errors, harness) = one_read(hooks);
    assert_eq!(
        tool_results(&report),
        [("c1".into(), "Error [hook_contract_error]: PreToolUse hook returned an invalid update".into())]
    );
    assert_eq!(*later.lock().unwrap(), 0, "the hook after the invalid rewrite never ran");
    assert_eq!(harness.policy_calls(), 0);
    assert!(harness.tools.invoked.is_empty());
    assert_eq!(
        errors,
        [Some("PreToolUse hook returned an invalid update: `read_file`: argument `path` must be a string".into())]
    );
}

/// A recommendation without a reason carries the seed's text to the policy, the approval and
/// the model.
#[test]
fn a_recommendation_without_a_reason_gets_the_seeds_text() {
    for (behavior, expected) in
        [(Permission::Deny, "Error [permission_denied]: PreToolUse hook requested deny"), (Permission::Ask, "ok")]
    {
        let mut hooks = HookRegistry::new();
        hooks.register(EventKind::PreToolUse, move |_| {
            Ok(HookResult { permission_behavior: behavior, ..HookResult::default() })
        });
        let event =
            hookc::Event::from_json(br#"{"event":"pre_tool_use","tool":"read_file","args":{"path":"a"}}"#).unwrap();
        let merged = hooks.run(&event).unwrap();
        assert_eq!(merged.permission_reason, Some(format!("PreToolUse hook requested {}", behavior.name())));
        let mut harness = Harness::new(vec![
            ChatMessage::assistant("", vec![call("c1", "read_file", json!({"path": "a"}))]),
            ChatMessage::assistant("done", vec![]),
        ]);
        let reasons = Arc::new(Mutex::new(Vec::new()));
        struct Asked(Arc<Mutex<Vec<String>>>);
        impl Approval for Asked {
            fn approve(&mut self, _: &PreparedCall, reason: &str) -> bool {
                self.0.lock().unwrap().push(reason.to_string());
                true
            }
        }
        let mut asked = Asked(Arc::clone(&reasons));
        let report = AgentRunner {
            model: &mut harness.model,
            tools: &mut harness.tools,
            policy: &harness.policy,
            approval: &mut asked,
            hooks: &hooks,
            max_turns: 8,
            cwd: None,
        }
        .run("go")
        .unwrap();
        assert_eq!(tool_results(&report), [("c1".into(), expected.into())]);
        if behavior == Permission::Ask {
            assert_eq!(*reasons.lock().unwrap(), ["PreToolUse hook requested ask"]);
        }
    }
}

/// The seed writes Stop context into the history only with a forced continuation: after the
/// final answer nothing would read it.
#[test]
fn stop_context_enters_the_history_only_with_a_continuation() {
    let mut hooks = HookRegistry::new();
    hooks.add_rules(rules("stop => context \"stop context\""));
    let mut harness = Harness::new(vec![ChatMessage::assistant("done", vec![])]);
    let report = harness.run(&hooks, "go").unwrap();
    assert_eq!(report.history.last().unwrap(), &ChatMessage::assistant("done", vec![]));
    assert!(report.history.iter().all(|message| message.content != "stop context"));

    let mut hooks = HookRegistry::new();
    hooks.add_rules(rules("stop when not stop_hook_active => context \"stop context\", continue \"once more\""));
    let mut harness =
        Harness::new(vec![ChatMessage::assistant("done", vec![]), ChatMessage::assistant("done again", vec![])]);
    let report = harness.run(&hooks, "go").unwrap();
    let tail: Vec<(Role, &str)> = report.history.iter().map(|m| (m.role, m.content.as_str())).skip(1).collect();
    assert_eq!(
        tail,
        [
            (Role::Assistant, "done"),
            (Role::System, "stop context"),
            (Role::User, "once more"),
            (Role::Assistant, "done again")
        ]
    );
}

/// A run with an observer that fails on every call is identical to a run without it.
#[test]
fn a_failing_observer_changes_nothing() {
    let scenario = |observed: bool| {
        let mut hooks = HookRegistry::new();
        hooks.add_rules(rules(
            "pre_tool_use when path == \"b\" => deny \"no b\"\nstop when tool_calls == 2 => continue \"once more\"",
        ));
        if observed {
            hooks.observe(None, |_| panic!("the observer always fails"));
        }
        let mut harness = Harness::new(vec![
            ChatMessage::assistant(
                "",
                vec![call("c1", "read_file", json!({"path": "a"})), call("c2", "read_file", json!({"path": "b"}))],
            ),
            ChatMessage::assistant("done", vec![]),
            ChatMessage::assistant("done again", vec![]),
        ]);
        let report = harness.run(&hooks, "go").unwrap();
        (report.history, report.outcome, hooks.observer_failures())
    };
    let (plain_history, plain_outcome, _) = scenario(false);
    let (observed_history, observed_outcome, failures) = scenario(true);
    // The Stop rule fired: the run went on to the forced turn's answer.
    assert_eq!(plain_outcome, Outcome::Completed("done again".into()));
    assert_eq!(observed_history, plain_history);
    assert_eq!(observed_outcome, plain_outcome);
    assert!(failures >= 5, "every hook point was observed and failed: {failures}");
}

#[test]
fn the_audit_log_flushes_every_queued_record_on_close() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog::open(&path, "sha256:test").unwrap();
    let mut hooks = HookRegistry::new();
    hooks.add_rules(rules("pre_tool_use when path == \"b\" => deny \"no b\""));
    let sink = Arc::clone(&log);
    hooks.observe(None, move |observation| sink.record(observation));
    let event = hookc::Event::from_json(br#"{"event":"pre_tool_use","tool":"read_file","args":{"path":"b"}}"#).unwrap();
    for _ in 0..500 {
        hooks.run(&event).unwrap();
    }
    log.close().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<Value> = text.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines.len(), 500);
    assert_eq!(lines[0]["event"], "pre_tool_use");
    assert_eq!(lines[0]["tool"], "read_file");
    assert_eq!(lines[0]["rules"], json!(["test.rules:1"]));
    assert_eq!(lines[0]["decision"], "deny");
    assert_eq!(lines[0]["reason"], "no b");
    assert_eq!(lines[0]["target"], "b");
    assert_eq!(lines[0]["policy"], "sha256:test");
}

#[test]
fn pairing_checks_catch_orphans_and_missing_results() {
    let assistant = ChatMessage::assistant("", vec![call("c1", "t", json!({})), call("c2", "t", json!({}))]);
    assert_eq!(
        check_pairing(&[assistant.clone(), ChatMessage::tool("c1", "x")]),
        Err(hookc::runtime::PairingError::Open("c2".into()))
    );
    assert_eq!(check_pairing(&[ChatMessage::tool("zz", "x")]), Err(hookc::runtime::PairingError::Orphan("zz".into())));
    assert_eq!(
        check_pairing(&[assistant.clone(), assistant.clone()]).unwrap_err().to_string(),
        "tool call `c1` has no result before the next assistant message"
    );
    assert!(check_pairing(&[assistant, ChatMessage::tool("c2", "x"), ChatMessage::tool("c1", "y")]).is_ok());
}

/// `docs/embedding.md` shows `examples/embed.rs` verbatim, and the example runs.
#[test]
fn the_embedding_doc_shows_the_example_that_runs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = std::fs::read_to_string(root.join("examples/embed.rs")).unwrap();
    let doc = std::fs::read_to_string(root.join("docs/embedding.md")).unwrap();
    assert!(
        doc.contains(&format!("```rust\n{example}```")),
        "docs/embedding.md does not show examples/embed.rs as it is"
    );
    embed_example::main().unwrap();
}

#[path = "../examples/embed.rs"]
mod embed_example;

/// The run a binding drives (`JsonSteps`): JSON in and out, the same order, checks and merge as
/// the registry's. A callback sees the earlier rewrites in the native event; a result it cannot
/// carry is the seed's contract error; the observers get the outcome.
#[test]
fn a_binding_drives_the_registrys_run_through_json() {
    use hookc::runtime::JsonSteps;
    let policy = rules("rule deny-rewritten pre_tool_use when path == \"rewritten\" => deny \"saw it\"");
    let event = r#"{"event":"pre_tool_use","tool":"write_file","args":{"path":"original","content":"x"}}"#;
    let hooks = |names: &[&str]| names.iter().map(|name| name.to_string()).collect::<Vec<_>>();
    let mut run = JsonSteps::start(event, &hooks(&["PreToolUse", "stop", "rules", "pre_tool_use"]), false).unwrap();
    assert_eq!(run.event_name(), "pre_tool_use");
    let step = run.need();
    assert_eq!((step["step"].as_str(), step["index"].as_u64()), (Some("call"), Some(0)), "{step}");
    assert_eq!(step["event"]["args"]["path"], "original");
    assert_eq!(run.need(), step, "asked again before it is answered, it asks the same");
    run.returned(r#"{"updatedInput":{"path":"rewritten","content":"x"}}"#);
    assert_eq!(run.need(), json!({"step": "rules", "index": 2}), "the stop callback is not this event's");
    run.evaluate(&policy);
    let step = run.need();
    assert_eq!(step["index"], 3);
    assert_eq!(step["event"]["args"]["path"], "rewritten", "the next hook sees the rewrite");
    run.returned("{}");
    let done = run.need();
    assert_eq!(done["step"], "done", "{done}");
    assert_eq!(done["result"]["permissionBehavior"], "deny");
    assert_eq!(
        (done["observation"]["outcome"].as_str(), done["observation"]["matched"][0].as_str()),
        (Some("deny"), Some("deny-rewritten"))
    );

    let failing = |answer: &dyn Fn(&mut JsonSteps)| {
        let mut run = JsonSteps::start(event, &hooks(&["pre_tool_use", "pre_tool_use"]), true).unwrap();
        run.need();
        answer(&mut run);
        let step = run.need();
        assert_eq!(step["step"], "failed", "{step}");
        step
    };
    let contract = failing(&|run| run.returned(r#"{"forceContinue":"y"}"#));
    assert_eq!(contract["error"]["code"], "HOOKC_CONTRACT");
    assert_eq!(contract["error"]["message"], "PreToolUse HookResult does not allow fields: forceContinue");
    assert_eq!(contract["observation"]["error"], "PreToolUse HookResult does not allow fields: forceContinue");
    for not_a_result in [r#"{"permission":"allow"}"#, "[]", r#"["deny"]"#, "null", "1", r#""deny""#] {
        assert_eq!(failing(&|run| run.returned(not_a_result))["error"]["code"], "HOOKC_HOOK", "{not_a_result}");
    }
    let threw = failing(&|run| run.threw("boom"));
    assert_eq!(threw["error"]["message"], "PreToolUse hook failed: the callback failed: boom");
    assert_eq!(threw["observation"]["outcome"], "error");
    // A rewrite waits for the input check; a refusal ends the run at that hook.
    let refused = failing(&|run| {
        run.returned(r#"{"updatedInput":{"path":3}}"#);
        assert_eq!(run.need(), json!({"step": "check", "args": {"path": 3}}));
        run.checked(Some("`path` must be a string"));
    });
    assert_eq!(refused["error"]["message"], "PreToolUse hook returned an invalid update");
    assert_eq!(refused["error"]["detail"], "PreToolUse hook returned an invalid update: `path` must be a string");
    let answered = failing(&|run| {
        run.returned(r#"{"updatedInput":{"path":"a"}}"#);
        run.check_answered("true");
    });
    assert_eq!(
        answered["error"]["message"],
        "PreToolUse hook failed: the input check returned true, not a string or nothing"
    );
    // An answer the run did not ask for fails it closed.
    let out_of_step = failing(&|run| run.checked(None));
    assert!(
        out_of_step["error"]["message"].as_str().unwrap().contains("was handed to a run waiting for"),
        "{out_of_step}"
    );
    assert_eq!(
        JsonSteps::start(r#"{"event":"pre_tool_use"}"#, &[], false).unwrap_err().code(),
        hookc::runtime::FailureCode::Event
    );
    assert_eq!(
        JsonSteps::start(event, &hooks(&["pre_tool"]), false).unwrap_err().code(),
        hookc::runtime::FailureCode::Event
    );
}

/// In-process evaluation has the hook call's limit: 301 costly regexes fail the call closed in
/// about 0.7 s instead of compiling for seconds (what the bindings call).
#[test]
fn bounded_evaluation_fails_closed_past_the_compile_budget() {
    let rules: String = (0..301)
        .map(|n| format!("pre_tool_use when content matches /\\w{{50}}x\\w{{50}}{n}/ => deny \"r{n}\"\n"))
        .collect();
    let policy = Policy::from_source("costly.rules", &rules).unwrap();
    let event = hookc::Event::from_json(
        format!(
            r#"{{"event":"pre_tool_use","tool":"write_file","args":{{"path":"a","content":"{}x{}0123456789"}}}}"#,
            "a".repeat(60),
            "b".repeat(60)
        )
        .as_bytes(),
    )
    .unwrap();
    let started = std::time::Instant::now();
    // Whichever half of the budget is spent first (the time, or the process's growth, which
    // tests running beside this one add to) fails the call.
    let over = |error: &str| error.contains("spent more than 0.7 s compiling") || error.contains("MB to compile");
    let error = policy.evaluate_bounded(&event).unwrap_err().to_string();
    assert!(over(&error), "{error}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
    // The chain a binding's registry drives has the same limit (a fresh policy: none compiled).
    let policy = Policy::from_source("costly.rules", &rules).unwrap();
    let json = format!(
        r#"{{"event":"pre_tool_use","tool":"write_file","args":{{"path":"a","content":"{}x{}0123456789"}}}}"#,
        "a".repeat(60),
        "b".repeat(60)
    );
    let mut run = hookc::runtime::JsonSteps::start(&json, &["rules".to_string()], false).unwrap();
    let started = std::time::Instant::now();
    assert_eq!(run.need()["step"], "rules");
    run.evaluate(&policy);
    let failed = run.need();
    assert!(over(failed["error"]["message"].as_str().unwrap_or_default()), "{failed}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
}
