//! Claude Code's command-hook protocol; Codex speaks the same payloads and answers.
//!
//! | hookc result | Claude Code answer |
//! |---|---|
//! | `blockingError` | `permissionDecision: "deny"`, reason `Error [code]: message` |
//! | `deny` / `ask` / `allow` | the same `permissionDecision`, with the rule's reason (never blank); on Codex, which takes `ask` and a bare `allow` as unsupported, `ask` is `deny` saying why and `allow` is not sent |
//! | `updatedInput` | `updatedInput` (the whole input) with the rules' decision, or `"ask"` when no rule decided: a rewrite never skips the user's permission prompt; on Codex, which cannot ask, `deny` saying why |
//! | `updatedOutput` | `updatedToolOutput` in the tool's own shape (and `updatedMCPToolOutput` for MCP tools: a string or a list of blocks); a rewrite that fits no shape withholds the output: `continue: false` ends the turn before the model reads it (Claude Code would send the original); on Codex, `decision: "block"` with the rewritten output as `reason`, which replaces the output |
//!
//! Which agent honours what is the table in [`super::capabilities`].
//! | `preventContinuation` | `continue: false` with `stopReason` |
//! | `forceContinue` | `decision: "block"` with the message as `reason` (Stop, SubagentStop) |
//! | `blockingError` on PreCompact | `decision: "block"` with the reason |
//! | `additionalContext` | `hookSpecificOutput.additionalContext`; on Stop, `systemMessage` |
//! | nothing | exit 0, no output: the agent's own permission flow decides |

use super::capabilities::{Agent, AnswerKind, Support};
use super::output::{self, Shape};
use super::transcript::{self, Dialect};
use super::{joined_context, Answer, Mapped, Protocol};
use crate::model::event::{Common, Event, EventData, StopInfo};
use crate::model::result::{HookResult, Permission, ToolOutput};
use crate::vocab::EventKind;
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// Which agent is speaking the Claude Code protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Flavor {
    /// Claude Code.
    Claude,
    /// OpenAI Codex CLI.
    Codex,
}

impl Flavor {
    /// The agent speaking.
    pub(crate) fn protocol(self) -> super::HookProtocol {
        match self {
            Flavor::Claude => super::HookProtocol::Claude,
            Flavor::Codex => super::HookProtocol::Codex,
        }
    }

    /// The flavor a hook protocol speaks (Gemini CLI's is not one: it reads as Claude Code).
    pub(crate) fn of(protocol: super::HookProtocol) -> Self {
        match protocol {
            super::HookProtocol::Codex => Flavor::Codex,
            super::HookProtocol::Claude | super::HookProtocol::Gemini => Flavor::Claude,
        }
    }
}

/// The Claude Code protocol.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Claude {
    /// Claude Code or Codex (recorded as the `agent` field).
    pub flavor: Flavor,
}

/// A Claude Code hook payload: every field any event may carry. Unknown fields are ignored, as
/// the agent adds fields over time.
#[derive(Debug, Deserialize)]
struct Payload {
    hook_event_name: String,
    session_id: Option<String>,
    cwd: Option<String>,
    permission_mode: Option<String>,
    transcript_path: Option<String>,
    agent_transcript_path: Option<String>,
    prompt_id: Option<String>,
    tool_name: Option<String>,
    tool_input: Option<Map<String, Value>>,
    tool_use_id: Option<String>,
    tool_response: Option<Value>,
    error: Option<String>,
    prompt: Option<String>,
    stop_hook_active: Option<bool>,
    last_assistant_message: Option<String>,
    source: Option<String>,
    reason: Option<String>,
    trigger: Option<String>,
    message: Option<String>,
}

/// What rendering needs to know about the call.
#[derive(Debug)]
pub(crate) struct Context {
    hook_event_name: String,
    kind: EventKind,
    tool: String,
    tool_response: Option<(Value, Shape)>,
}

/// The Claude Code events hookc handles, and the native event each becomes.
pub(crate) const EVENTS: &[(&str, EventKind)] = &[
    ("PreToolUse", EventKind::PreToolUse),
    ("PostToolUse", EventKind::PostToolUse),
    ("PostToolUseFailure", EventKind::PostToolUseFailure),
    ("UserPromptSubmit", EventKind::UserPromptSubmit),
    ("Stop", EventKind::Stop),
    ("SubagentStop", EventKind::SubagentStop),
    ("SessionStart", EventKind::SessionStart),
    ("SessionEnd", EventKind::SessionEnd),
    ("PreCompact", EventKind::PreCompact),
    ("Notification", EventKind::Notification),
];

