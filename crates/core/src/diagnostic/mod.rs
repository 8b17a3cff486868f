//! Diagnostics: what `hookc check` reports, rendered like rustc's.
//!
//! Every finding is a [`Diagnostic`] with a stable [`Code`], a primary span, optional secondary
//! spans (say, the earlier rule of the same name) and an optional `help:` line. Stages collect
//! all their findings instead of stopping at the first.

mod docs;
pub mod sarif;

pub use docs::{all_docs, Doc};

use crate::source::{FileId, SourceMap, Span};
use annotate_snippets::{Level, Message, Renderer, Snippet};
use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth fixing; does not fail `hookc check` (unless `--deny-warnings`).
    Warning,
    /// The rule set cannot be used.
    Error,
}

macro_rules! codes {
    ($($variant:ident = $code:literal, $severity:ident, $summary:literal;)*) => {
        /// Every diagnostic code hookc reports.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
        pub enum Code {
            $(
                #[doc = $summary]
                #[serde(rename = $code)]
                $variant,
            )*
        }

        impl Code {
            /// All codes, in order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The code as shown (`E0101`).
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code),* }
            }

            /// Its default severity.
            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity),* }
            }

            /// One line saying what the code is about.
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary),* }
            }
        }
    };
}

codes! {
    Syntax = "E0001", Error, "the text does not follow the grammar of the rules language";
    BadEscape = "E0002", Error, "a string has an unknown escape or an unbalanced `{` `}`";
    UnknownEvent = "E0101", Error, "the event name is not one hookc knows";
    UnknownField = "E0102", Error, "the field name is not one hookc knows";
    FieldNotInEvent = "E0103", Error, "the field exists but the rule's event does not carry it";
    UnknownAction = "E0104", Error, "the action name is not one hookc knows";
    ActionNotInEvent = "E0105", Error, "the action exists but the rule's event cannot produce its result";
    ActionArguments = "E0106", Error, "an action was given the wrong arguments";
    UnknownList = "E0107", Error, "a `let` list is used but never defined";
    DuplicateRule = "E0108", Error, "two rules have the same name";
    DuplicateList = "E0109", Error, "two `let` lists have the same name";
    UnknownWaivedRule = "E0110", Error, "a waiver or an audit names a rule the rule set does not have";
    InvalidDate = "E0111", Error, "a waiver's or an audit's date is not a calendar day (`YYYY-MM-DD`)";
    AmbiguousRuleFile = "E0112", Error, "an audit names a rule file by a name several files of the rule set end with";
    TypeMismatch = "E0201", Error, "an operator is applied to a value of the wrong type";
    InvalidRegex = "E0202", Error, "a regular expression does not compile";
    InvalidGlob = "E0203", Error, "a glob pattern does not compile";
    UnrenderableField = "E0204", Error, "a message or value names a field that some events the rule admits do not carry";
    UnknownValue = "E0205", Error, "a value of a field whose values hookc defines (`kind`, `access`, `agent`) is not one of them";
    UnreachableRule = "W0301", Warning, "a rule can never fire: an earlier rule always blocks first";
    ImpossibleCondition = "W0302", Warning, "a condition can never be true";
    IneffectiveAllow = "W0303", Warning, "an `allow` or `ask` can never take effect: a stronger recommendation always fires with it";
    DuplicateRuleBody = "W0304", Warning, "two rules have the same event, condition and actions";
    UnusedList = "W0305", Warning, "a `let` list is never used";
    DuplicateListValue = "W0306", Warning, "a `let` list repeats a value";
    UnknownTool = "W0307", Warning, "a `tool` value is not the name of any agent's tool";
    OneAgentTool = "W0308", Warning, "a `tool` test leaves some of the agents' shell, read, write, search or fetch tools ungoverned";
    NegatedMissingField = "W0309", Warning, "a negated test holds for every call that lacks its field";
    AllowAdmitsShell = "W0310", Warning, "an `allow` on files also allows shell commands that name only those files";
    AgentDeparts = "W0311", Warning, "an agent the rules are checked for (`--agent`) is not answered at the rule's event, or does not honour its action";
    CostlyPattern = "W0312", Warning, "a regex compiles large, so every hook call that reaches it is slow";
    ApprovesForPerson = "W0313", Warning, "an `allow` at `permission_request` approves the call on the person's behalf";
    UnknownVendorValue = "W0314", Warning, "a value of a field whose values the agents define (`permission_mode`, `source`, …) is not one any agent is known to send";
    ExpiredWaiver = "W0315", Warning, "a waiver's or an audit's last day has passed: it lifts nothing any more";
}

impl Code {
    /// Whether a finding of this code depends on every item of the rule set being read (a list
    /// used but not defined, a rule no earlier rule can reach), and so may be wrong while some
    /// item has a syntax error.
    pub fn depends_on_every_item(self) -> bool {
        matches!(
            self,
            Code::UnknownList
                | Code::UnusedList
                | Code::UnreachableRule
                | Code::IneffectiveAllow
                | Code::UnknownWaivedRule
                | Code::AmbiguousRuleFile
        )
    }
}

