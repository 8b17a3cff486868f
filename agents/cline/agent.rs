//! Cline (the CLI and the VS Code extension): one executable file per event in
//! `.clinerules/hooks/`. Checked on the real client (CLI 3.0.65, offline against a mock model):
//! exit 2 does not block, only `{"cancel": true}` does, and in the CLI it ends the whole task
//! (no tool result goes back to the model; the person sees the task aborted). Its payloads do
//! not name their event, so each file names it (`--event`). `preToolUse.parameters` holds its
//! values as JSON texts; `tool_call.input` holds them as they are, and is read.

use crate::vocab::agents::schema::{
    event, Agent, Answer, AnswerKind, Home, OnFailure, Payload, RootFrom, Settings, SettingsFormat, Support,
};
use crate::vocab::tools::{tool, Kind, Source};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Command, Content, Path, Url};

const NOT_TAKEN: Support = Support::Ignored("Cline's hooks have no such answer");

/// Cline.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "cline",
    name: "Cline",
    aliases: &["cline-cli"],
    events: &[
        event("PreToolUse", PreToolUse),
        event("PostToolUse", PostToolUse),
        event("UserPromptSubmit", UserPromptSubmit),
        event("TaskStart", SessionStart),
        event("TaskResume", SessionStart).unwired(),
        event("TaskComplete", Stop),
        event("TaskCancel", SessionEnd),
        event("PreCompact", PreCompact),
    ],
    payload: Payload {
        event: &[],
        session: &["/taskId"],
        cwd: &["/workspaceInfo/rootPath", "/workspaceRoots/0"],
        permission_mode: &[],
        permission_modes: &[],
        transcript: &[],
        subagent_transcript: &[],
        prompt_id: &[],
        tool_name: &["/tool_call/name", "/tool_result/name", "/preToolUse/toolName", "/postToolUse/toolName"],
        tool_input: &["/tool_call/input", "/tool_result/input", "/preToolUse/parameters", "/postToolUse/parameters"],
        tool_use_id: &["/tool_call/id", "/tool_result/id"],
        tool_response: &["/tool_result/output", "/postToolUse/result"],
        tool_failed: &[],
        tool_ok: &["/postToolUse/success"],
        error: &[],
        prompt: &["/userPromptSubmit/prompt", "/prompt"],
        stop_hook_active: &[],
        last_message: &["/turn/outputText"],
        source: &[],
        reason: &[],
        trigger: &[],
        message: &[],
        version: &["/clineVersion"],
    },
    tools: &[
        // A list of command lines, run one after another: read as one script.
        tool("run_commands", Kind::Shell, &[(Command, Source::Lines(&["commands"]))]),
        tool("editor", Kind::Write, &[(Path, Source::Args(&["path"])), (Content, Source::Args(&["new_text"]))]),
        tool("read_files", Kind::Read, &[(Path, Source::Args(&["files"]))]),
        tool("search_codebase", Kind::Search, &[]),
        tool("fetch_web_content", Kind::Fetch, &[]),
        tool("ask_question", Kind::Other, &[]),
        tool("spawn_agent", Kind::Agent, &[]),
        // The VS Code extension's names (its hooks docs).
        tool("execute_command", Kind::Shell, &[(Command, Source::Args(&["command"]))]),
        tool("write_to_file", Kind::Write, &[(Path, Source::Args(&["path"])), (Content, Source::Args(&["content"]))]),
        tool("replace_in_file", Kind::Write, &[(Path, Source::Args(&["path"])), (Content, Source::Args(&["diff"]))]),
        tool("read_file", Kind::Read, &[(Path, Source::Args(&["path"]))]),
        tool("list_files", Kind::Read, &[(Path, Source::Args(&["path"]))]),
        tool("search_files", Kind::Search, &[(Path, Source::Args(&["path"]))]),
        tool("web_fetch", Kind::Fetch, &[(Url, Source::Args(&["url"]))]),
        tool("new_rule", Kind::Write, &[(Path, Source::Args(&["path"])), (Content, Source::Args(&["content"]))]),
        tool("list_code_definition_names", Kind::Read, &[(Path, Source::Args(&["path"]))]),
        tool("browser_action", Kind::Fetch, &[(Url, Source::Args(&["url"]))]),
        tool("web_search", Kind::Fetch, &[]),
        tool("use_mcp_tool", Kind::Mcp, &[]),
        tool("access_mcp_resource", Kind::Mcp, &[]),
        tool("new_task", Kind::Agent, &[]),
        tool("ask_followup_question", Kind::Other, &[]),
        tool("plan_mode_respond", Kind::Other, &[]),
        tool("attempt_completion", Kind::Other, &[]),
    ],
    answer: Answer::Cline,
    departures: &[
        (
            PreToolUse,
            AnswerKind::Deny,
            Support::Instead("`cancel: true`: the call does not run, and the Cline CLI ends the whole task"),
        ),
        (
            PreToolUse,
            AnswerKind::Ask,
            Support::Instead("`cancel: true`, saying a person's approval is needed: Cline's hooks cannot ask"),
        ),
        (PreToolUse, AnswerKind::Allow, Support::Instead("nothing: Cline's own approval decides")),
        // `overrideInput` rewrites the call (checked); `contextModification` reaches the model.
        (PostToolUse, AnswerKind::UpdatedOutput, NOT_TAKEN),
        (PostToolUse, AnswerKind::Stop, Support::Instead("`cancel: true`: the task ends")),
        (Stop, AnswerKind::Continue, Support::Ignored("Cline's TaskComplete hook cannot continue the task")),
        (Stop, AnswerKind::Context, NOT_TAKEN),
        (SessionStart, AnswerKind::Context, NOT_TAKEN),
        (PreCompact, AnswerKind::Deny, NOT_TAKEN),
    ],
    settings: Settings {
        format: SettingsFormat::Scripts,
        project: &[(".clinerules/hooks", "project hooks")],
        user: &[(Home::User, "Documents/Cline/Hooks", "user hooks")],
        name_event: true,
        // The hooks folders of Cline's other layout (`.cline/hooks`), where Cline 3 reads them too.
        protect: &["**/.cline", "**/.cline/hooks", "**/.cline/hooks/**", "~/.cline", "~/.cline/hooks", "~/.cline/hooks/**"],
        ..Settings::BASE
    },
    project_root: &[RootFrom::Payload(&["/workspaceInfo/rootPath", "/workspaceRoots"])],
    on_failure: OnFailure::RUNS,
    sources: &[
        "real client: Cline CLI 3.0.65, offline against a mock model (payloads in `agents/cline/fixtures.yaml`)",
        "primary: cline/cline `docs/customization/hooks.mdx`",
    ],
    ..Agent::BASE
};
