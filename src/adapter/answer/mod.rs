//! Answers: the merged [`HookResult`] written as the agent that sent the payload reads it. One
//! module per strategy of the agents' closed set ([`schema::Answer`]); each agent's file names
//! its strategy, and its capability rows say what the strategy must give instead where the agent
//! does not honour an answer.

mod claude;
mod gemini;

use super::payload::Context;
use crate::model::result::HookResult;
use crate::vocab::agents::schema;

/// What a hook call prints and exits with, before hookc's own stderr lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Reply {
    /// The JSON written to stdout, if any.
    pub stdout: Option<String>,
    /// The exit code (0: the agent reads stdout; 2: it blocks with stderr).
    pub exit: u8,
}

/// The merged result as the agent's answer.
pub(super) fn render(context: &Context, result: &HookResult) -> Reply {
    match context.answer {
        schema::Answer::Claude { stop } => claude::render(context, result, stop),
        schema::Answer::Gemini => gemini::render(context, result),
    }
}

/// What stdout says when hookc decides nothing (`--fail-open` on a failure): the agent's
/// answer to an empty result, without its exit code.
pub(super) fn nothing(answer: schema::Answer) -> Option<String> {
    match answer {
        schema::Answer::Claude { .. } => None,
        // Gemini CLI parses stdout as JSON whatever happens.
        schema::Answer::Gemini => Some("{}".to_string()),
    }
}

/// The answer after a tool when the policy could not check its output, where exit 2 would not
/// keep the output from the model (Claude Code shows it beside exit 2's message).
pub(super) fn unchecked_output(context: &Context, reason: &str) -> Option<String> {
    match context.answer {
        schema::Answer::Claude { .. } => claude::unchecked_output(context, reason),
        schema::Answer::Gemini => None,
    }
}

/// The reason to send with a denial: agents reject a blank one (Codex then runs the call) or
/// show nothing, so a blank reason says which rules denied.
fn denial_reason(reason: Option<String>, result: &HookResult) -> String {
    reason
        .filter(|reason| !reason.trim().is_empty())
        .unwrap_or_else(|| format!("denied by hookc rules: {}", result.matched.join(", ")))
}

/// Rewritten output to send where the agent takes it as a text that replaces the output
/// (Codex's and Gemini CLI's block reason): a blank one would be rejected, and the original shown.
fn replacement_text(text: &str, result: &HookResult) -> String {
    match text.trim().is_empty() {
        true => format!("[the output was removed by hookc rules: {}]", result.matched.join(", ")),
        false => text.to_string(),
    }
}

/// `additionalContext` entries as one text.
fn joined_context(result: &HookResult) -> Option<String> {
    (!result.additional_context.is_empty()).then(|| result.additional_context.join("\n\n"))
}
