//! Stage 3: checked rules → [`DecisionTable`], indexed so that a request pays for the rules that
//! can match it, not for the whole set.
//!
//! Each rule gets at most one *key*: a conjunct of its condition that must hold for it to fire
//! (`tool == Bash`, `path in [...]`, `command starts_with "rm"`, `path like "**/*.pem"`,
//! `command matches /…/`, `runs rm`, which is keyed on `programs`, as Codex's execpolicy keys
//! on `argv[0]`). Keys on one field share one structure: a hash map for equality and
//! prefixes, a `GlobSet` for globs, a `RegexSet` for regexes, each matched in one pass. A rule
//! with no key is always a candidate. The key chosen is the cheapest: an equality whose value
//! few rules share, otherwise a set-matched pattern. Compiling cannot fail: a structure that
//! cannot be built (a `RegexSet` over its size limit) leaves its rules unindexed instead.
//!
//! A binary bundle stores the same index ([`stored`]): a hook call reads its hashed slots and
//! postings in place instead of building these structures, and builds only the pattern sets of
//! the fields it reads.

mod key;
mod pattern_set;
pub(crate) mod stored;

use crate::ir::Rule;
use crate::paths::{PathCase, PathSettings};
use crate::vocab::{EventKind, Field};
pub(crate) use key::OwnedKey;
use key::{choose_keys, Key};
use pattern_set::PatternSet;
use serde_json::value::RawValue;
// Index keys come from rules, not from events; a fast hash suits short keys looked up per call.
use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

/// Rule ids are positions in the table, in evaluation order.
pub(crate) type RuleId = u32;

/// A rule as a bundle stores it: its event, its index key (if any) and its body.
pub(crate) type Part = (EventKind, Option<OwnedKey>, Box<RawValue>);

/// The compiled, indexed rule set: built in memory (from rules, or from a JSON bundle), or read
/// in place from a binary bundle ([`stored`]).
#[derive(Debug, Clone)]
pub(crate) struct DecisionTable {
    rules: Rules,
    paths: PathSettings,
    /// The waivers, judged when a rule fires (they change no index).
    waivers: std::sync::Arc<[crate::ir::Waiver]>,
    /// The secret value shapes redacted from what hookc writes.
    redaction: Option<crate::redact::Redaction>,
}

#[derive(Debug, Clone)]
enum Rules {
    Built { entries: Vec<Entry>, events: Box<[EventIndex; EventKind::COUNT]> },
    Stored(Box<stored::Stored>),
}

/// One rule as the table holds it: its event and index key — all that building the index
/// needs — and its body, which a table loaded from a bundle decodes the first time the rule is
/// tried, so a process answering one hook call decodes only the rules that call can reach.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// The rule's event.
    pub event: EventKind,
    /// The rule's index key, if it has one.
    pub key: Option<OwnedKey>,
    body: Body,
    /// Whether the rule's condition reads the file of a reading (`path`, `access`), found the
    /// first time it is asked.
    reads_file: OnceLock<bool>,
}

#[derive(Debug, Clone)]
enum Body {
    Decoded(Rule),
    Raw { json: Box<RawValue>, decoded: OnceLock<Result<Rule, String>> },
}

impl Entry {
    /// An entry whose body is the rule's JSON, decoded on first use.
    pub(crate) fn raw(event: EventKind, key: Option<OwnedKey>, json: Box<RawValue>) -> Entry {
        Entry { event, key, body: Body::Raw { json, decoded: OnceLock::new() }, reads_file: OnceLock::new() }
    }

    /// The rule, decoding it the first time.
    pub(crate) fn rule(&self) -> Result<&Rule, String> {
        match &self.body {
            Body::Decoded(rule) => Ok(rule),
            Body::Raw { json, decoded } => decoded
                .get_or_init(|| serde_json::from_str(json.get()).map_err(|error| error.to_string()))
                .as_ref()
                .map_err(Clone::clone),
        }
    }

    /// The rule's JSON: as stored, or encoded now.
    pub(crate) fn json(&self) -> Result<Box<RawValue>, serde_json::Error> {
        match &self.body {
            Body::Raw { json, .. } => Ok(json.clone()),
            Body::Decoded(rule) => RawValue::from_string(serde_json::to_string(rule)?),
        }
    }
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
    /// Texts a pattern requires, found in one Aho–Corasick pass.
    Inner(InnerTexts),
}

