//! What hookc writes never repeats a secret value: the policy names the shapes of secret values
//! once (`let secret_values = /…/`, the vocabulary `rules/secrets.rules` defines), and every text
//! hookc itself writes (a rule's reason or message, a `log` line, an audit record's target,
//! `explain`'s values) has each match replaced by [`REDACTED`]. The tool's own arguments and
//! output are not rewritten here: rewriting those is what rules' `redact` and `set` are for.
//!
//! A policy that names no `secret_values`, and a call whose policy could not be loaded, are
//! redacted by the shipped baseline's (`rules/secrets.rules`, built into the binary).

// Generated, as the test that writes it lays it out.
#[rustfmt::skip]
mod shipped;

use crate::pattern::Regex;
use std::borrow::Cow;

/// The `let` regex whose matches are redacted.
pub const NAME: &str = "secret_values";

/// What a secret value is replaced by.
pub const REDACTED: &str = "[redacted]";

/// The policy's secret value shapes, applied to the texts hookc writes. A bundle stores the
/// regex with its needles, so that a hook call reads them rather than parse the regex again.
#[derive(Debug, Clone)]
pub struct Redaction {
    regex: Regex,
    /// Texts every match contains one of each set of ([`Regex::needles`], lower case): a text
    /// without them is kept without compiling the regex, which most texts are.
    needles: std::sync::Arc<std::sync::OnceLock<Vec<Vec<String>>>>,
    /// One searcher per needle set, ASCII letters in any case, built the first time a text is
    /// looked at; `None` when one cannot be built.
    finders: std::sync::Arc<std::sync::OnceLock<Option<Vec<aho_corasick::AhoCorasick>>>>,
}

/// A redaction as a bundle stores it.
#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    #[serde(flatten)]
    regex: Regex,
    /// Absent in a bundle of an earlier release: computed when first needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    needles: Option<Vec<Vec<String>>>,
}

impl serde::Serialize for Redaction {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Stored { regex: self.regex.clone(), needles: Some(self.needles().to_vec()) }.serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for Redaction {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let stored = Stored::deserialize(deserializer)?;
        Ok(Redaction::with_needles(stored.regex, stored.needles.map(lowered)))
    }
}

impl Redaction {
    pub(crate) fn new(regex: Regex) -> Redaction {
        Redaction::with_needles(regex, None)
    }

    /// A redaction whose needles (lower case) are known, else computed when first needed.
    fn with_needles(regex: Regex, needles: Option<Vec<Vec<String>>>) -> Redaction {
        let known = std::sync::OnceLock::new();
        if let Some(needles) = needles {
            let _ = known.set(needles);
        }
        Redaction { regex, needles: std::sync::Arc::new(known), finders: std::sync::Arc::default() }
    }

    /// The needles, computed once.
    fn needles(&self) -> &[Vec<String>] {
        self.needles.get_or_init(|| lowered(self.regex.needles()))
    }

    /// Whether `text` may hold a secret value: it has a text of every needle set, in any case.
    /// An ASCII text is searched as it is, each set in one pass (what every reason and message
    /// is, and a hit's decision redacts one); another is lower-cased first, as the regex
    /// matches it, in Unicode's case.
    fn may_match(&self, text: &str) -> bool {
        let needles = self.needles();
        if needles.is_empty() {
            return true;
        }
        if text.is_ascii() {
            if let Some(finders) = self.finders() {
                return finders.iter().all(|finder| finder.is_match(text));
            }
        }
        self.may_match_lowered(text)
    }

    /// [`Redaction::may_match`] on `text` lower-cased.
    fn may_match_lowered(&self, text: &str) -> bool {
        let lower = text.to_lowercase();
        self.needles().iter().all(|set| set.iter().any(|needle| lower.contains(needle.as_str())))
    }

    /// The needle sets' searchers, built once.
    fn finders(&self) -> Option<&[aho_corasick::AhoCorasick]> {
        self.finders
            .get_or_init(|| {
                let build = |set: &Vec<String>| {
                    aho_corasick::AhoCorasick::builder().ascii_case_insensitive(true).build(set).ok()
                };
                self.needles().iter().map(build).collect()
            })
            .as_deref()
    }

