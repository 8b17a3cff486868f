//! Cursor's hooks (`.cursor/hooks.json`). Cursor is an IDE and does not run here: this follows
//! its documented answers (secondary sources, marked so in `docs/agents.md`).
//!
//! | hookc result | answer |
//! |---|---|
//! | block, deny, ask, allow (before a shell command, an MCP call, a file read, a tool) | `permission` with `user_message` and `agent_message` |
//! | forceContinue (stop) | `followup_message` |
//! | anything else | `{}` |

use super::{joined_context, tool_decision, Reply};
use crate::payload::Context;
use hookc_core::model::result::{HookResult, Permission};
use hookc_core::vocab::EventKind;
use serde_json::{json, Map, Value};

/// Renders the merged result as Cursor's answer (always a JSON object).
pub(super) fn render(context: &Context, result: &HookResult) -> Reply {
    let mut answer = Map::new();
    match context.kind {
        EventKind::PreToolUse => {
            let decision = tool_decision(context, result);
            if decision.permission != Permission::Passthrough {
                answer.insert("permission".into(), json!(decision.permission.name()));
                if let Some(reason) = decision.reason {
                    answer.insert("user_message".into(), json!(reason));
                    answer.insert("agent_message".into(), json!(reason));
                }
            }
        }
        EventKind::Stop | EventKind::SubagentStop => {
            if let Some(message) = &result.force_continue {
                let text = match joined_context(result) {
                    Some(context) => format!("{message}\n\n{context}"),
                    None => message.clone(),
                };
                answer.insert("followup_message".into(), json!(text));
            }
        }
        EventKind::UserPromptSubmit => {
            answer.insert("continue".into(), json!(true));
        }
        _ => {}
    }
    Reply { stdout: Some(Value::Object(answer).to_string()), exit: 0, stderr: None }
}
