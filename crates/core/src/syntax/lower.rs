//! pest pairs → [`Ast`]. The grammar guarantees each pair's shape; where the code must still ask
//! (`next()` on children), a missing child is reported as an internal syntax error, never a panic.

use super::ast::*;
use super::Rule;
use crate::diagnostic::{Code, Diagnostic};
use crate::source::{FileId, Span};
use pest::iterators::{Pair, Pairs};

type Lowered<T> = Result<T, Diagnostic>;

/// How deeply conditions may nest (`not`, parentheses). Every later stage recurses over the
/// condition tree, so the limit is what keeps a pathological file from exhausting the stack;
/// no real rule comes near it.
pub(super) const MAX_NESTING: usize = 100;

pub(super) fn lower(file: FileId, mut pairs: Pairs<'_, Rule>) -> (Ast, Vec<Diagnostic>) {
    let lowerer = Lowerer { file };
    let mut ast = Ast { lists: Vec::new(), rules: Vec::new(), waivers: Vec::new() };
    let mut errors = Vec::new();
    let Some(file_pair) = pairs.next() else { return (ast, errors) };
    for item in file_pair.into_inner() {
        match item.as_rule() {
            Rule::let_decl => match lowerer.list_decl(item) {
                Ok(list) => ast.lists.push(list),
                Err(error) => errors.push(error),
            },
            Rule::rule => match lowerer.rule(item) {
                Ok(rule) => ast.rules.push(rule),
                Err(error) => errors.push(error),
            },
            Rule::waiver | Rule::audit => match lowerer.waiver(item) {
                Ok(waiver) => ast.waivers.push(waiver),
                Err(error) => errors.push(error),
            },
            _ => {}
        }
    }
    (ast, errors)
}

struct Lowerer {
    file: FileId,
}

