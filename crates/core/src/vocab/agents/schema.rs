//! What an agent's file says. Every agent is one value of [`Agent`]: plain data, read by the
//! adapters (mapping payloads, rendering answers), `hookc check --agent` (the capability rows),
//! `init` and `doctor` (settings) and `docs/agents.md`. Where agents differ in behaviour, the
//! file names one of a closed set of strategies ([`Answer`], [`SettingsFormat`], [`Dialect`],
//! [`RootFrom`], [`StopFlag`]), each implemented once, in the adapters and the CLI.

use crate::vocab::tools::Tool;
use crate::vocab::{ActionKind, EventKind};

/// JSON pointers into a payload (`/tool_input`, `/tool_info/command_line`), tried in order: the
/// first that is present and not `null` is the value.
pub type Ptrs = &'static [&'static str];

/// One agent hookc answers.
#[derive(Debug)]
pub struct Agent {
    /// Its id: the `agent` field of its events, and `hookc hook ID`, `init ID`, `doctor ID`.
    pub id: &'static str,
    /// Its name in messages and the docs.
    pub name: &'static str,
    /// Other names the verbs take for it.
    pub aliases: &'static [&'static str],
    /// The events it fires that hookc answers, by its own names.
    pub events: &'static [EventSpec],
    /// Where its payloads keep what hookc reads.
    pub payload: Payload,
    /// Its tools, by the names its hooks see.
    pub tools: &'static [Tool],
    /// Tool names its transcript records that its hooks know by another name (Codex records
    /// `exec_command`, its hooks see `Bash`).
    pub transcript_tools: &'static [(&'static str, &'static str)],
    /// How its answers are written.
    pub answer: Answer,
    /// The answers it does not take as the contract says (the capability rows).
    pub departures: &'static [Departure],
    /// Where its hook settings live and how `init` writes them.
    pub settings: Settings,
    /// Where its Stop payload says the turn is recorded, and in which dialect.
    pub transcript: Option<Transcript>,
    /// How it tells its hooks the project root, tried in order (`--project-root` overrides it;
    /// the event's `cwd` stands in without one).
    pub project_root: &'static [RootFrom],
    /// Whether its Stop payload's `stop_hook_active` stops a loop.
    pub stop_flag: StopFlag,
    /// What only its hook calls carry: a call with all of these that arrives through another
    /// agent's settings ([`Agent::guests`]) is this agent's, and answered in its dialect.
    pub signature: &'static [Mark],
    /// Agents that read this agent's settings files, and so may call its hooks (VS Code runs
    /// Claude Code's `.claude/settings.json`).
    pub guests: &'static [&'static str],
    /// What the agent does with a hook that fails: an exit other than 0 and 2, a hook command
    /// that does not exist (exit 127: hookc not installed), one that times out. hookc never
    /// exits with anything but 0 or 2 and answers within its deadline; the first two are what a
    /// missing or broken hookc costs.
    pub on_failure: OnFailure,
    /// Where the facts in this file come from: the real client run here, the vendor's docs and
    /// source, or secondary sources marked as such (`docs/agents.md` cites them).
    pub sources: &'static [&'static str],
}

impl Agent {
    /// What an agent file leaves unsaid: no tools, answers or events of its own, Claude Code's
    /// payload and answers, no transcript, no project root, a reliable Stop flag, no guests, and
    /// failures nobody checked. Each file names what differs (`..Agent::BASE`).
    pub const BASE: Agent = Agent {
        id: "",
        name: "",
        aliases: &[],
        events: &[],
        payload: Payload::CLAUDE,
        tools: &[],
        transcript_tools: &[],
        answer: Answer::CLAUDE,
        departures: &[],
        settings: Settings::BASE,
        transcript: None,
        project_root: &[],
        stop_flag: StopFlag::Reliable,
        signature: &[],
        guests: &[],
        on_failure: OnFailure::UNVERIFIED,
        sources: &[],
    };
}

impl PartialEq for Agent {
    fn eq(&self, other: &Agent) -> bool {
        self.id == other.id
    }
}

impl Eq for Agent {}

