//! The files a tool call touches, found once per event: every argument its profile names for
//! `path` (an array argument names several; a Codex patch names each file it adds, updates,
//! deletes or moves), or for a shell call every file its command line names (`crates/core/src/shell/`),
//! each spelled by the path model, then — when the file system says a path leads through a
//! symlink — its target too. Evaluation judges the call once per file.

use crate::model::event::{Common, Event, EventData, ToolCall};
use crate::paths::{Anchor, FilePath, PathCase, PathSettings};
use crate::shell::{self, Access, CommandLine};
use crate::vocab::patch::patch_paths;
use crate::vocab::tools::{Resolved, Source};
use crate::vocab::{Kind, Semantic};
use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::{Map, Value as Json};
use std::borrow::Cow;
use std::cell::OnceCell;

/// Every file of one event, and how its paths are anchored and compared.
#[derive(Debug, Clone)]
pub(crate) struct Files<'e> {
    /// The files, each once, in the order the call names them (link targets after).
    pub files: Vec<FilePath>,
    /// How the call uses each file of `files`: by the tool's kind (a write tool writes, a read
    /// or search tool reads), or as its command line does; `None` when neither says.
    pub(crate) access: Vec<Option<Access>>,
    /// A shell call's command line as words.
    pub(crate) shell: Option<Shell>,
    /// The event's anchor, built the first time a path needs it (most calls name none).
    anchor: std::cell::OnceCell<Box<Anchor>>,
    /// The directory a shell call's command runs in, when the call names one (Codex's
    /// `workdir`, Gemini CLI's `dir_path`): relative paths in the line start there.
    workdir: Option<String>,
    event: &'e Event,
    settings: &'e PathSettings,
    /// The case rule.
    pub case: PathCase,
    /// The call's tool, resolved against the vocabulary.
    pub tool: Resolved,
    /// What a Stop's turn did, found the first time a rule asks.
    turn: OnceCell<Option<Turn>>,
    /// The hosts the call sends to (`egress`), found the first time a rule asks.
    pub(crate) egress: OnceCell<Vec<String>>,
}

/// What a Stop's turn did, as rules read it: each of the turn's calls judged as its PreToolUse
/// was, by the same vocabulary and path model.
#[derive(Debug, Clone, Default)]
pub(crate) struct Turn {
    /// Every shell call's command line, in order.
    pub commands: Vec<String>,
    /// Every file a call wrote (a write tool's file, a command line's written files), once; a
    /// call the agent's record says failed (a refused write) wrote none.
    pub files_written: Vec<FilePath>,
    /// Every tool used, once, in order of first use, by the name the agent's hooks use.
    pub tools_used: Vec<String>,
    /// Every command the turn's shell calls ran, in order, as `runs` reads them at Stop.
    pub ran: Vec<Ran>,
    /// Their programs, `program subcommand` and `program flag` pairs, folded as a call's are:
    /// what a Stop rule's `runs` is keyed on.
    pub programs: Vec<String>,
    pub program_subcommands: Vec<String>,
    pub program_flags: Vec<String>,
}

/// One command of a turn's shell call, with how the call ended.
#[derive(Debug, Clone)]
pub(crate) struct Ran {
    /// The command, as the call's line reads it.
    pub command: shell::Command,
    /// Its operands, spelled by the path model.
    pub operands: Vec<FilePath>,
    /// Whether the call succeeded, where the agent's record says (`ok`).
    pub ok: Option<bool>,
    /// The call's exit status, where the record gives one (`status`).
    pub status: Option<i64>,
    /// Whether the call ran after the turn's last write (`after_writes`): no later call wrote a
    /// file. A call that writes and runs (`make test > log`) counts as after its own writes.
    pub after_writes: bool,
}

