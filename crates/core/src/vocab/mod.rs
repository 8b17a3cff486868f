//! The contract tables: which events exist, what fields each carries, which actions each may
//! take, and the tool profiles that give one semantic name (`path`, `command`, …) to each agent's
//! own argument. The checker enforces these tables; evaluation reads the profiles.

pub mod agents;
pub mod docs;
pub mod mcp;
pub mod patch;
pub mod tools;

use serde::{Deserialize, Serialize};
pub use tools::Kind;

/// A hook point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The user's prompt was submitted; the model has not seen it yet.
    UserPromptSubmit,
    /// A tool call was prepared (tool found, arguments valid); permission not yet decided.
    PreToolUse,
    /// The tool's handler ran; its result is not yet in the history.
    PostToolUse,
    /// The model answered without tool calls and the run is about to end.
    Stop,
    /// A session started or resumed (Claude Code `SessionStart`, Gemini CLI `SessionStart`).
    SessionStart,
    /// A session ended (observe only).
    SessionEnd,
    /// A subagent finished (Claude Code `SubagentStop`); like `stop`.
    SubagentStop,
    /// A tool call failed (Claude Code `PostToolUseFailure`).
    PostToolUseFailure,
    /// The history is about to be compacted (Claude Code `PreCompact`).
    PreCompact,
    /// The agent sent a notification (observe only).
    Notification,
    /// The agent is about to ask its user to approve a tool call (Claude Code, Codex, Copilot
    /// CLI `PermissionRequest`): rules may refuse it (`deny`) or leave it to the person (`ask`);
    /// `allow` approves on the person's behalf, which `hookc check` warns about.
    PermissionRequest,
}

impl EventKind {
    /// How many events there are.
    pub const COUNT: usize = 11;

    /// Every event: the four core hook points in loop order, then the extended ones.
    pub const ALL: [EventKind; EventKind::COUNT] = [
        EventKind::UserPromptSubmit,
        EventKind::PreToolUse,
        EventKind::PostToolUse,
        EventKind::Stop,
        EventKind::SessionStart,
        EventKind::SessionEnd,
        EventKind::SubagentStop,
        EventKind::PostToolUseFailure,
        EventKind::PreCompact,
        EventKind::Notification,
        EventKind::PermissionRequest,
    ];

    /// The name used in rule files and native JSON.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::UserPromptSubmit => "user_prompt_submit",
            EventKind::PreToolUse => "pre_tool_use",
            EventKind::PostToolUse => "post_tool_use",
            EventKind::Stop => "stop",
            EventKind::SessionStart => "session_start",
            EventKind::SessionEnd => "session_end",
            EventKind::SubagentStop => "subagent_stop",
            EventKind::PostToolUseFailure => "post_tool_use_failure",
            EventKind::PreCompact => "pre_compact",
            EventKind::Notification => "notification",
            EventKind::PermissionRequest => "permission_request",
        }
    }

    /// The event with this rule-file name.
    pub fn from_name(name: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|event| event.name() == name)
    }

    /// Index into per-event tables.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether the event is about a tool call (and so has `tool`, `args.*` and profile fields).
    pub fn has_tool(self) -> bool {
        matches!(
            self,
            EventKind::PreToolUse
                | EventKind::PostToolUse
                | EventKind::PostToolUseFailure
                | EventKind::PermissionRequest
        )
    }

    /// The actions the event allows.
    pub fn actions(self) -> impl Iterator<Item = ActionKind> {
        ActionKind::ALL.into_iter().filter(move |action| action.events().contains(&self))
    }

    /// The HookResult fields the event may carry (the seed's `validateFor`): those its actions
    /// produce. One table serves the checker (actions) and the runtime (native hooks' results).
    pub fn result_fields(self) -> Vec<&'static str> {
        let mut fields: Vec<&'static str> =
            self.actions().flat_map(|action| action.result_fields().iter().copied()).collect();
        fields.dedup();
        fields
    }

    /// The seed's name for the event (`PreToolUse`), used in contract errors.
    pub fn seed_name(self) -> &'static str {
        match self {
            EventKind::UserPromptSubmit => "UserPromptSubmit",
            EventKind::PreToolUse => "PreToolUse",
            EventKind::PostToolUse => "PostToolUse",
            EventKind::Stop => "Stop",
            EventKind::SessionStart => "SessionStart",
            EventKind::SessionEnd => "SessionEnd",
            EventKind::SubagentStop => "SubagentStop",
            EventKind::PostToolUseFailure => "PostToolUseFailure",
            EventKind::PreCompact => "PreCompact",
            EventKind::Notification => "Notification",
            EventKind::PermissionRequest => "PermissionRequest",
        }
    }
}

