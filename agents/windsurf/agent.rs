//! Windsurf Cascade (`.windsurf/hooks.json`). Windsurf is an IDE and does not run here: this
//! follows its primary docs (`docs.windsurf.com/windsurf/cascade/hooks`: exit 2 from a pre-hook
//! blocks, with no JSON answer) and secondary sources for the payloads (hookshot, the difflore
//! adapter), marked so in `docs/agents.md`. Each event names its action and carries it in
//! `tool_info`.

use crate::vocab::agents::schema::{event, Agent, Answer, AnswerKind, Home, Payload, Settings, SettingsFormat, Support};
use crate::vocab::tools::{tool, Kind, Source};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Command, Path};

const NOT_TAKEN: Support = Support::Ignored("Windsurf's hooks take only exit 2 from a pre-hook");

/// Windsurf Cascade.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "windsurf",
    name: "Windsurf",
    aliases: &["cascade"],
    events: &[
        event("pre_run_command", PreToolUse)
            .implies("run_command", &[("command_line", &["/tool_info/command_line"]), ("cwd", &["/tool_info/cwd"])]),
        event("pre_write_code", PreToolUse)
            .implies("write_code", &[("file_path", &["/tool_info/file_path"]), ("edits", &["/tool_info/edits"])]),
        event("pre_read_code", PreToolUse).implies("read_code", &[("file_path", &["/tool_info/file_path"])]),
        event("pre_mcp_tool_use", PreToolUse).implies(
            "mcp_tool_use",
            &[
                ("server", &["/tool_info/mcp_server_name"]),
                ("tool", &["/tool_info/mcp_tool_name"]),
                ("arguments", &["/tool_info/mcp_tool_arguments"]),
            ],
        ),
        event("pre_user_prompt", UserPromptSubmit),
        event("post_run_command", PostToolUse)
            .implies("run_command", &[("command_line", &["/tool_info/command_line"])]),
        event("post_cascade_response", Stop),
    ],
    payload: Payload {
        event: &["/agent_action_name"],
        session: &["/trajectory_id"],
        cwd: &["/tool_info/cwd"],
        permission_mode: &[],
        permission_modes: &[],
        transcript: &[],
        subagent_transcript: &[],
        prompt_id: &[],
        tool_use_id: &["/execution_id"],
        tool_response: &["/tool_info/output", "/tool_info"],
        prompt: &["/tool_info/user_prompt"],
        stop_hook_active: &[],
        last_message: &["/tool_info/response"],
        ..Payload::CLAUDE
    },
    tools: &[
        tool("run_command", Kind::Shell, &[(Command, Source::Args(&["command_line"]))]),
        tool("write_code", Kind::Write, &[(Path, Source::Args(&["file_path"]))]),
        tool("read_code", Kind::Read, &[(Path, Source::Args(&["file_path"]))]),
        tool("mcp_tool_use", Kind::Mcp, &[]),
    ],
    answer: Answer::ExitCode,
    departures: &[
        (
            PreToolUse,
            AnswerKind::Ask,
            Support::Instead("exit 2, saying a person's approval is needed: Windsurf's hooks cannot ask"),
        ),
        (PreToolUse, AnswerKind::Allow, Support::Instead("nothing: Cascade's own approval decides")),
        (
            PreToolUse,
            AnswerKind::UpdatedInput,
            Support::Instead("exit 2, saying the call was to be rewritten: it is refused rather than run as sent"),
        ),
        (PreToolUse, AnswerKind::Context, NOT_TAKEN),
        (UserPromptSubmit, AnswerKind::Context, NOT_TAKEN),
        (PostToolUse, AnswerKind::UpdatedOutput, NOT_TAKEN),
        (PostToolUse, AnswerKind::Context, NOT_TAKEN),
        (PostToolUse, AnswerKind::Stop, NOT_TAKEN),
        (Stop, AnswerKind::Continue, NOT_TAKEN),
        (Stop, AnswerKind::Context, NOT_TAKEN),
    ],
    settings: Settings {
        format: SettingsFormat::Windsurf,
        project: &[(".windsurf/hooks.json", "workspace hooks")],
        user: &[(Home::User, ".codeium/windsurf/hooks.json", "user hooks")],
        // The system-wide hooks file.
        protect: &["/etc/windsurf/hooks.json"],
        ..Settings::BASE
    },
    sources: &[
        "primary: docs.windsurf.com/windsurf/cascade/hooks (events, locations, exit 2)",
        "secondary: CorridorSecurity/hookshot `docs/reference-cascade.md`, the difflore windsurf adapter (payloads)",
    ],
    ..Agent::BASE
};