impl Protocol for Claude {
    type Context = Context;

    fn id(&self) -> super::HookProtocol {
        self.flavor.protocol()
    }

    fn map(&self, payload: &[u8]) -> Result<Mapped<Context>, String> {
        let payload: Payload = super::decode(payload)?;
        let kind = super::event_kind(EVENTS, &payload.hook_event_name)?;
        let missing = |field: &str| format!("the `{}` payload has no `{field}`", payload.hook_event_name);
        let agent = self.flavor.protocol().agent();
        let common = Common {
            cwd: payload.cwd.clone(),
            session_id: payload.session_id.clone(),
            permission_mode: payload.permission_mode.clone(),
            agent: Some(agent.to_string()),
            ..Common::default()
        };
        let tool = payload.tool_name.clone().unwrap_or_default();
        let call = || super::tool_call(&payload.tool_name, &payload.tool_input, &payload.tool_use_id).map_err(&missing);
        let mut tool_response = None;
        let mut turn = None;
        let data = match kind {
            EventKind::PreToolUse => EventData::PreToolUse(call()?),
            EventKind::PostToolUse => {
                let response = payload.tool_response.clone().ok_or_else(|| missing("tool_response"))?;
                let (content, shape) = output::read(&response);
                let is_error = response.get("is_error").or_else(|| response.get("isError")).and_then(Value::as_bool);
                tool_response = Some((response, shape));
                EventData::PostToolUse(call()?, ToolOutput { content, is_error: is_error.unwrap_or(false) })
            }
            EventKind::PostToolUseFailure => {
                EventData::PostToolUseFailure(call()?, payload.error.clone().unwrap_or_default())
            }
            EventKind::UserPromptSubmit => {
                EventData::UserPromptSubmit { prompt: payload.prompt.clone().ok_or_else(|| missing("prompt"))? }
            }
            EventKind::Stop | EventKind::SubagentStop => {
                // A subagent's turn is in its own transcript; the session's is the main turn's.
                let (path, subagent) = match kind {
                    EventKind::Stop => (&payload.transcript_path, false),
                    _ => (&payload.agent_transcript_path, true),
                };
                turn = path.as_ref().map(|path| match self.flavor {
                    // Claude Code has often not written the turn's end yet; Codex has.
                    Flavor::Claude => transcript::Source {
                        dialect: Dialect::Claude { subagent },
                        path: path.into(),
                        settle: Some((payload.prompt_id.clone(), payload.last_assistant_message.clone())),
                    },
                    Flavor::Codex => transcript::Source { dialect: Dialect::Codex, path: path.into(), settle: None },
                });
                let stop = StopInfo {
                    stop_hook_active: payload.stop_hook_active.unwrap_or(false),
                    last_message: payload.last_assistant_message.clone(),
                    ..StopInfo::default()
                };
                if kind == EventKind::Stop {
                    EventData::Stop(stop)
                } else {
                    EventData::SubagentStop(stop)
                }
            }
            EventKind::SessionStart => EventData::SessionStart { source: payload.source.clone() },
            EventKind::SessionEnd => EventData::SessionEnd { reason: payload.reason.clone() },
            EventKind::PreCompact => EventData::PreCompact { trigger: payload.trigger.clone() },
            EventKind::Notification => EventData::Notification { message: payload.message.clone().unwrap_or_default() },
        };
        let event = Event { common, data };
        let context = Context { hook_event_name: payload.hook_event_name, kind, tool, tool_response };
        Ok(Mapped { event, context, turn })
    }

    /// Claude Code sets `CLAUDE_PROJECT_DIR` for hooks (the payload's `cwd` follows `cd`).
    /// Codex sets nothing, but runs hooks in the session's directory, which a command's
    /// `workdir` does not move: that directory is the root when the payload's `cwd` is inside it.
    fn project_root(&self, cwd: Option<&str>) -> Option<String> {
        match self.flavor {
            Flavor::Claude => super::env_dir(&["CLAUDE_PROJECT_DIR"]),
            Flavor::Codex => {
                let session = std::env::current_dir().ok()?.to_string_lossy().into_owned();
                cwd.is_some_and(|cwd| crate::paths::is_within(cwd, &session)).then_some(session)
            }
        }
    }

