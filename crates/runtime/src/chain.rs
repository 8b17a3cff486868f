//! One event's hooks merged one result at a time, as the seed merges them: each result checked
//! against its event's contract (`validateFor`), its rewrites applied to the event the next hook
//! sees, and why the hooks could not produce a result ([`HookError`]). The step machine
//! ([`crate::Steps`]) drives a chain; the registry supplies the hooks.

use hookc_core::model::event::{Event, EventData};
use hookc_core::model::result::HookResult;
use hookc_core::vocab::EventKind;

/// Why the hooks of an event could not produce a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HookError {
    /// A hook's result breaks the contract (fields its event may not produce, an invalid
    /// update). The message is the seed's exact text, which the model may see; what exactly was
    /// wrong goes to the audit record only.
    #[error("{message}")]
    Contract {
        /// The seed's text: `validateFor`'s (`PreToolUse HookResult does not allow fields:
        /// updatedOutput`), or `PreToolUse hook returned an invalid update` for a rewrite the
        /// tool's schema refuses.
        message: String,
        /// What was wrong, for the audit record.
        detail: Option<String>,
    },
    /// A hook failed (returned an error, panicked, or its rules could not evaluate).
    #[error("{event} hook failed: {reason}")]
    Execution {
        /// The event, by its seed name.
        event: &'static str,
        /// Why.
        reason: String,
    },
}

/// What the model reads for any PreToolUse contract error, whatever was wrong (the seed's loop).
pub const INVALID_UPDATE: &str = "PreToolUse hook returned an invalid update";

impl HookError {
    /// The text the model reads in the call's result: the seed's loop gives one fixed text for
    /// every contract error at PreToolUse (what was wrong goes to the audit record and the
    /// observers, [`HookError::in_full`]); any other error reads as it is.
    pub fn for_model(&self, kind: EventKind) -> String {
        match (kind, self) {
            (EventKind::PreToolUse, HookError::Contract { .. }) => INVALID_UPDATE.to_string(),
            (_, error) => error.to_string(),
        }
    }

    /// The error with everything known about it, for records no model reads.
    pub fn in_full(&self) -> String {
        match self {
            HookError::Contract { message, detail: Some(detail) } => format!("{message}: {detail}"),
            other => other.to_string(),
        }
    }
}

/// One event's hooks, merged one result at a time: what a run ([`crate::Steps`]) does between
/// hooks. Each result is
/// checked against the event's contract, settled (a second Stop cannot force again), its
/// rewrites applied to the event the next hook sees, and merged by the seed's rules; once the
/// merged result halts (a block, a forced continuation), later hooks do not run.
#[derive(Debug, Clone)]
pub(crate) struct Chain {
    kind: EventKind,
    stop_hook_active: bool,
    current: Event,
    merged: HookResult,
    dropped: bool,
}

impl Chain {
    /// The chain of `event`'s hooks, before the first.
    pub(crate) fn new(event: &Event) -> Chain {
        Chain {
            kind: event.kind(),
            stop_hook_active: event.stop_info().is_some_and(|stop| stop.stop_hook_active),
            current: event.clone(),
            merged: HookResult::default(),
            dropped: false,
        }
    }

    /// The event as the next hook sees it: the earlier hooks' rewrites applied.
    pub(crate) fn current(&self) -> &Event {
        &self.current
    }

    /// Whether the merged result halts the chain: no later hook runs.
    pub(crate) fn halted(&self) -> bool {
        self.merged.halts()
    }

    /// Takes the next hook's result. A result the contract refuses fails the chain: the loop fails
    /// closed. (A PreToolUse rewrite's input check is the run's step, [`crate::Steps`].)
    pub(crate) fn take(&mut self, mut result: HookResult) -> Result<(), HookError> {
        // The seed's registry throws `validateFor`'s own text; the loop is what gives the model
        // one fixed text instead ([`HookError::for_model`]).
        validate_for(self.kind, &result)?;
        self.dropped |= result.settle(self.stop_hook_active);
        apply_rewrites(&mut self.current, &result);
        self.merged.merge(result);
        Ok(())
    }

    /// The contract error of a rewrite the input check refused: the seed's text, with the check's
    /// reason as its detail.
    pub(crate) fn invalid_input(&self, detail: impl Into<String>) -> HookError {
        invalid_update(self.kind, detail.into())
    }

    /// The failure of a hook of this chain (a callback that threw or rejected, rules that could
    /// not evaluate): the loop fails closed with it.
    pub(crate) fn failed(&self, reason: impl Into<String>) -> HookError {
        HookError::Execution { event: self.kind.seed_name(), reason: reason.into() }
    }

    /// The merged result so far, and whether a second Stop's request to continue was dropped.
    pub(crate) fn merged(&self) -> (&HookResult, bool) {
        (&self.merged, self.dropped)
    }

    /// The merged result, and whether a second Stop's request to continue was dropped.
    pub(crate) fn finish(self) -> (HookResult, bool) {
        (self.merged, self.dropped)
    }
}

/// The seed's `validateFor`: a result may only carry the fields its event can produce.
pub fn validate_for(kind: EventKind, result: &HookResult) -> Result<(), HookError> {
    let allowed = kind.result_fields();
    let extra: Vec<&str> = result.fields_set().into_iter().filter(|field| !allowed.contains(field)).collect();
    if extra.is_empty() {
        Ok(())
    } else {
        Err(HookError::Contract {
            message: format!("{} HookResult does not allow fields: {}", kind.seed_name(), extra.join(", ")),
            detail: None,
        })
    }
}

/// The contract error of a rewrite the tool's schema refuses (the seed's
/// `normalizeUpdatedInput`): the seed's text, with `detail` saying what, for the audit record and
/// observers only.
fn invalid_update(kind: EventKind, detail: String) -> HookError {
    HookError::Contract {
        message: format!("{} hook returned an invalid update", kind.seed_name()),
        detail: Some(detail),
    }
}

/// What later hooks see: the arguments and output as rewritten so far.
fn apply_rewrites(event: &mut Event, result: &HookResult) {
    match &mut event.data {
        EventData::PreToolUse(call) => {
            if let Some(args) = &result.updated_input {
                call.args = args.clone();
            }
        }
        EventData::PostToolUse(_, output) => {
            if let Some(updated) = &result.updated_output {
                *output = updated.clone();
            }
        }
        _ => {}
    }
}
