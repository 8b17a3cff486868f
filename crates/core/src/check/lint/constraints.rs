//! Reasoning about conditions that are conjunctions of tests: does one imply another, and can
//! one ever hold? Only what can be decided for certain is claimed; anything else answers "no
//! finding". Value checks use `ir::holds::pred_holds`, which evaluation uses too, so analysis and runtime agree.

use crate::ir::holds::{pred_holds, Val};
use crate::ir::{Cond, Pred, Subject, Test, Value};
use crate::paths::PathCase;
use crate::vocab::agents;
use crate::vocab::Field;
use std::borrow::Cow;

/// The tests of a condition that is a plain conjunction (no `or`, no `not`); `Some(empty)` for
/// a rule with no condition.
pub(super) fn conjunction(cond: &Cond) -> Option<Vec<&Test>> {
    match cond {
        Cond::Always => Some(Vec::new()),
        Cond::Test(test) => Some(vec![test]),
        Cond::All(children) => children
            .iter()
            .map(|child| match child {
                Cond::Test(test) => Some(test),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

pub(super) fn same_subject(a: &Subject, b: &Subject) -> bool {
    match (a, b) {
        (Subject::Field(a), Subject::Field(b)) | (Subject::Len(a), Subject::Len(b)) => a == b,
        _ => false,
    }
}

/// Whether every event satisfying all of `strong` satisfies all of `weak`.
pub(super) fn implies(strong: &[&Test], weak: &[&Test]) -> bool {
    weak.iter().all(|needed| {
        strong
            .iter()
            .any(|given| same_subject(&given.subject, &needed.subject) && pred_implies(&given.pred, &needed.pred))
    })
}

fn val(value: &Value) -> Val<'_> {
    match value {
        Value::Str(text) => Val::Str(Cow::Borrowed(text)),
        Value::Num(number) => Val::Num(*number),
        Value::Bool(value) => Val::Bool(*value),
    }
}

/// Whether `pred` holds of `value` (an unbuildable pattern counts as not holding: no claim).
fn holds_of(pred: &Pred, value: &Value) -> bool {
    pred_holds(pred, &val(value), PathCase::Sensitive).unwrap_or(false)
}

fn same_pred(a: &Pred, b: &Pred) -> bool {
    match (serde_json::to_value(a), serde_json::to_value(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn pred_implies(a: &Pred, b: &Pred) -> bool {
    if same_pred(a, b) {
        return true;
    }
    match (a, b) {
        (Pred::Eq(value), _) => holds_of(b, value),
        (Pred::In(values), _) => !values.is_empty() && values.iter().all(|value| holds_of(b, value)),
        (Pred::Truthy, Pred::Eq(Value::Bool(true))) => true,
        (Pred::StartsWith(p), Pred::StartsWith(q)) => p.starts_with(q.as_str()),
        (Pred::StartsWith(p) | Pred::EndsWith(p) | Pred::Contains(p), Pred::Contains(q)) => p.contains(q.as_str()),
        (Pred::EndsWith(p), Pred::EndsWith(q)) => p.ends_with(q.as_str()),
        (Pred::Gt(x), Pred::Gt(y) | Pred::Ge(y)) | (Pred::Ge(x), Pred::Ge(y)) => x >= y,
        (Pred::Ge(x), Pred::Gt(y)) => x > y,
        (Pred::Lt(x), Pred::Lt(y) | Pred::Le(y)) | (Pred::Le(x), Pred::Le(y)) => x <= y,
        (Pred::Le(x), Pred::Lt(y)) => x < y,
        _ => false,
    }
}

/// Why the conjunction can never hold, if it cannot.
pub(super) fn contradiction(tests: &[&Test]) -> Option<String> {
    for test in tests {
        if let Some(reason) = never_alone(test) {
            return Some(reason);
        }
    }
    for (position, a) in tests.iter().enumerate() {
        for b in tests.iter().skip(position + 1).filter(|b| same_subject(&a.subject, &b.subject)) {
            if excludes(&a.pred, &b.pred) || excludes(&b.pred, &a.pred) || disjoint_ranges(&a.pred, &b.pred) {
                return Some(format!("`{a}` and `{b}` cannot both hold"));
            }
        }
    }
    missing_profile_field(tests)
}

/// A test that can never hold by itself: a length or count below zero.
fn never_alone(test: &Test) -> Option<String> {
    let counted = matches!(test.subject, Subject::Len(_) | Subject::Field(Field::ToolCalls));
    let impossible = match test.pred {
        Pred::Lt(n) => n <= 0.0,
        Pred::Le(n) => n < 0.0,
        Pred::Eq(Value::Num(n)) => n < 0.0 || n.fract() != 0.0,
        _ => false,
    };
    (counted && impossible)
        .then(|| format!("`{test}` is never true: a length or count is a whole number, never negative"))
}

/// Whether a value-pinning test (`==`, `in`) leaves no value that passes the other test.
fn excludes(pinning: &Pred, other: &Pred) -> bool {
    match pinning {
        Pred::Eq(value) => !holds_of(other, value),
        Pred::In(values) => !values.iter().any(|value| holds_of(other, value)),
        _ => false,
    }
}

fn disjoint_ranges(a: &Pred, b: &Pred) -> bool {
    let bounds = |lower: &Pred, upper: &Pred| match (lower, upper) {
        (Pred::Gt(x) | Pred::Ge(x), Pred::Lt(y) | Pred::Le(y)) => {
            y < x || (y == x && (matches!(lower, Pred::Gt(_)) || matches!(upper, Pred::Lt(_))))
        }
        _ => false,
    };
    bounds(a, b) || bounds(b, a)
}

/// A test on a profile field (`path`, `command`, …) when every tool the rule names has a
/// profile without it: `tool == Bash and path == "x"`.
fn missing_profile_field(tests: &[&Test]) -> Option<String> {
    let tools: Vec<&str> = tests.iter().find_map(|test| match (&test.subject, &test.pred) {
        (Subject::Field(Field::Tool), Pred::Eq(Value::Str(tool))) => Some(vec![tool.as_str()]),
        (Subject::Field(Field::Tool), Pred::In(values)) => values
            .iter()
            .map(|value| match value {
                Value::Str(tool) => Some(tool.as_str()),
                _ => None,
            })
            .collect(),
        _ => None,
    })?;
    tests.iter().find_map(|test| {
        let Field::Semantic(semantic) = test.subject.field() else { return None };
        // A tool no agent knows may have any field; a known name, on some agent that has it.
        let provided = tools.iter().any(|tool| {
            let named = agents::tools_named(tool);
            named.is_empty() || named.iter().any(|(_, known)| known.source(*semantic).is_some())
        });
        let names: Vec<String> = tools.iter().map(|tool| format!("`{tool}`")).collect();
        (!provided).then(|| {
            format!("`{test}` needs `{}`, which no tool this rule names has ({})", semantic.name(), names.join(", "))
        })
    })
}
