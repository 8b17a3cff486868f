//! Rules that cannot enforce what they say, found at check time instead of on an agent's calls:
//!
//! - a `tool` value no agent's tool has (W0307), or one agent's name where the others have their
//!   own (W0308: `tool == bash` governs the seed's tool only; `kind == shell` governs all);
//! - a value outside a closed vocabulary ([`Field::vocabulary`]): E0205 for the sets hookc owns
//!   (`kind`, `access`, `agent`), W0314 for the sets the agents' vendors own (`permission_mode`);
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
use crate::model::dedup_in_order;
use crate::source::Span;
use crate::syntax::ast::{self, ActionArg, CompareOp, Expr, ListOperand, Literal, Predicate};
use crate::syntax::strings;
use crate::vocab::agents;
use crate::vocab::tools::{self, Kind, Tool};
use crate::vocab::{EventKind, Field, FieldLookup, Owner, Semantic, Vocabulary};

impl Checker<'_> {
    /// Runs the checks of this module on a rule that checked clean.
    pub(super) fn enforceable(&mut self, rule: &ast::RuleDecl, checked: &ir::Rule) {
        let admitted = admitted(&checked.condition);
        let certain = certain_fields(&checked.condition);
        // A `log` that cannot render is reported and swallowed (an observer never blocks).
        for action in rule.actions.iter().filter(|action| action.name.text != "log") {
            for lit in action.args.iter().filter_map(template_of) {
                self.template_fields(lit, checked.event, &admitted, &certain);
            }
        }
        if let Some(expr) = &rule.condition {
            self.closed_values(expr, checked.event);
        }
        if !checked.event.has_tool() {
            return;
        }
        if let Some(expr) = &rule.condition {
            self.negated_tests(expr, false, checked.event, &admitted, &certain);
        }
        self.allow_on_files(rule, checked, &admitted);
        self.approval_for_person(rule, checked);
    }

    /// W0313: an `allow` at `permission_request` approves on the person's behalf.
    fn approval_for_person(&mut self, rule: &ast::RuleDecl, checked: &ir::Rule) {
        if checked.event != EventKind::PermissionRequest {
            return;
        }
        let Some(action) = rule.actions.iter().find(|action| action.name.text == "allow") else { return };
        self.report(
            Diagnostic::new(
                Code::ApprovesForPerson,
                action.span,
                "this `allow` approves the call on the person's behalf",
            )
            .label("the agent's approval prompt is answered without the person")
            .help("leave the prompt to the person (`ask`), refuse what must not run (`deny`), or bound the allow narrowly"),
        );
    }

    /// W0310: an `allow` that decides on files and admits shell calls, whose lines are judged
    /// per file they name.
    fn allow_on_files(&mut self, rule: &ast::RuleDecl, checked: &ir::Rule, admitted: &Admitted) {
        let allows = checked.actions.iter().any(|action| {
            matches!(action, ir::Action::Permission { behavior: crate::model::result::Permission::Allow, .. })
        });
        let on_files = checked.condition.reads_file() || mentions(&checked.condition, &Field::Paths);
        // `kind != shell` / `kind not in [shell, …]` at the top level keeps shell calls out.
        let shell = Value::Str(Kind::Shell.name().to_string());
        let excludes_shell = conjuncts(&checked.condition).iter().any(|conjunct| match conjunct {
            Cond::Test(test) if *test.subject.field() == Field::Kind => match &test.pred {
                Pred::Ne(value) => *value == shell,
                Pred::NotIn(values) => values.contains(&shell),
                _ => false,
            },
            _ => false,
        });
        if !allows || !on_files || excludes_shell || !admitted.admits(Kind::Shell) {
            return;
        }
        let Some(action) = rule.actions.iter().find(|action| action.name.text == "allow") else { return };
        self.report(
            Diagnostic::new(
                Code::AllowAdmitsShell,
                action.span,
                "this `allow` also allows shell commands that name only the files it matches",
            )
            .label("a shell line is judged per file it names, whatever else it runs")
            .help("bound it to the tools it means: `kind in [write, read] and …`, or `kind != shell`"),
        );
    }

    /// W0307 and W0308 on every `tool` test of a condition, E0205 and W0314 on every test of a
    /// field with a closed vocabulary.
    fn closed_values(&mut self, expr: &Expr, event: EventKind) {
        match expr {
            Expr::Or(children, _) | Expr::And(children, _) => {
                children.iter().for_each(|child| self.closed_values(child, event))
            }
            Expr::Not(child, _) => self.closed_values(child, event),
            Expr::Runs(runs) => {
                if let Some(condition) = &runs.condition {
                    self.closed_values(condition, event);
                }
            }
            Expr::Test(test) => {
                let ast::Subject::Field(field) = &test.subject else { return };
                let literals = match &test.predicate {
                    Some(Predicate::Compare(CompareOp::Eq | CompareOp::Ne, literal)) => vec![literal.clone()],
                    Some(Predicate::In { list: ListOperand::Inline(literals, _), .. }) => literals.clone(),
                    Some(Predicate::In { list: ListOperand::Named(name), .. }) => {
                        // A `let` list's values, reported at the list's use.
                        let Some(super::ListInfo { value: super::LetInfo::List(values), .. }) =
                            self.lists.get(&name.text)
                        else {
                            return;
                        };
                        let values = values.iter().filter_map(|value| match value {
                            Value::Str(text) => Some((text.clone(), name.span)),
                            _ => None,
                        });
                        let values: Vec<(String, Span)> = values.collect();
                        return self.field_values(&field.text, event, &values, test.span);
                    }
                    _ => return,
                };
                let values: Vec<(String, Span)> = literals
                    .iter()
                    .filter_map(|literal| match literal {
                        Literal::Str(lit) => strings::decode_plain(lit).ok().map(|text| (text, lit.span)),
                        Literal::Symbol(ident) => Some((ident.text.clone(), ident.span)),
                        _ => None,
                    })
                    .collect();
                self.field_values(&field.text, event, &values, test.span);
            }
        }
    }

    fn field_values(&mut self, name: &str, event: EventKind, values: &[(String, Span)], test_span: Span) {
        let FieldLookup::Found(field, _) = Field::lookup(name, event) else { return };
        if field == Field::Tool {
            return self.tool_names(values, test_span);
        }
        if let Some(vocabulary) = field.vocabulary() {
            self.vocabulary_values(name, &vocabulary, values);
        }
    }

    fn tool_names(&mut self, values: &[(String, Span)], test_span: Span) {
        let mut known: Vec<&'static Tool> = Vec::new();
        for (name, span) in values {
            let named = agents::tools_named(name);
            match named.is_empty() {
                false => known.extend(named.into_iter().map(|(_, tool)| tool)),
                true if tools::mcp_parts(name).is_some() => {}
                true => {
                    let names = agents::tool_names();
                    let trimmed = name.trim();
                    let diagnostic =
                        Diagnostic::new(Code::UnknownTool, *span, format!("no agent has a tool named `{name}`"))
                            .label("unknown tool");
                    let help = if trimmed != name && !agents::tools_named(trimmed).is_empty() {
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
            if named.is_empty() {
                continue;
            }
            // Every tool of the kind, on every agent: naming one per agent is not enough
            // (`Write` without `Edit` leaves every edit ungoverned).
            let missing: Vec<(&str, Vec<&str>)> = agents::tools_of_kind(kind)
                .into_iter()
                .filter_map(|(agent, names)| {
                    let left: Vec<&str> =
                        names.into_iter().filter(|name| !named.iter().any(|tool| tool.name == *name)).collect();
                    (!left.is_empty()).then_some((agent.name, left))
                })
                .collect();
            if missing.is_empty() {
                continue;
            }
            // The first agents' tools by name, the rest counted: every agent has some.
            const SHOWN: usize = 4;
            let mut listed: Vec<String> = missing
                .iter()
                .take(SHOWN)
                .map(|(agent, names)| format!("{agent}: {}", super::backticked(names.clone())))
                .collect();
            let rest = missing.get(SHOWN..).unwrap_or_default();
            if !rest.is_empty() {
                let tools: usize = rest.iter().map(|(_, names)| names.len()).sum();
                listed.push(format!("and {tools} more on {} other agents", rest.len()));
            }
            let missing = listed;
            self.report(
                Diagnostic::new(
                    Code::OneAgentTool,
                    test_span,
                    format!("this test leaves some {} tools ungoverned", kind.name()),
                )
                .label(format!("not every agent's {} tools are named", kind.name()))
                .help(format!(
                    "write `kind == {}` to govern them all (not named here: {})",
                    kind.name(),
                    missing.join("; ")
                )),
            );
        }
    }

    /// E0205 or W0314 on each value outside the field's vocabulary, with the nearest value.
    fn vocabulary_values(&mut self, field: &str, vocabulary: &Vocabulary, values: &[(String, Span)]) {
        for (value, span) in values {
            if vocabulary.values.contains(&value.as_str()) {
                continue;
            }
            let (code, message, label) = match vocabulary.owner {
                Owner::Hookc => {
                    (Code::UnknownValue, format!("unknown {field} `{value}`"), format!("not a value of `{field}`"))
                }
                Owner::Vendor => (
                    Code::UnknownVendorValue,
                    format!("no agent is known to send {field} `{value}`"),
                    "no known agent sends this".to_string(),
                ),
            };
            let values = vocabulary.values.iter().copied();
            let help = match crate::diagnostic::did_you_mean(value, values) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!("the values are {}", super::backticked(vocabulary.values.clone())),
            };
            self.report(Diagnostic::new(code, *span, message).label(label).help(help));
        }
    }

    /// E0204: a template field that some calls the rule admits may not have.
    fn template_fields(&mut self, lit: &ast::StrLit, event: EventKind, admitted: &Admitted, certain: &[Field]) {
        let Ok(pieces) = strings::decode(lit, true) else { return };
        for piece in pieces {
            let strings::Piece::Field(ident) = piece else { continue };
            let FieldLookup::Found(field, _) = Field::lookup(&ident.text, event) else { continue };
            // The turn's fields come together: a test on one holding means the turn is known.
            let turn = [Field::ToolCalls, Field::Commands, Field::FilesWritten, Field::ToolsUsed];
            let known_turn = turn.contains(&field) && turn.iter().any(|field| certain.contains(field));
            if certain.contains(&field) || known_turn || field.always_present(event) {
                continue;
            }
            let (label, help) = match profile_field(&field) {
                Some(semantic) => {
                    let lacking = admitted.lacking(semantic);
                    if lacking.is_empty() {
                        continue;
                    }
                    let help = format!(
                        "test `{}` in the condition (a test on a field the call lacks never holds), or admit only tools that have it, for example `kind == {}`",
                        ident.text,
                        kind_with(semantic)
                    );
                    (format!("{} no `{}`", lacking_phrase(&lacking), ident.text), help)
                }
                None if turn.contains(&field) => (
                    format!("`{}` is missing when the agent's transcript cannot be read", ident.text),
                    "test `tool_calls >= 0` in the condition: it holds exactly when the turn is known".to_string(),
                ),
                None => (
                    format!("not every `{}` event carries `{}`", event.name(), ident.text),
                    format!(
                        "test `{}` in the condition (`and {} != \"\"`: a test on a missing field never holds)",
                        ident.text, ident.text
                    ),
                ),
            };
            let what = if event.has_tool() { "call" } else { "event" };
            self.report(
                Diagnostic::new(
                    Code::UnrenderableField,
                    ident.span,
                    format!("`{{{}}}` cannot be rendered for every {what} this rule admits", ident.text),
                )
                .label(label)
                .help(help),
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
            Expr::Runs(runs) => {
                if let Some(condition) = &runs.condition {
                    self.negated_tests(condition, negated, event, admitted, certain);
                }
            }
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

/// How the checker names the tools hookc has no profile for.
const UNKNOWN_TOOLS: &str = "tools hookc does not know";

impl Admitted {
    /// The admitted tools that have no `semantic`, or may leave it out, by name; tools hookc
    /// does not know (any MCP tool, a tool of the agent's own) may lack anything.
    fn lacking(&self, semantic: Semantic) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self
            .known_tools()
            .into_iter()
            .filter(|tool| tool.source(semantic).is_none() || tool.may_omit(semantic))
            .map(|tool| tool.name)
            .collect();
        dedup_in_order(&mut names);
        let unknown = match self {
            Admitted::Any => true,
            Admitted::Some { names, kinds } => {
                kinds.iter().any(|kind| matches!(kind, Kind::Mcp | Kind::Other))
                    || names.iter().any(|name| agents::tools_named(name).is_empty())
            }
        };
        if unknown {
            names.push(UNKNOWN_TOOLS);
        }
        names
    }

    /// The admitted tools hookc knows: the agents' own (MCP filesystem tools only when named).
    fn known_tools(&self) -> Vec<&'static Tool> {
        match self {
            Admitted::Any => agents::every_tool().collect(),
            Admitted::Some { names, kinds } => names
                .iter()
                .flat_map(|name| agents::tools_named(name).into_iter().map(|(_, tool)| tool))
                .chain(agents::every_tool().filter(|tool| kinds.contains(&tool.kind)))
                .collect(),
        }
    }

    /// Whether the admitted tools include tools of `kind`.
    fn admits(&self, kind: Kind) -> bool {
        match self {
            Admitted::Any => true,
            Admitted::Some { names, kinds } => {
                kinds.contains(&kind)
                    || names.iter().any(|name| agents::tools_named(name).iter().any(|(_, tool)| tool.kind == kind))
            }
        }
    }

    /// The tools either of two conditions admits.
    fn union(self, other: Admitted) -> Admitted {
        match (self, other) {
            (Admitted::Some { names: mut a, kinds: mut b }, Admitted::Some { names, kinds }) => {
                a.extend(names);
                b.extend(kinds);
                Admitted::Some { names: a, kinds: b }
            }
            _ => Admitted::Any,
        }
    }
}

/// Whether a condition tests `field` anywhere.
fn mentions(cond: &Cond, field: &Field) -> bool {
    match cond {
        Cond::Always => false,
        Cond::All(children) | Cond::Any(children) => children.iter().any(|child| mentions(child, field)),
        Cond::Not(child) => mentions(child, field),
        Cond::Runs(runs) => mentions(&runs.condition, field),
        Cond::Test(test) => test.subject.field() == field,
    }
}

/// The conjuncts of a condition: its children if it is an `and`, else itself.
fn conjuncts(cond: &Cond) -> &[Cond] {
    match cond {
        Cond::All(children) => children,
        other => std::slice::from_ref(other),
    }
}

/// The tools a condition admits: bounded by its top-level `tool` and `kind` tests, or by an
/// `or` whose every branch is bounded.
fn admitted(cond: &Cond) -> Admitted {
    // Several bounds: the first is enough to be safe (each bounds the rule).
    let bound = conjuncts(cond).iter().find_map(|conjunct| match conjunct {
        Cond::Test(test) => test_bound(test),
        // Only a shell call has commands.
        Cond::Runs(_) => Some(Admitted::Some { names: Vec::new(), kinds: vec![Kind::Shell] }),
        Cond::Any(branches) => {
            branches.iter().map(admitted).reduce(Admitted::union).filter(|union| !matches!(union, Admitted::Any))
        }
        _ => None,
    });
    bound.unwrap_or(Admitted::Any)
}

/// The tools one test admits, if it is a `tool` or `kind` test.
fn test_bound(test: &ir::Test) -> Option<Admitted> {
    let ir::Subject::Field(field) = &test.subject else { return None };
    let values: Vec<&str> = match &test.pred {
        Pred::Eq(Value::Str(value)) => vec![value.as_str()],
        Pred::In(values) => values
            .iter()
            .filter_map(|value| match value {
                Value::Str(text) => Some(text.as_str()),
                _ => None,
            })
            .collect(),
        _ => return None,
    };
    match field {
        Field::Tool => {
            Some(Admitted::Some { names: values.iter().map(|value| (*value).to_string()).collect(), kinds: Vec::new() })
        }
        Field::Kind => Some(Admitted::Some {
            names: Vec::new(),
            kinds: values.iter().filter_map(|value| Kind::from_name(value)).collect(),
        }),
        _ => None,
    }
}

/// The fields a top-level conjunct tests: present whenever the rule fires (`host` is read from
/// `url`, so a test on it makes `url` certain too; `mcp_server` and `mcp_tool` come together).
fn certain_fields(cond: &Cond) -> Vec<Field> {
    let mut fields = Vec::new();
    for conjunct in conjuncts(cond) {
        if let Cond::Test(test) = conjunct {
            let field = test.subject.field().clone();
            match field {
                Field::Semantic(Semantic::Host) => fields.push(Field::Semantic(Semantic::Url)),
                // An MCP tool name has both parts or neither.
                Field::McpServer => fields.push(Field::McpTool),
                Field::McpTool => fields.push(Field::McpServer),
                // `access` is how the call uses the file being judged: there is one.
                Field::Access => fields.push(Field::Semantic(Semantic::Path)),
                _ => {}
            }
            fields.push(field);
        }
    }
    fields
}
