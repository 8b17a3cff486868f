//! The agents hookc answers, one folder each under `agents/` at the repository root, whose
//! `agent.rs` is the agent's data ([`schema`] says what it holds). This one table is what the
//! adapters, `hookc check --agent`, `init`, `doctor`, `docs/agents.md` and the baseline's
//! `agent_settings` read. Adding an agent is its folder and one line in the list below
//! (agents/README.md).

pub mod schema;

pub use schema::{Agent, AnswerKind, EventSpec, Support};

use crate::vocab::tools::{self, Kind, Resolved, Tool};
use crate::vocab::EventKind;

/// The agents, one folder each under `agents/` at the repository root (agents/README.md). A
/// folder's `agent.rs` is its data, compiled here as `folders::ID::agent`; the rest of the folder
/// is compiled or read by the layer each file belongs to.
macro_rules! agents {
    ($($(#[$only:meta])* $id:ident,)*) => {
        #[path = "../../../../../agents"]
        mod folders {
            $(
                $(#[$only])*
                pub(super) mod $id {
                    pub(in crate::vocab::agents) mod agent;
                }
            )*
            pub(super) mod native {
                pub(in crate::vocab::agents) mod agent;
            }
        }
        /// Every agent hookc answers over its hook protocol, in the order the docs list them.
        pub static AGENTS: &[&Agent] = &[$($(#[$only])* &folders::$id::agent::AGENT,)*];
    };
}

// The list: adding an agent is its folder and one line here.
agents! {
    claude,
    codex,
    gemini,
    copilot,
    vscode,
    cursor,
    windsurf,
    cline,
    kiro,
    opencode,
    kilo,
    droid,
    qwen,
    augment,
    crush,
    // A made-up agent that shows what adding one takes (tests/example-agent.sh).
    #[cfg(feature = "example-agent")]
    example,
}

/// The seed's own tools: what a native event without `agent` (the reference loop, `hookc eval`)
/// calls.
pub static NATIVE: &Agent = &folders::native::agent::AGENT;

/// The agents whose tool names a native event without `agent` may use as well, in this order:
/// the names every release so far has read in native events and rule tests (`tool: Bash`).
/// Their names do not clash; newer agents' (`edit`, `write`) mean different things on each, so
/// a native event names its agent to use them.
const NATIVE_FALLBACK: [&Agent; 3] =
    [&folders::claude::agent::AGENT, &folders::codex::agent::AGENT, &folders::gemini::agent::AGENT];

/// The agent with this id or alias (`native` is the seed's).
pub fn find(name: &str) -> Option<&'static Agent> {
    AGENTS.iter().copied().chain([NATIVE]).find(|agent| agent.id == name || agent.aliases.contains(&name))
}

/// Every agent's id, the seed's (`native`) last: the values of the `agent` field.
pub fn ids() -> Vec<&'static str> {
    AGENTS.iter().copied().chain([NATIVE]).map(|agent| agent.id).collect()
}

/// Every id and alias, for messages and "did you mean".
pub fn names() -> Vec<&'static str> {
    AGENTS.iter().flat_map(|agent| std::iter::once(agent.id).chain(agent.aliases.iter().copied())).collect()
}

/// What a tool name means on an agent: that agent's tool by the name (an MCP tool by its name on
/// the server); for a native event, or an agent hookc does not know, the seed's tool, then the
/// fallback agents' (Claude Code, Codex and Gemini CLI, whose names every release has read there).
pub fn resolve(agent: Option<&str>, name: &str) -> Resolved {
    if let Some((server, on_server)) = tools::mcp_parts(name) {
        return Resolved::mcp(server, on_server);
    }
    let known = match agent.and_then(find).filter(|agent| *agent != NATIVE) {
        Some(agent) => agent.tool(name),
        None => native_tools().get(name).copied(),
    };
    Resolved::new(known)
}

/// The tools a native event resolves against, the first of a name winning: one hash lookup in
/// a table built once (the in-process runtime resolves every event's tool).
fn native_tools() -> &'static rustc_hash::FxHashMap<&'static str, &'static Tool> {
    static TABLE: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, &'static Tool>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = rustc_hash::FxHashMap::default();
        for tool in std::iter::once(NATIVE).chain(NATIVE_FALLBACK).flat_map(|agent| agent.tools.iter()) {
            table.entry(tool.name).or_insert(tool);
        }
        table
    })
}