/// The type of a field's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// Text.
    Str,
    /// A number.
    Num,
    /// `true` or `false`.
    Bool,
    /// A raw tool argument: whatever JSON the agent sent.
    Any,
    /// A list of texts: a test holds when any element satisfies it; `len` counts elements.
    List,
}

impl FieldType {
    /// The type's name in diagnostics.
    pub fn name(self) -> &'static str {
        match self {
            FieldType::Str => "a string",
            FieldType::Num => "a number",
            FieldType::Bool => "a boolean",
            FieldType::Any => "a tool argument",
            FieldType::List => "a list",
        }
    }
}

/// A semantic argument name, mapped to each tool's own argument by its profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Semantic {
    /// The file or directory a tool touches (normalised before comparison).
    Path,
    /// A shell command.
    Command,
    /// A URL fetched.
    Url,
    /// Text written to a file.
    Content,
    /// A search or glob pattern.
    Pattern,
    /// A web search query.
    Query,
    /// The host of the URL (`url`), lower case, without port or credentials.
    Host,
}

impl Semantic {
    /// Every semantic name.
    pub const ALL: [Semantic; 7] = [
        Semantic::Path,
        Semantic::Command,
        Semantic::Url,
        Semantic::Content,
        Semantic::Pattern,
        Semantic::Query,
        Semantic::Host,
    ];

    /// The name in rule files.
    pub fn name(self) -> &'static str {
        match self {
            Semantic::Path => "path",
            Semantic::Command => "command",
            Semantic::Url => "url",
            Semantic::Content => "content",
            Semantic::Pattern => "pattern",
            Semantic::Query => "query",
            Semantic::Host => "host",
        }
    }

    /// The profile field this one is read from: `host` from `url`, the others from themselves.
    pub fn stored_as(self) -> Semantic {
        if self == Semantic::Host {
            Semantic::Url
        } else {
            self
        }
    }

    /// Where a tool hookc does not know keeps this: the argument of the same name (`host` is
    /// read from `url`).
    pub fn fallback_args(self) -> &'static [&'static str] {
        match self {
            // The names tools use for the file they act on (`path`, Claude Code's and Crush's
            // `file_path`, Copilot's `filePath`, …): every one present is a file of the call.
            Semantic::Path => &["path", "paths", "file_path", "filePath", "file", "filename", "target_file"],
            Semantic::Command => &["command"],
            Semantic::Url | Semantic::Host => &["url"],
            Semantic::Content => &["content"],
            Semantic::Pattern => &["pattern"],
            Semantic::Query => &["query"],
        }
    }
}

