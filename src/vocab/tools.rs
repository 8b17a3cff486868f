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

/// Who calls a tool by this name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Agent {
    /// The seed's reference tools (native events, the embedded runtime).
    Seed,
    /// Claude Code.
    Claude,
    /// OpenAI Codex CLI.
    Codex,
    /// Gemini CLI.
    Gemini,
    /// The MCP filesystem server (`mcp__SERVER__TOOL`), on any agent.
    McpFilesystem,
}

impl Agent {
    /// The agent's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Seed => "the seed",
            Agent::Claude => "Claude Code",
            Agent::Codex => "Codex",
            Agent::Gemini => "Gemini CLI",
            Agent::McpFilesystem => "the MCP filesystem server",
        }
    }

    /// The agents whose own tools a rule written for "every agent" must cover.
    pub const AGENTS: [Agent; 4] = [Agent::Seed, Agent::Claude, Agent::Codex, Agent::Gemini];
}

/// Where a semantic name lives in one tool's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// These arguments, in order. For `path`, every one present is a file the call touches
    /// (an array argument holds several); for the others, the first present wins.
    Args(&'static [&'static str]),
    /// The files named by a Codex patch in one of these arguments.
    Patch(&'static [&'static str]),
}

impl Source {
    /// The argument names.
    pub fn args(self) -> &'static [&'static str] {
        match self {
            Source::Args(args) | Source::Patch(args) => args,
        }
    }
}

/// One tool as hookc knows it.
#[derive(Debug, Clone, Copy)]
pub struct Tool {
    /// Its name as the agent sends it (for MCP tools, the name on the server).
    pub name: &'static str,
    /// The agents that have a tool by this name.
    pub agents: &'static [Agent],
    /// What it does.
    pub kind: Kind,
    /// Its profile.
    pub profile: &'static [(Semantic, Source)],
}

use Agent::{Claude, Codex, Gemini, McpFilesystem as McpFs, Seed};
use Semantic::{Command, Content, Path, Pattern, Query, Url};

const FILE_PATH: Source = Source::Args(&["file_path", "path"]);
const SHELL: &[(Semantic, Source)] = &[(Command, Source::Args(&["command"]))];
const PATH_ONLY: &[(Semantic, Source)] = &[(Path, Source::Args(&["path"]))];

