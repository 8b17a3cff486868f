//! SQL handed to database clients (`psql -c "DROP TABLE x"`, `mysql -e …`, `sqlite3 db "…"`, a
//! heredoc fed to one), read as statements by a maintained SQL parser (sqlparser): each
//! statement is a command of its own whose program is `sql`, so a rule reads it with `runs`:
//! `runs sql (subcommand in [drop, truncate])`, `runs sql (subcommand == delete and not flags
//! in [where])`. A statement that runs others runs them too: a `WITH` whose tables delete,
//! update or insert, `EXPLAIN ANALYZE`. Short options cluster as getopt reads them (`psql -Atc`,
//! `mysql -Bse`). SQL the line does not spell (`psql -f FILE`, a pipe from a program) is one
//! `sql` command whose subcommand is `unread`; SQL the parser rejects is `unparsed`.

use super::Command;
use sqlparser::ast::{Query, SetExpr, Statement};
use sqlparser::dialect::{Dialect, GenericDialect, MySqlDialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

/// A database client: the options whose value is SQL, the options whose value is a file of
/// SQL, whether SQL may be its operand after the database (`sqlite3 DB "SQL"`), and whether it
/// takes a long option's unambiguous prefix for the option (getopt_long, MySQL's my_getopt).
struct Client {
    programs: &'static [&'static str],
    sql_options: &'static [&'static str],
    file_options: &'static [&'static str],
    sql_operand: bool,
    prefixes: bool,
}

static CLIENTS: &[Client] = &[
    Client {
        programs: &["psql"],
        sql_options: &["-c", "--command"],
        file_options: &["-f", "--file"],
        sql_operand: false,
        prefixes: true,
    },
    Client {
        programs: &["mysql", "mariadb"],
        // `--init-command` runs after connecting, as `-e` does.
        sql_options: &["-e", "--execute", "--init-command"],
        file_options: &[],
        sql_operand: false,
        prefixes: true,
    },
    Client {
        programs: &["sqlite3", "duckdb"],
        sql_options: &["-cmd", "-c"],
        file_options: &["-init"],
        sql_operand: true,
        prefixes: false,
    },
    Client {
        programs: &["clickhouse-client", "cockroach", "snowsql", "sqlcmd", "usql"],
        sql_options: &["-q", "--query", "-e", "--execute", "-Q", "-c"],
        file_options: &["-f", "--file", "-i", "--queries-file"],
        sql_operand: false,
        prefixes: false,
    },
];

fn client(program: &str) -> Option<&'static Client> {
    CLIENTS.iter().find(|client| client.programs.contains(&program))
}

/// Whether `program` is a database client whose SQL is read.
pub(super) fn is_client(program: &str) -> bool {
    client(program).is_some()
}

/// Where a client's SQL comes from.
pub(super) struct Input<'a> {
    /// The heredoc or here-string it reads.
    pub(super) spelled: Option<&'a str>,
    /// The file an input redirection gives it (`psql db < seed.sql`).
    pub(super) file: Option<&'a str>,
    /// Whether a pipe feeds it what the line does not spell.
    pub(super) fed: bool,
}