/// Every agent's tool by this name (for the checker: a rule's `tool == NAME` may be meant for
/// any agent), the seed's first.
pub fn tools_named(name: &str) -> Vec<(&'static Agent, &'static Tool)> {
    std::iter::once(NATIVE)
        .chain(AGENTS.iter().copied())
        .filter_map(|agent| agent.tool(name).map(|tool| (agent, tool)))
        .collect()
}

/// Every tool of every agent, the seed's first (a tool several agents share appears for each).
pub fn every_tool() -> impl Iterator<Item = &'static Tool> {
    std::iter::once(NATIVE).chain(AGENTS.iter().copied()).flat_map(|agent| agent.tools.iter())
}

/// Every tool name any agent sends, each once, sorted (for "did you mean").
pub fn tool_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = every_tool().map(|tool| tool.name).collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The tools of `kind` per agent (the seed's first), for messages (`Claude Code: Bash, PowerShell`).
pub fn tools_of_kind(kind: Kind) -> Vec<(&'static Agent, Vec<&'static str>)> {
    std::iter::once(NATIVE)
        .chain(AGENTS.iter().copied())
        .map(|agent| (agent, agent.tools.iter().filter(|tool| tool.kind == kind).map(|tool| tool.name).collect()))
        .filter(|(_, names): &(_, Vec<&str>)| !names.is_empty())
        .collect()
}

impl Agent {
    /// The variables the agent sets to the project root for its hooks, in the order a hook
    /// reads them (`CLAUDE_PROJECT_DIR`).
    pub fn root_vars(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.project_root.iter().filter_map(|from| match from {
            schema::RootFrom::Env(var) => Some(*var),
            _ => None,
        })
    }

    /// This agent's tool by this name.
    pub fn tool(&self, name: &str) -> Option<&'static Tool> {
        // Each agent's tools are few: a linear scan is a few string compares, and needs no
        // table built at start (every hook call is a new process).
        self.tools.iter().find(|tool| tool.name == name)
    }

    /// The event spec for the agent's name for an event.
    pub fn event(&self, name: &str) -> Option<&'static EventSpec> {
        self.events.iter().find(|spec| spec.name == name)
    }

    /// The agent's name for a native event (the first it wires), if it fires it.
    pub fn event_name(&self, event: EventKind) -> Option<&'static str> {
        self.events.iter().find(|spec| spec.kind == event && spec.wired).map(|spec| spec.name)
    }

    /// How this agent takes an answer on an event it fires under `name` (its own rows first,
    /// then the agent's for the event's kind).
    pub fn support_at(&self, name: &str, event: EventKind, answer: AnswerKind) -> Support {
        let own = self.event(name).and_then(|spec| spec.departures.iter().find(|(given, _)| *given == answer));
        match own {
            Some((_, support)) => *support,
            None => self.support(event, answer),
        }
    }

    /// How this agent takes an answer on an event, on every name it fires the event under
    /// unless one of them says otherwise ([`Agent::support_at`]).
    pub fn support(&self, event: EventKind, answer: AnswerKind) -> Support {
        if !self.events.iter().any(|spec| spec.kind == event) {
            return Support::NotFired;
        }
        self.departures
            .iter()
            .find(|(at, given, _)| *at == event && *given == answer)
            .map_or(Support::Honoured, |(_, _, support)| *support)
    }

    /// The name its hooks know a tool by, for a name its transcript records.
    pub fn hook_tool_name<'a>(&self, recorded: &'a str) -> &'a str {
        match self.transcript_tools.iter().find(|(name, _)| *name == recorded) {
            Some((_, hooked)) => hooked,
            None => recorded,
        }
    }
}

