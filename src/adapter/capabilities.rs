//! What each agent honours: which events it fires and which answers it acts on at each one. One
//! table, read by the adapters (to choose the safe answer an agent can honour), by
//! `hookc check --agent` (a rule whose action an agent ignores is a warning naming the agent)
//! and rendered into `docs/agents.md` (a test keeps the page in step).
//!
//! Each agent's row holds only what differs from "honoured as the native contract says"; the
//! facts were read off the real clients (`shared/realclient`) and their source.

use super::{claude, gemini, HookProtocol};
use crate::vocab::{ActionKind, EventKind};

/// An answer a hook gives the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKind {
    /// Refuse the call (`deny`, `block`), or block a compaction.
    Deny,
    /// Ask a person.
    Ask,
    /// Allow without asking.
    Allow,
    /// Run the call with rewritten input (`set`).
    UpdatedInput,
    /// Give the model a rewritten output (`replace`, `truncate`, `redact`).
    UpdatedOutput,
    /// Add context for the model (`context`).
    Context,
    /// Make the agent take one more turn (`continue`).
    Continue,
    /// End the turn (`stop`).
    Stop,
}

impl AnswerKind {
    /// Every answer, in the order of the documentation's columns.
    pub const ALL: [AnswerKind; 8] = [
        AnswerKind::Deny,
        AnswerKind::Ask,
        AnswerKind::Allow,
        AnswerKind::UpdatedInput,
        AnswerKind::UpdatedOutput,
        AnswerKind::Context,
        AnswerKind::Continue,
        AnswerKind::Stop,
    ];

    /// The name used in messages and the documentation.
    pub fn name(self) -> &'static str {
        match self {
            AnswerKind::Deny => "deny",
            AnswerKind::Ask => "ask",
            AnswerKind::Allow => "allow",
            AnswerKind::UpdatedInput => "updated input",
            AnswerKind::UpdatedOutput => "updated output",
            AnswerKind::Context => "context",
            AnswerKind::Continue => "continue",
            AnswerKind::Stop => "stop",
        }
    }

    /// The answer an action gives (`log` gives none: hookc itself writes it).
    pub fn of(action: ActionKind) -> Option<AnswerKind> {
        Some(match action {
            ActionKind::Block | ActionKind::Deny => AnswerKind::Deny,
            ActionKind::Ask => AnswerKind::Ask,
            ActionKind::Allow => AnswerKind::Allow,
            ActionKind::Set => AnswerKind::UpdatedInput,
            ActionKind::Replace | ActionKind::Truncate | ActionKind::Redact => AnswerKind::UpdatedOutput,
            ActionKind::Context => AnswerKind::Context,
            ActionKind::Continue => AnswerKind::Continue,
            ActionKind::Stop => AnswerKind::Stop,
            ActionKind::Log => return None,
        })
    }

    /// Whether the native contract lets a rule give this answer on this event.
    pub fn on(self, event: EventKind) -> bool {
        ActionKind::ALL
            .into_iter()
            .any(|action| AnswerKind::of(action) == Some(self) && action.events().contains(&event))
    }
}

/// How an agent takes an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// As the contract says.
    Honoured,
    /// The agent cannot take it, so hookc gives the safe answer it can, said here.
    Instead(&'static str),
    /// The agent takes no notice of it, for the reason said here.
    Ignored(&'static str),
    /// hookc does not answer the agent at this event (the agent does not fire it, or fires it
    /// in a shape hookc does not read).
    NotFired,
}

/// One agent: its events (its names for them) and where it departs from the contract.
pub struct Agent {
    /// Which agent.
    pub protocol: HookProtocol,
    /// The events hookc answers it at (`hookc init` wires these): its name, and the native event.
    pub events: &'static [(&'static str, EventKind)],
    /// The answers it does not honour as the contract says.
    pub departures: &'static [(EventKind, AnswerKind, Support)],
}

/// Codex 0.169 marks a hook failed (and runs the call, showing the original output) on any
/// answer it does not support, so hookc gives it only answers it supports.
const CODEX_DEPARTURES: &[(EventKind, AnswerKind, Support)] = &[
    (
        EventKind::PreToolUse,
        AnswerKind::Ask,
        Support::Instead(
            "deny, saying a person's approval is needed (Codex takes `ask` as unsupported and runs the call)",
        ),
    ),
    (
        EventKind::PreToolUse,
        AnswerKind::Allow,
        Support::Instead("nothing: Codex's own approval decides (Codex takes a bare `allow` as unsupported)"),
    ),
    (
        EventKind::PreToolUse,
        AnswerKind::UpdatedInput,
        Support::Instead("deny, saying the call was to be rewritten: it is refused rather than run as sent"),
    ),
    (
        EventKind::PostToolUse,
        AnswerKind::UpdatedOutput,
        Support::Instead(
            "`decision: \"block\"` with the rewritten output as `reason`, which replaces the output the model sees",
        ),
    ),
    (
        EventKind::PostToolUse,
        AnswerKind::Stop,
        Support::Instead("`continue: false`: Codex replaces the output with the stop reason, but the turn goes on"),
    ),
    (
        EventKind::Stop,
        AnswerKind::Context,
        Support::Instead("shown to the user (`systemMessage`); the model does not read it"),
    ),
];

