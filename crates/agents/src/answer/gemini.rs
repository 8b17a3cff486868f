//! Gemini CLI's answers.
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

use super::{denial_reason, joined_context, replacement_text, stop_reason, Reply};
use crate::payload::Context;
use hookc_core::model::result::{HookResult, Permission};
use hookc_core::vocab::EventKind;
use serde_json::{json, Map, Value};

/// Renders the merged result as Gemini CLI's answer.
pub(super) fn render(context: &Context, result: &HookResult) -> Reply {
    let mut answer = Map::new();
    let mut specific = Map::new();
    match context.kind {
        EventKind::PreToolUse => {
            let denial = match (&result.blocking_error, result.permission_behavior) {
                (Some(error), _) => Some(error.to_string()),
                (None, Permission::Deny) => result.permission_reason.clone(),
                (None, Permission::Ask) => Some(format!(
                    "this call needs a person's approval, which {} hooks cannot ask for: {}",
                    context.agent.name,
                    result.permission_reason.clone().unwrap_or_default()
                )),
                _ => None,
            };
            if let Some(reason) = denial {
                answer.insert("decision".into(), json!("deny"));
                answer.insert("reason".into(), json!(denial_reason(Some(reason), result)));
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
                answer.insert("reason".into(), json!(replacement_text(&updated.content, result)));
            }
            if result.prevent_continuation {
                answer.insert("continue".into(), json!(false));
                let reason = stop_reason(result);
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
                    json!(format!("hookc: {error} ({} cannot block compression)", context.agent.name)),
                );
            }
        }
        _ => {}
    }
    if let Some(text) = joined_context(result).filter(|_| context.kind != EventKind::Stop) {
        specific.insert("additionalContext".into(), json!(text));
    }
    if !specific.is_empty() {
        specific.insert("hookEventName".into(), json!(context.event_name));
        answer.insert("hookSpecificOutput".into(), Value::Object(specific));
    }
    Reply { stdout: Some(Value::Object(answer).to_string()), exit: 0, stderr: None }
}
