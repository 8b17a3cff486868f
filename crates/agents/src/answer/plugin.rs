//! hookc's plugin inside the agent's process (OpenCode, Kilo: `init` writes it). The plugin runs
//! `hookc hook AGENT` and reads one JSON object back; it refuses the call on anything but an
//! answer it knows, a non-zero exit, a crash or a timeout.
//!
//! | hookc result | answer |
//! |---|---|
//! | block, deny (and ask: the plugin cannot ask) | `{"decision": "deny", "reason": …}`: the plugin throws, and the model reads the reason |
//! | updatedInput | `{"decision": "none", "args": {…}}`: the plugin replaces the call's arguments |
//! | updatedOutput | `{"decision": "none", "output": …}`: the plugin replaces the output the model reads |
//! | anything else | `{"decision": "none"}` |

use super::{tool_decision, Reply};
use crate::payload::Context;
use hookc_core::model::result::{HookResult, Permission};
use hookc_core::vocab::EventKind;
use serde_json::{json, Map, Value};

/// Renders the merged result as the plugin's answer (always a JSON object with a `decision`).
pub(super) fn render(context: &Context, result: &HookResult) -> Reply {
    let mut answer = Map::new();
    answer.insert("decision".into(), json!("none"));
    if context.kind == EventKind::PreToolUse {
        let decision = tool_decision(context, result);
        if decision.permission == Permission::Deny {
            answer.insert("decision".into(), json!("deny"));
            answer.insert("reason".into(), json!(decision.reason.unwrap_or_default()));
        } else if let Some(input) = decision.input {
            answer.insert("args".into(), Value::Object(input.clone()));
        }
    }
    if let (EventKind::PostToolUse, Some(updated)) = (context.kind, &result.updated_output) {
        answer.insert("output".into(), json!(updated.content));
    }
    Reply { stdout: Some(Value::Object(answer).to_string()), exit: 0, stderr: None }
}