impl<'e> Files<'e> {
    /// The files of `event`; `Err` if a path is invalid (a NUL byte) or a shell line too large
    /// to judge.
    pub(crate) fn of(event: &'e Event, settings: &'e PathSettings) -> Result<Files<'e>, super::EvalError> {
        let tool = event.resolved_tool();
        let mut files = Files {
            files: Vec::new(),
            access: Vec::new(),
            shell: None,
            anchor: OnceCell::new(),
            workdir: None,
            event,
            settings,
            case: settings.case,
            tool,
            turn: OnceCell::new(),
            egress: OnceCell::new(),
        };
        let Some(call) = event.tool_call() else { return Ok(files) };
        let named: Vec<(String, Option<Access>)> = match shell_line(tool, &call.tool, &call.args, settings.case) {
            Some(line) if line.too_large => {
                return Err(super::EvalError::CommandLine { commands: shell::MAX_COMMANDS, files: shell::MAX_FILES })
            }
            Some(mut line) => {
                let dirs = tool.workdir();
                let workdir = dirs.iter().find_map(|name| call.args.get(*name).and_then(Json::as_str));
                files.workdir = workdir.filter(|dir| !dir.is_empty()).map(str::to_string);
                // `psql -f migrations/001.sql`, `psql db < seed.sql`: SQL in the project's
                // files is read as the client's own.
                // (Not a file the line itself writes first: `echo … > q.sql && psql -f q.sql`.)
                if settings.follow_links && line.commands.iter().any(|command| command.program == "sql") {
                    let written: Vec<Option<String>> = line
                        .files
                        .iter()
                        .filter(|(_, access)| *access == Access::Write)
                        .map(|(raw, _)| files.anchor().file(raw).ok().map(|file| file.canonical))
                        .collect();
                    shell::read_sql_files(&mut line, |raw| {
                        let file = files.anchor().file(raw).ok()?;
                        let untouched = written.iter().all(|written| {
                            written.as_ref().is_some_and(|written| {
                                *written != file.canonical && !written.contains(['*', '?', '[', '$'])
                            })
                        });
                        untouched.then(|| files.sql_file(&file)).flatten()
                    });
                }
                let named = line.files.iter().map(|(raw, access)| (raw.clone(), Some(*access))).collect();
                let operands = line.commands.iter().map(|_| OnceCell::new()).collect();
                let transfers = line.commands.iter().map(|_| OnceCell::new()).collect();
                // Folded once here, as the index and `runs` compare them.
                let fold = |name: &str| settings.case.fold(name).into_owned();
                let programs = line.programs().into_iter().map(fold).collect();
                let program_subcommands = line.program_subcommands().iter().map(|pair| fold(pair)).collect();
                let program_flags = line.program_flags().iter().map(|pair| fold(pair)).collect();
                files.shell = Some(Shell { line, operands, transfers, programs, program_subcommands, program_flags });
                named
            }
            // A shell tool that sends a command hookc cannot read (not text, a list of anything
            // but lines): what it runs is unknown, so it fails closed. One that sends none
            // (Codex's `write_stdin` polling for output) runs nothing.
            None if tool.kind() == Kind::Shell && tool.value(Semantic::Command, &call.args).is_some() => {
                return Err(super::EvalError::NoCommand { tool: call.tool.clone() })
            }
            None => {
                let access = match (tool.kind(), tool.tool()) {
                    (Kind::Write, _) => Some(Access::Write),
                    (Kind::Read | Kind::Search | Kind::Fetch, _) => Some(Access::Read),
                    // A tool no table knows that names a file (Crush's `download`, an MCP
                    // server's `save`): what it does to the file is unknown, so it is taken as
                    // the strongest access, and `access == write` rules guard the file from it.
                    (_, None) => Some(Access::Write),
                    _ => None,
                };
                let mut raw = raw_paths(tool, &call.args);
                // A fetch tool given a `file:` URL reads that file (a browser tool opening
                // `file:///home/me/.ssh/id_ed25519`).
                if tool.kind() == Kind::Fetch {
                    let url = tool.value(Semantic::Url, &call.args).and_then(Json::as_str);
                    raw.extend(url.and_then(file_url_path));
                }
                // An MCP tool no table knows: every argument, at any depth, spelled as a path
                // (`{"options": {"inputs": [{"sourcePath": "~/.aws/credentials"}]}}`, a
                // `file:` URL) names a file, as its `path` would.
                if tool.kind() == Kind::Mcp && tool.tool().is_none() {
                    for nested in nested_paths(&call.args) {
                        if !raw.contains(&nested) {
                            raw.push(nested);
                        }
                    }
                }
                if raw.is_empty() && tool.kind() == Kind::Write && tool.tool().is_some() {
                    return Err(super::EvalError::NoFile { tool: call.tool.clone() });
                }
                raw.into_iter().map(|raw| (raw, access)).collect()
            }
        };
        let mut found: Vec<(FilePath, Option<Access>)> = Vec::with_capacity(named.len());
        for (raw, access) in named {
            let file = files.anchor().file(&raw)?;
            // `rm -rf /u*`, `echo x > gen*.txt`: a shell line's globs name the files they match.
            if files.shell.is_some() {
                for matched in files.glob(&file) {
                    found.push((files.anchor().file(&matched)?, access));
                }
            }
            found.push((file, access));
        }
        if settings.follow_links && found.iter().any(|(file, _)| file.absolute.is_some()) {
            let targets: Vec<(FilePath, Option<Access>)> = found
                .iter()
                .filter_map(|(file, access)| files.anchor().resolve_links(file).map(|target| (target, *access)))
                .collect();
            found.extend(targets);
        }
        // Each file once, the strongest access kept. One file is the common case: no map.
        if found.len() > 1 {
            let mut first: FxHashMap<String, usize> = FxHashMap::default();
            let mut kept: Vec<(FilePath, Option<Access>)> = Vec::with_capacity(found.len());
            for (file, access) in found {
                match first.get(&file.canonical).and_then(|&at| kept.get_mut(at)) {
                    Some(earlier) => earlier.1 = earlier.1.max(access),
                    None => {
                        first.insert(file.canonical.clone(), kept.len());
                        kept.push((file, access));
                    }
                }
            }
            found = kept;
        }
        (files.files, files.access) = found.into_iter().unzip();
        Ok(files)
    }

    /// What the Stop's turn did; `None` when the event is no Stop or the agent's record of the
    /// turn could not be read.
    pub(crate) fn turn(&self) -> Option<&Turn> {
        self.turn
            .get_or_init(|| {
                let calls = self.event.stop_info()?.calls.as_ref()?;
                // The calls already ran: their paths as written, with no glob expanded and no
                // link followed now (a turn of many calls must not read the disk for each).
                let settings = PathSettings { follow_links: false, ..self.settings.clone() };
                Some(Turn::of(calls, &self.event.common, &settings))
            })
            .as_ref()
    }

    /// The operands of the shell call's command `at`, spelled by the path model (an operand
    /// that is no valid path, with a NUL byte, is left out: the call names it as a file too,
    /// and fails closed there).
    pub(crate) fn operands(&self, at: usize) -> &[FilePath] {
        let Some(shell) = &self.shell else { return &[] };
        let (Some(cell), Some(command)) = (shell.operands.get(at), shell.line.commands.get(at)) else { return &[] };
        cell.get_or_init(|| {
            let mut operands = Vec::new();
            // Another host's operands are spelled as paths, but this machine's files say
            // nothing of them: no glob is matched here and no link followed.
            let local = command.remote.is_empty();
            for spelling in command.operands.iter().flat_map(|raw| shell::from_dirs(&command.dirs, raw)) {
                let Ok(file) = self.anchor().file(&spelling) else { continue };
                if !local {
                    operands.push(file);
                    continue;
                }
                operands.extend(self.glob(&file).iter().filter_map(|matched| self.anchor().file(matched).ok()));
                operands.push(file);
            }
            // `rm -rf link/*` with `link -> /srv/data`: an operand through a link is also where
            // it leads, as the files a call names are.
            if self.settings.follow_links && local {
                let targets: Vec<FilePath> =
                    operands.iter().filter_map(|operand| self.anchor().resolve_links(operand)).collect();
                operands.extend(targets);
            }
            operands
        })
    }

    /// The sources (`which` 0) or the destination (1) of the command at `at`, when it moves,
    /// copies or links files (`shell::transfer`), spelled by the path model as its operands
    /// are (no glob is matched: `mv ~/* /x` takes `~/*`).
    pub(crate) fn transfer(&self, at: usize, which: usize) -> &[FilePath] {
        let Some(shell) = &self.shell else { return &[] };
        let (Some(cell), Some(command)) = (shell.transfers.get(at), shell.line.commands.get(at)) else { return &[] };
        let both = cell.get_or_init(|| {
            let (sources, destination) = shell::transfer(command);
            let anchored = |raw: &String| -> Vec<FilePath> {
                shell::from_dirs(&command.dirs, raw)
                    .iter()
                    .filter_map(|spelling| self.anchor().file(spelling).ok())
                    .collect()
            };
            [sources.iter().flat_map(anchored).collect(), destination.iter().flat_map(anchored).collect()]
        });
        both.get(which).map_or(&[], Vec::as_slice)
    }

    /// The text of a file of SQL a client runs, where it may be read: a regular file inside
    /// the project (no link, however reached, leads out), within the bound; `None` otherwise,
    /// and the SQL stays unread.
    fn sql_file(&self, file: &FilePath) -> Option<String> {
        if file.is_outside_project() {
            return None;
        }
        let path = std::fs::canonicalize(file.absolute.as_deref()?).ok()?;
        let root =
            std::fs::canonicalize(self.event.common.project_root.as_deref().or(self.event.common.cwd.as_deref())?)
                .ok()?;
        let metadata = std::fs::metadata(&path).ok()?;
        let fits = metadata.is_file() && metadata.len() <= shell::MAX_SQL_FILE as u64;
        (path.starts_with(&root) && fits).then(|| std::fs::read_to_string(&path).ok()).flatten()
    }

    /// Where the event's paths are anchored.
    pub(crate) fn anchor(&self) -> &Anchor {
        self.anchor.get_or_init(|| {
            let common = &self.event.common;
            let cwd = match (&self.workdir, common.cwd.as_deref()) {
                (Some(dir), Some(cwd)) if !crate::paths::is_absolute(dir) => Some(format!("{cwd}/{dir}")),
                (Some(dir), _) => Some(dir.clone()),
                (None, cwd) => cwd.map(str::to_string),
            };
            Box::new(
                // The project root stays where the agent is, whatever directory the command runs in.
                Anchor::new(
                    cwd.as_deref(),
                    common.project_root.as_deref().or(common.cwd.as_deref()),
                    self.settings.home.as_deref(),
                )
                .with_case(self.settings.case),
            )
        })
    }

    /// The files a shell glob in `file` matches on this machine, as bash expands it (a hidden
    /// name only by a pattern starting with `.`), except that a `**` segment is every depth,
    /// hidden directories included, and the segment after it may match hidden names: that is
    /// how `find ROOT -name NAME` is spelled (`ROOT/**/NAME`: find walks into `.git` and
    /// `.claude`, and its `*` matches a leading dot), and for a shell glob it names more files
    /// than bash would, never fewer. Hidden directories are walked first, so the bound is
    /// spent on them before a `node_modules`. At most
    /// [`MAX_GLOB_MATCHES`] files after reading at most [`MAX_GLOB_ENTRIES`] directory entries,
    /// so a glob over a large tree or a loop of links stays bounded. None when the path has no
    /// glob or the settings keep the file system out.
    fn glob(&self, file: &FilePath) -> Vec<String> {
        let Some(absolute) = file.absolute.as_deref().filter(|path| path.contains(['*', '?', '['])) else {
            return Vec::new();
        };
        if !self.settings.follow_links {
            return Vec::new();
        }
        let mut segments = absolute.split('/').peekable();
        // `/x` splits into "" and "x"; `C:/x` into "C:" and "x".
        let root = match segments.next() {
            Some("") => "/".to_string(),
            Some(drive) => format!("{drive}/"),
            None => return Vec::new(),
        };
        let mut current = vec![std::path::PathBuf::from(root)];
        let mut entries_read = 0usize;
        let mut after_any_depth = false;
        for segment in segments.filter(|segment| !segment.is_empty()) {
            let mut next = Vec::new();
            if segment == "**" {
                // Every directory at or below each one so far, hidden ones first.
                let mut queue: std::collections::VecDeque<std::path::PathBuf> = current.into_iter().collect();
                while let Some(dir) = queue.pop_front() {
                    if next.len() >= MAX_GLOB_ENTRIES {
                        break;
                    }
                    let Ok(entries) = std::fs::read_dir(&dir) else { continue };
                    let mut dirs: Vec<std::path::PathBuf> = Vec::new();
                    for entry in entries.flatten() {
                        entries_read += 1;
                        if entries_read > MAX_GLOB_ENTRIES {
                            break;
                        }
                        // Links are not followed into: a loop would never end.
                        if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                            dirs.push(entry.path());
                        }
                    }
                    dirs.sort_by_key(|dir| {
                        !dir.file_name().and_then(|name| name.to_str()).is_some_and(|name| name.starts_with('.'))
                    });
                    next.push(dir);
                    queue.extend(dirs);
                }
                current = next;
                after_any_depth = true;
                continue;
            }
            let hidden_ok = std::mem::take(&mut after_any_depth) || segment.starts_with('.');
            let segment = segment.replace("**", "*");
            let segment = segment.as_str();
            if !segment.contains(['*', '?', '[']) {
                next.extend(current.iter().map(|dir| dir.join(segment)));
            } else {
                // Built only once a directory is read (most calls' directories are not there
                // to read, and a matcher costs more than the lookup).
                let mut matcher: Option<Segment> = None;
                for dir in &current {
                    let Ok(entries) = std::fs::read_dir(dir) else { continue };
                    let matcher = match &mut matcher {
                        Some(matcher) => matcher,
                        None => matcher.insert(match Segment::new(segment, self.case) {
                            Some(matcher) => matcher,
                            None => return Vec::new(),
                        }),
                    };
                    for entry in entries.flatten() {
                        entries_read += 1;
                        if entries_read > MAX_GLOB_ENTRIES || next.len() >= MAX_GLOB_MATCHES {
                            break;
                        }
                        let name = entry.file_name();
                        let Some(name) = name.to_str() else { continue };
                        if (name.starts_with('.') && !hidden_ok) || !matcher.matches(name) {
                            continue;
                        }
                        next.push(dir.join(name));
                    }
                }
            }
            current = next;
            if current.is_empty() {
                return Vec::new();
            }
        }
        current
            .into_iter()
            .filter(|path| path.symlink_metadata().is_ok())
            .take(MAX_GLOB_MATCHES)
            .filter_map(|path| path.to_str().map(str::to_string))
            .collect()
    }

    /// How many readings to judge: one per file, or one with no file.
    pub(crate) fn readings(&self) -> usize {
        self.files.len().max(1)
    }

    /// The file of reading `at`, if the call names any.
    pub(crate) fn reading(&self, at: usize) -> Option<usize> {
        (at < self.files.len()).then_some(at)
    }
}

