//! The index as a binary bundle stores it: built once by `hookc compile`, read in place by each
//! call, so a call pays for the rules it can reach and never for the whole set.
//!
//! The compiler writes what [`super::EventIndex`] would build, in sections of the bundle's
//! payload (the bundle verifies every byte read from them, see `crate::bundle`):
//!
//! - `bodies`: each rule's JSON, back to back; `body_offsets`: `n + 1` little-endian `u64`
//!   offsets into it, so rule `i` is `bodies[offsets[i]..offsets[i + 1]]`;
//! - `entries`: `[[event, key], …]` as JSON, read only to rebuild the index (another release's
//!   bundle, another case rule) or to export the bundle as JSON;
//! - `postings`: lists of rule ids, little-endian `u32`, ascending;
//! - `slots`: one open-addressing hash table for every exact, prefix and contained-text key of
//!   every event and field: 16-byte slots of `(hash: u64, first posting: u32, count: u32)`, a
//!   count of 0 marking an empty slot, probed linearly from `hash & (capacity - 1)`;
//! - `patterns`: the globs and regexes no text key could stand for, per field, as JSON, built
//!   into a set the first time a call reads that field.
//!
//! Only hashes are stored, not the texts: two texts with one hash add candidates that are then
//! tried and do not fire, so a collision can cost time but never drop a rule. The hash is
//! polynomial, so the texts of one length contained in a field are hashed in one rolling pass
//! ([`for_each_inner`]): a lookup costs the field's length times the number of distinct key
//! lengths, whatever the number of rules. The [`Layout`] (the sections, and per event its rule
//! lists and per field how it is keyed) is small and travels in the bundle's header.

use super::pattern_set::{PatternSet, StoredPatterns};
use super::{DecisionTable, EventIndex, FieldTexts, Fields, IndexKind, OwnedKey, RuleId};
use crate::ir::Rule;
use crate::paths::PathCase;
use crate::vocab::{EventKind, Field};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// The version of this index layout. A bundle whose index has another version, or that another
/// hookc release wrote, has its index rebuilt from its `entries` rather than trusted.
pub(crate) const INDEX_VERSION: u32 = 1;

/// Verified bytes of a bundle's payload. Each read is checked against the bundle's digests
/// before it is returned; an error means the bytes could not be read or did not verify.
pub(crate) trait Store: Send + Sync + std::fmt::Debug {
    /// `len` bytes at `offset` of the payload.
    fn read(&self, offset: u64, len: u64) -> Result<Vec<u8>, String>;
    /// The payload's length.
    fn len(&self) -> u64;
}

/// A byte range of the payload: `[offset, length]`.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Span(pub u64, pub u64);

/// A list of rule ids in `postings`: `[first, count]`, in ids.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct List(pub u32, pub u32);

/// Where everything is: stored in the bundle's header.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Layout {
    /// [`INDEX_VERSION`] when written.
    pub index: u32,
    /// The case rule the path keys were folded with.
    pub case: PathCase,
    /// How many rules.
    pub rules: u32,
    /// The sections.
    pub bodies: Span,
    /// `n + 1` offsets into `bodies`.
    pub body_offsets: Span,
    /// `[[event, key], …]` JSON.
    pub entries: Span,
    /// Rule id lists.
    pub postings: Span,
    /// The hash table.
    pub slots: Span,
    /// The hash table's capacity (a power of two).
    pub capacity: u64,
    /// Per event with rules: its lists and keyed fields.
    pub events: Vec<EventLayout>,
}

/// One event's part of the index.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct EventLayout {
    /// The event.
    pub event: EventKind,
    /// Every rule of the event.
    pub all: List,
    /// Rules with no key: always candidates.
    pub unindexed: List,
    /// The keyed fields.
    pub fields: Vec<FieldLayout>,
}

/// How one field of an event is keyed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct FieldLayout {
    /// The field.
    pub field: Field,
    /// Its keys.
    pub keys: FieldKeys,
}

/// One field's keys: texts hashed under `tag` in the table, or patterns.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum FieldKeys {
    /// The field equals a key.
    Exact {
        /// The table tag.
        tag: u32,
    },
    /// The field starts with a key of one of these lengths (bytes).
    Prefix {
        /// The table tag.
        tag: u32,
        /// The key lengths, ascending.
        lengths: Vec<u32>,
    },
    /// The field contains a key of one of these lengths.
    Inner {
        /// The table tag.
        tag: u32,
        /// The key lengths, ascending.
        lengths: Vec<u32>,
    },
    /// Globs or regexes, as JSON in this span.
    Patterns(Span),
}

