//! Stage 2: [`Ast`]s → [`Checked`] rules. Resolves events, fields, lists and actions, checks
//! types, compiles every regex and glob, and reports every problem it finds, not just the first.

mod action;
mod agents;
mod condition;
mod enforce;
mod lint;

use crate::diagnostic::{Code, Diagnostic};
use crate::ir;
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ast::{self, Ast, Ident, Literal};
use crate::syntax::strings;
use crate::vocab::agents::Agent;
use crate::vocab::{EventKind, Field, FieldLookup, FieldType};
use std::collections::HashMap;

/// A rule set that passed the checker.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The rules, in evaluation order (files in path order, rules in source order).
    pub rules: Vec<ir::Rule>,
    /// The waivers, in source order.
    pub waivers: Vec<ir::Waiver>,
    /// The policy's secret value shapes (`let secret_values = /…/`), which hookc redacts from
    /// what it writes.
    pub redaction: Option<crate::redact::Redaction>,
    /// Warnings found along the way.
    pub warnings: Vec<Diagnostic>,
}

/// How much to check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Depth {
    /// Only what makes a rule set unusable (errors): for loading a policy to use it.
    Errors,
    /// Errors and the static analysis' warnings: for `hookc check`.
    Lint,
}

/// Checks parsed files (given with their ids in `sources`, in path order).
pub(crate) fn check(
    sources: &SourceMap,
    asts: &[(FileId, Ast)],
    depth: Depth,
    agents: &[&Agent],
) -> Result<Checked, Vec<Diagnostic>> {
    // Linting sizes costly regexes until its budget runs out; loading to use only parses them.
    let sizing = (depth == Depth::Lint).then(|| crate::clock::Instant::now() + crate::pattern::SIZING_BUDGET);
    let mut checker = Checker {
        sources,
        lists: HashMap::new(),
        rule_names: HashMap::new(),
        diagnostics: Vec::new(),
        in_runs: false,
        sizing,
    };
    for (_, ast) in asts {
        for list in &ast.lists {
            checker.declare_list(list);
        }
    }
    let mut rules = Vec::new();
    let mut spans = Vec::new();
    let mut files = Vec::new();
    for (file, ast) in asts {
        for rule in &ast.rules {
            if let Some(checked) = checker.rule(*file, rule) {
                rules.push(checked);
                spans.push(lint::RuleSpans::of(rule));
                files.push(*file);
            }
        }
    }
    let mut waivers = Vec::new();
    for (_, ast) in asts {
        for waiver in &ast.waivers {
            waivers.extend(checker.waiver(waiver, &rules, &files, depth));
        }
    }
    let redaction = checker.redaction();
    let mut diagnostics = checker.diagnostics;
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    if depth == Depth::Lint {
        diagnostics.extend(lint::unused_lists(
            checker
                .lists
                .iter()
                .filter(|(_, list)| !list.used)
                .map(|(name, list)| (name.as_str(), list.span, matches!(list.value, LetInfo::Regex(..)))),
        ));
        diagnostics.extend(lint::lint(&rules, &spans));
        diagnostics
            .extend(asts.iter().flat_map(|(_, ast)| &ast.rules).flat_map(|rule| agents::departures(rule, agents)));
    } else {
        // Repeated list values are found while declaring; they are lint findings too.
        diagnostics.retain(|diagnostic| diagnostic.is_error());
    }
    Ok(Checked { rules, waivers, redaction, warnings: diagnostics })
}

/// A `let` after checking.
struct ListInfo {
    value: LetInfo,
    span: Span,
    /// Whether some rule refers to it.
    used: bool,
}

/// What a `let` names, checked.
enum LetInfo {
    /// A list's values.
    List(Vec<ir::Value>),
    /// A regex as written, and compiled as it is matched against text that keeps its case
    /// (`None`: it does not compile, which its declaration reported).
    Regex(ast::RegexLit, Option<ir::Regex>),
}

struct Checker<'a> {
    sources: &'a SourceMap,
    lists: HashMap<String, ListInfo>,
    rule_names: HashMap<String, Span>,
    diagnostics: Vec<Diagnostic>,
    /// Whether the condition being checked is inside `runs (…)`, where one command's fields
    /// (`flags`, `operands`, …) are in scope.
    in_runs: bool,
    /// Until when costly regexes are sized (`hookc check`); `None`: only parsed (loading).
    sizing: Option<crate::clock::Instant>,
}