/// A shell call's command line as words, and its commands' operands as paths once asked for.
#[derive(Debug, Clone)]
pub(crate) struct Shell {
    /// The commands and files.
    pub(crate) line: CommandLine,
    operands: Vec<OnceCell<Vec<FilePath>>>,
    /// Each command's sources and destination (`shell::transfer`), spelled by the path model.
    transfers: Vec<OnceCell<[Vec<FilePath>; 2]>>,
    /// Every program of the line (`programs`), each once, case folded as the paths are.
    pub(crate) programs: Vec<String>,
    /// Every `program subcommand` pair (`git push`), likewise: what `runs git push` is keyed on.
    pub(crate) program_subcommands: Vec<String>,
    /// `program flag` pairs, folded as programs are (an index key of `runs`).
    pub(crate) program_flags: Vec<String>,
}

/// One segment of a shell glob: `*` and `?` matched directly, anything else (`[…]`) by globset.
enum Segment {
    Wildcards(Vec<char>, PathCase),
    Glob(globset::GlobMatcher),
}

impl Segment {
    fn new(segment: &str, case: PathCase) -> Option<Segment> {
        if !segment.contains(['[', '{', '\\']) {
            return Some(Segment::Wildcards(case.fold(segment).chars().collect(), case));
        }
        let glob = globset::GlobBuilder::new(segment)
            .literal_separator(true)
            .case_insensitive(case == PathCase::Insensitive)
            .build()
            .ok()?;
        Some(Segment::Glob(glob.compile_matcher()))
    }

