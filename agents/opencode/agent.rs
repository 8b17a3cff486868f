//! OpenCode: no command hooks, only JavaScript plugins in its own process. `hookc init opencode`
//! writes hookc's plugin (`.opencode/plugin/hookc.js`), which runs `hookc hook opencode` at
//! `tool.execute.before` and `tool.execute.after` and throws, so that the call does not run,
//! on a denial and on anything it cannot read (hookc missing, crashed, timed out, an unexpected
//! answer). Checked on the real client (opencode-ai 1.18.33): a throw stops the call, and the
//! model reads the error as the tool's result.

use crate::vocab::agents::schema::{
    event, Agent, Answer, AnswerKind, FailureEffect, Home, OnFailure, Payload, RootFrom, Settings, SettingsFormat, Support,
};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path, Pattern, Url};

const FILE_PATH: Source = Source::Args(&["filePath", "path"]);

/// The plugin's payload: the Claude Code-style object it builds from the hook's arguments.
pub(in crate::vocab::agents) const PAYLOAD: Payload = Payload {
    permission_mode: &[],
    permission_modes: &[],
    transcript: &[],
    subagent_transcript: &[],
    prompt_id: &[],
    stop_hook_active: &[],
    last_message: &[],
    ..Payload::CLAUDE
};

/// The tools of OpenCode (and of Kilo, its fork).
pub(in crate::vocab::agents) const TOOLS: &[crate::vocab::tools::Tool] = &[
    tool("bash", Kind::Shell, SHELL).workdir(&["workdir"]),
    tool("write", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["content"]))]),
    tool("edit", Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["newString"]))]),
    tool("multiedit", Kind::Write, &[(Path, FILE_PATH)]),
    tool(
        "patch",
        Kind::Write,
        &[(Path, Source::Patch(&["patchText", "patch"])), (Content, Source::Args(&["patchText", "patch"]))],
    ),
    tool(
        "apply_patch",
        Kind::Write,
        &[(Path, Source::Patch(&["patchText", "patch"])), (Content, Source::Args(&["patchText", "patch"]))],
    ),
    tool("read", Kind::Read, &[(Path, FILE_PATH)]),
    tool("list", Kind::Read, &[(Path, Source::Args(&["path"]))]).optional(&[Path]),
    tool("glob", Kind::Search, &[(Path, Source::Args(&["path"])), (Pattern, Source::Args(&["pattern"]))])
        .optional(&[Path]),
    tool("grep", Kind::Search, &[(Path, Source::Args(&["path", "include"])), (Pattern, Source::Args(&["pattern"]))])
        .optional(&[Path]),
    tool("webfetch", Kind::Fetch, &[(Url, Source::Args(&["url"]))]),
    tool("websearch", Kind::Fetch, &[]),
    tool("task", Kind::Agent, &[]),
    tool("todowrite", Kind::Other, &[]),
    tool("todoread", Kind::Other, &[]),
    tool("skill", Kind::Other, &[]),
    tool("question", Kind::Other, &[]),
];

/// What the plugin cannot do.
pub(in crate::vocab::agents) const DEPARTURES: &[crate::vocab::agents::schema::Departure] = &[
    (
        PreToolUse,
        AnswerKind::Ask,
        Support::Instead("deny, saying a person's approval is needed: a plugin hook cannot ask"),
    ),
    (PreToolUse, AnswerKind::Allow, Support::Instead("nothing: the agent's own permissions decide")),
    (PreToolUse, AnswerKind::Context, Support::Ignored("a plugin's `tool.execute.before` cannot add context")),
    (PostToolUse, AnswerKind::Context, Support::Ignored("a plugin's `tool.execute.after` cannot add context")),
    (PostToolUse, AnswerKind::Stop, Support::Ignored("a plugin's `tool.execute.after` cannot end the turn")),
];

/// OpenCode.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "opencode",
    name: "OpenCode",
    aliases: &["opencode-ai"],
    events: &[event("tool.execute.before", PreToolUse), event("tool.execute.after", PostToolUse)],
    payload: PAYLOAD,
    tools: TOOLS,
    answer: Answer::Plugin,
    departures: DEPARTURES,
    settings: Settings {
        format: SettingsFormat::Plugin,
        project: &[(".opencode/plugin/hookc.js", "project plugin")],
        user: &[(Home::Env("XDG_CONFIG_HOME", ".config"), "opencode/plugin/hookc.js", "user plugin")],
        // Its configs list plugins, and every file of `.opencode` may be one.
        protect: &["**/.opencode/**", "**/.opencode/plugins", "**/.opencode/plugins/**", "**/opencode.json", "**/opencode.jsonc", "~/.config/opencode/**"],
        ..Settings::BASE
    },
    project_root: &[RootFrom::Payload(&["/project_root"])],
    // hookc's plugin refuses the call on any of them.
    on_failure: OnFailure { other_exit: FailureEffect::Blocks, missing: FailureEffect::Blocks, timeout: FailureEffect::Blocks },
    sources: &[
        "real client: opencode-ai 1.18.33, offline against a mock model (its plugin API; payloads in `agents/opencode/fixtures.yaml`)",
        "primary: sst/opencode `packages/web/src/content/docs/plugins.mdx`",
    ],
    ..Agent::BASE
};
