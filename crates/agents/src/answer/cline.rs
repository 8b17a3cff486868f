//! Cline's hooks (`.clinerules/hooks/EVENT`): exit 2 does not block there (checked on Cline CLI
//! 3.0.65), only `{"cancel": true}` does, and in the CLI it ends the whole task.
//!
//! | hookc result | answer |
//! |---|---|
//! | block, deny (and an ask, which Cline's hooks cannot take) | `cancel: true`, `errorMessage` |
//! | updatedInput | `overrideInput` (the whole input) |
//! | stop (PostToolUse) | `cancel: true`, `errorMessage`: the task ends |
//! | context | `contextModification` |
//! | anything else | `cancel: false` |

use super::{joined_context, stop_reason, tool_decision, Reply};
use crate::payload::Context;
use hookc_core::model::result::{HookResult, Permission};
use hookc_core::vocab::agents::{AnswerKind, Support};
use hookc_core::vocab::EventKind;
use serde_json::{json, Map};

/// Renders the merged result as Cline's answer (always a JSON object).
pub(super) fn render(context: &Context, result: &HookResult) -> Reply {
    let mut answer = Map::new();
    let refusal = match context.kind {
        EventKind::PreToolUse => {
            let decision = tool_decision(context, result);
            (decision.permission == Permission::Deny).then(|| decision.reason.unwrap_or_default())
        }
        EventKind::PostToolUse if result.prevent_continuation => Some(stop_reason(result)),
        _ => None,
    };
    if let (EventKind::PreToolUse, None) = (context.kind, &refusal) {
        if let Some(input) = tool_decision(context, result).input {
            answer.insert("overrideInput".into(), serde_json::Value::Object(input.clone()));
        }
    }
    answer.insert("cancel".into(), json!(refusal.is_some()));
    if let Some(message) = refusal {
        answer.insert("errorMessage".into(), json!(message));
    }
    let context_taken = context.agent.support(context.kind, AnswerKind::Context) == Support::Honoured;
    if let (Some(text), true) = (joined_context(result), context_taken) {
        answer.insert("contextModification".into(), json!(text));
    }
    Reply { stdout: Some(serde_json::Value::Object(answer).to_string()), exit: 0, stderr: None }
}

/// Cline's refusal of a call hookc could not decide: exit 2 would let it run.
pub(super) fn refusal(reason: &str) -> String {
    json!({"cancel": true, "errorMessage": format!("hookc: {reason}")}).to_string()
}