/// The rules and index of a binary bundle, read in place.
pub(crate) struct Stored {
    store: Arc<dyn Store>,
    layout: Layout,
    /// The rules decoded so far.
    decoded: elsa::sync::FrozenMap<RuleId, Box<Decoded>>,
    /// The pattern sets built so far, by their span's offset.
    patterns: elsa::sync::FrozenMap<u64, Box<Option<PatternSet>>>,
    /// Whether every rule of an event is a candidate: the index was folded by another case
    /// rule than the one paths are read with, and could not be rebuilt.
    pub(crate) exhaustive: bool,
    /// Whether the slot table's capacity is a power of two that fills its section (checked once).
    table_sound: bool,
}

struct Decoded {
    rule: Result<Rule, String>,
    reads_file: OnceLock<bool>,
}

impl std::fmt::Debug for Stored {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Stored")
            .field("store", &self.store)
            .field("layout", &self.layout)
            .finish_non_exhaustive()
    }
}

impl Clone for Stored {
    fn clone(&self) -> Self {
        Stored { exhaustive: self.exhaustive, ..Stored::new(Arc::clone(&self.store), self.layout.clone()) }
    }
}

impl Stored {
    pub(crate) fn new(store: Arc<dyn Store>, layout: Layout) -> Stored {
        let capacity = layout.capacity;
        let table_sound =
            capacity != 0 && capacity.is_power_of_two() && capacity.saturating_mul(SLOT) == layout.slots.1;
        Stored {
            store,
            layout,
            decoded: elsa::sync::FrozenMap::new(),
            patterns: elsa::sync::FrozenMap::new(),
            exhaustive: false,
            table_sound,
        }
    }

    pub(crate) fn case(&self) -> PathCase {
        self.layout.case
    }

    pub(crate) fn len(&self) -> usize {
        self.layout.rules as usize
    }

    /// Reads and verifies every byte of the payload.
    pub(crate) fn verify(&self) -> Result<(), String> {
        let total = self.store.len();
        let mut at = 0;
        while at < total {
            let len = (total - at).min(1 << 20);
            self.store.read(at, len)?;
            at += len;
        }
        Ok(())
    }

    fn decoded(&self, id: RuleId) -> Result<&Decoded, String> {
        if let Some(found) = self.decoded.get(&id) {
            return Ok(found);
        }
        let body = self.body(id)?;
        let rule = serde_json::from_slice(&body).map_err(|error| error.to_string());
        Ok(self.decoded.insert(id, Box::new(Decoded { rule, reads_file: OnceLock::new() })))
    }

    pub(crate) fn rule(&self, id: RuleId) -> Result<&Rule, String> {
        self.decoded(id)?.rule.as_ref().map_err(Clone::clone)
    }

    pub(crate) fn reads_file(&self, id: RuleId, rule: &Rule) -> bool {
        match self.decoded(id) {
            Ok(decoded) => *decoded.reads_file.get_or_init(|| rule.condition.reads_file()),
            Err(_) => rule.condition.reads_file(),
        }
    }

    /// Rule `id`'s JSON, as stored.
    pub(crate) fn body(&self, id: RuleId) -> Result<Vec<u8>, String> {
        if id >= self.layout.rules {
            return Err(format!("no rule #{id}"));
        }
        let offsets = self.read_in(self.layout.body_offsets, u64::from(id) * 8, 16)?;
        let (start, end) = (le_u64(&offsets, 0), le_u64(&offsets, 8));
        if end < start {
            return Err(format!("rule #{id}'s offsets are out of order"));
        }
        self.read_in(self.layout.bodies, start, end - start)
    }

    /// The stored `[[event, key], …]`, with each body: what rebuilding the index or exporting
    /// the bundle needs.
    pub(crate) fn entries(&self) -> Result<Vec<StoredEntry>, String> {
        let entries = self.read_in(self.layout.entries, 0, self.layout.entries.1)?;
        let entries: Vec<(EventKind, serde_json::Value)> =
            serde_json::from_slice(&entries).map_err(|error| format!("the stored entries are invalid: {error}"))?;
        if entries.len() != self.len() {
            return Err("the stored entries do not match the rules".to_string());
        }
        (0..self.layout.rules)
            .zip(entries)
            .map(|(id, (event, key))| {
                let body = String::from_utf8(self.body(id)?).map_err(|error| error.to_string())?;
                let body = serde_json::value::RawValue::from_string(body).map_err(|error| error.to_string())?;
                Ok((event, key, body))
            })
            .collect()
    }

    fn event(&self, event: EventKind) -> Option<&EventLayout> {
        self.layout.events.iter().find(|layout| layout.event == event)
    }

