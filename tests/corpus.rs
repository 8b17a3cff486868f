//! One corpus across agents: the same logical calls (a shell `rm -rf ~`, a write to a generated
//! file, a read of `.env`, a harmless `ls`) in every agent's own payload shape, built from its
//! file (its event names, payload pointers, tools and their arguments), get the same decision
//! from the shipped baseline on every agent; and the answer each agent is sent is never weaker
//! than the decision (an `ask` an agent cannot take is a refusal in its dialect).

use hookc::agents::schema::{Answer, Call, Ptrs};
use hookc::agents::{Agent, AnswerKind, EventSpec, Support};
use hookc::vocab::tools::{Source, Tool};
use hookc::vocab::{EventKind, Kind, Semantic};
use hookc::{answer_hook, hook_event, HookAnswer, HookOptions, HookResult, Permission, Policy};
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

fn baseline() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| {
        Policy::from_paths(&[concat!(env!("CARGO_MANIFEST_DIR"), "/rules")]).unwrap().without_own_files()
    })
}

/// A logical call: the kind of tool it takes, and the value of its semantic argument.
#[derive(Debug, Clone, Copy)]
struct Logical {
    what: &'static str,
    kind: Kind,
    semantic: Semantic,
    value: &'static str,
}

const CORPUS: [Logical; 4] = [
    Logical { what: "rm -rf ~", kind: Kind::Shell, semantic: Semantic::Command, value: "rm -rf ~" },
    Logical {
        what: "a write to generated.txt",
        kind: Kind::Write,
        semantic: Semantic::Path,
        value: "/repo/generated.txt",
    },
    Logical { what: "a read of .env", kind: Kind::Read, semantic: Semantic::Path, value: "/repo/.env" },
    Logical { what: "ls", kind: Kind::Shell, semantic: Semantic::Command, value: "ls" },
];

/// Sets a value at the first of these pointers, making the objects on the way.
fn set(root: &mut Value, pointers: Ptrs, value: Value) {
    let Some(pointer) = pointers.first() else { return };
    let steps: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    let (last, path) = steps.split_last().unwrap();
    let mut at = root;
    for step in path {
        at = at.as_object_mut().unwrap().entry(step.to_string()).or_insert_with(|| json!({}));
    }
    at.as_object_mut().unwrap().insert(last.to_string(), value);
}

/// The arguments a tool takes the call in: its semantic argument (a list of lines for a tool
/// that takes one), and a content for a write.
fn arguments(tool: &Tool, call: Logical) -> Option<Map<String, Value>> {
    let mut args = Map::new();
    match tool.source(call.semantic)? {
        Source::Args(names) => args.insert(names.first()?.to_string(), json!(call.value)),
        Source::Lines(names) => args.insert(names.first()?.to_string(), json!([call.value])),
        Source::Patch(_) => return None,
    };
    if let Some(Source::Args(names)) = tool.source(Semantic::Content) {
        args.insert(names.first()?.to_string(), json!("x"));
    }
    Some(args)
}

/// The call as this agent sends it: the event it arrives at, and the payload.
fn payload(agent: &'static Agent, call: Logical) -> Option<(&'static EventSpec, Value)> {
    agent.events.iter().filter(|spec| spec.kind == EventKind::PreToolUse).find_map(|spec| {
        let mut root = json!({});
        let fields = &agent.payload;
        if !agent.settings.name_event {
            set(&mut root, fields.event, json!(spec.name));
        }
        set(&mut root, fields.session, json!("corpus"));
        set(&mut root, fields.cwd, json!("/repo"));
        match spec.call {
            Call::Payload => {
                let tool = agent
                    .tools
                    .iter()
                    .filter(|tool| tool.kind == call.kind)
                    .find_map(|tool| arguments(tool, call).map(|args| (tool, args)))?;
                set(&mut root, fields.tool_name, json!(tool.0.name));
                set(&mut root, fields.tool_input, Value::Object(tool.1));
            }
            Call::Implied { tool, args } => {
                let tool = agent.tool(tool).filter(|tool| tool.kind == call.kind)?;
                let mut given = arguments(tool, call)?;
                given.insert("cwd".into(), json!("/repo"));
                for (name, pointers) in args {
                    if let Some(value) = given.get(*name) {
                        set(&mut root, pointers, value.clone());
                    }
                }
            }
        }
        Some((spec, root))
    })
}

