//! Gemini CLI's command-hook protocol.
//!
//! | Gemini CLI event | native event | hookc result → answer |
//! |---|---|---|
//! | BeforeTool | pre_tool_use | block, deny → `decision: "deny"` + `reason`; ask → `deny` (Gemini CLI hooks cannot ask a person, so a call that needs one is refused, saying why); allow → `decision: "allow"`; updatedInput → `hookSpecificOutput.tool_input` (the agent's own confirmation still applies) |
//! | AfterTool | post_tool_use | updatedOutput → `decision: "deny"` with the rewritten output as `reason` (it replaces the result the model sees); preventContinuation → `continue: false` |
//! | BeforeAgent | user_prompt_submit | additionalContext → `hookSpecificOutput.additionalContext` |
//! | AfterAgent | stop | forceContinue → `decision: "deny"` with the message (and any context) as `reason` (a retry prompt); context without it → `systemMessage` (the user's; the seed gives the model Stop context only with a continuation) |
//! | SessionStart, SessionEnd, Notification, PreCompress | session_start, session_end, notification, pre_compact | context at SessionStart; the others are observed only (a block at PreCompress is reported in `systemMessage`: Gemini CLI cannot block compression) |
//!
//! Gemini CLI reads stdout as JSON whatever happens, so the answer is always a JSON object (`{}`
//! when no rule decided).

use super::output;
use super::transcript::{self, Dialect};
use super::{joined_context, Answer, Mapped, Protocol};
use crate::model::event::{Common, Event, EventData, StopInfo};
use crate::model::result::{HookResult, Permission, ToolOutput};
use crate::vocab::EventKind;
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// The Gemini CLI protocol.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Gemini;

#[derive(Debug, Deserialize)]
struct Payload {
    hook_event_name: String,
    session_id: Option<String>,
    cwd: Option<String>,
    tool_name: Option<String>,
    tool_input: Option<Map<String, Value>>,
    tool_response: Option<Value>,
    prompt: Option<String>,
    prompt_response: Option<String>,
    transcript_path: Option<String>,
    stop_hook_active: Option<bool>,
    source: Option<String>,
    reason: Option<String>,
    trigger: Option<String>,
    message: Option<String>,
}

/// The Gemini CLI events hookc handles, and the native event each becomes.
pub(crate) const EVENTS: &[(&str, EventKind)] = &[
    ("BeforeTool", EventKind::PreToolUse),
    ("AfterTool", EventKind::PostToolUse),
    ("BeforeAgent", EventKind::UserPromptSubmit),
    ("AfterAgent", EventKind::Stop),
    ("SessionStart", EventKind::SessionStart),
    ("SessionEnd", EventKind::SessionEnd),
    ("Notification", EventKind::Notification),
    ("PreCompress", EventKind::PreCompact),
];

/// What rendering needs.
#[derive(Debug)]
pub(crate) struct Context {
    hook_event_name: String,
    kind: EventKind,
}

impl Protocol for Gemini {
    type Context = Context;

    fn id(&self) -> super::HookProtocol {
        super::HookProtocol::Gemini
    }

    fn map(&self, payload: &[u8]) -> Result<Mapped<Context>, String> {
        let payload: Payload = super::decode(payload)?;
        let kind = super::event_kind(EVENTS, &payload.hook_event_name)?;
        let missing = |field: &str| format!("the `{}` payload has no `{field}`", payload.hook_event_name);
        let common = Common {
            cwd: payload.cwd.clone(),
            session_id: payload.session_id.clone(),
            permission_mode: None,
            agent: Some(super::HookProtocol::Gemini.agent().to_string()),
            ..Common::default()
        };
        let call = || super::tool_call(&payload.tool_name, &payload.tool_input, &None).map_err(&missing);
        let mut turn = None;
        let data = match kind {
            EventKind::PreToolUse => EventData::PreToolUse(call()?),
            EventKind::PostToolUse => {
                let response = payload.tool_response.clone().ok_or_else(|| missing("tool_response"))?;
                let (content, _) = output::read(&response);
                let is_error = response.get("error").is_some_and(|error| !error.is_null());
                EventData::PostToolUse(call()?, ToolOutput { content, is_error })
            }
            EventKind::UserPromptSubmit => {
                EventData::UserPromptSubmit { prompt: payload.prompt.clone().ok_or_else(|| missing("prompt"))? }
            }
            EventKind::Stop => {
                let prompt = payload.prompt.clone().unwrap_or_default();
                turn = payload.transcript_path.as_ref().map(|path| transcript::Source {
                    dialect: Dialect::Gemini { prompt },
                    path: path.into(),
                    settle: None,
                });
                EventData::Stop(StopInfo {
                    stop_hook_active: payload.stop_hook_active.unwrap_or(false),
                    last_message: payload.prompt_response.clone(),
                    ..StopInfo::default()
                })
            }
            EventKind::SessionStart => EventData::SessionStart { source: payload.source.clone() },
            EventKind::SessionEnd => EventData::SessionEnd { reason: payload.reason.clone() },
            EventKind::PreCompact => EventData::PreCompact { trigger: payload.trigger.clone() },
            _ => EventData::Notification { message: payload.message.clone().unwrap_or_default() },
        };
        Ok(Mapped {
            event: Event { common, data },
            context: Context { hook_event_name: payload.hook_event_name, kind },
            turn,
        })
    }

