//! Choosing each rule's index key: the cheapest conjunct that must hold for the rule to fire.

use crate::ir::{Cond, Pred, Rule, Subject, Value};
use crate::schema::Field;
use std::collections::HashMap;

/// A rule's index key.
#[derive(Debug, Clone)]
pub(super) enum Key {
    /// The field's text equals one of these.
    Exact(Field, Vec<String>),
    /// The field's text starts with this.
    Prefix(Field, String),
    /// The field's text matches one of these globs.
    Glob(Field, Vec<globset::Glob>),
    /// The field's text matches this regex (flags inline).
    Regex(Field, String),
}

/// The estimated cost of a set-matched key: one pass over the text, then only the rules whose
/// pattern matched. An equality bucket shared by more rules than this is the worse key.
const SET_MATCH_COST: usize = 8;

/// One key (or none) per rule, in rule order.
pub(super) fn choose_keys(rules: &[Rule]) -> Vec<Option<Key>> {
    let options: Vec<Vec<Key>> = rules.iter().map(|rule| keys_of(&rule.condition)).collect();
    // How many rules of each event could share each exact or prefix bucket.
    let mut bucket_sizes: HashMap<(usize, Field, &str), usize> = HashMap::new();
    for (rule, keys) in rules.iter().zip(&options) {
        for key in keys {
            for (field, value) in bucket_values(key) {
                *bucket_sizes.entry((rule.event.index(), field.clone(), value)).or_default() += 1;
            }
        }
    }
    let cost = |event: usize, key: &Key| match key {
        Key::Glob(..) | Key::Regex(..) => SET_MATCH_COST,
        _ => bucket_values(key)
            .map(|(field, value)| bucket_sizes.get(&(event, field.clone(), value)).copied().unwrap_or(0))
            .sum(),
    };
    rules
        .iter()
        .zip(&options)
        .map(|(rule, keys)| keys.iter().min_by_key(|key| cost(rule.event.index(), key)).cloned())
        .collect()
}

fn bucket_values(key: &Key) -> Box<dyn Iterator<Item = (&Field, &str)> + '_> {
    match key {
        Key::Exact(field, values) => Box::new(values.iter().map(move |value| (field, value.as_str()))),
        Key::Prefix(field, value) => Box::new(std::iter::once((field, value.as_str()))),
        Key::Glob(..) | Key::Regex(..) => Box::new(std::iter::empty()),
    }
}

/// The keys a condition offers: the indexable tests among its top-level conjuncts.
fn keys_of(cond: &Cond) -> Vec<Key> {
    let conjuncts: &[Cond] = match cond {
        Cond::All(children) => children,
        other => std::slice::from_ref(other),
    };
    conjuncts
        .iter()
        .filter_map(|conjunct| match conjunct {
            Cond::Test(test) => match &test.subject {
                Subject::Field(field) => key_of(field, &test.pred),
                Subject::Len(_) => None,
            },
            _ => None,
        })
        .collect()
}

fn key_of(field: &Field, pred: &Pred) -> Option<Key> {
    let texts = |values: &[Value]| -> Option<Vec<String>> {
        values
            .iter()
            .map(|value| match value {
                Value::Str(text) => Some(text.clone()),
                _ => None,
            })
            .collect()
    };
    match pred {
        Pred::Eq(value) => texts(std::slice::from_ref(value)).map(|values| Key::Exact(field.clone(), values)),
        Pred::In(values) if !values.is_empty() => texts(values).map(|values| Key::Exact(field.clone(), values)),
        Pred::StartsWith(prefix) if !prefix.is_empty() => Some(Key::Prefix(field.clone(), prefix.clone())),
        Pred::Like(globs) => globs
            .patterns
            .iter()
            .map(|pattern| crate::ir::Globs::glob(pattern, globs.path_mode).ok())
            .collect::<Option<Vec<_>>>()
            .map(|globs| Key::Glob(field.clone(), globs)),
        Pred::Matches(regex) => Some(Key::Regex(field.clone(), regex.inline_source())),
        _ => None,
    }
}