/// Every tool hookc knows by name (MCP filesystem tools are looked up by their name on the server).
pub static TOOLS: &[Tool] = &[
    // The seed's tools; Gemini CLI uses some of the same names.
    tool("read_file", &[Seed, Gemini], Kind::Read, &[(Path, Source::Args(&["path", "file_path", "absolute_path"]))]),
    tool(
        "write_file",
        &[Seed, Gemini],
        Kind::Write,
        &[(Path, Source::Args(&["path", "file_path"])), (Content, Source::Args(&["content"]))],
    ),
    tool(
        "edit_file",
        &[Seed],
        Kind::Write,
        &[(Path, Source::Args(&["path", "file_path"])), (Content, Source::Args(&["new_string", "content"]))],
    ),
    tool("bash", &[Seed], Kind::Shell, SHELL),
    // Claude Code.
    tool("Bash", &[Claude, Codex], Kind::Shell, SHELL),
    tool("PowerShell", &[Claude], Kind::Shell, SHELL),
    tool("BashOutput", &[Claude], Kind::Other, &[]),
    tool("KillShell", &[Claude], Kind::Other, &[]),
    tool("Read", &[Claude], Kind::Read, &[(Path, FILE_PATH)]),
    tool("NotebookRead", &[Claude], Kind::Read, &[(Path, Source::Args(&["notebook_path"]))]),
    tool("LS", &[Claude], Kind::Read, PATH_ONLY),
    tool("Write", &[Claude], Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["content"]))]),
    tool("Edit", &[Claude], Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["new_string"]))]),
    tool("MultiEdit", &[Claude], Kind::Write, &[(Path, FILE_PATH)]),
    tool(
        "NotebookEdit",
        &[Claude],
        Kind::Write,
        &[(Path, Source::Args(&["notebook_path"])), (Content, Source::Args(&["new_source"]))],
    ),
    tool("Glob", &[Claude], Kind::Search, &[(Path, Source::Args(&["path"])), (Pattern, Source::Args(&["pattern"]))]),
    // A search reads the files its `glob` / `include` filter names: each filter is judged as a
    // path too (its text: `.env` and `**/*.pem` are caught, wildcards are not expanded).
    tool(
        "Grep",
        &[Claude],
        Kind::Search,
        &[(Path, Source::Args(&["path", "glob"])), (Pattern, Source::Args(&["pattern"]))],
    ),
    tool("WebFetch", &[Claude], Kind::Fetch, &[(Url, Source::Args(&["url"]))]),
    tool("WebSearch", &[Claude], Kind::Fetch, &[(Query, Source::Args(&["query"]))]),
    tool("Task", &[Claude], Kind::Agent, &[]),
    tool("Agent", &[Claude], Kind::Agent, &[]),
    tool("TodoWrite", &[Claude], Kind::Other, &[]),
    tool("ExitPlanMode", &[Claude], Kind::Other, &[]),
    tool("SlashCommand", &[Claude], Kind::Other, &[]),
    tool("Skill", &[Claude], Kind::Other, &[]),
    // Codex.
    tool("shell", &[Codex], Kind::Shell, SHELL),
    tool("local_shell", &[Codex], Kind::Shell, SHELL),
    tool("exec_command", &[Codex], Kind::Shell, &[(Command, Source::Args(&["cmd", "command"]))]),
    // In Codex's protocol too (`ShellCommandToolCallParams`, `ShellToolCallParams`).
    tool("shell_command", &[Codex], Kind::Shell, SHELL),
    tool("container.exec", &[Codex], Kind::Shell, SHELL),
    // Types into a running interactive command: what it types is a command too.
    tool("write_stdin", &[Codex], Kind::Shell, &[(Command, Source::Args(&["chars"]))]),
    tool(
        "apply_patch",
        &[Codex],
        Kind::Write,
        &[
            (Path, Source::Patch(&["command", "input", "patch"])),
            (Content, Source::Args(&["command", "input", "patch"])),
        ],
    ),
    tool("view_image", &[Codex], Kind::Read, PATH_ONLY),
    tool("update_plan", &[Codex], Kind::Other, &[]),
    tool("web_search", &[Codex], Kind::Fetch, &[(Query, Source::Args(&["query"]))]),
    // Gemini CLI.
    tool("run_shell_command", &[Gemini], Kind::Shell, SHELL),
    tool("replace", &[Gemini], Kind::Write, &[(Path, FILE_PATH), (Content, Source::Args(&["new_string"]))]),
    tool("read_many_files", &[Gemini], Kind::Read, &[(Path, Source::Args(&["paths", "include"]))]),
    tool("list_directory", &[Gemini], Kind::Read, &[(Path, Source::Args(&["dir_path", "path"]))]),
    tool(
        "grep_search",
        &[Gemini],
        Kind::Search,
        &[(Path, Source::Args(&["dir_path", "path", "include"])), (Pattern, Source::Args(&["pattern"]))],
    ),
    tool(
        "glob",
        &[Gemini],
        Kind::Search,
        &[(Path, Source::Args(&["dir_path", "path"])), (Pattern, Source::Args(&["pattern"]))],
    ),
    tool(
        "search_file_content",
        &[Gemini],
        Kind::Search,
        &[(Path, Source::Args(&["dir_path", "path", "include"])), (Pattern, Source::Args(&["pattern"]))],
    ),
    tool("web_fetch", &[Gemini], Kind::Fetch, &[(Url, Source::Args(&["url", "prompt"]))]),
    tool("google_web_search", &[Gemini], Kind::Fetch, &[(Query, Source::Args(&["query"]))]),
    tool("save_memory", &[Gemini], Kind::Other, &[]),
    tool("write_todos", &[Gemini], Kind::Other, &[]),
];

