//! Claude Code: command hooks in `.claude/settings.json`, payloads and answers as its hooks
//! reference documents them, checked on the real client (2.1.197, offline).

use crate::vocab::agents::schema::{
    event, Agent, AnswerKind, Dialect, Home, HookShell, OnFailure, RootFrom, Settings, Support, Transcript,
};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path, Pattern, Query, Url};

const FILE_PATH: Source = Source::Args(&["file_path", "path"]);
const STOP_CONTEXT: Support = Support::Instead("shown to the user (`systemMessage`); the model does not read it");

/// Claude Code.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "claude",
    name: "Claude Code",
    aliases: &["claude-code"],
    events: &[
        event("PreToolUse", PreToolUse),
        event("PostToolUse", PostToolUse),
        event("PostToolUseFailure", PostToolUseFailure),
        event("UserPromptSubmit", UserPromptSubmit),
        event("Stop", Stop),
        event("SubagentStop", SubagentStop),
        event("SessionStart", SessionStart),
        event("SessionEnd", SessionEnd),
        event("PreCompact", PreCompact),
        event("Notification", Notification),
        event("PermissionRequest", PermissionRequest),
    ],
    tools: &[
        tool("Bash", Kind::Shell, SHELL),
        tool("PowerShell", Kind::Shell, SHELL).powershell(),
        tool("BashOutput", Kind::Other, &[]),
        tool("KillShell", Kind::Other, &[]),
        tool("Read", Kind::Read, &[(Path, FILE_PATH)]),
        tool("NotebookRead", Kind::Read, &[(Path, Source::Args(&["notebook_path"]))]),
        tool("LS", Kind::Read, &[(Path, Source::Args(&["path"]))]).optional(&[Path]),
        tool("Write", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["content"]))]),
        tool("Edit", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["new_string"]))]),
        tool("MultiEdit", Kind::Write, &[(Path, FILE_PATH)]),
        tool(
            "NotebookEdit",
            Kind::Write,
            &[(Path, Source::Args(&["notebook_path"])), (Content, Source::Args(&["new_source"]))],
        ),
        tool("Glob", Kind::Search, &[(Path, Source::Args(&["path"])), (Pattern, Source::Args(&["pattern"]))])
            .optional(&[Path]),
        // A search reads the files its `glob` filter names: each filter is judged as a path too
        // (its text: `.env` and `**/*.pem` are caught, wildcards are not expanded).
        tool("Grep", Kind::Search, &[(Path, Source::Args(&["path", "glob"])), (Pattern, Source::Args(&["pattern"]))])
            .optional(&[Path]),
        tool("WebFetch", Kind::Fetch, &[(Url, Source::Args(&["url"]))]),
        tool("WebSearch", Kind::Fetch, &[(Query, Source::Args(&["query"]))]),
        tool("Task", Kind::Agent, &[]),
        tool("Agent", Kind::Agent, &[]),
        tool("TodoWrite", Kind::Other, &[]),
        tool("ExitPlanMode", Kind::Other, &[]),
        tool("SlashCommand", Kind::Other, &[]),
        tool("Skill", Kind::Other, &[]),
    ],
    departures: &[(Stop, AnswerKind::Context, STOP_CONTEXT), (SubagentStop, AnswerKind::Context, STOP_CONTEXT)],
    settings: Settings {
        project: &[
            (".claude/settings.json", "project settings"),
            (".claude/settings.local.json", "local project settings"),
        ],
        // `$CLAUDE_CONFIG_DIR` moves the user's settings (Claude Code's env-vars reference; the
        // real-client harness runs it so, agents/claude/client).
        user: &[(Home::Env("CLAUDE_CONFIG_DIR", ".claude"), "settings.json", "user settings")],
        // Checked on the real Claude Code: this in any settings layer turns every hook off.
        off_switches: &[("/disableAllHooks", true)],
        // Claude Code's managed settings (its settings reference), above every other layer.
        managed: &[
            ("/etc/claude-code/managed-settings.json", "managed settings"),
            ("/Library/Application Support/ClaudeCode/managed-settings.json", "managed settings"),
        ],
        project_var: Some("CLAUDE_PROJECT_DIR"),
        // `spawn(command, [], { shell: true })`: `/bin/sh -c` (Claude Code 2.1.332's bundle;
        // run through the real client by agents/claude/client/committed-wiring.sh).
        hook_shell: HookShell::Posix,
        // The local user settings, and all of a moved home.
        protect: &["~/.claude/settings.local.json", "$CLAUDE_CONFIG_DIR/**"],
        ..Settings::BASE
    },
    transcript: Some(Transcript { dialect: Dialect::Claude }),
    project_root: &[RootFrom::Env("CLAUDE_PROJECT_DIR")],
    // They read `.claude/settings.json` and run its hooks with payloads of their own.
    guests: &["copilot", "vscode", "cursor"],
    on_failure: OnFailure::RUNS,
    sources: &[
        "real client: Claude Code 2.1.197, offline against a mock model (`shared/realclient`)",
        "primary: docs.claude.com, Claude Code hooks reference",
    ],
    ..Agent::BASE
};
