//! Actions: known name, allowed on the rule's event (the seed's `validateFor`, at compile time),
//! and the right arguments.

use super::{backticked, Checker};
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{self, Action, SetValue};
use crate::model::result::Permission;
use crate::syntax::ast::{ActionArg, ActionNode, Literal, StrLit};
use crate::vocab::{ActionKind, EventKind, Field};

impl Checker<'_> {
    pub(super) fn action(&mut self, node: &ActionNode, event: EventKind) -> Option<Action> {
        let Some(kind) = ActionKind::from_name(&node.name.text) else {
            let names = ActionKind::ALL.map(ActionKind::name);
            let allowed: Vec<&str> = event.actions().map(ActionKind::name).collect();
            let diagnostic =
                Diagnostic::new(Code::UnknownAction, node.name.span, format!("unknown action `{}`", node.name.text))
                    .label("not an action")
                    .help(format!("actions allowed on `{}`: {}", event.name(), backticked(allowed)))
                    .suggest(&node.name.text, names);
            self.report(diagnostic);
            return None;
        };
        if !kind.events().contains(&event) {
            let allowed: Vec<&str> = event.actions().map(ActionKind::name).collect();
            let producers = backticked(kind.events().iter().map(|event| event.name()));
            self.report(
                Diagnostic::new(
                    Code::ActionNotInEvent,
                    node.name.span,
                    format!("the action `{}` cannot be used on `{}`", kind.name(), event.name()),
                )
                .label(format!("`{}` only applies to {producers}", kind.name()))
                .help(format!("actions allowed on `{}`: {}", event.name(), backticked(allowed))),
            );
            return None;
        }
        let args = Args { checker: self, node, kind, event };
        args.lower()
    }
}

/// The arguments of one action, matched against its usage.
struct Args<'c, 'a> {
    checker: &'c mut Checker<'a>,
    node: &'c ActionNode,
    kind: ActionKind,
    event: EventKind,
}

impl Args<'_, '_> {
    fn lower(mut self) -> Option<Action> {
        let args = &self.node.args;
        Some(match (self.kind, args.as_slice()) {
            (ActionKind::Block, [ActionArg::Str(code), rest @ ..]) if rest.len() <= 1 => {
                let code = self.code(code)?;
                let message = match rest {
                    [ActionArg::Str(message)] => Some(self.template(message)?),
                    [] => None,
                    _ => return self.wrong(),
                };
                Action::Block { code, message }
            }
            (ActionKind::Deny, _) => self.permission(Permission::Deny)?,
            (ActionKind::Ask, _) => self.permission(Permission::Ask)?,
            (ActionKind::Allow, _) => self.permission(Permission::Allow)?,
            (ActionKind::Set, [ActionArg::Assign(target, value, _)]) => {
                let (field, _) = self.checker.field(target, self.event)?;
                if !matches!(field, Field::Arg(_) | Field::Semantic(_)) {
                    self.checker.report(
                        Diagnostic::new(
                            Code::ActionArguments,
                            target.span,
                            format!("`set` cannot change `{}`", target.text),
                        )
                        .label("not a tool argument")
                        .help("`set` rewrites tool arguments: `set args.NAME = …` or a profile name such as `path`"),
                    );
                    return None;
                }
                Action::Set { field, value: self.set_value(value)? }
            }
            (ActionKind::Replace, [ActionArg::Str(text)]) => Action::Replace(self.template(text)?),
            (ActionKind::Truncate, [ActionArg::Num(limit, span)]) => {
                if limit.fract() != 0.0 || *limit < 0.0 || *limit > 1e15 {
                    self.checker.report(
                        Diagnostic::new(Code::ActionArguments, *span, "`truncate` needs a whole number of characters")
                            .label("not a whole, non-negative number"),
                    );
                    return None;
                }
                // INVARIANT: checked above to be a whole number in 0..=1e15, so the cast is exact.
                #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "range checked above")]
                Action::Truncate(*limit as u64)
            }
            (ActionKind::Redact, [ActionArg::Regex(regex), rest @ ..]) if rest.len() <= 1 => {
                let pattern = self.checker.regex(regex, false)?;
                let with = match rest {
                    [ActionArg::Str(text)] => self.template(text)?,
                    [] => ir::Template(vec![ir::Part::Text("[redacted]".to_string())]),
                    _ => return self.wrong(),
                };
                Action::Redact { pattern, with }
            }
            (ActionKind::Stop, []) => Action::Stop(None),
            (ActionKind::Stop, [ActionArg::Str(reason)]) => Action::Stop(Some(self.template(reason)?)),
            (ActionKind::Continue, [ActionArg::Str(message)]) => Action::Continue(self.template(message)?),
            (ActionKind::Context, [ActionArg::Str(text)]) => Action::Context(self.template(text)?),
            (ActionKind::Log, [ActionArg::Str(text)]) => Action::Log(self.template(text)?),
            _ => return self.wrong(),
        })
    }

    fn permission(&mut self, behavior: Permission) -> Option<Action> {
        match self.node.args.as_slice() {
            [] => Some(Action::Permission { behavior, reason: None }),
            [ActionArg::Str(reason)] => Some(Action::Permission { behavior, reason: Some(self.template(reason)?) }),
            _ => self.wrong(),
        }
    }

    fn template(&mut self, lit: &StrLit) -> Option<ir::Template> {
        self.checker.template(lit, self.event)
    }

    /// A block code: plain text, no interpolation, no spaces.
    fn code(&mut self, lit: &StrLit) -> Option<String> {
        let code = match crate::syntax::strings::decode_plain(lit) {
            Ok(code) => code,
            Err(diagnostic) => {
                self.checker.report(diagnostic);
                return None;
            }
        };
        if code.is_empty() || code.chars().any(char::is_whitespace) {
            self.checker.report(
                Diagnostic::new(Code::ActionArguments, lit.span, "a block code must be one word")
                    .label("empty or has spaces")
                    .help("write `block \"hook_blocked\" \"the message\"`: the code first, the message second"),
            );
            return None;
        }
        Some(code)
    }

    fn set_value(&mut self, value: &Literal) -> Option<SetValue> {
        Some(match value {
            Literal::Str(lit) => SetValue::Text(self.template(lit)?),
            Literal::Num(number, _) => SetValue::Num(*number),
            Literal::Bool(value, _) => SetValue::Bool(*value),
            Literal::Symbol(ident) => SetValue::Text(ir::Template(vec![ir::Part::Text(ident.text.clone())])),
        })
    }

    fn wrong(&mut self) -> Option<Action> {
        let given: Vec<&str> = self.node.args.iter().map(ActionArg::kind).collect();
        let given = if given.is_empty() { "no arguments".to_string() } else { given.join(", ") };
        self.checker.report(
            Diagnostic::new(
                Code::ActionArguments,
                self.node.span,
                format!("wrong arguments for `{}`", self.kind.name()),
            )
            .label(format!("given {given}"))
            .help(format!("usage: `{}`", self.kind.usage())),
        );
        None
    }
}