    fn render(&self, context: &Context, result: &HookResult) -> Result<Answer, String> {
        let answer = match context.kind {
            EventKind::PreToolUse => pre_tool_use(self.flavor, context, result),
            // An agent without output rewrites gets the substitute the capability table names.
            EventKind::PostToolUse
                if Agent::of(self.flavor.protocol()).support(EventKind::PostToolUse, AnswerKind::UpdatedOutput)
                    != Support::Honoured =>
            {
                codex_post_tool_use(context, result)
            }
            EventKind::PostToolUse => post_tool_use(context, result),
            EventKind::UserPromptSubmit | EventKind::SessionStart | EventKind::PostToolUseFailure => {
                joined_context(result).map(|context_text| specific(context, json!({"additionalContext": context_text})))
            }
            EventKind::Stop | EventKind::SubagentStop => stop(result),
            EventKind::PreCompact => {
                result.blocking_error.as_ref().map(|error| json!({"decision": "block", "reason": error.to_string()}))
            }
            EventKind::SessionEnd | EventKind::Notification => None,
        };
        Ok(Answer { stdout: answer.map(|value| value.to_string()), exit: 0 })
    }
}

/// `{"hookSpecificOutput": {"hookEventName": …, …fields}}`.
fn specific(context: &Context, fields: Value) -> Value {
    let mut output = json!({"hookEventName": context.hook_event_name});
    if let (Value::Object(output), Value::Object(fields)) = (&mut output, fields) {
        output.extend(fields);
    }
    json!({ "hookSpecificOutput": output })
}

fn pre_tool_use(flavor: Flavor, context: &Context, result: &HookResult) -> Option<Value> {
    let agent = Agent::of(flavor.protocol());
    let honours = |answer| agent.support(EventKind::PreToolUse, answer) == Support::Honoured;
    let (decision, reason) = match (&result.blocking_error, result.permission_behavior) {
        (Some(error), _) => (Permission::Deny, Some(error.to_string())),
        // The safe answer an agent that cannot ask honours is `deny`, saying why.
        (None, Permission::Ask) if !honours(AnswerKind::Ask) => (
            Permission::Deny,
            Some(format!(
                "this call needs a person's approval, which {} hooks cannot ask for: {}",
                agent.protocol.agent_name(),
                result.permission_reason.clone().unwrap_or_else(|| result.matched.join(", "))
            )),
        ),
        (None, _) if result.updated_input.is_some() && !honours(AnswerKind::UpdatedInput) => (
            Permission::Deny,
            Some(format!(
                "hookc rules ({}) rewrote this call, which {} hooks cannot do: it is refused rather than run as sent",
                result.matched.join(", "),
                agent.protocol.agent_name()
            )),
        ),
        // An agent that takes `allow` as unsupported output would mark the hook failed.
        (None, Permission::Allow) if !honours(AnswerKind::Allow) => (Permission::Passthrough, None),
        (None, Permission::Passthrough) if result.updated_input.is_some() => (
            // A rewrite alone must not skip the user's prompt: show the rewritten input.
            Permission::Ask,
            Some(format!("hookc rewrote the tool input (rules: {})", result.matched.join(", "))),
        ),
        (None, permission) => (permission, result.permission_reason.clone()),
    };
    let reason = match decision {
        Permission::Deny => Some(super::denial_reason(reason, result)),
        _ => reason,
    };
    let mut fields = Map::new();
    if decision != Permission::Passthrough {
        fields.insert("permissionDecision".into(), json!(decision.name()));
        if let Some(reason) = reason {
            fields.insert("permissionDecisionReason".into(), json!(reason));
        }
    }
    if let (Some(input), false) = (&result.updated_input, decision == Permission::Deny) {
        fields.insert("updatedInput".into(), Value::Object(input.clone()));
    }
    if let Some(text) = joined_context(result) {
        fields.insert("additionalContext".into(), json!(text));
    }
    (!fields.is_empty()).then(|| specific(context, Value::Object(fields)))
}

