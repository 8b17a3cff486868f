//! Stage 3: checked rules → [`DecisionTable`], indexed so that a request pays for the rules that
//! can match it, not for the whole set.
//!
//! Each rule gets at most one *key*: a conjunct of its condition that must hold for it to fire
//! (`tool == Bash`, `path in [...]`, `command starts_with "rm"`, `path like "**/*.pem"`,
//! `command matches /…/`). Keys on one field share one structure: a hash map for equality and
//! prefixes, a `GlobSet` for globs, a `RegexSet` for regexes, each matched in one pass. A rule
//! with no key is always a candidate. The key chosen is the cheapest: an equality whose value
//! few rules share, otherwise a set-matched pattern. Compiling cannot fail: a structure that
//! cannot be built (a `RegexSet` over its size limit) leaves its rules unindexed instead.

mod key;

use crate::eval::View;
use crate::ir::Rule;
use crate::schema::{EventKind, Field};
use key::{choose_keys, Key};
use std::collections::HashMap;

/// Rule ids are indexes into [`DecisionTable::rules`], in evaluation order.
pub type RuleId = u32;

/// The compiled, indexed rule set.
#[derive(Debug, Clone)]
pub struct DecisionTable {
    rules: Vec<Rule>,
    events: [EventIndex; 4],
}

/// One event's rules and index.
#[derive(Debug, Clone, Default)]
struct EventIndex {
    /// Every rule of the event, in order.
    all: Vec<RuleId>,
    /// Rules with no key: always candidates.
    unindexed: Vec<RuleId>,
    /// Keyed rules, grouped by field and kind of key.
    indexes: Vec<FieldIndex>,
}

#[derive(Debug, Clone)]
struct FieldIndex {
    field: Field,
    kind: IndexKind,
}

#[derive(Debug, Clone)]
enum IndexKind {
    /// Exact text → rules.
    Exact(HashMap<String, Vec<RuleId>>),
    /// Prefix → rules; `lengths` lists the prefix lengths present, so a lookup tries only those.
    Prefix { by_prefix: HashMap<String, Vec<RuleId>>, lengths: Vec<usize> },
    /// One glob set; `owners[i]` is the rule of glob `i`.
    Glob { set: globset::GlobSet, owners: Vec<RuleId> },
    /// One regex set; `owners[i]` is the rule of regex `i`.
    Regex { set: regex::RegexSet, owners: Vec<RuleId> },
}

impl DecisionTable {
    /// Builds the table. Rules keep their order; ids are their positions.
    pub fn new(rules: Vec<Rule>) -> DecisionTable {
        let mut events: [EventIndex; 4] = Default::default();
        let keys = choose_keys(&rules);
        let mut grouped: [Vec<(RuleId, Key)>; 4] = Default::default();
        for (position, (rule, key)) in rules.iter().zip(keys).enumerate() {
            let id = RuleId::try_from(position).unwrap_or(RuleId::MAX);
            let index = rule.event.index();
            if let Some(event) = events.get_mut(index) {
                event.all.push(id);
                match key {
                    Some(key) => {
                        if let Some(keys) = grouped.get_mut(index) {
                            keys.push((id, key));
                        }
                    }
                    None => event.unindexed.push(id),
                }
            }
        }
        for (event, keys) in events.iter_mut().zip(grouped) {
            event.build(keys);
        }
        DecisionTable { rules, events }
    }

    /// All rules, in evaluation order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// One rule.
    pub fn rule(&self, id: RuleId) -> Option<&Rule> {
        self.rules.get(id as usize)
    }

    /// Every rule of an event, in order.
    pub fn rules_of(&self, event: EventKind) -> &[RuleId] {
        self.events.get(event.index()).map_or(&[], |index| index.all.as_slice())
    }

