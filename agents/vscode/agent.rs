//! VS Code's agent hooks (Copilot Chat's agent mode). VS Code is an IDE and does not run here:
//! this follows its documentation (`microsoft/vscode-docs` `docs/agent-customization/hooks.md`
//! and `docs/agents/reference/hooks-reference.md`), marked so in `docs/agents.md`. It reads
//! Claude Code's `.claude/settings.json` and Copilot's `.github/hooks/*.json` too, so its calls
//! reach those agents' hooks: told apart by the camelCase `hookEventName` in its payloads, and
//! answered as VS Code reads them (a Stop's decision inside `hookSpecificOutput`). Its docs call
//! these payloads legacy for Copilot-harness sessions, which follow Copilot CLI's.

use crate::vocab::agents::schema::{
    event, Agent, Answer, AnswerKind, FailureEffect, Home, HookShell, Mark, OnFailure, OutputRewrite, Payload, Settings,
    SettingsFormat, StopDecision, Support,
};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Command, Content, Path, Url};

const FILE_PATH: Source = Source::Args(&["filePath", "path", "file_path"]);

/// VS Code agent hooks.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "vscode",
    name: "VS Code",
    aliases: &["vs-code", "code"],
    events: &[
        event("PreToolUse", PreToolUse),
        event("PostToolUse", PostToolUse),
        event("UserPromptSubmit", UserPromptSubmit),
        event("Stop", Stop),
        event("SubagentStop", SubagentStop).answered(Answer::CLAUDE),
        event("SessionStart", SessionStart),
        event("PreCompact", PreCompact),
    ],
    payload: Payload {
        event: &["/hookEventName", "/hook_event_name"],
        session: &["/sessionId", "/session_id"],
        permission_mode: &[],
        permission_modes: &[],
        subagent_transcript: &[],
        prompt_id: &[],
        last_message: &[],
        ..Payload::CLAUDE
    },
    tools: &[
        tool("run_in_terminal", Kind::Shell, &[(Command, Source::Args(&["command"]))]),
        tool("runTerminalCommand", Kind::Shell, SHELL),
        tool("create_file", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["content"]))]),
        tool("createFile", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["content"]))]),
        tool("replace_string_in_file", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["newString", "new_string"]))]),
        tool("insert_edit_into_file", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["code"]))]),
        tool("editFiles", Kind::Write, &[(Path, Source::Args(&["files", "filePath"]))]),
        tool("read_file", Kind::Read, &[(Path, FILE_PATH)]),
        tool("fetch_webpage", Kind::Fetch, &[(Url, Source::Args(&["urls", "url"]))]),
    ],
    answer: Answer::Claude { stop: StopDecision::Nested, output: OutputRewrite::Withhold },
    // Its docs give PostToolUse context only, and `continue: false` to stop the session.
    departures: &[(
        PostToolUse,
        AnswerKind::UpdatedOutput,
        Support::Instead("`continue: false`: the session stops before the model reads the output (its docs name no output rewrite)"),
    )],
    settings: Settings {
        // Its own hook files; it also runs Claude Code's `.claude/settings.json` and Copilot
        // CLI's `.github/hooks/*.json`, answered there as their guest. Matchers are parsed but
        // ignored: every hook runs on every tool.
        format: SettingsFormat::VsCode,
        project: &[(".github/hooks/hookc-vscode.json", "workspace hooks")],
        user: &[(Home::User, ".copilot/hooks/hookc-vscode.json", "user hooks")],
        off_switches: &[("/disableAllHooks", true)],
        // `spawn(command, [], { shell: true })`: `/bin/sh -c` off Windows
        // (vscode-copilot-chat's hookExecutor.ts, `_spawn`).
        hook_shell: HookShell::Posix,
        // `chat.hookFilesLocations` in its settings moves where it reads hooks from.
        protect: &[
            "**/.vscode",
            "**/.vscode/settings.json",
            // The user's settings (`chat.useHooks`), on Linux and macOS.
            "~/.config/Code/User/settings.json",
            "~/Library/Application Support/Code/User/settings.json",
        ],
        ..Settings::BASE
    },
    signature: &[Mark::Key("hookEventName")],
    // Copilot CLI reads `.github/hooks/*.json` too, with payloads of its own.
    guests: &["copilot"],
    on_failure: OnFailure { other_exit: FailureEffect::Runs, missing: FailureEffect::Runs, timeout: FailureEffect::Unverified },
    sources: &[
        "primary: microsoft/vscode-docs `docs/agent-customization/hooks.md`, `docs/agents/reference/hooks-reference.md` (not run here: an IDE)",
        "unconfirmed: tool names (its docs name `create_file`, `replace_string_in_file` and, in examples, `runTerminalCommand`, `editFiles`)",
    ],
    ..Agent::BASE
};