    fn matches(&self, name: &str) -> bool {
        match self {
            Segment::Glob(matcher) => matcher.is_match(name),
            Segment::Wildcards(pattern, case) => {
                let name: Vec<char> = case.fold(name).chars().collect();
                wildcard(pattern, &name)
            }
        }
    }
}

/// `*` (any run) and `?` (any one character) against a name, iteratively (linear backtracking
/// on the last `*`).
fn wildcard(pattern: &[char], name: &[char]) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(c) if *c == '?' || Some(c) == name.get(n) => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((at, from)) => {
                    p = at + 1;
                    n = from + 1;
                    star = Some((at, from + 1));
                }
                None => return false,
            },
        }
    }
    pattern.get(p..).unwrap_or_default().iter().all(|c| *c == '*')
}

/// At most this many files are taken from one glob (`rm -rf /*` names every top-level
/// directory; the rules see the glob itself too), after reading at most this many directory
/// entries.
const MAX_GLOB_MATCHES: usize = 256;
const MAX_GLOB_ENTRIES: usize = 4_096;

/// The command line of a shell-kind call: a string is parsed, an argv array (Codex's `shell`)
/// read as one command.
impl Turn {
    fn of(calls: &[ToolCall], common: &Common, settings: &PathSettings) -> Turn {
        let mut turn = Turn::default();
        let mut tools = FxHashSet::default();
        let mut written = FxHashSet::default();
        // Each shell call's commands, with the index of the call, then `after_writes` once the
        // last write is known.
        let mut ran: Vec<(usize, Ran)> = Vec::new();
        let mut last_write = None;
        for (index, call) in calls.iter().enumerate() {
            let name = common
                .agent
                .as_deref()
                .and_then(crate::vocab::agents::find)
                .map_or(call.tool.as_str(), |agent| agent.hook_tool_name(&call.tool));
            if tools.insert(name) {
                turn.tools_used.push(name.to_string());
            }
            let tool = common.resolve(&call.tool);
            if tool.kind() == Kind::Shell {
                turn.commands.extend(command_text(tool, &call.args).map(Cow::into_owned));
            }
            let failed = call.outcome.is_some_and(|outcome| !outcome.ok);
            // The call as its PreToolUse saw it. A call whose files cannot be judged (a NUL
            // byte, a line too large) names none here: it already ran, and was judged then.
            let event = Event { common: common.clone(), data: EventData::PreToolUse(call.clone()) };
            let Ok(files) = Files::of(&event, settings) else { continue };
            let mut wrote = false;
            for (file, access) in files.files.iter().zip(&files.access) {
                if *access == Some(Access::Write) && !failed {
                    wrote = true;
                    if written.insert(file.canonical.clone()) {
                        turn.files_written.push(file.clone());
                    }
                }
            }
            if wrote {
                last_write = Some(index);
            }
            if let Some(shell) = &files.shell {
                turn.programs.extend(shell.programs.iter().cloned());
                turn.program_subcommands.extend(shell.program_subcommands.iter().cloned());
                turn.program_flags.extend(shell.program_flags.iter().cloned());
                for (at, command) in shell.line.commands.iter().enumerate() {
                    let ran_command = Ran {
                        command: command.clone(),
                        operands: files.operands(at).to_vec(),
                        ok: call.outcome.map(|outcome| outcome.ok),
                        status: call.outcome.and_then(|outcome| outcome.status),
                        after_writes: false,
                    };
                    ran.push((index, ran_command));
                }
            }
        }
        turn.ran = ran
            .into_iter()
            .map(|(index, ran)| Ran { after_writes: last_write.is_none_or(|last| index >= last), ..ran })
            .collect();
        turn
    }
}