    /// Gemini CLI sets `GEMINI_PROJECT_DIR` (and `CLAUDE_PROJECT_DIR`, for compatibility).
    fn project_root(&self, _cwd: Option<&str>) -> Option<String> {
        super::env_dir(&["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"])
    }

    fn render(&self, context: &Context, result: &HookResult) -> Result<Answer, String> {
        let mut answer = Map::new();
        let mut specific = Map::new();
        match context.kind {
            EventKind::PreToolUse => {
                let denial = match (&result.blocking_error, result.permission_behavior) {
                    (Some(error), _) => Some(error.to_string()),
                    (None, Permission::Deny) => result.permission_reason.clone(),
                    (None, Permission::Ask) => Some(format!(
                        "this call needs a person's approval, which Gemini CLI hooks cannot ask for: {}",
                        result.permission_reason.clone().unwrap_or_default()
                    )),
                    _ => None,
                };
                if let Some(reason) = denial {
                    answer.insert("decision".into(), json!("deny"));
                    answer.insert("reason".into(), json!(super::denial_reason(Some(reason), result)));
                } else {
                    if result.permission_behavior == Permission::Allow {
                        answer.insert("decision".into(), json!("allow"));
                        if let Some(reason) = &result.permission_reason {
                            answer.insert("reason".into(), json!(reason));
                        }
                    }
                    if let Some(input) = &result.updated_input {
                        specific.insert("tool_input".into(), Value::Object(input.clone()));
                    }
                }
            }
            EventKind::PostToolUse => {
                if let Some(updated) = &result.updated_output {
                    answer.insert("decision".into(), json!("deny"));
                    answer.insert("reason".into(), json!(super::replacement_text(&updated.content, result)));
                }
                if result.prevent_continuation {
                    answer.insert("continue".into(), json!(false));
                    let reason = result
                        .stop_reason
                        .clone()
                        .unwrap_or_else(|| format!("stopped by hookc rules: {}", result.matched.join(", ")));
                    answer.insert("stopReason".into(), json!(reason));
                }
            }
            // As the seed does, Stop context reaches the model only with a continuation;
            // without one the user sees it.
            EventKind::Stop => match (&result.force_continue, joined_context(result)) {
                (Some(message), context) => {
                    answer.insert("decision".into(), json!("deny"));
                    let reason = context.map_or_else(|| message.clone(), |context| format!("{message}\n\n{context}"));
                    answer.insert("reason".into(), json!(reason));
                }
                (None, Some(context)) => {
                    answer.insert("systemMessage".into(), json!(context));
                }
                (None, None) => {}
            },
            EventKind::PreCompact => {
                if let Some(error) = &result.blocking_error {
                    answer.insert(
                        "systemMessage".into(),
                        json!(format!("hookc: {error} (Gemini CLI cannot block compression)")),
                    );
                }
            }
            _ => {}
        }
        if let Some(text) = joined_context(result).filter(|_| context.kind != EventKind::Stop) {
            specific.insert("additionalContext".into(), json!(text));
        }
        if !specific.is_empty() {
            specific.insert("hookEventName".into(), json!(context.hook_event_name));
            answer.insert("hookSpecificOutput".into(), Value::Object(specific));
        }
        Ok(Answer { stdout: Some(Value::Object(answer).to_string()), exit: 0 })
    }
}
