//! Kilo CLI, a fork of OpenCode: the same plugin API, loaded from `.kilo/plugin/`. Checked on
//! the real client (@kilocode/cli 7.7.7, offline): a throw in `tool.execute.before` stops the
//! call.

use crate::vocab::agents::folders::opencode::agent as opencode;
use crate::vocab::agents::schema::{event, Agent, Answer, FailureEffect, Home, OnFailure, RootFrom, Settings, SettingsFormat};
use crate::vocab::EventKind::*;

/// Kilo CLI.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "kilo",
    name: "Kilo CLI",
    aliases: &["kilocode", "kilo-code"],
    events: &[event("tool.execute.before", PreToolUse), event("tool.execute.after", PostToolUse)],
    payload: opencode::PAYLOAD,
    tools: opencode::TOOLS,
    answer: Answer::Plugin,
    departures: opencode::DEPARTURES,
    settings: Settings {
        format: SettingsFormat::Plugin,
        project: &[(".kilo/plugin/hookc.js", "project plugin")],
        user: &[(Home::Env("XDG_CONFIG_HOME", ".config"), "kilo/plugin/hookc.js", "user plugin")],
        // Its configs list plugins, and every file of `.kilo` may be one (`.kilocode` before 7).
        protect: &["**/.kilo/**", "**/.kilocode", "**/.kilocode/**", "**/kilo.json", "**/kilo.jsonc", "~/.config/kilo/**"],
        ..Settings::BASE
    },
    project_root: &[RootFrom::Payload(&["/project_root"])],
    // hookc's plugin refuses the call on any of them.
    on_failure: OnFailure { other_exit: FailureEffect::Blocks, missing: FailureEffect::Blocks, timeout: FailureEffect::Blocks },
    sources: &["real client: @kilocode/cli 7.7.7, offline against a mock model (`agents/kilo/fixtures.yaml`)"],
    ..Agent::BASE
};