    pub(crate) fn count_of(&self, event: EventKind) -> usize {
        self.event(event).map_or(0, |layout| layout.all.1 as usize)
    }

    pub(crate) fn rules_of(&self, event: EventKind) -> Result<Vec<RuleId>, String> {
        self.event(event).map_or(Ok(Vec::new()), |layout| self.list(layout.all))
    }

    pub(crate) fn candidates_of(
        &self,
        event: EventKind,
        view: &impl FieldTexts,
        which: Fields,
    ) -> Result<Vec<RuleId>, String> {
        let Some(layout) = self.event(event) else { return Ok(Vec::new()) };
        super::gather(
            layout.fields.iter().map(|field| (&field.field, &field.keys)),
            || self.list(layout.unindexed),
            view,
            which,
            |keys, text, out| self.lookup(keys, layout.all, text, out),
        )
    }

    fn lookup(&self, keys: &FieldKeys, all: List, text: &str, out: &mut Vec<RuleId>) -> Result<(), String> {
        let bytes = text.as_bytes();
        match keys {
            FieldKeys::Exact { tag } => self.probe(slot_hash(*tag, bytes.len(), poly(bytes)), out),
            FieldKeys::Prefix { tag, lengths } => {
                let mut hash = 0;
                let mut done = 0;
                for &length in lengths.iter().take_while(|&&length| length as usize <= bytes.len()) {
                    hash = bytes.get(done..length as usize).unwrap_or_default().iter().fold(hash, step);
                    done = length as usize;
                    self.probe(slot_hash(*tag, done, hash), out)?;
                }
                Ok(())
            }
            // A long text against many key lengths would take one probe per byte and length:
            // past a bound, every rule of the event is a candidate instead (tried, none missed).
            FieldKeys::Inner { lengths, .. } if bytes.len().saturating_mul(lengths.len()) > MAX_INNER_PROBES => {
                out.extend(self.list(all)?);
                Ok(())
            }
            FieldKeys::Inner { tag, lengths } => {
                let mut result = Ok(());
                for &length in lengths {
                    for_each_inner(bytes, length as usize, |hash| {
                        if result.is_ok() {
                            result = self.probe(slot_hash(*tag, length as usize, hash), out);
                        }
                    });
                }
                result
            }
            FieldKeys::Patterns(span) => {
                let set = match self.patterns.get(&span.0) {
                    Some(set) => set,
                    None => {
                        let json = self.store.read(span.0, span.1)?;
                        let set = serde_json::from_slice::<StoredPatterns>(&json).ok().map(PatternSet::from_stored);
                        self.patterns.insert(span.0, Box::new(set))
                    }
                };
                match set {
                    Some(set) => set.lookup(text, out),
                    None => return Err("the bundle's stored patterns are invalid".to_string()),
                }
                Ok(())
            }
        }
    }

    /// Adds the postings of every slot holding `hash`.
    fn probe(&self, hash: u64, out: &mut Vec<RuleId>) -> Result<(), String> {
        let capacity = self.layout.capacity;
        if !self.table_sound {
            return Err("the bundle's index table is malformed".to_string());
        }
        let mut at = hash & (capacity - 1);
        for _ in 0..capacity {
            let slot = self.read_in(self.layout.slots, at * SLOT, SLOT)?;
            let (found, first, count) = (le_u64(&slot, 0), le_u32(&slot, 8), le_u32(&slot, 12));
            if count == 0 {
                return Ok(());
            }
            if found == hash {
                out.extend(self.list(List(first, count))?);
            }
            at = (at + 1) & (capacity - 1);
        }
        Ok(())
    }

    fn list(&self, list: List) -> Result<Vec<RuleId>, String> {
        let bytes = self.read_in(self.layout.postings, u64::from(list.0) * 4, u64::from(list.1) * 4)?;
        let ids: Vec<RuleId> = bytes.chunks_exact(4).map(|id| le_u32(id, 0)).collect();
        match ids.iter().all(|&id| id < self.layout.rules) {
            true => Ok(ids),
            false => Err("the bundle's index names a rule it does not hold".to_string()),
        }
    }

    /// `len` bytes at `offset` within `section`.
    fn read_in(&self, section: Span, offset: u64, len: u64) -> Result<Vec<u8>, String> {
        match offset.checked_add(len) {
            Some(end) if end <= section.1 => match section.0.checked_add(offset) {
                Some(at) => self.store.read(at, len),
                None => Err("the bundle's index points outside its section".to_string()),
            },
            _ => Err("the bundle's index points outside its section".to_string()),
        }
    }
}