fn options(agent: &Agent, spec: &EventSpec) -> HookOptions<'static> {
    HookOptions::default()
        .with_project_root(Some("/repo".into()))
        .with_event(agent.settings.name_event.then(|| spec.name.to_string()))
}

/// Whether an answer refuses the call in the agent's dialect.
fn refuses(answer: &HookAnswer, style: Answer) -> bool {
    let json: Value = answer.stdout.as_deref().and_then(|out| serde_json::from_str(out).ok()).unwrap_or(Value::Null);
    match style {
        Answer::Claude { .. } => json.pointer("/hookSpecificOutput/permissionDecision") == Some(&json!("deny")),
        Answer::Gemini => json["decision"] == "deny",
        Answer::Copilot => json["permissionDecision"] == "deny",
        Answer::Cline => json["cancel"] == true,
        Answer::Cursor => json["permission"] == "deny",
        Answer::ExitCode => answer.exit == 2,
        Answer::Plugin => json["decision"] == "deny",
    }
}

/// Whether an answer asks a person.
fn asks(answer: &HookAnswer, style: Answer) -> bool {
    let json: Value = answer.stdout.as_deref().and_then(|out| serde_json::from_str(out).ok()).unwrap_or(Value::Null);
    match style {
        Answer::Claude { .. } => json.pointer("/hookSpecificOutput/permissionDecision") == Some(&json!("ask")),
        Answer::Cursor => json["permission"] == "ask",
        _ => false,
    }
}

fn decision(result: &HookResult) -> (Permission, bool) {
    (result.permission_behavior, result.blocking_error.is_some())
}

#[test]
fn every_agent_decides_the_same_calls_the_same_way_and_answers_no_weaker() {
    let expected = [
        (Permission::Deny, false),
        (Permission::Passthrough, true),
        (Permission::Ask, false),
        (Permission::Passthrough, false),
    ];
    let mut checked = 0;
    for agent in hookc::agents::AGENTS {
        for (call, expected) in CORPUS.iter().zip(expected) {
            // An agent with no tool of this kind (Windsurf reads only through `pre_read_code`) is
            // skipped for it, and counted.
            let Some((spec, payload)) = payload(agent, *call) else { continue };
            let bytes = payload.to_string();
            let options = options(agent, spec);
            let event = hook_event(agent, baseline(), bytes.as_bytes(), &options)
                .unwrap_or_else(|failure| panic!("{}: {}: {failure}: {payload}", agent.id, call.what));
            let result = baseline().evaluate(&event).unwrap();
            assert_eq!(decision(&result), expected, "{}: {} ({payload}): {result:?}", agent.id, call.what);
            let answer = answer_hook(agent, baseline(), bytes.as_bytes(), &options);
            let style = spec.answer.unwrap_or(agent.answer);
            let can_ask = agent.support(EventKind::PreToolUse, AnswerKind::Ask) == Support::Honoured;
            let strong_enough = match expected {
                (_, true) | (Permission::Deny, _) => refuses(&answer, style),
                (Permission::Ask, _) if can_ask => asks(&answer, style) || refuses(&answer, style),
                (Permission::Ask, _) => refuses(&answer, style),
                _ => !refuses(&answer, style) && answer.exit == 0,
            };
            assert!(strong_enough, "{}: {}: decided {expected:?}, answered {answer:?}", agent.id, call.what);
            checked += 1;
        }
    }
    // Every agent has a shell and a write tool; a read, all but those that read only through
    // an event of their own.
    assert!(checked >= hookc::agents::AGENTS.len() * 3 + 8, "only {checked} calls checked");
}
