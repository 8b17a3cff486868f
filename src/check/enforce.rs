//! Rules that cannot enforce what they say, found at check time instead of on an agent's calls:
//!
//! - a `tool` value no agent's tool has (W0307), or one agent's name where the others have their
//!   own (W0308: `tool == bash` governs the seed's tool only; `kind == shell` governs all);
//! - a `kind` value that is not a kind (E0205);
//! - a message or value naming a field that some tools the condition admits lack (E0204): it
//!   could not be rendered, and the call would be blocked at run time;
//! - a negated test on such a field (W0309): `not path like "src/**"` holds for every `Bash` call.
//!
//! "The tools the condition admits" are read from its top-level conjuncts (`tool == …`,
//! `tool in …`, `kind == …`, `kind in …`); without one, every tool. A field is certain when a
//! top-level conjunct tests it, since a test on a missing field never holds.

use super::Checker;
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{self, Cond, Pred, Value};
use crate::source::Span;
use crate::syntax::ast::{self, ActionArg, CompareOp, Expr, ListOperand, Literal, Predicate};
use crate::syntax::strings;
use crate::vocab::tools::{self, Agent, Kind, Tool};
use crate::vocab::{EventKind, Field, FieldLookup, Semantic};

impl Checker<'_> {
    /// Runs the checks of this module on a rule that checked clean.
    pub(super) fn enforceable(&mut self, rule: &ast::RuleDecl, checked: &ir::Rule) {
        if !checked.event.has_tool() {
            return;
        }
        if let Some(expr) = &rule.condition {
            self.tool_values(expr);
        }
        let admitted = admitted(&checked.condition);
        let certain = certain_fields(&checked.condition);
        // A `log` that cannot render is reported and swallowed (an observer never blocks).
        for action in rule.actions.iter().filter(|action| action.name.text != "log") {
            for lit in action.args.iter().filter_map(template_of) {
                self.template_fields(lit, checked.event, &admitted, &certain);
            }
        }
        if let Some(expr) = &rule.condition {
            self.negated_tests(expr, false, checked.event, &admitted, &certain);
        }
    }

    /// W0307, W0308 and E0205 on every `tool` or `kind` test of a condition.
    fn tool_values(&mut self, expr: &Expr) {
        match expr {
            Expr::Or(children, _) | Expr::And(children, _) => children.iter().for_each(|child| self.tool_values(child)),
            Expr::Not(child, _) => self.tool_values(child),
            Expr::Test(test) => {
                let ast::Subject::Field(field) = &test.subject else { return };
                let values = match &test.predicate {
                    Some(Predicate::Compare(CompareOp::Eq | CompareOp::Ne, literal)) => vec![literal.clone()],
                    Some(Predicate::In { list: ListOperand::Inline(literals, _), .. }) => literals.clone(),
                    _ => return,
                };
                let values: Vec<(String, Span)> = values
                    .iter()
                    .filter_map(|literal| match literal {
                        Literal::Str(lit) => strings::decode_plain(lit).ok().map(|text| (text, lit.span)),
                        Literal::Symbol(ident) => Some((ident.text.clone(), ident.span)),
                        _ => None,
                    })
                    .collect();
                match field.text.as_str() {
                    "tool" => self.tool_names(&values, test.span),
                    "kind" => self.kind_names(&values),
                    _ => {}
                }
            }
        }
    }

    fn tool_names(&mut self, values: &[(String, Span)], test_span: Span) {
        let mut known: Vec<&'static Tool> = Vec::new();
        for (name, span) in values {
            match tools::lookup(name) {
                Some(tool) => known.push(tool),
                None if tools::mcp_parts(name).is_some() => {}
                None => {
                    let names = tools::known_names();
                    let trimmed = name.trim();
                    let diagnostic =
                        Diagnostic::new(Code::UnknownTool, *span, format!("no agent has a tool named `{name}`"))
                            .label("unknown tool");
                    let help = if trimmed != name && tools::lookup(trimmed).is_some() {
                        format!("did you mean `{trimmed}`? (the name has spaces around it)")
                    } else if let Some(best) = crate::diagnostic::did_you_mean(name, names.iter().copied()) {
                        format!("did you mean `{best}`?")
                    } else {
                        "tool names are case-sensitive; MCP tools are `mcp__SERVER__TOOL`; `kind` names what a tool does on every agent".to_string()
                    };
                    self.report(diagnostic.help(help));
                }
            }
        }
        for kind in [Kind::Shell, Kind::Read, Kind::Write, Kind::Search, Kind::Fetch] {
            let named: Vec<&Tool> = known.iter().copied().filter(|tool| tool.kind == kind).collect();
            if named.is_empty() || named.iter().any(|tool| tool.agents.contains(&Agent::McpFilesystem)) {
                continue;
            }
            let per_agent = tools::tools_of_kind(kind);
            let missing: Vec<&(Agent, Vec<&str>)> =
                per_agent.iter().filter(|(agent, _)| !named.iter().any(|tool| tool.agents.contains(agent))).collect();
            if missing.is_empty() {
                continue;
            }
            let covered: Vec<&str> = Agent::AGENTS
                .into_iter()
                .filter(|agent| named.iter().any(|tool| tool.agents.contains(agent)))
                .map(Agent::name)
                .collect();
            let others: Vec<String> = missing
                .iter()
                .map(|(agent, names)| format!("{}: {}", agent.name(), super::backticked(names.iter().copied())))
                .collect();
            self.report(
                Diagnostic::new(
                    Code::OneAgentTool,
                    test_span,
                    format!("this test governs the {} tools of {} only", kind.name(), covered.join(" and ")),
                )
                .label(format!("{} tools of other agents are not covered", kind.name()))
                .help(format!(
                    "write `kind == {}` to govern every agent ({})",
                    kind.name(),
                    others.join("; ")
                )),
            );
        }
    }

    fn kind_names(&mut self, values: &[(String, Span)]) {
        for (name, span) in values {
            if Kind::from_name(name).is_none() {
                let names = Kind::ALL.map(Kind::name);
                self.report(
                    Diagnostic::new(Code::UnknownKind, *span, format!("unknown kind `{name}`"))
                        .label("not a kind")
                        .help(format!("the kinds are {}", super::backticked(names)))
                        .suggest(name, names),
                );
            }
        }
    }

    /// E0204: a template field some admitted tools lack.
    fn template_fields(&mut self, lit: &ast::StrLit, event: EventKind, admitted: &Admitted, certain: &[Field]) {
        let Ok(pieces) = strings::decode(lit, true) else { return };
        for piece in pieces {
            let strings::Piece::Field(ident) = piece else { continue };
            let FieldLookup::Found(field, _) = Field::lookup(&ident.text, event) else { continue };
            let Some(semantic) = profile_field(&field) else { continue };
            if certain.contains(&field) {
                continue;
            }
            let lacking = admitted.lacking(semantic);
            if lacking.is_empty() {
                continue;
            }
            self.report(
                Diagnostic::new(
                    Code::UnrenderableField,
                    ident.span,
                    format!("`{{{}}}` cannot be rendered for every call this rule admits", ident.text),
                )
                .label(format!("{} no `{}`", lacking_phrase(&lacking), ident.text))
                .help(format!(
                    "test `{}` in the condition (a test on a field the call lacks never holds), or admit only tools that have it, for example `kind == {}`",
                    ident.text,
                    kind_with(semantic)
                )),
            );
        }
    }

    /// W0309: a test under an odd number of `not`s on a field some admitted tools lack.
    fn negated_tests(&mut self, expr: &Expr, negated: bool, event: EventKind, admitted: &Admitted, certain: &[Field]) {
        match expr {
            Expr::Or(children, _) | Expr::And(children, _) => {
                for child in children {
                    self.negated_tests(child, negated, event, admitted, certain);
                }
            }
            Expr::Not(child, _) => self.negated_tests(child, !negated, event, admitted, certain),
            Expr::Test(test) if negated => {
                let ident = match &test.subject {
                    ast::Subject::Field(ident) | ast::Subject::Len(ident, _) => ident,
                };
                let FieldLookup::Found(field, _) = Field::lookup(&ident.text, event) else { return };
                let Some(semantic) = profile_field(&field) else { return };
                let lacking = admitted.lacking(semantic);
                if certain.contains(&field) || lacking.is_empty() {
                    return;
                }
                let source = self.sources.slice(test.span).to_string();
                self.report(
                    Diagnostic::new(
                        Code::NegatedMissingField,
                        test.span,
                        format!("`not {source}` also holds for every call that has no `{}`", ident.text),
                    )
                    .label(format!("{} no `{}`, so this holds for those calls", lacking_phrase(&lacking), ident.text))
                    .help(format!("admit only tools that have it: `kind == {} and not {source}`", kind_with(semantic))),
                );
            }
            Expr::Test(_) => {}
        }
    }
}