/// A field a rule can read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Field {
    /// The tool's name.
    Tool,
    /// What the tool does, across agents (`shell`, `write`, …; see [`Kind`]).
    Kind,
    /// Every file the call touches (a list).
    Paths,
    /// The project root paths are spelled relative to.
    ProjectRoot,
    /// The submitted prompt.
    Prompt,
    /// The tool's output text.
    Output,
    /// Whether the tool reported an error.
    IsError,
    /// Whether this Stop follows a Stop that forced a continuation.
    StopHookActive,
    /// How many tool results the turn holds (since the user's last prompt).
    ToolCalls,
    /// The shell commands the turn ran, in order (a list).
    Commands,
    /// The files the turn wrote or edited, with any tool (a list of paths).
    FilesWritten,
    /// The tools the turn used, each once (a list).
    ToolsUsed,
    /// The last assistant message.
    LastMessage,
    /// The agent's working directory.
    Cwd,
    /// The agent's session id.
    SessionId,
    /// The agent's permission mode.
    PermissionMode,
    /// Which agent sent the event (`native`, `claude`, `codex`, `gemini`).
    Agent,
    /// For an MCP tool (`mcp__SERVER__TOOL`), the server's name.
    McpServer,
    /// For an MCP tool, the tool's name on its server.
    McpTool,
    /// Why the tool failed (post_tool_use_failure).
    Error,
    /// How the session started: `startup`, `resume`, `clear`, `compact` (session_start).
    Source,
    /// Why the session ended (session_end).
    Reason,
    /// What triggered compaction: `manual` or `auto` (pre_compact).
    Trigger,
    /// The notification's text (notification).
    Message,
    /// Every program a shell call's command line runs (a list).
    Programs,
    /// The hosts the call sends to (a list): its command line's HTTP clients, `nc`, `ssh`,
    /// `git push`, DNS lookups and code's HTTP calls, a fetch tool's URL, an MCP tool's
    /// arguments that are URLs; normalised as an HTTP client reads a URL's host, and a
    /// destination left to run time as written.
    Egress,
    /// What the reader of a call's command line could not account for, as reasons (a list):
    /// a program or callee chosen at run time, a script from a descriptor, code that does not
    /// parse, a bound reached (docs/shell.md, "What is unread").
    Unread,
    /// Every `program subcommand` pair of a shell call's commands (`git push`): an index key of
    /// `runs git push`, not a field rules name.
    ProgramSubcommands,
    /// Every `program flag` pair of a shell call's commands (`rm r`): an index key of
    /// `runs rm (flags in [r, …] …)`, not a field rules name.
    ProgramFlags,
    /// How the call uses the file of this reading: `read`, `write` or `use`.
    Access,
    /// Inside `runs (…)`: the command's program.
    Program,
    /// Inside `runs (…)`: the command's first operand (`push` in `git push`).
    Subcommand,
    /// Inside `runs (…)`: the command's option names (`-rf` gives `r` and `f`).
    Flags,
    /// Inside `runs (…)`: the command's operands, as paths.
    Operands,
    /// Inside `runs (…)`: the command's operands that lie outside the project root, as paths.
    Outside,
    /// Inside `runs (…)` of a command that moves, copies or links files to a destination (`mv`,
    /// `cp`, `ln`, `install`, `rsync`, `scp`, `ditto`): the operands it takes from, as paths
    /// (all of them with `-t DIR`, else all but the last).
    Sources,
    /// Inside `runs (…)` of such a command: where it puts them (`-t DIR`, else the last
    /// operand), as a path; none for another command.
    Destination,
    /// Inside `runs (…)`: every word after the program.
    Words,
    /// Inside `runs (…)`: the wrappers and shells the command runs through (`sudo`, `bash`).
    Via,
    /// Inside `runs (…)`: the programs whose output the command reads.
    Inputs,
    /// Inside `runs (…)`: the other hosts the command acts on (`ssh`'s host, `scp`'s `HOST:`).
    Remote,
    /// Inside a Stop rule's `runs (…)`: whether the command's call succeeded, as the agent's
    /// record of the turn says.
    Ok,
    /// Inside a Stop rule's `runs (…)`: the call's exit status, where the record gives one.
    Status,
    /// Inside a Stop rule's `runs (…)`: whether the call ran after the turn's last write.
    AfterWrites,
    /// Every text among a tool's arguments, at any depth, and a shell line's words as the shell
    /// unquotes them (a list): what a test looks for anywhere in the call (a token in a URL, a
    /// body, a header).
    Args,
    /// A raw tool argument; dots walk into objects (`args.options.force`).
    Arg(String),
    /// A profile-mapped argument.
    Semantic(Semantic),
}

/// The built-in fields: name, field, type, and the events that carry it (`None`: all events).
const TOOL_EVENTS: &[EventKind] =
    &[EventKind::PreToolUse, EventKind::PostToolUse, EventKind::PostToolUseFailure, EventKind::PermissionRequest];
const STOP_EVENTS: &[EventKind] = &[EventKind::Stop, EventKind::SubagentStop];
/// A command's fields, inside `runs (…)`: a tool call's line, or at Stop the turn's commands.
const COMMAND_EVENTS: &[EventKind] = &[
    EventKind::PreToolUse,
    EventKind::PostToolUse,
    EventKind::PostToolUseFailure,
    EventKind::PermissionRequest,
    EventKind::Stop,
    EventKind::SubagentStop,
];

