//! The tool vocabulary: every tool hookc knows, on every agent, with its [`Kind`] and its
//! profile — where each semantic name (`path`, `command`, …) lives among its arguments. One
//! table serves evaluation (profile fields, `kind`), the checker (unknown or one-agent tool
//! names, fields a tool lacks) and the docs.

use super::Semantic;

/// What a tool call does, across agents: `kind == write` governs Claude Code's `Write`, Gemini
/// CLI's `replace`, a Codex patch and the MCP filesystem server's `move_file` alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Runs a shell command.
    Shell,
    /// Reads files or lists directories.
    Read,
    /// Creates, edits, moves or deletes files.
    Write,
    /// Searches file names or contents.
    Search,
    /// Reaches the network (fetch a URL, search the web).
    Fetch,
    /// An MCP server's tool that is none of the above.
    Mcp,
    /// Starts a subagent.
    Agent,
    /// Anything else (plans, to-do lists, memory).
    Other,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 8] =
        [Kind::Shell, Kind::Read, Kind::Write, Kind::Search, Kind::Fetch, Kind::Mcp, Kind::Agent, Kind::Other];

    /// The name in rules.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Shell => "shell",
            Kind::Read => "read",
            Kind::Write => "write",
            Kind::Search => "search",
            Kind::Fetch => "fetch",
            Kind::Mcp => "mcp",
            Kind::Agent => "agent",
            Kind::Other => "other",
        }
    }

    /// The kind with this name.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// Where a semantic name lives in one tool's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// These arguments, in order. For `path`, every one present is a file the call touches
    /// (an array argument holds several); for the others, the first present wins.
    Args(&'static [&'static str]),
    /// The files named by a Codex patch in one of these arguments.
    Patch(&'static [&'static str]),
    /// A list of command lines in one of these arguments, run one after another (Cline's
    /// `run_commands`): read as one script, a line a command, never as one argv.
    Lines(&'static [&'static str]),
}

impl Source {
    /// The argument names.
    pub fn args(self) -> &'static [&'static str] {
        match self {
            Source::Args(args) | Source::Patch(args) | Source::Lines(args) => args,
        }
    }
}

/// One tool as hookc knows it. Each agent lists its own (`vocab::agents`): a name means what
/// that agent means by it (`edit` takes other arguments on Copilot CLI than on OpenCode).
#[derive(Debug, Clone, Copy)]
pub struct Tool {
    /// Its name as the agent sends it (for MCP tools, the name on the server).
    pub name: &'static str,
    /// What it does.
    pub kind: Kind,
    /// Its profile.
    pub profile: &'static [(Semantic, Source)],
    /// Profile fields a call may leave out (their argument is optional in the agent's schema).
    pub optional: &'static [Semantic],
    /// For a shell tool, the arguments naming the directory its command runs in (Codex's
    /// `workdir`, Gemini CLI's `dir_path`), where relative paths start.
    pub workdir: &'static [&'static str],
    /// For a shell tool, whether its command is PowerShell (Claude Code's `PowerShell`) rather
    /// than a POSIX shell's.
    pub powershell: bool,
}

/// The profile of a tool whose command is its `command` argument.
pub const SHELL: &[(Semantic, Source)] = &[(Semantic::Command, Source::Args(&["command"]))];
impl Tool {
    /// Where `semantic` lives among this tool's arguments, if its profile has it (`host` is
    /// read from the URL).
    pub fn source(&self, semantic: Semantic) -> Option<Source> {
        let semantic = semantic.stored_as();
        self.profile.iter().find(|(name, _)| *name == semantic).map(|(_, source)| *source)
    }

    /// Whether a call may leave `semantic` out (its argument is optional in the agent's schema).
    pub fn may_omit(&self, semantic: Semantic) -> bool {
        self.optional.contains(&semantic.stored_as())
    }

    /// The same tool, whose profile fields `optional` may be left out.
    pub const fn optional(self, optional: &'static [Semantic]) -> Tool {
        Tool { optional, ..self }
    }

