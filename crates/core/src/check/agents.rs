//! W0311: where a rule will not do what it says on an agent the rules are checked for
//! (`hookc check --agent NAME`), read off the capability table.

use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::ast::RuleDecl;
use crate::vocab::agents::{Agent, AnswerKind, Support};
use crate::vocab::{ActionKind, EventKind};

/// The rule's departures on each agent: an event hookc does not answer it at (one finding, at the
/// event), else each action it does not honour.
pub(super) fn departures(rule: &RuleDecl, agents: &[&Agent]) -> Vec<Diagnostic> {
    let Some(event) = EventKind::from_name(&rule.event.text) else { return Vec::new() };
    let mut found = Vec::new();
    for agent in agents {
        let name = agent.name;
        if agent.event_name(event).is_none() {
            found.push(
                Diagnostic::new(Code::AgentDeparts, rule.event.span, format!("hookc does not answer {name} at `{}`", event.name()))
                    .label(format!("this rule never runs on {name}"))
                    .help("keep it for the agents hookc answers there, or move the check to an event it answers this agent at"),
            );
            continue;
        }
        for action in &rule.actions {
            let Some(answer) = ActionKind::from_name(&action.name.text).and_then(AnswerKind::of) else { continue };
            // The agent's row for the event, then each of its names for it that departs alone.
            let own = agent.events.iter().filter(|spec| spec.wired && spec.kind == event).filter_map(|spec| {
                let support = spec.departures.iter().find(|(given, _)| *given == answer)?.1;
                Some((format!("{name}'s `{}`", spec.name), support))
            });
            for (on, support) in std::iter::once((name.to_string(), agent.support(event, answer))).chain(own) {
                let (label, help) = match support {
                    Support::Honoured | Support::NotFired => continue,
                    Support::Instead(how) => (
                        format!("on {on} this is answered as: {how}"),
                        "say what this agent should do (for example `deny`), or accept the substitute",
                    ),
                    Support::Ignored(why) => {
                        (format!("{on} takes no notice: {why}"), "enforce this another way on this agent")
                    }
                };
                found.push(
                    Diagnostic::new(
                        Code::AgentDeparts,
                        action.span,
                        format!("{on} does not honour `{}` on `{}`", action.name.text, event.name()),
                    )
                    .label(label)
                    .help(help),
                );
            }
        }
    }
    found
}