/// What an agent does with a call whose hook failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnFailure {
    /// Another non-zero exit.
    pub other_exit: FailureEffect,
    /// The hook command is not there (exit 127).
    pub missing: FailureEffect,
    /// The hook does not answer within the agent's timeout.
    pub timeout: FailureEffect,
}

/// What becomes of the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureEffect {
    /// It is refused.
    Blocks,
    /// It runs, ungoverned.
    Runs,
    /// Not checked on the real client, and its documentation does not say.
    Unverified,
}

impl FailureEffect {
    /// The word in the documentation.
    pub fn name(self) -> &'static str {
        match self {
            FailureEffect::Blocks => "refused",
            FailureEffect::Runs => "runs",
            FailureEffect::Unverified => "unverified",
        }
    }
}

impl OnFailure {
    /// An agent that runs the call on any failure but exit 2 (checked or documented).
    pub const RUNS: OnFailure =
        OnFailure { other_exit: FailureEffect::Runs, missing: FailureEffect::Runs, timeout: FailureEffect::Runs };
    /// An agent whose failures nobody here could check.
    pub const UNVERIFIED: OnFailure = OnFailure {
        other_exit: FailureEffect::Unverified,
        missing: FailureEffect::Unverified,
        timeout: FailureEffect::Unverified,
    };
}

/// Something that tells an agent's hook calls apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A top-level key of the payload.
    Key(&'static str),
    /// An environment variable the agent sets for its hooks.
    Env(&'static str),
}

/// One event an agent fires.
#[derive(Debug, Clone, Copy)]
pub struct EventSpec {
    /// The agent's name for it.
    pub name: &'static str,
    /// The native event it becomes.
    pub kind: EventKind,
    /// Whether `hookc init` wires it (an agent may fire one event under two names).
    pub wired: bool,
    /// Where the call's tool and arguments are.
    pub call: Call,
    /// The answer strategy, where it is not the agent's (Copilot CLI's PascalCase events are
    /// answered as Claude Code's).
    pub answer: Option<Answer>,
    /// Capability rows of this event alone, before the agent's (Cursor's `beforeReadFile` takes
    /// only allow or deny).
    pub departures: &'static [(AnswerKind, Support)],
}

/// `EventSpec` for an event whose payload names its tool as the agent's payload does.
pub const fn event(name: &'static str, kind: EventKind) -> EventSpec {
    EventSpec { name, kind, wired: true, call: Call::Payload, answer: None, departures: &[] }
}

impl EventSpec {
    /// The same event, which `init` does not wire (it fires under another name too).
    pub const fn unwired(self) -> EventSpec {
        EventSpec { wired: false, ..self }
    }

    /// The same event, whose action is one tool the event implies (Cursor's
    /// `beforeShellExecution` is a shell call), its arguments taken from the payload.
    pub const fn implies(self, tool: &'static str, args: &'static [(&'static str, Ptrs)]) -> EventSpec {
        EventSpec { call: Call::Implied { tool, args }, ..self }
    }

    /// The same event, answered with another strategy than the agent's.
    pub const fn answered(self, answer: Answer) -> EventSpec {
        EventSpec { answer: Some(answer), ..self }
    }

    /// The same event, taking these answers otherwise than its agent's other events of its kind.
    pub const fn departs(self, departures: &'static [(AnswerKind, Support)]) -> EventSpec {
        EventSpec { departures, ..self }
    }
}

/// Where a tool event's call is.
#[derive(Debug, Clone, Copy)]
pub enum Call {
    /// The payload's tool name and input ([`Payload::tool_name`], [`Payload::tool_input`]).
    Payload,
    /// A tool the event implies, with arguments each taken from the payload.
    Implied {
        /// The tool's name (one of the agent's tools).
        tool: &'static str,
        /// Each argument and where the payload keeps it.
        args: &'static [(&'static str, Ptrs)],
    },
}

/// Where an agent's payloads keep the fields hookc reads. An empty list: the payload never has it.
#[derive(Debug, Clone, Copy)]
pub struct Payload {
    /// The event's name; none when the hook command names it (`hookc hook AGENT --event NAME`).
    pub event: Ptrs,
    /// The session.
    pub session: Ptrs,
    /// The working directory.
    pub cwd: Ptrs,
    /// The permission mode.
    pub permission_mode: Ptrs,
    /// The values its `permission_mode` is known to take. `hookc check` warns about a value
    /// outside every agent's list (W0314): the agent owns the set, and a release may add one.
    pub permission_modes: &'static [&'static str],
    /// The session transcript.
    pub transcript: Ptrs,
    /// A subagent's own transcript (SubagentStop).
    pub subagent_transcript: Ptrs,
    /// The prompt's id (Claude Code waits for its transcript to show it).
    pub prompt_id: Ptrs,
    /// The tool's name.
    pub tool_name: Ptrs,
    /// The tool's input: an object, or a JSON text of one.
    pub tool_input: Ptrs,
    /// The call's id.
    pub tool_use_id: Ptrs,
    /// The tool's response (PostToolUse).
    pub tool_response: Ptrs,
    /// Whether the tool failed: `true`, a text other than `success`, or an object (an error).
    pub tool_failed: Ptrs,
    /// Whether the tool succeeded: `false` says it failed (Cline's `success`).
    pub tool_ok: Ptrs,
    /// Why the tool failed (PostToolUseFailure).
    pub error: Ptrs,
    /// The user's prompt.
    pub prompt: Ptrs,
    /// Whether this Stop follows a continuation.
    pub stop_hook_active: Ptrs,
    /// The model's last answer.
    pub last_message: Ptrs,
    /// How a session started.
    pub source: Ptrs,
    /// Why a session ended.
    pub reason: Ptrs,
    /// What triggered a compaction.
    pub trigger: Ptrs,
    /// A notification's text.
    pub message: Ptrs,
    /// The agent's version, where the payload says.
    pub version: Ptrs,
}

