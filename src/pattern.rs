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

/// A regex that serialises as its source.
#[derive(Debug, Clone)]
pub struct Regex {
    /// The pattern as written.
    pub pattern: String,
    /// Flags as written (`i`, `m`, `s`, `x`, `U`).
    pub flags: String,
    compiled: OnceLock<Result<regex::Regex, String>>,
    /// The same regex matching case-insensitively, for paths under [`PathCase::Insensitive`].
    folded: OnceLock<Result<regex::Regex, String>>,
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

    /// The compiled regex, compiling it the first time.
    pub fn get(&self) -> Result<&regex::Regex, String> {
        self.compiled
            .get_or_init(|| regex::Regex::new(&self.inline_source()).map_err(|error| error.to_string()))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The compiled regex for values compared under `case` (path values of a case-insensitive
    /// policy match with `i` added).
    pub fn get_for(&self, case: PathCase) -> Result<&regex::Regex, String> {
        match case {
            PathCase::Sensitive => self.get(),
            PathCase::Insensitive => self
                .folded
                .get_or_init(|| regex::Regex::new(&format!("(?i:{})", self.inline_source())).map_err(|e| e.to_string()))
                .as_ref()
                .map_err(Clone::clone),
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

    /// Texts at least one of which every match contains, anywhere (`rm\s+-rf\s+/data/` must
    /// contain `/data/`): the index finds the rule with one Aho–Corasick pass instead of
    /// running its regex. `None` when the regex has no such set.
    pub fn required(&self) -> Option<Vec<String>> {
        required_texts(&regex_syntax::parse(&self.inline_source()).ok()?)
    }
}

/// The shortest a required literal may be: shorter ones occur in too many texts to narrow.
const MIN_REQUIRED: usize = 3;

/// A set of texts at least one of which every match of `hir` contains; `None` if none is known.
fn required_texts(hir: &regex_syntax::hir::Hir) -> Option<Vec<String>> {
    let set = required(hir)?;
    let mut texts = set
        .into_iter()
        .map(|bytes| String::from_utf8(bytes).ok().filter(|text| text.len() >= MIN_REQUIRED))
        .collect::<Option<Vec<String>>>()?;
    texts.sort_unstable();
    texts.dedup();
    (!texts.is_empty() && texts.len() <= MAX_LITERALS).then_some(texts)
}

/// Byte strings at least one of which every match contains: a literal; the most selective set
/// among a concatenation's parts (its shortest member the longest); the union over an
/// alternation's branches (every branch must have one); a repetition's, if it repeats once at
/// least.
fn required(hir: &regex_syntax::hir::Hir) -> Option<Vec<Vec<u8>>> {
    use regex_syntax::hir::HirKind;
    match hir.kind() {
        HirKind::Literal(literal) => Some(vec![literal.0.to_vec()]),
        HirKind::Capture(capture) => required(&capture.sub),
        HirKind::Repetition(repetition) if repetition.min >= 1 => required(&repetition.sub),
        HirKind::Concat(parts) => parts.iter().filter_map(required).max_by_key(|set| {
            let shortest = set.iter().map(Vec::len).min().unwrap_or(0);
            (shortest, std::cmp::Reverse(set.len()))
        }),
        HirKind::Alternation(branches) => {
            let mut all = Vec::new();
            for branch in branches {
                all.extend(required(branch)?);
                if all.len() > MAX_LITERALS {
                    return None;
                }
            }
            Some(all)
        }
        _ => None,
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

/// Globs (any may match) that serialise as their sources.
#[derive(Debug, Clone)]
pub struct Globs {
    /// The globs as written.
    pub patterns: Vec<String>,
    /// Path mode: `*` stays within one path segment (for `path`).
    pub path_mode: bool,
    compiled: OnceLock<Result<globset::GlobSet, String>>,
    /// The same globs matching case-insensitively, for paths under [`PathCase::Insensitive`].
    folded: OnceLock<Result<globset::GlobSet, String>>,
}

impl Globs {
    /// Compiles globs now; the error names the index of the glob that failed.
    pub fn new(patterns: Vec<String>, path_mode: bool) -> Result<Globs, (usize, String)> {
        for (index, pattern) in patterns.iter().enumerate() {
            Self::glob(pattern, path_mode).map_err(|error| (index, error))?;
        }
        let globs = Self::lazy(patterns, path_mode);
        globs.get().map_err(|error| (0, error))?;
        Ok(globs)
    }

    /// Globs compiled on first use.
    pub fn lazy(patterns: Vec<String>, path_mode: bool) -> Globs {
        Globs { patterns, path_mode, compiled: OnceLock::new(), folded: OnceLock::new() }
    }

    /// The compiled set, compiling it the first time.
    pub fn get(&self) -> Result<&globset::GlobSet, String> {
        self.get_for(PathCase::Sensitive)
    }

    /// The compiled set for values compared under `case`.
    pub fn get_for(&self, case: PathCase) -> Result<&globset::GlobSet, String> {
        let cell = match case {
            PathCase::Sensitive => &self.compiled,
            PathCase::Insensitive => &self.folded,
        };
        cell.get_or_init(|| {
            let mut builder = globset::GlobSetBuilder::new();
            for pattern in &self.patterns {
                builder.add(Self::glob_for(pattern, self.path_mode, case)?);
            }
            builder.build().map_err(|error| error.to_string())
        })
        .as_ref()
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

    /// Texts at least one of which every text these globs match contains (`src/**/gen_7.rs`
    /// must contain `gen_7.rs`), read from the regex globset compiles each glob to.
    pub fn required(&self) -> Option<Vec<String>> {
        let mut all = Vec::new();
        for pattern in &self.patterns {
            let glob = Self::glob(pattern, self.path_mode).ok()?;
            let hir = regex_syntax::ParserBuilder::new().utf8(false).build().parse(glob.regex()).ok()?;
            all.extend(required_texts(&hir)?);
        }
        all.sort_unstable();
        all.dedup();
        (all.len() <= MAX_LITERALS).then_some(all)
    }

    /// What every text one of these globs matches must be or start with, read from the regex
    /// globset itself compiles each glob to.
    pub fn literals(&self) -> Literals {
        let mut all = Literals::Exact(Vec::new());
        for pattern in &self.patterns {
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
}

impl Serialize for Globs {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GlobsRepr { globs: self.patterns.clone(), path: self.path_mode }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Globs {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let repr = GlobsRepr::deserialize(deserializer)?;
        Ok(Globs::lazy(repr.globs, repr.path))
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
        let texts = |texts: &[&str]| Some(texts.iter().map(|text| text.to_string()).collect::<Vec<_>>());
        assert_eq!(required(r"rm\s+-rf\s+/dir12/", ""), texts(&["/dir12/"]));
        assert_eq!(required(r"\bcmd12\b", ""), texts(&["cmd12"]));
        assert_eq!(required(r"(curl|wget)\s.*evil\.example", ""), texts(&["evil.example"]));
        assert_eq!(required(r"(?:secret_one|secret_two)=", ""), texts(&["secret_one", "secret_two"]));
        assert_eq!(required(r"(abc)+x", ""), texts(&["abc"]));
        // Nothing every match must contain, or nothing long enough to narrow.
        for pattern in [r"(abc)*x", r"a|bcd", r"\w+", r"ab\d"] {
            assert_eq!(required(pattern, ""), None, "/{pattern}/");
        }
        assert_eq!(required("secret", "i"), None, "case-insensitive texts are classes");
        let globs = Globs::new(vec!["src/**/gen_7.rs".into()], true).unwrap();
        assert_eq!(globs.required(), texts(&["gen_7.rs"]));
        assert_eq!(Globs::new(vec!["**/*".into()], true).unwrap().required(), None);
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
    fn a_bad_pattern_fails_on_first_use_not_before() {
        let lazy: Regex = serde_json::from_str(r#"{"pattern":"("}"#).unwrap();
        assert!(lazy.get().unwrap_err().contains("unclosed group"));
        assert!(serde_json::from_str::<Regex>(r#"{"pattern":"x","flags":"q"}"#).is_err());
        let globs: Globs = serde_json::from_str(r#"{"globs":["a["]}"#).unwrap();
        assert!(globs.get().is_err());
    }
}
