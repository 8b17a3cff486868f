//! `explain`: why an event got its HookResult — every rule of the event in order, each test
//! with the value it saw and its truth, which rule set the permission, which block or
//! continuation stopped evaluation, and which rewrites chained. Evaluates exactly as
//! [`Policy::evaluate`] does (every rule of the event is tried, not only the index's candidates;
//! the result is the same).

use crate::eval::{EvalError, RuleTracer, Tracer, Val};
use crate::ir::{Action, Rule, Runs, Test};
use crate::model::event::Event;
use crate::model::result::HookResult;
use crate::policy::Policy;
use serde::Serialize;

/// The explanation of one event.
#[derive(Debug, Clone, Serialize)]
pub struct Explanation {
    /// The event's name.
    pub event: String,
    /// Every rule of the event, in evaluation order.
    pub rules: Vec<RuleTrace>,
    /// The rule whose recommendation is the final permission.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_set_by: Option<String>,
    /// The rule whose block or continuation ended evaluation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<String>,
    /// The rules that rewrote the input or output, in the order the rewrites chained.
    pub rewrites: Vec<String>,
    /// The result, as `eval` gives it.
    pub result: HookResult,
}

/// What happened to one rule.
#[derive(Debug, Clone, Serialize)]
pub struct RuleTrace {
    /// Its name.
    pub rule: String,
    /// Where it was written.
    pub origin: String,
    /// `fired`, `did not fire`, `waived` (it fired, and a waiver in force lifted it),
    /// `audited` (it fired in audit mode: `waived_by.would` is what it would have decided), or
    /// `not tried` (evaluation had stopped).
    pub outcome: &'static str,
    /// For a waived or audited rule: the waiver or audit that lifted it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waived_by: Option<crate::eval::Waived>,
    /// For a call that names several files (judged once per file), the file this trace is
    /// for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Its tests, in the order evaluated (a test after a deciding one is not evaluated).
    pub tests: Vec<TestTrace>,
}

/// One test's evaluation.
#[derive(Debug, Clone, Serialize)]
pub struct TestTrace {
    /// The test as rule source.
    pub test: String,
    /// The value it saw, as text; `None` when the event does not carry the field.
    pub saw: Option<String>,
    /// Whether it held.
    pub held: bool,
}

#[derive(Default)]
struct Collector {
    pending: Vec<TestTrace>,
    rules: Vec<RuleTrace>,
    /// How many `not`s enclose the test being evaluated.
    negations: usize,
    /// The file being judged, for a call that names several.
    file: Option<String>,
}

impl Tracer for Collector {
    fn test(&mut self, test: &Test, seen: &Val<'_>, held: bool) {
        let saw = seen.text().map(|text| text.into_owned());
        // Show a negated test as written, with the truth of the negation.
        let negated = self.negations % 2 == 1;
        let text = if negated { format!("not {test}") } else { test.to_string() };
        self.pending.push(TestTrace { test: text, saw, held: held != negated });
    }

    fn runs(&mut self, runs: &Runs, programs: &Val<'_>, found: bool) {
        let saw = programs.text().map(|text| text.into_owned());
        // Under a `not`, shown as written with the truth of the negation, like a test.
        let negated = self.negations % 2 == 1;
        let text = if negated { format!("not {runs}") } else { runs.to_string() };
        self.pending.push(TestTrace { test: text, saw, held: found != negated });
    }

    fn negation(&mut self, entering: bool) {
        if entering {
            self.negations += 1;
        } else {
            self.negations = self.negations.saturating_sub(1);
        }
    }
}

impl RuleTracer for Collector {
    fn rule(&mut self, rule: &Rule, fired: bool) {
        let tests = std::mem::take(&mut self.pending);
        let outcome = if fired { "fired" } else { "did not fire" };
        let file = self.file.clone();
        self.rules.push(RuleTrace {
            rule: rule.name.clone(),
            origin: rule.origin.clone(),
            outcome,
            file,
            tests,
            waived_by: None,
        });
    }

    fn waived(&mut self, waived: &crate::eval::Waived) {
        if let Some(last) = self.rules.last_mut() {
            last.outcome = if waived.would.is_some() { "audited" } else { "waived" };
            last.waived_by = Some(waived.clone());
        }
    }

    fn reading(&mut self, file: &str) {
        self.file = Some(file.to_string());
    }
}

