//! What a predicate holds of a value: the one definition the evaluator and the checker's lints
//! share (the lints ask whether one test implies another by trying values), below both.

use super::{Pred, Value};
use crate::paths::{FilePath, PathCase};
use serde_json::Value as Json;
use std::borrow::Cow;

/// A field's value at evaluation time.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Val<'a> {
    /// The event does not carry it (or the argument is absent or `null`).
    Missing,
    /// Text.
    Str(Cow<'a, str>),
    /// A number.
    Num(f64),
    /// A boolean.
    Bool(bool),
    /// A JSON array or object argument; its text form is its JSON.
    Json(&'a Json),
    /// A file, in every spelling rules may use; its text form is the canonical one.
    Path(&'a FilePath),
    /// A list: tests hold when any element satisfies them; its text form joins the elements.
    List(Vec<Val<'a>>),
}

impl Val<'_> {
    /// The text form used by text operators and templates: strings as they are, numbers and
    /// booleans as written in JSON, arrays and objects as JSON.
    pub(crate) fn text(&self) -> Option<Cow<'_, str>> {
        match self {
            Val::Missing => None,
            Val::Str(text) => Some(Cow::Borrowed(text)),
            Val::Num(number) => Some(Cow::Owned(format_number(*number))),
            Val::Bool(value) => Some(Cow::Borrowed(if *value { "true" } else { "false" })),
            Val::Json(json) => Some(Cow::Owned(json.to_string())),
            Val::Path(file) => Some(Cow::Borrowed(&file.canonical)),
            Val::List(items) => {
                let texts: Vec<Cow<'_, str>> = items.iter().filter_map(Val::text).collect();
                Some(Cow::Owned(texts.join(", ")))
            }
        }
    }

    /// Calls `each` with every text a lookup by value should try: a path's every spelling
    /// (case folded as `case` says), a list's every element; stops at the first `true`.
    pub(crate) fn any_text(&self, case: PathCase, each: &mut dyn FnMut(&str) -> bool) -> bool {
        match self {
            Val::Missing => false,
            Val::Path(file) => file.spellings().any(|spelling| each(&case.fold(spelling))),
            Val::List(items) => items.iter().any(|item| item.any_text(case, each)),
            other => other.text().is_some_and(|text| each(&text)),
        }
    }
}

/// `3` for 3.0, `2.5` for 2.5.
pub(crate) fn format_number(number: f64) -> String {
    if number.fract() == 0.0 && number.abs() < 1e15 {
        format!("{number:.0}")
    } else {
        number.to_string()
    }
}

/// Whether a predicate holds of a value. A missing value satisfies no predicate. A list
/// satisfies a predicate when any element does — `!=` and `not in` included, so `host not in
/// [..]` holds when some host is outside the list. A path satisfies it when any of its spellings
/// (one file, spelled several ways) does, and there `!=` / `not in` are the negations of `==` /
/// `in` over all spellings. Path spellings compare with `case` folding.
pub(crate) fn pred_holds(pred: &Pred, seen: &Val<'_>, case: PathCase) -> Result<bool, String> {
    match seen {
        Val::Missing => Ok(false),
        Val::Str(_) | Val::Num(_) | Val::Bool(_) | Val::Json(_) => holds_of_one(pred, seen, PathCase::Sensitive),
        Val::List(items) => {
            for item in items {
                if pred_holds(pred, item, case)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Val::Path(file) => {
            let spellings = || file.spellings().map(|spelling| Val::Str(Cow::Borrowed(spelling)));
            let any = |pred: &Pred| -> Result<bool, String> {
                for spelling in spellings() {
                    if holds_of_one(pred, &spelling, case)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            };
            match pred {
                Pred::Ne(value) => Ok(!spellings().any(|spelling| equals(&spelling, value, case))),
                Pred::NotIn(values) => {
                    Ok(!spellings().any(|spelling| values.iter().any(|value| equals(&spelling, value, case))))
                }
                _ => any(pred),
            }
        }
    }
}

fn holds_of_one<'p>(pred: &'p Pred, seen: &Val<'_>, case: PathCase) -> Result<bool, String> {
    let number = || match seen {
        Val::Num(number) => Some(*number),
        _ => None,
    };
    // Only case-insensitive path spellings pay for a folded copy.
    let text = || {
        seen.text().map(|text| match case {
            PathCase::Sensitive => text,
            PathCase::Insensitive => Cow::Owned(case.fold(&text).into_owned()),
        })
    };
    let fold = |literal: &'p str| case.fold(literal);
    Ok(match pred {
        Pred::Truthy => *seen == Val::Bool(true),
        Pred::Eq(value) => equals(seen, value, case),
        Pred::Ne(value) => !equals(seen, value, case),
        Pred::Lt(limit) => number().is_some_and(|n| n < *limit),
        Pred::Le(limit) => number().is_some_and(|n| n <= *limit),
        Pred::Gt(limit) => number().is_some_and(|n| n > *limit),
        Pred::Ge(limit) => number().is_some_and(|n| n >= *limit),
        Pred::In(values) => values.iter().any(|value| equals(seen, value, case)),
        Pred::NotIn(values) => !values.iter().any(|value| equals(seen, value, case)),
        Pred::InHosts(hosts) => text().is_some_and(|host| hosts.contains(&host)),
        Pred::NotInHosts(hosts) => text().is_some_and(|host| !hosts.contains(&host)),
        Pred::Matches(regex) => {
            let regex = regex.get_for(case)?;
            // Folding can change a text's length (`ß` folds to `ss`), which the `i` regex does
            // not: try the spelling as it is too.
            let unfolded = || case == PathCase::Insensitive && seen.text().is_some_and(|text| regex.is_match(&*text));
            text().is_some_and(|text| regex.is_match(&*text)) || unfolded()
        }
        Pred::Like(globs) => match text() {
            // No text every match contains: no match, without building the set.
            Some(text) if !globs.may_match(&text, case) => false,
            text => {
                let set = globs.get_for(case)?;
                text.is_some_and(|text| set.is_match(text.as_ref()))
            }
        },
        Pred::Contains(needle) => text().is_some_and(|text| text.contains(fold(needle).as_ref())),
        Pred::StartsWith(prefix) => text().is_some_and(|text| text.starts_with(fold(prefix).as_ref())),
        Pred::EndsWith(suffix) => text().is_some_and(|text| text.ends_with(fold(suffix).as_ref())),
    })
}

/// Equality: numbers and booleans by value, strings by text form (so a raw argument `3` equals
/// `"3"`, as it would in the agent's own JSON), folded as `case` says.
fn equals(seen: &Val<'_>, value: &Value, case: PathCase) -> bool {
    match (seen, value) {
        (Val::Num(a), Value::Num(b)) => a == b,
        (Val::Bool(a), Value::Bool(b)) => a == b,
        (_, Value::Str(expected)) => seen.text().is_some_and(|text| case.fold(&text) == case.fold(expected)),
        _ => false,
    }
}
