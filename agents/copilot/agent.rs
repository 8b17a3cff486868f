//! GitHub Copilot CLI, and the Copilot cloud agent, which runs the same hooks from the default
//! branch's `.github/hooks/*.json` in its own runner. Checked on the real client (1.0.102,
//! offline against a mock model): hooks named in camelCase (`preToolUse`) get camelCase
//! payloads with no event name and `toolArgs` as an object (its docs show a JSON text: both are
//! read); hooks named in PascalCase (`PreToolUse`) get snake_case payloads with Claude Code's
//! tool names, and are answered as Claude Code's. A plain `exit 2` blocks a tool too, although
//! the docs say non-zero exits never block. It also runs the hooks of a project's
//! `.claude/settings.json` (its hooks reference), as Claude Code's guest.

use crate::vocab::agents::schema::{
    event, Agent, Answer, AnswerKind, FailureEffect, Home, HookShell, Mark, OnFailure, Payload, RootFrom, Settings,
    SettingsFormat, Support, Trust,
};
use crate::vocab::agents::schema::{FolderList, FolderTrust};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path, Pattern, Url};

const PATH: Source = Source::Args(&["path", "file_path"]);
const NOT_TAKEN: Support = Support::Ignored(
    "Copilot CLI's camelCase hooks have no such answer (`permissionDecision: \"deny\"` is what it takes)",
);

