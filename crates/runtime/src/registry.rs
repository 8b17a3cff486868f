//! [`HookRegistry`]: per event, an ordered list of hooks — compiled rule sets and native Rust
//! callbacks side by side — run in registration order and merged by the seed's rules; plus
//! observers, which see each decision and can change nothing.
//!
//! The three kinds of hook fail differently (seed 003): an interceptor or transformer that fails
//! propagates ([`HookError`]: the loop fails closed), an observer that fails or panics is
//! isolated and reported, and the run is exactly what it would have been without it.

use crate::chain::HookError;
use crate::steps::{Need, Slot, SlotKind, Steps, Verdict};
pub use hookc_core::audit::Observation;
use hookc_core::model::event::Event;
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

/// A callback's result; a panic is its failure, never the host's.
fn call(callback: &Callback, event: &Event) -> Result<HookResult, String> {
    match catch_unwind(AssertUnwindSafe(|| callback(event))) {
        Ok(result) => result,
        Err(panic) => Err(format!("the hook panicked: {}", panic_message(&panic))),
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|text| (*text).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}