/// The paths every agent's settings give hooks from, as the baseline's `let agent_settings`
/// protects them (`rules/files.rules`, the region a test regenerates from this): each project
/// file anywhere (`**/.claude/settings.json`) and the folders that hold it, each user file and
/// its folders under `~` (and under the variable that moves them: `$CODEX_HOME/hooks.json`), a folder of
/// hook files with everything in it, the managed files, the folder-trust file, and what the
/// agent's data adds (`Settings::protect`: configs that list plugins, sandboxes). In the order of
/// the docs, each path once.
pub fn protected_paths() -> Vec<String> {
    use schema::{Home, Trust};
    let mut paths: Vec<String> = Vec::new();
    let mut add = |path: String| {
        if !paths.contains(&path) {
            paths.push(path);
        }
    };
    // A path and every folder it lies in, under a root (`**/`, `~/`, `$VAR/`).
    fn with_folders(root: &str, path: &str, add: &mut dyn FnMut(String)) {
        let folders: Vec<&str> = path.match_indices('/').map(|(at, _)| &path[..at]).collect();
        for folder in folders {
            add(format!("{root}{folder}"));
        }
        add(format!("{root}{path}"));
        // A folder of hook files (Cline's) is protected with every file in it.
        if std::path::Path::new(path).extension().is_none() {
            add(format!("{root}{path}/**"));
        }
    }
    for agent in AGENTS {
        let settings = &agent.settings;
        for (path, _) in settings.project {
            with_folders("**/", path, &mut add);
        }
        let homes = settings.user.iter().map(|(home, path, _)| (*home, *path));
        let trust = match settings.trust {
            Trust::Folders(trust) => Some((trust.home, trust.file)),
            _ => None,
        };
        for (home, path) in homes.chain(trust) {
            match home {
                Home::User => with_folders("~/", path, &mut add),
                Home::Env(var, fallback) => {
                    with_folders("~/", &format!("{fallback}/{path}"), &mut add);
                    add(format!("${var}"));
                    with_folders(&format!("${var}/"), path, &mut add);
                }
            }
        }
        for (path, _) in settings.managed {
            add(path.to_string());
        }
        for path in settings.protect {
            add(path.to_string());
        }
    }
    paths
}

/// The agents as Markdown: one row each, with what `hookc init` writes, how the agent is
/// answered, what it does with a failing hook, and where the facts come from.
pub fn overview() -> String {
    use schema::SettingsFormat;
    let mut out = String::from(
        "| agent | hook command | `hookc init` writes | events wired | exit 2 blocks | another exit / hookc missing / a timeout | checked on |\n|---|---|---|---|---|---|---|\n",
    );
    for agent in AGENTS {
        let written = agent.settings.project.first().map_or("—", |(path, _)| path);
        let how = match agent.settings.format {
            SettingsFormat::Scripts => " (a script per event)",
            SettingsFormat::Plugin => " (hookc's plugin)",
            _ => "",
        };
        let events: Vec<&str> = agent.events.iter().filter(|spec| spec.wired).map(|spec| spec.name).collect();
        let failure = agent.on_failure;
        let checked = match agent.sources.first() {
            Some(source) if source.starts_with("real client: ") => {
                source.trim_start_matches("real client: ").split(',').next().unwrap_or_default().to_string()
            }
            _ => "its documentation (does not run here)".to_string(),
        };
        out.push_str(&format!(
            "| {} | `hookc hook {}` | `{written}`{how} | {} | {} | {} / {} / {} | {checked} |\n",
            agent.name,
            agent.id,
            events.join(", "),
            if agent.answer.exit_2_blocks() { "yes" } else { "**no**: hookc answers with a refusal" },
            failure.other_exit.name(),
            failure.missing.name(),
            failure.timeout.name(),
        ));
    }
    out.push_str("\nWhere the facts come from, per agent:\n\n");
    for agent in AGENTS {
        out.push_str(&format!("- **{}**: {}.\n", agent.name, agent.sources.join("; ")));
    }
    out
}

/// Every known tool by kind as Markdown: a row per kind, each agent's tools of that kind.
pub fn kinds() -> String {
    let mut out = String::from("| kind | tools |\n|---|---|\n");
    for kind in Kind::ALL {
        let mut cells: Vec<String> = tools_of_kind(kind)
            .into_iter()
            .map(|(agent, names)| format!("{} `{}`", agent.name, names.join("`, `")))
            .collect();
        for server in crate::vocab::mcp::SERVERS {
            let names: Vec<&str> = server.tools.iter().filter(|tool| tool.kind == kind).map(|tool| tool.name).collect();
            let sql =
                kind == Kind::Mcp && server.tools.iter().any(|tool| tool.source(super::Semantic::Command).is_some());
            match (names.is_empty(), sql) {
                (true, _) => {}
                (false, true) => cells.push(format!(
                    "the MCP {} server's `{}` (their SQL is `command`)",
                    server.name,
                    names.join("`, `")
                )),
                (false, false) => cells.push(format!("the MCP {} server's `{}`", server.name, names.join("`, `"))),
            }
        }
        match kind {
            Kind::Mcp => cells.push("any other `mcp__SERVER__TOOL`".to_string()),
            Kind::Other => cells.push("tools no table knows".to_string()),
            _ => {}
        }
        out.push_str(&format!("| `{}` | {} |\n", kind.name(), cells.join("; ")));
    }
    out
}

