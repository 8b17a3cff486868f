//! Patterns in rules: regexes and globs. Each serialises as its source and compiles once — at
//! check time for rule files, on first use for a bundle (whose digest already vouches that
//! `hookc compile` checked it), so loading a large bundle costs only what a request needs.
//! Also here: the literal prefix a pattern requires, which lets the index find a rule by hash
//! lookup instead of running its pattern.

use crate::paths::PathCase;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The flag letters a regex may carry.
pub(crate) const REGEX_FLAGS: &str = "imsxU";

/// The most a regex may compile to (the `regex` crate's own default): a bigger one is an error
/// in `hookc check`, and fails closed in a bundle, at once. Secret scanners' `\w{1,64}` is 3 MB
/// with Unicode classes (a few KB with ASCII ones), `\w{50}x\w{50}` 5 MB.
pub(crate) const MAX_REGEX_BYTES: usize = 10 << 20;

/// How long one hook call may spend compiling patterns before it fails closed: a few hundred
/// costly regexes took seconds per call, near the agent's timeout. Below 1 s, so that the whole
/// call, with the process start and the last compile that overruns it, ends within 1 s.
pub(crate) const COMPILE_BUDGET: std::time::Duration = std::time::Duration::from_millis(700);

/// How long `hookc check` spends sizing costly regexes (compiling each to learn whether it is
/// over [`MAX_REGEX_BYTES`]) before it only says they are costly.
pub(crate) const SIZING_BUDGET: std::time::Duration = std::time::Duration::from_millis(700);

/// How much one hook call's compiled patterns may weigh, all of them together (each is also
/// held to [`MAX_REGEX_BYTES`]): past it, compiling stops and the call fails closed. What is
/// counted is each compiled regex's and regex set's own heap and the search state it starts with
/// (regex-automata's `memory_usage` of the regex and of a new cache), not the process's: an
/// embedder's other threads may grow meanwhile, and are no pattern's doing. Not counted: what a
/// regex's lazy DFAs (forward and reverse) grow to as it searches, at most 2 MiB each, and glob
/// sets, which say nothing of their size (a glob compiles to a regex linear in its length, with
/// no counted repetition).
pub(crate) const COMPILE_MEMORY_BUDGET: u64 = 64 << 20;

/// A compiled regex, or a set of them: regex-automata's meta regex, which `regex::Regex` wraps,
/// built here with the same options (`build`) because it says what it weighs.
pub(crate) type Compiled = regex_automata::meta::Regex;

thread_local! {
    /// When compiling must stop on this thread, and what the patterns the call compiled weigh:
    /// set around one hook call's evaluation, which runs on one thread. A budget of the call's,
    /// like its deadline, rather than a parameter of every predicate and index lookup.
    static COMPILE_DEADLINE: std::cell::Cell<Option<(crate::clock::Instant, u64)>> =
        const { std::cell::Cell::new(None) };
}

/// Runs `work` with a deadline and a memory budget for compiling patterns on this thread: a
/// pattern not yet compiled when either is spent fails (and is not remembered as failed).
pub(crate) fn with_compile_budget<T>(budget: std::time::Duration, work: impl FnOnce() -> T) -> T {
    let set = (crate::clock::Instant::now() + budget, 0);
    let previous = COMPILE_DEADLINE.with(|deadline| deadline.replace(Some(set)));
    let result = work();
    COMPILE_DEADLINE.with(|deadline| deadline.set(previous));
    result
}

/// Why a pattern may not be compiled now: the thread's compile deadline has passed, or what the
/// call compiled weighs more than [`COMPILE_MEMORY_BUDGET`].
pub(crate) fn over_budget() -> Option<String> {
    let (deadline, weight) = COMPILE_DEADLINE.with(std::cell::Cell::get)?;
    if crate::clock::Instant::now() > deadline {
        return Some(format!(
            "this call spent more than {} s compiling the rules' patterns; `hookc check` names the costly ones (W0312)",
            COMPILE_BUDGET.as_secs_f64()
        ));
    }
    (weight > COMPILE_MEMORY_BUDGET).then(|| {
        format!(
            "this call's patterns took more than {} MB to compile; `hookc check` names the costly ones (W0312)",
            COMPILE_MEMORY_BUDGET >> 20
        )
    })
}

/// Counts what `compiled` weighs against the call's memory budget (outside a call, nothing).
pub(crate) fn charge(compiled: &Compiled) {
    COMPILE_DEADLINE.with(|cell| {
        if let Some((deadline, weight)) = cell.get() {
            // The regex, and the search state each search needs beside it (its PikeVM's and
            // backtracker's parts are sized by the regex, and about as large for a costly one).
            let bytes = compiled.memory_usage().saturating_add(compiled.create_cache().memory_usage());
            let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
            cell.set(Some((deadline, weight.saturating_add(bytes))));
        }
    });
}

