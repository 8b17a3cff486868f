//! Gemini CLI: command hooks in `.gemini/settings.json`, its own event names and answers;
//! checked on the real client (0.61, offline).

use crate::vocab::agents::schema::{
    event, Agent, Answer, AnswerKind, Dialect, FolderList, FolderTrust, Home, HookShell, OnFailure, Payload, RootFrom,
    Settings, SettingsFormat, StopFlag, Support, TimeUnit, Transcript, Trust,
};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path, Pattern, Query, Url};

const FILE_PATH: Source = Source::Args(&["file_path", "path"]);
const SEARCH: &[(crate::vocab::Semantic, Source)] =
    &[(Path, Source::Args(&["dir_path", "path", "include"])), (Pattern, Source::Args(&["pattern"]))];

/// Gemini CLI.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "gemini",
    name: "Gemini CLI",
    aliases: &["gemini-cli"],
    events: &[
        event("BeforeTool", PreToolUse),
        event("AfterTool", PostToolUse),
        event("BeforeAgent", UserPromptSubmit),
        event("AfterAgent", Stop),
        event("SessionStart", SessionStart),
        event("SessionEnd", SessionEnd),
        event("Notification", Notification),
        event("PreCompress", PreCompact),
    ],
    payload: Payload {
        permission_mode: &[],
        permission_modes: &[],
        subagent_transcript: &[],
        prompt_id: &[],
        tool_use_id: &[],
        tool_failed: &["/tool_response/error"],
        last_message: &["/prompt_response"],
        ..Payload::CLAUDE
    },
    tools: &[
        tool("read_file", Kind::Read, &[(Path, Source::Args(&["path", "file_path", "absolute_path"]))]),
        tool(
            "write_file",
            Kind::Write,
            &[(Path, Source::Args(&["path", "file_path"])), (Content, Source::Args(&["content"]))],
        ),
        tool("run_shell_command", Kind::Shell, SHELL).workdir(&["dir_path", "directory"]),
        tool("replace", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["new_string"]))]),
        tool("read_many_files", Kind::Read, &[(Path, Source::Args(&["paths", "include"]))]).optional(&[Path]),
        tool("list_directory", Kind::Read, &[(Path, Source::Args(&["dir_path", "path"]))]).optional(&[Path]),
        tool("grep_search", Kind::Search, SEARCH).optional(&[Path]),
        tool(
            "glob",
            Kind::Search,
            &[(Path, Source::Args(&["dir_path", "path"])), (Pattern, Source::Args(&["pattern"]))],
        )
        .optional(&[Path]),
        tool("search_file_content", Kind::Search, SEARCH).optional(&[Path]),
        tool("web_fetch", Kind::Fetch, &[(Url, Source::Args(&["url", "prompt"]))]).optional(&[Url]),
        tool("google_web_search", Kind::Fetch, &[(Query, Source::Args(&["query"]))]),
        tool("save_memory", Kind::Other, &[]),
        tool("write_todos", Kind::Other, &[]),
    ],
    answer: Answer::Gemini,
    departures: &[
        (
            PreToolUse,
            AnswerKind::Ask,
            Support::Instead("deny, saying a person's approval is needed (Gemini CLI hooks cannot ask)"),
        ),
        (PreCompact, AnswerKind::Deny, Support::Ignored("Gemini CLI cannot block a compression; hookc reports it")),
    ],
    settings: Settings {
        // Its timeouts are in milliseconds and its tool matchers are regexes.
        format: SettingsFormat::Claude { any_tool: ".*", timeout: TimeUnit::Millis },
        project: &[(".gemini/settings.json", "project settings")],
        user: &[(Home::User, ".gemini/settings.json", "user settings")],
        // Each release has named the switch differently (primary: gemini-cli `docs/hooks`).
        off_switches: &[("/hooksConfig/enabled", false), ("/hooks/enabled", false), ("/tools/enableHooks", false)],
        // Gemini CLI's system settings, which override the user's and the project's.
        managed: &[
            ("/etc/gemini-cli/settings.json", "system settings"),
            ("/Library/Application Support/GeminiCli/settings.json", "system settings"),
        ],
        // Folder trust is on unless turned off (0.61: `security.folderTrust.enabled ?? true`): in
        // a folder not trusted it ignores the project's settings, hooks included, and headless
        // it refuses to start (exit 55, the shared harness's finding 7).
        trust: Trust::Folders(FolderTrust {
            home: Home::User,
            file: ".gemini/trustedFolders.json",
            list: FolderList::Levels,
            off: Some(("/security/folderTrust/enabled", false)),
        }),
        // `spawn("bash", ["-c", command])` (packages/core/src/hooks/hookRunner.ts,
        // `executeCommandHook`; run by the shared real-client harness).
        hook_shell: HookShell::Posix,
        ..Settings::BASE
    },
    transcript: Some(Transcript { dialect: Dialect::Gemini }),
    project_root: &[RootFrom::Env("GEMINI_PROJECT_DIR"), RootFrom::Env("CLAUDE_PROJECT_DIR")],
    // It says `stop_hook_active: false` again after a continuation that ran a tool.
    stop_flag: StopFlag::Unreliable,
    on_failure: OnFailure::RUNS,
    sources: &[
        "real client: Gemini CLI 0.61, offline against a mock model (`shared/realclient/gemini`)",
        "primary: google-gemini/gemini-cli `docs/hooks`",
    ],
    ..Agent::BASE
};
