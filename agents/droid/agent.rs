//! Factory Droid: Claude Code's hook protocol in `.factory/settings.json`; checked on the real
//! client (0.225.2, `droid exec` offline against a mock model).

use crate::vocab::agents::schema::{
    event, Agent, Answer, AnswerKind, Dialect, Home, HookShell, OnFailure, OutputRewrite, Payload, RootFrom, Settings,
    StopDecision, Support, Transcript,
};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path, Pattern, Url};

const FILE_PATH: Source = Source::Args(&["file_path", "path"]);

/// Factory Droid.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "droid",
    name: "Factory Droid",
    aliases: &["factory", "factory-droid"],
    events: &[
        event("PreToolUse", PreToolUse),
        event("PostToolUse", PostToolUse),
        event("UserPromptSubmit", UserPromptSubmit),
        event("Stop", Stop),
        event("SubagentStop", SubagentStop),
        event("SessionStart", SessionStart),
        event("SessionEnd", SessionEnd),
        event("PreCompact", PreCompact),
        event("Notification", Notification),
    ],
    payload: Payload {
        subagent_transcript: &[],
        prompt_id: &[],
        // The real Droid 0.225.2 sent `auto-high` (its autonomy levels); its docs list Claude's.
        permission_modes: &["default", "plan", "acceptEdits", "bypassPermissions", "spec", "auto-low", "auto-medium", "auto-high"],
        ..Payload::CLAUDE
    },
    tools: &[
        tool("Execute", Kind::Shell, SHELL),
        tool("Create", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["content"]))]),
        tool("Edit", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["new_str", "new_string"]))]),
        tool("MultiEdit", Kind::Write, &[(Path, FILE_PATH)]),
        tool("ApplyPatch", Kind::Write, &[(Path, Source::Patch(&["input", "patch"])), (Content, Source::Args(&["input", "patch"]))]),
        tool("Read", Kind::Read, &[(Path, FILE_PATH)]),
        tool("LS", Kind::Read, &[(Path, Source::Args(&["directory_path", "path"]))]).optional(&[Path]),
        tool("Grep", Kind::Search, &[(Path, Source::Args(&["path", "glob_pattern"])), (Pattern, Source::Args(&["pattern"]))])
            .optional(&[Path]),
        tool("Glob", Kind::Search, &[(Path, Source::Args(&["folder", "path"])), (Pattern, Source::Args(&["patterns", "pattern"]))])
            .optional(&[Path]),
        tool("FetchUrl", Kind::Fetch, &[(Url, Source::Args(&["url"]))]),
        tool("WebSearch", Kind::Fetch, &[]),
        tool("Task", Kind::Agent, &[]),
        tool("TodoWrite", Kind::Other, &[]),
        tool("Skill", Kind::Other, &[]),
        tool("ToolSearch", Kind::Other, &[]),
    ],
    answer: Answer::Claude { stop: StopDecision::TopLevel, output: OutputRewrite::Withhold },
    // Checked on Factory Droid 0.225.2 (`droid exec --auto high`).
    departures: &[
        (
            PreToolUse,
            AnswerKind::Ask,
            Support::Instead("deny, saying a person's approval is needed (Droid takes `ask` as no decision and runs the call)"),
        ),
        (PreToolUse, AnswerKind::Context, Support::Ignored("Droid takes no context before a tool")),
        (
            PostToolUse,
            AnswerKind::UpdatedOutput,
            Support::Instead("`continue: false`: the turn ends before the model reads the output, which stays in the history"),
        ),
    ],
    settings: Settings {
        project: &[(".factory/settings.json", "project settings"), (".factory/settings.local.json", "local project settings")],
        user: &[(Home::User, ".factory/settings.json", "user settings")],
        off_switches: &[("/disableAllHooks", true)],
        // `spawn(command, { shell: "sh" })` (@factory/cli 0.215's bundle; run by
        // agents/droid/client).
        hook_shell: HookShell::Posix,
        ..Settings::BASE
    },
    // Written before its Stop hook runs (checked on 0.225.2).
    transcript: Some(Transcript { dialect: Dialect::Droid }),
    project_root: &[RootFrom::Env("FACTORY_PROJECT_DIR"), RootFrom::Env("DROID_PROJECT_DIR"), RootFrom::Env("CLAUDE_PROJECT_DIR")],
    on_failure: OnFailure::RUNS,
    sources: &[
        "real client: Factory Droid 0.225.2, offline against a mock model (payloads in `agents/droid/fixtures.yaml`)",
        "primary: docs.factory.ai hooks reference (not retrieved here; the settings layout is Claude Code's)",
    ],
    ..Agent::BASE
};
