//! `fmt`: rule files in one canonical layout, every comment kept.
//!
//! ```text
//! # comments above an item stay above it
//! let NAME = [a, b]
//!
//! rule NAME
//! EVENT when CONDITION
//!   => ACTION, ACTION  # a trailing comment stays at the end of the item
//! ```
//!
//! Items are separated by one blank line (blank lines inside a run of comments are kept, at
//! most one). Literals are printed as written; conditions get single spaces and only the
//! parentheses precedence needs (`not` > `and` > `or`). A comment inside a multi-line rule moves
//! above the rule. Long lists and action lists break one element per line.

use crate::diagnostic::Diagnostic;
use crate::source::{FileId, SourceFile, Span};
use crate::syntax::ast::{
    ActionArg, ActionNode, Expr, LetValue, ListDecl, ListOperand, Literal, Predicate, RegexOperand, RuleDecl, RuleRef,
    RunsExpr, Subject, Test, WaiverDecl,
};
use crate::syntax::{self, Rule as Grammar, RulesParser};
use pest::Parser as _;

/// Lines longer than this break lists and action lists one element per line.
const WIDTH: usize = 100;

/// The rule file's text with `values` (quoted strings) added to the end of its `let` list
/// `name`, those it lacks, and formatted (the text as it is when the list holds them all);
/// `None` when the file defines no such list. What `hookc init` uses to seed `known_hosts`.
pub fn with_list_values(
    file_id: FileId,
    file: &SourceFile,
    name: &str,
    values: &[String],
) -> Result<Option<String>, Vec<Diagnostic>> {
    let ast = syntax::parse(file_id, file)?;
    let Some((list, held)) = ast.lists.iter().find_map(|list| match &list.value {
        LetValue::List(held) if list.name.text == name => Some((list, held)),
        _ => None,
    }) else {
        return Ok(None);
    };
    let present: Vec<String> = held
        .iter()
        .filter_map(|literal| match literal {
            Literal::Str(lit) => crate::syntax::strings::decode_plain(lit).ok(),
            Literal::Symbol(ident) => Some(ident.text.clone()),
            _ => None,
        })
        .collect();
    let missing: Vec<&String> = values.iter().filter(|value| !present.contains(value)).collect();
    if missing.is_empty() {
        return Ok(Some(file.text.clone()));
    }
    // The declaration ends at its `]`; a trailing comma is allowed before it.
    let close = (list.span.end as usize).saturating_sub(1);
    let mut text = file.text.clone();
    let quoted: Vec<String> =
        missing.iter().map(|value| serde_json::Value::String((*value).clone()).to_string()).collect();
    let separator = if held.is_empty() || file.text.get(..close).is_some_and(|head| head.trim_end().ends_with(',')) {
        ""
    } else {
        ", "
    };
    text.insert_str(close, &format!("{separator}{}", quoted.join(", ")));
    let edited = SourceFile::new(file.path.clone(), text);
    format(file_id, &edited).map(Some)
}

/// The canonical text of a rule file, or its syntax errors.
pub fn format(file_id: FileId, file: &SourceFile) -> Result<String, Vec<Diagnostic>> {
    let ast = syntax::parse(file_id, file)?;
    let comments = comments(file);
    let mut items: Vec<Item<'_>> = ast
        .lists
        .iter()
        .map(Item::List)
        .chain(ast.rules.iter().map(Item::Rule))
        .chain(ast.waivers.iter().map(Item::Waiver))
        .collect();
    items.sort_by_key(|item| item.span().start);
    let printer = Printer { file };
    let mut out = String::new();
    let mut next_comment = 0;
    for (index, item) in items.iter().enumerate() {
        let span = item.span();
        let line_end = line_end(&file.text, span.end as usize);
        if index > 0 {
            out.push('\n');
        }
        // Comments before the item, and comments inside it, go above it.
        let mut last_line = None;
        while let Some(comment) = comments
            .get(next_comment)
            .filter(|comment| comment.start < span.end as usize && !is_trailing(comment, span, line_end))
        {
            last_line = Some(comment_line(&mut out, file, comment, last_line));
            next_comment += 1;
        }
        // A blank line between the comments and the item stays.
        if last_line.is_some_and(|last| file.line_col(span.start as usize).0 > last + 1) {
            out.push('\n');
        }
        out.push_str(&printer.item(item));
        // A comment after the item on its last line stays there.
        if let Some(comment) =
            comments.get(next_comment).filter(|comment| comment.start < line_end && comment.start >= span.end as usize)
        {
            out.push_str("  ");
            out.push_str(comment.text);
            next_comment += 1;
        }
        out.push('\n');
    }
    let rest = comments.get(next_comment..).unwrap_or_default();
    if !rest.is_empty() && !out.is_empty() {
        out.push('\n');
    }
    let mut last_line = None;
    for comment in rest {
        last_line = Some(comment_line(&mut out, file, comment, last_line));
    }
    Ok(out)
}

