//! MCP servers: one row per common server, its tools that are another kind than `mcp` (a file
//! write, a read, a fetch, a shell) with where their paths, URLs and commands live, and the
//! service its calls go to, so that the rules on `kind`, `path`, `egress` and `runs` hold of an
//! MCP tool as of the agent's own. Adding a server is one row here.
//!
//! A tool is named `mcp__SERVER__TOOL`, SERVER being the name the user configured, which is
//! usually the server's (`github`, `mcp-server-fetch`, `playwright-mcp`; Claude Code's plugins'
//! `plugin_NAME_SERVER` and claude.ai's connectors' `claude_ai_NAME`): [`server`] reads it
//! without those affixes. A tool of a server the table does not know is read as the filesystem's
//! or a database's tool of its name (an unknown server's `write_file`), else as `mcp`, and the
//! audit record marks the server unknown (`hookc doctor` lists them).

use super::tools::{tool, Source, Tool, SHELL};
use super::{Kind, Semantic};
use Semantic::{Content, Path, Pattern, Query, Url};

/// One MCP server as hookc knows it.
#[derive(Debug)]
pub struct Server {
    /// Its name, as it is usually configured.
    pub name: &'static str,
    /// Other names it is configured under.
    pub aliases: &'static [&'static str],
    /// Its tools that are another kind than `mcp`, or whose arguments rules read (a database's
    /// SQL); the rest are `mcp`, their every argument read for paths and URLs.
    pub tools: &'static [Tool],
    /// The host every call of the server goes to (a hosted service's API), which `egress` lists
    /// with the URLs in the call's arguments; `None` for a server that works on the machine or
    /// goes where its arguments say.
    pub service: Option<&'static str>,
}

const PATH_ONLY: &[(Semantic, Source)] = &[(Path, Source::Args(&["path"]))];
const URL_ONLY: &[(Semantic, Source)] = &[(Url, Source::Args(&["url"]))];

/// The reference filesystem server's tools (also what an unknown server's tools of these names
/// are).
pub static FILESYSTEM: &[Tool] = &[
    tool("read_file", Kind::Read, PATH_ONLY),
    tool("read_text_file", Kind::Read, PATH_ONLY),
    tool("read_media_file", Kind::Read, PATH_ONLY),
    tool("read_multiple_files", Kind::Read, &[(Path, Source::Args(&["paths"]))]),
    tool("write_file", Kind::Write, &[(Path, Source::Args(&["path"])), (Content, Source::Args(&["content"]))]),
    tool("edit_file", Kind::Write, PATH_ONLY),
    tool("create_directory", Kind::Write, PATH_ONLY),
    tool("move_file", Kind::Write, &[(Path, Source::Args(&["source", "destination"]))]),
    tool("list_directory", Kind::Read, PATH_ONLY),
    tool("list_directory_with_sizes", Kind::Read, PATH_ONLY),
    tool("directory_tree", Kind::Read, PATH_ONLY),
    tool("search_files", Kind::Search, &[(Path, Source::Args(&["path"])), (Pattern, Source::Args(&["pattern"]))]),
    tool("get_file_info", Kind::Read, PATH_ONLY),
    tool("list_allowed_directories", Kind::Other, &[]),
];

/// Database servers' query tools (Postgres's `query`, Supabase's and DBHub's `execute_sql`,
/// Supabase's `apply_migration`, Neon's `run_sql` and `run_sql_transaction`, SQLite's
/// `read_query`/`write_query`): still `mcp` calls, whose `command` is the SQL they send (read
/// as `runs sql`, shell.md).
pub static DATABASE: &[Tool] = &[
    tool("query", Kind::Mcp, SQL),
    tool("execute_sql", Kind::Mcp, SQL),
    tool("run_sql", Kind::Mcp, SQL),
    tool("execute_query", Kind::Mcp, SQL),
    tool("run_query", Kind::Mcp, SQL),
    tool("read_query", Kind::Mcp, SQL),
    tool("write_query", Kind::Mcp, SQL),
    tool("sql_query", Kind::Mcp, SQL),
    tool("mysql_query", Kind::Mcp, SQL),
    tool("apply_migration", Kind::Mcp, SQL),
    tool("run_sql_transaction", Kind::Mcp, SQL),
];
const SQL: &[(Semantic, Source)] =
    &[(Semantic::Command, Source::Args(&["sql", "query", "statement", "sqlStatements"]))];

/// The reference fetch server: a URL, fetched.
static FETCH: &[Tool] = &[tool("fetch", Kind::Fetch, URL_ONLY)];