/// The statements a client's words and input run, as `sql` commands. SQL from a file (`-f
/// FILE`, `< FILE`) is one `sql` command `unread` whose operand is the file: [`read_files`]
/// reads it where the evaluation may read the project's files.
pub(super) fn commands(program: &str, args: &[String], input: &Input<'_>) -> Vec<Command> {
    let Some(client) = client(program) else { return Vec::new() };
    let mut scripts: Vec<String> = Vec::new();
    let mut files: Vec<String> = Vec::new();
    let mut unread = false;
    let mut operands = 0usize;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let (name, attached) = match word.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_string())),
            _ => (word.as_str(), None),
        };
        let name = long_option(client, name).unwrap_or(name);
        if client.sql_options.contains(&name) {
            scripts.extend(attached.or_else(|| words.next().cloned()));
        } else if client.file_options.contains(&name) {
            files.extend(attached.or_else(|| words.next().cloned()));
        } else if let Some((option, attached)) = in_cluster(word, client) {
            // `psql -Atc SQL`, `mysql -Bse SQL`, `psql -AtcSQL`: short options cluster as
            // getopt reads them, the one that takes a value last.
            let value = if attached.is_empty() { words.next().cloned() } else { Some(attached.to_string()) };
            match client.sql_options.contains(&option) {
                true => scripts.extend(value),
                false => files.extend(value),
            }
        } else if !word.starts_with('-') {
            operands += 1;
            // `sqlite3 DB "SQL"`: what follows the database is SQL.
            if client.sql_operand && operands >= 2 {
                scripts.push(word.clone());
            }
        }
    }
    // `psql -f - < x.sql`: `-` is the input.
    for file in &mut files {
        if file == "-" {
            *file = input.file.map_or_else(String::new, str::to_string);
        }
    }
    if let Some(stdin) = input.spelled {
        scripts.push(stdin.to_string());
    } else if let Some(file) = input.file.filter(|_| scripts.is_empty() && files.is_empty()) {
        files.push(file.to_string());
    } else if scripts.is_empty() && files.is_empty() && input.fed {
        unread = true;
    }
    // psql's variables are pasted into a file's text (`-v x='1; DROP …'` and `:x`): a file
    // that interpolates one is not read as it stands ([`read_files`]).
    let variables = program == "psql"
        && args
            .iter()
            .any(|word| word.starts_with("-v") || word.starts_with("--set") || word.starts_with("--variable"));
    let mut commands: Vec<Command> = scripts.iter().flat_map(|script| statements(program, script)).collect();
    for file in files {
        let operands = match file.is_empty() {
            true => Vec::new(),
            false => vec![file.clone()],
        };
        let flags = if variables { vec![VARIABLES.to_string()] } else { Vec::new() };
        commands.push(Command { operands, ..sql_command("unread", flags, vec![file]) });
    }
    if unread {
        commands.push(sql_command("unread", Vec::new(), Vec::new()));
    }
    commands
}

/// The keywords that start a statement which changes something, where no program of that name
/// is in hookc's table: `DROP TABLE users;` typed as a shell line is SQL meant for a database.
const TYPED: &[&str] =
    &["drop", "delete", "truncate", "update", "alter", "insert", "create", "grant", "revoke", "explain", "with"];

/// `via` of the statements of SQL typed as a shell line ([`typed`]).
pub(crate) const VIA_TYPED: &str = "typed";

/// SQL typed as a shell line (`DROP TABLE users;`): the shell runs none of it (no program has
/// the keyword's name), but it says what the user meant to run, so the database pack may read
/// it, and say why. `known` is whether hookc's table names the first word as a program:
/// coreutils' `truncate` with no option refuses to run, so `truncate table users;` counts.
/// Only words that parse as SQL give statements.
pub(super) fn typed(program: &str, args: &[String], known: bool) -> Vec<Command> {
    let keyword = program.to_ascii_lowercase();
    let truncate_without_option = keyword == "truncate" && !args.iter().any(|word| word.starts_with('-'));
    if !TYPED.contains(&keyword.as_str()) || known && !truncate_without_option {
        return Vec::new();
    }
    let text = std::iter::once(program).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ");
    let statements = statements("sql", &text);
    match statements
        .iter()
        .any(|statement| matches!(statement.subcommand.as_deref(), Some("unparsed" | "unread" | SHELL)))
    {
        true => Vec::new(),
        false => statements,
    }
}

/// A database MCP server's query (`mcp__postgres__query {"sql": …}`, Supabase's `execute_sql`,
/// SQLite's `write_query`): its statements as `sql` commands run through the server, in the
/// dialect its name says. A tool's `sql` argument is SQL on any server; its `query` argument
/// only on a server or tool named for a database (`query` is a search's text elsewhere).
pub(crate) fn mcp_query(
    server: &str,
    tool: &str,
    args: &serde_json::Map<String, serde_json::Value>,
) -> Option<Vec<Command>> {
    const DATABASES: [&str; 25] = [
        "sql",
        "postgres",
        "pg",
        "mysql",
        "maria",
        "sqlite",
        "supabase",
        "neon",
        "duckdb",
        "clickhouse",
        "mssql",
        "bigquery",
        "snowflake",
        "cockroach",
        "turso",
        "planetscale",
        "database",
        "db",
        "redshift",
        "athena",
        "trino",
        "presto",
        "databricks",
        "oracle",
        "warehouse",
    ];
    let named = |name: &str| {
        let name = name.to_ascii_lowercase();
        DATABASES.iter().any(|database| name.contains(database))
    };
    // Every argument that may carry SQL is read (a server may run `query` while `sql` is
    // benign); a list of statements is each of them.
    let mut texts: Vec<&str> = Vec::new();
    for (name, value) in args {
        let sql = matches!(name.as_str(), "sql" | "statement" | "statements" | "sqlStatements" | "sql_statements")
            || name == "query" && (named(server) || named(tool));
        match value {
            serde_json::Value::String(text) if sql => texts.push(text),
            serde_json::Value::Array(items) if sql => texts.extend(items.iter().filter_map(serde_json::Value::as_str)),
            _ => {}
        }
    }
    if texts.is_empty() {
        return None;
    }
    let server_lower = server.to_ascii_lowercase();
    let dialect = match () {
        _ if ["postgres", "pg", "supabase", "neon", "cockroach"].iter().any(|name| server_lower.contains(name)) => {
            "psql"
        }
        _ if ["mysql", "maria", "planetscale"].iter().any(|name| server_lower.contains(name)) => "mysql",
        _ if ["sqlite", "turso"].iter().any(|name| server_lower.contains(name)) => "sqlite3",
        _ => "",
    };
    Some(texts.into_iter().flat_map(|text| statements(dialect, text)).map(escapes_unread).collect())
}

