//! Charm's Crush: a `PreToolUse` hook only, in `crush.json` (or `.crush.json`), described as
//! Claude Code-compatible. Its npm package downloads its binary at install, which cannot run
//! here: this follows the maintainer's pull request `charmbracelet/crush#2598`; the payload's
//! exact fields are unconfirmed, and read as Claude Code's.

use crate::vocab::agents::schema::{event, Agent, AnswerKind, Home, Settings, SettingsFormat, Support};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path, Url};

/// Crush.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "crush",
    name: "Crush",
    events: &[event("PreToolUse", PreToolUse)],
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
        // Crush's other tools, by the names in its source (`internal/llm/tools`).
        tool("download", Kind::Write, &[(Path, Source::Args(&["file_path", "path"])), (Url, Source::Args(&["url"]))]),
        tool("fetch", Kind::Fetch, &[(Url, Source::Args(&["url"]))]),
        tool("sourcegraph", Kind::Fetch, &[]),
        tool("glob", Kind::Search, &[(Path, Source::Args(&["path"]))]),
        tool("grep", Kind::Search, &[(Path, Source::Args(&["path"]))]),
        tool("ls", Kind::Read, &[(Path, Source::Args(&["path"]))]),
        tool("agent", Kind::Agent, &[]),
    ],
    departures: &[(PreToolUse, AnswerKind::Context, Support::Ignored("unconfirmed for Crush"))],
    settings: Settings {
        format: SettingsFormat::Crush,
        project: &[(".crush.json", "project settings"), ("crush.json", "project settings")],
        user: &[(Home::Env("XDG_CONFIG_HOME", ".config"), "crush/crush.json", "user settings")],
        ..Settings::BASE
    },
    sources: &["primary: charmbracelet/crush#2598 (merged 2026-04; not run here: its package downloads a binary)"],
    ..Agent::BASE
};