/// Builds `patterns` as the `regex` crate builds a `Regex` (one pattern, leftmost-first) or a
/// `RegexSet` (`set`: every pattern that matches), within `limit` bytes of NFA; `Err(None)` when
/// over it, else `regex::Error`'s own words.
pub(crate) fn build(
    patterns: &[&str],
    set: bool,
    case_insensitive: bool,
    limit: usize,
) -> Result<Compiled, Option<String>> {
    use regex_automata::{meta, nfa::thompson::WhichCaptures, util::syntax, MatchKind};
    let config = meta::Config::new()
        .nfa_size_limit(Some(limit))
        .hybrid_cache_capacity(2 << 20)
        .utf8_empty(true)
        .match_kind(if set { MatchKind::All } else { MatchKind::LeftmostFirst });
    let config = if set { config.which_captures(WhichCaptures::None) } else { config };
    meta::Builder::new()
        .configure(config)
        .syntax(syntax::Config::new().utf8(true).case_insensitive(case_insensitive))
        .build_many(patterns)
        .map_err(|error| match (error.size_limit(), error.syntax_error()) {
            (Some(_), _) => None,
            (None, Some(syntax)) => Some(regex::Error::Syntax(syntax.to_string()).to_string()),
            (None, None) => Some(regex::Error::Syntax(error.to_string()).to_string()),
        })
}

/// `text` with every match of `compiled` replaced by `with` as it is (no `$1`), as
/// `regex::Regex::replace_all` with `NoExpand` does; borrowed when nothing matched.
pub(crate) fn replace_all<'t>(compiled: &Compiled, text: &'t str, with: &str) -> std::borrow::Cow<'t, str> {
    let mut found = compiled.find_iter(text).peekable();
    if found.peek().is_none() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for span in found {
        out.push_str(text.get(copied..span.start()).unwrap_or_default());
        out.push_str(with);
        copied = span.end();
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    std::borrow::Cow::Owned(out)
}

/// Above this a regex is costly: `hookc check` warns (W0312).
pub(crate) const COSTLY_REGEX_BYTES: usize = 256 << 10;

/// The regex in `cell`, compiled from `source` the first time within the thread's compile
/// budget (a refusal for the budget is not remembered).
fn compiled_once(
    cell: &OnceLock<Result<(Compiled, bool), String>>,
    source: impl FnOnce() -> String,
) -> Result<&Compiled, String> {
    // Only a pattern still to compile asks the budget (asking reads the clock, and once a call
    // has compiled, the process's size).
    if cell.get().is_none() {
        if let Some(reason) = over_budget() {
            return Err(reason);
        }
    }
    let compiled = cell.get_or_init(|| {
        let compiled = compile_bounded(&source());
        if let Ok((regex, _)) = &compiled {
            charge(regex);
        }
        compiled
    });
    compiled.as_ref().map(|(regex, _)| regex).map_err(Clone::clone)
}

/// Compiles a regex source under a size limit; `Err(None)` when it is over the limit.
fn compile(source: &str, limit: usize) -> Result<Compiled, Option<String>> {
    build(&[source], false, false, limit)
}

/// Compiles a regex source: within [`COSTLY_REGEX_BYTES`] at one try, and up to
/// [`MAX_REGEX_BYTES`] at a second; whether it took the second.
fn compile_bounded(source: &str) -> Result<(Compiled, bool), String> {
    match compile(source, COSTLY_REGEX_BYTES) {
        Ok(regex) => Ok((regex, false)),
        Err(Some(error)) => Err(error),
        Err(None) => match compile(source, MAX_REGEX_BYTES) {
            Ok(regex) => Ok((regex, true)),
            Err(Some(error)) => Err(error),
            Err(None) => Err(too_big()),
        },
    }
}

/// Why a regex over [`MAX_REGEX_BYTES`] is refused.
fn too_big() -> String {
    format!(
        "it compiles to more than {} MiB (Unicode classes such as `\\w` or `.` under a large repetition \
         multiply): use ASCII classes (`(?-u:\\w)`, `[a-zA-Z0-9_]`) or bound the repetition",
        MAX_REGEX_BYTES >> 20
    )
}

/// What checking a regex learned of its compiled size ([`Regex::checked`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Size {
    /// Not sized (loading a policy to use it).
    Unknown,
    /// Within [`COSTLY_REGEX_BYTES`].
    Cheap,
    /// Over [`COSTLY_REGEX_BYTES`], within [`MAX_REGEX_BYTES`].
    Costly,
    /// Over [`COSTLY_REGEX_BYTES`]; not sized further, the sizing deadline having passed.
    CostlyUnsized,
}

/// A regex that serialises as its source.
#[derive(Debug, Clone)]
pub struct Regex {
    /// The pattern as written.
    pub pattern: String,
    /// Flags as written (`i`, `m`, `s`, `x`, `U`).
    pub flags: String,
    compiled: OnceLock<Result<(Compiled, bool), String>>,
    /// The same regex matching case-insensitively, for paths under [`PathCase::Insensitive`].
    folded: OnceLock<Result<(Compiled, bool), String>>,
}