/// What a shell call runs; for a database MCP server's query, its statements (`runs sql`).
fn shell_line(
    tool: Resolved,
    name: &str,
    args: &Map<String, Json>,
    case: crate::paths::PathCase,
) -> Option<CommandLine> {
    if tool.kind() == Kind::Mcp && tool.tool().is_some() {
        let (server, query) = crate::vocab::tools::mcp_parts(name)?;
        let commands = shell::mcp_query(server, query, args)?
            .into_iter()
            .map(|statement| shell::Command { via: vec![server.to_string()], ..statement })
            .collect();
        return Some(CommandLine { commands, ..CommandLine::default() });
    }
    if tool.kind() != Kind::Shell {
        return None;
    }
    // A tool whose `shell` argument names PowerShell (Desktop Commander's `start_process`)
    // runs PowerShell.
    let powershell = tool.powershell()
        || args.get("shell").and_then(Json::as_str).is_some_and(|shell| {
            let program = shell::program_name(shell).to_ascii_lowercase();
            matches!(program.trim_end_matches(".exe"), "pwsh" | "powershell")
        });
    match command_arg(tool, args)? {
        CommandArg::Line(line) if powershell => Some(shell::powershell::analyse(&line)),
        CommandArg::Line(line) => Some(shell::analyse_on(&line, case)),
        CommandArg::Argv(words) => {
            let words: Option<Vec<String>> = words.iter().map(|word| word.as_str().map(str::to_string)).collect();
            words.map(|words| shell::analyse_argv(&words, case))
        }
    }
}

