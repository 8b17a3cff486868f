//! Claude Code's answers, which Codex and several other agents speak too, each within its
//! capability rows.
//!
//! | hookc result | Claude Code answer |
//! |---|---|
//! | `blockingError` | `permissionDecision: "deny"`, reason `Error [code]: message` |
//! | `deny` / `ask` / `allow` | the same `permissionDecision`, with the rule's reason (never blank); on Codex, which takes `ask` and a bare `allow` as unsupported, `ask` is `deny` saying why and `allow` is not sent |
//! | `updatedInput` | `updatedInput` (the whole input) with the rules' decision, or `"ask"` when no rule decided: a rewrite never skips the user's permission prompt; on Codex, which cannot ask, `deny` saying why |
//! | `updatedOutput` | `updatedToolOutput` in the tool's own shape (and `updatedMCPToolOutput` for MCP tools: a string or a list of blocks); a rewrite that fits no shape withholds the output: `continue: false` ends the turn before the model reads it (Claude Code would send the original); on Codex, `decision: "block"` with the rewritten output as `reason`, which replaces the output |
//!
//! Which agent honours what is its file's capability rows (`vocab::agents`).
//! | `preventContinuation` | `continue: false` with `stopReason` |
//! | `forceContinue` | `decision: "block"` with the message as `reason` (Stop, SubagentStop) |
//! | `blockingError` on PreCompact | `decision: "block"` with the reason |
//! | `additionalContext` | `hookSpecificOutput.additionalContext`; on Stop, `systemMessage` |
//! | nothing | exit 0, no output: the agent's own permission flow decides |

use super::{joined_context, replacement_text, stop_reason, tool_decision, Decision, Reply};
use crate::output;
use crate::payload::Context;
use hookc_core::model::result::{HookResult, Permission, ToolOutput};
use hookc_core::vocab::agents::schema::{OutputRewrite, StopDecision};
use hookc_core::vocab::agents::{AnswerKind, Support};
use hookc_core::vocab::EventKind;
use serde_json::{json, Map, Value};

/// Renders the merged result as a Claude Code-style answer.
pub(super) fn render(
    context: &Context,
    result: &HookResult,
    stop_decision: StopDecision,
    output: OutputRewrite,
) -> Reply {
    let answer = match (context.kind, output) {
        (EventKind::PreToolUse, _) => pre_tool_use(context, result),
        (EventKind::PostToolUse, OutputRewrite::ToolOutput) => post_tool_use(context, result),
        // An agent without output rewrites gets the substitute its file names.
        (EventKind::PostToolUse, substitute) => substitute_post_tool_use(context, result, substitute),
        (EventKind::UserPromptSubmit | EventKind::SessionStart | EventKind::PostToolUseFailure, _) => {
            joined_context(result).map(|context_text| specific(context, json!({"additionalContext": context_text})))
        }
        (EventKind::Stop | EventKind::SubagentStop, _) => stop(context, result, stop_decision),
        (EventKind::PreCompact, _) => {
            result.blocking_error.as_ref().map(|error| json!({"decision": "block", "reason": error.to_string()}))
        }
        (EventKind::PermissionRequest, _) => permission_request(context, result),
        (EventKind::SessionEnd | EventKind::Notification, _) => None,
    };
    Reply { stdout: answer.map(|value| value.to_string()), exit: 0, stderr: None }
}

/// The agent's approval prompt: `decision.behavior` `deny` (with the reason as its message) or
/// `allow`; an `ask`, or nothing decided, leaves the prompt to the person. Never
/// `updatedPermissions`: a hook does not change what the person allowed for later calls.
fn permission_request(context: &Context, result: &HookResult) -> Option<Value> {
    permission_behavior(result).map(|decision| specific(context, json!({"decision": decision})))
}

/// `{"behavior": "deny", "message": …}` or `{"behavior": "allow"}` for a permission prompt.
pub(super) fn permission_behavior(result: &HookResult) -> Option<Value> {
    match result.permission_behavior {
        Permission::Deny => {
            let reason = super::denial_reason(result.permission_reason.clone(), result);
            Some(json!({"behavior": "deny", "message": reason}))
        }
        Permission::Allow => Some(json!({"behavior": "allow"})),
        Permission::Ask | Permission::Passthrough => None,
    }
}

