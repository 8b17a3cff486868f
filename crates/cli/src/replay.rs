//! `hookc replay`: run a scripted session through the reference loop with the rules.

use super::input::PolicyArgs;
use super::report::{exit, Format};
use hookc_core::model::escape_controls;
use hookc_core::model::result::HookResult;
use hookc_runtime::session::Session;
use hookc_runtime::{HookRegistry, Outcome, Role, RunReport, Step};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;

/// Run a scripted session (prompt, model replies, tool outputs) through the reference loop with
/// the rules, printing the transcript with every hook decision inline.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  hookc replay session.yaml --rules rules/\n  hookc replay session.yaml --rules rules/ --format json"
)]
pub(super) struct Args {
    /// The session file (YAML).
    session: PathBuf,
    #[command(flatten)]
    policy: PolicyArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Append one JSON line per hook decision to this file.
    #[arg(long, value_name = "FILE")]
    audit_log: Option<PathBuf>,
}

/// Runs `hookc replay`: exit 0 when the session ran to its end, 1 when it did not.
pub(super) fn run(args: &Args) -> u8 {
    let session = match std::fs::read_to_string(&args.session) {
        Ok(text) => match Session::from_yaml(&text) {
            Ok(session) => session,
            Err(message) => {
                super::report::error(format_args!("`{}`: {message}", args.session.display()));
                return exit::FAILED;
            }
        },
        Err(io) => {
            super::report::error(format_args!("cannot read `{}`: {io}", args.session.display()));
            return exit::USAGE;
        }
    };
    let policy = match args.policy.load() {
        Ok(policy) => Arc::new(policy),
        Err(code) => return code,
    };
    let mut hooks = HookRegistry::new();
    let audit = super::report::open_audit_log(args.audit_log.as_deref(), policy.source_hash());
    if let Some(log) = &audit {
        let sink = Arc::clone(log);
        hooks.observe(None, move |observation| sink.record(observation));
    }
    hooks.add_rules(policy);
    let outcome = session.run(&hooks);
    super::report::close_audit_log(audit);
    match outcome {
        Err(error) => {
            super::report::error(format_args!("the session failed: {error}"));
            exit::FAILED
        }
        Ok(report) => {
            match args.format {
                Format::Human => print!("{}", transcript(&report)),
                Format::Json => match serde_json::to_string_pretty(&as_json(&report)) {
                    Ok(text) => println!("{text}"),
                    Err(error) => super::report::error(error),
                },
            }
            if report.outcome == Outcome::MaxTurns {
                exit::FAILED
            } else {
                exit::OK
            }
        }
    }
}

/// One line for a hook result.
fn summary(result: &HookResult) -> String {
    let mut parts = Vec::new();
    if let Some(error) = &result.blocking_error {
        parts.push(format!("block: {error}"));
    }
    if !result.permission_behavior.is_passthrough() {
        parts.push(format!(
            "{}: {}",
            result.permission_behavior.name(),
            result.permission_reason.clone().unwrap_or_default()
        ));
    }
    if let Some(input) = &result.updated_input {
        parts.push(format!("rewrite input: {}", Value::Object(input.clone())));
    }
    if let Some(output) = &result.updated_output {
        parts.push(format!("rewrite output: {:?}", output.content));
    }
    if result.prevent_continuation {
        parts.push(format!("stop: {}", result.stop_reason.clone().unwrap_or_default()));
    }
    if let Some(message) = &result.force_continue {
        parts.push(format!("continue: {message}"));
    }
    for context in &result.additional_context {
        parts.push(format!("context: {context}"));
    }
    if parts.is_empty() {
        parts.push("no decision".to_string());
    }
    let rules =
        if result.matched.is_empty() { String::new() } else { format!(" (rules: {})", result.matched.join(", ")) };
    format!("{}{rules}", parts.join("; "))
}

fn transcript(report: &RunReport) -> String {
    let mut out = String::new();
    for step in &report.steps {
        let line = match step {
            Step::Message(message) => match message.role {
                Role::User => format!("user: {}", message.content),
                Role::System => format!("system: {}", message.content),
                Role::Tool => format!("tool {}: {}", message.tool_call_id.clone().unwrap_or_default(), message.content),
                Role::Assistant => {
                    let mut text = format!("assistant: {}", message.content);
                    for call in &message.tool_calls {
                        text.push_str(&format!(
                            "\n  call {} {} {}",
                            call.id,
                            call.tool,
                            Value::Object(call.args.clone())
                        ));
                    }
                    text
                }
                // The runtime's enums are closed to outside crates: a role added later reads
                // as its name.
                role => format!("{role:?}: {}", message.content),
            },
            Step::Hook { event, call_id, outcome, logs } => {
                let on = call_id.as_ref().map(|id| format!(" {id}")).unwrap_or_default();
                let mut text = match outcome {
                    Ok(result) => format!("  [{}{on}] {}", event.name(), summary(result)),
                    Err(error) => format!("  [{}{on}] failed: {}", event.name(), error.in_full()),
                };
                for log in logs {
                    text.push_str(&match &log.message {
                        Ok(message) => format!("\n    log {}: {}", log.rule, escape_controls(message)),
                        Err(error) => format!("\n    log {} could not be written: {error}", log.rule),
                    });
                }
                text
            }
            Step::Permission { call_id, allowed, reason } => {
                format!("  [permission {call_id}] {}: {reason}", if *allowed { "allowed" } else { "denied" })
            }
            other => format!("  {other:?}"),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&match &report.outcome {
        Outcome::Completed(answer) => format!("completed: {answer}\n"),
        Outcome::Stopped(result) => format!("stopped after a PostToolUse stop: {result}\n"),
        Outcome::MaxTurns => "did not finish: the turn limit was reached\n".to_string(),
        other => format!("ended: {other:?}\n"),
    });
    out
}

fn as_json(report: &RunReport) -> Value {
    let steps: Vec<Value> = report
        .steps
        .iter()
        .map(|step| match step {
            Step::Message(message) => json!({"message": message}),
            Step::Hook { event, call_id, outcome, logs } => {
                let logs: Vec<Value> = logs
                    .iter()
                    .map(|log| match &log.message {
                        Ok(message) => json!({"rule": log.rule, "message": message}),
                        Err(error) => json!({"rule": log.rule, "error": error}),
                    })
                    .collect();
                let (key, value) = match outcome {
                    Ok(result) => ("result", json!(result)),
                    Err(error) => ("error", json!(error.in_full())),
                };
                json!({"hook": {"event": event.name(), "call_id": call_id, "logs": logs, key: value}})
            }
            Step::Permission { call_id, allowed, reason } => {
                json!({"permission": {"call_id": call_id, "allowed": allowed, "reason": reason}})
            }
            other => json!({"step": format!("{other:?}")}),
        })
        .collect();
    let outcome = match &report.outcome {
        Outcome::Completed(answer) => json!({"completed": answer}),
        Outcome::Stopped(result) => json!({"stopped": result}),
        Outcome::MaxTurns => json!("max_turns"),
        other => json!(format!("{other:?}")),
    };
    json!({"steps": steps, "outcome": outcome})
}
