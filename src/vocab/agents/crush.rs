//! Charm's Crush: a `PreToolUse` hook only, in `crush.json` (or `.crush.json`), described as
//! Claude Code-compatible. Its npm package downloads its binary at install, which cannot run
//! here: this follows the maintainer's pull request `charmbracelet/crush#2598`; the payload's
//! exact fields are unconfirmed, and read as Claude Code's.

use super::schema::{
    event, Agent, Answer, AnswerKind, Home, OnFailure, Payload, Settings, SettingsFormat, StopFlag, Support, TimeUnit,
    Trust,
};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path};

/// Crush.
pub(super) static AGENT: Agent = Agent {
    id: "crush",
    name: "Crush",
    aliases: &[],
    events: &[event("PreToolUse", PreToolUse)],
    payload: Payload::CLAUDE,
    tools: &[
        tool("bash", Kind::Shell, SHELL),
        tool(
            "edit",
            Kind::Write,
            &[(Path, Source::Args(&["file_path", "path"])), (Content, Source::Args(&["new_string"]))],
        ),
        tool("multiedit", Kind::Write, &[(Path, Source::Args(&["file_path", "path"]))]),
        tool(
            "write",
            Kind::Write,
            &[(Path, Source::Args(&["file_path", "path"])), (Content, Source::Args(&["content"]))],
        ),
        tool("view", Kind::Read, &[(Path, Source::Args(&["file_path", "path"]))]),
    ],
    transcript_tools: &[],
    answer: Answer::CLAUDE,
    departures: &[(PreToolUse, AnswerKind::Context, Support::Ignored("unconfirmed for Crush"))],
    settings: Settings {
        format: SettingsFormat::Claude { any_tool: "*", timeout: TimeUnit::Seconds },
        project: &[(".crush.json", "project settings"), ("crush.json", "project settings")],
        user: &[(Home::Env("XDG_CONFIG_HOME", ".config"), "crush/crush.json", "user settings")],
        off_switches: &[],
        project_var: None,
        trust: Trust::Workspace,
        name_event: false,
    },
    transcript: None,
    project_root: &[],
    stop_flag: StopFlag::Reliable,
    signature: &[],
    guests: &[],
    on_failure: OnFailure::UNVERIFIED,
    sources: &["primary: charmbracelet/crush#2598 (merged 2026-04; not run here: its package downloads a binary)"],
};