impl Payload {
    /// Claude Code's payload, which many agents copy.
    pub const CLAUDE: Payload = Payload {
        event: &["/hook_event_name"],
        session: &["/session_id"],
        cwd: &["/cwd"],
        permission_mode: &["/permission_mode"],
        // Claude Code's modes (its hooks reference, and `--permission-mode`'s values).
        permission_modes: &["default", "plan", "acceptEdits", "auto", "dontAsk", "bypassPermissions"],
        transcript: &["/transcript_path"],
        subagent_transcript: &["/agent_transcript_path"],
        prompt_id: &["/prompt_id"],
        tool_name: &["/tool_name"],
        tool_input: &["/tool_input"],
        tool_use_id: &["/tool_use_id"],
        tool_response: &["/tool_response"],
        tool_failed: &["/tool_response/is_error", "/tool_response/isError"],
        tool_ok: &[],
        error: &["/error"],
        prompt: &["/prompt"],
        stop_hook_active: &["/stop_hook_active"],
        last_message: &["/last_assistant_message"],
        source: &["/source"],
        reason: &["/reason"],
        trigger: &["/trigger"],
        message: &["/message"],
        version: &["/version"],
    };
}

/// How an agent's answers are written: one of these, each implemented once (`adapter::answer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Claude Code's: `hookSpecificOutput` with `permissionDecision`, `updatedInput`,
    /// `updatedToolOutput`, `additionalContext`; `decision: "block"` to continue at Stop.
    /// Codex, Qwen Code, Factory Droid and others speak it, each within its capability rows.
    Claude {
        /// Where a Stop's `decision` goes.
        stop: StopDecision,
        /// How a rewritten tool output reaches the model.
        output: OutputRewrite,
    },
    /// Gemini CLI's: a top-level `decision` and `reason`; stdout is always a JSON object.
    Gemini,
    /// Copilot CLI's camelCase hooks: a top-level `permissionDecision` and
    /// `permissionDecisionReason` before a tool; `decision: "block"` with a `reason` to continue
    /// at `agentStop`.
    Copilot,
    /// Cline's: `{"cancel": true, "errorMessage": …}` refuses (exit 2 does not);
    /// `contextModification` adds context.
    Cline,
    /// Cursor's: `permission` (`allow`, `deny`, `ask`) with `user_message` and `agent_message`
    /// before an action; `followup_message` to continue at `stop`; `continue: false` to refuse a
    /// prompt.
    Cursor,
    /// Exit codes only: exit 2 refuses, with stderr as the reason the model reads; plain text
    /// on stdout is context, where the agent reads it (Windsurf, Kiro CLI).
    ExitCode,
    /// hookc's own plugin inside the agent's process (OpenCode, Kilo): one JSON object,
    /// `{"decision": "deny" | "allow" | "none", "reason"?, "args"?}`; the plugin refuses the call on
    /// anything else.
    Plugin,
}