/// A shell tool's command argument as sent.
enum CommandArg<'a> {
    /// A command line, or a list of lines joined as one script.
    Line(Cow<'a, str>),
    /// An argv array (Codex's `shell`).
    Argv(&'a [Json]),
}

/// The command a shell call sends, if hookc can read it. A tool that takes a list of lines
/// (Cline's `run_commands`) may get that list as JSON text: it is read as the list, and text
/// that is a JSON array but not of lines is not read at all, so the call fails closed rather
/// than be judged as the one odd line `["rm -rf ~", 1]`.
fn command_arg<'a>(tool: Resolved, args: &'a Map<String, Json>) -> Option<CommandArg<'a>> {
    let lines = matches!(tool.source(Semantic::Command), Some(Source::Lines(_)));
    match tool.value(Semantic::Command, args)? {
        Json::String(text) if lines && text.trim_start().starts_with('[') => {
            match serde_json::from_str::<Json>(text) {
                Ok(Json::Array(items)) => script(&items).map(|script| CommandArg::Line(Cow::Owned(script))),
                // `[ -f x ] && …`: a shell test, not JSON.
                _ => Some(CommandArg::Line(Cow::Borrowed(text))),
            }
        }
        Json::String(line) => Some(CommandArg::Line(Cow::Borrowed(line))),
        Json::Array(items) if lines => script(items).map(|script| CommandArg::Line(Cow::Owned(script))),
        Json::Array(words) => Some(CommandArg::Argv(words)),
        _ => None,
    }
}

