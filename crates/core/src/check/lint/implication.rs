//! Which conjunctions a given conjunction could imply, found without comparing every pair: the
//! pairwise lints (a rule that can never fire, a recommendation always outranked) ask it once per
//! rule, so `hookc check` stays linear in the number of rules.
//!
//! A conjunction `weak` is implied by `strong` only if each test of `weak` is implied by some
//! test of `strong` on the same subject ([`super::constraints::implies`]). So each conjunction is
//! filed under one of its tests (the one whose [`Key`] the fewest others share), and a lookup
//! reaches every key a test of `strong` could imply: a string equality its value, a prefix or
//! suffix every prefix or suffix of its literal, a substring every indexed literal inside its
//! literal (one Aho-Corasick pass), anything else its subject. A number or boolean value is
//! looked up by its text, as evaluation compares it (`== 600` implies `== "600"`). What is found is a superset of
//! what is implied; [`super::constraints::implies`] decides.

use crate::ir::holds::format_number;
use crate::ir::{Pred, Subject, Test, Value};
use crate::vocab::Field;
use aho_corasick::AhoCorasick;
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};

/// A test's subject: the field, and whether its length is meant.
type On<'a> = (bool, &'a Field);

fn on(subject: &Subject) -> On<'_> {
    match subject {
        Subject::Field(field) => (false, field),
        Subject::Len(field) => (true, field),
    }
}

/// What a test is filed under: a test is implied only by a test whose lookup reaches this key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key<'a> {
    /// `== "v"`: implied by `== "v"`, or `in` a list of `"v"` only.
    Equals(On<'a>, &'a str),
    /// `starts_with "q"`: implied by a literal that starts with `q`.
    Prefix(On<'a>, &'a str),
    /// `ends_with "q"`: implied by a literal that ends with `q`.
    Suffix(On<'a>, &'a str),
    /// `contains "q"`: implied by a literal that contains `q`.
    Contains(On<'a>, &'a str),
    /// Any other test: implied only by some test on the same subject.
    Subject(On<'a>),
}

fn key(test: &Test) -> Key<'_> {
    let subject = on(&test.subject);
    match &test.pred {
        Pred::Eq(Value::Str(value)) => Key::Equals(subject, value),
        Pred::StartsWith(text) => Key::Prefix(subject, text),
        Pred::EndsWith(text) => Key::Suffix(subject, text),
        Pred::Contains(text) => Key::Contains(subject, text),
        _ => Key::Subject(subject),
    }
}

/// Conjunctions by position, each filed under one key, for [`ImplicationIndex::candidates`].
pub(super) struct ImplicationIndex<'a> {
    filed: HashMap<Key<'a>, Vec<usize>>,
    /// Conjunctions with no test: every conjunction implies them.
    always: Vec<usize>,
    /// Per subject, the lengths of the prefixes and suffixes filed (a lookup tries only those).
    prefix_lengths: HashMap<On<'a>, BTreeSet<usize>>,
    suffix_lengths: HashMap<On<'a>, BTreeSet<usize>>,
    /// Per subject, the substrings filed, and a matcher over them.
    substrings: HashMap<On<'a>, (AhoCorasick, Vec<&'a str>)>,
}

