//! What observers see of a decision: the hook path's audit record and the embedded runtime's
//! observers read the same [`Observation`].

use crate::eval::{Evaluation, LogRecord};
use crate::model::event::Event;
use crate::model::result::HookResult;
use crate::vocab::EventKind;

/// What observers see of a decision: enough to record it, too little to act on the run.
#[derive(Debug, Clone, Copy)]
pub struct Observation<'a> {
    /// The event.
    pub event: EventKind,
    /// The tool, for tool events.
    pub tool: Option<&'a str>,
    /// The rules that fired, in order.
    pub matched: &'a [String],
    /// One word for the outcome: `block`, `deny`, `ask`, `allow`, `rewrite`, `stop`,
    /// `continue`, `context`, `none` or `error`.
    pub outcome: &'a str,
    /// The records the rules' `log` actions wrote, in order.
    pub logs: &'a [LogRecord],
    /// Why the hooks failed, when they did, in full (a contract error with its detail).
    pub error: Option<&'a str>,
    /// The reason the decision gives: the block's message, the permission's reason, why the
    /// turn stops, or the continuation's message; for `none`, why nothing was decided.
    pub reason: Option<&'a str>,
    /// The event observed (read only: an observer cannot change the run).
    pub source: &'a Event,
    /// The agent's name for the event, where a hook call said it (`beforeReadFile`).
    pub at: Option<&'a str>,
    /// The rules that fired but a waiver lifted.
    pub waived: &'a [crate::eval::Waived],
    /// The secret value shapes the record redacts (`None`: the shipped baseline's).
    pub redaction: Option<&'a crate::redact::Redaction>,
}

impl<'a> Observation<'a> {
    /// The observation of an event's result (`None`: the hooks failed).
    pub fn of(event: &'a Event, result: Option<&'a HookResult>) -> Observation<'a> {
        let (matched, outcome) = match result {
            Some(result) => (result.matched.as_slice(), outcome_word(result)),
            None => (&[][..], "error"),
        };
        let reason = result.and_then(|result| {
            result
                .blocking_error
                .as_ref()
                .map(|error| error.message.as_str())
                .or(result.permission_reason.as_deref())
                .or(result.stop_reason.as_deref())
                .or(result.force_continue.as_deref())
        });
        let tool = event.tool_call().map(|call| call.tool.as_str());
        let reason = match (outcome, matched.is_empty()) {
            ("none", true) => Some("no rule matched"),
            ("none", false) => Some("the rules that fired decide nothing at this event (`log` only)"),
            _ => reason,
        };
        Observation {
            event: event.kind(),
            tool,
            matched,
            outcome,
            logs: &[],
            error: None,
            reason,
            source: event,
            at: None,
            waived: &[],
            redaction: None,
        }
    }

    /// The same observation, redacting the policy's secret value shapes from what is recorded.
    pub fn redacting(self, redaction: Option<&'a crate::redact::Redaction>) -> Observation<'a> {
        Observation { redaction, ..self }
    }

    /// The observation of a rule set's evaluation, or of why it failed.
    pub fn of_evaluation(event: &'a Event, outcome: Result<&'a Evaluation, &'a str>) -> Observation<'a> {
        match outcome {
            Ok(evaluation) => Observation::of(event, Some(&evaluation.result))
                .with_logs(&evaluation.logs)
                .with_dropped_continuation(evaluation.dropped_continuation)
                .with_waived(&evaluation.waived),
            Err(error) => Observation::of(event, None).with_error(error),
        }
    }

    /// The same observation, saying why the hooks failed.
    pub fn with_error(self, error: &'a str) -> Observation<'a> {
        Observation { error: Some(error), ..self }
    }

    /// The same observation, of an event the agent fired under `name`.
    pub fn at(self, name: &'a str) -> Observation<'a> {
        Observation { at: Some(name), ..self }
    }

    /// The same observation, saying that a continuation was dropped when nothing was decided.
    pub fn with_dropped_continuation(self, dropped: bool) -> Observation<'a> {
        match (dropped, self.outcome) {
            (true, "none") => Observation { reason: Some(DROPPED), ..self },
            _ => self,
        }
    }

    /// The same observation, with the rules that fired but a waiver or an audit lifted (when
    /// nothing was decided, the reason says they were lifted).
    pub fn with_waived(self, waived: &'a [crate::eval::Waived]) -> Observation<'a> {
        let audited = waived.iter().all(|waived| waived.would.is_some());
        let reason = match (self.outcome, waived.is_empty(), audited) {
            ("none", false, true) => Some(AUDITED),
            ("none", false, false) => Some(WAIVED),
            _ => self.reason,
        };
        Observation { waived, reason, ..self }
    }

    /// The same observation, with the records the rules' `log` actions wrote.
    pub fn with_logs(self, logs: &'a [LogRecord]) -> Observation<'a> {
        Observation { logs, ..self }
    }
}

/// Why nothing was decided when the rules that fired were lifted.
const WAIVED: &str = "the rules that fired were lifted by waivers in force (`waived` names them)";

/// Why nothing was decided when the rules that fired are in audit mode.
const AUDITED: &str = "the rules that fired are in audit mode (`waived` names them and what they would have decided)";

/// Why a Stop decided nothing although its rules continued the turn.
const DROPPED: &str = "the rules continued the turn, but this Stop follows one that already did (`stop_hook_active`): \
     the continuation is dropped so the agent may stop";

fn outcome_word(result: &HookResult) -> &'static str {
    if result.blocking_error.is_some() {
        "block"
    } else if !result.permission_behavior.is_passthrough() {
        result.permission_behavior.name()
    } else if result.force_continue.is_some() {
        "continue"
    } else if result.prevent_continuation {
        "stop"
    } else if result.updated_input.is_some() || result.updated_output.is_some() {
        "rewrite"
    } else if !result.additional_context.is_empty() {
        "context"
    } else {
        "none"
    }
}