/// The string arguments of an action that are templates.
fn template_of(arg: &ActionArg) -> Option<&ast::StrLit> {
    match arg {
        ActionArg::Str(lit) => Some(lit),
        ActionArg::Assign(_, Literal::Str(lit), _) => Some(lit),
        _ => None,
    }
}

/// The profile field a field reads (`paths` reads `path`).
fn profile_field(field: &Field) -> Option<Semantic> {
    match field {
        Field::Semantic(semantic) => Some(*semantic),
        Field::Paths => Some(Semantic::Path),
        _ => None,
    }
}

/// A kind whose tools have `semantic`, for the help text.
fn kind_with(semantic: Semantic) -> &'static str {
    match semantic {
        Semantic::Command => "shell",
        Semantic::Url | Semantic::Host | Semantic::Query => "fetch",
        Semantic::Pattern => "search",
        Semantic::Path | Semantic::Content => "write",
    }
}

fn lacking_phrase(lacking: &[&str]) -> String {
    let shown: Vec<&str> = lacking.iter().copied().take(3).collect();
    let more = lacking.len().saturating_sub(shown.len());
    match (lacking.len(), more) {
        (1, _) => format!("{} has", super::backticked(shown)),
        (_, 0) => format!("{} have", super::backticked(shown)),
        _ => {
            let names: Vec<String> = shown.iter().map(|name| format!("`{name}`")).collect();
            format!("{} and {more} more tools have", names.join(", "))
        }
    }
}