impl Regex {
    /// Compiles a pattern with flags now; the error says what is wrong in regex's own words.
    pub fn new(pattern: &str, flags: &str) -> Result<Regex, String> {
        let regex = Self::lazy(pattern, flags)?;
        regex.get()?;
        Ok(regex)
    }

    /// A regex compiled on first use. Flags are checked now.
    pub fn lazy(pattern: &str, flags: &str) -> Result<Regex, String> {
        if let Some(bad) = flags.chars().find(|flag| !REGEX_FLAGS.contains(*flag)) {
            return Err(format!("unknown regex flag `{bad}` (the flags are `i`, `m`, `s`, `x` and `U`)"));
        }
        Ok(Regex {
            pattern: pattern.to_string(),
            flags: flags.to_string(),
            compiled: OnceLock::new(),
            folded: OnceLock::new(),
        })
    }

    /// Checks a regex as a policy is loaded or linted, without keeping what is costly to keep:
    /// its syntax always (and, for `folds`, matched without case too), as the `regex` crate
    /// parses it; with `sizing`, also its compiled size — a cheap one is compiled and kept, a
    /// costly one compiled to learn whether it is over [`MAX_REGEX_BYTES`] (only before the
    /// deadline: sizing a few hundred costly regexes took seconds and gigabytes) and dropped, so
    /// a call compiles it only if it reaches it, within the call's compile budget.
    pub fn checked(
        pattern: &str,
        flags: &str,
        folds: bool,
        sizing: Option<crate::clock::Instant>,
    ) -> Result<(Regex, Size), String> {
        let regex = Self::lazy(pattern, flags)?;
        let mut sources = vec![regex.inline_source()];
        if folds {
            sources.push(format!("(?i:{})", regex.inline_source()));
        }
        for source in &sources {
            regex_syntax::Parser::new()
                .parse(source)
                .map_err(|error| regex::Error::Syntax(error.to_string()).to_string())?;
        }
        let Some(deadline) = sizing else { return Ok((regex, Size::Unknown)) };
        let mut size = Size::Cheap;
        for (at, source) in sources.iter().enumerate() {
            match compile(source, COSTLY_REGEX_BYTES) {
                Ok(compiled) if at == 0 => {
                    let _ = regex.compiled.set(Ok((compiled, false)));
                }
                Ok(_) => {}
                Err(Some(error)) => return Err(error),
                Err(None) if crate::clock::Instant::now() >= deadline => size = Size::CostlyUnsized,
                Err(None) => match compile(source, MAX_REGEX_BYTES) {
                    Ok(_) => size = size.max(Size::Costly),
                    Err(Some(error)) => return Err(error),
                    Err(None) => return Err(too_big()),
                },
            }
        }
        Ok((regex, size))
    }

    /// The compiled regex, compiling it the first time.
    pub fn get(&self) -> Result<&Compiled, String> {
        compiled_once(&self.compiled, || self.inline_source())
    }

    /// The compiled regex for values compared under `case` (path values of a case-insensitive
    /// policy match with `i` added).
    pub fn get_for(&self, case: PathCase) -> Result<&Compiled, String> {
        match case {
            PathCase::Sensitive => self.get(),
            PathCase::Insensitive => compiled_once(&self.folded, || format!("(?i:{})", self.inline_source())),
        }
    }

    /// The pattern with its flags inline (`(?i:…)`), as a `RegexSet` member needs.
    pub fn inline_source(&self) -> String {
        if self.flags.is_empty() {
            self.pattern.clone()
        } else {
            format!("(?{}:{})", self.flags, self.pattern)
        }
    }

    /// What every text this regex matches must be or start with, read by regex's own parser
    /// (regex-syntax's literal extractor), so the index can find the rule by hash lookup.
    pub fn literals(&self) -> Literals {
        match regex_syntax::parse(&self.inline_source()) {
            Ok(hir) => Literals::of(&hir),
            Err(_) => Literals::None,
        }
    }

    /// Sets of texts such that every match contains one text of each set, anywhere:
    /// `rm\s+-rf\s+/data/` must contain `-rf` and `/data/`. The index finds the rule with one
    /// Aho–Corasick pass over the text, for the set fewest rules share.
    pub fn required(&self) -> Vec<Vec<String>> {
        regex_syntax::parse(&self.inline_source()).map(|hir| required_sets(&hir)).unwrap_or_default()
    }
}

impl Regex {
    /// Sets of texts such that every match contains one text of each set, of any length (the
    /// index's [`Regex::required`] keeps only those long enough to narrow a lookup): a text
    /// that lacks every text of one set cannot match, and is known not to without compiling.
    pub(crate) fn needles(&self) -> Vec<Vec<String>> {
        let Ok(hir) = regex_syntax::parse(&self.inline_source()) else { return Vec::new() };
        required(&hir)
            .into_iter()
            .filter_map(|set| {
                set.into_iter().map(|bytes| String::from_utf8(bytes).ok().filter(|text| !text.is_empty())).collect()
            })
            .collect()
    }
}

