//! Many globs or regexes on one field, matched in one pass (a `GlobSet`, a multi-pattern meta
//! regex) and built the first time a request reads that field: a process that answers one hook
//! call builds only the sets that call needs.

use super::RuleId;
use crate::paths::PathCase;
use std::sync::OnceLock;

/// The patterns of one field's set, with the rule each belongs to.
#[derive(Debug, Clone)]
pub(super) struct PatternSet {
    sources: Sources,
    /// `owners[i]` is the rule of pattern `i`.
    owners: Vec<RuleId>,
    /// Whether the patterns match case-insensitively (path fields of a case-insensitive policy).
    case: PathCase,
    built: OnceLock<Option<Matcher>>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Sources {
    /// Globs with their path mode.
    Globs(Vec<(String, bool)>),
    /// Regexes, flags inline.
    Regexes(Vec<String>),
}

/// A pattern set's stored form: its patterns, their rules and the case rule.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(super) struct StoredPatterns {
    sources: Sources,
    owners: Vec<RuleId>,
    case: PathCase,
}

#[derive(Debug, Clone)]
enum Matcher {
    Globs(globset::GlobSet),
    /// Sets of at most [`SET_CHUNK`] regexes, each within [`SET_BYTES`], with the position of
    /// their first pattern; and the patterns no set could hold (always candidates: their rule
    /// is tried, and a pattern that does not compile fails the call that reaches it).
    Regexes {
        sets: Vec<(usize, crate::pattern::Compiled)>,
        loose: Vec<usize>,
    },
}

/// At most this many regexes share one set: a set of thousands builds slowly and can
/// thrash its lazy DFA; a few sets of this size match in a few passes.
const SET_CHUNK: usize = 256;

/// The most one set may compile to; a chunk over it is split in two.
const SET_BYTES: usize = 32 << 20;

/// A failing chunk this small is not split further: its regexes are tried one by one.
const MIN_SPLIT: usize = 32;

impl PatternSet {
    /// An empty glob set.
    pub(super) fn globs(case: PathCase) -> Self {
        PatternSet { sources: Sources::Globs(Vec::new()), owners: Vec::new(), case, built: OnceLock::new() }
    }

    /// An empty regex set.
    pub(super) fn regexes(case: PathCase) -> Self {
        PatternSet { sources: Sources::Regexes(Vec::new()), owners: Vec::new(), case, built: OnceLock::new() }
    }

    /// The set as a binary bundle stores it (built again when a call first reads its field).
    pub(super) fn to_stored(&self) -> StoredPatterns {
        StoredPatterns { sources: self.sources.clone(), owners: self.owners.clone(), case: self.case }
    }

    /// A set from its stored form.
    pub(super) fn from_stored(stored: StoredPatterns) -> PatternSet {
        PatternSet { sources: stored.sources, owners: stored.owners, case: stored.case, built: OnceLock::new() }
    }

    /// Adds a glob of rule `id`.
    pub(super) fn add_glob(&mut self, pattern: &str, path_mode: bool, id: RuleId) {
        if let Sources::Globs(globs) = &mut self.sources {
            globs.push((pattern.to_string(), path_mode));
            self.owners.push(id);
        }
    }

    /// Adds a regex (flags inline) of rule `id`.
    pub(super) fn add_regex(&mut self, source: String, id: RuleId) {
        if let Sources::Regexes(regexes) = &mut self.sources {
            regexes.push(source);
            self.owners.push(id);
        }
    }

    /// Adds the rules whose pattern matches `text`. A regex no set can hold, and every glob of a
    /// glob set that cannot be built, is a candidate: the index may only narrow what is tried,
    /// never drop a rule.
    pub(super) fn lookup(&self, text: &str, out: &mut Vec<RuleId>) {
        match self.built.get_or_init(|| self.build()) {
            Some(Matcher::Globs(set)) => out.extend(set.matches(text).into_iter().filter_map(|at| self.owners.get(at))),
            Some(Matcher::Regexes { sets, loose }) => {
                for (first, set) in sets {
                    let mut found = regex_automata::PatternSet::new(set.pattern_len());
                    set.which_overlapping_matches(&regex_automata::Input::new(text), &mut found);
                    out.extend(found.iter().filter_map(|at| self.owners.get(first + at.as_usize())));
                }
                out.extend(loose.iter().filter_map(|at| self.owners.get(*at)));
            }
            None => out.extend(&self.owners),
        }
    }

    /// Builds one set of the regexes in `range`; if it cannot be built within [`SET_BYTES`]
    /// (some of them compile large: `hookc check` warns of those), two of its halves, down to
    /// chunks of [`MIN_SPLIT`]; what still cannot be built is loose: each is tried as its rule
    /// is, within the call's compile budget.
    fn build_regexes(
        &self,
        regexes: &[String],
        range: std::ops::Range<usize>,
        sets: &mut Vec<(usize, crate::pattern::Compiled)>,
        loose: &mut Vec<usize>,
    ) {
        let Some(patterns) = regexes.get(range.clone()) else { return };
        // Past the call's compile budget, building (and splitting) stops: the rest are loose,
        // and the first one tried fails the call, saying why.
        if crate::pattern::over_budget().is_some() {
            loose.extend(range);
            return;
        }
        let patterns: Vec<&str> = patterns.iter().map(String::as_str).collect();
        match crate::pattern::build(&patterns, true, self.case == PathCase::Insensitive, SET_BYTES) {
            Ok(set) => {
                crate::pattern::charge(&set);
                sets.push((range.start, set));
            }
            Err(_) if range.len() <= MIN_SPLIT => loose.extend(range),
            Err(_) => {
                let middle = range.start + range.len() / 2;
                self.build_regexes(regexes, range.start..middle, sets, loose);
                self.build_regexes(regexes, middle..range.end, sets, loose);
            }
        }
    }

    fn build(&self) -> Option<Matcher> {
        match &self.sources {
            Sources::Globs(globs) => {
                let mut builder = globset::GlobSetBuilder::new();
                for (pattern, path_mode) in globs {
                    builder.add(crate::ir::Globs::glob_for(pattern, *path_mode, self.case).ok()?);
                }
                builder.build().ok().map(Matcher::Globs)
            }
            Sources::Regexes(regexes) => {
                let (mut sets, mut loose) = (Vec::new(), Vec::new());
                for first in (0..regexes.len()).step_by(SET_CHUNK) {
                    let end = (first + SET_CHUNK).min(regexes.len());
                    self.build_regexes(regexes, first..end, &mut sets, &mut loose);
                }
                Some(Matcher::Regexes { sets, loose })
            }
        }
    }
}