impl Checker<'_> {
    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn declare_list(&mut self, list: &ast::ListDecl) {
        let value = match &list.value {
            ast::LetValue::List(literals) => LetInfo::List(self.declare_values(list, literals)),
            // Checked here, so that a regex no rule uses yet is still one that compiles.
            ast::LetValue::Regex(regex) => LetInfo::Regex(regex.clone(), self.regex(regex, false)),
        };
        if let Some(first) = self.lists.get(&list.name.text) {
            let (what, merge) = match list.value {
                ast::LetValue::List(_) => ("list", "rename one of the lists, or merge their values"),
                ast::LetValue::Regex(_) => ("regex", "rename one of the regexes, or join them with `|`"),
            };
            let diagnostic = Diagnostic::new(
                Code::DuplicateList,
                list.name.span,
                format!("the {what} `{}` is defined twice", list.name.text),
            )
            .label("defined again here")
            .secondary(first.span, "first defined here")
            .help(merge);
            self.report(diagnostic);
            return;
        }
        self.lists.insert(list.name.text.clone(), ListInfo { value, span: list.name.span, used: false });
    }

    /// The policy's secret value shapes: its `let secret_values` regex, which counts as used
    /// (hookc redacts its matches from what it writes).
    fn redaction(&mut self) -> Option<crate::redact::Redaction> {
        let info = self.lists.get_mut(crate::redact::NAME)?;
        let LetInfo::Regex(_, Some(regex)) = &info.value else { return None };
        info.used = true;
        Some(crate::redact::Redaction::new(regex.clone()))
    }

    /// A `let` list's values, each repeated one reported.
    fn declare_values(&mut self, list: &ast::ListDecl, literals: &[Literal]) -> Vec<ir::Value> {
        let mut values: Vec<ir::Value> = Vec::new();
        for literal in literals {
            let Some(value) = self.literal(literal) else { continue };
            if let Some(first) = values.iter().position(|seen| *seen == value) {
                let first_span = literals.get(first).map_or(literal.span(), Literal::span);
                self.report(
                    Diagnostic::new(
                        Code::DuplicateListValue,
                        literal.span(),
                        format!("`{value}` appears twice in the list `{}`", list.name.text),
                    )
                    .label("repeated here")
                    .secondary(first_span, "first here")
                    .help("remove the repeated value"),
                );
            }
            values.push(value);
        }
        values
    }

    fn rule(&mut self, file: FileId, rule: &ast::RuleDecl) -> Option<ir::Rule> {
        let name = self.rule_name(file, rule);
        let event = self.event(&rule.event);
        let event = event?;
        let condition = match &rule.condition {
            Some(expr) => self.condition(expr, event),
            None => Some(ir::Cond::Always),
        };
        let actions: Vec<Option<ir::Action>> = rule.actions.iter().map(|action| self.action(action, event)).collect();
        let origin = self.origin(rule.span);
        let checked = ir::Rule {
            name,
            event,
            origin,
            condition: condition?,
            actions: actions.into_iter().collect::<Option<_>>()?,
        };
        self.enforceable(rule, &checked);
        Some(checked)
    }

    /// A waiver or an audit: the rules it names must exist, its condition is checked as each
    /// of those rules' would be, its date must be a calendar day; `hookc check` warns when the
    /// day has passed. One checked waiver per rule named (`files[i]` is `rules[i]`'s file).
    fn waiver(
        &mut self,
        waiver: &ast::WaiverDecl,
        rules: &[ir::Rule],
        files: &[FileId],
        depth: Depth,
    ) -> Vec<ir::Waiver> {
        let targets = self.waived_rules(waiver, rules, files);
        if targets.is_empty() {
            return Vec::new();
        }
        let mut events: Vec<EventKind> = targets.iter().map(|rule| rule.event).collect();
        crate::model::dedup_in_order(&mut events);
        let condition = match &waiver.condition {
            // Checked once per event its rules are at (a pattern may span several).
            Some(expr) => {
                let mut checked = None;
                for event in events {
                    checked = self.condition(expr, event);
                }
                checked
            }
            None => Some(ir::Cond::Always),
        };
        let until = match &waiver.until {
            Some(until) => {
                let Some(last) = ir::day_of(&until.text) else {
                    self.report(
                        Diagnostic::new(
                            Code::InvalidDate,
                            until.span,
                            format!("`{}` is not a calendar day", until.text),
                        )
                        .label("not a day")
                        .help(format!(
                            "write the {}'s last day as `YYYY-MM-DD` (UTC, inclusive)",
                            waiver.mode.keyword()
                        )),
                    );
                    return Vec::new();
                };
                if depth == Depth::Lint && last < ir::today() {
                    let (what, then) = match waiver.mode {
                        ir::Lift::Waive => {
                            ("waiver", "the rule applies again; remove the waiver, or give it a new date")
                        }
                        ir::Lift::Audit => {
                            ("audit", "the rules it names apply now; remove the audit, or give it a new date")
                        }
                    };
                    self.report(
                        Diagnostic::new(
                            Code::ExpiredWaiver,
                            until.span,
                            format!("the {what} of `{}` expired after {}", waiver_target(&waiver.rules), until.text),
                        )
                        .label("this day has passed")
                        .help(then),
                    );
                }
                Some(until.text.clone())
            }
            None => None,
        };
        let reason = match &waiver.reason {
            Some(reason) => match strings::decode_plain(reason) {
                Ok(text) => Some(text),
                Err(diagnostic) => {
                    self.report(diagnostic);
                    return Vec::new();
                }
            },
            None => None,
        };
        let (Some(condition), origin) = (condition, self.origin(waiver.span)) else { return Vec::new() };
        targets
            .iter()
            .map(|rule| ir::Waiver {
                rule: rule.name.clone(),
                condition: condition.clone(),
                until: until.clone(),
                reason: reason.clone(),
                origin: origin.clone(),
                mode: waiver.mode,
            })
            .collect()
    }

    /// The rules a waiver or an audit names, in rule-set order; none (reported) when it names
    /// none. A waiver names exactly one rule; an audit may name a pattern or a rule file.
    fn waived_rules<'r>(
        &mut self,
        waiver: &ast::WaiverDecl,
        rules: &'r [ir::Rule],
        files: &[FileId],
    ) -> Vec<&'r ir::Rule> {
        let statement = match waiver.mode {
            ir::Lift::Waive => "a waiver",
            ir::Lift::Audit => "an audit",
        };
        let (targets, span, help): (Vec<&ir::Rule>, Span, String) = match &waiver.rules {
            ast::RuleRef::Names(name) if waiver.mode == ir::Lift::Audit && name.text.contains('*') => {
                let matched = rules.iter().filter(|rule| rule_name_matches(&name.text, &rule.name)).collect();
                (
                    matched,
                    name.span,
                    "`*` stands for any run of characters in a rule's name (`egress-*`, `secrets/*`)".to_string(),
                )
            }
            ast::RuleRef::Names(name) => {
                let matched: Vec<&ir::Rule> = rules.iter().filter(|rule| rule.name == name.text).collect();
                let help =
                    match crate::diagnostic::did_you_mean(&name.text, rules.iter().map(|rule| rule.name.as_str())) {
                        Some(best) => format!("did you mean `{best}`?"),
                        None => format!("{statement} names a rule of the rule set by the name after `rule`"),
                    };
                (matched, name.span, help)
            }
            ast::RuleRef::File(file) => {
                let wanted = match strings::decode_plain(file) {
                    Ok(text) => text,
                    Err(diagnostic) => {
                        self.report(diagnostic);
                        return Vec::new();
                    }
                };
                let names = |id: FileId| self.sources.get(id).map(|source| source.name().replace('\\', "/"));
                let named: Vec<(&ir::Rule, FileId)> = rules
                    .iter()
                    .zip(files)
                    .filter(|(_, file)| names(**file).is_some_and(|name| is_file_named(&name, &wanted)))
                    .map(|(rule, file)| (rule, *file))
                    .collect();
                let mut which: Vec<String> = named.iter().filter_map(|(_, file)| names(*file)).collect();
                which.dedup();
                if which.len() > 1 {
                    self.report(
                        Diagnostic::new(
                            Code::AmbiguousRuleFile,
                            file.span,
                            format!(
                                "the audit's \"{wanted}\" names {} rule files: {}",
                                which.len(),
                                backticked(which.iter().map(|name| shortest_own_suffix(name, &which)))
                            ),
                        )
                        .label("several files end with this name")
                        .help("name more of the path, so that one file ends with it"),
                    );
                    return Vec::new();
                }
                let matched = named.into_iter().map(|(rule, _)| rule).collect();
                (
                    matched,
                    file.span,
                    "an audit names a rule file by its name or the end of its path (`\"network.rules\"`)".to_string(),
                )
            }
        };
        if targets.is_empty() {
            let statement = statement.trim_start_matches("a ").trim_start_matches("an ");
            let (message, label) = match &waiver.rules {
                ast::RuleRef::Names(name) if name.text.contains('*') => {
                    (format!("the {statement}'s pattern `{}` matches no rule", name.text), "no rule's name matches")
                }
                ast::RuleRef::Names(name) => {
                    (format!("the {statement} names no rule `{}`", name.text), "no rule of this name")
                }
                ast::RuleRef::File(file) => (
                    format!("the {statement} names \"{}\", which is no rule file of the rule set", file.raw),
                    "no rule file of this name",
                ),
            };
            self.report(Diagnostic::new(Code::UnknownWaivedRule, span, message).label(label).help(help));
        }
        targets
    }

    /// The rule's name, checking it is unique; unnamed rules are `FILE:LINE`.
    fn rule_name(&mut self, file: FileId, rule: &ast::RuleDecl) -> String {
        let Some(ident) = &rule.name else {
            let (line, _) = self.sources.get(file).map_or((0, 0), |source| source.line_col(rule.span.start as usize));
            let path = self.sources.get(file).map(|source| source.name()).unwrap_or_default();
            return format!("{path}:{line}");
        };
        if let Some(first) = self.rule_names.get(&ident.text) {
            let diagnostic = Diagnostic::new(
                Code::DuplicateRule,
                ident.span,
                format!("the rule name `{}` is used twice", ident.text),
            )
            .label("used again here")
            .secondary(*first, "first used here")
            .help("rule names must be unique across the rule set; rename one of them");
            self.report(diagnostic);
        } else {
            self.rule_names.insert(ident.text.clone(), ident.span);
        }
        ident.text.clone()
    }

    fn origin(&self, span: Span) -> String {
        self.sources.get(span.file).map_or_else(String::new, |file| {
            let (line, column) = file.line_col(span.start as usize);
            format!("{}:{line}:{column}", file.name())
        })
    }

    fn event(&mut self, ident: &Ident) -> Option<EventKind> {
        let event = EventKind::from_name(&ident.text);
        if event.is_none() {
            let names = EventKind::ALL.map(EventKind::name);
            let diagnostic = Diagnostic::new(Code::UnknownEvent, ident.span, format!("unknown event `{}`", ident.text))
                .label("not an event")
                .help(format!("the events are {}", backticked(names)))
                .suggest(&ident.text, names);
            self.report(diagnostic);
        }
        event
    }

    /// Resolves a field name for an event, reporting unknown or unavailable names.
    fn field(&mut self, ident: &Ident, event: EventKind) -> Option<(Field, FieldType)> {
        match Field::lookup(&ident.text, event) {
            FieldLookup::Found(field, _) if field.in_command() && !self.in_runs => {
                self.report(
                    Diagnostic::new(
                        Code::FieldNotInEvent,
                        ident.span,
                        format!("`{}` is a field of one shell command, read inside `runs (…)`", ident.text),
                    )
                    .label("outside `runs`")
                    .help(format!(
                        "write `runs PROGRAM ({} …)`; `programs` lists every program of the line",
                        ident.text
                    )),
                );
                None
            }
            FieldLookup::Found(field, ty) => Some((field, ty)),
            FieldLookup::NotInEvent => {
                let diagnostic = Diagnostic::new(
                    Code::FieldNotInEvent,
                    ident.span,
                    format!("the event `{}` has no field `{}`", event.name(), ident.text),
                )
                .label(format!("not available on `{}`", event.name()))
                .help(format!("fields of `{}`: {}", event.name(), backticked(fields_help(event))));
                self.report(diagnostic);
                None
            }
            FieldLookup::Unknown => {
                let names = Field::names_for(event);
                let mut diagnostic =
                    Diagnostic::new(Code::UnknownField, ident.span, format!("unknown field `{}`", ident.text))
                        .label("not a field");
                diagnostic = match crate::diagnostic::did_you_mean(&ident.text, names.iter().copied()) {
                    Some(best) => diagnostic.help(format!("did you mean `{best}`?")),
                    None if event.has_tool() => diagnostic.help(format!(
                        "to read a raw tool argument, write `args.{}`; fields of `{}`: {}",
                        ident.text,
                        event.name(),
                        backticked(fields_help(event))
                    )),
                    None => {
                        diagnostic.help(format!("fields of `{}`: {}", event.name(), backticked(fields_help(event))))
                    }
                };
                self.report(diagnostic);
                None
            }
        }
    }

    /// A literal as a value; symbols are strings.
    fn literal(&mut self, literal: &Literal) -> Option<ir::Value> {
        match literal {
            Literal::Str(lit) => match strings::decode_plain(lit) {
                Ok(text) => Some(ir::Value::Str(text)),
                Err(diagnostic) => {
                    self.report(diagnostic);
                    None
                }
            },
            Literal::Num(number, _) => Some(ir::Value::Num(*number)),
            Literal::Bool(value, _) => Some(ir::Value::Bool(*value)),
            Literal::Symbol(ident) => Some(ir::Value::Str(ident.text.clone())),
        }
    }

    /// A message string: escapes decoded, `{field}` resolved against the event.
    fn template(&mut self, lit: &ast::StrLit, event: EventKind) -> Option<ir::Template> {
        let pieces = match strings::decode(lit, true) {
            Ok(pieces) => pieces,
            Err(diagnostic) => {
                self.report(diagnostic);
                return None;
            }
        };
        let mut parts = Vec::new();
        let mut ok = true;
        for piece in pieces {
            match piece {
                strings::Piece::Text(text) => parts.push(ir::Part::Text(text)),
                strings::Piece::Field(ident) => match self.field(&ident, event) {
                    Some((field, _)) => parts.push(ir::Part::Field(field)),
                    None => ok = false,
                },
            }
        }
        ok.then_some(ir::Template(parts))
    }
}