/// The shortest a required text may be: shorter ones occur in too many texts to narrow.
const MIN_REQUIRED: usize = 3;

/// At most this many required sets are offered per pattern.
const MAX_REQUIRED_SETS: usize = 8;

/// Sets of texts such that every match of `hir` contains one text of each set.
fn required_sets(hir: &regex_syntax::hir::Hir) -> Vec<Vec<String>> {
    required(hir)
        .into_iter()
        .filter_map(|set| {
            let mut texts = set
                .into_iter()
                .map(|bytes| String::from_utf8(bytes).ok().filter(|text| text.len() >= MIN_REQUIRED))
                .collect::<Option<Vec<String>>>()?;
            texts.sort_unstable();
            texts.dedup();
            (!texts.is_empty() && texts.len() <= MAX_LITERALS).then_some(texts)
        })
        .take(MAX_REQUIRED_SETS)
        .collect()
}

/// Sets of byte strings such that every match contains one of each: a literal; every part's
/// sets, for a concatenation; for an alternation, the union of one set per branch (every
/// branch must have one); a repetition's, if it repeats once at least.
fn required(hir: &regex_syntax::hir::Hir) -> Vec<Vec<Vec<u8>>> {
    use regex_syntax::hir::HirKind;
    match hir.kind() {
        HirKind::Literal(literal) => vec![vec![literal.0.to_vec()]],
        HirKind::Capture(capture) => required(&capture.sub),
        HirKind::Repetition(repetition) if repetition.min >= 1 => required(&repetition.sub),
        HirKind::Concat(parts) => parts.iter().flat_map(required).collect(),
        HirKind::Alternation(branches) => {
            let mut all = Vec::new();
            for branch in branches {
                // A branch's most selective set: its shortest text the longest.
                let best = required(branch)
                    .into_iter()
                    .max_by_key(|set| (set.iter().map(Vec::len).min().unwrap_or(0), std::cmp::Reverse(set.len())));
                let Some(best) = best else { return Vec::new() };
                all.extend(best);
                if all.len() > MAX_LITERALS {
                    return Vec::new();
                }
            }
            vec![all]
        }
        _ => Vec::new(),
    }
}

#[derive(Serialize, Deserialize)]
struct RegexRepr {
    pattern: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    flags: String,
}

impl Serialize for Regex {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RegexRepr { pattern: self.pattern.clone(), flags: self.flags.clone() }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Regex {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let repr = RegexRepr::deserialize(deserializer)?;
        Regex::lazy(&repr.pattern, &repr.flags).map_err(serde::de::Error::custom)
    }
}

/// Globs (any may match) that serialise as their sources. A glob written `!GLOB` excludes: a
/// text matches when some other glob matches it (or there is none) and no excluding glob does,
/// so `operands like ["/**", "!/tmp/**"]` holds of an operand outside `/tmp`, whatever the
/// others are. (`\\!` is a literal `!`.)
#[derive(Debug, Clone)]
pub struct Globs {
    /// The globs as written.
    pub patterns: Vec<String>,
    /// Path mode: `*` stays within one path segment (for `path`).
    pub path_mode: bool,
    compiled: OnceLock<Result<Box<GlobMatcher>, String>>,
    /// The same globs matching case-insensitively, for paths under [`PathCase::Insensitive`].
    folded: OnceLock<Result<Box<GlobMatcher>, String>>,
    /// Texts one of which every text the globs match contains (found when the globs are
    /// checked, kept in the bundle): a text with none of them cannot match, and is answered
    /// without building the set (which costs far more than one decision). Empty: no hint.
    hints: Vec<String>,
}

/// Compiled [`Globs`]: what a text must match and what it must not.
#[derive(Debug, Clone)]
pub struct GlobMatcher {
    include: globset::GlobSet,
    /// No including glob: every text not excluded matches.
    everything: bool,
    exclude: globset::GlobSet,
}

impl GlobMatcher {
    /// Whether the text matches.
    pub fn is_match(&self, text: &str) -> bool {
        (self.everything || self.include.is_match(text)) && !self.exclude.is_match(text)
    }
}

impl Globs {
    /// Compiles globs now; the error names the index of the glob that failed.
    pub fn new(patterns: Vec<String>, path_mode: bool) -> Result<Globs, (usize, String)> {
        for (index, pattern) in patterns.iter().enumerate() {
            Self::glob(Self::source(pattern).1, path_mode).map_err(|error| (index, error))?;
        }
        let mut globs = Self::lazy(patterns, path_mode);
        globs.get().map_err(|error| (0, error))?;
        // The set of required texts whose shortest is longest narrows best.
        // A list of many globs is hinted too: checking a text against a hundred hints costs
        // microseconds, building their set milliseconds.
        globs.hints = globs
            .required_within(4096)
            .into_iter()
            .max_by_key(|set| set.iter().map(String::len).min().unwrap_or(0))
            .filter(|set| set.iter().all(|text| !text.is_empty()))
            .unwrap_or_default();
        Ok(globs)
    }