/// The MCP filesystem server's tools (`mcp__SERVER__NAME`, whatever the server is called).
pub static MCP_FILESYSTEM: &[Tool] = &[
    tool("read_file", &[McpFs], Kind::Read, PATH_ONLY),
    tool("read_text_file", &[McpFs], Kind::Read, PATH_ONLY),
    tool("read_media_file", &[McpFs], Kind::Read, PATH_ONLY),
    tool("read_multiple_files", &[McpFs], Kind::Read, &[(Path, Source::Args(&["paths"]))]),
    tool(
        "write_file",
        &[McpFs],
        Kind::Write,
        &[(Path, Source::Args(&["path"])), (Content, Source::Args(&["content"]))],
    ),
    tool("edit_file", &[McpFs], Kind::Write, PATH_ONLY),
    tool("create_directory", &[McpFs], Kind::Write, PATH_ONLY),
    tool("move_file", &[McpFs], Kind::Write, &[(Path, Source::Args(&["source", "destination"]))]),
    tool("list_directory", &[McpFs], Kind::Read, PATH_ONLY),
    tool("list_directory_with_sizes", &[McpFs], Kind::Read, PATH_ONLY),
    tool("directory_tree", &[McpFs], Kind::Read, PATH_ONLY),
    tool(
        "search_files",
        &[McpFs],
        Kind::Search,
        &[(Path, Source::Args(&["path"])), (Pattern, Source::Args(&["pattern"]))],
    ),
    tool("get_file_info", &[McpFs], Kind::Read, PATH_ONLY),
    tool("list_allowed_directories", &[McpFs], Kind::Other, &[]),
];

impl Tool {
    /// Where `semantic` lives among this tool's arguments, if its profile has it (`host` is
    /// read from the URL).
    pub fn source(&self, semantic: Semantic) -> Option<Source> {
        let semantic = semantic.stored_as();
        self.profile.iter().find(|(name, _)| *name == semantic).map(|(_, source)| *source)
    }

    /// Whether a call may leave `semantic` out (its argument is optional in the agent's schema).
    pub fn may_omit(&self, semantic: Semantic) -> bool {
        let semantic = semantic.stored_as();
        OPTIONAL.iter().any(|(name, optional)| *name == self.name && *optional == semantic)
    }
}

const fn tool(
    name: &'static str,
    agents: &'static [Agent],
    kind: Kind,
    profile: &'static [(Semantic, Source)],
) -> Tool {
    Tool { name, agents, kind, profile }
}

/// The tool an agent's tool name denotes, if hookc knows it.
pub fn lookup(name: &str) -> Option<&'static Tool> {
    Resolved::of(name).tool
}

/// A tool name resolved once against the vocabulary (evaluation asks it several questions per
/// event: the files a call touches, each profile field, `kind`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Resolved {
    tool: Option<&'static Tool>,
    mcp: bool,
}

impl Resolved {
    /// Resolves a tool name: one hash lookup in a table built once (evaluation resolves every
    /// call's tool, so this is on the hot path).
    pub fn of(name: &str) -> Resolved {
        type Table = rustc_hash::FxHashMap<&'static str, &'static Tool>;
        static KNOWN: std::sync::OnceLock<(Table, Table)> = std::sync::OnceLock::new();
        let (tools, mcp) = KNOWN.get_or_init(|| {
            let table = |tools: &'static [Tool]| tools.iter().map(|tool| (tool.name, tool)).collect::<Table>();
            (table(TOOLS), table(MCP_FILESYSTEM))
        });
        match mcp_parts(name) {
            Some((_, on_server)) => Resolved { tool: mcp.get(on_server).copied(), mcp: true },
            None => Resolved { tool: tools.get(name).copied(), mcp: false },
        }
    }

