//! The abstract syntax tree: what the source says, every node with its span, nothing resolved.

use crate::source::Span;

/// One parsed rule file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ast {
    /// `let` lists, in source order.
    pub lists: Vec<ListDecl>,
    /// Rules, in source order.
    pub rules: Vec<RuleDecl>,
    /// Waivers and audits, in source order.
    pub waivers: Vec<WaiverDecl>,
}

/// `waive RULE [when CONDITION] until DATE ["REASON"]`, or
/// `audit RULES [when CONDITION] [until DATE] ["REASON"]`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WaiverDecl {
    /// Which statement.
    pub mode: crate::ir::Lift,
    /// The rules it lifts.
    pub rules: RuleRef,
    /// Where it lifts them, if not everywhere.
    pub condition: Option<Expr>,
    /// The last day it holds, as written (`YYYY-MM-DD`); an audit may hold without end.
    pub until: Option<Ident>,
    /// Why, if said.
    pub reason: Option<StrLit>,
    /// The whole waiver.
    pub span: Span,
}

/// The rules a waiver or an audit names.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RuleRef {
    /// A rule's name, or (an audit's) a pattern of names with `*`.
    Names(Ident),
    /// (An audit's) the rules of a rule file, as a string: `"network.rules"`.
    File(StrLit),
}

/// A name as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ident {
    /// The text.
    pub text: String,
    /// Where it is.
    pub span: Span,
}

/// `let NAME = [VALUE, …]` or `let NAME = /REGEX/FLAGS`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ListDecl {
    /// The list's name.
    pub name: Ident,
    /// What it names.
    pub value: LetValue,
    /// The whole declaration.
    pub span: Span,
}

/// What a `let` names.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum LetValue {
    /// A list of values, for `in`, `not in` and `like`.
    List(Vec<Literal>),
    /// A regex, for `matches`.
    Regex(RegexLit),
}

/// `[rule NAME] EVENT [when CONDITION] => ACTION, …`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RuleDecl {
    /// The name after `rule`, if given.
    pub name: Option<Ident>,
    /// The event name.
    pub event: Ident,
    /// The condition after `when`, if any.
    pub condition: Option<Expr>,
    /// The actions, at least one.
    pub actions: Vec<ActionNode>,
    /// The whole rule.
    pub span: Span,
}

/// A condition.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    /// Any of these holds.
    Or(Vec<Expr>, Span),
    /// All of these hold.
    And(Vec<Expr>, Span),
    /// This does not hold.
    Not(Box<Expr>, Span),
    /// A single test.
    Test(Test),
    /// `runs [PROGRAMS [SUBCOMMAND]] [(CONDITION)]`.
    Runs(Box<RunsExpr>),
}

/// `runs [PROGRAMS [SUBCOMMAND]] [(CONDITION)]`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RunsExpr {
    /// The programs: a name or string (`Inline` of one), `[..]`, or a name that may be a
    /// `let` list's (`Named`; the checker decides).
    pub programs: Option<ListOperand>,
    /// The subcommand.
    pub subcommand: Option<Literal>,
    /// The condition on the command.
    pub condition: Option<Expr>,
    /// The whole construct.
    pub span: Span,
}

impl Expr {
    /// Where the condition is.
    pub(crate) fn span(&self) -> Span {
        match self {
            Expr::Or(_, span) | Expr::And(_, span) | Expr::Not(_, span) => *span,
            Expr::Test(test) => test.span,
            Expr::Runs(runs) => runs.span,
        }
    }
}

/// `SUBJECT [OPERATOR OPERAND]`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Test {
    /// What is looked at.
    pub subject: Subject,
    /// The operator; `None` for a bare boolean field.
    pub predicate: Option<Predicate>,
    /// The whole test.
    pub span: Span,
}

/// A field or `len(field)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Subject {
    /// A field (`tool`, `path`, `args.mode`).
    Field(Ident),
    /// `len(field)`.
    Len(Ident, Span),
}

impl Subject {
    /// Where the subject is.
    pub(crate) fn span(&self) -> Span {
        match self {
            Subject::Field(field) => field.span,
            Subject::Len(_, span) => *span,
        }
    }
}

/// The comparison operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CompareOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// An operator with its operand.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Predicate {
    /// `== != < <= > >=`.
    Compare(CompareOp, Literal),
    /// `in …` or, with `negated`, `not in …`.
    In {
        /// `not in`.
        negated: bool,
        /// The values.
        list: ListOperand,
    },
    /// `matches /re/flags`.
    Matches(RegexOperand),
    /// `like "glob"` or `like LIST`.
    Like(ListOperand),
    /// `contains VALUE`.
    Contains(Literal),
    /// `starts_with VALUE`.
    StartsWith(Literal),
    /// `ends_with VALUE`.
    EndsWith(Literal),
}

/// The operand of `matches`: a regex, or a reference to a `let` regex.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RegexOperand {
    /// `/REGEX/FLAGS`.
    Inline(RegexLit),
    /// `NAME` of a `let` regex.
    Named(Ident),
}

/// An inline list, one string, or a reference to a `let` list.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ListOperand {
    /// `[a, b]` (or a single string, for `like "glob"`).
    Inline(Vec<Literal>, Span),
    /// `NAME` of a `let` list.
    Named(Ident),
}

/// A literal value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Literal {
    /// `"text"` (escapes decoded, interpolation not applied).
    Str(StrLit),
    /// `42`, `-1.5`.
    Num(f64, Span),
    /// `true`, `false`.
    Bool(bool, Span),
    /// A bare identifier standing for a string (`tool == bash`).
    Symbol(Ident),
}

impl Literal {
    /// Where the literal is.
    pub(crate) fn span(&self) -> Span {
        match self {
            Literal::Str(lit) => lit.span,
            Literal::Num(_, span) | Literal::Bool(_, span) => *span,
            Literal::Symbol(ident) => ident.span,
        }
    }
}

/// A string literal: its raw text is kept so it can be read as a template with exact spans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StrLit {
    /// The text between the quotes, escapes still in place.
    pub raw: String,
    /// The span of the text between the quotes.
    pub body: Span,
    /// The span including the quotes.
    pub span: Span,
}

/// `/pattern/flags`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RegexLit {
    /// The pattern; `\/` already turned into `/`.
    pub pattern: String,
    /// The flags after the closing slash.
    pub flags: String,
    /// The whole literal.
    pub span: Span,
}

/// `NAME ARG…`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ActionNode {
    /// The action's name.
    pub name: Ident,
    /// Its arguments.
    pub args: Vec<ActionArg>,
    /// The whole action.
    pub span: Span,
}

/// One argument of an action.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ActionArg {
    /// A string.
    Str(StrLit),
    /// A number.
    Num(f64, Span),
    /// A regex.
    Regex(RegexLit),
    /// `FIELD = VALUE` (for `set`).
    Assign(Ident, Literal, Span),
}

impl ActionArg {
    /// Where the argument is.
    pub(crate) fn span(&self) -> Span {
        match self {
            ActionArg::Str(lit) => lit.span,
            ActionArg::Num(_, span) | ActionArg::Assign(_, _, span) => *span,
            ActionArg::Regex(lit) => lit.span,
        }
    }

    /// A word for the argument's kind, for diagnostics.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            ActionArg::Str(_) => "a string",
            ActionArg::Num(..) => "a number",
            ActionArg::Regex(_) => "a regex",
            ActionArg::Assign(..) => "an assignment",
        }
    }
}