/// Browsers (Playwright's and Puppeteer's servers): a page opened is a fetch; a local file
/// uploaded into a page is read (and leaves the machine); a screenshot or a PDF saved is a
/// write of its file.
static PLAYWRIGHT: &[Tool] = &[
    tool("browser_navigate", Kind::Fetch, URL_ONLY),
    tool("browser_tab_new", Kind::Fetch, URL_ONLY).optional(&[Url]),
    tool("browser_file_upload", Kind::Read, &[(Path, Source::Args(&["paths"]))]).optional(&[Path]),
    tool("browser_take_screenshot", Kind::Write, &[(Path, Source::Args(&["filename"]))]).optional(&[Path]),
    tool("browser_pdf_save", Kind::Write, &[(Path, Source::Args(&["filename"]))]).optional(&[Path]),
];
static PUPPETEER: &[Tool] = &[tool("puppeteer_navigate", Kind::Fetch, URL_ONLY)];

/// Desktop Commander: a shell (`start_process` runs PowerShell when its `shell` says so; what
/// `interact_with_process` sends a process is read as its next line), and the filesystem
/// server's tools under its own names.
static DESKTOP_COMMANDER: &[Tool] = &[
    tool("execute_command", Kind::Shell, SHELL),
    tool("start_process", Kind::Shell, SHELL),
    // What a started process is given to run next (a shell's next line).
    tool("interact_with_process", Kind::Shell, &[(Semantic::Command, Source::Args(&["input"]))]),
    tool("read_file", Kind::Read, PATH_ONLY),
    tool("read_multiple_files", Kind::Read, &[(Path, Source::Args(&["paths"]))]),
    tool("write_file", Kind::Write, &[(Path, Source::Args(&["path"])), (Content, Source::Args(&["content"]))]),
    tool("edit_block", Kind::Write, &[(Path, Source::Args(&["file_path"]))]),
    tool("move_file", Kind::Write, &[(Path, Source::Args(&["source", "destination"]))]),
    tool("create_directory", Kind::Write, PATH_ONLY),
    tool("list_directory", Kind::Read, PATH_ONLY),
    tool("search_files", Kind::Search, &[(Path, Source::Args(&["path"])), (Pattern, Source::Args(&["pattern"]))]),
    tool("search_code", Kind::Search, &[(Path, Source::Args(&["path"])), (Pattern, Source::Args(&["pattern"]))]),
    tool("get_file_info", Kind::Read, PATH_ONLY),
];

/// The reference git server: every tool works on the repository at `repo_path`.
static GIT: &[Tool] = &[
    tool("git_status", Kind::Read, REPO),
    tool("git_diff_unstaged", Kind::Read, REPO),
    tool("git_diff_staged", Kind::Read, REPO),
    tool("git_diff", Kind::Read, REPO),
    tool("git_log", Kind::Read, REPO),
    tool("git_show", Kind::Read, REPO),
    tool("git_branch", Kind::Read, REPO),
    tool("git_add", Kind::Mcp, REPO),
    tool("git_commit", Kind::Mcp, REPO),
    tool("git_reset", Kind::Mcp, REPO),
    tool("git_checkout", Kind::Mcp, REPO),
    tool("git_create_branch", Kind::Mcp, REPO),
    tool("git_init", Kind::Mcp, REPO),
];
const REPO: &[(Semantic, Source)] = &[(Path, Source::Args(&["repo_path"]))];

/// A web search: a fetch with no URL of its own.
static SEARCH: &[Tool] = &[
    tool("brave_web_search", Kind::Fetch, QUERY),
    tool("brave_local_search", Kind::Fetch, QUERY),
    tool("web_search_exa", Kind::Fetch, QUERY),
    tool("tavily-search", Kind::Fetch, QUERY),
    tool("tavily-extract", Kind::Fetch, &[(Url, Source::Args(&["urls"]))]),
    tool("firecrawl_scrape", Kind::Fetch, URL_ONLY),
];

const QUERY: &[(Semantic, Source)] = &[(Query, Source::Args(&["query"]))];

