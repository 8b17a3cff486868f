//! The checked rule set: names resolved, types checked, patterns compiled. This is what the
//! checker hands to the compiler, and what a bundle stores (as language-neutral JSON, in the
//! compact encoding of `encoding.rs`; `display.rs` renders tests back as rule source).

mod display;
mod encoding;
pub(crate) mod holds;
mod hosts;

pub(crate) use hosts::HostSet;

use crate::model::result::Permission;
pub(crate) use crate::pattern::{Globs, Regex};
use crate::vocab::{EventKind, Field};
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

/// A checked waiver or audit: where the rule named fires and the condition holds, its effect
/// is lifted (an audit records what it would have decided) through the end of `until` (UTC),
/// judged at call time.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Waiver {
    /// The rule it lifts.
    pub rule: String,
    /// Where it lifts it (`Always` when the waiver has no `when`).
    pub condition: Cond,
    /// The last day it holds, `YYYY-MM-DD` (UTC, inclusive); `None` (an audit's only) holds
    /// until the statement is removed.
    pub until: Option<String>,
    /// Why, if said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Where it was written, `FILE:LINE:COLUMN`.
    pub origin: String,
    /// A waiver, or an audit.
    #[serde(default, skip_serializing_if = "Lift::is_waive")]
    pub mode: Lift,
}

/// How a fired rule's effect is lifted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Lift {
    /// `waive`: lifted, for an exception.
    #[default]
    Waive,
    /// `audit`: lifted, and what the rule would have decided is recorded (a rule being rolled
    /// out).
    Audit,
}

impl Lift {
    /// Whether this is `waive`.
    pub fn is_waive(&self) -> bool {
        *self == Lift::Waive
    }

    /// The statement's keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Lift::Waive => "waive",
            Lift::Audit => "audit",
        }
    }
}

impl Waiver {
    /// Whether the waiver holds on `day` (days since 1970-01-01, UTC): through the end of its
    /// last day; an audit without one, always. A date that does not read, or a waiver without
    /// one (a hand-made bundle), never holds: the rule applies.
    pub fn holds_on(&self, day: i64) -> bool {
        match &self.until {
            Some(until) => day_of(until).is_some_and(|last| day <= last),
            None => self.mode == Lift::Audit,
        }
    }
}

/// The day a `YYYY-MM-DD` date is, in days since 1970-01-01; `None` when it is not a calendar
/// day.
pub fn day_of(date: &str) -> Option<i64> {
    if date.len() != 10 || !date.is_ascii() {
        return None;
    }
    let time = humantime::parse_rfc3339(&format!("{date}T00:00:00Z")).ok()?;
    let seconds = time.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    i64::try_from(seconds / 86_400).ok()
}

/// Today, in days since 1970-01-01 (UTC), by the system clock: the only clock a hook call reads.
pub fn today() -> i64 {
    // A clock before 1970 is no day at all: no waiver holds (the rules apply).
    let seconds =
        crate::clock::system_now().duration_since(std::time::UNIX_EPOCH).map_or(u64::MAX, |since| since.as_secs());
    i64::try_from(seconds / 86_400).unwrap_or(i64::MAX)
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
    /// Some simple command of a shell call's command line runs one of these programs and
    /// satisfies the condition (`runs rm (flags in [r, R] and operands == "/")`).
    Runs(Box<Runs>),
}

impl Cond {
    /// Whether the condition reads the file of a reading (`path`, `access`).
    pub fn reads_file(&self) -> bool {
        match self {
            Cond::Always => false,
            Cond::All(children) | Cond::Any(children) => children.iter().any(Cond::reads_file),
            Cond::Not(child) => child.reads_file(),
            Cond::Runs(runs) => runs.condition.reads_file(),
            Cond::Test(test) => {
                matches!(test.subject.field(), Field::Semantic(crate::vocab::Semantic::Path) | Field::Access)
            }
        }
    }
}

/// `runs [PROGRAMS] [SUBCOMMAND] [(CONDITION)]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Runs {
    /// The programs, any of which; empty for any program.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub programs: Vec<String>,
    /// The command's first operand must be this (`git push`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subcommand: Option<String>,
    /// What the command must satisfy, its fields (`flags`, `operands`, …) in scope.
    pub condition: Cond,
}

/// A leaf test. Its `Display` is the test as rule source (`path like "**/.env*"`).
#[derive(Debug, Clone)]
pub struct Test {
    /// What is looked at.
    pub subject: Subject,
    /// What must be true of it.
    pub pred: Pred,
}

/// A field, or the length of one.
#[derive(Debug, Clone)]
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

/// A literal value (JSON `true`, `1.5` or `"text"`).
#[derive(Debug, Clone, PartialEq)]
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
    /// `in [..]` of a host field (`egress`, `host`): names, `*.` names, addresses, networks.
    InHosts(HostSet),
    /// `not in [..]` of a host field.
    NotInHosts(HostSet),
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

/// A message with `{field}` holes; stored as one string, `\{` `\}` `\\` escaping literals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template(pub Vec<Part>);

/// A piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
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