/// A shell escape no walker reads (in a file read at evaluation, sent to an MCP server) is
/// `unread`.
fn escapes_unread(statement: Command) -> Command {
    match statement.subcommand.as_deref() {
        Some(SHELL) => sql_command("unread", Vec::new(), statement.words),
        _ => statement,
    }
}

/// The flag of a file's `unread` command whose client sets psql variables (`-v NAME=VALUE`).
const VARIABLES: &str = "variables";

/// Whether SQL interpolates a psql variable (`:x`, `:'x'`, `:"x"`; not a `::type` cast).
fn interpolates(sql: &str) -> bool {
    let bytes = sql.as_bytes();
    bytes.iter().enumerate().any(|(at, byte)| {
        *byte == b':'
            && (at == 0 || bytes.get(at - 1) != Some(&b':'))
            && bytes
                .get(at + 1)
                .is_some_and(|next| next.is_ascii_alphabetic() || matches!(next, b'_' | b'\'' | b'"' | b'{'))
    })
}

/// The most of one file of SQL read ([`read_files`]).
pub(crate) const MAX_FILE: usize = 64 * 1024;

/// Reads the SQL files a line's clients run (`psql -f migrations/001.sql`, `psql db <
/// seed.sql`): `read` gives a file's text where the evaluation may read it (in the project, a
/// regular file, within [`MAX_FILE`]), and its statements take the place of the `unread`
/// command that named it, read in the client's dialect. A file named after a `cd` of the line
/// (`cd db && psql -f x.sql`: which `x.sql`?), or one `read` refuses, stays unread.
pub(crate) fn read_files(line: &mut super::CommandLine, read: impl Fn(&str) -> Option<String>) {
    let mut at = 0;
    while let Some(command) = line.commands.get(at) {
        let named = match (command.program.as_str(), command.subcommand.as_deref(), command.operands.as_slice()) {
            // Run by the client alone, here, from where the call runs: `sudo`, `env -C`,
            // `find -execdir` or `ssh` may run it elsewhere.
            ("sql", Some("unread"), [file])
                if command.dirs.is_empty() && command.via.len() == 1 && command.remote.is_empty() =>
            {
                Some(file.clone())
            }
            _ => None,
        };
        let client = command.via.last().cloned().unwrap_or_default();
        let variables = command.flags.iter().any(|flag| flag == VARIABLES);
        let Some(text) = named.and_then(|file| read(&file)).filter(|text| !(variables && interpolates(text))) else {
            at += 1;
            continue;
        };
        let (via, inputs) = (command.via.clone(), command.inputs.clone());
        let statements: Vec<Command> = statements(&client, &text)
            .into_iter()
            .map(|statement| Command { via: via.clone(), inputs: inputs.clone(), ..escapes_unread(statement) })
            .collect();
        let count = statements.len();
        line.commands.splice(at..=at, statements);
        at += count;
    }
}

/// The SQL or file option a long option's prefix names where the client takes prefixes
/// (`psql --comm=SQL`, `mysql --exec SQL`). An ambiguous prefix is refused by the client, so
/// reading it as the SQL option errs on the side of reading more.
fn long_option(client: &Client, name: &str) -> Option<&'static str> {
    let prefix = name.strip_prefix("--").filter(|prefix| client.prefixes && !prefix.is_empty())?;
    client
        .sql_options
        .iter()
        .chain(client.file_options)
        .find(|option| option.strip_prefix("--").is_some_and(|long| long.starts_with(prefix)))
        .copied()
}