    /// Where the secret values in `text` are: each shape's match, through the rest of its
    /// token. Shapes match in any case: hookc writes some values folded (`{egress}` is lower
    /// case, and an AWS key id in a host name with it). A regex that does not compile (only a
    /// hand-made bundle has one) makes the whole text one secret.
    pub fn spans(&self, text: &str) -> Vec<std::ops::Range<usize>> {
        if text.is_empty() || !self.may_match(text) {
            return Vec::new();
        }
        let Ok(regex) = self.regex.get_for(crate::paths::PathCase::Insensitive) else {
            return std::iter::once(0..text.len()).collect();
        };
        let mut spans: Vec<std::ops::Range<usize>> = Vec::new();
        for found in regex.find_iter(text) {
            if found.is_empty() || spans.last().is_some_and(|last| found.start() < last.end) {
                continue;
            }
            spans.push(found.start()..token_end(text, found.start(), found.end()));
        }
        spans
    }

    /// `text` with every secret value replaced by [`REDACTED`]. A shape names a value by its
    /// start (`ghp_` and 20 characters): the rest of the token is redacted with it, and a
    /// private key's block to its `END` line.
    pub fn apply<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let spans = self.spans(text);
        if spans.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut copied = 0;
        for span in spans {
            out.push_str(text.get(copied..span.start).unwrap_or_default());
            out.push_str(REDACTED);
            copied = span.end;
        }
        out.push_str(text.get(copied..).unwrap_or_default());
        Cow::Owned(out)
    }
}

/// Needle sets in lower case, as [`Redaction::may_match`] compares them.
fn lowered(sets: Vec<Vec<String>>) -> Vec<Vec<String>> {
    sets.into_iter().map(|set| set.into_iter().map(|needle| needle.to_lowercase()).collect()).collect()
}

/// Where the secret that a shape found at `start..end` ends: through the rest of its token
/// (the characters tokens, keys and encodings are made of), or for a PEM private key through
/// its `-----END … KEY-----` line (the whole rest of the text when that is missing).
fn token_end(text: &str, start: usize, end: usize) -> usize {
    let rest = text.get(end..).unwrap_or_default();
    if text.get(start..end).is_some_and(|found| found.starts_with("-----BEGIN")) {
        return match rest.find("-----END") {
            Some(at) => {
                let after = end + at + "-----END".len();
                let close = text
                    .get(after..)
                    .and_then(|tail| tail.find("-----"))
                    .map_or(text.len(), |dashes| after + dashes + 5);
                close.min(text.len())
            }
            None => text.len(),
        };
    }
    let token = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+' | '/' | '=' | '.' | '~' | '%');
    end + rest.find(|c: char| !token(c)).unwrap_or(rest.len())
}

/// `text` redacted by `redaction`, else by the shipped baseline's.
pub fn apply<'t>(redaction: Option<&Redaction>, text: &'t str) -> Cow<'t, str> {
    match chosen(redaction) {
        Some(redaction) => redaction.apply(text),
        None => Cow::Borrowed(text),
    }
}

/// `text`, owned, redacted by `redaction`, else by the shipped baseline's (kept without a copy
/// when it holds no secret).
pub fn owned(redaction: Option<&Redaction>, text: String) -> String {
    match apply(redaction, &text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(redacted) => redacted,
    }
}

/// `redaction`, else the shipped baseline's.
fn chosen(redaction: Option<&Redaction>) -> Option<&Redaction> {
    match redaction {
        Some(redaction) => Some(redaction),
        None => shipped(),
    }
}