/// Writes a full-line comment, keeping one blank line where the source had a gap after the
/// previous comment; returns the comment's line.
fn comment_line(out: &mut String, file: &SourceFile, comment: &Comment<'_>, previous: Option<usize>) -> usize {
    let line = file.line_col(comment.start).0;
    if previous.is_some_and(|last| line > last + 1) {
        out.push('\n');
    }
    out.push_str(comment.text);
    out.push('\n');
    line
}

fn is_trailing(comment: &Comment<'_>, span: Span, line_end: usize) -> bool {
    comment.start >= span.end as usize && comment.start < line_end
}

fn line_end(text: &str, from: usize) -> usize {
    text.get(from..).and_then(|rest| rest.find('\n')).map_or(text.len(), |offset| from + offset)
}

enum Item<'a> {
    List(&'a ListDecl),
    Rule(&'a RuleDecl),
    Waiver(&'a WaiverDecl),
}

impl Item<'_> {
    fn span(&self) -> Span {
        match self {
            Item::List(list) => list.span,
            Item::Rule(rule) => rule.span,
            Item::Waiver(waiver) => waiver.span,
        }
    }
}

/// A `#` comment: where it starts and its text (without the line break).
struct Comment<'a> {
    start: usize,
    text: &'a str,
}

/// Every comment of the file, in order: `#` outside string and regex literals.
/// The text of every comment of a rule file, in order (a `#` inside a string or a regex is not
/// one): what `format` must keep.
pub fn comment_texts(file: &SourceFile) -> Vec<&str> {
    comments(file).into_iter().map(|comment| comment.text).collect()
}

fn comments(file: &SourceFile) -> Vec<Comment<'_>> {
    let mut literals: Vec<(usize, usize)> = Vec::new();
    if let Ok(pairs) = RulesParser::parse(Grammar::file, &file.text) {
        for pair in pairs.flatten() {
            if matches!(pair.as_rule(), Grammar::string | Grammar::regex) {
                literals.push((pair.as_span().start(), pair.as_span().end()));
            }
        }
    }
    let mut found = Vec::new();
    let mut position = 0;
    while let Some(offset) = file.text.get(position..).and_then(|rest| rest.find('#')) {
        let start = position + offset;
        if let Some(&(_, end)) = literals.iter().find(|(from, to)| *from <= start && start < *to) {
            position = end;
            continue;
        }
        let end = line_end(&file.text, start);
        found.push(Comment { start, text: file.text.get(start..end).unwrap_or("").trim_end() });
        position = end;
    }
    found
}

struct Printer<'a> {
    file: &'a SourceFile,
}