const BUILTINS: &[(&str, Field, FieldType, Option<&[EventKind]>)] = &[
    ("tool", Field::Tool, FieldType::Str, Some(TOOL_EVENTS)),
    ("kind", Field::Kind, FieldType::Str, Some(TOOL_EVENTS)),
    ("paths", Field::Paths, FieldType::List, Some(TOOL_EVENTS)),
    ("programs", Field::Programs, FieldType::List, Some(TOOL_EVENTS)),
    ("unread", Field::Unread, FieldType::List, Some(PERMISSION)),
    ("egress", Field::Egress, FieldType::List, Some(TOOL_EVENTS)),
    ("args", Field::Args, FieldType::List, Some(TOOL_EVENTS)),
    ("access", Field::Access, FieldType::Str, Some(TOOL_EVENTS)),
    ("program", Field::Program, FieldType::Str, Some(COMMAND_EVENTS)),
    ("subcommand", Field::Subcommand, FieldType::Str, Some(COMMAND_EVENTS)),
    ("flags", Field::Flags, FieldType::List, Some(COMMAND_EVENTS)),
    ("operands", Field::Operands, FieldType::List, Some(COMMAND_EVENTS)),
    ("outside", Field::Outside, FieldType::List, Some(COMMAND_EVENTS)),
    ("sources", Field::Sources, FieldType::List, Some(COMMAND_EVENTS)),
    ("destination", Field::Destination, FieldType::List, Some(COMMAND_EVENTS)),
    ("words", Field::Words, FieldType::List, Some(COMMAND_EVENTS)),
    ("via", Field::Via, FieldType::List, Some(COMMAND_EVENTS)),
    ("inputs", Field::Inputs, FieldType::List, Some(COMMAND_EVENTS)),
    ("remote", Field::Remote, FieldType::List, Some(COMMAND_EVENTS)),
    ("ok", Field::Ok, FieldType::Bool, Some(STOP_EVENTS)),
    ("status", Field::Status, FieldType::Num, Some(STOP_EVENTS)),
    ("after_writes", Field::AfterWrites, FieldType::Bool, Some(STOP_EVENTS)),
    ("mcp_server", Field::McpServer, FieldType::Str, Some(TOOL_EVENTS)),
    ("mcp_tool", Field::McpTool, FieldType::Str, Some(TOOL_EVENTS)),
    ("prompt", Field::Prompt, FieldType::Str, Some(&[EventKind::UserPromptSubmit])),
    ("output", Field::Output, FieldType::Str, Some(&[EventKind::PostToolUse])),
    ("is_error", Field::IsError, FieldType::Bool, Some(&[EventKind::PostToolUse])),
    ("error", Field::Error, FieldType::Str, Some(&[EventKind::PostToolUseFailure])),
    ("stop_hook_active", Field::StopHookActive, FieldType::Bool, Some(STOP_EVENTS)),
    ("tool_calls", Field::ToolCalls, FieldType::Num, Some(STOP_EVENTS)),
    ("commands", Field::Commands, FieldType::List, Some(STOP_EVENTS)),
    ("files_written", Field::FilesWritten, FieldType::List, Some(STOP_EVENTS)),
    ("tools_used", Field::ToolsUsed, FieldType::List, Some(STOP_EVENTS)),
    ("last_message", Field::LastMessage, FieldType::Str, Some(STOP_EVENTS)),
    ("source", Field::Source, FieldType::Str, Some(&[EventKind::SessionStart])),
    ("reason", Field::Reason, FieldType::Str, Some(&[EventKind::SessionEnd])),
    ("trigger", Field::Trigger, FieldType::Str, Some(&[EventKind::PreCompact])),
    ("message", Field::Message, FieldType::Str, Some(&[EventKind::Notification])),
    ("cwd", Field::Cwd, FieldType::Str, None),
    ("project_root", Field::ProjectRoot, FieldType::Str, None),
    ("session_id", Field::SessionId, FieldType::Str, None),
    ("permission_mode", Field::PermissionMode, FieldType::Str, None),
    ("agent", Field::Agent, FieldType::Str, None),
];

/// Who owns a closed vocabulary, which decides how `hookc check` reports a value outside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// hookc defines every value (`kind`, `access`, `agent`): another value is an error (E0205),
    /// since no call can ever carry it.
    Hookc,
    /// The agents' vendors do (`permission_mode`, `source`, …), and a release may add a value:
    /// another value is a warning (W0314), never an error that would stop loading the policy
    /// after an agent upgrade.
    Vendor,
}

/// A field whose values form a closed set: the set, and who owns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocabulary {
    /// Who owns the set.
    pub owner: Owner,
    /// Every value, each once, in a stable order.
    pub values: Vec<&'static str>,
}

