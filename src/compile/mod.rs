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
mod pattern_set;

use crate::eval::View;
use crate::ir::Rule;
use crate::schema::{EventKind, Field};
use key::{choose_keys, Key};
use pattern_set::PatternSet;
use std::collections::HashMap;

/// Rule ids are indexes into [`DecisionTable::rules`], in evaluation order.
pub type RuleId = u32;

/// The compiled, indexed rule set.
#[derive(Debug, Clone)]
pub struct DecisionTable {
    rules: Vec<Rule>,
    events: [EventIndex; EventKind::COUNT],
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
    /// Globs or regexes matched in one pass.
    Patterns(PatternSet),
}

impl DecisionTable {
    /// Builds the table. Rules keep their order; ids are their positions.
    pub fn new(rules: Vec<Rule>) -> DecisionTable {
        let mut events: [EventIndex; EventKind::COUNT] = Default::default();
        let keys = choose_keys(&rules);
        let mut grouped: [Vec<(RuleId, Key)>; EventKind::COUNT] = Default::default();
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
    fn build(&mut self, keys: Vec<(RuleId, Key<'_>)>) {
        // One structure per (field, kind of key), in the order first seen.
        let mut exact: Slots<'_, HashMap<String, Vec<RuleId>>> = Vec::new();
        let mut prefix: Slots<'_, HashMap<String, Vec<RuleId>>> = Vec::new();
        let mut glob_sets: Slots<'_, PatternSet> = Vec::new();
        let mut regex_sets: Slots<'_, PatternSet> = Vec::new();
        for (id, key) in keys {
            match key {
                Key::Exact(field, values) => add_values(slot(&mut exact, field, HashMap::new), values, id),
                Key::Prefix(field, values) => add_values(slot(&mut prefix, field, HashMap::new), values, id),
                Key::Glob(field, globs) => {
                    if let Some(set) = slot(&mut glob_sets, field, PatternSet::globs) {
                        globs.patterns.iter().for_each(|glob| set.add_glob(glob, globs.path_mode, id));
                    }
                }
                Key::Regex(field, regex) => {
                    if let Some(set) = slot(&mut regex_sets, field, PatternSet::regexes) {
                        set.add_regex(regex.inline_source(), id);
                    }
                }
            }
        }
        for (field, map) in exact {
            self.indexes.push(FieldIndex { field: field.clone(), kind: IndexKind::Exact(map) });
        }
        for (field, by_prefix) in prefix {
            let mut lengths: Vec<usize> = by_prefix.keys().map(String::len).collect();
            lengths.sort_unstable();
            lengths.dedup();
            self.indexes.push(FieldIndex { field: field.clone(), kind: IndexKind::Prefix { by_prefix, lengths } });
        }
        for (field, set) in glob_sets.into_iter().chain(regex_sets) {
            self.indexes.push(FieldIndex { field: field.clone(), kind: IndexKind::Patterns(set) });
        }
        self.unindexed.sort_unstable();
        self.unindexed.dedup();
    }
}

/// Index structures under construction, one per field, in the order first seen.
type Slots<'r, T> = Vec<(&'r Field, T)>;

/// The structure for `field` in `slots`, made with `new` if absent.
fn slot<'s, 'r, T>(slots: &'s mut Slots<'r, T>, field: &'r Field, new: impl FnOnce() -> T) -> Option<&'s mut T> {
    let position = slots.iter().position(|(f, _)| *f == field).unwrap_or_else(|| {
        slots.push((field, new()));
        slots.len() - 1
    });
    slots.get_mut(position).map(|(_, structure)| structure)
}

fn add_values(map: Option<&mut HashMap<String, Vec<RuleId>>>, values: Vec<std::borrow::Cow<'_, str>>, id: RuleId) {
    let Some(map) = map else { return };
    for value in values {
        map.entry(value.into_owned()).or_default().push(id);
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
            IndexKind::Patterns(set) => set.lookup(text, out),
        }
    }
}