const CLAUDE_DEPARTURES: &[(EventKind, AnswerKind, Support)] = &[
    (
        EventKind::Stop,
        AnswerKind::Context,
        Support::Instead("shown to the user (`systemMessage`); the model does not read it"),
    ),
    (
        EventKind::SubagentStop,
        AnswerKind::Context,
        Support::Instead("shown to the user (`systemMessage`); the model does not read it"),
    ),
];

const GEMINI_DEPARTURES: &[(EventKind, AnswerKind, Support)] = &[
    (
        EventKind::PreToolUse,
        AnswerKind::Ask,
        Support::Instead("deny, saying a person's approval is needed (Gemini CLI hooks cannot ask)"),
    ),
    (
        EventKind::PreCompact,
        AnswerKind::Deny,
        Support::Ignored("Gemini CLI cannot block a compression; hookc reports it"),
    ),
];

/// Every agent hookc answers.
pub const AGENTS: [Agent; 3] = [
    Agent { protocol: HookProtocol::Claude, events: claude::EVENTS, departures: CLAUDE_DEPARTURES },
    Agent { protocol: HookProtocol::Codex, events: CODEX_EVENTS, departures: CODEX_DEPARTURES },
    Agent { protocol: HookProtocol::Gemini, events: gemini::EVENTS, departures: GEMINI_DEPARTURES },
];

/// The Claude Code events Codex fires.
pub(crate) const CODEX_EVENTS: &[(&str, EventKind)] = &[
    ("PreToolUse", EventKind::PreToolUse),
    ("PostToolUse", EventKind::PostToolUse),
    ("UserPromptSubmit", EventKind::UserPromptSubmit),
    ("Stop", EventKind::Stop),
    ("SessionStart", EventKind::SessionStart),
];

impl Agent {
    /// The agent a protocol speaks for.
    pub fn of(protocol: HookProtocol) -> &'static Agent {
        match protocol {
            HookProtocol::Claude => &AGENTS[0],
            HookProtocol::Codex => &AGENTS[1],
            HookProtocol::Gemini => &AGENTS[2],
        }
    }

    /// How this agent takes an answer on an event.
    pub fn support(&self, event: EventKind, answer: AnswerKind) -> Support {
        if !self.events.iter().any(|(_, fired)| *fired == event) {
            return Support::NotFired;
        }
        self.departures
            .iter()
            .find(|(at, given, _)| *at == event && *given == answer)
            .map_or(Support::Honoured, |(_, _, support)| *support)
    }

    /// The agent's name for a native event, if it fires it.
    pub fn event_name(&self, event: EventKind) -> Option<&'static str> {
        self.events.iter().find(|(_, fired)| *fired == event).map(|(name, _)| *name)
    }
}

impl HookProtocol {
    /// The agent's name.
    pub fn agent_name(self) -> &'static str {
        match self {
            HookProtocol::Claude => "Claude Code",
            HookProtocol::Codex => "Codex",
            HookProtocol::Gemini => "Gemini CLI",
        }
    }
}

/// The capability table as Markdown: per agent, per event it fires, every answer the contract
/// allows there and how the agent takes it.
pub fn markdown() -> String {
    let mut out = String::new();
    for agent in &AGENTS {
        out.push_str(&format!("### {}\n\n| event | answer | taken as |\n|---|---|---|\n", agent.protocol.agent_name()));
        for (name, event) in agent.events {
            for answer in AnswerKind::ALL.into_iter().filter(|answer| answer.on(*event)) {
                let support = match agent.support(*event, answer) {
                    Support::Honoured => "honoured".to_string(),
                    Support::Instead(how) => format!("instead: {how}"),
                    Support::Ignored(why) => format!("ignored: {why}"),
                    Support::NotFired => continue,
                };
                out.push_str(&format!("| {name} (`{}`) | {} | {support} |\n", event.name(), answer.name()));
            }
        }
        let missing: Vec<&str> = EventKind::ALL
            .iter()
            .filter(|event| agent.event_name(**event).is_none())
            .map(|event| event.name())
            .collect();
        if !missing.is_empty() {
            out.push_str(&format!("\nNot answered at: `{}`.\n", missing.join("`, `")));
        }
        out.push('\n');
    }
    out
}
