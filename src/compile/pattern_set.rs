//! Many globs or regexes on one field, matched in one pass (`GlobSet`, `RegexSet`) and built the
//! first time a request reads that field: a process that answers one hook call builds only the
//! sets that call needs.

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

#[derive(Debug, Clone)]
enum Sources {
    /// Globs with their path mode.
    Globs(Vec<(String, bool)>),
    /// Regexes, flags inline.
    Regexes(Vec<String>),
}

#[derive(Debug, Clone)]
enum Matcher {
    Globs(globset::GlobSet),
    Regexes(regex::RegexSet),
}

impl PatternSet {
    /// An empty glob set.
    pub(super) fn globs(case: PathCase) -> Self {
        PatternSet { sources: Sources::Globs(Vec::new()), owners: Vec::new(), case, built: OnceLock::new() }
    }

    /// An empty regex set.
    pub(super) fn regexes(case: PathCase) -> Self {
        PatternSet { sources: Sources::Regexes(Vec::new()), owners: Vec::new(), case, built: OnceLock::new() }
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

    /// Adds the rules whose pattern matches `text`. If the set cannot be built (a pattern this
    /// hookc cannot compile, or a set over the size limit), every rule of the set is a candidate:
    /// the index may only narrow what is tried, never drop a rule.
    pub(super) fn lookup(&self, text: &str, out: &mut Vec<RuleId>) {
        match self.built.get_or_init(|| self.build()) {
            Some(Matcher::Globs(set)) => out.extend(set.matches(text).into_iter().filter_map(|at| self.owners.get(at))),
            Some(Matcher::Regexes(set)) => {
                out.extend(set.matches(text).into_iter().filter_map(|at| self.owners.get(at)))
            }
            None => out.extend(&self.owners),
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
            Sources::Regexes(regexes) => regex::RegexSetBuilder::new(regexes)
                .case_insensitive(self.case == PathCase::Insensitive)
                .build()
                .ok()
                .map(Matcher::Regexes),
        }
    }
}
