//! [`HookRegistry`]: per event, an ordered list of hooks — compiled rule sets and native Rust
//! callbacks side by side — run in registration order and merged by the seed's rules; plus
//! observers, which see each decision and can change nothing.
//!
//! The three kinds of hook fail differently (seed 003): an interceptor or transformer that fails
//! propagates ([`HookError`]: the loop fails closed), an observer that fails or panics is
//! isolated and reported, and the run is exactly what it would have been without it.

use crate::steps::{Need, Slot, SlotKind, Steps, Verdict};
pub use hookc_core::audit::Observation;
use hookc_core::model::event::{Event, EventData};
use hookc_core::model::result::HookResult;
use hookc_core::vocab::EventKind;
use hookc_core::LogRecord;
use hookc_core::Policy;
use serde_json::{Map, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A native hook: reads the event (with earlier hooks' rewrites applied) and returns a result,
/// or why it failed.
pub type Callback = Box<dyn Fn(&Event) -> Result<HookResult, String> + Send + Sync>;

/// An observer: sees a minimal, read-only view of each decision; returns nothing.
pub type Observer = Box<dyn Fn(&Observation<'_>) + Send + Sync>;

/// A hook of the registry.
#[non_exhaustive]
pub enum Hook {
    /// A compiled rule set.
    Rules(Arc<Policy>),
    /// A native callback.
    Callback(Callback),
}

/// Checks a PreToolUse rewrite against the tool's schema (the seed's `normalizeUpdatedInput`);
/// `Err` says what is wrong.
pub type InputCheck<'a> = &'a dyn Fn(&Map<String, Value>) -> Result<(), String>;

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

/// The hooks of one event, run: their merged result or why they failed, and what their `log`
/// actions wrote before.
#[derive(Debug, Clone, PartialEq)]
pub struct HookRun {
    /// The merged result, or the failure.
    pub outcome: Result<HookResult, HookError>,
    /// The `log` records, in order.
    pub logs: Vec<LogRecord>,
}

/// Per event, hooks in registration order, and observers.
#[derive(Default)]
pub struct HookRegistry {
    hooks: Vec<(EventKind, Hook)>,
    observers: Vec<(Option<EventKind>, Observer)>,
    observer_failures: AtomicUsize,
}

impl HookRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a rule set: it runs, at every event, after the hooks registered before it.
    pub fn add_rules(&mut self, policy: Arc<Policy>) {
        for event in EventKind::ALL {
            if policy.has_rules_for(event) {
                self.hooks.push((event, Hook::Rules(Arc::clone(&policy))));
            }
        }
    }

    /// Adds a native callback for one event.
    pub fn register(
        &mut self,
        event: EventKind,
        callback: impl Fn(&Event) -> Result<HookResult, String> + Send + Sync + 'static,
    ) {
        self.hooks.push((event, Hook::Callback(Box::new(callback))));
    }

    /// Adds an observer of one event, or of all (`None`).
    pub fn observe(&mut self, event: Option<EventKind>, observer: impl Fn(&Observation<'_>) + Send + Sync + 'static) {
        self.observers.push((event, Box::new(observer)));
    }

    /// How many times an observer failed (each failure is also reported on stderr).
    pub fn observer_failures(&self) -> usize {
        self.observer_failures.load(Ordering::Relaxed)
    }

    /// Runs the event's hooks in order and merges their results.
    pub fn run(&self, event: &Event) -> Result<HookResult, HookError> {
        self.run_checked(event, None).outcome
    }

    /// Runs the event's hooks in order and merges their results, keeping the records their
    /// `log` actions wrote whatever the outcome. At PreToolUse, `check` validates each hook's
    /// rewrite when that hook returns it: an invalid one stops the chain there, so later hooks
    /// and the handler never see it.
    pub fn run_checked(&self, event: &Event, check: Option<InputCheck<'_>>) -> HookRun {
        let slots = self
            .hooks
            .iter()
            .map(|(event, hook)| Slot {
                event: Some(*event),
                kind: match hook {
                    Hook::Rules(_) => SlotKind::Rules,
                    Hook::Callback(_) => SlotKind::Callback,
                },
            })
            .collect();
        let mut steps = Steps::start(event, slots, check.is_some());
        loop {
            match steps.need() {
                Need::Rules(index) => match self.hooks.get(index) {
                    Some((_, Hook::Rules(policy))) => {
                        let evaluation = policy.evaluate_full(steps.current());
                        steps.evaluated(evaluation);
                    }
                    _ => steps.abort("the registry has no rule set at this place"),
                },
                Need::Call(index) => match self.hooks.get(index) {
                    Some((_, Hook::Callback(callback))) => {
                        let result = call(callback, steps.current());
                        steps.returned(result);
                    }
                    _ => steps.abort("the registry has no callback at this place"),
                },
                Need::Check => {
                    let verdict = match (check, steps.pending_args()) {
                        (Some(check), Some(args)) => check(args).map_or_else(Verdict::Refused, |()| Verdict::Accepted),
                        _ => Verdict::Accepted,
                    };
                    steps.checked(verdict);
                }
                Need::Done => break,
            }
        }
        let waived = steps.waived().to_vec();
        let (outcome, dropped, logs) = steps.finish();
        // What is recorded redacts the first rule set's secret value shapes.
        let redaction = self.hooks.iter().find_map(|(_, hook)| match hook {
            Hook::Rules(policy) => policy.redaction(),
            Hook::Callback(_) => None,
        });
        let observation = Observation::of(event, outcome.as_ref().ok())
            .with_logs(&logs)
            .with_dropped_continuation(dropped)
            .with_waived(&waived)
            .redacting(redaction);
        match &outcome {
            Ok(_) => self.notify(&observation),
            Err(error) => self.notify(&observation.with_error(&error.in_full())),
        }
        HookRun { outcome, logs }
    }

    fn notify(&self, observation: &Observation<'_>) {
        for (event, observer) in &self.observers {
            if event.is_some_and(|event| event != observation.event) {
                continue;
            }
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| observer(observation))) {
                self.observer_failures.fetch_add(1, Ordering::Relaxed);
                eprintln!(
                    "hookc: warning: an observer of {} failed: {}",
                    observation.event.seed_name(),
                    panic_message(&panic)
                );
            }
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

/// A callback's result; a panic is its failure, never the host's.
fn call(callback: &Callback, event: &Event) -> Result<HookResult, String> {
    match catch_unwind(AssertUnwindSafe(|| callback(event))) {
        Ok(result) => result,
        Err(panic) => Err(format!("the hook panicked: {}", panic_message(&panic))),
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

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|text| (*text).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}