impl Printer<'_> {
    fn text(&self, span: Span) -> &str {
        self.file.slice(span)
    }

    fn item(&self, item: &Item<'_>) -> String {
        match item {
            Item::List(ListDecl { name, value: LetValue::List(values), .. }) => {
                let values: Vec<&str> = values.iter().map(|value| self.text(value.span())).collect();
                let head = format!("let {} = ", name.text);
                broken(&head, "[", &values, "]", "  ")
            }
            Item::List(ListDecl { name, value: LetValue::Regex(regex), .. }) => {
                format!("let {} = {}", name.text, self.text(regex.span))
            }
            Item::Rule(rule) => self.rule(rule),
            Item::Waiver(waiver) => self.waiver(waiver),
        }
    }

    /// `waive RULE [when CONDITION] until DATE ["REASON"]`, the condition on a line of its own
    /// when the whole would be long.
    fn waiver(&self, waiver: &WaiverDecl) -> String {
        let rules = match &waiver.rules {
            RuleRef::Names(name) => name.text.as_str(),
            RuleRef::File(file) => self.text(file.span),
        };
        let mut out = format!("{} {rules}", waiver.mode.keyword());
        if let Some(condition) = &waiver.condition {
            out.push_str(" when ");
            out.push_str(&self.expr(condition, Precedence::Or));
        }
        let mut tail: Vec<&str> = Vec::new();
        if let Some(until) = &waiver.until {
            tail.extend(["until", until.text.as_str()]);
        }
        if let Some(reason) = &waiver.reason {
            tail.push(self.text(reason.span));
        }
        let tail = tail.join(" ");
        match tail.is_empty() {
            true => out,
            false if out.len() + 1 + tail.len() <= WIDTH => format!("{out} {tail}"),
            false => format!("{out}\n  {tail}"),
        }
    }

    fn rule(&self, rule: &RuleDecl) -> String {
        let mut out = String::new();
        if let Some(name) = &rule.name {
            out.push_str(&format!("rule {}\n", name.text));
        }
        out.push_str(&rule.event.text);
        if let Some(condition) = &rule.condition {
            let one_line = self.expr(condition, Precedence::Or);
            // A long condition breaks before each of its top-level `and`s or `or`s.
            let broken = match condition {
                _ if rule.event.text.len() + " when ".len() + one_line.len() <= WIDTH => None,
                Expr::Or(children, _) => Some(self.joined(children, "\n  or ", Precedence::Or)),
                Expr::And(children, _) => Some(self.joined(children, "\n  and ", Precedence::And)),
                _ => None,
            };
            out.push_str(" when ");
            out.push_str(&broken.unwrap_or(one_line));
        }
        out.push('\n');
        let actions: Vec<String> = rule.actions.iter().map(|action| self.action(action)).collect();
        let one_line = format!("  => {}", actions.join(", "));
        if one_line.len() <= WIDTH || actions.len() == 1 {
            out.push_str(&one_line);
        } else {
            out.push_str(&format!("  => {}", actions.join(",\n     ")));
        }
        out
    }

    fn expr(&self, expr: &Expr, context: Precedence) -> String {
        let (text, own) = match expr {
            Expr::Or(children, _) => (self.joined(children, " or ", Precedence::Or), Precedence::Or),
            Expr::And(children, _) => (self.joined(children, " and ", Precedence::And), Precedence::And),
            Expr::Not(child, _) => (format!("not {}", self.expr(child, Precedence::Not)), Precedence::Not),
            Expr::Test(test) => (self.test(test), Precedence::Test),
            Expr::Runs(runs) => (self.runs(runs), Precedence::Test),
        };
        if own < context {
            format!("({text})")
        } else {
            text
        }
    }

    fn joined(&self, children: &[Expr], separator: &str, precedence: Precedence) -> String {
        // A child of the same kind needs parentheses only to keep the tree as written.
        let tighter = match precedence {
            Precedence::Or => Precedence::And,
            _ => Precedence::Not,
        };
        children.iter().map(|child| self.expr(child, tighter)).collect::<Vec<_>>().join(separator)
    }

    fn test(&self, test: &Test) -> String {
        let subject = match &test.subject {
            Subject::Field(field) => field.text.clone(),
            Subject::Len(field, _) => format!("len({})", field.text),
        };
        let Some(predicate) = &test.predicate else { return subject };
        let value = |literal: &Literal| self.text(literal.span()).to_string();
        let predicate = match predicate {
            Predicate::Compare(op, literal) => {
                let op = match op {
                    crate::syntax::ast::CompareOp::Eq => "==",
                    crate::syntax::ast::CompareOp::Ne => "!=",
                    crate::syntax::ast::CompareOp::Lt => "<",
                    crate::syntax::ast::CompareOp::Le => "<=",
                    crate::syntax::ast::CompareOp::Gt => ">",
                    crate::syntax::ast::CompareOp::Ge => ">=",
                };
                format!("{op} {}", value(literal))
            }
            Predicate::In { negated, list } => format!("{}in {}", if *negated { "not " } else { "" }, self.list(list)),
            Predicate::Matches(RegexOperand::Inline(regex)) => format!("matches {}", self.text(regex.span)),
            Predicate::Matches(RegexOperand::Named(name)) => format!("matches {}", name.text),
            Predicate::Like(list) => format!("like {}", self.list(list)),
            Predicate::Contains(literal) => format!("contains {}", value(literal)),
            Predicate::StartsWith(literal) => format!("starts_with {}", value(literal)),
            Predicate::EndsWith(literal) => format!("ends_with {}", value(literal)),
        };
        format!("{subject} {predicate}")
    }

    fn runs(&self, runs: &RunsExpr) -> String {
        let mut text = "runs".to_string();
        if let Some(programs) = &runs.programs {
            text.push(' ');
            text.push_str(&self.list(programs));
        }
        if let Some(subcommand) = &runs.subcommand {
            text.push(' ');
            text.push_str(self.text(subcommand.span()));
        }
        if let Some(condition) = &runs.condition {
            text.push_str(&format!(" ({})", self.expr(condition, Precedence::Or)));
        }
        text
    }

    fn list(&self, list: &ListOperand) -> String {
        match list {
            ListOperand::Named(name) => name.text.clone(),
            ListOperand::Inline(values, span) => {
                // `like "glob"` is an inline list of one string written without brackets.
                if !self.text(*span).starts_with('[') {
                    return self.text(*span).to_string();
                }
                let values: Vec<&str> = values.iter().map(|value| self.text(value.span())).collect();
                format!("[{}]", values.join(", "))
            }
        }
    }

    fn action(&self, action: &ActionNode) -> String {
        let mut parts = vec![action.name.text.clone()];
        for arg in &action.args {
            parts.push(match arg {
                ActionArg::Assign(target, value, _) => format!("{} = {}", target.text, self.text(value.span())),
                other => self.text(other.span()).to_string(),
            });
        }
        parts.join(" ")
    }
}

/// Condition precedence, loosest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Precedence {
    Or,
    And,
    Not,
    Test,
}

/// `head[a, b]`, or one element per line when that is longer than [`WIDTH`].
fn broken(head: &str, open: &str, values: &[&str], close: &str, indent: &str) -> String {
    let one_line = format!("{head}{open}{}{close}", values.join(", "));
    if one_line.len() <= WIDTH || values.is_empty() {
        return one_line;
    }
    let body: String = values.iter().map(|value| format!("{indent}{value},\n")).collect();
    format!("{head}{open}\n{body}{close}")
}
