//! Augment's Auggie CLI: Claude Code's hook protocol in `.augment/settings.json`. Auggie needs
//! an Augment login, so it does not run here: this follows its primary docs
//! (`docs.augmentcode.com/cli/hooks`) and its shipped code (`@augmentcode/auggie` 0.36.0).

use crate::vocab::agents::schema::{event, Agent, Home, Payload, RootFrom, Settings};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path};

/// Auggie.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "augment",
    name: "Auggie",
    aliases: &["auggie"],
    events: &[
        event("PreToolUse", PreToolUse),
        event("PostToolUse", PostToolUse),
        event("Stop", Stop),
        event("SessionStart", SessionStart),
        event("SessionEnd", SessionEnd),
        event("Notification", Notification),
        event("PromptSubmit", UserPromptSubmit),
    ],
    payload: Payload {
        session: &["/conversation_id", "/session_id"],
        permission_mode: &[],
        permission_modes: &[],
        subagent_transcript: &[],
        prompt_id: &[],
        ..Payload::CLAUDE
    },
    tools: &[
        tool("launch-process", Kind::Shell, SHELL),
        tool("save-file", Kind::Write, &[(Path, Source::Args(&["path", "file_path"])), (Content, Source::Args(&["file_content", "content"]))]),
        tool("str-replace-editor", Kind::Write, &[(Path, Source::Args(&["path", "file_path"]))]),
        tool("remove-files", Kind::Write, &[(Path, Source::Args(&["file_paths", "paths"]))]),
        tool("view", Kind::Read, &[(Path, Source::Args(&["path"]))]),
    ],
    settings: Settings {
        project: &[(".augment/settings.json", "project settings"), (".augment/settings.local.json", "local project settings")],
        user: &[(Home::User, ".augment/settings.json", "user settings")],
        // The system-wide settings.
        protect: &["/etc/augment/settings.json"],
        ..Settings::BASE
    },
    project_root: &[RootFrom::Payload(&["/workspace_roots"])],
    sources: &[
        "primary: docs.augmentcode.com/cli/hooks (not run here: it needs an Augment login)",
        "source: @augmentcode/auggie 0.36.0 `augment.mjs` (events, payload fields, tool names; argument names other than `command` unconfirmed)",
    ],
    ..Agent::BASE
};