impl<'a> ImplicationIndex<'a> {
    /// Indexes `(position, conjunction)` pairs.
    pub(super) fn new(entries: impl IntoIterator<Item = (usize, &'a [&'a Test])>) -> Self {
        let entries: Vec<(usize, &[&Test])> = entries.into_iter().collect();
        let mut shared: HashMap<Key<'a>, usize> = HashMap::new();
        for (_, tests) in &entries {
            for test in tests.iter() {
                *shared.entry(key(test)).or_default() += 1;
            }
        }
        let mut index = ImplicationIndex {
            filed: HashMap::new(),
            always: Vec::new(),
            prefix_lengths: HashMap::new(),
            suffix_lengths: HashMap::new(),
            substrings: HashMap::new(),
        };
        let mut substrings: HashMap<On<'a>, Vec<&'a str>> = HashMap::new();
        for (position, tests) in entries {
            // The rarest key: the fewest other conjunctions share its bucket.
            let Some(rarest) = tests.iter().map(|test| key(test)).min_by_key(|key| shared.get(key).copied()) else {
                index.always.push(position);
                continue;
            };
            let bucket = index.filed.entry(rarest).or_default();
            if bucket.is_empty() {
                match rarest {
                    Key::Prefix(subject, text) => {
                        index.prefix_lengths.entry(subject).or_default().insert(text.len());
                    }
                    Key::Suffix(subject, text) => {
                        index.suffix_lengths.entry(subject).or_default().insert(text.len());
                    }
                    Key::Contains(subject, text) => substrings.entry(subject).or_default().push(text),
                    Key::Equals(..) | Key::Subject(_) => {}
                }
            }
            bucket.push(position);
        }
        for (subject, texts) in substrings {
            // An automaton that cannot be built (never for plain literals) leaves those
            // conjunctions unreachable by lookup: they are then always candidates instead.
            match AhoCorasick::new(&texts) {
                Ok(matcher) => {
                    index.substrings.insert(subject, (matcher, texts));
                }
                Err(_) => {
                    for text in texts {
                        let positions = index.filed.remove(&Key::Contains(subject, text)).unwrap_or_default();
                        index.always.extend(positions);
                    }
                }
            }
        }
        index
    }

    /// The positions whose conjunction `tests` might imply, in order (a superset of those it
    /// does; [`super::constraints::implies`] decides).
    pub(super) fn candidates(&self, tests: &[&'a Test]) -> Vec<usize> {
        let mut found = self.always.clone();
        let mut take = |key: Key<'_>| found.extend(self.filed.get(&key).into_iter().flatten());
        for test in tests {
            let subject = on(&test.subject);
            take(Key::Subject(subject));
            // A value is compared by its text (`holds`'s `equals`): `== 600` implies `== "600"`,
            // `starts_with "6"`, `contains "00"`.
            let literal = |value: &'a Value| -> Cow<'a, str> {
                match value {
                    Value::Str(text) => Cow::Borrowed(text.as_str()),
                    Value::Num(number) => Cow::Owned(format_number(*number)),
                    Value::Bool(value) => Cow::Borrowed(if *value { "true" } else { "false" }),
                }
            };
            let (literals, whole, prefixes, suffixes): (Vec<Cow<'a, str>>, bool, bool, bool) = match &test.pred {
                Pred::Eq(value) => (vec![literal(value)], true, true, true),
                Pred::In(values) => (values.iter().map(literal).collect(), true, true, true),
                Pred::StartsWith(text) => (vec![Cow::Borrowed(text.as_str())], false, true, false),
                Pred::EndsWith(text) => (vec![Cow::Borrowed(text.as_str())], false, false, true),
                Pred::Contains(text) => (vec![Cow::Borrowed(text.as_str())], false, false, false),
                _ => continue,
            };
            for literal in &literals {
                let literal = literal.as_ref();
                if whole {
                    take(Key::Equals(subject, literal));
                }
                if prefixes {
                    for &length in self.prefix_lengths.get(&subject).into_iter().flatten() {
                        if let Some(prefix) = literal.get(..length) {
                            take(Key::Prefix(subject, prefix));
                        }
                    }
                }
                if suffixes {
                    for &length in self.suffix_lengths.get(&subject).into_iter().flatten() {
                        if let Some(suffix) = literal.len().checked_sub(length).and_then(|at| literal.get(at..)) {
                            take(Key::Suffix(subject, suffix));
                        }
                    }
                }
                if let Some((matcher, texts)) = self.substrings.get(&subject) {
                    for found in matcher.find_overlapping_iter(literal) {
                        if let Some(text) = texts.get(found.pattern().as_usize()) {
                            take(Key::Contains(subject, text));
                        }
                    }
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }
}

#[cfg(test)]
mod tests {
    use super::super::constraints::implies;
    use super::*;
    use crate::vocab::Semantic;
    use proptest::prelude::*;

    /// Values whose texts overlap the strings': numbers and booleans compare by their text.
    fn value() -> impl Strategy<Value = Value> {
        prop_oneof![
            "[ab1]{0,3}".prop_map(Value::Str),
            (0..12u8).prop_map(|n| Value::Num(f64::from(n))),
            any::<bool>().prop_map(Value::Bool),
        ]
    }

    /// Tests over two fields and a small alphabet, so that implications are common.
    fn test() -> impl Strategy<Value = Test> {
        let text = "[ab1tr]{0,3}";
        let field = prop_oneof![Just(Field::Semantic(Semantic::Command)), Just(Field::Semantic(Semantic::Path))];
        let subject = (field, any::<bool>())
            .prop_map(|(field, len)| if len { Subject::Len(field) } else { Subject::Field(field) });
        let pred = prop_oneof![
            text.prop_map(|text| Pred::Eq(Value::Str(text))),
            value().prop_map(Pred::Eq),
            text.prop_map(|text| Pred::Ne(Value::Str(text))),
            proptest::collection::vec(value(), 0..3).prop_map(Pred::In),
            text.prop_map(Pred::StartsWith),
            text.prop_map(Pred::EndsWith),
            text.prop_map(Pred::Contains),
            (0..3u8).prop_map(|n| Pred::Gt(f64::from(n))),
            Just(Pred::Truthy),
        ];
        (subject, pred).prop_map(|(subject, pred)| Test { subject, pred })
    }

    proptest! {
        /// Every conjunction another implies is among its candidates (the index may find more,
        /// never fewer), whichever test each was filed under.
        #[test]
        fn candidates_hold_every_implied_conjunction(
            conjunctions in proptest::collection::vec(proptest::collection::vec(test(), 0..4), 1..24),
        ) {
            let refs: Vec<Vec<&Test>> = conjunctions.iter().map(|tests| tests.iter().collect()).collect();
            let index = ImplicationIndex::new(refs.iter().enumerate().map(|(at, tests)| (at, tests.as_slice())));
            for strong in &refs {
                let found = index.candidates(strong);
                for (at, weak) in refs.iter().enumerate() {
                    if implies(strong, weak) {
                        prop_assert!(found.contains(&at), "{strong:?} implies #{at} {weak:?}, not found in {found:?}");
                    }
                }
            }
        }
    }
}