/// How a Claude Code-style answer gives the model a rewritten tool output (checked on each
/// real client: `updatedToolOutput` works on Claude Code only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputRewrite {
    /// `updatedToolOutput` in the tool's own shape (Claude Code).
    ToolOutput,
    /// `decision: "block"` with the rewritten text as `reason`, which replaces the output
    /// (Codex).
    BlockReason,
    /// `continue: false` with the rewritten text as `stopReason`, which replaces the output; the
    /// turn goes on (Qwen Code).
    StopReason,
    /// None reaches the model: `continue: false` ends the turn before the model reads the
    /// output, which stays in the history (Factory Droid).
    Withhold,
}

/// Where a Stop's continuation goes in a Claude Code-style answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopDecision {
    /// `{"decision": "block", "reason": …}` (Claude Code).
    TopLevel,
    /// Inside `hookSpecificOutput` (VS Code's Stop).
    Nested,
}

impl Answer {
    /// Claude Code's answers.
    pub const CLAUDE: Answer = Answer::Claude { stop: StopDecision::TopLevel, output: OutputRewrite::ToolOutput };

    /// Whether exit 2 blocks the agent's action (for the rest, a failure answers with a
    /// refusal in the agent's own dialect).
    pub fn exit_2_blocks(self) -> bool {
        !matches!(self, Answer::Cline)
    }
}

/// Whether an agent's `stop_hook_active` can be trusted to stop a loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopFlag {
    /// It says true after a continuation, and a Stop that fails with it set may stop.
    Reliable,
    /// It cannot be trusted (Gemini CLI says false again after a continuation that ran a tool):
    /// a Stop that fails always lets the agent stop, and the transcript decides what was
    /// continued.
    Unreliable,
    /// It says true from the first Stop (Qwen Code): where the transcript is read, it alone says
    /// whether the turn was continued; where it cannot be, the flag stands (nothing is forced);
    /// a Stop that fails always lets the agent stop.
    TrueFromTheStart,
}

/// Where an agent tells its hooks the project root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootFrom {
    /// An environment variable it sets for hooks.
    Env(&'static str),
    /// The directory it runs hooks in, when the payload's `cwd` is inside it (Codex runs hooks in
    /// the session's directory, which a command's `workdir` does not move).
    HookDir,
    /// A payload field (the first element of a list).
    Payload(Ptrs),
}

/// Where an agent's transcript is read from at Stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transcript {
    /// How it is written. Every agent's is waited for the same way: until it holds the turn
    /// the Stop payload names (`adapter::transcript`).
    pub dialect: Dialect,
}

/// A transcript dialect (`adapter::transcript` reads each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Claude Code's session JSONL.
    Claude,
    /// Codex's rollout.
    Codex,
    /// Gemini CLI's session JSONL.
    Gemini,
    /// Factory Droid's session JSONL.
    Droid,
    /// Qwen Code's chat JSONL.
    Qwen,
}

/// Where an agent keeps its hook settings.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// How the hooks are written there.
    pub format: SettingsFormat,
    /// Project files it reads hooks from, relative to the project root, with what each is; `init`
    /// writes the first.
    pub project: &'static [(&'static str, &'static str)],
    /// User-wide files, from the agent's home, with what each is; `init --global` writes the first.
    pub user: &'static [(Home, &'static str, &'static str)],
    /// Settings that switch every hook off, by a JSON pointer and the value that does it
    /// (`/disableAllHooks`, `true`): `doctor` reports them, the baseline protects the files.
    pub off_switches: &'static [(&'static str, bool)],
    /// Settings an administrator manages for every user of the machine (absolute paths, with what
    /// each is): `doctor` reports an off-switch there too; `init` never writes them.
    pub managed: &'static [(&'static str, &'static str)],
    /// The variable the agent sets to the project root that a hook command in the project's own
    /// settings may name paths by, so the settings can be committed (`$CLAUDE_PROJECT_DIR`).
    pub project_var: Option<&'static str>,
    /// What the agent's user must trust before a hook runs.
    pub trust: Trust,
    /// Whether a hook command names its event (`hookc hook AGENT --event NAME`): the agent's
    /// payloads do not always say which event they are.
    pub name_event: bool,
    /// What runs the hook command its settings hold, on Linux and macOS.
    pub hook_shell: HookShell,
    /// More files the baseline protects, beyond the settings above and their folders: what
    /// changes which hooks run some other way (a config that lists plugins, a file that moves
    /// where hooks are read from), as globs (`**/opencode.json`, `~/.config/opencode/**`).
    pub protect: &'static [&'static str],
}