    /// The tool, if hookc knows it.
    pub fn tool(self) -> Option<&'static Tool> {
        self.tool
    }

    /// The call's kind: the vocabulary's, `mcp` for other MCP tools, else `other`.
    pub fn kind(self) -> Kind {
        match self.tool {
            Some(tool) => tool.kind,
            None if self.mcp => Kind::Mcp,
            None => Kind::Other,
        }
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

/// Profile fields some tools may leave out (their argument is optional in the agent's schema).
const OPTIONAL: &[(&str, Semantic)] = &[
    ("Glob", Semantic::Path),
    ("Grep", Semantic::Path),
    ("LS", Semantic::Path),
    ("glob", Semantic::Path),
    ("grep_search", Semantic::Path),
    ("search_file_content", Semantic::Path),
    ("list_directory", Semantic::Path),
    ("read_many_files", Semantic::Path),
    ("web_fetch", Semantic::Url),
];

/// The argument in which a shell tool names the directory its command runs in: Codex's
/// `workdir`, Gemini CLI's `dir_path` (`directory` in older releases). Claude Code's `Bash` has
/// none (its commands run where the session is).
pub fn shell_dir_args(tool: &str) -> &'static [&'static str] {
    match tool {
        "shell" | "exec_command" | "local_shell" | "shell_command" | "container.exec" => &["workdir"],
        "run_shell_command" => &["dir_path", "directory"],
        _ => &[],
    }
}

/// The name an agent's hooks know a tool by, for a name its transcript records: Codex runs
/// `exec_command` (and `shell`, `local_shell`, `shell_command`, `container.exec`) through its hooks as `Bash`, with the
/// command line as `command` (captured from Codex 0.169). Others are their own.
pub fn hook_name(tool: &str) -> &str {
    match tool {
        "exec_command" | "shell" | "local_shell" | "shell_command" | "container.exec" => "Bash",
        other => other,
    }
}

/// `mcp__github__create_issue` → (`github`, `create_issue`).
pub fn mcp_parts(tool: &str) -> Option<(&str, &str)> {
    let rest = tool.strip_prefix("mcp__")?;
    let (server, name) = rest.split_once("__")?;
    (!server.is_empty() && !name.is_empty()).then_some((server, name))
}

/// Every tool name the agents send (for "did you mean" and docs), each once.
pub fn known_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = TOOLS.iter().map(|tool| tool.name).collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The known tools of `kind` per agent, for messages (`Claude Code: Bash, PowerShell`).
pub fn tools_of_kind(kind: Kind) -> Vec<(Agent, Vec<&'static str>)> {
    Agent::AGENTS
        .into_iter()
        .map(|agent| {
            let names =
                TOOLS.iter().filter(|tool| tool.kind == kind && tool.agents.contains(&agent)).map(|tool| tool.name);
            (agent, names.collect::<Vec<_>>())
        })
        .filter(|(_, names)| !names.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_of(name: &str) -> Kind {
        Resolved::of(name).kind()
    }

    fn semantic_args(tool: &str, semantic: Semantic) -> &'static [&'static str] {
        Resolved::of(tool).source(semantic).map_or(&[], Source::args)
    }

    #[test]
    fn every_agent_has_a_shell_and_a_write_tool() {
        for kind in [Kind::Shell, Kind::Write] {
            let agents: Vec<Agent> = tools_of_kind(kind).into_iter().map(|(agent, _)| agent).collect();
            assert_eq!(agents, Agent::AGENTS, "{kind:?}");
        }
    }

    #[test]
    fn kinds_and_profiles() {
        assert_eq!(kind_of("Bash"), Kind::Shell);
        assert_eq!(kind_of("run_shell_command"), Kind::Shell);
        assert_eq!(kind_of("apply_patch"), Kind::Write);
        assert_eq!(kind_of("mcp__fs__move_file"), Kind::Write);
        assert_eq!(kind_of("mcp__github__create_issue"), Kind::Mcp);
        assert_eq!(kind_of("my_tool"), Kind::Other);
        assert_eq!(semantic_args("Write", Semantic::Path), &["file_path", "path"]);
        assert_eq!(semantic_args("NotebookEdit", Semantic::Path), &["notebook_path"]);
        assert!(semantic_args("Bash", Semantic::Path).is_empty());
        assert_eq!(semantic_args("my_tool", Semantic::Url), &["url"]);
        assert_eq!(semantic_args("mcp__fs__move_file", Semantic::Path), &["source", "destination"]);
    }

    #[test]
    fn names_are_unique_per_agent() {
        for agent in Agent::AGENTS {
            let mut names: Vec<&str> =
                TOOLS.iter().filter(|tool| tool.agents.contains(&agent)).map(|tool| tool.name).collect();
            let count = names.len();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), count, "{agent:?}");
        }
    }
}