    /// The rules of `event` that may fire for this view, in order. Every rule that fires is
    /// among them; some may still not fire.
    pub fn candidates(&self, event: EventKind, view: &View<'_>) -> Vec<RuleId> {
        let Some(index) = self.events.get(event.index()) else { return Vec::new() };
        let mut out = index.unindexed.clone();
        for field_index in &index.indexes {
            let Some(text) = view.get(&field_index.field).text().map(|text| text.into_owned()) else { continue };
            field_index.kind.lookup(&text, &mut out);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// How the rules were indexed, for `--verbose` output and tests: (indexed, unindexed).
    pub fn index_stats(&self) -> (usize, usize) {
        self.events.iter().fold((0, 0), |(indexed, unindexed), event| {
            (indexed + event.all.len() - event.unindexed.len(), unindexed + event.unindexed.len())
        })
    }
}

impl EventIndex {
    fn build(&mut self, keys: Vec<(RuleId, Key)>) {
        let mut exact: HashMap<Field, HashMap<String, Vec<RuleId>>> = HashMap::new();
        let mut prefix: HashMap<Field, HashMap<String, Vec<RuleId>>> = HashMap::new();
        let mut globs: HashMap<Field, (globset::GlobSetBuilder, Vec<RuleId>)> = HashMap::new();
        let mut regexes: HashMap<Field, (Vec<String>, Vec<RuleId>)> = HashMap::new();
        let mut order: Vec<(Field, u8)> = Vec::new();
        let mut note = |field: &Field, kind: u8| {
            if !order.iter().any(|(f, k)| f == field && *k == kind) {
                order.push((field.clone(), kind));
            }
        };
        for (id, key) in keys {
            match key {
                Key::Exact(field, values) => {
                    note(&field, 0);
                    let map = exact.entry(field).or_default();
                    for value in values {
                        map.entry(value).or_default().push(id);
                    }
                }
                Key::Prefix(field, value) => {
                    note(&field, 1);
                    prefix.entry(field).or_default().entry(value).or_default().push(id);
                }
                Key::Glob(field, globs_of_rule) => {
                    note(&field, 2);
                    let (builder, owners) =
                        globs.entry(field).or_insert_with(|| (globset::GlobSetBuilder::new(), Vec::new()));
                    for glob in globs_of_rule {
                        builder.add(glob);
                        owners.push(id);
                    }
                }
                Key::Regex(field, source) => {
                    note(&field, 3);
                    let (sources, owners) = regexes.entry(field).or_default();
                    sources.push(source);
                    owners.push(id);
                }
            }
        }
        for (field, kind) in order {
            let built = match kind {
                0 => exact.remove(&field).map(|map| Ok(IndexKind::Exact(map))),
                1 => prefix.remove(&field).map(|by_prefix| {
                    let mut lengths: Vec<usize> = by_prefix.keys().map(String::len).collect();
                    lengths.sort_unstable();
                    lengths.dedup();
                    Ok(IndexKind::Prefix { by_prefix, lengths })
                }),
                2 => globs.remove(&field).map(|(builder, owners)| match builder.build() {
                    Ok(set) => Ok(IndexKind::Glob { set, owners }),
                    Err(_) => Err(owners),
                }),
                _ => regexes.remove(&field).map(|(sources, owners)| match regex::RegexSet::new(&sources) {
                    Ok(set) => Ok(IndexKind::Regex { set, owners }),
                    Err(_) => Err(owners),
                }),
            };
            match built {
                Some(Ok(kind)) => self.indexes.push(FieldIndex { field, kind }),
                // The set could not be built: its rules are tried on every request instead.
                Some(Err(owners)) => self.unindexed.extend(owners),
                None => {}
            }
        }
        self.unindexed.sort_unstable();
        self.unindexed.dedup();
    }
}

impl IndexKind {
    fn lookup(&self, text: &str, out: &mut Vec<RuleId>) {
        match self {
            IndexKind::Exact(map) => out.extend(map.get(text).into_iter().flatten()),
            IndexKind::Prefix { by_prefix, lengths } => {
                for &length in lengths.iter().take_while(|&&length| length <= text.len()) {
                    if let Some(prefix) = text.get(..length) {
                        out.extend(by_prefix.get(prefix).into_iter().flatten());
                    }
                }
            }
            IndexKind::Glob { set, owners } => {
                out.extend(set.matches(text).into_iter().filter_map(|glob| owners.get(glob)));
            }
            IndexKind::Regex { set, owners } => {
                out.extend(set.matches(text).into_iter().filter_map(|regex| owners.get(regex)));
            }
        }
    }
}