/// `{"hookSpecificOutput": {"hookEventName": …, …fields}}`.
fn specific(context: &Context, fields: Value) -> Value {
    let mut output = json!({"hookEventName": context.event_name});
    if let (Value::Object(output), Value::Object(fields)) = (&mut output, fields) {
        output.extend(fields);
    }
    json!({ "hookSpecificOutput": output })
}

fn pre_tool_use(context: &Context, result: &HookResult) -> Option<Value> {
    let Decision { permission: decision, reason, input } = tool_decision(context, result);
    let mut fields = Map::new();
    if decision != Permission::Passthrough {
        fields.insert("permissionDecision".into(), json!(decision.name()));
        if let Some(reason) = reason {
            fields.insert("permissionDecisionReason".into(), json!(reason));
        }
    }
    if let Some(input) = input {
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
        let reason = stop_reason.unwrap_or_else(|| super::stop_reason(result));
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

/// The answer after a tool when the policy could not check its output: exit 2 there only adds
/// a message beside the output, so the output is replaced by a note instead (withheld as any
/// rewrite that fits no shape is). `None` where the agent takes no output rewrite.
pub(super) fn unchecked_output(context: &Context, reason: &str) -> Option<String> {
    let honoured = context.agent.support(EventKind::PostToolUse, AnswerKind::UpdatedOutput) == Support::Honoured;
    if context.kind != EventKind::PostToolUse || !honoured {
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
    post_tool_use(context, &result).map(|answer| answer.to_string())
}

/// For an agent without `updatedToolOutput`, the substitute it takes: Codex (where an unknown
/// field fails the hook, and the original is shown) replaces the output with a `decision:
/// "block"`'s `reason`; Qwen Code with a `continue: false`'s `stopReason`, going on; Droid ends
/// the turn at `continue: false` before the model reads the output. `continue: false` ends
/// neither Codex's nor Qwen Code's turn: it too replaces the output, with the stop reason.
fn substitute_post_tool_use(context: &Context, result: &HookResult, how: OutputRewrite) -> Option<Value> {
    let mut answer = Map::new();
    if let Some(text) = joined_context(result) {
        answer = specific_map(context, Map::from_iter([("additionalContext".to_string(), json!(text))]));
    }
    if let Some(updated) = &result.updated_output {
        let text = replacement_text(&updated.content, result);
        match how {
            OutputRewrite::StopReason => {
                answer.insert("continue".into(), json!(false));
                answer.insert("stopReason".into(), json!(text));
            }
            OutputRewrite::Withhold => {
                answer.insert("continue".into(), json!(false));
                let why = format!(
                    "hookc withheld the output of `{}`: rules ({}) rewrote it, and {} cannot take a rewritten output",
                    context.tool,
                    result.matched.join(", "),
                    context.agent.name
                );
                answer.insert("stopReason".into(), json!(why));
            }
            OutputRewrite::BlockReason | OutputRewrite::ToolOutput => {
                answer.insert("decision".into(), json!("block"));
                answer.insert("reason".into(), json!(text));
            }
        }
    } else if result.prevent_continuation {
        answer.insert("continue".into(), json!(false));
        let reason = stop_reason(result);
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

fn stop(context: &Context, result: &HookResult, decision: StopDecision) -> Option<Value> {
    let reason = match (&result.force_continue, joined_context(result)) {
        (Some(message), Some(text)) => format!("{message}\n\n{text}"),
        (Some(message), None) => message.clone(),
        // Claude Code reads no model context at Stop: show it to the user.
        (None, Some(text)) => return Some(json!({"systemMessage": text})),
        (None, None) => return None,
    };
    Some(match decision {
        StopDecision::TopLevel => json!({"decision": "block", "reason": reason}),
        StopDecision::Nested => specific(context, json!({"decision": "block", "reason": reason})),
    })
}
