//! OpenAI Codex CLI: Claude Code's hook protocol in `.codex/hooks.json`, run only when its user
//! trusted each hook; checked on the real client (0.169, offline).

use crate::vocab::agents::schema::{
    event, Agent, Answer, AnswerKind, Dialect, Home, OnFailure, OutputRewrite, RootFrom, Settings, StopDecision,
    Support, Transcript, Trust,
};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Command, Content, Path, Query};

/// The shell tools whose command runs in the directory their `workdir` names.
const WORKDIR: &[&str] = &["workdir"];

/// Codex CLI.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "codex",
    name: "Codex",
    aliases: &["codex-cli"],
    events: &[
        event("PreToolUse", PreToolUse),
        event("PostToolUse", PostToolUse),
        event("UserPromptSubmit", UserPromptSubmit),
        event("Stop", Stop),
        event("SessionStart", SessionStart),
        // Checked on Codex 0.169 (it shipped in 0.122): PermissionRequest fires at an approval
        // request, in an interactive session under `-a on-request` and in `codex exec
        // --approve-for-me` (plain `codex exec` never asks, so never fires it). It takes
        // `decision.behavior` with `hookEventName` and rejects any other field (no
        // `updatedPermissions`, which hookc never sends); the deny message reaches the model.
        event("PermissionRequest", PermissionRequest),
    ],
    tools: &[
        // Its hooks see every shell call as `Bash` (0.169); older releases named the tools.
        tool("Bash", Kind::Shell, SHELL),
        tool("shell", Kind::Shell, SHELL).workdir(WORKDIR),
        tool("local_shell", Kind::Shell, SHELL).workdir(WORKDIR),
        tool("exec_command", Kind::Shell, &[(Command, Source::Args(&["cmd", "command"]))]).workdir(WORKDIR),
        // In Codex's protocol too (`ShellCommandToolCallParams`, `ShellToolCallParams`).
        tool("shell_command", Kind::Shell, SHELL).workdir(WORKDIR),
        tool("container.exec", Kind::Shell, SHELL).workdir(WORKDIR),
        // Types into a running interactive command: what it types is a command too.
        tool("write_stdin", Kind::Shell, &[(Command, Source::Args(&["chars"]))]),
        tool(
            "apply_patch",
            Kind::Write,
            &[
                (Path, Source::Patch(&["command", "input", "patch"])),
                (Content, Source::Args(&["command", "input", "patch"])),
            ],
        ),
        tool("view_image", Kind::Read, &[(Path, Source::Args(&["path"]))]),
        tool("update_plan", Kind::Other, &[]),
        tool("web_search", Kind::Fetch, &[(Query, Source::Args(&["query"]))]),
    ],
    // Its rollout records the tool it ran; its hooks saw the call as `Bash`.
    transcript_tools: &[
        ("exec_command", "Bash"),
        ("shell", "Bash"),
        ("local_shell", "Bash"),
        ("shell_command", "Bash"),
        ("container.exec", "Bash"),
    ],
    answer: Answer::Claude { stop: StopDecision::TopLevel, output: OutputRewrite::BlockReason },
    // Codex 0.169 marks a hook failed (and runs the call, showing the original output) on any
    // answer it does not support, so hookc gives it only answers it supports.
    departures: &[
        (
            PreToolUse,
            AnswerKind::Ask,
            Support::Instead(
                "deny, saying a person's approval is needed (Codex takes `ask` as unsupported and runs the call)",
            ),
        ),
        (
            PreToolUse,
            AnswerKind::Allow,
            Support::Instead("nothing: Codex's own approval decides (Codex takes a bare `allow` as unsupported)"),
        ),
        (
            PreToolUse,
            AnswerKind::UpdatedInput,
            Support::Instead("deny, saying the call was to be rewritten: it is refused rather than run as sent"),
        ),
        (
            PostToolUse,
            AnswerKind::UpdatedOutput,
            Support::Instead(
                "`decision: \"block\"` with the rewritten output as `reason`, which replaces the output the model sees",
            ),
        ),
        (
            PostToolUse,
            AnswerKind::Stop,
            Support::Instead("`continue: false`: Codex replaces the output with the stop reason, but the turn goes on"),
        ),
        (
            Stop,
            AnswerKind::Context,
            Support::Instead("shown to the user (`systemMessage`); the model does not read it"),
        ),
    ],
    settings: Settings {
        project: &[(".codex/hooks.json", "project hooks")],
        user: &[(Home::Env("CODEX_HOME", ".codex"), "hooks.json", "user hooks")],
        trust: Trust::CodexHooks,
        // Its whole home: `config.toml` holds which hooks and projects its user trusted.
        protect: &["**/.codex/**", "~/.codex/**", "$CODEX_HOME/**"],
        ..Settings::BASE
    },
    transcript: Some(Transcript { dialect: Dialect::Codex }),
    project_root: &[RootFrom::HookDir],
    on_failure: OnFailure::RUNS,
    sources: &[
        "real client: Codex 0.169, offline against a mock model (`shared/realclient/codex`)",
        "source: openai/codex `codex-rs/hooks`",
    ],
    ..Agent::BASE
};