/// The required texts of one field's keyed patterns; the automaton is built on first lookup.
#[derive(Debug, Clone, Default)]
struct InnerTexts {
    texts: Vec<String>,
    /// `owners[i]`: the rules requiring `texts[i]`.
    owners: Vec<Vec<RuleId>>,
    positions: HashMap<String, usize>,
    automaton: OnceLock<Option<aho_corasick::AhoCorasick>>,
}

impl InnerTexts {
    fn add(&mut self, text: String, id: RuleId) {
        let at = *self.positions.entry(text.clone()).or_insert_with(|| {
            self.texts.push(text);
            self.owners.push(Vec::new());
            self.owners.len() - 1
        });
        if let Some(owners) = self.owners.get_mut(at) {
            owners.push(id);
        }
    }

    /// The rules one of whose texts `text` contains. If the automaton cannot be built, every
    /// rule is a candidate: the index may only narrow what is tried, never drop a rule.
    fn lookup(&self, text: &str, out: &mut Vec<RuleId>) {
        let automaton = self.automaton.get_or_init(|| aho_corasick::AhoCorasick::new(&self.texts).ok());
        match automaton {
            Some(automaton) => {
                for found in automaton.find_overlapping_iter(text) {
                    out.extend(self.owners.get(found.pattern().as_usize()).into_iter().flatten());
                }
            }
            None => out.extend(self.owners.iter().flatten()),
        }
    }
}

impl DecisionTable {
    /// Builds the table from checked rules, choosing each rule's key. Rules keep their order;
    /// ids are their positions.
    pub(crate) fn new(rules: Vec<Rule>) -> DecisionTable {
        let keys: Vec<Option<OwnedKey>> =
            choose_keys(&rules).into_iter().map(|key| key.map(|key| key.to_owned_key())).collect();
        let entries = rules
            .into_iter()
            .zip(keys)
            .map(|(rule, key)| Entry { event: rule.event, key, body: Body::Decoded(rule), reads_file: OnceLock::new() })
            .collect();
        Self::from_entries(entries)
    }

    /// Builds the table from entries whose keys are already chosen (a loaded bundle).
    pub(crate) fn from_entries(entries: Vec<Entry>) -> DecisionTable {
        Self::from_entries_with(entries, PathSettings::default())
    }

    /// The table of a bundle's rules as stored: each rule's event, its key (`None` when this
    /// build cannot read it) and its body. Keys are the compiler's choice, not part of the
    /// format: unless `trust_keys` (the same release wrote them) and every key reads, they are
    /// chosen again from the rules.
    pub(crate) fn from_bundled(
        parts: Vec<(EventKind, Option<Option<OwnedKey>>, Box<RawValue>)>,
        trust_keys: bool,
    ) -> DecisionTable {
        if trust_keys && parts.iter().all(|(_, key, _)| key.is_some()) {
            return Self::from_entries(
                parts.into_iter().map(|(event, key, body)| Entry::raw(event, key.flatten(), body)).collect(),
            );
        }
        match parts.iter().map(|(_, _, body)| serde_json::from_str(body.get())).collect() {
            Ok(rules) => DecisionTable::new(rules),
            // A rule that does not decode fails the call that reaches it; without keys every
            // rule is a candidate.
            Err(_) => DecisionTable::from_entries(
                parts.into_iter().map(|(event, _, body)| Entry::raw(event, None, body)).collect(),
            ),
        }
    }

    /// The table of a binary bundle whose index this build can use, read in place.
    pub(crate) fn from_store(store: std::sync::Arc<dyn stored::Store>, layout: stored::Layout) -> DecisionTable {
        let stored = stored::Stored::new(store, layout);
        let paths = PathSettings { case: stored.case(), ..PathSettings::default() };
        DecisionTable { rules: Rules::Stored(Box::new(stored)), paths, waivers: Vec::new().into(), redaction: None }
            .with_path_settings(PathSettings::default())
    }