    /// Globs compiled on first use.
    pub fn lazy(patterns: Vec<String>, path_mode: bool) -> Globs {
        Globs { patterns, path_mode, compiled: OnceLock::new(), folded: OnceLock::new(), hints: Vec::new() }
    }

    /// Whether `text` may match, by the hints alone: `false` only when it contains none of the
    /// texts every match contains. Paths compared without case, and Windows (where globset
    /// reads `\` as `/`), are not hinted.
    pub(crate) fn may_match(&self, text: &str, case: PathCase) -> bool {
        self.hints.is_empty()
            || case == PathCase::Insensitive
            || cfg!(windows)
            || self.hints.iter().any(|hint| text.contains(hint.as_str()))
    }

    /// Whether a glob as written excludes, and the glob itself (`!/tmp/**` → `/tmp/**`).
    pub fn source(pattern: &str) -> (bool, &str) {
        match pattern.strip_prefix('!') {
            Some(glob) => (true, glob),
            None => (false, pattern),
        }
    }

    /// The including globs: a text matches only if one of them does (unless there are none).
    pub fn including(&self) -> impl Iterator<Item = &str> {
        self.patterns
            .iter()
            .map(|pattern| Self::source(pattern))
            .filter(|(excludes, _)| !excludes)
            .map(|(_, glob)| glob)
    }

    /// Whether some glob excludes.
    pub fn excludes(&self) -> bool {
        self.patterns.iter().any(|pattern| Self::source(pattern).0)
    }

    /// The compiled set, compiling it the first time.
    pub fn get(&self) -> Result<&GlobMatcher, String> {
        self.get_for(PathCase::Sensitive)
    }

    /// The compiled set for values compared under `case`.
    pub fn get_for(&self, case: PathCase) -> Result<&GlobMatcher, String> {
        let cell = match case {
            PathCase::Sensitive => &self.compiled,
            PathCase::Insensitive => &self.folded,
        };
        cell.get_or_init(|| {
            let mut include = globset::GlobSetBuilder::new();
            let mut exclude = globset::GlobSetBuilder::new();
            let mut everything = true;
            for pattern in &self.patterns {
                let (excludes, glob) = Self::source(pattern);
                let glob = Self::glob_for(glob, self.path_mode, case)?;
                match excludes {
                    true => exclude.add(glob),
                    false => {
                        everything = false;
                        include.add(glob)
                    }
                };
            }
            let build = |builder: globset::GlobSetBuilder| builder.build().map_err(|error| error.to_string());
            Ok(Box::new(GlobMatcher { include: build(include)?, everything, exclude: build(exclude)? }))
        })
        .as_ref()
        .map(|matcher| &**matcher)
        .map_err(Clone::clone)
    }

    /// One glob with hookc's matching options.
    pub fn glob(pattern: &str, path_mode: bool) -> Result<globset::Glob, String> {
        Self::glob_for(pattern, path_mode, PathCase::Sensitive)
    }

    /// One glob with hookc's matching options, matching under `case`. Case-insensitive globs
    /// are folded like the values they match (globset alone ignores the case of ASCII only).
    pub fn glob_for(pattern: &str, path_mode: bool, case: PathCase) -> Result<globset::Glob, String> {
        globset::GlobBuilder::new(&case.fold(pattern))
            .literal_separator(path_mode)
            .backslash_escape(true)
            .case_insensitive(case == PathCase::Insensitive)
            .build()
            .map_err(|error| error.kind().to_string())
    }

    /// Sets of texts such that every text these globs match contains one of each
    /// (`src/**/gen_7.rs` must contain `src` and `gen_7.rs`), read from the regex globset
    /// compiles each glob to. For several globs, one set: the union of each glob's best.
    pub fn required(&self) -> Vec<Vec<String>> {
        self.required_within(MAX_LITERALS)
    }

    /// [`Globs::required`], with at most `limit` texts in the set for several globs.
    fn required_within(&self, limit: usize) -> Vec<Vec<String>> {
        let mut per_glob = Vec::new();
        if self.including().next().is_none() {
            return Vec::new();
        }
        for pattern in self.including() {
            let Ok(glob) = Self::glob(pattern, self.path_mode) else { return Vec::new() };
            let parsed = regex_syntax::ParserBuilder::new().utf8(false).build().parse(glob.regex());
            let Ok(hir) = parsed else { return Vec::new() };
            per_glob.push(required_sets(&hir));
        }
        if per_glob.len() == 1 {
            return per_glob.pop().unwrap_or_default();
        }
        let mut all = Vec::new();
        for sets in per_glob {
            let best = sets.into_iter().max_by_key(|set| set.iter().map(String::len).min().unwrap_or(0));
            let Some(best) = best else { return Vec::new() };
            all.extend(best);
        }
        all.sort_unstable();
        all.dedup();
        match all.len() > limit {
            true => Vec::new(),
            false => vec![all],
        }
    }