/// Copilot CLI.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "copilot",
    name: "Copilot CLI",
    aliases: &["copilot-cli", "github-copilot"],
    events: &[
        event("preToolUse", PreToolUse),
        event("postToolUse", PostToolUse),
        event("userPromptSubmitted", UserPromptSubmit),
        event("agentStop", Stop),
        event("subagentStop", SubagentStop),
        event("sessionStart", SessionStart),
        event("sessionEnd", SessionEnd),
        // Fires at the approval prompt, with `--allow-all-tools` too; `{"behavior": "deny"}`
        // refuses the call (checked on 1.0.102).
        event("permissionRequest", PermissionRequest),
        // The VS Code-compatible names: snake_case payloads, Claude Code's answers.
        event("PreToolUse", PreToolUse).unwired().answered(Answer::CLAUDE),
        // Its PostToolUse takes the camelCase answer fields (checked), not `updatedToolOutput`.
        event("PostToolUse", PostToolUse).unwired(),
        event("UserPromptSubmit", UserPromptSubmit).unwired().answered(Answer::CLAUDE),
        event("Stop", Stop).unwired().answered(Answer::CLAUDE),
        event("SessionStart", SessionStart).unwired().answered(Answer::CLAUDE),
        event("SessionEnd", SessionEnd).unwired().answered(Answer::CLAUDE),
    ],
    payload: Payload {
        // The camelCase payloads do not name their event: the hook command does (`--event`).
        event: &["/hook_event_name"],
        session: &["/sessionId", "/session_id"],
        permission_mode: &[],
        permission_modes: &[],
        transcript: &["/transcriptPath", "/transcript_path"],
        subagent_transcript: &[],
        prompt_id: &[],
        tool_name: &["/toolName", "/tool_name"],
        tool_input: &["/toolArgs", "/tool_input", "/toolInput"],
        tool_use_id: &[],
        tool_response: &["/toolResult/textResultForLlm", "/tool_result/text_result_for_llm", "/toolResult", "/tool_result"],
        tool_failed: &["/toolResult/resultType", "/tool_result/result_type"],
        last_message: &[],
        ..Payload::CLAUDE
    },
    tools: &[
        tool("bash", Kind::Shell, SHELL),
        tool("powershell", Kind::Shell, SHELL).powershell(),
        tool("read_bash", Kind::Other, &[]),
        tool("write_bash", Kind::Shell, &[(crate::vocab::Semantic::Command, Source::Args(&["input"]))]),
        tool("stop_bash", Kind::Other, &[]),
        tool("create", Kind::Write, &[(Path, PATH), (Content, Source::Args(&["file_text"]))]),
        tool("edit", Kind::Write, &[(Path, PATH), (Content, Source::Args(&["new_str"]))]),
        tool("view", Kind::Read, &[(Path, PATH)]),
        tool("glob", Kind::Search, &[(Path, Source::Args(&["path"])), (Pattern, Source::Args(&["pattern"]))])
            .optional(&[Path]),
        tool("grep", Kind::Search, &[(Path, Source::Args(&["path", "glob"])), (Pattern, Source::Args(&["pattern"]))])
            .optional(&[Path]),
        tool("web_fetch", Kind::Fetch, &[(Url, Source::Args(&["url"]))]),
        tool("task", Kind::Agent, &[]),
        tool("ask_user", Kind::Other, &[]),
        tool("sql", Kind::Other, &[]),
        tool("skill", Kind::Other, &[]),
        tool("report_intent", Kind::Other, &[]),
        // The PascalCase hooks' names (seen: `Bash`, and `Write` for `create`, with its arguments).
        tool("Bash", Kind::Shell, SHELL),
        tool("Write", Kind::Write, &[(Path, PATH), (Content, Source::Args(&["file_text", "content"]))]),
        tool("Edit", Kind::Write, &[(Path, PATH), (Content, Source::Args(&["new_str", "new_string"]))]),
        tool("Read", Kind::Read, &[(Path, PATH)]),
    ],
    answer: Answer::Copilot,
    // Checked on Copilot CLI 1.0.102 (`-p`): `modifiedArgs` and `updatedInput` rewrite a call,
    // `additionalContext` reaches the model before and after a tool, `modifiedResult` (a tool
    // result object) replaces an output; headless, an `ask` is refused ("unable to ask user for
    // confirmation").
    departures: &[
        (
            PreToolUse,
            AnswerKind::Ask,
            Support::Instead("deny, saying a person's approval is needed (headless, Copilot refuses what a hook asks about)"),
        ),
        (PreToolUse, AnswerKind::Allow, Support::Instead("nothing: Copilot's own permission flow decides")),
        (
            PostToolUse,
            AnswerKind::Stop,
            Support::Instead("`decision: \"block\"`: the output is replaced by `Tool result blocked: REASON`; the turn goes on"),
        ),
        (UserPromptSubmit, AnswerKind::Context, NOT_TAKEN),
        (SessionStart, AnswerKind::Context, NOT_TAKEN),
        (Stop, AnswerKind::Context, Support::Instead("sent with the continuation only; without one, not shown")),
        (SubagentStop, AnswerKind::Context, Support::Instead("sent with the continuation only; without one, not shown")),
    ],
    settings: Settings {
        format: SettingsFormat::Copilot,
        project: &[
            (".github/hooks/hookc.json", "project hooks"),
            (".github/copilot/settings.json", "project settings"),
            (".github/copilot/settings.local.json", "local project settings"),
        ],
        user: &[
            (Home::Env("COPILOT_HOME", ".copilot"), "hooks/hookc.json", "user hooks"),
            (Home::Env("COPILOT_HOME", ".copilot"), "settings.json", "user settings"),
        ],
        // Its hooks reference: every hook but the machine's policy hooks.
        off_switches: &[("/disableAllHooks", true)],
        // Checked on 1.0.102: in a folder not trusted it runs no project hook, silently (the
        // protected write went through); `trustedFolders` in `$COPILOT_HOME/config.json` (the
        // folder or one above it) or `--trust-folder` makes them run. It reads the older
        // `trusted_folders` too, and rewrites it as `trustedFolders`.
        trust: Trust::Folders(FolderTrust {
            home: Home::Env("COPILOT_HOME", ".copilot"),
            file: "config.json",
            list: FolderList::Keys(&["trustedFolders", "trusted_folders"]),
            off: None,
        }),
        name_event: true,
        // The `bash` key runs with `bash --norc --noprofile -c` (@github/copilot's app.js; run by
        // agents/copilot/client); the `powershell` key with `pwsh -c`.
        hook_shell: HookShell::Posix,
        // Its whole home: `config.json` holds the trusted folders, `hooks/` every hooks file.
        protect: &["**/.github/hooks/**", "~/.copilot/**", "$COPILOT_HOME/**"],
        ..Settings::BASE
    },
    project_root: &[RootFrom::Env("COPILOT_PROJECT_DIR"), RootFrom::Env("CLAUDE_PROJECT_DIR")],
    // It sets these for every hook, also for the hooks of `.claude/settings.json` it runs.
    signature: &[Mark::Env("COPILOT_CLI"), Mark::Key("timestamp")],
    guests: &["vscode"],
    on_failure: OnFailure { other_exit: FailureEffect::Blocks, missing: FailureEffect::Blocks, timeout: FailureEffect::Runs },
    sources: &[
        "real client: Copilot CLI 1.0.102, offline against a mock model (payloads in `agents/copilot/fixtures.yaml`)",
        "primary: github/docs `copilot-cli-reference/cli-hooks-reference.md`, `hooks-configuration.md`",
    ],
    ..Agent::BASE
};