/// A secondary location with its own label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Label {
    /// Where.
    #[serde(skip)]
    pub span: Span,
    /// What is there.
    pub message: String,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// The headline, lowercase with user input in backticks.
    pub message: String,
    /// The primary location.
    pub span: Span,
    /// Text under the primary caret.
    pub label: String,
    /// Further locations.
    pub secondary: Vec<Label>,
    /// Advice, shown as `help:`.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A finding with the code's default severity.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            span,
            label: String::new(),
            secondary: Vec::new(),
            help: None,
        }
    }

    /// Sets the text under the primary caret.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds a secondary location.
    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label { span, message: message.into() });
        self
    }

    /// Sets the `help:` line.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets `help:` to a "did you mean" when a candidate is close enough.
    pub fn suggest<'a>(self, typed: &str, candidates: impl IntoIterator<Item = &'a str>) -> Self {
        match did_you_mean(typed, candidates) {
            Some(best) => self.help(format!("did you mean `{best}`?")),
            None => self,
        }
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The candidate closest to `typed`, if one is close enough to be a likely typo.
pub fn did_you_mean<'a>(typed: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|candidate| (strsim::jaro_winkler(typed, candidate), candidate))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}

/// Renders diagnostics as rustc does: `error[E0101]: …`, `--> file:line:col`, the source line
/// with a caret, then `help:`.
pub fn render(diagnostics: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    let texts: Vec<(FileId, String)> = sources.iter().map(|(id, file)| (id, displayable(&file.text))).collect();
    let mut out = String::new();
    for diagnostic in diagnostics {
        out.push_str(&renderer.render(message(diagnostic, sources, &texts)).to_string());
        out.push_str("\n\n");
    }
    out
}

/// The text as the renderer is given it, each character replaced by as many bytes as it had, so
/// every span stays valid: a tab becomes a space, and every other whitespace or control character
/// but a line break (`\r` inside a line, a form feed, U+2028, NUL) becomes `?`, visible and one
/// column wide.
///
/// annotate-snippets 0.11 counts a line's leading whitespace per character (a tab as four) but
/// places the caret by display width, where `\r` and the other controls are zero wide. On a line
/// wider than its 140 columns, a caret left of the counted whitespace made its margin arithmetic
/// subtract below zero (a panic in debug builds, found by fuzzing). With only spaces and visible
/// characters the counts agree, and [`clamp`] keeps a caret out of a line's leading spaces.
fn displayable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => out.push(c),
            '\n' | ' ' => out.push(c),
            '\t' => out.push(' '),
            c if c.is_whitespace() || c.is_control() => out.extend(std::iter::repeat_n('?', c.len_utf8())),
            c => out.push(c),
        }
    }
    out
}

fn level(severity: Severity) -> Level {
    match severity {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
    }
}

fn message<'a>(diagnostic: &'a Diagnostic, sources: &'a SourceMap, texts: &'a [(FileId, String)]) -> Message<'a> {
    let level = level(diagnostic.severity);
    let mut message = level.title(&diagnostic.message).id(diagnostic.code.as_str());
    let mut files: Vec<u32> = vec![diagnostic.span.file];
    for label in &diagnostic.secondary {
        if !files.contains(&label.span.file) {
            files.push(label.span.file);
        }
    }
    for file_id in files {
        let Some(file) = sources.get(file_id) else { continue };
        let Some((_, text)) = texts.iter().find(|(id, _)| *id == file_id) else { continue };
        let primary = (diagnostic.span.file == file_id).then_some((diagnostic.span, level, diagnostic.label.as_str()));
        let secondary = diagnostic.secondary.iter().filter(|label| label.span.file == file_id);
        let marks: Vec<Mark<'_>> = primary
            .into_iter()
            .chain(secondary.map(|label| (label.span, Level::Note, label.message.as_str())))
            .map(|(span, level, label)| (clamp(span, text), level, label))
            .collect();
        for group in near_each_other(file, &marks) {
            message = message.snippet(window(file, text, &group));
        }
    }
    if let Some(help) = &diagnostic.help {
        message = message.footer(Level::Help.title(help));
    }
    message
}

/// A labelled span of a file: its range in the displayable text, its level and its label.
type Mark<'a> = (std::ops::Range<usize>, Level, &'a str);

/// Lines apart beyond which two marks of a file are shown as two excerpts, not one folded one.
const NEAR_LINES: usize = 40;

