//! Qwen Code (a Gemini CLI fork with Claude Code's hook protocol): `.qwen/settings.json`;
//! checked on the real client (0.15.10, offline against a mock model). Its first Stop already
//! says `stop_hook_active: true`, so the flag cannot tell a continuation: its transcript does (a
//! turn with two final answers was continued); where the transcript cannot be read, the flag
//! stands and nothing is forced.

use crate::vocab::agents::schema::{
    event, Agent, Answer, AnswerKind, Dialect, Home, HookShell, OnFailure, OutputRewrite, Payload, RootFrom, Settings,
    SettingsFormat, StopDecision, StopFlag, Support, TimeUnit, Transcript,
};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path, Pattern, Url};

const FILE_PATH: Source = Source::Args(&["file_path", "absolute_path", "path"]);

/// Qwen Code.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "qwen",
    name: "Qwen Code",
    aliases: &["qwen-code"],
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
        // Checked on Qwen Code 0.24.4 (headless, `--input-format stream-json`): it fires where
        // a confirmation would be shown (never under `--yolo`, nor in plain `qwen -p`, which
        // refuses first); its `tool_name` is Qwen's own; it reads only
        // `hookSpecificOutput.decision`, and any `behavior` but `allow` refuses, the message
        // reaching the model. (Exit 2 with plain stderr falls through to the person's prompt
        // there, so a failing hook leaves the approval to the person.)
        event("PermissionRequest", PermissionRequest),
    ],
    payload: Payload {
        subagent_transcript: &[],
        prompt_id: &[],
        // Its approval modes (`--approval-mode`); the real 0.15.10 sent `yolo`.
        permission_modes: &["default", "plan", "auto-edit", "yolo"],
        ..Payload::CLAUDE
    },
    tools: &[
        tool("run_shell_command", Kind::Shell, SHELL).workdir(&["directory", "dir_path"]),
        tool("monitor", Kind::Shell, SHELL).workdir(&["directory"]),
        tool("write_file", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["content"]))]),
        tool("edit", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["new_string"]))]),
        tool("read_file", Kind::Read, &[(Path, FILE_PATH)]),
        tool("read_many_files", Kind::Read, &[(Path, Source::Args(&["paths", "include"]))]).optional(&[Path]),
        tool("list_directory", Kind::Read, &[(Path, Source::Args(&["path", "dir_path"]))]).optional(&[Path]),
        tool(
            "grep_search",
            Kind::Search,
            &[(Path, Source::Args(&["path", "glob", "include"])), (Pattern, Source::Args(&["pattern"]))],
        )
        .optional(&[Path]),
        tool("glob", Kind::Search, &[(Path, Source::Args(&["path"])), (Pattern, Source::Args(&["pattern"]))])
            .optional(&[Path]),
        tool("web_fetch", Kind::Fetch, &[(Url, Source::Args(&["url"]))]),
        tool("agent", Kind::Agent, &[]),
        tool("task", Kind::Agent, &[]),
        tool("todo_write", Kind::Other, &[]),
        tool("save_memory", Kind::Other, &[]),
        tool("skill", Kind::Other, &[]),
        tool("tool_search", Kind::Other, &[]),
        tool("task_stop", Kind::Other, &[]),
        tool("send_message", Kind::Other, &[]),
    ],
    answer: Answer::Claude { stop: StopDecision::TopLevel, output: OutputRewrite::StopReason },
    // Checked on Qwen Code 0.15.10, headless (`--yolo`).
    departures: &[
        (
            PreToolUse,
            AnswerKind::Ask,
            Support::Instead("deny, saying a person's approval is needed (headless, Qwen Code refuses what a hook asks about)"),
        ),
        (
            PreToolUse,
            AnswerKind::UpdatedInput,
            Support::Instead("deny, saying the call was to be rewritten: Qwen Code ignores `updatedInput`, so it is refused rather than run as sent"),
        ),
        (PreToolUse, AnswerKind::Context, Support::Ignored("Qwen Code takes no context before a tool")),
        (
            PostToolUse,
            AnswerKind::UpdatedOutput,
            Support::Instead("`continue: false` with the rewritten output as `stopReason`, which replaces the output the model sees; the turn goes on"),
        ),
        (PostToolUse, AnswerKind::Stop, Support::Instead("`continue: false` replaces the output with the stop reason, but the turn goes on")),
    ],
    settings: Settings {
        // Its timeouts are in milliseconds (checked: `"timeout": 3` cut a hook off at 3 ms, and
        // the call ran).
        format: SettingsFormat::Claude { any_tool: "*", timeout: TimeUnit::Millis },
        project: &[(".qwen/settings.json", "project settings")],
        // Its folder trust, where that is turned on.
        protect: &["~/.qwen/trustedFolders.json"],
        user: &[(Home::User, ".qwen/settings.json", "user settings")],
        // Its source: `disableAllHooks` turns every hook off.
        off_switches: &[("/disableAllHooks", true)],
        // `bash -c` (its hookRunner.ts, from Gemini CLI's; run by agents/qwen/client).
        hook_shell: HookShell::Posix,
        ..Settings::BASE
    },
    // Its last answer may still be on its way to the file when Stop runs: waited for, as
    // Claude Code's is.
    transcript: Some(Transcript { dialect: Dialect::Qwen }),
    project_root: &[
        RootFrom::Env("QWEN_PROJECT_DIR"),
        RootFrom::Env("GEMINI_PROJECT_DIR"),
        RootFrom::Env("CLAUDE_PROJECT_DIR"),
    ],
    stop_flag: StopFlag::TrueFromTheStart,
    on_failure: OnFailure::RUNS,
    sources: &[
        "real client: Qwen Code 0.15.10, offline against a mock model (payloads in `agents/qwen/fixtures.yaml`)",
        "primary: QwenLM/qwen-code `docs/users/features/hooks.md`",
        "real client: Qwen Code 0.24.4 for PermissionRequest (offline, stream-json input)",
    ],
    ..Agent::BASE
};
