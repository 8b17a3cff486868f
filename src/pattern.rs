//! Patterns in rules: regexes and globs. Each serialises as its source and compiles once — at
//! check time for rule files, on first use for a bundle (whose digest already vouches that
//! `hookc compile` checked it), so loading a large bundle costs only what a request needs.
//! Also here: the literal prefix a pattern requires, which lets the index find a rule by hash
//! lookup instead of running its pattern.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The flag letters a regex may carry.
pub const REGEX_FLAGS: &str = "imsxU";

/// A regex that serialises as its source.
#[derive(Debug, Clone)]
pub struct Regex {
    /// The pattern as written.
    pub pattern: String,
    /// Flags as written (`i`, `m`, `s`, `x`, `U`).
    pub flags: String,
    compiled: OnceLock<Result<regex::Regex, String>>,
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
        Ok(Regex { pattern: pattern.to_string(), flags: flags.to_string(), compiled: OnceLock::new() })
    }

    /// The compiled regex, compiling it the first time.
    pub fn get(&self) -> Result<&regex::Regex, String> {
        self.compiled
            .get_or_init(|| regex::Regex::new(&self.inline_source()).map_err(|error| error.to_string()))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The pattern with its flags inline (`(?i:…)`), as a `RegexSet` member needs.
    pub fn inline_source(&self) -> String {
        if self.flags.is_empty() {
            self.pattern.clone()
        } else {
            format!("(?{}:{})", self.flags, self.pattern)
        }
    }

    /// The literal text every match must start the haystack with, if the regex is anchored at
    /// the start and begins with plain characters (`^git\s+push` → `git`). Conservative: any
    /// construct it does not fully understand gives `None`.
    pub fn anchored_prefix(&self) -> Option<String> {
        // `i` changes what the letters match, `m` makes `^` match after any newline, `x` makes
        // spaces insignificant.
        if self.flags.contains(['i', 'm', 'x']) || has_top_level_alternation(&self.pattern) {
            return None;
        }
        let body = self.pattern.strip_prefix('^').or_else(|| self.pattern.strip_prefix("\\A"))?;
        let mut prefix = String::new();
        let mut chars = body.chars().peekable();
        while let Some(&c) = chars.peek() {
            let literal = match c {
                '\\' => {
                    let mut ahead = chars.clone();
                    ahead.next();
                    match ahead.next() {
                        Some(escaped) if escaped.is_ascii_punctuation() => {
                            chars.next();
                            escaped
                        }
                        _ => break, // `\s`, `\b`, `\d`…: a class or assertion, not a literal
                    }
                }
                c if c.is_alphanumeric() || " _-/:=,@%'\"~!<>;&#".contains(c) => c,
                _ => break,
            };
            chars.next();
            prefix.push(literal);
        }
        // A quantifier after the last literal may repeat it zero times (`ab?`, `ab*`, `ab{0,2}`).
        if matches!(chars.peek(), Some('?' | '*' | '{')) {
            prefix.pop();
        }
        (!prefix.is_empty()).then_some(prefix)
    }
}

/// Whether `|` occurs outside any group or class (`^a|b` is `(^a)|b`: no common prefix).
fn has_top_level_alternation(pattern: &str) -> bool {
    let mut depth = 0usize;
    let mut in_class = false;
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => depth = depth.saturating_sub(1),
            '|' if !in_class && depth == 0 => return true,
            _ => {}
        }
    }
    false
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
}

/// Characters that make a glob more than literal text.
const GLOB_META: &[char] = &['*', '?', '[', ']', '{', '}', '\\'];

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
        Globs { patterns, path_mode, compiled: OnceLock::new() }
    }

    /// The compiled set, compiling it the first time.
    pub fn get(&self) -> Result<&globset::GlobSet, String> {
        self.compiled
            .get_or_init(|| {
                let mut builder = globset::GlobSetBuilder::new();
                for pattern in &self.patterns {
                    builder.add(Self::glob(pattern, self.path_mode)?);
                }
                builder.build().map_err(|error| error.to_string())
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// One glob with hookc's matching options.
    pub fn glob(pattern: &str, path_mode: bool) -> Result<globset::Glob, String> {
        globset::GlobBuilder::new(pattern)
            .literal_separator(path_mode)
            .backslash_escape(true)
            .build()
            .map_err(|error| error.kind().to_string())
    }

    /// If every glob is plain text, that text: the globs are an equality test.
    pub fn literals(&self) -> Option<Vec<String>> {
        self.patterns.iter().map(|pattern| (!pattern.contains(GLOB_META)).then(|| pattern.clone())).collect()
    }

    /// The literal text before each glob's first wildcard, if every glob has some: a text
    /// matching any glob starts with one of these.
    pub fn prefixes(&self) -> Option<Vec<String>> {
        self.patterns
            .iter()
            .map(|pattern| {
                let end = pattern.find(GLOB_META).unwrap_or(pattern.len());
                pattern.get(..end).filter(|prefix| !prefix.is_empty()).map(str::to_string)
            })
            .collect()
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

    fn prefix(pattern: &str, flags: &str) -> Option<String> {
        Regex::new(pattern, flags).unwrap().anchored_prefix()
    }

    #[test]
    fn anchored_prefixes_are_conservative() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            (r"^git\s+push", "", Some("git")),
            (r"^cmd12( |$)", "", Some("cmd12")),
            (r"^rm -rf \/", "", Some("rm -rf /")),
            (r"^\.env", "", Some(".env")),
            (r"^abc?", "", Some("ab")),
            (r"^abc*d", "", Some("ab")),
            (r"^abc{0,2}", "", Some("ab")),
            (r"^abc+", "", Some("abc")),
            (r"\Adeploy", "", Some("deploy")),
            (r"^a.b", "", Some("a")),
            (r"git push", "", None),       // not anchored
            (r"^git|^hg", "", None),       // top-level alternation
            (r"^(git|hg) push", "", None), // starts with a group
            (r"^GIT", "i", None),          // case-insensitive
            (r"^git", "m", None),          // `^` after any newline
            (r"^\s+x", "", None),
            (r"^$", "", None),
        ];
        for (pattern, flags, expected) in cases {
            assert_eq!(prefix(pattern, flags).as_deref(), *expected, "/{pattern}/{flags}");
        }
    }

    #[test]
    fn every_match_starts_with_the_prefix() {
        let haystacks =
            ["git push", "git  push -f", "gitpush", "cmd12 x", "cmd123", "ab", "abd", "abccd", "a\nb", ".env"];
        for pattern in [r"^git\s+push", r"^cmd12( |$)", r"^abc?", r"^abc*d", r"^\.env", r"^a.b"] {
            let regex = Regex::new(pattern, "").unwrap();
            let prefix = regex.anchored_prefix().unwrap();
            for haystack in haystacks {
                if regex.get().unwrap().is_match(haystack) {
                    assert!(
                        haystack.starts_with(&prefix),
                        "/{pattern}/ matched {haystack:?} without prefix {prefix:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn glob_literals_and_prefixes() {
        let globs = Globs::new(vec!["assets/dir1/**/*.png".into(), "src/gen/*".into()], true).unwrap();
        assert_eq!(globs.prefixes(), Some(vec!["assets/dir1/".to_string(), "src/gen/".to_string()]));
        assert_eq!(globs.literals(), None);
        let literal = Globs::new(vec!["Cargo.lock".into()], true).unwrap();
        assert_eq!(literal.literals(), Some(vec!["Cargo.lock".to_string()]));
        assert_eq!(Globs::new(vec!["**/*.pem".into()], true).unwrap().prefixes(), None);
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