/// A file's marks in groups that each make one excerpt: marks within [`NEAR_LINES`] of each other
/// share one (the renderer folds the lines between), marks further apart get one each, so that no
/// excerpt holds much more than the lines it marks.
fn near_each_other<'m, 'a>(file: &crate::source::SourceFile, marks: &'m [Mark<'a>]) -> Vec<Vec<&'m Mark<'a>>> {
    let line = |offset: usize| file.lines_around(offset, offset).1;
    let mut order: Vec<&Mark<'a>> = marks.iter().collect();
    order.sort_by_key(|(range, _, _)| range.start);
    let mut groups: Vec<(usize, Vec<&Mark<'a>>)> = Vec::new();
    for mark in order {
        let (first, last) = (line(mark.0.start), line(mark.0.end));
        match groups.last_mut() {
            Some((end, group)) if first <= *end + NEAR_LINES => {
                *end = (*end).max(last);
                group.push(mark);
            }
            _ => groups.push((last, vec![mark])),
        }
    }
    // The marks keep the diagnostic's order, within an excerpt and across them: the excerpt with
    // the primary label comes first, and the header (`-->`) points at it.
    let place = |mark: &&Mark<'a>| marks.iter().position(|other| std::ptr::eq(other, *mark));
    let mut groups: Vec<Vec<&Mark<'a>>> = groups
        .into_iter()
        .map(|(_, mut group)| {
            group.sort_by_key(place);
            group
        })
        .collect();
    groups.sort_by_key(|group| group.first().and_then(place));
    groups
}

/// One excerpt of a file: the whole lines its marks are on, with their true line numbers. The
/// renderer reads every line it is given, so the whole file for each diagnostic made `hookc check`
/// quadratic in the file's size.
fn window<'a>(file: &'a crate::source::SourceFile, text: &'a str, marks: &[&Mark<'a>]) -> Snippet<'a> {
    let start = marks.iter().map(|(range, _, _)| range.start).min().unwrap_or(0);
    let end = marks.iter().map(|(range, _, _)| range.end).max().unwrap_or(0);
    let (lines, first) = file.lines_around(start, end);
    let excerpt = text.get(lines.clone()).unwrap_or_default();
    let mut snippet = Snippet::source(excerpt).line_start(first).origin(path_str(file)).fold(true);
    for (range, level, label) in marks {
        let shifted = range.start.saturating_sub(lines.start)..range.end.saturating_sub(lines.start);
        snippet = snippet.annotation(level.span(shifted).label(label));
    }
    snippet
}

fn path_str(file: &crate::source::SourceFile) -> &str {
    file.path.to_str().unwrap_or("<non-UTF-8 path>")
}

/// A span's range limited to the text, so a stale span can never make the renderer misbehave.
/// A span within the text, moved out of its line's leading spaces (the renderer cannot place a
/// caret there on a wide line): to the line's first other character.
fn clamp(span: Span, text: &str) -> std::ops::Range<usize> {
    let mut end = (span.end as usize).min(text.len());
    let mut start = (span.start as usize).min(end);
    let line_start = text.get(..start).and_then(|before| before.rfind('\n')).map_or(0, |at| at + 1);
    let line = text.get(line_start..).unwrap_or_default();
    let line = line.split('\n').next().unwrap_or_default();
    let indent = line.len() - line.trim_start_matches(' ').len();
    if start < line_start + indent && indent < line.len() {
        start = line_start + indent;
        end = end.max(start);
    }
    start..end
}

/// The JSON form of a diagnostic (`hookc check --format json`).
#[derive(Debug, Serialize)]
pub struct JsonDiagnostic<'a> {
    /// `E0101`…
    pub code: Code,
    /// `error` or `warning`.
    pub severity: Severity,
    /// The headline.
    pub message: &'a str,
    /// The file.
    pub file: String,
    /// 1-based line of the primary span's start.
    pub line: usize,
    /// 1-based column (characters) of the primary span's start.
    pub column: usize,
    /// 1-based line of the primary span's end.
    pub end_line: usize,
    /// 1-based column of the primary span's end.
    pub end_column: usize,
    /// Text under the caret.
    pub label: &'a str,
    /// Secondary locations.
    pub related: Vec<JsonLabel<'a>>,
    /// Advice.
    pub help: Option<&'a str>,
}

/// A secondary location in JSON.
#[derive(Debug, Serialize)]
pub struct JsonLabel<'a> {
    /// The file.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is there.
    pub message: &'a str,
}

impl Diagnostic {
    /// The JSON form, with line and column resolved against the sources.
    pub fn to_json<'a>(&'a self, sources: &SourceMap) -> JsonDiagnostic<'a> {
        let locate = |span: Span, at_end: bool| {
            sources.get(span.file).map_or((String::new(), 0, 0), |file| {
                let (line, column) = file.line_col(if at_end { span.end } else { span.start } as usize);
                (file.name(), line, column)
            })
        };
        let (file, line, column) = locate(self.span, false);
        let (_, end_line, end_column) = locate(self.span, true);
        JsonDiagnostic {
            code: self.code,
            severity: self.severity,
            message: &self.message,
            file,
            line,
            column,
            end_line,
            end_column,
            label: &self.label,
            related: self
                .secondary
                .iter()
                .map(|label| {
                    let (file, line, column) = locate(label.span, false);
                    JsonLabel { file, line, column, message: &label.message }
                })
                .collect(),
            help: self.help.as_deref(),
        }
    }
}