    /// What every text one of these globs matches must be or start with, read from the regex
    /// globset itself compiles each glob to.
    pub fn literals(&self) -> Literals {
        // Globs that only exclude match nearly everything: nothing to assume.
        if self.including().next().is_none() {
            return Literals::None;
        }
        let mut all = Literals::Exact(Vec::new());
        for pattern in self.including() {
            let Ok(glob) = Self::glob(pattern, self.path_mode) else { return Literals::None };
            let parsed = regex_syntax::ParserBuilder::new().utf8(false).build().parse(glob.regex());
            let Ok(hir) = parsed else { return Literals::None };
            all = all.union(Literals::of(&hir));
        }
        all
    }
}

/// What the index may assume of every text a pattern matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Literals {
    /// The text is one of these.
    Exact(Vec<String>),
    /// The text starts with one of these (none empty).
    Prefix(Vec<String>),
    /// Nothing useful: the rule must always be tried.
    None,
}

/// Sorted prefixes without those another one already covers (`cmd1` covers `cmd1 `): a text
/// starts with some prefix of the list exactly when it starts with one of these.
fn shortest_prefixes(sorted: Vec<String>) -> Vec<String> {
    let mut kept: Vec<String> = Vec::with_capacity(sorted.len());
    for text in sorted {
        // Sorted, a covering prefix is always the last one kept (any text between a prefix and
        // a text it covers starts with that prefix too, and would have been dropped).
        if kept.last().is_none_or(|shorter| !text.starts_with(shorter.as_str())) {
            kept.push(text);
        }
    }
    kept
}

/// More literals than this make a poor key (and a case-insensitive regex can make many).
const MAX_LITERALS: usize = 64;

impl Literals {
    /// The literals of a parsed pattern: only for a pattern anchored at the start of the text
    /// (`^`, `\A`; not `(?m)^`), whose prefixes the extractor finds finite, complete in UTF-8
    /// and non-empty. `Exact` when it is anchored at the end too and every literal is a whole
    /// match.
    fn of(hir: &regex_syntax::hir::Hir) -> Literals {
        use regex_syntax::hir::literal::{ExtractKind, Extractor};
        use regex_syntax::hir::Look;
        let properties = hir.properties();
        if !properties.look_set_prefix().contains(Look::Start) {
            return Literals::None;
        }
        let mut extractor = Extractor::new();
        extractor.kind(ExtractKind::Prefix);
        let seq = extractor.extract(hir);
        let Some(literals) = seq.literals() else { return Literals::None };
        if literals.is_empty() || literals.len() > MAX_LITERALS {
            return Literals::None;
        }
        let mut exact = properties.look_set_suffix().contains(Look::End);
        let mut texts = Vec::with_capacity(literals.len());
        for literal in literals {
            let bytes = literal.as_bytes();
            let valid = match std::str::from_utf8(bytes) {
                Ok(text) => text,
                // A literal cut inside a character keeps its whole characters, as a prefix.
                Err(error) => {
                    exact = false;
                    std::str::from_utf8(bytes.get(..error.valid_up_to()).unwrap_or_default()).unwrap_or_default()
                }
            };
            exact &= literal.is_exact();
            if valid.is_empty() && !exact {
                return Literals::None;
            }
            texts.push(valid.to_string());
        }
        texts.sort_unstable();
        texts.dedup();
        if exact {
            Literals::Exact(texts)
        } else if texts.iter().any(String::is_empty) {
            Literals::None
        } else {
            Literals::Prefix(shortest_prefixes(texts))
        }
    }

    /// A text matching either pattern: `Exact` if both are, `Prefix` if both give prefixes.
    fn union(self, other: Literals) -> Literals {
        match (self, other) {
            (Literals::None, _) | (_, Literals::None) => Literals::None,
            (Literals::Exact(mut a), Literals::Exact(b)) => {
                a.extend(b);
                a.sort_unstable();
                a.dedup();
                Literals::Exact(a)
            }
            (Literals::Exact(a) | Literals::Prefix(a), Literals::Exact(b) | Literals::Prefix(b)) => {
                let mut all: Vec<String> = a.into_iter().chain(b).collect();
                if all.iter().any(String::is_empty) {
                    return Literals::None;
                }
                all.sort_unstable();
                all.dedup();
                Literals::Prefix(shortest_prefixes(all))
            }
        }
    }
}

#[derive(Serialize, Deserialize)]
struct GlobsRepr {
    globs: Vec<String>,
    #[serde(default)]
    path: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    hints: Vec<String>,
}