/// The values of `access`: how a call uses a file (`shell::Access`).
pub const ACCESS_VALUES: [&str; 3] = ["read", "write", "use"];
/// Claude Code's `source` values at `session_start` (others send the same or none).
const SESSION_SOURCES: &[&str] = &["startup", "resume", "clear", "compact"];
/// `reason` values at `session_end`, as Claude Code, Qwen Code and Droid document them.
const END_REASONS: &[&str] = &["clear", "logout", "prompt_input_exit", "bypass_permissions_disabled", "other"];
/// `trigger` values at `pre_compact`.
const COMPACT_TRIGGERS: &[&str] = &["manual", "auto"];

/// The bundle name of [`Field::ProgramSubcommands`], which no rule can write (it has a space).
const PROGRAM_SUBCOMMANDS: &str = "program subcommands";
/// The bundle name of [`Field::ProgramFlags`].
const PROGRAM_FLAGS: &str = "program flags";

/// What looking a field name up for an event found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldLookup {
    /// The field and its type.
    Found(Field, FieldType),
    /// The name is a field, but not of this event.
    NotInEvent,
    /// No field has this name.
    Unknown,
}

impl Field {
    /// Resolves a field name as written in a rule of `event`.
    pub fn lookup(name: &str, event: EventKind) -> FieldLookup {
        if let Some(arg) = name.strip_prefix("args.") {
            return match (event.has_tool(), arg.is_empty()) {
                (_, true) => FieldLookup::Unknown,
                (true, false) => FieldLookup::Found(Field::Arg(arg.to_string()), FieldType::Any),
                (false, false) => FieldLookup::NotInEvent,
            };
        }
        if let Some((_, field, ty, events)) = BUILTINS.iter().find(|(builtin, ..)| *builtin == name) {
            return match events {
                Some(events) if !events.contains(&event) => FieldLookup::NotInEvent,
                _ => FieldLookup::Found(field.clone(), *ty),
            };
        }
        match Semantic::ALL.into_iter().find(|semantic| semantic.name() == name) {
            Some(semantic) if event.has_tool() => FieldLookup::Found(Field::Semantic(semantic), FieldType::Str),
            Some(_) => FieldLookup::NotInEvent,
            None => FieldLookup::Unknown,
        }
    }

    /// The closed set this field's values come from, if it has one. Declared here once per
    /// field; the agents' own sets are read from their table (`vocab::agents`).
    pub fn vocabulary(&self) -> Option<Vocabulary> {
        let (owner, values): (Owner, Vec<&'static str>) = match self {
            Field::Kind => (Owner::Hookc, Kind::ALL.map(Kind::name).to_vec()),
            Field::Access => (Owner::Hookc, ACCESS_VALUES.to_vec()),
            Field::Agent => (Owner::Hookc, agents::ids()),
            Field::PermissionMode => (
                Owner::Vendor,
                agents::AGENTS
                    .iter()
                    .chain([&agents::NATIVE])
                    .flat_map(|agent| agent.payload.permission_modes.iter().copied())
                    .collect(),
            ),
            Field::Source => (Owner::Vendor, SESSION_SOURCES.to_vec()),
            Field::Reason => (Owner::Vendor, END_REASONS.to_vec()),
            Field::Trigger => (Owner::Vendor, COMPACT_TRIGGERS.to_vec()),
            _ => return None,
        };
        let mut unique: Vec<&'static str> = Vec::with_capacity(values.len());
        for value in values {
            if !unique.contains(&value) {
                unique.push(value);
            }
        }
        Some(Vocabulary { owner, values: unique })
    }

    /// The field with this name under any event (for decoding bundles).
    pub fn from_name(name: &str) -> Option<Field> {
        if name == PROGRAM_SUBCOMMANDS {
            return Some(Field::ProgramSubcommands);
        }
        if name == PROGRAM_FLAGS {
            return Some(Field::ProgramFlags);
        }
        if let Some(arg) = name.strip_prefix("args.") {
            return (!arg.is_empty()).then(|| Field::Arg(arg.to_string()));
        }
        if let Some((_, field, ..)) = BUILTINS.iter().find(|(builtin, ..)| *builtin == name) {
            return Some(field.clone());
        }
        Semantic::ALL.into_iter().find(|semantic| semantic.name() == name).map(Field::Semantic)
    }