    /// The same rules, reading paths as `settings` say. The index depends only on the case
    /// rule: it is rebuilt when that changes, and kept otherwise.
    pub(crate) fn with_path_settings(self, settings: PathSettings) -> DecisionTable {
        if settings.case == self.paths.case {
            return DecisionTable { rules: self.rules, paths: settings, ..self };
        }
        let (waivers, redaction) = (self.waivers, self.redaction);
        let table = match self.rules {
            Rules::Built { entries, .. } => Self::from_entries_with(entries, settings),
            Rules::Stored(mut stored) => match Self::materialise(&stored) {
                Ok(built) => built.with_path_settings(settings),
                // The stored keys were folded by another case rule and cannot be read again:
                // every rule of the event is tried, so none is missed.
                Err(_) => {
                    stored.exhaustive = true;
                    DecisionTable {
                        rules: Rules::Stored(stored),
                        paths: settings,
                        waivers: Vec::new().into(),
                        redaction: None,
                    }
                }
            },
        };
        table.with_waivers(waivers).with_redaction(redaction)
    }

    /// A stored table's rules built in memory.
    fn materialise(stored: &stored::Stored) -> Result<DecisionTable, String> {
        let parts = stored
            .entries()?
            .into_iter()
            .map(|(event, key, body)| (event, serde_json::from_value(key).ok(), body))
            .collect();
        Ok(Self::from_bundled(parts, true))
    }

    /// The same table with these waivers.
    pub(crate) fn with_waivers(self, waivers: impl Into<std::sync::Arc<[crate::ir::Waiver]>>) -> DecisionTable {
        DecisionTable { waivers: waivers.into(), ..self }
    }

    /// The waivers, in source order.
    pub(crate) fn waivers(&self) -> &[crate::ir::Waiver] {
        &self.waivers
    }

    /// The same table with this redaction.
    pub(crate) fn with_redaction(self, redaction: Option<crate::redact::Redaction>) -> DecisionTable {
        DecisionTable { redaction, ..self }
    }

    /// The secret value shapes redacted from what hookc writes, if the policy names them.
    pub(crate) fn redaction(&self) -> Option<&crate::redact::Redaction> {
        self.redaction.as_ref()
    }

    /// How the table reads the paths of events.
    pub(crate) fn path_settings(&self) -> &PathSettings {
        &self.paths
    }

