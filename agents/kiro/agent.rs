//! Kiro CLI (formerly Amazon Q Developer CLI): hooks in an agent configuration,
//! `.kiro/agents/NAME.json`. Its CLI is not on the package registries reachable here: this
//! follows its primary docs (`aws/amazon-q-developer-cli` `docs/hooks.md`, `kiro.dev/docs/cli/hooks`):
//! exit 2 from `preToolUse` blocks with stderr going to the model, other exits only warn;
//! stdout is context at `agentSpawn` and `userPromptSubmit`. `init kiro` writes the `hookc`
//! agent (`kiro-cli chat --agent hookc`), or `--settings` an agent of your own.

use crate::vocab::agents::schema::{
    event, Agent, Answer, AnswerKind, FailureEffect, Home, OnFailure, Payload, Settings, SettingsFormat, Support,
};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path, Url};

const NOT_TAKEN: Support = Support::Ignored("Kiro CLI's hooks take only exit 2 at preToolUse and stdout as context");

/// Kiro CLI.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "kiro",
    name: "Kiro CLI",
    aliases: &["kiro-cli", "amazon-q", "q"],
    events: &[
        event("preToolUse", PreToolUse),
        event("postToolUse", PostToolUse),
        event("userPromptSubmit", UserPromptSubmit),
        event("agentSpawn", SessionStart),
        event("stop", Stop),
    ],
    payload: Payload {
        session: &[],
        permission_mode: &[],
        permission_modes: &[],
        transcript: &[],
        subagent_transcript: &[],
        prompt_id: &[],
        tool_use_id: &[],
        stop_hook_active: &[],
        last_message: &[],
        ..Payload::CLAUDE
    },
    tools: &[
        tool("execute_bash", Kind::Shell, SHELL),
        tool("shell", Kind::Shell, SHELL),
        tool("fs_write", Kind::Write, &[(Path, Source::Args(&["path"])), (Content, Source::Args(&["file_text", "new_str"]))]),
        tool("write", Kind::Write, &[(Path, Source::Args(&["path"])), (Content, Source::Args(&["file_text", "new_str"]))]),
        tool("fs_read", Kind::Read, &[(Path, Source::Args(&["path", "paths"]))]),
        tool("read", Kind::Read, &[(Path, Source::Args(&["path", "paths"]))]),
        tool("web_fetch", Kind::Fetch, &[(Url, Source::Args(&["url"]))]),
        tool("use_aws", Kind::Other, &[]),
        tool("report_issue", Kind::Other, &[]),
    ],
    answer: Answer::ExitCode,
    departures: &[
        (PreToolUse, AnswerKind::Ask, Support::Instead("exit 2, saying a person's approval is needed: Kiro CLI's hooks cannot ask")),
        (PreToolUse, AnswerKind::Allow, Support::Instead("nothing: Kiro CLI's own approval decides")),
        (PreToolUse, AnswerKind::UpdatedInput, Support::Instead("exit 2, saying the call was to be rewritten: it is refused rather than run as sent")),
        (PreToolUse, AnswerKind::Context, NOT_TAKEN),
        (PostToolUse, AnswerKind::UpdatedOutput, NOT_TAKEN),
        (PostToolUse, AnswerKind::Context, NOT_TAKEN),
        (PostToolUse, AnswerKind::Stop, NOT_TAKEN),
        (Stop, AnswerKind::Continue, NOT_TAKEN),
        (Stop, AnswerKind::Context, NOT_TAKEN),
    ],
    settings: Settings {
        format: SettingsFormat::Kiro,
        project: &[(".kiro/agents/hookc.json", "project agent")],
        user: &[(Home::User, ".kiro/agents/hookc.json", "user agent")],
        // Every agent configuration in the folder may hold hooks.
        protect: &["**/.kiro/agents/**", "~/.kiro/agents/**"],
        ..Settings::BASE
    },
    on_failure: OnFailure { other_exit: FailureEffect::Runs, missing: FailureEffect::Runs, timeout: FailureEffect::Unverified },
    sources: &[
        "primary: aws/amazon-q-developer-cli `docs/hooks.md`; kiro.dev/docs/cli/hooks (not run here: not on the reachable registries)",
        "unconfirmed: the aliases `shell`, `write`, `read` (third-party Kiro examples)",
    ],
    ..Agent::BASE
};
