//! Answers: the merged [`HookResult`] written as the agent that sent the payload reads it. One
//! module per strategy of the agents' closed set ([`schema::Answer`]); each agent's file names
//! its strategy, and its capability rows say what the strategy must give instead where the agent
//! does not honour an answer.

mod claude;
mod cline;
mod copilot;
mod cursor;
mod exit;
mod gemini;
mod plugin;

use super::payload::Context;
use hookc_core::model::result::{HookResult, Permission};
use hookc_core::vocab::agents::{schema, AnswerKind, Support};
use hookc_core::vocab::EventKind;
use serde_json::{Map, Value};

/// What a hook call prints and exits with, before hookc's own stderr lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Reply {
    /// The JSON written to stdout, if any.
    pub stdout: Option<String>,
    /// The exit code (0: the agent reads stdout; 2: it blocks with stderr).
    pub exit: u8,
    /// The reason for stderr, where the agent reads its answer there (exit 2).
    pub stderr: Option<String>,
}

/// The merged result as the agent's answer.
pub(super) fn render(context: &Context, result: &HookResult) -> Reply {
    match context.answer {
        schema::Answer::Claude { stop, output } => claude::render(context, result, stop, output),
        schema::Answer::Gemini => gemini::render(context, result),
        schema::Answer::Copilot => copilot::render(context, result),
        schema::Answer::Cline => cline::render(context, result),
        schema::Answer::Cursor => cursor::render(context, result),
        schema::Answer::ExitCode => exit::render(context, result),
        schema::Answer::Plugin => plugin::render(context, result),
    }
}

/// What a call hookc could not decide is answered with: exit 2 where it blocks, else a
/// refusal in the agent's dialect (Cline runs the call on exit 2). Copilot CLI blocks on exit 2
/// but tells the model only `hook exited with code 2`: before a tool, its refusal says why.
pub(super) fn refusal(answer: schema::Answer, event: Option<EventKind>, reason: &str) -> (Option<String>, u8) {
    match (answer, event) {
        (schema::Answer::Copilot, Some(EventKind::PreToolUse)) => (Some(copilot::refusal(reason)), 0),
        (answer, _) if answer.exit_2_blocks() => (None, 2),
        _ => (Some(cline::refusal(reason)), 0),
    }
}

/// What stdout says when hookc decides nothing (`--fail-open` on a failure): the agent's
/// answer to an empty result, without its exit code.
pub(super) fn nothing(answer: schema::Answer) -> Option<String> {
    match answer {
        schema::Answer::Claude { .. } | schema::Answer::Copilot | schema::Answer::ExitCode => None,
        // These parse stdout as JSON whatever happens.
        schema::Answer::Gemini | schema::Answer::Cursor => Some("{}".to_string()),
        schema::Answer::Cline => Some(r#"{"cancel":false}"#.to_string()),
        schema::Answer::Plugin => Some(r#"{"decision":"none"}"#.to_string()),
    }
}

/// The answer after a tool when the policy could not check its output, where exit 2 would not
/// keep the output from the model (Claude Code shows it beside exit 2's message).
pub(super) fn unchecked_output(context: &Context, reason: &str) -> Option<String> {
    match context.answer {
        schema::Answer::Claude { .. } => claude::unchecked_output(context, reason),
        _ => None,
    }
}

/// What to answer at PreToolUse, within what the agent honours (its capability rows).
pub(super) struct Decision<'r> {
    /// The permission to send (`Passthrough`: none).
    pub permission: Permission,
    /// Its reason: never blank for a denial.
    pub reason: Option<String>,
    /// The rewritten input to send, unless the call is refused.
    pub input: Option<&'r Map<String, Value>>,
}

/// The decision at PreToolUse as an agent can take it: never weaker than the rules' (an `ask`
/// it cannot take is a denial saying why, a rewrite it cannot take a refusal) and never an
/// approval the rules did not give (a rewrite alone asks, so the person sees what will run).
pub(super) fn tool_decision<'r>(context: &Context, result: &'r HookResult) -> Decision<'r> {
    let agent = context.agent;
    let honours = |answer| agent.support_at(&context.event_name, EventKind::PreToolUse, answer) == Support::Honoured;
    let (mut permission, mut reason) = match (&result.blocking_error, result.permission_behavior) {
        (Some(error), _) => (Permission::Deny, Some(error.to_string())),
        (None, _) if result.updated_input.is_some() && !honours(AnswerKind::UpdatedInput) => (
            Permission::Deny,
            Some(format!(
                "hookc rules ({}) rewrote this call, which {} hooks cannot do: it is refused rather than run as sent",
                result.matched.join(", "),
                agent.name
            )),
        ),
        // An agent that takes `allow` as unsupported output would mark the hook failed.
        (None, Permission::Allow) if !honours(AnswerKind::Allow) => (Permission::Passthrough, None),
        // A rewrite alone must not skip the user's prompt: show the rewritten input.
        (None, Permission::Passthrough) if result.updated_input.is_some() => {
            (Permission::Ask, Some(format!("hookc rewrote the tool input (rules: {})", result.matched.join(", "))))
        }
        (None, permission) => (permission, result.permission_reason.clone()),
    };
    // The safe answer an agent that cannot ask honours is `deny`, saying why.
    if permission == Permission::Ask && !honours(AnswerKind::Ask) {
        reason = Some(format!(
            "this call needs a person's approval, which {} hooks cannot ask for: {}",
            agent.name,
            reason.unwrap_or_else(|| result.matched.join(", "))
        ));
        permission = Permission::Deny;
    }
    if permission == Permission::Deny {
        reason = Some(denial_reason(reason, result));
    }
    let input = result.updated_input.as_ref().filter(|_| permission != Permission::Deny);
    Decision { permission, reason, input }
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

/// Why the rules end the turn (`stop`): the rule's reason, or which rules said so.
fn stop_reason(result: &HookResult) -> String {
    result.stop_reason.clone().unwrap_or_else(|| format!("stopped by hookc rules: {}", result.matched.join(", ")))
}

/// `additionalContext` entries as one text.
fn joined_context(result: &HookResult) -> Option<String> {
    (!result.additional_context.is_empty()).then(|| result.additional_context.join("\n\n"))
}