const SLOT: u64 = 16;

/// The most probes one contained-text lookup makes (the text's length times the number of key
/// lengths) before it gives up narrowing.
const MAX_INNER_PROBES: usize = 1 << 18;

/// A rule as stored: its event, its key as JSON (another release's may not read), its body.
pub(crate) type StoredEntry = (EventKind, serde_json::Value, Box<serde_json::value::RawValue>);

fn le_u64(bytes: &[u8], at: usize) -> u64 {
    bytes.get(at..at + 8).and_then(|b| b.try_into().ok()).map_or(0, u64::from_le_bytes)
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    bytes.get(at..at + 4).and_then(|b| b.try_into().ok()).map_or(0, u32::from_le_bytes)
}

/// The polynomial hash's base (the 64-bit FNV prime: odd, so every power is invertible).
const BASE: u64 = 0x0000_0100_0000_01b3;

fn step(hash: u64, byte: &u8) -> u64 {
    hash.wrapping_mul(BASE).wrapping_add(u64::from(*byte) + 1)
}

/// The polynomial hash of a text: `Σ (b_i + 1) · BASE^(n-1-i)`, mod 2^64.
fn poly(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, step)
}

/// Calls `each` with the hash of every `length`-byte window of `bytes`, rolling.
fn for_each_inner(bytes: &[u8], length: usize, mut each: impl FnMut(u64)) {
    if length == 0 || length > bytes.len() {
        return;
    }
    let top = (1..length).fold(1u64, |power, _| power.wrapping_mul(BASE));
    let mut hash = poly(bytes.get(..length).unwrap_or_default());
    each(hash);
    for (old, new) in bytes.iter().zip(bytes.iter().skip(length)) {
        hash = step(hash.wrapping_sub((u64::from(*old) + 1).wrapping_mul(top)), new);
        each(hash);
    }
}