    /// The same shell tool, whose command runs in the directory one of `args` names.
    pub const fn workdir(self, workdir: &'static [&'static str]) -> Tool {
        Tool { workdir, ..self }
    }

    /// The same shell tool, whose command is PowerShell.
    pub const fn powershell(self) -> Tool {
        Tool { powershell: true, ..self }
    }
}

/// A tool of this kind and profile (every profile field required, no working directory).
pub const fn tool(name: &'static str, kind: Kind, profile: &'static [(Semantic, Source)]) -> Tool {
    Tool { name, kind, profile, optional: &[], workdir: &[], powershell: false }
}

/// A tool name resolved once against the vocabulary (evaluation asks it several questions per
/// event: the files a call touches, each profile field, `kind`); `vocab::agents::resolve` makes
/// one from the agent and the name.
#[derive(Debug, Clone, Copy, Default)]
pub struct Resolved {
    tool: Option<&'static Tool>,
    mcp: Option<Mcp>,
}

/// What an MCP tool's server is.
#[derive(Debug, Clone, Copy)]
enum Mcp {
    /// A server of `vocab::mcp`'s table.
    Known(&'static super::mcp::Server),
    /// One it does not know.
    Unknown,
}

impl Resolved {
    /// A name that resolved to `tool` (`None`: a tool hookc does not know), not an MCP tool.
    pub fn new(tool: Option<&'static Tool>) -> Resolved {
        Resolved { tool, mcp: None }
    }

    /// An MCP tool (`mcp__SERVER__TOOL`), resolved against its server's row in `vocab::mcp`,
    /// or, for a server the table does not know, any row's tool of that name.
    pub fn mcp(server: &str, on_server: &str) -> Resolved {
        let known = super::mcp::server(server);
        let mcp = known.map_or(Mcp::Unknown, Mcp::Known);
        Resolved { tool: super::mcp::tool_of(known, on_server), mcp: Some(mcp) }
    }

    /// The tool, if hookc knows it.
    pub fn tool(self) -> Option<&'static Tool> {
        self.tool
    }

    /// For an MCP tool of a server `vocab::mcp` knows, that server.
    pub fn mcp_server(self) -> Option<&'static super::mcp::Server> {
        match self.mcp {
            Some(Mcp::Known(server)) => Some(server),
            _ => None,
        }
    }

    /// Whether this is an MCP tool of a server `vocab::mcp` does not know.
    pub fn unknown_server(self) -> bool {
        matches!(self.mcp, Some(Mcp::Unknown))
    }

    /// The call's kind: the vocabulary's, `mcp` for other MCP tools, else `other`.
    pub fn kind(self) -> Kind {
        match self.tool {
            Some(tool) => tool.kind,
            None if self.mcp.is_some() => Kind::Mcp,
            None => Kind::Other,
        }
    }

    /// The arguments naming where a shell tool's command runs (none for other tools).
    pub fn workdir(self) -> &'static [&'static str] {
        self.tool.map_or(&[], |tool| tool.workdir)
    }

    /// Whether a shell tool's command is PowerShell.
    pub fn powershell(self) -> bool {
        self.tool.is_some_and(|tool| tool.powershell)
    }

    /// Where `semantic` lives: the profile's source, nothing if the profile lacks it, or the
    /// argument named like the semantic field for a tool hookc does not know.
    pub fn source(self, semantic: Semantic) -> Option<Source> {
        match self.tool {
            Some(known) => known.source(semantic),
            None => Some(Source::Args(semantic.fallback_args())),
        }
    }

    /// The raw value of `semantic` in a call's arguments: the first of its source's arguments
    /// that is present and not `null`.
    pub fn value(
        self,
        semantic: Semantic,
        args: &serde_json::Map<String, serde_json::Value>,
    ) -> Option<&serde_json::Value> {
        let names = self.source(semantic).map_or(&[][..], Source::args);
        names.iter().find_map(|name| args.get(*name).filter(|value| !value.is_null()))
    }
}

/// `mcp__github__create_issue` → (`github`, `create_issue`).
pub fn mcp_parts(tool: &str) -> Option<(&str, &str)> {
    let rest = tool.strip_prefix("mcp__")?;
    let (server, name) = rest.split_once("__")?;
    (!server.is_empty() && !name.is_empty()).then_some((server, name))
}