impl Lowerer {
    /// The pair's span, without the trailing whitespace pest may have consumed.
    fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let span = pair.as_span();
        let trimmed = pair.as_str().trim_end().len();
        Span::new(self.file, span.start(), span.start() + trimmed)
    }

    fn ident(&self, pair: &Pair<'_, Rule>) -> Ident {
        Ident { text: pair.as_str().to_string(), span: self.span(pair) }
    }

    /// The next child, or an error pointing at the parent (unreachable with this grammar).
    fn child<'i>(
        &self,
        parent_span: Span,
        children: &mut impl Iterator<Item = Pair<'i, Rule>>,
    ) -> Lowered<Pair<'i, Rule>> {
        children.next().ok_or_else(|| Diagnostic::new(Code::Syntax, parent_span, "incomplete construct").label("here"))
    }

    fn list_decl(&self, pair: Pair<'_, Rule>) -> Lowered<ListDecl> {
        let span = self.span(&pair);
        let mut children = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_let);
        let name = children.next().map(|p| self.ident(&p));
        let list = children.next();
        match (name, list) {
            (Some(name), Some(value)) if value.as_rule() == Rule::regex => {
                Ok(ListDecl { name, value: LetValue::Regex(self.regex(value)), span })
            }
            (Some(name), Some(list)) => Ok(ListDecl { name, value: LetValue::List(self.list_values(list)?), span }),
            _ => Err(Diagnostic::new(Code::Syntax, span, "incomplete `let`").label("here")),
        }
    }

    fn list_values(&self, pair: Pair<'_, Rule>) -> Lowered<Vec<Literal>> {
        pair.into_inner().map(|value| self.literal(value)).collect()
    }

    fn rule(&self, pair: Pair<'_, Rule>) -> Lowered<RuleDecl> {
        let span = self.span(&pair);
        let mut name = None;
        let mut event = None;
        let mut condition = None;
        let mut actions = Vec::new();
        for child in pair.into_inner() {
            match child.as_rule() {
                Rule::rule_header => {
                    let header_span = self.span(&child);
                    let mut inner = child.into_inner().filter(|p| p.as_rule() == Rule::rule_name);
                    name = Some(self.ident(&self.child(header_span, &mut inner)?));
                }
                Rule::event => event = Some(self.ident(&child)),
                Rule::condition => condition = Some(self.condition(child, 0)?),
                Rule::actions => {
                    for action in child.into_inner() {
                        actions.push(self.action(action)?);
                    }
                }
                _ => {}
            }
        }
        let event = event.ok_or_else(|| Diagnostic::new(Code::Syntax, span, "rule without an event").label("here"))?;
        // pest keeps the whitespace and comments it skipped after the last action inside the
        // rule's span: a rule ends where its last action does.
        let span = actions.last().map_or(span, |last| Span { end: last.span.end, ..span });
        Ok(RuleDecl { name, event, condition, actions, span })
    }

    /// A `waive` or an `audit` statement.
    fn waiver(&self, pair: Pair<'_, Rule>) -> Lowered<WaiverDecl> {
        let span = self.span(&pair);
        let mode = match pair.as_rule() {
            Rule::audit => crate::ir::Lift::Audit,
            _ => crate::ir::Lift::Waive,
        };
        let (mut rules, mut condition, mut until, mut reason) = (None, None, None, None);
        for child in pair.into_inner() {
            match child.as_rule() {
                Rule::rule_name | Rule::rule_glob => rules = Some(RuleRef::Names(self.ident(&child))),
                // An audit's first string names a rule file; a later one is the reason.
                Rule::string if rules.is_none() => rules = Some(RuleRef::File(self.str_lit(child))),
                Rule::condition => condition = Some(self.condition(child, 0)?),
                Rule::date => until = Some(self.ident(&child)),
                Rule::string => reason = Some(self.str_lit(child)),
                _ => {}
            }
        }
        let Some(rules) = rules else { return Err(incomplete(span)) };
        if mode == crate::ir::Lift::Waive && until.is_none() {
            return Err(incomplete(span));
        }
        let last = match (&reason, &until, &condition, &rules) {
            (Some(reason), ..) => reason.span.end,
            (None, Some(until), ..) => until.span.end,
            (None, None, Some(condition), _) => condition.span().end,
            (None, None, None, RuleRef::Names(name)) => name.span.end,
            (None, None, None, RuleRef::File(file)) => file.span.end,
        };
        Ok(WaiverDecl { mode, rules, condition, until, reason, span: Span { end: last, ..span } })
    }

    fn condition(&self, pair: Pair<'_, Rule>, depth: usize) -> Lowered<Expr> {
        let span = self.span(&pair);
        if depth > MAX_NESTING {
            return Err(Diagnostic::new(
                Code::Syntax,
                span,
                format!("the condition nests more than {MAX_NESTING} levels deep"),
            )
            .label("too deep")
            .help("split the condition, or use a `let` list with `in`"));
        }
        match pair.as_rule() {
            Rule::condition => self.joined(span, pair.into_inner(), Expr::Or, depth),
            Rule::conjunction => self.joined(span, pair.into_inner(), Expr::And, depth),
            Rule::negation => {
                let mut inner = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_not);
                let operand = inner.next().ok_or_else(|| incomplete(span))?;
                Ok(Expr::Not(Box::new(self.condition(operand, depth + 1)?), span))
            }
            Rule::test => self.test(pair).map(Expr::Test),
            Rule::runs => {
                let mut runs = RunsExpr { programs: None, subcommand: None, condition: None, span };
                for child in pair.into_inner() {
                    match child.as_rule() {
                        Rule::run_programs => {
                            let inner = self.child(span, &mut child.into_inner())?;
                            runs.programs = Some(self.list_operand(inner)?);
                        }
                        Rule::run_subcommand => {
                            let inner = self.child(span, &mut child.into_inner())?;
                            runs.subcommand = Some(self.literal(inner)?);
                        }
                        Rule::condition => runs.condition = Some(self.condition(child, depth + 1)?),
                        _ => {}
                    }
                }
                Ok(Expr::Runs(Box::new(runs)))
            }
            _ => Err(incomplete(span)),
        }
    }

    /// `a or b or c` / `a and b`: one operand stays itself, several are joined.
    fn joined(
        &self,
        span: Span,
        children: Pairs<'_, Rule>,
        join: fn(Vec<Expr>, Span) -> Expr,
        depth: usize,
    ) -> Lowered<Expr> {
        let mut operands = Vec::new();
        for child in children.filter(|p| !matches!(p.as_rule(), Rule::kw_and | Rule::kw_or)) {
            // A parenthesised group is a level; the conjunctions of an `or` are not.
            let nested = depth + usize::from(child.as_rule() == Rule::condition);
            operands.push(self.condition(child, nested)?);
        }
        if operands.len() == 1 {
            operands.pop().ok_or_else(|| incomplete(span))
        } else {
            Ok(join(operands, span))
        }
    }

    fn test(&self, pair: Pair<'_, Rule>) -> Lowered<Test> {
        let span = self.span(&pair);
        let mut children = pair.into_inner();
        let subject_pair = self.child(span, &mut children)?;
        let subject = match subject_pair.as_rule() {
            Rule::len_call => {
                let len_span = self.span(&subject_pair);
                let field = self.child(len_span, &mut subject_pair.into_inner())?;
                Subject::Len(self.ident(&field), len_span)
            }
            _ => Subject::Field(self.ident(&subject_pair)),
        };
        let predicate = children.next().map(|p| self.predicate(p)).transpose()?;
        Ok(Test { subject, predicate, span })
    }

    fn predicate(&self, pair: Pair<'_, Rule>) -> Lowered<Predicate> {
        let span = self.span(&pair);
        let kind = pair.as_rule();
        let mut operands = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let first = self.child(span, &mut operands)?;
        Ok(match kind {
            Rule::compare => {
                let op = match first.as_str() {
                    "==" => CompareOp::Eq,
                    "!=" => CompareOp::Ne,
                    "<" => CompareOp::Lt,
                    "<=" => CompareOp::Le,
                    ">" => CompareOp::Gt,
                    _ => CompareOp::Ge,
                };
                let value = operands.next().ok_or_else(|| incomplete(span))?;
                Predicate::Compare(op, self.literal(value)?)
            }
            Rule::is_in => Predicate::In { negated: false, list: self.list_operand(first)? },
            Rule::not_in => Predicate::In { negated: true, list: self.list_operand(first)? },
            Rule::matches if first.as_rule() == Rule::regex => {
                Predicate::Matches(RegexOperand::Inline(self.regex(first)))
            }
            Rule::matches => Predicate::Matches(RegexOperand::Named(self.ident(&first))),
            Rule::like => Predicate::Like(self.list_operand(first)?),
            Rule::contains => Predicate::Contains(self.literal(first)?),
            Rule::starts_with => Predicate::StartsWith(self.literal(first)?),
            Rule::ends_with => Predicate::EndsWith(self.literal(first)?),
            _ => return Err(incomplete(span)),
        })
    }

    fn list_operand(&self, pair: Pair<'_, Rule>) -> Lowered<ListOperand> {
        let span = self.span(&pair);
        match pair.as_rule() {
            Rule::list => Ok(ListOperand::Inline(self.list_values(pair)?, span)),
            Rule::string => Ok(ListOperand::Inline(vec![Literal::Str(self.str_lit(pair))], span)),
            _ => Ok(ListOperand::Named(self.ident(&pair))),
        }
    }

    fn literal(&self, pair: Pair<'_, Rule>) -> Lowered<Literal> {
        let span = self.span(&pair);
        Ok(match pair.as_rule() {
            Rule::string => Literal::Str(self.str_lit(pair)),
            Rule::number => Literal::Num(self.number(&pair)?, span),
            Rule::boolean => Literal::Bool(pair.as_str() == "true", span),
            _ => Literal::Symbol(self.ident(&pair)),
        })
    }

    /// A number, which must be finite: a bundle stores numbers as JSON, which has no infinity, so
    /// a literal beyond `f64` range would check clean and then fail every call once compiled.
    fn number(&self, pair: &Pair<'_, Rule>) -> Lowered<f64> {
        let text = pair.as_str();
        let shown = if text.len() > 24 { format!("{}…", text.get(..20).unwrap_or(text)) } else { text.to_string() };
        match text.parse::<f64>() {
            Ok(number) if number.is_finite() => Ok(number),
            Ok(_) => Err(Diagnostic::new(Code::Syntax, self.span(pair), format!("the number `{shown}` is too large"))
                .label("beyond the range of numbers")
                .help("numbers must lie within ±1.7e308")),
            Err(_) => {
                Err(Diagnostic::new(Code::Syntax, self.span(pair), format!("`{shown}` is not a number")).label("here"))
            }
        }
    }

    fn str_lit(&self, pair: Pair<'_, Rule>) -> StrLit {
        let span = self.span(&pair);
        let body = pair.into_inner().next();
        let (raw, body_span) = match body {
            Some(body) => (body.as_str().to_string(), self.span(&body)),
            None => (String::new(), Span::new(self.file, span.start as usize + 1, span.start as usize + 1)),
        };
        StrLit { raw, body: body_span, span }
    }

    fn regex(&self, pair: Pair<'_, Rule>) -> RegexLit {
        let span = self.span(&pair);
        let mut pattern = String::new();
        let mut flags = String::new();
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::regex_body => pattern = part.as_str().replace("\\/", "/"),
                Rule::regex_flags => flags = part.as_str().to_string(),
                _ => {}
            }
        }
        RegexLit { pattern, flags, span }
    }

    fn action(&self, pair: Pair<'_, Rule>) -> Lowered<ActionNode> {
        let span = self.span(&pair);
        let mut children = pair.into_inner();
        let name = self.ident(&self.child(span, &mut children)?);
        let mut args = Vec::new();
        for arg in children {
            let arg_span = self.span(&arg);
            args.push(match arg.as_rule() {
                Rule::string => ActionArg::Str(self.str_lit(arg)),
                Rule::number => ActionArg::Num(self.number(&arg)?, arg_span),
                Rule::regex => ActionArg::Regex(self.regex(arg)),
                _ => {
                    let mut parts = arg.into_inner();
                    let target = self.ident(&self.child(arg_span, &mut parts)?);
                    let value = self.literal(self.child(arg_span, &mut parts)?)?;
                    ActionArg::Assign(target, value, arg_span)
                }
            });
        }
        // As for rules: an action ends at its last argument (or its name).
        let end = args.last().map_or(name.span.end, |last| last.span().end);
        Ok(ActionNode { name, args, span: Span { end, ..span } })
    }
}

