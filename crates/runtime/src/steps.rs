//! A registry's run as a step machine: the one place that orders an event's hooks, checks each
//! result against the contract and each PreToolUse rewrite against the caller's input check,
//! merges, and decides when the run ends. The Rust [`HookRegistry`](crate::HookRegistry) drives
//! it with Rust callbacks; a binding drives [`JsonSteps`](crate::JsonSteps), awaiting each step in
//! its own language and handing the answer back. No binding orders, merges or checks anything.
//!
//! ```text
//! Steps::start ─▶ need() ─┬─ Rules(i)  ─ evaluate the caller's rule set i ─ evaluated(…) ─┐
//!                 ▲       ├─ Call(i)   ─ call the caller's callback i      ─ returned(…)  ─┤
//!                 │       ├─ Check     ─ judge `pending_args()`            ─ checked(…)   ─┤
//!                 │       └─ Done      ─ finish()                                          │
//!                 └────────────────────────────────────────────────────────────────────────┘
//! ```

use crate::chain::{Chain, HookError};
use hookc_core::model::event::Event;
use hookc_core::model::result::HookResult;
use hookc_core::vocab::EventKind;
use hookc_core::{EvalError, Evaluation, LogRecord};
use serde_json::{Map, Value};

/// What a registered hook is, for the run: the caller keeps the hook itself and answers for it
/// by its index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SlotKind {
    /// A rule set.
    Rules,
    /// A callback.
    Callback,
}

/// One registered hook, in registration order: which events it serves (`None`: every event) and
/// what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// The event it serves, or every event.
    pub event: Option<EventKind>,
    /// A rule set or a callback.
    pub kind: SlotKind,
}

/// What the run needs next: the caller does it and answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Need {
    /// Evaluate rule set `index` on [`Steps::current`] and hand the evaluation to
    /// [`Steps::evaluated`].
    Rules(usize),
    /// Call callback `index` with [`Steps::current`] and hand its result to [`Steps::returned`].
    Call(usize),
    /// Judge the rewrite [`Steps::pending_args`] with the input check and hand the verdict to
    /// [`Steps::checked`].
    Check,
    /// The run has ended: [`Steps::finish`].
    Done,
}

/// The input check's verdict on a rewrite.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// The rewrite stands.
    Accepted,
    /// The rewrite is refused, and why (the seed's contract error, with this as its detail).
    Refused(String),
    /// The check itself failed (threw, or answered something that is no verdict): the run fails
    /// closed.
    Failed(String),
}

/// What the run waits for.
#[derive(Debug, Clone, PartialEq)]
enum Waiting {
    /// Nothing: `need` moves on.
    Nothing,
    /// The evaluation of this slot's rule set.
    Rules(usize),
    /// This slot's callback's result.
    Call(usize),
    /// The verdict on the last rewrite.
    Check,
}

/// One event's run through a registry's hooks.
#[derive(Debug, Clone)]
pub struct Steps {
    chain: Chain,
    kind: EventKind,
    slots: Vec<Slot>,
    /// The next slot to look at.
    next: usize,
    checking: bool,
    waiting: Waiting,
    logs: Vec<LogRecord>,
    /// The rules that fired but a waiver or an audit lifted, across the rule sets.
    waived: Vec<hookc_core::Waived>,
    failure: Option<HookError>,
}

impl Steps {
    /// The run of `event` through `slots`. With `checking`, each PreToolUse rewrite is judged as
    /// the hook that made it returns it (the seed's `normalizeUpdatedInput`).
    pub fn start(event: &Event, slots: Vec<Slot>, checking: bool) -> Steps {
        let kind = event.kind();
        Steps {
            chain: Chain::new(event),
            kind,
            slots,
            next: 0,
            checking: checking && kind == EventKind::PreToolUse,
            waiting: Waiting::Nothing,
            logs: Vec::new(),
            waived: Vec::new(),
            failure: None,
        }
    }

    /// What the run needs next. Asked again before it is answered, it asks the same.
    pub fn need(&mut self) -> Need {
        match self.waiting {
            Waiting::Rules(index) => return Need::Rules(index),
            Waiting::Call(index) => return Need::Call(index),
            Waiting::Check => return Need::Check,
            Waiting::Nothing => {}
        }
        if self.failure.is_some() || self.chain.halted() {
            return Need::Done;
        }
        while let Some(slot) = self.slots.get(self.next).copied() {
            let index = self.next;
            self.next += 1;
            if slot.event.is_some_and(|event| event != self.kind) {
                continue;
            }
            self.waiting = match slot.kind {
                SlotKind::Rules => Waiting::Rules(index),
                SlotKind::Callback => Waiting::Call(index),
            };
            return self.need();
        }
        Need::Done
    }