/// What a waiver or an audit names, as written.
fn waiver_target(rules: &ast::RuleRef) -> String {
    match rules {
        ast::RuleRef::Names(name) => name.text.clone(),
        ast::RuleRef::File(file) => format!("\"{}\"", file.raw),
    }
}

/// Whether a rule name matches a pattern of names (an audit's, `hookc stats --rule`), in
/// which `*` is any run of characters.
pub fn rule_name_matches(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = name.strip_prefix(first) else { return false };
    let mut parts: Vec<&str> = parts.collect();
    let Some(last) = parts.pop() else { return rest.is_empty() };
    for part in parts {
        match rest.find(part) {
            Some(at) => rest = rest.get(at + part.len()..).unwrap_or_default(),
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// The fewest last components of `name` that no other of `names` ends with (`base/x.rules`
/// beside `packs/x.rules`): what an audit would write to name it alone.
fn shortest_own_suffix<'n>(name: &'n str, names: &[String]) -> &'n str {
    let starts = std::iter::once(0).chain(name.match_indices('/').map(|(at, _)| at + 1)).collect::<Vec<_>>();
    starts
        .iter()
        .rev()
        .filter_map(|start| name.get(*start..))
        .find(|suffix| names.iter().filter(|other| is_file_named(other, suffix)).count() == 1)
        .unwrap_or(name)
}

/// Whether a rule file's name (`/repo/rules/network.rules`) is the one an audit names: the
/// same, or its last path components (`network.rules`, `rules/network.rules`).
fn is_file_named(name: &str, wanted: &str) -> bool {
    let wanted = wanted.trim_start_matches("./");
    !wanted.is_empty() && (name == wanted || name.strip_suffix(wanted).is_some_and(|head| head.ends_with('/')))
}

/// Field names to list in help, `args.NAME` last for tool events.
fn fields_help(event: EventKind) -> Vec<&'static str> {
    // One command's fields are listed by `runs`'s own help, not as the event's.
    let mut names: Vec<&'static str> = Field::names_for(event)
        .into_iter()
        .filter(|name| !matches!(Field::lookup(name, event), FieldLookup::Found(field, _) if field.in_command()))
        .collect();
    if event.has_tool() {
        names.push("args.NAME");
    }
    names
}

/// "`a`, `b` and `c`".
pub(crate) fn backticked<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<String> = names.into_iter().map(|name| format!("`{name}`")).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}
