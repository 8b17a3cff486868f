//! The checked rule set: names resolved, types checked, patterns compiled. This is what the
//! checker hands to the compiler, and what a bundle stores (as language-neutral JSON).

use crate::eval::result::Permission;
use crate::schema::{EventKind, Field};
use serde::{Deserialize, Serialize};

/// One checked rule.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Rule {
    /// Its name (given, or `FILE:LINE`).
    pub name: String,
    /// The event it applies to.
    pub event: EventKind,
    /// Where it was written, `FILE:LINE:COLUMN`.
    pub origin: String,
    /// When it fires.
    pub condition: Cond,
    /// What it does when it fires, in order.
    pub actions: Vec<Action>,
}

/// A condition tree.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cond {
    /// No `when`: always holds.
    Always,
    /// Every child holds.
    All(Vec<Cond>),
    /// Some child holds.
    Any(Vec<Cond>),
    /// The child does not hold.
    Not(Box<Cond>),
    /// A leaf test.
    Test(Test),
}

/// A leaf test, with its source text for traces.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Test {
    /// The test as written (`path like "**/.env*"`).
    pub text: String,
    /// What is looked at.
    pub subject: Subject,
    /// What must be true of it.
    pub pred: Pred,
}

/// A field, or the length of one.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    /// The field's value.
    Field(Field),
    /// The number of characters in the field's value.
    Len(Field),
}

impl Subject {
    /// The field looked at.
    pub fn field(&self) -> &Field {
        match self {
            Subject::Field(field) | Subject::Len(field) => field,
        }
    }
}

/// A literal value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// `true` / `false`.
    Bool(bool),
    /// A number.
    Num(f64),
    /// Text.
    Str(String),
}

/// What a test requires of its subject. A missing field satisfies none of them (so `not` of
/// any test on a missing field holds).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pred {
    /// A bare boolean field is true.
    Truthy,
    /// `==`.
    Eq(Value),
    /// `!=`.
    Ne(Value),
    /// `<`.
    Lt(f64),
    /// `<=`.
    Le(f64),
    /// `>`.
    Gt(f64),
    /// `>=`.
    Ge(f64),
    /// `in [..]`.
    In(Vec<Value>),
    /// `not in [..]`.
    NotIn(Vec<Value>),
    /// `matches /re/`.
    Matches(Regex),
    /// `like "glob"` / `like LIST`.
    Like(Globs),
    /// `contains "text"`.
    Contains(String),
    /// `starts_with "text"`.
    StartsWith(String),
    /// `ends_with "text"`.
    EndsWith(String),
}

/// A message with `{field}` holes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Template(pub Vec<Part>);

/// A piece of a template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// Literal text.
    Text(String),
    /// The value of a field.
    Field(Field),
}

/// What `set` writes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetValue {
    /// A string, possibly interpolated.
    Text(Template),
    /// A number.
    Num(f64),
    /// A boolean.
    Bool(bool),
}

/// A checked action.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A blocking error `{code, message}`.
    Block {
        /// The error code (`hook_blocked`).
        code: String,
        /// The message; defaults to naming the rule.
        message: Option<Template>,
    },
    /// A permission recommendation.
    Permission {
        /// deny, ask or allow.
        behavior: Permission,
        /// Why; defaults to naming the rule.
        reason: Option<Template>,
    },
    /// Rewrites one argument of the tool call.
    Set {
        /// The argument (raw or profile-mapped).
        field: Field,
        /// The new value.
        value: SetValue,
    },
    /// Replaces the tool's output.
    Replace(Template),
    /// Keeps the first N characters of the output.
    Truncate(u64),
    /// Replaces every match in the output.
    Redact {
        /// What to find.
        pattern: Regex,
        /// What to put instead.
        with: Template,
    },
    /// Asks the loop to end the turn after this tool result.
    Stop(Option<Template>),
    /// Forces one more model turn with this user message.
    Continue(Template),
    /// Adds a system message.
    Context(Template),
    /// Writes an audit record; never changes the result.
    Log(Template),
}

/// A compiled regex that serialises as its source.
#[derive(Debug, Clone)]
pub struct Regex {
    /// The pattern as written.
    pub pattern: String,
    /// Flags as written (`i`, `m`, `s`, `x`, `U`).
    pub flags: String,
    /// The compiled form.
    pub compiled: regex::Regex,
}

/// The flag letters a regex may carry.
pub const REGEX_FLAGS: &str = "imsxU";

impl Regex {
    /// Compiles a pattern with flags; the error says what is wrong in regex's own words.
    pub fn new(pattern: &str, flags: &str) -> Result<Regex, String> {
        if let Some(bad) = flags.chars().find(|flag| !REGEX_FLAGS.contains(*flag)) {
            return Err(format!("unknown regex flag `{bad}` (the flags are `i`, `m`, `s`, `x` and `U`)"));
        }
        let compiled =
            regex::RegexBuilder::new(&Self::inline(pattern, flags)).build().map_err(|error| error.to_string())?;
        Ok(Regex { pattern: pattern.to_string(), flags: flags.to_string(), compiled })
    }

    /// The pattern with its flags inline (`(?i:…)`), as a `RegexSet` member needs.
    pub fn inline(pattern: &str, flags: &str) -> String {
        if flags.is_empty() {
            pattern.to_string()
        } else {
            format!("(?{flags}:{pattern})")
        }
    }

    /// This regex's pattern with its flags inline.
    pub fn inline_source(&self) -> String {
        Self::inline(&self.pattern, &self.flags)
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
        Regex::new(&repr.pattern, &repr.flags).map_err(serde::de::Error::custom)
    }
}

/// Compiled globs (any may match) that serialise as their sources.
#[derive(Debug, Clone)]
pub struct Globs {
    /// The globs as written.
    pub patterns: Vec<String>,
    /// Path mode: `*` stays within one path segment (for `path`).
    pub path_mode: bool,
    /// The compiled set.
    pub set: globset::GlobSet,
}

impl Globs {
    /// Compiles globs; the error names the glob that failed.
    pub fn new(patterns: Vec<String>, path_mode: bool) -> Result<Globs, (usize, String)> {
        let mut builder = globset::GlobSetBuilder::new();
        for (index, pattern) in patterns.iter().enumerate() {
            builder.add(Self::glob(pattern, path_mode).map_err(|error| (index, error))?);
        }
        let set = builder.build().map_err(|error| (0, error.to_string()))?;
        Ok(Globs { patterns, path_mode, set })
    }

    /// One glob with hookc's matching options.
    pub fn glob(pattern: &str, path_mode: bool) -> Result<globset::Glob, String> {
        globset::GlobBuilder::new(pattern)
            .literal_separator(path_mode)
            .backslash_escape(true)
            .build()
            .map_err(|error| error.kind().to_string())
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
        Globs::new(repr.globs, repr.path).map_err(|(_, error)| serde::de::Error::custom(error))
    }
}