fn post_tool_use(context: &Context, result: &HookResult) -> Option<Value> {
    let mut fields = Map::new();
    let mut notes = result.additional_context.clone();
    let mut withheld = None;
    if let (Some(updated), Some((response, shape))) = (&result.updated_output, &context.tool_response) {
        let mcp = context.tool.starts_with("mcp__");
        let delivered = match (output::rewrite(response, shape, &updated.content), mcp) {
            // Claude Code does not check an MCP result against a schema: a string or a list
            // of blocks is used as is (an object would be an error result).
            (Some(Value::Object(object)), true) => {
                Some(object.get("content").cloned().unwrap_or_else(|| json!(Value::Object(object).to_string())))
            }
            (None, true) => Some(json!(updated.content)),
            // Read's output is a union of kinds: any of them may become its text kind.
            (None, false) if context.tool == "Read" => Some(read_as_text(response, &updated.content)),
            (rewritten, _) => rewritten,
        };
        match delivered {
            Some(rewritten) => {
                if mcp {
                    fields.insert("updatedMCPToolOutput".into(), rewritten.clone());
                }
                fields.insert("updatedToolOutput".into(), rewritten);
            }
            // Claude Code drops a rewrite that does not fit the tool's output schema and sends
            // the original: what it honours instead is ending the turn before the model reads it.
            None => {
                withheld = Some(format!(
                    "hookc withheld the output of `{}`: rules ({}) rewrote it, and the rewrite does not fit the tool's output",
                    context.tool,
                    result.matched.join(", ")
                ));
                notes.push(format!(
                    "hookc: the output of `{}` as the rules rewrote it:\n{}",
                    context.tool, updated.content
                ));
            }
        }
    }
    if !notes.is_empty() {
        fields.insert("additionalContext".into(), json!(notes.join("\n\n")));
    }
    let mut answer = if fields.is_empty() { Map::new() } else { specific_map(context, fields) };
    let stop_reason = result.stop_reason.clone().or(withheld.clone());
    if result.prevent_continuation || withheld.is_some() {
        answer.insert("continue".into(), json!(false));
        let reason = stop_reason.unwrap_or_else(|| format!("stopped by hookc rules: {}", result.matched.join(", ")));
        answer.insert("stopReason".into(), json!(reason));
    }
    (!answer.is_empty()).then_some(Value::Object(answer))
}

/// Read's text kind, holding this text.
fn read_as_text(response: &Value, text: &str) -> Value {
    let path = response.pointer("/file/filePath").cloned().unwrap_or_else(|| json!(""));
    let lines = text.lines().count().max(1);
    json!({"type": "text", "file": {"filePath": path, "content": text, "numLines": lines, "startLine": 1, "totalLines": lines}})
}

/// Claude Code's answer when the policy could not check a tool's output: exit 2 after a tool
/// only adds a message beside the output, so the output is replaced by a note instead (withheld
/// as any rewrite that fits no shape is). `None` when the payload is not a readable
/// PostToolUse.
pub(crate) fn unchecked_output(payload: &[u8], reason: &str) -> Option<String> {
    let protocol = Claude { flavor: Flavor::Claude };
    let mapped = protocol.map(payload).ok()?;
    if mapped.context.kind != EventKind::PostToolUse {
        return None;
    }
    let result = HookResult {
        updated_output: Some(ToolOutput {
            content: format!("[hookc could not check this output, so it is withheld: {reason}]"),
            is_error: false,
        }),
        matched: vec!["(none: the policy could not decide)".to_string()],
        ..HookResult::default()
    };
    post_tool_use(&mapped.context, &result).map(|answer| answer.to_string())
}

/// Codex has no output rewrite (an unknown field fails the hook, and the original is shown), but
/// `decision: "block"` replaces the output the model sees with its `reason`: the rewritten
/// text goes there. `continue: false` does not end Codex's turn; it too replaces the output,
/// with the stop reason.
fn codex_post_tool_use(context: &Context, result: &HookResult) -> Option<Value> {
    let mut answer = Map::new();
    if let Some(text) = joined_context(result) {
        answer = specific_map(context, Map::from_iter([("additionalContext".to_string(), json!(text))]));
    }
    if let Some(updated) = &result.updated_output {
        answer.insert("decision".into(), json!("block"));
        answer.insert("reason".into(), json!(super::replacement_text(&updated.content, result)));
    } else if result.prevent_continuation {
        answer.insert("continue".into(), json!(false));
        let reason = result
            .stop_reason
            .clone()
            .unwrap_or_else(|| format!("stopped by hookc rules: {}", result.matched.join(", ")));
        answer.insert("stopReason".into(), json!(reason));
    }
    (!answer.is_empty()).then_some(Value::Object(answer))
}

fn specific_map(context: &Context, fields: Map<String, Value>) -> Map<String, Value> {
    match specific(context, Value::Object(fields)) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn stop(result: &HookResult) -> Option<Value> {
    let context = joined_context(result);
    match (&result.force_continue, context) {
        (Some(message), Some(context)) => {
            Some(json!({"decision": "block", "reason": format!("{message}\n\n{context}")}))
        }
        (Some(message), None) => Some(json!({"decision": "block", "reason": message})),
        // Claude Code reads no model context at Stop: show it to the user.
        (None, Some(context)) => Some(json!({"systemMessage": context})),
        (None, None) => None,
    }
}
