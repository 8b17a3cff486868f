//! Stage 1: source text → [`Ast`]. The pest grammar lives in `grammar/rules.pest`.

pub(crate) mod ast;
mod lower;
mod recover;
pub(crate) mod strings;

pub(crate) use ast::Ast;

use crate::diagnostic::{Code, Diagnostic};
use crate::source::{FileId, SourceFile, Span};
use pest::Parser as _;

/// The parser generated from `grammar/rules.pest`; the grammar's `///` comments document it.
mod grammar {
    #![allow(missing_docs)]
    #[derive(pest_derive::Parser)]
    #[grammar = "../../../grammar/rules.pest"]
    pub(crate) struct RulesParser;
}
pub(crate) use grammar::{Rule, RulesParser};

/// Parses one file: its syntax tree, or every error found in it.
pub(crate) fn parse(file_id: FileId, file: &SourceFile) -> Result<Ast, Vec<Diagnostic>> {
    let (ast, errors) = parse_recovering(file_id, file);
    if errors.is_empty() {
        Ok(ast)
    } else {
        Err(errors)
    }
}

/// Parses one file as far as it can: the items that parsed, and the errors of the others. A syntax
/// error is reported where the mistake is (an unclosed `(`, `[` or string at its opening,
/// [`recover`]); its item is then skipped and the rest of the file parsed, so later errors are
/// reported too. Problems found while lowering, such as bad string escapes, are all collected.
pub(crate) fn parse_recovering(file_id: FileId, file: &SourceFile) -> (Ast, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    let mut text = std::borrow::Cow::Borrowed(file.text.as_str());
    let starts = recover::item_starts(&file.text);
    loop {
        match RulesParser::parse(Rule::file, &text) {
            Ok(pairs) => {
                let (ast, lowering) = lower::lower(file_id, pairs);
                errors.extend(lowering);
                return (ast, errors);
            }
            Err(error) => {
                let error = syntax_error(file_id, &error);
                let at = error.span.start as usize;
                let (start, end) = recover::broken_item(&starts, at, text.len());
                errors.push(recover::at_opening(file_id, &file.text, (start, end), error));
                if errors.len() >= recover::MAX_ERRORS || start >= end {
                    return (Ast { lists: Vec::new(), rules: Vec::new(), waivers: Vec::new() }, errors);
                }
                text = std::borrow::Cow::Owned(recover::blank(&text, start, end));
            }
        }
    }
}

fn syntax_error(file_id: FileId, error: &pest::error::Error<Rule>) -> Diagnostic {
    let (start, end) = match error.location {
        pest::error::InputLocation::Pos(at) => (at, at),
        pest::error::InputLocation::Span((start, end)) => (start, end),
    };
    let span = Span::new(file_id, start, end);
    match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let expected = describe_expected(positives);
            Diagnostic::new(Code::Syntax, span, format!("expected {expected}"))
                .label(format!("expected {expected} here"))
        }
        // pest's own guard against nesting deep enough to exhaust the stack.
        pest::error::ErrorVariant::CustomError { message } => {
            Diagnostic::new(Code::Syntax, span, "the rule nests too deeply to parse")
                .label(message.clone())
                .help(format!("conditions may nest at most {} levels", lower::MAX_NESTING))
        }
    }
}

/// "a string, a number or `]`" from the grammar rules pest was hoping for.
fn describe_expected(positives: &[Rule]) -> String {
    let mut words: Vec<&str> = positives.iter().map(|expected| describe(*expected)).collect();
    words.sort_unstable();
    words.dedup();
    match words.split_last() {
        None => "something else".to_string(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

fn describe(expected: Rule) -> &'static str {
    match expected {
        Rule::EOI => "end of file",
        Rule::let_decl | Rule::kw_let => "`let`",
        Rule::rule | Rule::rule_header | Rule::kw_rule => "a rule",
        Rule::rule_name => "a rule name",
        Rule::rule_glob => "a rule name or a pattern of names",
        Rule::audit | Rule::kw_audit | Rule::audit_start => "an audit (`audit RULES [when …] [until YYYY-MM-DD]`)",
        Rule::waiver | Rule::kw_waive => "a waiver (`waive RULE [when …] until YYYY-MM-DD`)",
        Rule::kw_until => "`until`",
        Rule::date => "a date (`YYYY-MM-DD`)",
        Rule::event => "an event name",
        Rule::condition | Rule::conjunction | Rule::negation | Rule::test => "a condition",
        Rule::len_call | Rule::field => "a field",
        Rule::compare | Rule::compare_op => "a comparison (`==`, `!=`, `<`, …)",
        Rule::not_in | Rule::kw_not => "`not`",
        Rule::is_in | Rule::kw_in => "`in`",
        Rule::matches | Rule::kw_matches => "`matches`",
        Rule::like | Rule::kw_like => "`like`",
        Rule::contains | Rule::kw_contains => "`contains`",
        Rule::starts_with | Rule::kw_starts_with => "`starts_with`",
        Rule::ends_with | Rule::kw_ends_with => "`ends_with`",
        Rule::runs | Rule::kw_runs => "`runs`",
        Rule::run_programs => "a program",
        Rule::run_subcommand => "a subcommand",
        Rule::kw_and => "`and`",
        Rule::kw_or => "`or`",
        Rule::kw_when => "`when`",
        Rule::arrow => "`=>`",
        Rule::list_name => "a list name",
        Rule::list => "a list `[…]`",
        Rule::actions | Rule::action => "an action",
        Rule::assignment => "`FIELD = VALUE`",
        Rule::symbol | Rule::ident | Rule::ident_raw | Rule::keyword => "a name",
        Rule::boolean => "`true` or `false`",
        Rule::number => "a number",
        Rule::string | Rule::string_body => "a string",
        Rule::regex | Rule::regex_body => "a regex `/…/`",
        Rule::regex_flags => "regex flags",
        Rule::term | Rule::group => "a condition",
        Rule::subject => "a field",
        Rule::predicate => "an operator",
        Rule::list_operand => "a list",
        Rule::value => "a value",
        Rule::ident_char => "a name",
        Rule::file | Rule::WHITESPACE | Rule::COMMENT => "a rule or `let`",
    }
}