/// A shell line as a record may show it: redacted, or, when a secret is spelled in it with
/// quotes or escapes (`gh\p_…`, `$'\x67'hp_…`, which the shapes do not see in the raw text), its
/// words as the shell unquotes them, each redacted.
pub(crate) fn shell_line(redaction: Option<&Redaction>, line: &str, powershell: bool) -> String {
    let Some(redaction) = chosen(redaction) else { return line.to_string() };
    // A line with no quote, escape or expansion is its own words: the shapes see it all.
    if !line.contains(['\\', '\'', '"', '$', '`']) {
        return redaction.apply(line).into_owned();
    }
    let analysed = match powershell {
        true => crate::shell::powershell::analyse(line),
        false => crate::shell::analyse_on(line, crate::paths::PathCase::Sensitive),
    };
    let words = || analysed.commands.iter().flat_map(|command| &command.words);
    let hidden = words().any(|word| {
        redaction.spans(word).into_iter().any(|span| word.get(span).is_some_and(|secret| !line.contains(secret)))
    });
    match hidden {
        false => redaction.apply(line).into_owned(),
        true => words().map(|word| redaction.apply(word).into_owned()).collect::<Vec<_>>().join(" "),
    }
}

/// The shipped baseline's secret value shapes: its `let secret_values` with its needles, as
/// `shipped.rs` holds them for `rules/secrets.rules` (built into the binary). A hook call neither
/// parses that file nor compiles the regex to learn that a text holds none of the needles, which
/// most texts do not; the regex is compiled the first time a text has them.
pub fn shipped() -> Option<&'static Redaction> {
    static SHIPPED: std::sync::OnceLock<Option<Redaction>> = std::sync::OnceLock::new();
    SHIPPED
        .get_or_init(|| {
            let regex = Regex::lazy(shipped::PATTERN, shipped::FLAGS).ok()?;
            // Generated lower case.
            let needles = shipped::NEEDLES.iter().map(|set| set.iter().map(|needle| (*needle).to_string()).collect());
            Some(Redaction::with_needles(regex, Some(needles.collect())))
        })
        .as_ref()
}

