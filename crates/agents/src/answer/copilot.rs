//! Copilot CLI's camelCase hooks (`.github/hooks/*.json`, `preToolUse`, `agentStop`, …).
//!
//! | hookc result | answer |
//! |---|---|
//! | block, deny (and an ask, which headless Copilot cannot take) | `permissionDecision: "deny"`, `permissionDecisionReason` |
//! | updatedInput | `modifiedArgs` (the whole input), with the rules' decision, or `ask` (a denial there) |
//! | additionalContext (preToolUse, postToolUse) | `additionalContext` |
//! | updatedOutput | `modifiedResult: {"resultType": "success", "textResultForLlm": …}` |
//! | preventContinuation | `decision: "block"`, `reason`: the output is replaced by it |
//! | forceContinue (agentStop, subagentStop) | `decision: "block"`, `reason`: the next user message |
//! | anything else | no output: Copilot's own permission flow decides |
//!
//! Its PascalCase `PreToolUse` and `Stop` speak Claude Code's answers instead; its PascalCase
//! `PostToolUse` takes these (checked on 1.0.102).

use super::{joined_context, replacement_text, stop_reason, tool_decision, Decision, Reply};
use crate::payload::Context;
use hookc_core::model::result::{HookResult, Permission};
use hookc_core::vocab::agents::{AnswerKind, Support};
use hookc_core::vocab::EventKind;
use serde_json::{json, Map, Value};

/// Renders the merged result as Copilot CLI's camelCase answer.
pub(super) fn render(context: &Context, result: &HookResult) -> Reply {
    let answer = match context.kind {
        EventKind::PreToolUse => pre_tool_use(context, result),
        EventKind::PostToolUse => post_tool_use(result),
        // Its `permissionRequest` takes `{"behavior", "message"}` (its hooks reference).
        EventKind::PermissionRequest => super::claude::permission_behavior(result),
        EventKind::Stop | EventKind::SubagentStop => result.force_continue.as_ref().map(|message| {
            let reason = match joined_context(result) {
                Some(text) => format!("{message}\n\n{text}"),
                None => message.clone(),
            };
            json!({"decision": "block", "reason": reason})
        }),
        _ => None,
    };
    Reply { stdout: answer.map(|value| value.to_string()), exit: 0, stderr: None }
}

fn post_tool_use(result: &HookResult) -> Option<Value> {
    let mut fields = Map::new();
    if let Some(updated) = &result.updated_output {
        let text = replacement_text(&updated.content, result);
        fields.insert("modifiedResult".into(), json!({"resultType": "success", "textResultForLlm": text}));
    }
    if let Some(text) = joined_context(result) {
        fields.insert("additionalContext".into(), json!(text));
    }
    if result.prevent_continuation {
        let reason = stop_reason(result);
        fields.insert("decision".into(), json!("block"));
        fields.insert("reason".into(), json!(reason));
    }
    (!fields.is_empty()).then_some(Value::Object(fields))
}

fn pre_tool_use(context: &Context, result: &HookResult) -> Option<Value> {
    let Decision { permission, reason, input } = tool_decision(context, result);
    let mut fields = Map::new();
    if permission != Permission::Passthrough {
        fields.insert("permissionDecision".into(), json!(permission.name()));
        if let Some(reason) = reason {
            fields.insert("permissionDecisionReason".into(), json!(reason));
        }
    }
    if let Some(input) = input {
        fields.insert("modifiedArgs".into(), Value::Object(input.clone()));
    }
    let context_taken = context.agent.support(EventKind::PreToolUse, AnswerKind::Context) == Support::Honoured;
    if let (Some(text), true) = (joined_context(result), context_taken) {
        fields.insert("additionalContext".into(), json!(text));
    }
    (!fields.is_empty()).then_some(Value::Object(fields))
}

/// Copilot CLI's refusal of a call hookc could not decide, with the reason the model reads.
pub(super) fn refusal(reason: &str) -> String {
    json!({"permissionDecision": "deny", "permissionDecisionReason": format!("hookc: {reason}")}).to_string()
}
