//! Choosing each rule's index key: the cheapest conjunct that must hold for the rule to fire.
//! Candidate keys borrow from the rules; only the chosen one is materialised by the table.

use crate::ir::{Cond, Globs, Pred, Regex, Rule, Subject, Value};
use crate::pattern::Literals;
use crate::vocab::Field;
use std::borrow::Cow;
use std::collections::HashMap;

/// A rule's index key.
#[derive(Debug, Clone)]
pub(super) enum Key<'r> {
    /// The field's text equals one of these.
    Exact(&'r Field, Vec<Cow<'r, str>>),
    /// The field's text starts with one of these.
    Prefix(&'r Field, Vec<Cow<'r, str>>),
    /// The field's text matches one of these globs.
    Glob(&'r Field, &'r Globs),
    /// The field's text matches this regex.
    Regex(&'r Field, &'r Regex),
    /// The field's text contains one of these (a pattern's required texts): found in one
    /// Aho–Corasick pass over the text.
    Inner(&'r Field, Vec<Cow<'r, str>>),
}

/// The estimated cost of a set-matched key: one pass over the text, then only the rules whose
/// pattern matched. An equality bucket shared by more rules than this is the worse key.
const SET_MATCH_COST: usize = 8;
/// How many bytes of a regex key's pattern cost as much as trying one more rule.
const REGEX_BYTES_PER_RULE: usize = 16;

/// One key (or none) per rule, in rule order.
pub(super) fn choose_keys(rules: &[Rule]) -> Vec<Option<Key<'_>>> {
    let options: Vec<Vec<Key<'_>>> = rules.iter().map(|rule| keys_of(&rule.condition)).collect();
    // How many rules of each event could share each exact or prefix bucket.
    let mut bucket_sizes: HashMap<(usize, bool, &Field, &str), usize> = HashMap::new();
    for (rule, keys) in rules.iter().zip(&options) {
        for key in keys {
            let inner = matches!(key, Key::Inner(..));
            for (field, value) in bucket_values(key) {
                *bucket_sizes.entry((rule.event.index(), inner, field, value)).or_default() += 1;
            }
        }
    }
    let cost = |event: usize, key: &Key<'_>| match key {
        Key::Glob(..) => SET_MATCH_COST,
        // Every call pays for a regex key: the set is built from it, and its field read. A long
        // one (a vocabulary of secret shapes) costs more to build than most buckets hold.
        Key::Regex(_, regex) => SET_MATCH_COST + regex.pattern.len() / REGEX_BYTES_PER_RULE,
        // One automaton pass, then the rules sharing the texts found.
        _ => {
            let inner = matches!(key, Key::Inner(..));
            let shared = bucket_values(key)
                .map(|(field, value)| bucket_sizes.get(&(event, inner, field, value)).copied().unwrap_or(0))
                .sum::<usize>();
            usize::from(inner) + shared
        }
    };
    let chosen: Vec<Option<usize>> = rules
        .iter()
        .zip(&options)
        .map(|(rule, keys)| {
            (0..keys.len()).min_by_key(|&at| keys.get(at).map_or(usize::MAX, |key| cost(rule.event.index(), key)))
        })
        .collect();
    drop(bucket_sizes);
    options.into_iter().zip(chosen).map(|(mut keys, at)| at.map(|at| keys.swap_remove(at))).collect()
}

fn bucket_values<'k, 'r>(key: &'k Key<'r>) -> impl Iterator<Item = (&'r Field, &'k str)> {
    let (field, values): (Option<&'r Field>, &'k [Cow<'r, str>]) = match key {
        Key::Exact(field, values) | Key::Prefix(field, values) | Key::Inner(field, values) => (Some(field), values),
        Key::Glob(..) | Key::Regex(..) => (None, &[]),
    };
    values.iter().filter_map(move |value| field.map(|field| (field, value.as_ref())))
}

/// The keys a condition offers: the indexable tests among its top-level conjuncts.
fn keys_of(cond: &Cond) -> Vec<Key<'_>> {
    let conjuncts: &[Cond] = match cond {
        Cond::All(children) => children,
        other => std::slice::from_ref(other),
    };
    conjuncts
        .iter()
        .flat_map(|conjunct| match conjunct {
            Cond::Test(test) => match &test.subject {
                Subject::Field(field) => keys_of_test(field, &test.pred),
                Subject::Len(_) => Vec::new(),
            },
            // `runs rm (…)` can fire only when `rm` is among the line's programs, `runs git push`
            // only when `git push` is among its program-subcommand pairs.
            Cond::Runs(runs) if !runs.programs.is_empty() => {
                let by_program = match &runs.subcommand {
                    Some(subcommand) => Key::Exact(
                        &PROGRAM_SUBCOMMANDS,
                        runs.programs.iter().map(|program| Cow::Owned(format!("{program} {subcommand}"))).collect(),
                    ),
                    None => Key::Exact(
                        &PROGRAMS,
                        runs.programs.iter().map(|program| Cow::Borrowed(program.as_str())).collect(),
                    ),
                };
                // `runs rm (flags in [r, R] …)` can fire only when `rm r` or `rm R` is among the
                // line's program-flag pairs: with many rules on one program, the flag narrows.
                let by_flag = required_flags(&runs.condition).map(|flags| {
                    Key::Exact(
                        &PROGRAM_FLAGS,
                        runs.programs
                            .iter()
                            .flat_map(|program| flags.iter().map(move |flag| Cow::Owned(format!("{program} {flag}"))))
                            .collect(),
                    )
                });
                std::iter::once(by_program).chain(by_flag).collect()
            }
            _ => Vec::new(),
        })
        .collect()
}