/// The capability table as Markdown: per agent, per event it fires, every answer the contract
/// allows there and how the agent takes it.
pub fn markdown() -> String {
    let mut out = String::new();
    for agent in AGENTS {
        out.push_str(&format!("### {}\n\n| event | answer | taken as |\n|---|---|---|\n", agent.name));
        for spec in agent.events.iter().filter(|spec| spec.wired) {
            for answer in AnswerKind::ALL.into_iter().filter(|answer| answer.on(spec.kind)) {
                let support = match agent.support_at(spec.name, spec.kind, answer) {
                    Support::Honoured => "honoured".to_string(),
                    Support::Instead(how) => format!("instead: {how}"),
                    Support::Ignored(why) => format!("ignored: {why}"),
                    Support::NotFired => continue,
                };
                out.push_str(&format!("| {} (`{}`) | {} | {support} |\n", spec.name, spec.kind.name(), answer.name()));
            }
        }
        let missing: Vec<&str> = EventKind::ALL
            .iter()
            .filter(|event| agent.event_name(**event).is_none())
            .map(|event| event.name())
            .collect();
        if !missing.is_empty() {
            out.push_str(&format!("\nNot answered at: `{}`.\n", missing.join("`, `")));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::tools::Source;
    use crate::vocab::Semantic;

    fn kind_of(agent: Option<&str>, name: &str) -> Kind {
        resolve(agent, name).kind()
    }

    fn semantic_args(agent: Option<&str>, tool: &str, semantic: Semantic) -> &'static [&'static str] {
        resolve(agent, tool).source(semantic).map_or(&[], Source::args)
    }

    #[test]
    fn every_agent_has_a_shell_and_a_write_tool() {
        for agent in AGENTS.iter().copied().chain([NATIVE]) {
            for kind in [Kind::Shell, Kind::Write] {
                assert!(agent.tools.iter().any(|tool| tool.kind == kind), "{} has no {kind:?} tool", agent.id);
            }
        }
    }

    #[test]
    fn tools_resolve_by_agent_and_name() {
        assert_eq!(kind_of(None, "Bash"), Kind::Shell);
        assert_eq!(kind_of(Some("gemini"), "run_shell_command"), Kind::Shell);
        assert_eq!(kind_of(Some("codex"), "apply_patch"), Kind::Write);
        assert_eq!(kind_of(Some("claude"), "mcp__fs__move_file"), Kind::Write);
        assert_eq!(kind_of(None, "mcp__github__create_issue"), Kind::Mcp);
        assert_eq!(kind_of(None, "my_tool"), Kind::Other);
        // A name is the agent's own: Gemini CLI has no `Write`.
        assert_eq!(kind_of(Some("gemini"), "Write"), Kind::Other);
        assert_eq!(semantic_args(None, "Write", Semantic::Path), &["file_path", "path"]);
        assert_eq!(semantic_args(None, "NotebookEdit", Semantic::Path), &["notebook_path"]);
        assert!(semantic_args(None, "Bash", Semantic::Path).is_empty());
        assert_eq!(semantic_args(None, "my_tool", Semantic::Url), &["url"]);
        assert_eq!(semantic_args(None, "mcp__fs__move_file", Semantic::Path), &["source", "destination"]);
    }

    #[test]
    fn names_are_unique_per_agent() {
        for agent in AGENTS.iter().copied().chain([NATIVE]) {
            let mut names: Vec<&str> = agent.tools.iter().map(|tool| tool.name).collect();
            let count = names.len();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), count, "{}", agent.id);
            let mut events: Vec<&str> = agent.events.iter().map(|spec| spec.name).collect();
            events.sort_unstable();
            events.dedup();
            assert_eq!(events.len(), agent.events.len(), "{}", agent.id);
        }
        let mut ids = names();
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "agent ids and aliases are unique");
    }

    #[test]
    fn every_implied_tool_is_the_agents_own() {
        for agent in AGENTS {
            for spec in agent.events {
                if let schema::Call::Implied { tool, .. } = spec.call {
                    assert!(agent.tool(tool).is_some(), "{}: {} implies unknown tool {tool}", agent.id, spec.name);
                }
            }
            for guest in agent.guests {
                assert!(find(guest).is_some_and(|guest| !guest.signature.is_empty()), "{}: guest {guest}", agent.id);
            }
        }
    }
}