/// Explains one event.
pub fn explain(policy: &Policy, event: &Event) -> Result<Explanation, EvalError> {
    let mut collector = Collector::default();
    let evaluation = policy.trace(event, &mut collector)?;
    let result = evaluation.result;
    let table = policy.table();
    let mut rules = collector.rules;
    for id in table.rules_of(event.kind()).map_err(EvalError::Bundle)?.iter().skip(rules.len()) {
        if let Ok(rule) = table.rule(*id) {
            rules.push(RuleTrace {
                rule: rule.name.clone(),
                origin: rule.origin.clone(),
                outcome: "not tried",
                waived_by: None,
                file: None,
                tests: Vec::new(),
            });
        }
    }
    let all_rules = policy.rules().map_err(|reason| EvalError::InvalidRule { id: 0, reason })?;
    let fired: Vec<&Rule> = rules
        .iter()
        .filter(|trace| trace.outcome == "fired")
        .filter_map(|trace| all_rules.iter().copied().find(|rule| rule.name == trace.rule))
        .collect();
    let permission_set_by = fired
        .iter()
        .find(|rule| {
            rule.actions.iter().any(|action| matches!(action, Action::Permission { behavior, .. } if *behavior == result.permission_behavior))
        })
        .map(|rule| rule.name.clone());
    let stops = |rule: &&&Rule| {
        rule.actions.iter().any(|action| match action {
            Action::Block { .. } => result.blocking_error.is_some(),
            Action::Continue(_) => result.force_continue.is_some(),
            _ => false,
        })
    };
    let stopped_by = rules
        .iter()
        .any(|trace| trace.outcome == "not tried")
        .then(|| fired.iter().find(stops))
        .flatten()
        .map(|rule| rule.name.clone());
    let mut rewrites: Vec<String> = fired
        .iter()
        .filter(|rule| {
            rule.actions.iter().any(|action| {
                matches!(action, Action::Set { .. } | Action::Replace(_) | Action::Truncate(_) | Action::Redact { .. })
            })
        })
        .map(|rule| rule.name.clone())
        .collect();
    // A call judged once per file fires a rule once per file: one rewrite.
    crate::model::dedup_in_order(&mut rewrites);
    // What explain shows never repeats a secret value: the values its tests saw, and the
    // arguments or output a rule rewrote (the reasons were redacted when rendered).
    let redaction = policy.redaction();
    let redact = |text: &mut String| *text = crate::redact::owned(redaction, std::mem::take(text));
    for trace in &mut rules {
        trace.file.iter_mut().for_each(redact);
        trace.tests.iter_mut().filter_map(|test| test.saw.as_mut()).for_each(redact);
    }
    let mut result = result;
    if let Some(args) = result.updated_input.as_mut() {
        args.values_mut().for_each(|value| redact_json(value, &redact));
    }
    if let Some(output) = result.updated_output.as_mut() {
        redact(&mut output.content);
    }
    Ok(Explanation { event: event.kind().name().to_string(), rules, permission_set_by, stopped_by, rewrites, result })
}

/// Every string in `value`, redacted.
fn redact_json(value: &mut serde_json::Value, redact: &impl Fn(&mut String)) {
    match value {
        serde_json::Value::String(text) => redact(text),
        serde_json::Value::Array(items) => items.iter_mut().for_each(|item| redact_json(item, redact)),
        serde_json::Value::Object(map) => map.values_mut().for_each(|item| redact_json(item, redact)),
        _ => {}
    }
}

impl std::fmt::Display for Explanation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<&str> = self.rules.iter().map(|trace| trace.rule.as_str()).collect();
        crate::model::dedup_in_order(&mut names);
        writeln!(f, "event `{}`: {} rule(s)", self.event, names.len())?;
        let mut file: Option<&str> = None;
        for trace in &self.rules {
            if trace.file.is_some() && trace.file.as_deref() != file {
                file = trace.file.as_deref();
                writeln!(f, "for the file `{}`:", file.unwrap_or_default())?;
            }
            writeln!(f, "rule `{}` ({}): {}", trace.rule, trace.origin, trace.outcome)?;
            if let Some(waived) = &trace.waived_by {
                let reason = waived.reason.as_deref().map(|reason| format!(": {reason}")).unwrap_or_default();
                let until = waived.until.as_deref().map(|until| format!(" (until {until})")).unwrap_or_default();
                match &waived.would {
                    Some(would) => {
                        let said = would.reason.as_deref().map(|said| format!(" \"{said}\"")).unwrap_or_default();
                        writeln!(
                            f,
                            "  in audit mode (the audit at {}{until}){reason}: would {}{said}",
                            waived.waiver, would.decision
                        )?;
                    }
                    None => writeln!(f, "  lifted by the waiver at {}{until}{reason}", waived.waiver)?,
                }
            }
            for test in &trace.tests {
                let saw = test
                    .saw
                    .as_ref()
                    .map_or_else(|| "nothing (the event has no such field)".to_string(), |saw| format!("{saw:?}"));
                writeln!(f, "    {} — saw {saw} — {}", test.test, test.held)?;
            }
        }
        if let Some(rule) = &self.permission_set_by {
            writeln!(f, "permission: {} (set by `{rule}`)", self.result.permission_behavior.name())?;
        }
        if let Some(rule) = &self.stopped_by {
            writeln!(f, "evaluation stopped at `{rule}`; the rules after it were not tried")?;
        }
        if !self.rewrites.is_empty() {
            let names: Vec<String> = self.rewrites.iter().map(|name| format!("`{name}`")).collect();
            writeln!(f, "rewrites, chained in order: {}", names.join(" → "))?;
        }
        let json = serde_json::to_string(&self.result).map_err(|_| std::fmt::Error)?;
        write!(f, "result: {json}")
    }
}
