//! Agents that read only exit codes (Windsurf, Kiro CLI): exit 2 refuses the action, with
//! stderr as the reason the model reads; plain text on stdout is context where the agent reads
//! it (Kiro CLI's `userPromptSubmit` and `agentSpawn`).

use super::{joined_context, tool_decision, Reply};
use crate::payload::Context;
use hookc_core::model::result::{HookResult, Permission};
use hookc_core::vocab::agents::{AnswerKind, Support};
use hookc_core::vocab::EventKind;

/// Renders the merged result as an exit code, a reason and context text.
pub(super) fn render(context: &Context, result: &HookResult) -> Reply {
    if context.kind == EventKind::PreToolUse {
        let decision = tool_decision(context, result);
        if decision.permission == Permission::Deny {
            return Reply { stdout: None, exit: 2, stderr: decision.reason };
        }
    }
    let context_taken = context.agent.support(context.kind, AnswerKind::Context) == Support::Honoured;
    let stdout = joined_context(result).filter(|_| context_taken);
    Reply { stdout, exit: 0, stderr: None }
}
