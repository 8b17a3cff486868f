//! Static analysis of a checked rule set: rules that can never fire, conditions that can never
//! hold, recommendations that can never take effect, repeats. Every finding is a warning with a
//! code (documented for `hookc check --explain CODE`), a second span at the rule responsible
//! where there is one, and a `help:`.

mod constraints;
mod implication;

use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{Action, Rule, Test};
use crate::model::result::Permission;
use crate::source::Span;
use crate::syntax::ast::RuleDecl;
use crate::vocab::EventKind;
use constraints::{conjunction, contradiction, implies};
use implication::ImplicationIndex;
use std::collections::HashMap;

/// Where a rule is, for pointing at it.
#[derive(Debug, Clone, Copy)]
pub(super) struct RuleSpans {
    /// `rule NAME` or, for an unnamed rule, its event.
    header: Span,
    /// The condition, or the header when there is none.
    condition: Span,
}

impl RuleSpans {
    pub(super) fn of(rule: &RuleDecl) -> RuleSpans {
        let header = rule.name.as_ref().map_or(rule.event.span, |name| name.span);
        let condition = rule.condition.as_ref().map_or(header, |condition| condition.span());
        RuleSpans { header, condition }
    }
}

/// Warnings for lists no rule uses, given as each list's name and where it is defined.
/// `let`s no rule uses: `(name, span, whether it is a regex)`.
pub(super) fn unused_lists<'a>(unused: impl IntoIterator<Item = (&'a str, Span, bool)>) -> Vec<Diagnostic> {
    let mut unused: Vec<(&str, Span, bool)> = unused.into_iter().collect();
    unused.sort_by_key(|(_, span, _)| (span.file, span.start));
    unused
        .into_iter()
        .map(|(name, span, regex)| {
            let (what, uses) = match regex {
                true => ("regex", format!("`matches {name}`")),
                false => ("list", format!("`in {name}`, `like {name}`")),
            };
            Diagnostic::new(Code::UnusedList, span, format!("the {what} `{name}` is never used"))
                .label("defined here, used nowhere")
                .help(format!("use it ({uses}) or remove it"))
        })
        .collect()
}

/// Every rule-level finding.
pub(super) fn lint(rules: &[Rule], spans: &[RuleSpans]) -> Vec<Diagnostic> {
    let conjunctions: Vec<Option<Vec<&Test>>> = rules.iter().map(|rule| conjunction(&rule.condition)).collect();
    let mut findings = Vec::new();
    let mut impossible = vec![false; rules.len()];
    for (index, (rule, tests)) in rules.iter().zip(&conjunctions).enumerate() {
        let Some(reason) = tests.as_deref().and_then(contradiction) else { continue };
        if let (Some(flag), Some(span)) = (impossible.get_mut(index), spans.get(index)) {
            *flag = true;
            findings.push(
                Diagnostic::new(
                    Code::ImpossibleCondition,
                    span.condition,
                    format!("the condition of `{}` can never be true", rule.name),
                )
                .label(reason)
                .help("the rule never fires: fix the condition, or use `or` where either test should do"),
            );
        }
    }
    for event in EventKind::ALL {
        let order: Vec<usize> =
            (0..rules.len()).filter(|&index| rules.get(index).is_some_and(|rule| rule.event == event)).collect();
        let rewrites = rewrites_before(rules, &order);
        let analysis =
            Analysis { rules, spans, conjunctions: &conjunctions, impossible: &impossible, order: &order, rewrites };
        findings.extend(analysis.unreachable());
        findings.extend(analysis.ineffective_recommendations());
        findings.extend(analysis.duplicates());
    }
    findings
}

/// The rules of one event, in evaluation order (indexes into `rules`).
struct Analysis<'a> {
    rules: &'a [Rule],
    spans: &'a [RuleSpans],
    conjunctions: &'a [Option<Vec<&'a Test>>],
    impossible: &'a [bool],
    order: &'a [usize],
    /// For each position of `order` (and one past the end), how many rules before it rewrite
    /// what later rules see.
    rewrites: Vec<usize>,
}

/// How many rewriting rules come before each position of `order`: a prefix count, so "does a
/// rule between these two rewrite" costs the same at any distance.
fn rewrites_before(rules: &[Rule], order: &[usize]) -> Vec<usize> {
    let rewrites = |rule: &Rule| {
        rule.actions.iter().any(|action| {
            matches!(action, Action::Set { .. } | Action::Replace(_) | Action::Truncate(_) | Action::Redact { .. })
        })
    };
    let mut counts = Vec::with_capacity(order.len() + 1);
    let mut count = 0;
    counts.push(0);
    for &index in order {
        count += usize::from(rules.get(index).is_some_and(rewrites));
        counts.push(count);
    }
    counts
}