impl Serialize for Globs {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GlobsRepr { globs: self.patterns.clone(), path: self.path_mode, hints: self.hints.clone() }
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Globs {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let repr = GlobsRepr::deserialize(deserializer)?;
        Ok(Globs { hints: repr.hints, ..Globs::lazy(repr.globs, repr.path) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regex(pattern: &str, flags: &str) -> Literals {
        Regex::new(pattern, flags).unwrap().literals()
    }

    fn prefix(texts: &[&str]) -> Literals {
        Literals::Prefix(texts.iter().map(|text| text.to_string()).collect())
    }

    fn exact(texts: &[&str]) -> Literals {
        Literals::Exact(texts.iter().map(|text| text.to_string()).collect())
    }

    #[test]
    fn regex_literals_come_from_the_regex_parser() {
        assert_eq!(regex(r"^git\s+push", ""), prefix(&["git"]));
        assert_eq!(regex(r"^rm -rf \/", ""), prefix(&["rm -rf /"]));
        assert_eq!(regex(r"^\.env", ""), prefix(&[".env"]));
        assert_eq!(regex(r"^(git|hg) push", ""), prefix(&["git push", "hg push"]));
        assert_eq!(regex(r"^Cargo\.lock$", ""), exact(&["Cargo.lock"]));
        assert_eq!(regex(r"\Adeploy", ""), prefix(&["deploy"]));
        // `\<` is a word boundary, not a `<`: the hand-written reader indexed it under `<`.
        assert_eq!(regex(r"^\<rm\b", ""), prefix(&["rm"]));
        assert_eq!(regex(r"\<rm\b", ""), Literals::None);
        for (pattern, flags) in [("git push", ""), (r"^git|^hg|x", ""), ("^git", "m"), (r"^\s+x", ""), ("^$", "")] {
            assert!(!matches!(regex(pattern, flags), Literals::Prefix(_)), "/{pattern}/{flags}");
        }
        assert_eq!(regex("^ab", "i"), prefix(&["AB", "Ab", "aB", "ab"]));
    }

    #[test]
    fn required_texts_are_found_inside_patterns() {
        let required = |pattern: &str, flags: &str| Regex::new(pattern, flags).unwrap().required();
        let sets = |sets: &[&[&str]]| -> Vec<Vec<String>> {
            sets.iter().map(|set| set.iter().map(|text| text.to_string()).collect()).collect()
        };
        assert_eq!(required(r"rm\s+-rf\s+/dir12/", ""), sets(&[&["-rf"], &["/dir12/"]]));
        assert_eq!(required(r"\bcmd12\b", ""), sets(&[&["cmd12"]]));
        assert_eq!(required(r"(curl|wget)\s.*evil\.example", ""), sets(&[&["curl", "wget"], &["evil.example"]]));
        assert_eq!(required(r"(?:secret_one|secret_two)=", ""), sets(&[&["secret_one", "secret_two"]]));
        assert_eq!(required(r"(abc)+x", ""), sets(&[&["abc"]]));
        // Nothing every match must contain, or nothing long enough to narrow.
        for pattern in [r"(abc)*x", r"a|bcd", r"\w+", r"ab\d"] {
            assert!(required(pattern, "").is_empty(), "/{pattern}/");
        }
        assert!(required("secret", "i").is_empty(), "case-insensitive texts are classes");
        let globs = Globs::new(vec!["src/**/gen_7.rs".into()], true).unwrap();
        assert_eq!(globs.required(), sets(&[&["src"], &["gen_7.rs"]]));
        assert!(Globs::new(vec!["**/*".into()], true).unwrap().required().is_empty());
    }

    #[test]
    fn glob_literals_come_from_globset() {
        let globs = Globs::new(vec!["assets/dir1/**/*.png".into(), "src/gen/*".into()], true).unwrap();
        assert_eq!(globs.literals(), prefix(&["assets/dir1/", "src/gen/"]));
        assert_eq!(Globs::new(vec!["Cargo.lock".into()], true).unwrap().literals(), exact(&["Cargo.lock"]));
        assert_eq!(Globs::new(vec!["**/*.pem".into()], true).unwrap().literals(), Literals::None);
        assert_eq!(Globs::new(vec!["{a,b}.txt".into()], true).unwrap().literals(), exact(&["a.txt", "b.txt"]));
    }

    #[test]
    fn past_the_compile_budget_a_pattern_fails_without_being_remembered_as_failed() {
        let regex = Regex::lazy("cmd[0-9]+", "").unwrap();
        let refused = with_compile_budget(std::time::Duration::ZERO, || {
            std::thread::sleep(std::time::Duration::from_millis(2));
            regex.get().map(|_| ())
        });
        assert!(refused.unwrap_err().contains("spent more than 0.7 s compiling"));
        assert!(regex.get().unwrap().is_match("cmd12"), "outside the budget it compiles");
        // Compiled once, it is used whatever the budget.
        assert!(with_compile_budget(std::time::Duration::ZERO, || regex.get().is_ok()));
    }

    /// The budget is for the whole call: once what its patterns compiled to weighs more than
    /// it, no further pattern compiles, whichever it is; and only the patterns count, not what
    /// else the process holds.
    #[test]
    fn past_the_memory_budget_no_pattern_compiles() {
        // Unicode classes under a repetition: megabytes each (`Regex::checked` calls them costly).
        let costly: Vec<Regex> = (0..64).map(|at| Regex::lazy(&format!("k{at}\\w{{1,64}}"), "").unwrap()).collect();
        let regex = Regex::lazy("tool[0-9]+", "").unwrap();
        let refused = with_compile_budget(std::time::Duration::from_secs(600), || {
            let compiled = costly.iter().take_while(|costly| costly.get().is_ok()).count();
            assert!(compiled > 1 && compiled < costly.len(), "the budget stops the call part way: {compiled}");
            regex.get().map(|_| ())
        });
        assert!(refused.unwrap_err().contains("MB to compile"));
        assert!(regex.get().is_ok(), "outside the budget it compiles");
        let fresh = Regex::lazy("fresh[0-9]+", "").unwrap();
        let allowed = with_compile_budget(std::time::Duration::from_secs(600), || {
            let grown = vec![1u8; (COMPILE_MEMORY_BUDGET * 4) as usize];
            let result = fresh.get().map(|_| ());
            drop(std::hint::black_box(grown));
            result
        });
        assert!(allowed.is_ok(), "the process's other memory is no pattern's: {allowed:?}");
    }

    use proptest::strategy::Strategy as _;

    /// The property below is not vacuous: hints do turn texts away.
    #[test]
    fn hints_turn_away_a_text_with_none_of_them() {
        let globs = Globs::new(vec!["**/.claude".into(), "**/*.rules".into()], true).unwrap();
        assert!(!globs.may_match("/repo/src/main.rs", PathCase::Sensitive));
        assert!(globs.may_match("/repo/.claude/settings.json", PathCase::Sensitive));
        assert!(globs.may_match("/repo/src/main.rs", PathCase::Insensitive), "no hints without case");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 2_000,
            rng_seed: proptest::test_runner::RngSeed::Fixed(0x61),
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// A text the hints turn away is one no glob matches: hints only skip building the set.
        #[test]
        fn hints_never_turn_away_a_match(
            globs in proptest::collection::vec(
                proptest::collection::vec(proptest::sample::select(vec![
                    "**", "*", "?", "src", ".git", "a", "*.rs", "[ab]*", "{x,y}.txt", "~", ".claude", "!", "é", "",
                ]), 1..4).prop_map(|parts| parts.join("/")),
                1..5,
            ),
            path in proptest::collection::vec(proptest::sample::select(vec![
                "src", ".git", "a", "b.rs", "x.txt", "~", ".claude", "é", "", "..", "config",
            ]), 1..5).prop_map(|parts| parts.join("/")),
            absolute in proptest::bool::ANY,
            path_mode in proptest::bool::ANY,
        ) {
            let path = if absolute { format!("/{path}") } else { path };
            let Ok(globs) = Globs::new(globs, path_mode) else { return Ok(()) };
            if !globs.may_match(&path, PathCase::Sensitive) {
                proptest::prop_assert!(!globs.get().unwrap().is_match(&path), "{:?} turned {:?} away", globs.patterns, path);
            }
        }
    }

    #[test]
    fn a_bad_pattern_fails_on_first_use_not_before() {
        let lazy: Regex = serde_json::from_str(r#"{"pattern":"("}"#).unwrap();
        assert!(lazy.get().unwrap_err().contains("unclosed group"));
        assert!(serde_json::from_str::<Regex>(r#"{"pattern":"x","flags":"q"}"#).is_err());
        let globs: Globs = serde_json::from_str(r#"{"globs":["a["]}"#).unwrap();
        assert!(globs.get().is_err());
    }
}

#[cfg(test)]
mod glob_tests {
    use super::Globs;

    #[test]
    fn a_glob_written_with_a_bang_excludes() {
        let globs = Globs::new(vec!["/**".into(), "!/tmp/**".into()], true).unwrap();
        let set = globs.get().unwrap();
        assert!(set.is_match("/etc/x"));
        assert!(!set.is_match("/tmp/x"));
        assert!(!set.is_match("src/x"));
        let only = Globs::new(vec!["!/tmp/**".into()], true).unwrap();
        assert!(only.get().unwrap().is_match("src/x") && !only.get().unwrap().is_match("/tmp/a"));
        assert!(only.literals() == super::Literals::None && only.required().is_empty());
        let literal = Globs::new(vec![r"\!x".into()], true).unwrap();
        assert!(literal.get().unwrap().is_match("!x"));
    }
}
