//! Why a hook call could not be decided: one type from reading stdin to the answer, so the
//! answer, the audit record and the watchdog all say the same thing.

use hookc_core::model::event::MAX_EVENT_BYTES;
use hookc_core::EvalError;

/// Why a hook call could not be decided. Each reads as one line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum HookFailure {
    /// Standard input could not be read.
    #[error("cannot read the hook payload: {0}")]
    Read(String),
    /// Nothing arrived.
    #[error("the hook payload is empty")]
    Empty,
    /// More than the limit arrived. It holds the payload's short top-level fields, read on as a
    /// stream without keeping the rest (`stdin::Summary`), as a JSON object.
    #[error("the hook payload is larger than the {MAX_EVENT_BYTES}-byte limit")]
    TooLarge(Vec<u8>),
    /// The payload is not UTF-8.
    #[error("the hook payload is not valid UTF-8 (invalid byte at offset {0})")]
    NotUtf8(usize),
    /// The payload is not a JSON object.
    #[error("the hook payload is not valid JSON: {0}")]
    NotJson(String),
    /// The payload has no event name, and the hook command named none (`--event`).
    #[error("the hook payload names no event, and the hook command gives none (`--event NAME`)")]
    NoEvent,
    /// An event the agent's table does not have.
    #[error("unsupported hook event `{0}`")]
    UnknownEvent(String),
    /// A field the event needs is absent.
    #[error("the `{event}` payload has no `{field}`")]
    Missing {
        /// The agent's event name.
        event: String,
        /// The field, as the agent names it.
        field: String,
    },
    /// A field is of the wrong type.
    #[error("the `{event}` payload's `{field}` is not {expected}")]
    WrongType {
        /// The agent's event name.
        event: String,
        /// The field, as the agent names it.
        field: String,
        /// What it should be (`a string`).
        expected: &'static str,
    },
    /// The policy could not be loaded.
    #[error("{0}")]
    Policy(String),
    /// The policy could not decide.
    #[error("{0}")]
    Eval(#[from] EvalError),
    /// No complete payload arrived in time.
    #[error("no complete hook payload arrived on stdin within {0} s")]
    PayloadTimeout(f64),
    /// The policy did not decide in time.
    #[error("the policy did not decide within the {0} s deadline (`--deadline`)")]
    Deadline(f64),
}

impl HookFailure {
    /// What is known of a payload that was not kept: the short top-level fields of one over
    /// the size limit.
    pub(crate) fn summary(&self) -> Option<&[u8]> {
        match self {
            HookFailure::TooLarge(summary) => Some(summary),
            _ => None,
        }
    }
}