    /// The names valid in rules of `event` (for "did you mean" and help lists).
    pub fn names_for(event: EventKind) -> Vec<&'static str> {
        let builtins = BUILTINS
            .iter()
            .filter(|(_, _, _, events)| events.is_none_or(|events| events.contains(&event)))
            .map(|(name, ..)| *name);
        let semantics = Semantic::ALL.into_iter().filter(|_| event.has_tool()).map(Semantic::name);
        builtins.chain(semantics).collect()
    }

    /// The field's name as written in rules.
    pub fn name(&self) -> String {
        match self {
            Field::ProgramSubcommands => PROGRAM_SUBCOMMANDS.to_string(),
            Field::ProgramFlags => PROGRAM_FLAGS.to_string(),
            Field::Arg(arg) => format!("args.{arg}"),
            Field::Semantic(semantic) => semantic.name().to_string(),
            builtin => BUILTINS
                .iter()
                .find(|(_, field, ..)| field == builtin)
                .map_or_else(String::new, |(name, ..)| (*name).to_string()),
        }
    }

    /// Whether every event of `event`'s kind carries this field (so a message can always name
    /// it). The others may be missing: optional payload fields, `args.*`, profile fields.
    pub fn always_present(&self, event: EventKind) -> bool {
        match self {
            Field::Tool | Field::Kind => event.has_tool(),
            Field::Prompt => event == EventKind::UserPromptSubmit,
            Field::Output | Field::IsError => event == EventKind::PostToolUse,
            Field::Error => event == EventKind::PostToolUseFailure,
            Field::StopHookActive => matches!(event, EventKind::Stop | EventKind::SubagentStop),
            Field::Message => event == EventKind::Notification,
            Field::Unread => matches!(event, EventKind::PreToolUse | EventKind::PermissionRequest),
            Field::Program
            | Field::Flags
            | Field::Operands
            | Field::Outside
            | Field::Sources
            | Field::Destination
            | Field::Words
            | Field::Via
            | Field::Inputs
            | Field::Remote => true,
            _ => false,
        }
    }

    /// Whether the field is one command's, read inside `runs (…)` only.
    pub fn in_command(&self) -> bool {
        matches!(
            self,
            Field::Program
                | Field::Subcommand
                | Field::Flags
                | Field::Operands
                | Field::Outside
                | Field::Sources
                | Field::Destination
                | Field::Words
                | Field::Via
                | Field::Inputs
                | Field::Remote
                | Field::Ok
                | Field::Status
                | Field::AfterWrites
        )
    }

    /// Whether the field's values fold case where the file system does: paths, and program
    /// names (on a case-insensitive file system `RM` runs `rm`).
    pub fn folds_case(&self) -> bool {
        self.is_path()
            || matches!(self, Field::Programs | Field::ProgramSubcommands | Field::ProgramFlags | Field::Program)
    }

    /// Whether values of this field are hosts, normalised as an HTTP client reads a URL's host:
    /// `in` and `not in` compare them as hosts, with `*.` names and networks (`ir::HostSet`).
    pub fn is_host(&self) -> bool {
        matches!(self, Field::Egress | Field::Semantic(Semantic::Host))
    }

    /// Whether values of this field are paths (spelled canonically, and globbed with
    /// `/`-aware `*`).
    pub fn is_path(&self) -> bool {
        matches!(
            self,
            Field::Semantic(Semantic::Path)
                | Field::Paths
                | Field::Operands
                | Field::Outside
                | Field::Sources
                | Field::Destination
                | Field::FilesWritten
        )
    }
}

/// An action a rule can take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionKind {
    /// `block CODE [MESSAGE]`.
    Block,
    /// `deny [REASON]`.
    Deny,
    /// `ask [REASON]`.
    Ask,
    /// `allow [REASON]`.
    Allow,
    /// `set ARG = VALUE`.
    Set,
    /// `replace TEXT`.
    Replace,
    /// `truncate N`.
    Truncate,
    /// `redact /re/ [TEXT]`.
    Redact,
    /// `stop [REASON]`.
    Stop,
    /// `continue MESSAGE`.
    Continue,
    /// `context TEXT`.
    Context,
    /// `log TEXT`.
    Log,
}

