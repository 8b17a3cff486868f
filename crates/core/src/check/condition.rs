//! Conditions: fields resolved, operand types checked, regexes and globs compiled.

use super::{Checker, LetInfo};
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{self, Cond, Pred, Subject, Value};
use crate::paths;
use crate::pattern::Size;
use crate::source::Span;
use crate::syntax::ast::{CompareOp, Expr, ListOperand, Literal, Predicate, RegexLit, RegexOperand, RunsExpr, Test};
use crate::vocab::{EventKind, Field, FieldType};

impl Checker<'_> {
    /// Checks a condition; every branch is checked even when an earlier one failed.
    pub(super) fn condition(&mut self, expr: &Expr, event: EventKind) -> Option<Cond> {
        match expr {
            Expr::Or(children, _) => self.children(children, event).map(Cond::Any),
            Expr::And(children, _) => self.children(children, event).map(Cond::All),
            Expr::Not(child, _) => self.condition(child, event).map(|cond| Cond::Not(Box::new(cond))),
            Expr::Test(test) => self.test(test, event).map(Cond::Test),
            Expr::Runs(runs) => self.runs(runs, event).map(|runs| Cond::Runs(Box::new(runs))),
        }
    }

    /// `runs [PROGRAMS [SUBCOMMAND]] [(CONDITION)]`: programs named by a symbol, a string, a
    /// list, or a `let` list; the condition checked with the command's fields in scope.
    fn runs(&mut self, runs: &RunsExpr, event: EventKind) -> Option<ir::Runs> {
        // A tool call's line, or at Stop the commands the turn ran.
        let has_commands = event.has_tool() || matches!(event, EventKind::Stop | EventKind::SubagentStop);
        if !has_commands || self.in_runs {
            let why = if self.in_runs {
                "`runs` cannot nest inside `runs`"
            } else {
                "`runs` reads a tool call's shell command, or the commands a Stop's turn ran"
            };
            self.report(
                Diagnostic::new(Code::FieldNotInEvent, runs.span, why)
                    .label(format!("not here on `{}`", event.name()))
                    .help("use `runs` in a tool event's rule (`pre_tool_use`, …) or a `stop` rule, once per test"),
            );
            return None;
        }
        let programs = match &runs.programs {
            None => Some(Vec::new()),
            Some(ListOperand::Named(ident)) if !self.lists.contains_key(&ident.text) => Some(vec![ident.text.clone()]),
            Some(list) => self.list_values(list, FieldType::Str, "program").map(|values| {
                values
                    .into_iter()
                    .filter_map(|value| match value {
                        Value::Str(text) => Some(text),
                        _ => None,
                    })
                    .collect()
            }),
        };
        let subcommand = match &runs.subcommand {
            None => Some(None),
            Some(literal) => match self.literal(literal)? {
                Value::Str(text) => Some(Some(text)),
                _ => {
                    self.report(
                        Diagnostic::new(Code::TypeMismatch, literal.span(), "a subcommand is a word")
                            .label("not a string")
                            .help("quote it, or write it bare: `runs git push`"),
                    );
                    None
                }
            },
        };
        self.in_runs = true;
        let condition = match &runs.condition {
            None => Some(Cond::Always),
            Some(expr) => self.condition(expr, event),
        };
        self.in_runs = false;
        // `/usr/bin/rm` runs `rm`: commands are matched by their program's name.
        let programs = programs?.iter().map(|text| crate::shell::program_name(text)).collect();
        Some(ir::Runs { programs, subcommand: subcommand?, condition: condition? })
    }

    fn children(&mut self, children: &[Expr], event: EventKind) -> Option<Vec<Cond>> {
        let checked: Vec<Option<Cond>> = children.iter().map(|child| self.condition(child, event)).collect();
        checked.into_iter().collect()
    }

    fn test(&mut self, test: &Test, event: EventKind) -> Option<ir::Test> {
        let (subject, ty) = match &test.subject {
            crate::syntax::ast::Subject::Field(ident) => {
                let (field, ty) = self.field(ident, event)?;
                (Subject::Field(field), ty)
            }
            crate::syntax::ast::Subject::Len(ident, span) => {
                let (field, ty) = self.field(ident, event)?;
                if !matches!(ty, FieldType::Str | FieldType::Any | FieldType::List) {
                    self.report(
                        Diagnostic::new(
                            Code::TypeMismatch,
                            *span,
                            format!("`len` needs a string, but `{}` is {}", ident.text, ty.name()),
                        )
                        .label("not a string"),
                    );
                    return None;
                }
                (Subject::Len(field), FieldType::Num)
            }
        };
        let pred = self.predicate(test, &subject, ty)?;
        Some(ir::Test { subject, pred })
    }

    fn predicate(&mut self, test: &Test, subject: &Subject, ty: FieldType) -> Option<Pred> {
        let subject_span = test.subject.span();
        let subject_name = self.sources.slice(subject_span).to_string();
        let Some(predicate) = &test.predicate else {
            if matches!(ty, FieldType::Bool | FieldType::Any) {
                return Some(Pred::Truthy);
            }
            self.report(
                Diagnostic::new(
                    Code::TypeMismatch,
                    subject_span,
                    format!("`{subject_name}` is {}, not a boolean", ty.name()),
                )
                .label("a bare field must be a boolean")
                .help(format!("compare it instead, for example `{subject_name} == \"…\"`")),
            );
            return None;
        };
        // Path literals are spelled by the path model, like the values they are compared with.
        let path_field = matches!(subject, Subject::Field(field) if field.is_path());
        let normal = |value: Value| match value {
            Value::Str(text) if path_field => Value::Str(paths::literal(&text)),
            other => other,
        };
        let spelled = |text: String, spell: fn(&str) -> String| if path_field { spell(&text) } else { text };
        match predicate {
            Predicate::Compare(op @ (CompareOp::Eq | CompareOp::Ne), literal) => {
                let value = normal(self.typed_literal(literal, ty, &subject_name)?);
                Some(if *op == CompareOp::Eq { Pred::Eq(value) } else { Pred::Ne(value) })
            }
            Predicate::Compare(ordering, literal) => {
                let value = self.literal(literal)?;
                self.ordering(*ordering, value, ty, &subject_name, subject_span, literal.span())
            }
            Predicate::In { negated, list } if matches!(subject, Subject::Field(field) if field.is_host()) => {
                let values = self.list_values(list, ty, &subject_name)?;
                let entries = values.iter().map(|value| match value {
                    Value::Str(text) => text.clone(),
                    other => other.to_string(),
                });
                match ir::HostSet::new(entries.collect()) {
                    Ok(hosts) => Some(if *negated { Pred::NotInHosts(hosts) } else { Pred::InHosts(hosts) }),
                    Err(error) => {
                        self.report(
                            Diagnostic::new(Code::TypeMismatch, list_span(list), error.to_string())
                                .label(format!("`{subject_name}` holds hosts"))
                                .help("write a name (`github.com`), `*.` and a name for its subdomains, an IP address, or a network (`10.0.0.0/8`)"),
                        );
                        None
                    }
                }
            }
            Predicate::In { negated, list } => {
                let values = self.list_values(list, ty, &subject_name)?;
                let values = values.into_iter().map(normal).collect();
                Some(if *negated { Pred::NotIn(values) } else { Pred::In(values) })
            }
            Predicate::Matches(regex) => {
                self.require_text(ty, &subject_name, subject_span, "matches")?;
                let folds = subject.field().folds_case();
                match regex {
                    RegexOperand::Inline(regex) => self.regex(regex, folds).map(Pred::Matches),
                    RegexOperand::Named(ident) => self.named_regex(ident, folds).map(Pred::Matches),
                }
            }
            Predicate::Like(list) => {
                self.require_text(ty, &subject_name, subject_span, "like")?;
                self.globs(list, subject.field()).map(Pred::Like)
            }
            Predicate::Contains(lit) => self
                .text_operand(lit, ty, &subject_name, subject_span, "contains")
                .map(|text| Pred::Contains(spelled(text, paths::fragment))),
            Predicate::StartsWith(lit) => self
                .text_operand(lit, ty, &subject_name, subject_span, "starts_with")
                .map(|text| Pred::StartsWith(spelled(text, paths::prefix))),
            Predicate::EndsWith(lit) => self
                .text_operand(lit, ty, &subject_name, subject_span, "ends_with")
                .map(|text| Pred::EndsWith(spelled(text, paths::fragment))),
        }
    }

    /// `< <= > >=`: the subject must be a number (checked first: its fix is `len(…)`), and so
    /// must the value.
    fn ordering(
        &mut self,
        op: CompareOp,
        value: Value,
        ty: FieldType,
        subject: &str,
        subject_span: Span,
        span: Span,
    ) -> Option<Pred> {
        if !matches!(ty, FieldType::Num | FieldType::Any) {
            let help = if ty == FieldType::List {
                format!("to compare how many elements it has, write `len({subject})`")
            } else {
                format!("to compare its length, write `len({subject})`")
            };
            self.report(
                Diagnostic::new(
                    Code::TypeMismatch,
                    subject_span,
                    format!("`{subject}` is {}, so it cannot be ordered", ty.name()),
                )
                .label("not a number")
                .help(help),
            );
            return None;
        }
        let Value::Num(number) = value else {
            self.report(
                Diagnostic::new(Code::TypeMismatch, span, "ordering comparisons need a number")
                    .label("not a number")
                    .help("`<`, `<=`, `>` and `>=` compare numbers"),
            );
            return None;
        };
        Some(match op {
            CompareOp::Lt => Pred::Lt(number),
            CompareOp::Le => Pred::Le(number),
            CompareOp::Gt => Pred::Gt(number),
            _ => Pred::Ge(number),
        })
    }

    /// A literal whose type must agree with the subject's.
    fn typed_literal(&mut self, literal: &Literal, ty: FieldType, subject: &str) -> Option<Value> {
        let value = self.literal(literal)?;
        let fits = fits(&value, ty);
        if fits {
            return Some(value);
        }
        let found = match value {
            Value::Str(_) => "a string",
            Value::Num(_) => "a number",
            Value::Bool(_) => "a boolean",
        };
        let help = match (ty, &value) {
            (FieldType::Str, Value::Num(_) | Value::Bool(_)) => {
                format!("quote the value to compare text: `\"{}\"`", self.sources.slice(literal.span()))
            }
            (FieldType::Num, Value::Str(_)) => format!("`{subject}` holds numbers; compare it with a number"),
            _ => format!("`{subject}` holds {}", ty.name()),
        };
        self.report(
            Diagnostic::new(
                Code::TypeMismatch,
                literal.span(),
                format!("`{subject}` is {} but this is {found}", ty.name()),
            )
            .label(format!("expected {}", ty.name()))
            .help(help),
        );
        None
    }

    fn list_values(&mut self, list: &ListOperand, ty: FieldType, subject: &str) -> Option<Vec<Value>> {
        match list {
            ListOperand::Inline(literals, _) => {
                let values: Vec<Option<Value>> =
                    literals.iter().map(|literal| self.typed_literal(literal, ty, subject)).collect();
                values.into_iter().collect()
            }
            ListOperand::Named(ident) => {
                let values = self.named_list(ident)?;
                let mismatch = values.iter().find(|value| !fits(value, ty));
                if mismatch.is_some() {
                    let span = self.lists.get(&ident.text).map(|list| list.span);
                    let mut diagnostic = Diagnostic::new(
                        Code::TypeMismatch,
                        ident.span,
                        format!("the list `{}` holds values that are not {}", ident.text, ty.name()),
                    )
                    .label(format!("`{subject}` is {}", ty.name()));
                    if let Some(span) = span {
                        diagnostic = diagnostic.secondary(span, "list defined here");
                    }
                    self.report(diagnostic);
                    return None;
                }
                Some(values)
            }
        }
    }

    fn named_list(&mut self, ident: &crate::syntax::ast::Ident) -> Option<Vec<Value>> {
        if let Some(list) = self.lists.get_mut(&ident.text) {
            list.used = true;
            let span = list.span;
            return match &list.value {
                LetInfo::List(values) => Some(values.clone()),
                LetInfo::Regex(..) => {
                    let diagnostic = Diagnostic::new(
                        Code::TypeMismatch,
                        ident.span,
                        format!("`{}` is a regex, not a list", ident.text),
                    )
                    .label("a regex here")
                    .secondary(span, "defined here")
                    .help(format!("test text against it with `matches {}`", ident.text));
                    self.report(diagnostic);
                    None
                }
            };
        }
        let names: Vec<String> = self.lists.keys().cloned().collect();
        let diagnostic = Diagnostic::new(Code::UnknownList, ident.span, format!("unknown list `{}`", ident.text))
            .label("no `let` defines this")
            .help(format!("define it with `let {} = [\"…\"]`, or quote a single value", ident.text))
            .suggest(&ident.text, names.iter().map(String::as_str));
        self.report(diagnostic);
        None
    }

    /// `matches NAME`: the `let` regex NAME, compiled for this field (`folds`: matched without
    /// case, as a path is on macOS and Windows).
    fn named_regex(&mut self, ident: &crate::syntax::ast::Ident, folds: bool) -> Option<ir::Regex> {
        let Some(info) = self.lists.get_mut(&ident.text) else {
            let names: Vec<String> = self
                .lists
                .iter()
                .filter(|(_, info)| matches!(info.value, LetInfo::Regex(..)))
                .map(|(name, _)| name.clone())
                .collect();
            let diagnostic = Diagnostic::new(Code::UnknownList, ident.span, format!("unknown regex `{}`", ident.text))
                .label("no `let` defines this")
                .help(format!("define it with `let {} = /…/`, or write the regex here", ident.text))
                .suggest(&ident.text, names.iter().map(String::as_str));
            self.report(diagnostic);
            return None;
        };
        info.used = true;
        let span = info.span;
        match &info.value {
            // Its declaration compiled it for text that keeps its case, and reported any error.
            LetInfo::Regex(_, compiled) if !folds => compiled.clone(),
            LetInfo::Regex(regex, Some(_)) => {
                let regex = regex.clone();
                self.regex(&regex, true)
            }
            LetInfo::Regex(_, None) => None,
            LetInfo::List(_) => {
                let diagnostic =
                    Diagnostic::new(Code::TypeMismatch, ident.span, format!("`{}` is a list, not a regex", ident.text))
                        .label("a list here")
                        .secondary(span, "defined here")
                        .help(format!("test membership with `in {0}`, or glob with `like {0}`", ident.text));
                self.report(diagnostic);
                None
            }
        }
    }

    fn require_text(&mut self, ty: FieldType, subject: &str, span: Span, op: &str) -> Option<()> {
        if matches!(ty, FieldType::Str | FieldType::Any | FieldType::List) {
            return Some(());
        }
        self.report(
            Diagnostic::new(Code::TypeMismatch, span, format!("`{op}` needs text, but `{subject}` is {}", ty.name()))
                .label("not text"),
        );
        None
    }

    fn text_operand(
        &mut self,
        literal: &Literal,
        ty: FieldType,
        subject: &str,
        span: Span,
        op: &str,
    ) -> Option<String> {
        self.require_text(ty, subject, span, op)?;
        match self.literal(literal)? {
            Value::Str(text) => Some(text),
            _ => {
                self.report(
                    Diagnostic::new(Code::TypeMismatch, literal.span(), format!("`{op}` takes a string"))
                        .label("not a string")
                        .help(format!("quote it: `\"{}\"`", self.sources.slice(literal.span()))),
                );
                None
            }
        }
    }

    /// A regex, compiled now; `folds`: it is tested on a field compared without case on a
    /// case-insensitive file system (paths, programs), where it is matched with `i` added and
    /// must compile that way too.
    pub(super) fn regex(&mut self, regex: &RegexLit, folds: bool) -> Option<ir::Regex> {
        let checked =
            ir::Regex::checked(&regex.pattern, &regex.flags, folds, self.sizing).map_err(|reason| match folds {
                true if !reason.contains("compiles to more than") => reason,
                true => format!("{reason} (matched without case, as paths are on macOS and Windows)"),
                false => reason,
            });
        match checked {
            Ok((compiled, size)) => {
                if matches!(size, Size::Costly | Size::CostlyUnsized) {
                    let unsized_note = match size {
                        Size::CostlyUnsized => format!(
                            "; not sized further (`hookc check` spent its {} s for sizing on earlier ones): one over {} MiB fails every call that reaches it",
                            crate::pattern::SIZING_BUDGET.as_secs_f64(),
                            crate::pattern::MAX_REGEX_BYTES >> 20
                        ),
                        _ => String::new(),
                    };
                    self.report(
                        Diagnostic::new(
                            Code::CostlyPattern,
                            regex.span,
                            format!("the regex `/{}/{}` compiles large", regex.pattern, regex.flags),
                        )
                        .label(format!(
                            "more than {} KiB compiled: every hook call that reaches it pays to build it{unsized_note}",
                            crate::pattern::COSTLY_REGEX_BYTES >> 10
                        ))
                        .help("use ASCII classes (`(?-u:\\w)`, `[a-zA-Z0-9_]`, `(?-u:.)`) or bound the repetition"),
                    );
                }
                Some(compiled)
            }
            Err(error) => {
                // regex's message ends with the line that says what is wrong.
                let reason = error.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or(&error);
                let reason = reason.trim().trim_start_matches("error: ").to_string();
                self.report(
                    Diagnostic::new(
                        Code::InvalidRegex,
                        regex.span,
                        format!("invalid regex `/{}/{}`", regex.pattern, regex.flags),
                    )
                    .help(match reason.contains("compiles to more than") {
                        true => "a hook call that reaches it would have to build it: make it smaller",
                        false => "hookc uses Rust `regex` syntax: no look-around or backreferences",
                    })
                    .label(reason),
                );
                None
            }
        }
    }

    fn globs(&mut self, list: &ListOperand, field: &Field) -> Option<ir::Globs> {
        let (values, spans): (Vec<Value>, Vec<Span>) = match list {
            ListOperand::Inline(literals, _) => {
                let values: Option<Vec<Value>> = literals.iter().map(|literal| self.literal(literal)).collect();
                (values?, literals.iter().map(Literal::span).collect())
            }
            ListOperand::Named(ident) => {
                let values = self.named_list(ident)?;
                let spans = vec![ident.span; values.len()];
                (values, spans)
            }
        };
        let mut patterns = Vec::new();
        for (value, span) in values.into_iter().zip(&spans) {
            match value {
                Value::Str(pattern) => patterns.push(pattern),
                _ => {
                    self.report(
                        Diagnostic::new(Code::TypeMismatch, *span, "`like` takes glob strings").label("not a string"),
                    );
                    return None;
                }
            }
        }
        if field.is_path() {
            patterns = patterns.iter().map(|pattern| paths::glob(pattern)).collect();
        }
        // On a field compared without case (paths, programs on macOS and Windows) the globs are
        // folded too, and must still be globs (`[A-_]` folds to the invalid range `[a-_]`).
        let folded = |globs: ir::Globs| -> Result<ir::Globs, (usize, String)> {
            for (index, pattern) in patterns.iter().enumerate() {
                let glob = ir::Globs::source(pattern).1;
                if let Err(reason) = ir::Globs::glob_for(glob, field.is_path(), crate::paths::PathCase::Insensitive) {
                    return Err((index, format!("{reason} (matched without case, as paths are on macOS and Windows)")));
                }
            }
            Ok(globs)
        };
        let checked = ir::Globs::new(patterns.clone(), field.is_path()).and_then(|globs| {
            if field.folds_case() {
                folded(globs)
            } else {
                Ok(globs)
            }
        });
        match checked {
            Ok(globs) => Some(globs),
            Err((index, reason)) => {
                let span = spans.get(index).copied().unwrap_or_default();
                let pattern = patterns.get(index).cloned().unwrap_or_default();
                self.report(
                    Diagnostic::new(Code::InvalidGlob, span, format!("invalid glob `{pattern}`"))
                        .label(reason)
                        .help("globs use `*`, `?`, `**`, `[abc]` and `{a,b}`"),
                );
                None
            }
        }
    }
}

/// Whether a literal value can be compared with a field of this type.
fn fits(value: &Value, ty: FieldType) -> bool {
    matches!(
        (value, ty),
        (_, FieldType::Any)
            | (Value::Str(_), FieldType::Str | FieldType::List)
            | (Value::Num(_), FieldType::Num)
            | (Value::Bool(_), FieldType::Bool)
    )
}

/// Where a list operand is written: the inline list, or the `let` list's name at this use.
fn list_span(list: &ListOperand) -> Span {
    match list {
        ListOperand::Inline(_, span) => *span,
        ListOperand::Named(ident) => ident.span,
    }
}