impl Analysis<'_> {
    fn rule(&self, index: usize) -> Option<(&Rule, &RuleSpans, &[&Test])> {
        let tests = self.conjunctions.get(index)?.as_deref()?;
        if self.impossible.get(index).copied().unwrap_or(true) {
            return None;
        }
        Some((self.rules.get(index)?, self.spans.get(index)?, tests))
    }

    /// Whether a rule strictly between two positions of `order` rewrites what later rules see
    /// (then a condition true for the later rule need not have been true for the earlier one).
    fn rewrite_between(&self, from: usize, to: usize) -> bool {
        let (low, high) = (from.min(to), from.max(to));
        // Rules at positions low + 1 .. high (exclusive of both ends).
        let before = |position: usize| self.rewrites.get(position).copied().unwrap_or(0);
        high > low + 1 && before(high) > before(low + 1)
    }

    /// W0301: a rule after one that blocks whenever it would match.
    fn unreachable(&self) -> Vec<Diagnostic> {
        let blocking = ImplicationIndex::new(self.order.iter().enumerate().filter_map(|(at, &index)| {
            let (rule, _, tests) = self.rule(index)?;
            rule.actions.iter().any(|action| matches!(action, Action::Block { .. })).then_some((at, tests))
        }));
        let mut findings = Vec::new();
        for (later_at, &later) in self.order.iter().enumerate() {
            let Some((rule, spans, tests)) = self.rule(later) else { continue };
            let blocker =
                blocking.candidates(tests).into_iter().take_while(|&earlier_at| earlier_at < later_at).find_map(
                    |earlier_at| {
                        let (blocking, blocking_spans, blocking_tests) = self.rule(*self.order.get(earlier_at)?)?;
                        (implies(tests, blocking_tests) && !self.rewrite_between(earlier_at, later_at))
                            .then_some((blocking, blocking_spans))
                    },
                );
            if let Some((blocking, blocking_spans)) = blocker {
                findings.push(
                    Diagnostic::new(
                        Code::UnreachableRule,
                        spans.header,
                        format!("the rule `{}` can never fire", rule.name),
                    )
                    .label(format!("whenever it matches, `{}` has already blocked", blocking.name))
                    .secondary(blocking_spans.header, "this rule blocks first, and a block ends evaluation")
                    .help(format!(
                        "move `{}` before `{}`, or narrow the condition of `{}`",
                        rule.name, blocking.name, blocking.name
                    )),
                );
            }
        }
        findings
    }

    /// W0303: an allow (or ask) always outranked by a stronger recommendation that fires with it.
    fn ineffective_recommendations(&self) -> Vec<Diagnostic> {
        let strongest = |rule: &Rule| {
            rule.actions
                .iter()
                .filter_map(|action| match action {
                    Action::Permission { behavior, .. } => Some(*behavior),
                    _ => None,
                })
                .max()
        };
        // Only a strictly stronger recommendation can outrank: index `deny`s and `ask`s apart.
        let index_of = |wanted: Permission| {
            ImplicationIndex::new(self.order.iter().enumerate().filter_map(move |(at, &index)| {
                let (rule, _, tests) = self.rule(index)?;
                (strongest(rule) == Some(wanted)).then_some((at, tests))
            }))
        };
        let (denying, asking) = (index_of(Permission::Deny), index_of(Permission::Ask));
        let mut findings = Vec::new();
        for (weak_at, &weak) in self.order.iter().enumerate() {
            let Some((rule, spans, tests)) = self.rule(weak) else { continue };
            let Some(level @ (Permission::Allow | Permission::Ask)) = strongest(rule) else { continue };
            let mut candidates = denying.candidates(tests);
            if level == Permission::Allow {
                candidates.extend(asking.candidates(tests));
                candidates.sort_unstable();
            }
            let stronger = candidates.into_iter().filter(|&other_at| other_at != weak_at).find_map(|other_at| {
                let (overriding, overriding_spans, overriding_tests) = self.rule(*self.order.get(other_at)?)?;
                let other_level = strongest(overriding)?;
                (other_level > level && implies(tests, overriding_tests) && !self.rewrite_between(weak_at, other_at))
                    .then_some((overriding, overriding_spans, other_level))
            });
            if let Some((overriding, overriding_spans, other_level)) = stronger {
                findings.push(
                    Diagnostic::new(
                        Code::IneffectiveAllow,
                        spans.header,
                        format!("the `{}` of `{}` can never take effect", level.name(), rule.name),
                    )
                    .label(format!(
                        "whenever it fires, `{}` recommends `{}`, which wins",
                        overriding.name,
                        other_level.name()
                    ))
                    .secondary(overriding_spans.header, format!("this `{}` always fires with it", other_level.name()))
                    .help(format!(
                        "the strongest recommendation wins; narrow `{}` if `{}` should apply",
                        overriding.name, rule.name
                    )),
                );
            }
        }
        findings
    }

    /// W0304: a rule that repeats an earlier one's event, condition and actions.
    fn duplicates(&self) -> Vec<Diagnostic> {
        let body = |rule: &Rule| serde_json::to_string(&(&rule.condition, &rule.actions)).ok();
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut findings = Vec::new();
        for &index in self.order {
            let (Some(rule), Some(spans)) = (self.rules.get(index), self.spans.get(index)) else { continue };
            let Some(body) = body(rule) else { continue };
            match seen.get(&body) {
                Some(first) => {
                    let (Some(first_rule), Some(first_spans)) = (self.rules.get(*first), self.spans.get(*first)) else {
                        continue;
                    };
                    findings.push(
                        Diagnostic::new(
                            Code::DuplicateRuleBody,
                            spans.header,
                            format!("`{}` repeats `{}`", rule.name, first_rule.name),
                        )
                        .label("same event, condition and actions")
                        .secondary(first_spans.header, "first written here")
                        .help("remove one of the two rules"),
                    );
                }
                None => {
                    seen.insert(body, index);
                }
            }
        }
        findings
    }
}