/// `shipped.rs` as `rules/secrets.rules` makes it: its `let secret_values` and that regex's
/// needles.
#[cfg(test)]
fn shipped_source() -> String {
    let (_, text) = crate::builtin::FILES.iter().find(|(path, _)| *path == "rules/secrets.rules").expect("built in");
    let file = crate::source::SourceFile::new("rules/secrets.rules", *text);
    let ast = crate::syntax::parse(0, &file).expect("the shipped rules parse");
    let list = ast.lists.iter().find(|list| list.name.text == NAME).expect("the baseline names its secret values");
    let crate::syntax::ast::LetValue::Regex(regex) = &list.value else { panic!("`{NAME}` is a regex") };
    let needles = lowered(Regex::lazy(&regex.pattern, &regex.flags).expect("valid flags").needles());
    let needles: Vec<String> = needles
        .iter()
        .map(|set| {
            format!("    &[{}],\n", set.iter().map(|needle| format!("{needle:?}")).collect::<Vec<_>>().join(", "))
        })
        .collect();
    format!(
        "//! The shipped baseline's secret value shapes, generated from `rules/secrets.rules`: do not\n\
         //! edit. `HOOKC_BLESS=1 cargo test -p hookc-core shipped_shapes` writes it anew.\n\n\
         /// The `let secret_values` regex.\n\
         pub(super) const PATTERN: &str = {:?};\n\n\
         /// Its flags.\n\
         pub(super) const FLAGS: &str = {:?};\n\n\
         /// Texts every match contains one of each set of, lower case.\n\
         pub(super) const NEEDLES: &[&[&str]] = &[\n{}];\n",
        regex.pattern,
        regex.flags,
        needles.concat()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `shipped.rs` is what `rules/secrets.rules` makes, and its regex compiles.
    #[test]
    fn shipped_shapes_are_the_baselines_own() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/redact/shipped.rs");
        let generated = shipped_source();
        if std::env::var_os("HOOKC_BLESS").is_some() {
            std::fs::write(&path, &generated).expect("writable source");
        }
        let on_disk = std::fs::read_to_string(&path).expect("readable source");
        assert!(
            on_disk == generated,
            "redact/shipped.rs is out of date: run `HOOKC_BLESS=1 cargo test -p hookc-core shipped_shapes`"
        );
        let regex = Regex::new(shipped::PATTERN, shipped::FLAGS).expect("the shapes compile");
        assert!(regex.get_for(crate::paths::PathCase::Insensitive).is_ok(), "as spans match them, in any case");
        assert!(!shipped::NEEDLES.is_empty(), "the shapes have texts a match must hold");
    }

    /// Secrets in the shapes the shipped vocabulary names, of any length past the shape's
    /// start.
    fn secret() -> impl Strategy<Value = String> {
        prop_oneof![
            "gh[pousr]_[A-Za-z0-9]{20,60}",
            "github_pat_[A-Za-z0-9_]{22,82}",
            "glpat-[A-Za-z0-9_-]{20,40}",
            "xox[bp]-[0-9]{10,13}-[A-Za-z0-9-]{10,40}",
            "sk-ant-api03-[A-Za-z0-9_-]{20,95}",
            "(AKIA|ASIA)[A-Z2-7]{16}",
            "eyJ[A-Za-z0-9_-]{10,40}\\.eyJ[A-Za-z0-9_-]{10,40}\\.[A-Za-z0-9_-]{10,43}",
            "-----BEGIN (RSA |EC |OPENSSH )?PRIVATE KEY-----\n([A-Za-z0-9+/]{64}\n){1,4}[A-Za-z0-9+/=]{4,64}\n-----END (RSA |EC |OPENSSH )?PRIVATE KEY-----",
        ]
    }

    proptest! {
        /// Searching an ASCII text as it is finds what lower-casing it first finds: with a
        /// needle in it in any case, or with none.
        #[test]
        fn ascii_texts_are_searched_as_lowered(
            before in "[ -~]{0,24}",
            needle in proptest::sample::select(shipped::NEEDLES.iter().flat_map(|set| set.iter()).copied().collect::<Vec<_>>()),
            upper in proptest::collection::vec(any::<bool>(), 16),
            after in "[ -~]{0,24}",
            with_needle in any::<bool>(),
        ) {
            let shipped = shipped().expect("the baseline has shapes");
            let cased: String = needle
                .chars()
                .zip(upper.iter().cycle())
                .map(|(letter, up)| if *up { letter.to_ascii_uppercase() } else { letter })
                .collect();
            let text = if with_needle { format!("{before}{cased}{after}") } else { format!("{before}{after}") };
            prop_assert_eq!(shipped.may_match(&text), shipped.may_match_lowered(&text), "{:?}", text);
            prop_assert!(!with_needle || shipped.may_match(&text));
        }

        /// No part of a secret survives past its shape's start, whatever surrounds it; the text
        /// around it is kept.
        #[test]
        fn a_secret_is_redacted_whole(
            before in "[a-z =:'\"]{0,20}( |=|'|\"|: |Bearer )",
            secret in secret(),
            after in "(|[ '\";&|)\n][a-z /.]{0,20})",
        ) {
            let shipped = shipped().expect("the shipped baseline names secret values");
            let text = format!("{before}{secret}{after}");
            let redacted = shipped.apply(&text);
            prop_assert_eq!(redacted.as_ref(), format!("{before}{REDACTED}{after}"));
        }

        /// Text with no secret is returned as it is, without a copy.
        #[test]
        fn text_without_a_secret_is_kept(text in "[a-z0-9 ./_-]{0,200}") {
            let shipped = shipped().expect("the shipped baseline names secret values");
            prop_assert!(matches!(shipped.apply(&text), Cow::Borrowed(kept) if kept == text));
        }
    }

    /// The needles of the shipped shapes are what each shape starts with: a text without any is
    /// kept without compiling.
    #[test]
    fn the_shipped_shapes_have_needles() {
        let shipped = shipped().unwrap();
        assert!(!shipped.may_match("rm -rf / && git push origin main"));
        assert!(shipped.may_match("token ghp_"));
        assert!(shipped.may_match("-----BEGIN RSA PRIVATE KEY-----"));
    }

    #[test]
    fn a_regex_that_does_not_compile_redacts_everything() {
        let broken: Regex = serde_json::from_value(serde_json::json!({"pattern": "(", "flags": ""})).unwrap();
        let redaction = Redaction::new(broken);
        assert_eq!(redaction.apply("curl -H 'x: y'"), REDACTED);
        assert_eq!(redaction.apply(""), "");
    }
}