/// Every server hookc knows, in the order a tool name of an unknown server is looked up.
pub static SERVERS: &[Server] = &[
    Server { name: "filesystem", aliases: &["fs", "files", "file-system"], tools: FILESYSTEM, service: None },
    Server {
        name: "postgres",
        aliases: &["postgresql", "pg", "sqlite", "mysql", "supabase", "neon", "dbhub", "database", "db"],
        tools: DATABASE,
        service: None,
    },
    Server {
        name: "desktop-commander",
        aliases: &["desktopcommander", "commander"],
        tools: DESKTOP_COMMANDER,
        service: None,
    },
    Server { name: "git", aliases: &[], tools: GIT, service: None },
    Server { name: "fetch", aliases: &["web-fetch", "webfetch"], tools: FETCH, service: None },
    Server { name: "playwright", aliases: &["browser"], tools: PLAYWRIGHT, service: None },
    Server { name: "puppeteer", aliases: &[], tools: PUPPETEER, service: None },
    Server {
        name: "brave-search",
        aliases: &["brave", "exa", "tavily", "firecrawl", "search", "web-search"],
        tools: SEARCH,
        service: None,
    },
    // Hosted services: the call goes to the service, whatever its arguments say.
    Server { name: "github", aliases: &[], tools: &[], service: Some("github.com") },
    Server { name: "gitlab", aliases: &[], tools: &[], service: Some("gitlab.com") },
    Server { name: "slack", aliases: &[], tools: &[], service: Some("slack.com") },
    Server { name: "linear", aliases: &[], tools: &[], service: Some("api.linear.app") },
    Server { name: "notion", aliases: &[], tools: &[], service: Some("api.notion.com") },
    Server { name: "sentry", aliases: &[], tools: &[], service: Some("sentry.io") },
    Server { name: "atlassian", aliases: &["jira", "confluence"], tools: &[], service: Some("atlassian.net") },
    // Servers that keep to the machine and send nothing anywhere.
    Server {
        name: "memory",
        aliases: &["sequential-thinking", "sequentialthinking", "time", "everything", "context7"],
        tools: &[],
        service: None,
    },
];

/// The server a configured name stands for: itself, or one of its aliases, once its usual
/// affixes are gone (`mcp-server-fetch`, `github-mcp-server`, `Playwright_MCP`); `None` for a
/// server the table does not know.
pub fn server(configured: &str) -> Option<&'static Server> {
    let name = configured.to_ascii_lowercase().replace('_', "-");
    let mut name = name.as_str();
    // Claude Code's plugins name their servers `plugin_PLUGIN_SERVER`, claude.ai's connectors
    // `claude_ai_NAME`.
    if let Some(rest) = name.strip_prefix("plugin-") {
        if let Some(found) = SERVERS.iter().find(|server| {
            std::iter::once(server.name)
                .chain(server.aliases.iter().copied())
                .any(|known| rest.ends_with(&format!("-{known}")))
        }) {
            return Some(found);
        }
    }
    name = name.strip_prefix("claude-ai-").unwrap_or(name);
    for prefix in ["mcp-server-", "server-", "mcp-"] {
        name = name.strip_prefix(prefix).unwrap_or(name);
    }
    for suffix in ["-mcp-server", "-server", "-mcp"] {
        name = name.strip_suffix(suffix).unwrap_or(name);
    }
    SERVERS.iter().find(|server| server.name == name || server.aliases.contains(&name))
}

/// A tool of `server` by its name; for an unknown server, the filesystem's or a database's
/// tool of that name, whose arguments any server's tool of that name is taken to mean. Other
/// rows' names (`fetch`, `execute_command`) say too little of an unknown server's tool: it
/// stays `mcp`, every argument read for paths and URLs.
pub fn tool_of(server: Option<&'static Server>, name: &str) -> Option<&'static Tool> {
    match server {
        Some(server) => server.tools.iter().find(|tool| tool.name == name),
        None => {
            type Table = rustc_hash::FxHashMap<&'static str, &'static Tool>;
            static GENERIC: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
            let generic =
                GENERIC.get_or_init(|| FILESYSTEM.iter().chain(DATABASE).map(|tool| (tool.name, tool)).collect());
            generic.get(name).copied()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configured_names_read_without_their_affixes() {
        for (configured, server) in [
            ("github", Some("github")),
            ("github-mcp-server", Some("github")),
            ("mcp-server-fetch", Some("fetch")),
            ("Playwright_MCP", Some("playwright")),
            ("fs", Some("filesystem")),
            ("server-filesystem", Some("filesystem")),
            ("desktop_commander", Some("desktop-commander")),
            ("plugin_github_github", Some("github")),
            ("plugin_acme-tools_slack", Some("slack")),
            ("claude_ai_Slack", Some("slack")),
            ("acme-internal", None),
            ("", None),
        ] {
            assert_eq!(super::server(configured).map(|found| found.name), server, "{configured}");
        }
    }

    #[test]
    fn names_and_tools_are_unique() {
        let mut names: Vec<&str> = SERVERS
            .iter()
            .flat_map(|server| std::iter::once(server.name).chain(server.aliases.iter().copied()))
            .collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "a server name or alias twice");
        for server in SERVERS {
            let mut tools: Vec<&str> = server.tools.iter().map(|tool| tool.name).collect();
            tools.sort_unstable();
            let count = tools.len();
            tools.dedup();
            assert_eq!(tools.len(), count, "{}: a tool twice", server.name);
        }
    }
}