/// The path texts a call names, as sent.
/// The most values and the deepest nesting of an MCP call's arguments searched for paths or
/// URLs ([`nested_strings`]), and the most paths taken from them.
const MAX_NESTED_VALUES: usize = 4_096;
const MAX_NESTED_DEPTH: usize = 32;
const MAX_NESTED_PATHS: usize = 64;

/// The strings of an MCP call's arguments at any depth (`{"options": {"inputs": [{"sourcePath":
/// "…"}]}}`), within [`MAX_NESTED_VALUES`] values and [`MAX_NESTED_DEPTH`] levels.
pub(crate) fn nested_strings(args: &Map<String, Json>) -> Vec<&str> {
    let mut strings: Vec<&str> = Vec::new();
    let mut stack: Vec<(&Json, usize)> = args.values().map(|value| (value, 0)).collect();
    let mut seen = 0usize;
    while let Some((value, depth)) = stack.pop() {
        seen += 1;
        if seen > MAX_NESTED_VALUES || depth > MAX_NESTED_DEPTH {
            break;
        }
        match value {
            Json::String(text) => strings.push(text),
            Json::Array(items) => stack.extend(items.iter().map(|item| (item, depth + 1))),
            Json::Object(map) => stack.extend(map.values().map(|item| (item, depth + 1))),
            _ => {}
        }
    }
    strings
}

/// The top-level directories an absolute path of this machine starts with (`/serde-rs/serde`, a
/// library's id, and `/v1/users`, an API's path, are not files).
const ROOTS: &[&str] = &[
    "etc",
    "home",
    "Users",
    "root",
    "tmp",
    "var",
    "usr",
    "opt",
    "srv",
    "mnt",
    "media",
    "Volumes",
    "Library",
    "System",
    "Applications",
    "private",
    "proc",
    "sys",
    "dev",
    "bin",
    "sbin",
    "lib",
    "lib64",
    "boot",
    "nix",
    "snap",
];

/// The path of a `file:` URL of this machine (`file:///etc/passwd`, `file://localhost/etc`,
/// `file://127.0.0.1/…`, `file:~/.ssh/id_rsa`, the scheme in any case, `%XX` decoded, after a
/// `view-source:` and blanks); `None` for any other text, or a file on another host.
fn file_url_path(text: &str) -> Option<String> {
    let text = text.trim_start();
    let text = match text.get(..12) {
        Some(head) if head.eq_ignore_ascii_case("view-source:") => text.get(12..)?.trim_start(),
        _ => text,
    };
    let scheme = text.get(..5).filter(|scheme| scheme.eq_ignore_ascii_case("file:"))?;
    let rest = text.get(scheme.len()..)?;
    let path = match rest.strip_prefix("//") {
        None => rest,
        Some(authority) => {
            let slash = authority.find('/').unwrap_or(authority.len());
            let host = authority.get(..slash)?.to_ascii_lowercase();
            let host = host.trim_start_matches('[').trim_end_matches(']');
            let local = host.is_empty()
                || host == "localhost"
                || host.ends_with(".localhost")
                || host == "::1"
                || host.parse::<std::net::Ipv4Addr>().is_ok_and(|address| address.is_loopback());
            if !local {
                return None;
            }
            authority.get(slash..)?
        }
    };
    Some(shell::percent_decoded(path).unwrap_or_else(|| path.to_string()))
}