/// The tools a condition admits.
enum Admitted {
    /// Any tool.
    Any,
    /// Only tools with these names, or of these kinds.
    Some { names: Vec<String>, kinds: Vec<Kind> },
}

impl Admitted {
    /// The admitted tools hookc knows that have no `semantic`, by name.
    fn lacking(&self, semantic: Semantic) -> Vec<&'static str> {
        let candidates = tools::TOOLS.iter().chain(tools::MCP_FILESYSTEM);
        let mut names: Vec<&'static str> = candidates
            .filter(|tool| match self {
                Admitted::Any => !tool.agents.contains(&Agent::McpFilesystem),
                Admitted::Some { names, kinds } => {
                    let named =
                        names.iter().any(|name| tools::lookup(name).is_some_and(|found| std::ptr::eq(found, *tool)));
                    named || kinds.contains(&tool.kind) && !tool.agents.contains(&Agent::McpFilesystem)
                }
            })
            .filter(|tool| tools::lacks(tool, semantic))
            .map(|tool| tool.name)
            .collect();
        names.dedup();
        names
    }
}

/// The conjuncts of a condition: its children if it is an `and`, else itself.
fn conjuncts(cond: &Cond) -> &[Cond] {
    match cond {
        Cond::All(children) => children,
        other => std::slice::from_ref(other),
    }
}

fn admitted(cond: &Cond) -> Admitted {
    let mut names: Option<Vec<String>> = None;
    let mut kinds: Option<Vec<Kind>> = None;
    for conjunct in conjuncts(cond) {
        let Cond::Test(test) = conjunct else { continue };
        let ir::Subject::Field(field) = &test.subject else { continue };
        let values: Vec<&str> = match &test.pred {
            Pred::Eq(Value::Str(value)) => vec![value.as_str()],
            Pred::In(values) => values
                .iter()
                .filter_map(|value| match value {
                    Value::Str(text) => Some(text.as_str()),
                    _ => None,
                })
                .collect(),
            _ => continue,
        };
        match field {
            Field::Tool => names = Some(values.iter().map(|value| (*value).to_string()).collect()),
            Field::Kind => kinds = Some(values.iter().filter_map(|value| Kind::from_name(value)).collect()),
            _ => {}
        }
    }
    match (names, kinds) {
        (None, None) => Admitted::Any,
        // Both: a tool must be named and of the kind; the names are the tighter bound.
        (Some(names), _) => Admitted::Some { names, kinds: Vec::new() },
        (None, Some(kinds)) => Admitted::Some { names: Vec::new(), kinds },
    }
}

/// The fields a top-level conjunct tests: present whenever the rule fires.
fn certain_fields(cond: &Cond) -> Vec<Field> {
    conjuncts(cond)
        .iter()
        .filter_map(|conjunct| match conjunct {
            Cond::Test(test) => Some(test.subject.field().clone()),
            _ => None,
        })
        .collect()
}