    fn from_entries_with(entries: Vec<Entry>, paths: PathSettings) -> DecisionTable {
        let mut events: Box<[EventIndex; EventKind::COUNT]> = Box::default();
        let mut grouped: [Vec<(RuleId, Key<'_>)>; EventKind::COUNT] = Default::default();
        for (position, entry) in entries.iter().enumerate() {
            let id = RuleId::try_from(position).unwrap_or(RuleId::MAX);
            let index = entry.event.index();
            if let Some(event) = events.get_mut(index) {
                event.all.push(id);
                match (&entry.key, grouped.get_mut(index)) {
                    (Some(key), Some(keys)) => keys.push((id, key.as_key())),
                    _ => event.unindexed.push(id),
                }
            }
        }
        for (event, keys) in events.iter_mut().zip(grouped) {
            event.build(keys, paths.case);
        }
        DecisionTable { rules: Rules::Built { entries, events }, paths, waivers: Vec::new().into(), redaction: None }
    }

    /// Every rule's event, key and body, in order: what a bundle stores. A stored key this
    /// build cannot read is `None` (the rule is then always a candidate).
    pub(crate) fn parts(&self) -> Result<Vec<Part>, String> {
        match &self.rules {
            Rules::Built { entries, .. } => entries
                .iter()
                .map(|entry| Ok((entry.event, entry.key.clone(), entry.json().map_err(|error| error.to_string())?)))
                .collect(),
            Rules::Stored(stored) => Ok(stored
                .entries()?
                .into_iter()
                .map(|(event, key, body)| (event, serde_json::from_value(key).ok(), body))
                .collect()),
        }
    }

    /// The table's rules, keys and index as a binary bundle's payload stores them.
    pub(crate) fn encode(&self) -> Result<stored::Encoded, String> {
        match &self.rules {
            Rules::Built { events, .. } => stored::encode(self, events.as_slice(), &self.parts()?),
            Rules::Stored(stored) => Self::materialise(stored)?
                .with_path_settings(self.paths.clone())
                .with_waivers(std::sync::Arc::clone(&self.waivers))
                .encode(),
        }
    }

    /// Reads every rule, and every byte of a binary bundle (each block verified): `Err` names
    /// the first that cannot be read.
    pub(crate) fn verify(&self) -> Result<(), String> {
        if let Rules::Stored(stored) = &self.rules {
            stored.verify()?;
        }
        self.rules().map(|_| ())
    }

    /// How many rules the table holds.
    pub(crate) fn len(&self) -> usize {
        match &self.rules {
            Rules::Built { entries, .. } => entries.len(),
            Rules::Stored(stored) => stored.len(),
        }
    }

    /// One rule (decoded on first use); `Err` says why a bundled rule cannot be read.
    pub(crate) fn rule(&self, id: RuleId) -> Result<&Rule, String> {
        match &self.rules {
            Rules::Built { entries, .. } => {
                entries.get(id as usize).ok_or_else(|| format!("no rule #{id}")).and_then(Entry::rule)
            }
            Rules::Stored(stored) => stored.rule(id),
        }
    }

    /// Whether rule `id`'s condition reads the file of a reading (`path`, `access`): when it
    /// does not, every reading of a call gets the same answer from it.
    pub(crate) fn reads_file(&self, id: RuleId, rule: &Rule) -> bool {
        match &self.rules {
            Rules::Built { entries, .. } => match entries.get(id as usize) {
                Some(entry) => *entry.reads_file.get_or_init(|| rule.condition.reads_file()),
                None => rule.condition.reads_file(),
            },
            Rules::Stored(stored) => stored.reads_file(id, rule),
        }
    }

    /// Every rule, decoded, in evaluation order.
    pub(crate) fn rules(&self) -> Result<Vec<&Rule>, String> {
        (0..self.len()).map(|id| self.rule(RuleId::try_from(id).unwrap_or(RuleId::MAX))).collect()
    }

    /// How many rules are for an event.
    pub(crate) fn count_of(&self, event: EventKind) -> usize {
        match &self.rules {
            Rules::Built { events, .. } => events.get(event.index()).map_or(0, |index| index.all.len()),
            Rules::Stored(stored) => stored.count_of(event),
        }
    }

    /// Every rule of an event, in order.
    pub(crate) fn rules_of(&self, event: EventKind) -> Result<Vec<RuleId>, String> {
        match &self.rules {
            Rules::Built { events, .. } => Ok(events.get(event.index()).map_or(Vec::new(), |index| index.all.clone())),
            Rules::Stored(stored) => stored.rules_of(event),
        }
    }

    /// The rules of `event` that may fire for this view, in order. Every rule that fires is
    /// among them; some may still not fire. `Err` when a stored index cannot be read.
    pub(crate) fn candidates(&self, event: EventKind, view: &impl FieldTexts) -> Result<Vec<RuleId>, String> {
        self.candidates_of(event, view, Fields::All)
    }

    /// The candidates of `event` for `view` that the fields `which` lead to (the unindexed
    /// rules with the fields that are the same in every reading of a call): a call judged once
    /// per file reads the shared part once, and the per-file part per file.
    pub(crate) fn candidates_of(
        &self,
        event: EventKind,
        view: &impl FieldTexts,
        which: Fields,
    ) -> Result<Vec<RuleId>, String> {
        let events = match &self.rules {
            Rules::Built { events, .. } => events,
            Rules::Stored(stored) if stored.exhaustive => {
                return match which {
                    Fields::PerFile => Ok(Vec::new()),
                    _ => stored.rules_of(event),
                };
            }
            Rules::Stored(stored) => return stored.candidates_of(event, view, which),
        };
        let Some(index) = events.get(event.index()) else { return Ok(Vec::new()) };
        gather(
            index.indexes.iter().map(|field_index| (&field_index.field, &field_index.kind)),
            || Ok(index.unindexed.clone()),
            view,
            which,
            |kind, text, out| {
                kind.lookup(text, out);
                Ok(())
            },
        )
    }
}

/// The candidates of one event's index, built or stored: its rules with no key (unless only the
/// per-file fields are read), then the rules every text of every field `which` reads leads to
/// by `lookup`, in order, each once. The first lookup that fails fails the whole.
fn gather<'i, K: 'i>(
    fields: impl Iterator<Item = (&'i Field, &'i K)>,
    unindexed: impl FnOnce() -> Result<Vec<RuleId>, String>,
    view: &impl FieldTexts,
    which: Fields,
    mut lookup: impl FnMut(&K, &str, &mut Vec<RuleId>) -> Result<(), String>,
) -> Result<Vec<RuleId>, String> {
    let mut out = if which == Fields::PerFile { Vec::new() } else { unindexed()? };
    let mut failed = None;
    for (field, keys) in fields.filter(|(field, _)| which.reads(field)) {
        view.each_text(field, &mut |text| match lookup(keys, text, &mut out) {
            Ok(()) => false,
            Err(error) => {
                failed = Some(error);
                true
            }
        });
        if let Some(error) = failed.take() {
            return Err(error);
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// What the index asks of the event it finds candidates for: the texts of each field it is
/// keyed by. The index defines the interface and evaluation's view implements it (as globset's
/// `GlobSet` takes a `Candidate` of its own), so the index never depends on evaluation.
pub(crate) trait FieldTexts {
    /// Calls `each` with every text a lookup of `field` should try — a path's every spelling,
    /// folded as the host's file system folds a field that [`Field::folds_case`], a list's every
    /// element — and stops at the first `true`.
    fn each_text(&self, field: &Field, each: &mut dyn FnMut(&str) -> bool) -> bool;
}

/// Which indexed fields a candidate lookup reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fields {
    /// All of them.
    All,
    /// Those every reading of a call shares (all but `path` and `access`), and the unindexed
    /// rules.
    Shared,
    /// `path` and `access`, which differ per file.
    PerFile,
}

impl Fields {
    /// Whether a lookup of these fields reads `field`.
    fn reads(self, field: &Field) -> bool {
        let per_file = matches!(field, Field::Semantic(crate::vocab::Semantic::Path) | Field::Access);
        !((self == Fields::Shared && per_file) || (self == Fields::PerFile && !per_file))
    }
}

impl EventIndex {
    /// Builds the index; keys on path fields are folded as `case` says (lookups fold alike).
    fn build(&mut self, keys: Vec<(RuleId, Key<'_>)>, case: PathCase) {
        // One structure per (field, kind of key), in the order first seen.
        let mut exact: Slots<'_, HashMap<String, Vec<RuleId>>> = Vec::new();
        let mut prefix: Slots<'_, HashMap<String, Vec<RuleId>>> = Vec::new();
        let mut glob_sets: Slots<'_, PatternSet> = Vec::new();
        let mut regex_sets: Slots<'_, PatternSet> = Vec::new();
        let mut inner: Slots<'_, InnerTexts> = Vec::new();
        for (id, key) in keys {
            let case = |field: &Field| if field.folds_case() { case } else { PathCase::Sensitive };
            match key {
                Key::Exact(field, values) => {
                    add_values(slot(&mut exact, field, HashMap::default), values, case(field), id);
                }
                Key::Prefix(field, values) => {
                    add_values(slot(&mut prefix, field, HashMap::default), values, case(field), id);
                }
                Key::Glob(field, globs) => {
                    if let Some(set) = slot(&mut glob_sets, field, || PatternSet::globs(case(field))) {
                        globs.including().for_each(|glob| set.add_glob(glob, globs.path_mode, id));
                    }
                }
                Key::Regex(field, regex) => {
                    if let Some(set) = slot(&mut regex_sets, field, || PatternSet::regexes(case(field))) {
                        set.add_regex(regex.inline_source(), id);
                    }
                }
                Key::Inner(field, texts) => {
                    if let Some(inner) = slot(&mut inner, field, InnerTexts::default) {
                        texts.iter().for_each(|text| inner.add(case(field).fold(text).into_owned(), id));
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
        for (field, texts) in inner {
            self.indexes.push(FieldIndex { field: field.clone(), kind: IndexKind::Inner(texts) });
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

fn add_values(
    map: Option<&mut HashMap<String, Vec<RuleId>>>,
    values: Vec<std::borrow::Cow<'_, str>>,
    case: PathCase,
    id: RuleId,
) {
    let Some(map) = map else { return };
    for value in values {
        map.entry(case.fold(&value).into_owned()).or_default().push(id);
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
            IndexKind::Inner(texts) => texts.lookup(text, out),
        }
    }
}