/// What an agent runs a hook command with, on Linux and macOS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookShell {
    /// `/bin/sh -c` or `bash -c`, whatever the user's own shell is (read in the agent's source,
    /// and run on the real client where it runs here): the command `init` writes reads the
    /// project's launcher into that shell.
    Posix,
    /// Not known to be a POSIX shell: the user's login shell, which may be zsh or fish (Codex),
    /// an interpreter of the agent's own (Crush), or closed source (Cursor, Windsurf, Kiro). The
    /// command starts `sh -c` of its own, so that it means the same whatever runs it.
    Unknown,
}

impl Settings {
    /// Claude Code's layout with nothing in it: no files, no switches, nothing to trust.
    pub const BASE: Settings = Settings {
        format: SettingsFormat::Claude { any_tool: "*", timeout: TimeUnit::Seconds },
        project: &[],
        user: &[],
        off_switches: &[],
        managed: &[],
        project_var: None,
        trust: Trust::Workspace,
        name_event: false,
        hook_shell: HookShell::Unknown,
        protect: &[],
    };
}

/// What an agent's user must trust before its hooks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    /// Nothing beyond the agent's own workspace prompt.
    Workspace,
    /// Each hook by a hash of its command, in `$CODEX_HOME/config.toml`, and a project's hooks
    /// file only in a trusted project (Codex).
    CodexHooks,
    /// A project's hooks run only in a trusted folder.
    Folders(FolderTrust),
}

/// Where an agent records the folders its user trusted, in a JSON file of its home (which may
/// carry `//` comments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FolderTrust {
    /// The agent's home.
    pub home: Home,
    /// The file in it.
    pub file: &'static str,
    /// How the file records a trusted folder.
    pub list: FolderList,
    /// A user setting that turns the check off (a JSON pointer, the value that does), in the
    /// agent's user or managed settings.
    pub off: Option<(&'static str, bool)>,
}

/// How an agent's file records its trusted folders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FolderList {
    /// A list of folders under one of these keys (the first is the one the agent writes): each
    /// folder and everything under it is trusted (Copilot CLI's `trustedFolders`).
    Keys(&'static [&'static str]),
    /// An object from a path to `TRUST_FOLDER` (it and everything under it), `TRUST_PARENT` (its
    /// parent and everything under that) or `DO_NOT_TRUST`; the longest path that holds decides
    /// (Gemini CLI's `trustedFolders.json`).
    Levels,
}

/// Where an agent's user-wide files are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Home {
    /// Under the user's home directory.
    User,
    /// Under the directory this variable names, else under this folder of the user's home
    /// (`$CODEX_HOME`, else `~/.codex`).
    Env(&'static str, &'static str),
}