/// The keys a test offers: its own, and for a pattern that is not a set of exact texts, also
/// each set of texts it requires (the cheapest key is chosen).
fn keys_of_test<'r>(field: &'r Field, pred: &'r Pred) -> Vec<Key<'r>> {
    let Some(key) = key_of(field, pred) else { return Vec::new() };
    // A literal head many rules share (`assets/` of `assets/**/dirN/**`) narrows little: the
    // texts the pattern requires may narrow more.
    let required = match (&key, pred) {
        (Key::Exact(..), _) => Vec::new(),
        (_, Pred::Matches(regex)) => regex.required(),
        (_, Pred::Like(globs)) => globs.required(),
        _ => Vec::new(),
    };
    let inner = required.into_iter().map(|texts| Key::Inner(field, texts.into_iter().map(Cow::Owned).collect()));
    std::iter::once(key).chain(inner).collect()
}

/// The fields `runs` is keyed on.
static PROGRAMS: Field = Field::Programs;
static PROGRAM_SUBCOMMANDS: Field = Field::ProgramSubcommands;
static PROGRAM_FLAGS: Field = Field::ProgramFlags;

/// The flags one of which a command must have for a `runs` condition to hold: a top-level
/// `flags == F` or `flags in [F, …]` conjunct.
fn required_flags(cond: &Cond) -> Option<Vec<&str>> {
    let conjuncts: &[Cond] = match cond {
        Cond::All(children) => children,
        other => std::slice::from_ref(other),
    };
    conjuncts.iter().find_map(|conjunct| {
        let Cond::Test(test) = conjunct else { return None };
        if !matches!(test.subject, Subject::Field(Field::Flags)) {
            return None;
        }
        let values = match &test.pred {
            Pred::Eq(value) => std::slice::from_ref(value),
            Pred::In(values) if !values.is_empty() => values.as_slice(),
            _ => return None,
        };
        values
            .iter()
            .map(|value| match value {
                Value::Str(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    })
}

fn key_of<'r>(field: &'r Field, pred: &'r Pred) -> Option<Key<'r>> {
    let texts = |values: &'r [Value]| -> Option<Vec<Cow<'r, str>>> {
        values
            .iter()
            .map(|value| match value {
                Value::Str(text) => Some(Cow::Borrowed(text.as_str())),
                _ => None,
            })
            .collect()
    };
    match pred {
        Pred::Eq(value) => texts(std::slice::from_ref(value)).map(|values| Key::Exact(field, values)),
        Pred::In(values) if !values.is_empty() => texts(values).map(|values| Key::Exact(field, values)),
        Pred::StartsWith(prefix) if !prefix.is_empty() => Some(Key::Prefix(field, vec![Cow::Borrowed(prefix)])),
        // Literal globs are equalities; globs with a literal head are prefixes (the full glob is
        // still tested when the rule is tried); the rest go to one GlobSet.
        // Globs that only exclude key nothing: the rule is always tried.
        Pred::Like(globs) if globs.including().next().is_none() => None,
        Pred::Like(globs) => Some(match globs.literals() {
            Literals::Exact(texts) => Key::Exact(field, texts.into_iter().map(Cow::Owned).collect()),
            Literals::Prefix(texts) => Key::Prefix(field, texts.into_iter().map(Cow::Owned).collect()),
            Literals::None => Key::Glob(field, globs),
        }),
        Pred::Matches(regex) => Some(match regex.literals() {
            Literals::Exact(texts) => Key::Exact(field, texts.into_iter().map(Cow::Owned).collect()),
            Literals::Prefix(texts) => Key::Prefix(field, texts.into_iter().map(Cow::Owned).collect()),
            Literals::None => Key::Regex(field, regex),
        }),
        _ => None,
    }
}

/// A key that owns its parts: what a bundle stores for each rule, so loading builds the index
/// without analysing (or even decoding) the rules.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum OwnedKey {
    /// The field's text equals one of these.
    Exact(Field, Vec<String>),
    /// The field's text starts with one of these.
    Prefix(Field, Vec<String>),
    /// The field's text matches one of these globs.
    Glob(Field, Globs),
    /// The field's text matches this regex.
    Regex(Field, Regex),
    /// The field's text contains one of these.
    Inner(Field, Vec<String>),
}

impl Key<'_> {
    /// The key with its parts owned.
    pub(super) fn to_owned_key(&self) -> OwnedKey {
        let texts = |values: &[Cow<'_, str>]| values.iter().map(|value| value.to_string()).collect();
        match self {
            Key::Exact(field, values) => OwnedKey::Exact((*field).clone(), texts(values)),
            Key::Prefix(field, values) => OwnedKey::Prefix((*field).clone(), texts(values)),
            Key::Glob(field, globs) => OwnedKey::Glob((*field).clone(), (*globs).clone()),
            Key::Regex(field, regex) => OwnedKey::Regex((*field).clone(), (*regex).clone()),
            Key::Inner(field, values) => OwnedKey::Inner((*field).clone(), texts(values)),
        }
    }
}

impl OwnedKey {
    /// The key, borrowing from this one.
    pub(super) fn as_key(&self) -> Key<'_> {
        match self {
            OwnedKey::Exact(field, values) => Key::Exact(field, borrowed(values)),
            OwnedKey::Prefix(field, values) => Key::Prefix(field, borrowed(values)),
            OwnedKey::Glob(field, globs) => Key::Glob(field, globs),
            OwnedKey::Regex(field, regex) => Key::Regex(field, regex),
            OwnedKey::Inner(field, values) => Key::Inner(field, borrowed(values)),
        }
    }
}

fn borrowed(values: &[String]) -> Vec<Cow<'_, str>> {
    values.iter().map(|value| Cow::Borrowed(value.as_str())).collect()
}