fn is_keyword(kind: Rule) -> bool {
    matches!(
        kind,
        Rule::kw_not
            | Rule::kw_in
            | Rule::kw_matches
            | Rule::kw_like
            | Rule::kw_contains
            | Rule::kw_starts_with
            | Rule::kw_ends_with
    )
}

fn incomplete(span: Span) -> Diagnostic {
    Diagnostic::new(Code::Syntax, span, "incomplete construct").label("here")
}

#[cfg(test)]
mod tests {
    use crate::source::SourceFile;

    fn parses(condition: &str) -> bool {
        let file = SourceFile::new("deep.rules", format!("pre_tool_use when {condition} => deny"));
        super::super::parse(0, &file).is_ok()
    }

    #[test]
    fn nesting_is_limited_before_any_stage_can_exhaust_the_stack() {
        let parens = |n: usize| format!("{}tool == bash{}", "(".repeat(n), ")".repeat(n));
        let nots = |n: usize| format!("{}tool == bash", "not ".repeat(n));
        assert!(parses(&parens(super::MAX_NESTING)));
        assert!(!parses(&parens(super::MAX_NESTING + 1)));
        assert!(parses(&nots(super::MAX_NESTING)));
        assert!(!parses(&nots(super::MAX_NESTING + 1)));
        // Deep enough to overflow the stack of later stages without the limit.
        assert!(!parses(&nots(20_000)));
        assert!(!parses(&parens(20_000)));
    }
}