/// A slot's hash: the text's hash mixed with its length and the field's tag (splitmix64's
/// finaliser), so one table serves every field.
fn slot_hash(tag: u32, length: usize, text: u64) -> u64 {
    let mut hash = text ^ (length as u64).rotate_left(32) ^ u64::from(tag).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    hash = (hash ^ (hash >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    hash = (hash ^ (hash >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    hash ^ (hash >> 31)
}

/// A built table's payload sections and the layout that finds them, at `base` in the payload.
pub(crate) struct Encoded {
    pub(crate) layout: Layout,
    pub(crate) payload: Vec<u8>,
}

/// Encodes a built table: its rules, keys and index.
pub(super) fn encode(table: &DecisionTable, events: &[EventIndex], entries: &[super::Part]) -> Result<Encoded, String> {
    let too_big = |what: &str| format!("the bundle's {what} exceed 4 GiB");
    let mut payload = Vec::new();
    let section = |payload: &mut Vec<u8>, bytes: &[u8]| {
        let span = Span(payload.len() as u64, bytes.len() as u64);
        payload.extend_from_slice(bytes);
        span
    };
    // Bodies and their offsets.
    let mut bodies = Vec::new();
    let mut offsets = Vec::with_capacity((entries.len() + 1) * 8);
    for (_, _, body) in entries {
        offsets.extend_from_slice(&(bodies.len() as u64).to_le_bytes());
        bodies.extend_from_slice(body.get().as_bytes());
    }
    offsets.extend_from_slice(&(bodies.len() as u64).to_le_bytes());
    let keys: Vec<(EventKind, &Option<OwnedKey>)> = entries.iter().map(|(event, key, _)| (*event, key)).collect();
    let keys = serde_json::to_vec(&keys).map_err(|error| error.to_string())?;
    let bodies_span = section(&mut payload, &bodies);
    let offsets_span = section(&mut payload, &offsets);
    let entries_span = section(&mut payload, &keys);
    // The index: postings, the table's entries, and each event's layout.
    let mut postings: Vec<u8> = Vec::new();
    let push_list = |postings: &mut Vec<u8>, ids: &[RuleId]| -> Result<List, String> {
        let first = u32::try_from(postings.len() / 4).map_err(|_| too_big("postings"))?;
        ids.iter().for_each(|id| postings.extend_from_slice(&id.to_le_bytes()));
        Ok(List(first, u32::try_from(ids.len()).map_err(|_| too_big("postings"))?))
    };
    let mut table_entries: Vec<(u64, List)> = Vec::new();
    let mut pattern_sets: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    let mut layouts = Vec::new();
    let mut tag = 0u32;
    for (position, index) in events.iter().enumerate() {
        if index.all.is_empty() {
            continue;
        }
        let event = EventKind::ALL.get(position).copied().ok_or("an event out of range")?;
        let all = push_list(&mut postings, &index.all)?;
        let unindexed = push_list(&mut postings, &index.unindexed)?;
        let mut fields = Vec::new();
        for (at, field_index) in index.indexes.iter().enumerate() {
            tag += 1;
            let mut add = |text: &str, ids: &[RuleId], postings: &mut Vec<u8>| -> Result<(), String> {
                let list = push_list(postings, ids)?;
                table_entries.push((slot_hash(tag, text.len(), poly(text.as_bytes())), list));
                Ok(())
            };
            let keys = match &field_index.kind {
                IndexKind::Exact(map) => {
                    for (text, ids) in sorted(map) {
                        add(text, ids, &mut postings)?;
                    }
                    FieldKeys::Exact { tag }
                }
                IndexKind::Prefix { by_prefix, lengths } => {
                    for (text, ids) in sorted(by_prefix) {
                        add(text, ids, &mut postings)?;
                    }
                    FieldKeys::Prefix { tag, lengths: lengths_of(lengths.iter().copied())? }
                }
                IndexKind::Inner(inner) => {
                    for (text, ids) in inner.texts.iter().zip(&inner.owners) {
                        add(text, ids, &mut postings)?;
                    }
                    let mut lengths: Vec<usize> = inner.texts.iter().map(String::len).collect();
                    lengths.sort_unstable();
                    lengths.dedup();
                    FieldKeys::Inner { tag, lengths: lengths_of(lengths.into_iter())? }
                }
                IndexKind::Patterns(set) => {
                    let json = serde_json::to_vec(&set.to_stored()).map_err(|error| error.to_string())?;
                    pattern_sets.push((layouts.len(), at, json));
                    FieldKeys::Patterns(Span::default())
                }
            };
            fields.push(FieldLayout { field: field_index.field.clone(), keys });
        }
        layouts.push(EventLayout { event, all, unindexed, fields });
    }
    let postings_span = section(&mut payload, &postings);
    // The table: twice the entries, rounded up to a power of two, so probes stay short.
    let capacity = (table_entries.len() * 2).max(8).next_power_of_two() as u64;
    let mut slots = vec![0u8; usize::try_from(capacity * SLOT).map_err(|_| too_big("index"))?];
    for (hash, list) in table_entries {
        let mut at = hash & (capacity - 1);
        loop {
            let start = usize::try_from(at * SLOT).map_err(|_| too_big("index"))?;
            let slot = slots.get_mut(start..start + SLOT as usize).ok_or("a slot out of range")?;
            if le_u32(slot, 12) == 0 {
                let bytes = [hash.to_le_bytes().as_slice(), &list.0.to_le_bytes(), &list.1.to_le_bytes()].concat();
                slot.copy_from_slice(&bytes);
                break;
            }
            at = (at + 1) & (capacity - 1);
        }
    }
    let slots_span = section(&mut payload, &slots);
    for (event, field, json) in pattern_sets {
        let span = section(&mut payload, &json);
        if let Some(FieldLayout { keys, .. }) = layouts.get_mut(event).and_then(|layout| layout.fields.get_mut(field)) {
            *keys = FieldKeys::Patterns(span);
        }
    }
    let layout = Layout {
        index: INDEX_VERSION,
        case: table.paths.case,
        rules: u32::try_from(entries.len()).map_err(|_| too_big("rules"))?,
        bodies: bodies_span,
        body_offsets: offsets_span,
        entries: entries_span,
        postings: postings_span,
        slots: slots_span,
        capacity,
        events: layouts,
    };
    Ok(Encoded { layout, payload })
}

/// A map's entries in key order, so one table always encodes to the same bytes.
fn sorted<V>(map: &rustc_hash::FxHashMap<String, V>) -> Vec<(&String, &V)> {
    let mut entries: Vec<_> = map.iter().collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    entries
}

fn lengths_of(lengths: impl Iterator<Item = usize>) -> Result<Vec<u32>, String> {
    lengths.map(|length| u32::try_from(length).map_err(|_| "a key over 4 GiB".to_string())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rolling hash of every window equals the hash of the window itself.
    #[test]
    fn rolling_windows_hash_as_the_window_does() {
        let text = b"rm -rf ~/cmd42 && echo tool7 done";
        for length in 1..=text.len() {
            let mut rolled = Vec::new();
            for_each_inner(text, length, |hash| rolled.push(hash));
            let direct: Vec<u64> = text.windows(length).map(poly).collect();
            assert_eq!(rolled, direct, "windows of {length}");
        }
    }
}