/// A cluster of short options holding one whose value is SQL or a file of it (`-Atc`,
/// `-Bse`, `-cSQL`): that option, and what follows its letter in the word (its value, or empty
/// when the next word is).
fn in_cluster<'a>(word: &'a str, client: &Client) -> Option<(&'static str, &'a str)> {
    let letters = word.strip_prefix('-').filter(|letters| !letters.starts_with('-'))?;
    letters.char_indices().find_map(|(at, letter)| {
        let option = client.sql_options.iter().chain(client.file_options).find(|option| {
            option.len() == 2 && option.strip_prefix('-').is_some_and(|name| name.starts_with(letter))
        })?;
        Some((*option, letters.get(at + letter.len_utf8()..).unwrap_or_default()))
    })
}

/// The statements of one SQL text, as `sql` commands.
fn statements(program: &str, sql: &str) -> Vec<Command> {
    let dialect: Box<dyn Dialect> = match program {
        "psql" | "cockroach" => Box::new(PostgreSqlDialect {}),
        "mysql" | "mariadb" => Box::new(MySqlDialect {}),
        "sqlite3" => Box::new(SQLiteDialect {}),
        _ => Box::new(GenericDialect {}),
    };
    // Clients' meta-commands (psql's `\dt`, sqlite3's `.tables`) are not SQL: such a line is left
    // out, but one that runs a file (`\i FILE`, `.read FILE`) makes the SQL unread.
    let meta = if matches!(program, "sqlite3" | "duckdb") { '.' } else { '\\' };
    let mut unread = false;
    let mut shell: Vec<Command> = Vec::new();
    let text: String = sql
        .lines()
        .filter(|line| {
            let line = line.trim_start();
            if !line.starts_with(meta) {
                return true;
            }
            match meta_command(line) {
                Meta::Shell(script) => shell.push(sql_command(SHELL, Vec::new(), vec![script.to_string()])),
                Meta::Unread => unread = true,
                Meta::Harmless => {}
            }
            false
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut commands = match Parser::parse_sql(dialect.as_ref(), &text) {
        Ok(parsed) => parsed.iter().flat_map(statement).collect(),
        Err(_) if text.trim().is_empty() => Vec::new(),
        Err(_) => vec![sql_command("unparsed", Vec::new(), text.split_whitespace().map(str::to_lowercase).collect())],
    };
    if unread {
        commands.push(sql_command("unread", Vec::new(), Vec::new()));
    }
    commands.extend(shell);
    commands
}

/// The subcommand of a `sql` command that stands for a shell script a client runs here (`\\!
/// CMD`): the walker reads the script (`command.rs`); read from a file or sent to an MCP
/// server, it is `unread`.
pub(super) const SHELL: &str = "shell escape";

/// What a client's meta-command (psql's `\\…`, sqlite3's and duckdb's `.…`) does.
enum Meta<'a> {
    /// Runs a shell script here (`\\! rm -rf ~`, `.shell …`, `.system …`).
    Shell(&'a str),
    /// Runs what the line does not spell: a file (`\\i`, `.read`), a query's output as SQL
    /// (`\\gexec`), a pipe to a program (`\\o |cmd`, `\\g |cmd`, `\\copy … program`,
    /// `.output |cmd`), an extension (`.load`).
    Unread,
    /// Prints or sets the client's display.
    Harmless,
}

fn meta_command(line: &str) -> Meta<'_> {
    let (name, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    match name {
        "\\!" | ".shell" | ".system" => Meta::Shell(rest),
        _ if name.starts_with("\\!") => Meta::Shell(line.get(2..).unwrap_or_default()),
        "\\i" | "\\ir" | "\\include" | "\\include_relative" | "\\gexec" | ".read" | ".import" | ".load" => Meta::Unread,
        "\\o" | "\\out" | "\\g" | "\\gx" | ".output" | ".once" | ".excel" if rest.trim_start().starts_with('|') => {
            Meta::Unread
        }
        "\\copy" if rest.to_ascii_lowercase().contains("program") => Meta::Unread,
        _ => Meta::Harmless,
    }
}

/// One statement, then the statements it runs inside it: a `WITH` whose tables delete, update
/// or insert (`WITH gone AS (DELETE …) SELECT …`), the statement `EXPLAIN ANALYZE` runs.
fn statement(statement: &Statement) -> Vec<Command> {
    let mut commands = vec![one(statement)];
    match statement {
        Statement::Query(query) => commands.extend(inside(query)),
        Statement::Explain { analyze, options, statement, .. }
            if *analyze || options.iter().flatten().any(|option| option.name.value.eq_ignore_ascii_case("analyze")) =>
        {
            commands.extend(self::statement(statement));
        }
        _ => {}
    }
    commands
}

/// The statements a query runs: its `WITH` tables' and its body's (sqlparser bounds how deeply
/// a query nests).
fn inside(query: &Query) -> Vec<Command> {
    let mut commands: Vec<Command> =
        query.with.iter().flat_map(|with| &with.cte_tables).flat_map(|table| inside(&table.query)).collect();
    match query.body.as_ref() {
        SetExpr::Delete(statement)
        | SetExpr::Update(statement)
        | SetExpr::Insert(statement)
        | SetExpr::Merge(statement) => {
            commands.extend(self::statement(statement));
        }
        SetExpr::Query(query) => commands.extend(inside(query)),
        _ => {}
    }
    commands
}

/// One statement: its first keyword as the subcommand, its words (as the parser renders them,
/// lower case), and the flag `where` on a `DELETE` or `UPDATE` that has a `WHERE`.
fn one(statement: &Statement) -> Command {
    let rendered = statement.to_string();
    let words: Vec<String> = rendered.split_whitespace().map(str::to_lowercase).collect();
    let kind = words.first().cloned().unwrap_or_default();
    let flags = match statement {
        Statement::Delete(delete) if delete.selection.is_some() => vec!["where".to_string()],
        Statement::Update(update) if update.selection.is_some() => vec!["where".to_string()],
        _ => Vec::new(),
    };
    sql_command(&kind, flags, words)
}

fn sql_command(kind: &str, flags: Vec<String>, words: Vec<String>) -> Command {
    Command { program: "sql".to_string(), subcommand: Some(kind.to_string()), flags, words, ..Command::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(program: &str, args: &[&str], stdin: Option<&str>, fed: bool) -> Vec<String> {
        let args: Vec<String> = args.iter().map(|word| word.to_string()).collect();
        commands(program, &args, &Input { spelled: stdin, file: None, fed })
            .iter()
            .map(|command| format!("{} {}", command.subcommand.clone().unwrap_or_default(), command.flags.join(",")))
            .collect()
    }

    #[test]
    fn statements_are_read_from_each_client() {
        assert_eq!(read("psql", &["-c", "DROP TABLE users;"], None, false), ["drop "]);
        assert_eq!(read("psql", &["--command=truncate table sessions"], None, false), ["truncate "]);
        assert_eq!(
            read("mysql", &["-u", "root", "-e", "DELETE FROM users; DELETE FROM x WHERE id = 1"], None, false),
            ["delete ", "delete where"]
        );
        assert_eq!(read("sqlite3", &["app.db", "update t set a = 1"], None, false), ["update "]);
        assert_eq!(
            read("psql", &["db"], Some("BEGIN;\n/* x */ DROP DATABASE prod;\nCOMMIT;"), false),
            ["begin ", "drop ", "commit "]
        );
        assert_eq!(read("psql", &["-c", "select 1"], None, false), ["select "]);
    }

    #[test]
    fn meta_commands_that_run_what_the_line_does_not_spell_are_unread() {
        for meta in ["\\i x.sql", "\\gexec", "\\o | sh", "\\copy t to program 'sh'", "\\g |sh"] {
            assert_eq!(read("psql", &["-c", meta], None, false), ["unread "], "{meta}");
        }
        assert_eq!(read("psql", &["-c", "\\! rm -rf ~"], None, false), [format!("{SHELL} ")]);
        assert_eq!(read("sqlite3", &["a.db", ".load ./x.so"], None, false), ["unread "]);
        assert!(read("psql", &["-c", "\\timing on"], None, false).is_empty());
    }

    #[test]
    fn files_are_named_for_reading_unless_the_input_is_unknown() {
        let files = |args: &[&str], file: Option<&str>| -> Vec<Vec<String>> {
            let args: Vec<String> = args.iter().map(|word| word.to_string()).collect();
            commands("psql", &args, &Input { spelled: None, file, fed: false })
                .into_iter()
                .map(|command| command.operands)
                .collect()
        };
        assert_eq!(files(&["-f", "a.sql"], None), [["a.sql"]]);
        assert_eq!(files(&["db"], Some("b.sql")), [["b.sql"]]);
        assert_eq!(files(&["-f", "-"], Some("b.sql")), [["b.sql"]]);
        // Two input redirections (spelled as no file), no input.
        assert_eq!(files(&["db"], Some("")), [Vec::<String>::new()]);
        assert!(interpolates("select :x") && interpolates("where a = :'v'") && !interpolates("select 1::int"));
        assert_eq!(files(&["-f", "-"], None), [Vec::<String>::new()]);
    }

    #[test]
    fn option_clusters_are_read_as_the_client_reads_them() {
        assert_eq!(read("psql", &["-Atc", "DROP TABLE users"], None, false), ["drop "]);
        assert_eq!(read("psql", &["-AtcDROP TABLE users"], None, false), ["drop "]);
        assert_eq!(read("mysql", &["-Bse", "DELETE FROM users"], None, false), ["delete "]);
        assert_eq!(read("psql", &["-Atf", "x.sql"], None, false), ["unread "]);
    }

    #[test]
    fn sql_typed_as_a_shell_line_is_read_as_sql() {
        let typed = |line: &str, known: bool| {
            let words: Vec<String> = line.split(' ').map(str::to_string).collect();
            super::typed(&words[0], &words[1..], known)
                .iter()
                .map(|c| c.subcommand.clone().unwrap_or_default())
                .collect::<Vec<_>>()
        };
        assert_eq!(typed("DROP TABLE users;", false), ["drop"]);
        assert_eq!(typed("delete from users", false), ["delete"]);
        assert_eq!(typed("truncate table users;", true), ["truncate"]);
        // Coreutils' truncate with its options is a file's.
        assert!(typed("truncate -s 0 log.txt", true).is_empty());
        // A word that is not SQL, or a program hookc knows, is left alone.
        assert!(typed("update the docs", false).is_empty());
        assert!(typed("select * from users", false).is_empty());
        assert!(typed("create", false).is_empty());
    }

    #[test]
    fn long_options_are_read_by_their_prefixes() {
        assert_eq!(read("psql", &["--comm=DROP TABLE users"], None, false), ["drop "]);
        assert_eq!(read("psql", &["--co", "DROP TABLE users"], None, false), ["drop "]);
        assert_eq!(read("mysql", &["--exec", "DELETE FROM users"], None, false), ["delete "]);
        assert_eq!(read("mysql", &["--init-command=DROP DATABASE app", "app"], None, false), ["drop "]);
        assert_eq!(read("mariadb", &["--init", "TRUNCATE t"], None, false), ["truncate "]);
        assert_eq!(read("psql", &["--fi", "x.sql"], None, false), ["unread "]);
        // Options that name neither are left as they are.
        assert!(read("psql", &["--host", "db", "--list"], None, false).is_empty());
        // sqlite3's options are whole words.
        assert!(read("sqlite3", &["--c"], None, false).is_empty());
    }

    #[test]
    fn statements_that_run_inside_others_are_read() {
        assert_eq!(
            read(
                "psql",
                &["-c", "WITH gone AS (DELETE FROM users RETURNING id) SELECT count(*) FROM gone"],
                None,
                false
            ),
            ["with ", "delete "]
        );
        assert_eq!(read("psql", &["-c", "EXPLAIN ANALYZE DELETE FROM users"], None, false), ["explain ", "delete "]);
        assert_eq!(read("psql", &["-c", "EXPLAIN (ANALYZE) DELETE FROM users"], None, false), ["explain ", "delete "]);
        // EXPLAIN alone plans the statement and runs nothing.
        assert_eq!(read("psql", &["-c", "EXPLAIN DELETE FROM users"], None, false), ["explain "]);
    }

    #[test]
    fn sql_not_read_is_said_so() {
        assert_eq!(read("psql", &["-f", "migrate.sql"], None, false), ["unread "]);
        assert_eq!(read("psql", &["db"], None, true), ["unread "]);
        assert_eq!(read("psql", &["-c", "DROP TABLE (("], None, false), ["unparsed "]);
        assert_eq!(read("psql", &["db"], Some("\\i evil.sql"), false), ["unread "]);
        // Deep nesting is refused by the parser's own limit, not by a crash.
        let deep = format!("SELECT {}1{}", "(".repeat(5_000), ")".repeat(5_000));
        assert_eq!(read("psql", &["-c", &deep], None, false), ["unparsed "]);
    }
}
