//! Cursor (`.cursor/hooks.json`). Cursor is an IDE and does not run here: its event list is
//! from its primary docs (`cursor.com/docs/hooks`), its payloads and answers from secondary
//! sources (cupcake's Cursor harness reference, hookshot, syllago), marked so in
//! `docs/agents.md`. Events that name their action (`beforeShellExecution`, `beforeReadFile`,
//! `beforeMCPExecution`) are read as calls of the tool they imply.

use crate::vocab::agents::schema::{
    event, Agent, Answer, AnswerKind, Home, Mark, Payload, RootFrom, Settings, SettingsFormat, Support,
};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path, Url};

const NOT_TAKEN: Support = Support::Ignored("Cursor's hooks have no such answer (secondary sources)");

/// Cursor.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "cursor",
    name: "Cursor",
    events: &[
        event("beforeShellExecution", PreToolUse).implies("Shell", &[("command", &["/command"]), ("cwd", &["/cwd"])]),
        event("beforeMCPExecution", PreToolUse),
        event("beforeReadFile", PreToolUse)
            .implies("Read", &[("file_path", &["/file_path"])])
            .departs(&[(AnswerKind::Ask, Support::Instead("deny, saying a person's approval was needed: `beforeReadFile` takes only allow or deny"))]),
        event("preToolUse", PreToolUse).unwired(),
        event("afterFileEdit", PostToolUse).implies("Write", &[("file_path", &["/file_path"]), ("edits", &["/edits"])]),
        event("beforeSubmitPrompt", UserPromptSubmit),
        event("stop", Stop),
        event("sessionStart", SessionStart),
        event("sessionEnd", SessionEnd),
        event("preCompact", PreCompact),
    ],
    payload: Payload {
        session: &["/conversation_id"],
        permission_mode: &[],
        permission_modes: &[],
        transcript: &[],
        subagent_transcript: &[],
        prompt_id: &[],
        tool_response: &["/tool_output", "/edits"],
        stop_hook_active: &[],
        last_message: &[],
        version: &["/cursor_version"],
        ..Payload::CLAUDE
    },
    tools: &[
        tool("Shell", Kind::Shell, SHELL),
        tool("Read", Kind::Read, &[(Path, Source::Args(&["file_path", "path"]))]),
        tool("Write", Kind::Write, &[(Path, Source::Args(&["file_path", "path"])), (Content, Source::Args(&["content"]))]),
        tool("StrReplace", Kind::Write, &[(Path, Source::Args(&["file_path", "path"])), (Content, Source::Args(&["new_string"]))]),
        tool("Edit", Kind::Write, &[(Path, Source::Args(&["file_path", "path"])), (Content, Source::Args(&["new_string"]))]),
        tool("Delete", Kind::Write, &[(Path, Source::Args(&["file_path", "path"]))]),
        tool("WebFetch", Kind::Fetch, &[(Url, Source::Args(&["url"]))]),
    ],
    answer: Answer::Cursor,
    departures: &[
        (PreToolUse, AnswerKind::UpdatedInput, Support::Instead("deny, saying the call was to be rewritten: Cursor's hooks cannot rewrite a call")),
        (PreToolUse, AnswerKind::Context, NOT_TAKEN),
        (PostToolUse, AnswerKind::UpdatedOutput, NOT_TAKEN),
        (PostToolUse, AnswerKind::Context, NOT_TAKEN),
        (PostToolUse, AnswerKind::Stop, NOT_TAKEN),
        (UserPromptSubmit, AnswerKind::Context, NOT_TAKEN),
        (Stop, AnswerKind::Context, Support::Instead("sent with the follow-up message only")),
        (SessionStart, AnswerKind::Context, NOT_TAKEN),
        (PreCompact, AnswerKind::Deny, NOT_TAKEN),
    ],
    settings: Settings {
        format: SettingsFormat::Cursor,
        project: &[(".cursor/hooks.json", "project hooks")],
        user: &[(Home::User, ".cursor/hooks.json", "user hooks")],
        // Its sandbox settings decide what a command may reach; its config dir moves its home.
        protect: &["**/.cursor/sandbox.json", "~/.cursor/sandbox.json", "$CURSOR_CONFIG_DIR", "$CURSOR_CONFIG_DIR/**"],
        ..Settings::BASE
    },
    project_root: &[RootFrom::Payload(&["/workspace_roots"])],
    // It counts its own follow-ups (`loop_count`, at most 5) and sends no flag.
    signature: &[Mark::Key("conversation_id"), Mark::Key("generation_id")],
    sources: &[
        "primary: cursor.com/docs/hooks (the events)",
        "secondary: cupcake.eqtylab.io harness reference for Cursor, CorridorSecurity/hookshot, syllago (payloads and answers)",
    ],
    ..Agent::BASE
};