/// The strings of `args`, at any depth, that are spelled as a path of this machine: absolute
/// under one of [`ROOTS`] (`/etc/x`), in a home (`~/.ssh/id_rsa`, `$HOME/x`), or a `file:`
/// URL's path. A string with a blank in it is text, not a path.
fn nested_paths(args: &Map<String, Json>) -> Vec<String> {
    let mut paths: Vec<String> = Vec::new();
    for text in nested_strings(args) {
        let decoded = file_url_path(text);
        let path = decoded.as_deref().unwrap_or(text);
        let rooted = path.strip_prefix('/').is_some_and(|rest| {
            let top = rest.split('/').next().unwrap_or_default();
            ROOTS.contains(&top)
        });
        let spelled = rooted || path.starts_with("~/") || path == "~" || path.starts_with("$HOME/");
        if spelled && !path.contains(char::is_whitespace) && path.len() <= 4_096 && !paths.iter().any(|p| p == path) {
            paths.push(path.to_string());
            if paths.len() >= MAX_NESTED_PATHS {
                break;
            }
        }
    }
    paths
}

fn raw_paths(tool: Resolved, args: &Map<String, Json>) -> Vec<String> {
    match tool.source(Semantic::Path) {
        None => Vec::new(),
        Some(Source::Patch(names)) => {
            names.iter().find_map(|name| args.get(*name).and_then(Json::as_str)).map(patch_paths).unwrap_or_default()
        }
        Some(Source::Args(names) | Source::Lines(names)) => {
            let mut paths = Vec::new();
            for value in names.iter().filter_map(|name| args.get(*name)) {
                match value {
                    Json::String(path) => paths.push(path.clone()),
                    // A list of paths, or of file objects that name theirs (Cline's `read_files`).
                    Json::Array(items) => paths.extend(
                        items
                            .iter()
                            .filter_map(|item| match item {
                                Json::Object(file) => {
                                    file.get("path").or_else(|| file.get("file_path")).and_then(Json::as_str)
                                }
                                other => other.as_str(),
                            })
                            .map(str::to_string),
                    ),
                    _ => {}
                }
            }
            paths
        }
    }
}

/// A shell call's command line: the text sent, a list of lines as one script, or an argv array
/// (Codex's `shell`) as one line.
pub(crate) fn command_text<'a>(tool: Resolved, args: &'a Map<String, Json>) -> Option<Cow<'a, str>> {
    match command_arg(tool, args)? {
        CommandArg::Line(line) => Some(line),
        CommandArg::Argv(words) => command_line(words).map(Cow::Owned),
    }
}

/// A list of command lines as one script, a line each.
pub(crate) fn script(lines: &[Json]) -> Option<String> {
    let lines: Option<Vec<&str>> = lines.iter().map(Json::as_str).collect();
    lines.map(|lines| lines.join("\n"))
}

/// An argv array as one command line, each word quoted as a POSIX shell would need it.
fn command_line(words: &[Json]) -> Option<String> {
    let words: Option<Vec<String>> = words.iter().map(|word| word.as_str().map(quote_word)).collect();
    words.map(|words| words.join(" "))
}

fn quote_word(word: &str) -> String {
    let plain = !word.is_empty() && word.chars().all(|c| c.is_alphanumeric() || "-_./=:,+@%^".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::wildcard;

    #[test]
    fn wildcards_match_as_a_shell_matches_them() {
        let matches = |pattern: &str, name: &str| {
            wildcard(&pattern.chars().collect::<Vec<_>>(), &name.chars().collect::<Vec<_>>())
        };
        for (pattern, name) in [
            ("*", "a"),
            ("*.rs", "main.rs"),
            ("g?n*.txt", "generated.txt"),
            ("*a*b", "xxaxxb"),
            ("**", ""),
            ("é*", "été"),
        ] {
            assert!(matches(pattern, name), "{pattern} {name}");
        }
        for (pattern, name) in [("*.rs", "main.rs.bak"), ("?", ""), ("a*b", "ab_"), ("x", "y")] {
            assert!(!matches(pattern, name), "{pattern} {name}");
        }
    }
}