    /// The event as the next hook sees it: the earlier hooks' rewrites applied.
    pub fn current(&self) -> &Event {
        self.chain.current()
    }

    /// The event's kind.
    pub fn kind(&self) -> EventKind {
        self.kind
    }

    /// The rewrite the run waits for a verdict on.
    pub fn pending_args(&self) -> Option<&Map<String, Value>> {
        match self.waiting {
            Waiting::Check => self.chain.current().tool_call().map(|call| &call.args),
            _ => None,
        }
    }

    /// Answers [`Need::Rules`]: the rule set's evaluation, or why it failed.
    pub fn evaluated(&mut self, evaluation: Result<Evaluation, EvalError>) {
        if !self.answering(matches!(self.waiting, Waiting::Rules(_)), "a rule set's evaluation") {
            return;
        }
        match evaluation {
            Ok(evaluation) => {
                self.logs.extend(evaluation.logs);
                self.waived.extend(evaluation.waived);
                self.take(evaluation.result);
            }
            Err(error) => self.fail(self.chain.failed(error.to_string())),
        }
    }

    /// Answers [`Need::Call`]: the callback's result, or why it failed (it threw, returned what
    /// is no HookResult, panicked).
    pub fn returned(&mut self, result: Result<HookResult, String>) {
        if !self.answering(matches!(self.waiting, Waiting::Call(_)), "a callback's result") {
            return;
        }
        match result {
            Ok(result) => self.take(result),
            Err(reason) => self.fail(self.chain.failed(reason)),
        }
    }

    /// Answers [`Need::Check`].
    pub fn checked(&mut self, verdict: Verdict) {
        if !self.answering(self.waiting == Waiting::Check, "an input check's verdict") {
            return;
        }
        match verdict {
            Verdict::Accepted => {}
            Verdict::Refused(detail) => self.fail(self.chain.invalid_input(detail)),
            Verdict::Failed(reason) => self.fail(self.chain.failed(reason)),
        }
    }

    /// Fails the run from outside (the caller was interrupted, say): it ends with `reason`.
    pub fn abort(&mut self, reason: impl Into<String>) {
        self.waiting = Waiting::Nothing;
        if self.failure.is_none() {
            self.fail(self.chain.failed(reason));
        }
    }

    /// The merged result so far, or the failure, whether a second Stop's request to continue was
    /// dropped, and the records the rules' `log` actions wrote.
    pub fn outcome(&self) -> (Result<&HookResult, &HookError>, bool, &[LogRecord]) {
        let (merged, dropped) = self.chain.merged();
        (self.failure.as_ref().map_or(Ok(merged), Err), dropped, &self.logs)
    }

    /// The rules that fired but a waiver or an audit lifted, so far: what observers record.
    pub fn waived(&self) -> &[hookc_core::Waived] {
        &self.waived
    }

    /// The run's outcome, whether a second Stop's request to continue was dropped, and the
    /// `log` records. A run not yet [`Need::Done`] ends here as failed.
    pub fn finish(mut self) -> (Result<HookResult, HookError>, bool, Vec<LogRecord>) {
        if self.waiting != Waiting::Nothing || self.need() != Need::Done {
            self.abort("the run was finished before its hooks had all run");
        }
        let failure = self.failure.take();
        let logs = std::mem::take(&mut self.logs);
        let (merged, dropped) = self.chain.finish();
        (failure.map_or(Ok(merged), Err), dropped, logs)
    }

    /// Whether an answer is the one the run waits for; one that is not fails the run (a caller
    /// out of step is a bug, and the run fails closed rather than guess).
    fn answering(&mut self, expected: bool, what: &str) -> bool {
        if expected {
            self.waiting = Waiting::Nothing;
            return true;
        }
        let waiting = format!("{:?}", self.waiting);
        self.abort(format!("{what} was handed to a run waiting for {waiting}"));
        false
    }

    /// Takes a hook's result; a rewrite at PreToolUse waits for the input check.
    fn take(&mut self, result: HookResult) {
        let rewrote = result.updated_input.is_some();
        match self.chain.take(result) {
            Ok(()) if rewrote && self.checking => self.waiting = Waiting::Check,
            Ok(()) => {}
            Err(error) => self.fail(error),
        }
    }

    fn fail(&mut self, error: HookError) {
        self.waiting = Waiting::Nothing;
        self.failure.get_or_insert(error);
    }
}