/// How hooks are written in an agent's settings: one of these, each implemented once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsFormat {
    /// `{"hooks": {EVENT: [{"matcher": …, "hooks": [{"type": "command", "command": …,
    /// "timeout": …}]}]}}`, with a matcher for tool events.
    Claude {
        /// The matcher that takes every tool.
        any_tool: &'static str,
        /// The unit the timeout is written in.
        timeout: TimeUnit,
    },
    /// `{"version": 1, "hooks": {EVENT: [{"type": "command", "bash": …, "powershell": …,
    /// "timeoutSec": …}]}}` (Copilot CLI and the cloud agent; VS Code reads it too).
    Copilot,
    /// `{"hooks": {EVENT: [{"type": "command", "command": …, "timeout": …}]}}` (VS Code's own
    /// `.github/hooks/*.json`).
    VsCode,
    /// `{"version": 1, "hooks": {EVENT: [{"command": …}]}}` (Cursor).
    Cursor,
    /// `{"hooks": {EVENT: [{"command": …, "show_output": true}]}}` (Windsurf).
    Windsurf,
    /// `{"hooks": {EVENT: [{"matcher": "*", "command": …, "timeout_ms": …}]}}` in an agent
    /// configuration (Kiro CLI).
    Kiro,
    /// `{"hooks": {EVENT: [{"matcher": REGEX, "command": …, "timeout": …}]}}` (Crush: flat
    /// entries, regex matchers).
    Crush,
    /// One executable file per event, named after it, in the project file's folder (Cline).
    Scripts,
    /// hookc's plugin, one JavaScript file that runs the hook command (OpenCode, Kilo): the
    /// template in OpenCode's folder (`agents/opencode/plugin.js`), which `init` fills in.
    Plugin,
}

/// The unit a settings file writes a hook's timeout in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// Seconds.
    Seconds,
    /// Milliseconds.
    Millis,
}

/// An answer a hook gives the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKind {
    /// Refuse the call (`deny`, `block`), or block a compaction.
    Deny,
    /// Ask a person.
    Ask,
    /// Allow without asking.
    Allow,
    /// Run the call with rewritten input (`set`).
    UpdatedInput,
    /// Give the model a rewritten output (`replace`, `truncate`, `redact`).
    UpdatedOutput,
    /// Add context for the model (`context`).
    Context,
    /// Make the agent take one more turn (`continue`).
    Continue,
    /// End the turn (`stop`).
    Stop,
}

impl AnswerKind {
    /// Every answer, in the order of the documentation's columns.
    pub const ALL: [AnswerKind; 8] = [
        AnswerKind::Deny,
        AnswerKind::Ask,
        AnswerKind::Allow,
        AnswerKind::UpdatedInput,
        AnswerKind::UpdatedOutput,
        AnswerKind::Context,
        AnswerKind::Continue,
        AnswerKind::Stop,
    ];

    /// The name used in messages and the documentation.
    pub fn name(self) -> &'static str {
        match self {
            AnswerKind::Deny => "deny",
            AnswerKind::Ask => "ask",
            AnswerKind::Allow => "allow",
            AnswerKind::UpdatedInput => "updated input",
            AnswerKind::UpdatedOutput => "updated output",
            AnswerKind::Context => "context",
            AnswerKind::Continue => "continue",
            AnswerKind::Stop => "stop",
        }
    }

    /// The answer an action gives (`log` gives none: hookc itself writes it).
    pub fn of(action: ActionKind) -> Option<AnswerKind> {
        Some(match action {
            ActionKind::Block | ActionKind::Deny => AnswerKind::Deny,
            ActionKind::Ask => AnswerKind::Ask,
            ActionKind::Allow => AnswerKind::Allow,
            ActionKind::Set => AnswerKind::UpdatedInput,
            ActionKind::Replace | ActionKind::Truncate | ActionKind::Redact => AnswerKind::UpdatedOutput,
            ActionKind::Context => AnswerKind::Context,
            ActionKind::Continue => AnswerKind::Continue,
            ActionKind::Stop => AnswerKind::Stop,
            ActionKind::Log => return None,
        })
    }

    /// Whether the native contract lets a rule give this answer on this event.
    pub fn on(self, event: EventKind) -> bool {
        ActionKind::ALL
            .into_iter()
            .any(|action| AnswerKind::of(action) == Some(self) && action.events().contains(&event))
    }
}

/// How an agent takes an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// As the contract says.
    Honoured,
    /// The agent cannot take it, so hookc gives the safe answer it can, said here.
    Instead(&'static str),
    /// The agent takes no notice of it, for the reason said here.
    Ignored(&'static str),
    /// hookc does not answer the agent at this event (the agent does not fire it, or fires it
    /// in a shape hookc does not read).
    NotFired,
}

/// One capability row: on this event, this answer is taken so.
pub type Departure = (EventKind, AnswerKind, Support);