const ALL_EVENTS: &[EventKind] = &EventKind::ALL;
const PRE: &[EventKind] = &[EventKind::PreToolUse];
/// Where a permission is decided: before a tool, and at the agent's approval prompt.
const PERMISSION: &[EventKind] = &[EventKind::PreToolUse, EventKind::PermissionRequest];
const POST: &[EventKind] = &[EventKind::PostToolUse];
const BLOCKING: &[EventKind] = &[EventKind::PreToolUse, EventKind::PreCompact];
/// Events whose result can carry system context for the model (session_end and notification
/// are observe-only; no agent reads context at pre_compact).
const CONTEXT: &[EventKind] = &[
    EventKind::UserPromptSubmit,
    EventKind::PreToolUse,
    EventKind::PostToolUse,
    EventKind::Stop,
    EventKind::SessionStart,
    EventKind::SubagentStop,
    EventKind::PostToolUseFailure,
];

impl ActionKind {
    /// Every action.
    pub const ALL: [ActionKind; 12] = [
        ActionKind::Block,
        ActionKind::Deny,
        ActionKind::Ask,
        ActionKind::Allow,
        ActionKind::Set,
        ActionKind::Replace,
        ActionKind::Truncate,
        ActionKind::Redact,
        ActionKind::Stop,
        ActionKind::Continue,
        ActionKind::Context,
        ActionKind::Log,
    ];

    /// The name in rule files.
    pub fn name(self) -> &'static str {
        self.spec().0
    }

    /// The usage line shown when arguments are wrong.
    pub fn usage(self) -> &'static str {
        self.spec().1
    }

    /// The events that may take this action (the seed's `validateFor`, at compile time).
    pub fn events(self) -> &'static [EventKind] {
        self.spec().2
    }

    fn spec(self) -> (&'static str, &'static str, &'static [EventKind]) {
        match self {
            ActionKind::Block => ("block", "block CODE [MESSAGE]", BLOCKING),
            ActionKind::Deny => ("deny", "deny [REASON]", PERMISSION),
            ActionKind::Ask => ("ask", "ask [REASON]", PERMISSION),
            ActionKind::Allow => ("allow", "allow [REASON]", PERMISSION),
            ActionKind::Set => ("set", "set ARG = VALUE", PRE),
            ActionKind::Replace => ("replace", "replace TEXT", POST),
            ActionKind::Truncate => ("truncate", "truncate N", POST),
            ActionKind::Redact => ("redact", "redact /REGEX/ [TEXT]", POST),
            ActionKind::Stop => ("stop", "stop [REASON]", POST),
            ActionKind::Continue => ("continue", "continue MESSAGE", STOP_EVENTS),
            ActionKind::Context => ("context", "context TEXT", CONTEXT),
            ActionKind::Log => ("log", "log TEXT", ALL_EVENTS),
        }
    }

    /// The HookResult fields (JSON names) this action produces.
    pub fn result_fields(self) -> &'static [&'static str] {
        match self {
            ActionKind::Block => &["blockingError"],
            ActionKind::Deny | ActionKind::Ask | ActionKind::Allow => &["permissionBehavior"],
            ActionKind::Set => &["updatedInput"],
            ActionKind::Replace | ActionKind::Truncate | ActionKind::Redact => &["updatedOutput"],
            ActionKind::Stop => &["preventContinuation"],
            ActionKind::Continue => &["forceContinue"],
            ActionKind::Context => &["additionalContext"],
            ActionKind::Log => &[],
        }
    }

    /// The action with this name.
    pub fn from_name(name: &str) -> Option<ActionKind> {
        ActionKind::ALL.into_iter().find(|action| action.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_resolve_per_event() {
        assert_eq!(
            Field::lookup("path", EventKind::PreToolUse),
            FieldLookup::Found(Field::Semantic(Semantic::Path), FieldType::Str)
        );
        assert_eq!(Field::lookup("path", EventKind::Stop), FieldLookup::NotInEvent);
        assert_eq!(Field::lookup("output", EventKind::PreToolUse), FieldLookup::NotInEvent);
        assert_eq!(Field::lookup("pth", EventKind::PreToolUse), FieldLookup::Unknown);
        assert_eq!(Field::lookup("args.x", EventKind::Stop), FieldLookup::NotInEvent);
    }

    #[test]
    fn field_names_round_trip() {
        for event in EventKind::ALL {
            for name in Field::names_for(event) {
                match Field::lookup(name, event) {
                    FieldLookup::Found(field, _) => assert_eq!(field.name(), name),
                    other => panic!("{name} on {event:?}: {other:?}"),
                }
            }
        }
    }
}
