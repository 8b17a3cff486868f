//! Copilot CLI's camelCase hooks (`.github/hooks/*.json`, `preToolUse`, `agentStop`, …).
//!
//! | hookc result | answer |
//! |---|---|
//! | block, deny (and what Copilot cannot take: ask, a rewrite) | `permissionDecision: "deny"`, `permissionDecisionReason` |
//! | forceContinue (agentStop, subagentStop) | `decision: "block"`, `reason`: the next user message |
//! | anything else | no output: Copilot's own permission flow decides |
//!
//! Its PascalCase hooks (`PreToolUse`, `Stop`) speak Claude Code's answers instead.

use super::{joined_context, tool_decision, Decision, Reply};
use crate::adapter::payload::Context;
use crate::model::result::{HookResult, Permission};
use crate::vocab::agents::{AnswerKind, Support};
use crate::vocab::EventKind;
use serde_json::{json, Map, Value};

/// Renders the merged result as Copilot CLI's camelCase answer.
pub(super) fn render(context: &Context, result: &HookResult) -> Reply {
    let answer = match context.kind {
        EventKind::PreToolUse => pre_tool_use(context, result),
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
