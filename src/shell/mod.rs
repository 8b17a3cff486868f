//! Shell command lines as words (docs/shell.md). A shell call's command is read once per event
//! into the simple commands it runs — through lists and pipelines, subshells and groups,
//! `if`/`for`/`while`/`case` bodies, `$(…)`, backticks and process substitution, functions, and
//! the scripts that `bash -c`, `eval`, `su -c`, heredocs and `echo … | sh` hand to a shell.
//! Quotes, escapes and brace expansion are applied; wrappers (`sudo`, `env`, `xargs`, `timeout`,
//! `find -exec`, …; `programs.rs`) are seen through; `/bin/rm` is `rm`.
//!
//! Three readers, one walk: the scanner (`scan.rs`) reads the common lines fast, brush-parser
//! (POSIX and bash syntax) the rest, and a tolerant reading whatever the parser rejects or must
//! not see (hostile nesting, heredoc delimiters it loops on): no spelling escapes as "not shell".
//!
//! Each simple command has a program, its flags (`-rf` is `r` and `f`; `--force` is `force`;
//! `--` ends options), its operands and the programs feeding it. The files the line writes
//! (redirections, `tee`, `sed -i`, `cp`/`mv` destinations, `rm` operands, `dd of=`, …) and reads
//! (every other operand, input redirections) are collected for the path model.
//!
//! What a static reading cannot know is kept as written: `$X` stays `$X` (`$HOME` is `~`),
//! `$(…)` stays `$(…)` (its commands are still seen), a program named by a variable stays `$CMD`.
//! A line over `MAX_COMMANDS` commands or `MAX_FILES` files is marked too large to judge.

mod interpreters;
pub(crate) mod powershell;
mod programs;
mod scan;
mod sql;

use brush_parser::ast;
use brush_parser::word::{self, Parameter, ParameterExpr, TildeExpr, WordPiece, WordPieceWithSource};
use brush_parser::ParserOptions;
use programs::Writes;
use std::borrow::Cow;
use std::panic::AssertUnwindSafe;

/// How deep scripts nest (`bash -c "sh -c '…'"`, `$(…)` in `$(…)`) before the rest is read by
/// the tolerant splitter, which does not nest: work stays linear in the line's length.
const MAX_DEPTH: usize = 6;

/// Lines longer than this, nesting brackets deeper than `MAX_NESTING` or plain parentheses
/// deeper than `MAX_PARENTHESES` go to the tolerant reading: the parser recurses per bracket,
/// backtracks on parentheses (`nesting`), and a hostile line must exhaust neither stack nor time.
const MAX_PARSED: usize = 256 * 1024;
const MAX_NESTING: usize = 48;
const MAX_PARENTHESES: usize = 10;

/// One simple command, after wrappers are seen through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Command {
    /// The program's name, without its directory (`/usr/bin/rm` is `rm`).
    pub program: String,
    /// Its first operand (`push` in `git -C . push`), if any.
    pub subcommand: Option<String>,
    /// Option names: `-rf` gives `r` and `f`, `--force=x` gives `force`.
    pub flags: Vec<String>,
    /// The words that are not options or option values.
    pub operands: Vec<String>,
    /// Every word after the program, unquoted.
    pub words: Vec<String>,
    /// The wrappers and shells it was run through (`sudo`, `bash`, `xargs`, `find`, `eval`).
    pub via: Vec<String>,
    /// Programs whose output it reads: earlier commands of its pipeline, and the commands of
    /// `$(…)`, backticks and `<(…)` in its words.
    pub inputs: Vec<String>,
    /// The directories an earlier `cd` or `pushd` of the line may have moved to: relative
    /// operands are read from each of them as well as from where the call runs, since whether
    /// a `cd` ran (and succeeded) is not known before the line runs.
    pub dirs: Vec<String>,
}

/// `target` as read from where the call runs and from each of `dirs`: itself, and joined to
/// each directory when relative.
pub(crate) fn from_dirs(dirs: &[String], target: &str) -> Vec<String> {
    let mut spellings = vec![target.to_string()];
    if !target.starts_with('~') && !crate::paths::is_absolute(target) {
        // `cd /` then `./etc` is `/./etc`, not `//./etc` (a Windows device path to the path model).
        spellings.extend(dirs.iter().map(|dir| format!("{}/{target}", dir.trim_end_matches('/'))));
    }
    spellings
}

/// At most this many directories are kept for a line's `cd`s (the first ones).
const MAX_DIRS: usize = 8;

/// Whether a command line reads or writes a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Access {
    /// Used by the program without its contents reaching the output: a key it authenticates
    /// with (`ssh -i KEY`), a certificate (`curl --cert FILE`).
    Use,
    /// Read (or named as an operand).
    Read,
    /// Written, created, truncated, moved or removed.
    Write,
}

/// A command line as words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CommandLine {
    /// Every simple command it runs, in source order (a wrapper's command after the wrapper's
    /// own words are read; a script's commands after the shell that runs it).
    pub commands: Vec<Command>,
    /// The files it names, as written, with how it uses each (a file may appear twice).
    pub files: Vec<(String, Access)>,
    /// The line runs more than [`MAX_COMMANDS`] commands or names more than [`MAX_FILES`]
    /// files: reading stopped there, and the call must not be judged on what was read.
    pub too_large: bool,
}

/// The most commands one line may run, and files it may name, and be judged: every agent's
/// command fits many times over, while a hostile line (8,000 `sudo`s, a pipeline of 8,000
/// programs) would otherwise cost time quadratic in its length.
pub(crate) const MAX_COMMANDS: usize = 500;
/// See [`MAX_COMMANDS`].
pub(crate) const MAX_FILES: usize = 2_000;

impl CommandLine {
    /// Adds commands another reader found (PowerShell's, SQL statements), each run through
    /// `via` first; past [`MAX_COMMANDS`] the line is too large.
    pub(crate) fn push_commands(&mut self, commands: Vec<Command>, via: &[String]) {
        for mut command in commands {
            if self.commands.len() >= MAX_COMMANDS {
                self.too_large = true;
                return;
            }
            command.via = [via, command.via.as_slice()].concat();
            self.commands.push(command);
        }
    }

    /// The program of every command, each once.
    pub(crate) fn programs(&self) -> Vec<&str> {
        let mut programs: Vec<&str> = Vec::new();
        for command in &self.commands {
            if !programs.contains(&command.program.as_str()) {
                programs.push(&command.program);
            }
        }
        programs
    }

    /// `program flag` for every flag of every command (`rm r`, `rm f`), each once.
    pub(crate) fn program_flags(&self) -> Vec<String> {
        let mut pairs: Vec<String> = Vec::new();
        for command in &self.commands {
            for flag in &command.flags {
                let pair = format!("{} {flag}", command.program);
                if !pairs.contains(&pair) {
                    pairs.push(pair);
                }
            }
        }
        pairs
    }

    /// `program subcommand` for every command with a subcommand (`git push`), each once.
    pub(crate) fn program_subcommands(&self) -> Vec<String> {
        let mut pairs: Vec<String> = Vec::new();
        for command in &self.commands {
            if let Some(subcommand) = &command.subcommand {
                let pair = format!("{} {subcommand}", command.program);
                if !pairs.contains(&pair) {
                    pairs.push(pair);
                }
            }
        }
        pairs
    }
}

/// Parses a command line as a shell would.
pub(crate) fn analyse(line: &str) -> CommandLine {
    let mut walker = Walker { temp_set: sets_temp(line), line: line.to_string(), ..Walker::default() };
    walker.script(line, &Context::default());
    walker.out
}

/// Parses a command line with brush-parser alone (the scanner's fast path off).
/// `None` when brush-parser rejects some part of it.
#[cfg(test)]
fn analyse_with_parser(line: &str) -> Option<CommandLine> {
    let mut walker = Walker { parser_only: true, ..Walker::default() };
    walker.script(line, &Context::default());
    (!walker.rejected).then_some(walker.out)
}

/// Reads words a program receives as one simple command, read by the shell reader's rules for
/// options and wrappers (PowerShell's native commands).
fn analyse_words(words: &[String]) -> CommandLine {
    let mut walker = Walker::default();
    walker.command(words.to_vec(), Vec::new(), None, &Context::default());
    walker.out
}

/// Reads an argv array (Codex's `shell` tool) as one simple command.
pub(crate) fn analyse_argv(argv: &[String]) -> CommandLine {
    let mut walker = Walker::default();
    // No shell expands these words: `~` is a file of that name (`./~`), not the home directory.
    let words =
        argv.iter().map(|word| if word.starts_with('~') { format!("./{word}") } else { word.clone() }).collect();
    walker.command(words, Vec::new(), None, &Context::default());
    walker.out
}

/// What encloses the command being read.
#[derive(Debug, Clone, Default)]
struct Context {
    via: Vec<String>,
    inputs: Vec<String>,
    /// The words an `echo`/`printf` earlier in the pipeline writes to this command's input
    /// (what `xargs` appends, what `sh` runs).
    piped_words: Vec<String>,
    depth: usize,
}

impl Context {
    fn nested(&self) -> Context {
        Context { depth: self.depth + 1, ..self.clone() }
    }
}

/// A simple command's parts as read so far.
#[derive(Default)]
struct Read {
    words: Vec<String>,
    /// Programs of the substitutions in its words.
    fed: Vec<String>,
    /// A heredoc's or here-string's text.
    stdin_script: Option<String>,
    /// `NAME=VALUE` words before the program (alone, they set shell variables).
    assignments: Vec<(String, String)>,
}

impl Read {
    /// Keeps a `NAME=VALUE` word (its quotes and escapes removed) as an assignment.
    fn assign(&mut self, text: &str) {
        if let Some((name, value)) = text.split_once('=') {
            self.assignments.push((name.to_string(), value.to_string()));
        }
    }
}

#[derive(Default)]
struct Walker {
    out: CommandLine,
    options: ParserOptions,
    /// Every line through brush-parser, the scanner's fast path off (for the differential test).
    parser_only: bool,
    /// Whether brush-parser rejected some script (which the tolerant splitter then read).
    rejected: bool,
    /// What the last command at its pipeline stage's own level writes to its output, when the
    /// line spells it (`echo WORDS`, `printf FORMAT ARGS`, `cat` of a heredoc).
    output: Option<Vec<String>>,
    /// Where earlier `cd`s/`pushd`s of the line may have moved (besides where the call runs).
    dirs: Vec<String>,
    /// The line names a temp-directory variable other than to read it (`TMPDIR=~ rm -rf
    /// $TMPDIR`, `export TMPDIR=/`, `read TMPDIR`): `$TMPDIR` is then not known to be `/tmp`.
    temp_set: bool,
    /// The line as the agent sent it, for [`set_once`].
    line: String,
    /// Variables the line sets once to a value it spells (`W='rm -rf ~'; eval "$W"`): their
    /// expansions are that value.
    variables: std::collections::HashMap<String, String>,
}

/// The variables that name the temporary directory, read as `/tmp` where the line leaves them
/// (`$TMPDIR`, `${TMPDIR}`; not `${TMPDIR:-/}`, whose default may be anything).
const TEMP_VARIABLES: [&str; 3] = ["TMPDIR", "TMP", "TEMP"];

/// Whether a line may set a temp-directory variable: it names one other than as `$NAME` or
/// `${NAME…}`.
fn sets_temp(line: &str) -> bool {
    TEMP_VARIABLES.iter().any(|name| !settings(line, name).is_empty())
}

/// Whether the line names `name` other than to read it exactly once, and there assigns it
/// (`NAME=…`): a `for NAME`, `read NAME`, a second assignment or an `unset` leave its value to
/// run time.
fn set_once(line: &str, name: &str) -> bool {
    !sets_unseen(line)
        && matches!(settings(line, name).as_slice(), [at] if line.get(at + name.len()..).is_some_and(|rest| rest.starts_with('=')))
}

/// Whether the line runs something that sets variables without naming them where they are
/// set (`read` sets `REPLY`, `getopts` `OPTARG`, `mapfile` `MAPFILE`, `printf -v "$N"`, a
/// sourced file or a nameref anything): then no value the line spells is known to stand.
fn sets_unseen(line: &str) -> bool {
    const SETTERS: [&str; 9] =
        ["read", "mapfile", "readarray", "getopts", "source", ".", "printf", "declare", "typeset"];
    line.split(|c: char| c.is_whitespace() || ";&|(){}`".contains(c))
        .any(|word| SETTERS.contains(&word) || matches!(word, "BASH_REMATCH" | "REPLY" | "OPTARG"))
        || line.contains("local -n")
}

/// Where the line names `name` as a whole word other than as `$NAME` or `${NAME…}`.
fn settings(line: &str, name: &str) -> Vec<usize> {
    line.match_indices(name)
        .filter(|(at, _)| {
            let before = line.get(..*at).unwrap_or_default();
            let after = line.get(at + name.len()..).and_then(|rest| rest.chars().next());
            let word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
            let read = before.ends_with('$') || before.ends_with("${");
            let whole = !before.chars().next_back().is_some_and(word_char) && !after.is_some_and(word_char);
            whole && !read
        })
        .map(|(at, _)| at)
        .collect()
}

impl Walker {
    /// Shell variables set by a command of assignments alone (`W='rm -rf ~'`), kept where the
    /// line sets them once ([`set_once`]).
    fn assign(&mut self, assignments: &[(String, String)]) {
        for (name, value) in assignments {
            let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            let special =
                matches!(name.as_str(), "HOME" | "PWD" | "IFS" | "PATH") || TEMP_VARIABLES.contains(&name.as_str());
            if plain && !special && set_once(&self.line, name) {
                self.variables.insert(name.clone(), value.clone());
            }
        }
    }

    /// `GIT_SSH_COMMAND='…' git fetch`, `PAGER='…' man x`, `BASH_ENV=… bash`: variables whose
    /// value a program runs as a command; their values are read as scripts.
    fn command_variables(&mut self, assignments: &[(String, String)], ctx: &Context) {
        for (name, value) in assignments {
            if programs::runs_value_as_script(name) && !value.is_empty() {
                self.script(value, &ctx.nested());
            }
        }
    }

    /// `text` with `$NAME` and `${NAME}` of the variables the line set ([`Walker::assign`])
    /// replaced by their values.
    fn expand_variables(&self, text: &str) -> String {
        let mut expanded = text.to_string();
        for (name, value) in &self.variables {
            expanded = expanded.replace(&format!("${{{name}}}"), value);
            let mut out = String::with_capacity(expanded.len());
            let mut rest = expanded.as_str();
            let reference = format!("${name}");
            while let Some(at) = rest.find(&reference) {
                let after = rest.get(at + reference.len()..).unwrap_or_default();
                let whole = !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
                out.push_str(rest.get(..at).unwrap_or_default());
                out.push_str(if whole { value } else { &reference });
                rest = after;
            }
            out.push_str(rest);
            expanded = out;
        }
        expanded
    }

    fn script(&mut self, text: &str, ctx: &Context) {
        // The tolerant splitter already split the whole line: what it nests is seen, but for
        // the words an `eval` joins, read once more (tolerantly, so no deeper).
        if ctx.depth > MAX_DEPTH + 2 {
            return;
        }
        // `rm${IFS}-rf${IFS}/`: the field separator splits words as a blank does.
        let text: Cow<'_, str> = if text.contains("IFS") {
            Cow::Owned(text.replace("${IFS}", " ").replace("$IFS", " "))
        } else {
            Cow::Borrowed(text)
        };
        let text = text.as_ref();
        let (brackets, parentheses) = nesting(text);
        if ctx.depth > MAX_DEPTH
            || text.len() > MAX_PARSED
            || brackets > MAX_NESTING
            || parentheses > MAX_PARENTHESES
            || huge_descriptor(text)
            || odd_heredoc(text)
        {
            return self.tolerant(text, ctx);
        }
        if let Some(items) = scan::scan(text).filter(|_| !self.parser_only) {
            return self.scanned(&items, ctx);
        }
        let mut parser = brush_parser::Parser::new(std::io::Cursor::new(text), &self.options);
        // A parser panic (brush-parser unwraps inside) must not take the hook down — an exit
        // other than 0 or 2 lets the agent run the call: it is a rejected line.
        let parsed = std::panic::catch_unwind(AssertUnwindSafe(|| parser.parse_program()));
        match parsed.unwrap_or(Err(brush_parser::ParseError::ParsingAtEndOfInput)) {
            Ok(program) => program.complete_commands.iter().for_each(|list| self.list(list, ctx)),
            Err(_) => {
                self.rejected = true;
                // A shell runs the lines before a syntax error: read each line on its own, and
                // only a line that fails alone tolerantly.
                let joined = text.replace("\\\n", "");
                if joined.trim_end().contains('\n') {
                    joined.lines().for_each(|line| self.script(line, ctx));
                } else {
                    self.tolerant(text, ctx);
                }
            }
        }
    }

    /// A line the parser rejects (an unclosed quote, a construct it does not know, hostile
    /// nesting) is read with quotes and brackets dropped, by the scanner in its tolerant mode,
    /// and split after each shell's `-c` and each `eval`: a shell that does run it runs no
    /// fewer words.
    fn tolerant(&mut self, text: &str, ctx: &Context) {
        let ctx = Context { depth: ctx.depth.max(MAX_DEPTH + 1), ..ctx.clone() };
        let items = scan::scan_tolerant(text);
        self.scanned(&items, &ctx);
    }

    fn list(&mut self, list: &ast::CompoundList, ctx: &Context) {
        for ast::CompoundListItem(and_or, _) in &list.0 {
            self.pipeline(&and_or.first, ctx);
            for next in &and_or.additional {
                match next {
                    ast::AndOr::And(pipeline) | ast::AndOr::Or(pipeline) => self.pipeline(pipeline, ctx),
                }
            }
        }
    }

    fn pipeline(&mut self, pipeline: &ast::Pipeline, ctx: &Context) {
        self.stages(pipeline.seq.len(), ctx, |walker, at, inner| {
            if let Some(command) = pipeline.seq.get(at) {
                walker.node(command, inner);
            }
        });
    }

    /// A pipeline of `count` stages: each stage reads what the earlier ones wrote.
    fn stages(&mut self, count: usize, ctx: &Context, mut stage: impl FnMut(&mut Walker, usize, &Context)) {
        let mut upstream: Vec<String> = Vec::new();
        let mut piped_words: Vec<String> = Vec::new();
        for at in 0..count {
            let mut inner = ctx.clone();
            inner.inputs.extend(upstream.iter().cloned());
            if !piped_words.is_empty() {
                inner.piped_words = std::mem::take(&mut piped_words);
            }
            let start = self.out.commands.len();
            self.output = None;
            stage(self, at, &inner);
            for command in self.out.commands.get(start..).unwrap_or_default() {
                if !upstream.contains(&command.program) {
                    upstream.push(command.program.clone());
                }
            }
            // `echo / | xargs rm -rf`, `echo 'rm -rf /' | sh`, `cat <<EOF | sh`: what the stage
            // writes, when the line spells it.
            if let Some(output) = self.output.take() {
                piped_words = output;
            }
        }
    }

    /// A line the scanner read: pipelines split at `;`, `&&`, `||`, `&` and newlines.
    fn scanned(&mut self, items: &[scan::Item], ctx: &Context) {
        use scan::{Item, Op};
        for pipeline in items.split(|item| matches!(item, Item::Op(Op::Sequence | Op::AndOr))) {
            let stages: Vec<&[Item]> = pipeline.split(|item| matches!(item, Item::Op(Op::Pipe))).collect();
            self.stages(stages.len(), ctx, |walker, at, inner| {
                if let Some(stage) = stages.get(at) {
                    walker.scanned_command(stage, inner);
                }
            });
        }
    }

    /// One simple command the scanner read.
    fn scanned_command(&mut self, items: &[scan::Item], ctx: &Context) {
        use scan::{Item, Redirect};
        let mut read = Read::default();
        let mut prefix = true;
        for item in items {
            match item {
                Item::Word(raw) => {
                    let substituted = raw.strip_prefix("<(").or_else(|| raw.strip_prefix(">("));
                    if let Some(script) = substituted.and_then(|rest| rest.strip_suffix(')')) {
                        let start = self.out.commands.len();
                        self.script(script, &ctx.nested());
                        read.fed.extend(self.programs_since(start));
                        read.words.push("/dev/fd/63".to_string());
                        prefix = false;
                        continue;
                    }
                    // `A=b cmd`: an assignment before the command is not one of its words.
                    if prefix && scan::is_assignment(raw) {
                        let (text, programs) = self.word(raw, ctx);
                        read.fed.extend(programs);
                        read.assign(&text);
                        continue;
                    }
                    prefix = false;
                    for expanded in scan::expand_braces(raw) {
                        let (text, programs) = self.word(&expanded, ctx);
                        read.fed.extend(programs);
                        read.words.push(text);
                    }
                }
                Item::Redirect(Redirect::HereString, raw) => {
                    let (text, programs) = self.word(raw, ctx);
                    read.fed.extend(programs);
                    read.stdin_script = Some(text);
                }
                Item::Redirect(kind, raw) => {
                    let (target, _) = self.word(raw, ctx);
                    let access = match kind {
                        Redirect::Read => Access::Read,
                        Redirect::Duplicate if is_descriptor(&target) => continue,
                        _ => Access::Write,
                    };
                    self.file(target, access);
                }
                Item::Op(_) => {}
            }
        }
        if read.words.is_empty() {
            self.assign(&read.assignments);
        }
        self.command_variables(&read.assignments, ctx);
        if ctx.depth > MAX_DEPTH {
            // Tolerantly read, quotes are gone: `bash -c rm -rf /` is two commands.
            for words in split_scripts(read.words) {
                self.command(words, read.fed.clone(), read.stdin_script.clone(), ctx);
            }
            return;
        }
        self.command(read.words, read.fed, read.stdin_script, ctx);
    }

    fn node(&mut self, command: &ast::Command, ctx: &Context) {
        match command {
            ast::Command::Simple(simple) => self.simple(simple, ctx),
            ast::Command::Compound(compound, redirects) => {
                self.compound(compound, ctx);
                if let Some(redirects) = redirects {
                    for redirect in &redirects.0 {
                        self.redirect(redirect, ctx);
                    }
                }
            }
            ast::Command::Function(function) => {
                self.compound(&function.body.0, ctx);
            }
            ast::Command::ExtendedTest(test, _) => {
                self.embedded(&test.to_string(), ctx);
            }
        }
    }

    fn compound(&mut self, compound: &ast::CompoundCommand, ctx: &Context) {
        match compound {
            ast::CompoundCommand::BraceGroup(group) => self.list(&group.list, ctx),
            ast::CompoundCommand::Subshell(subshell) => self.list(&subshell.list, ctx),
            ast::CompoundCommand::ForClause(clause) => {
                for value in clause.values.iter().flatten() {
                    self.word(&value.value, ctx);
                }
                self.list(&clause.body.list, ctx);
            }
            ast::CompoundCommand::CaseClause(clause) => {
                self.word(&clause.value.value, ctx);
                for case in &clause.cases {
                    for pattern in &case.patterns {
                        self.word(&pattern.value, ctx);
                    }
                    if let Some(list) = &case.cmd {
                        self.list(list, ctx);
                    }
                }
            }
            ast::CompoundCommand::IfClause(clause) => {
                self.list(&clause.condition, ctx);
                self.list(&clause.then, ctx);
                for other in clause.elses.iter().flatten() {
                    if let Some(condition) = &other.condition {
                        self.list(condition, ctx);
                    }
                    self.list(&other.body, ctx);
                }
            }
            ast::CompoundCommand::WhileClause(clause) | ast::CompoundCommand::UntilClause(clause) => {
                self.list(&clause.0, ctx);
                self.list(&clause.1.list, ctx);
            }
            ast::CompoundCommand::Coprocess(coprocess) => self.node(&coprocess.body, ctx),
            ast::CompoundCommand::Arithmetic(arithmetic) => {
                let text = arithmetic.to_string();
                self.embedded(&text, ctx);
                // `( ( rm -rf / ) )` is two subshells to bash, arithmetic to the parser: read
                // the inside as commands too (over-reading is safe).
                let inner = text.trim().trim_start_matches("((").trim_end_matches("))");
                self.script(inner, &ctx.nested());
            }
            ast::CompoundCommand::ArithmeticForClause(clause) => {
                self.embedded(&clause.to_string(), ctx);
            }
        }
    }

    fn simple(&mut self, simple: &ast::SimpleCommand, ctx: &Context) {
        let mut read = Read::default();
        for each in simple.prefix.iter().flat_map(|prefix| &prefix.0) {
            self.item(each, true, &mut read, ctx);
        }
        if let Some(name) = &simple.word_or_name {
            self.item(&ast::CommandPrefixOrSuffixItem::Word(name.clone()), false, &mut read, ctx);
        }
        for each in simple.suffix.iter().flat_map(|suffix| &suffix.0) {
            self.item(each, false, &mut read, ctx);
        }
        if read.words.is_empty() {
            self.assign(&read.assignments);
        }
        self.command_variables(&read.assignments, ctx);
        self.command(read.words, read.fed, read.stdin_script, ctx);
    }

    /// One word, assignment, redirection or process substitution of a simple command.
    fn item(&mut self, item: &ast::CommandPrefixOrSuffixItem, prefix: bool, read: &mut Read, ctx: &Context) {
        match item {
            ast::CommandPrefixOrSuffixItem::Word(word) => {
                for expanded in scan::expand_braces(&word.value) {
                    let (text, programs) = self.word(&expanded, ctx);
                    read.words.push(text);
                    read.fed.extend(programs);
                }
            }
            ast::CommandPrefixOrSuffixItem::AssignmentWord(_, word) => {
                let (text, programs) = self.word(&word.value, ctx);
                read.fed.extend(programs);
                // `dd of=/dev/sda`: after the program, an assignment-shaped word is a word.
                if prefix {
                    read.assign(&text);
                } else {
                    read.words.push(text);
                }
            }
            ast::CommandPrefixOrSuffixItem::IoRedirect(redirect) => {
                let start = self.out.commands.len();
                if let Some(script) = self.redirect(redirect, ctx) {
                    read.stdin_script = Some(script);
                }
                // `bash < <(curl …)`, `sh <<< "$(curl …)"`: what feeds the command's input.
                read.fed.extend(self.programs_since(start));
            }
            ast::CommandPrefixOrSuffixItem::ProcessSubstitution(_, subshell) => {
                let start = self.out.commands.len();
                self.list(&subshell.list, &ctx.nested());
                read.fed.extend(self.programs_since(start));
                read.words.push("/dev/fd/63".to_string());
            }
        }
    }

    /// The `$(…)` and backquoted scripts inside a text the parser keeps whole (`[[ … ]]`,
    /// `(( … ))`, `${x:-…}`, a heredoc's body), walked; the programs they run.
    fn embedded(&mut self, text: &str, ctx: &Context) -> Vec<String> {
        let start = self.out.commands.len();
        for script in scan::substitutions(text) {
            self.script(script, &ctx.nested());
        }
        self.programs_since(start)
    }

    fn programs_since(&self, start: usize) -> Vec<String> {
        self.out.commands.get(start..).unwrap_or_default().iter().map(|command| command.program.clone()).collect()
    }

    /// A redirection: the file it reads or writes; for a heredoc or here-string, its text
    /// (the script a shell reading standard input runs).
    fn redirect(&mut self, redirect: &ast::IoRedirect, ctx: &Context) -> Option<String> {
        match redirect {
            ast::IoRedirect::File(_, kind, target) => {
                let word = match target {
                    ast::IoFileRedirectTarget::Filename(word) => word,
                    ast::IoFileRedirectTarget::Duplicate(word) => {
                        // `>&2` duplicates a descriptor; `>& file` writes the file.
                        let text = self.word(&word.value, ctx).0;
                        if is_descriptor(&text) {
                            return None;
                        }
                        word
                    }
                    ast::IoFileRedirectTarget::Fd(_) => return None,
                    ast::IoFileRedirectTarget::ProcessSubstitution(_, subshell) => {
                        self.list(&subshell.list, &ctx.nested());
                        return None;
                    }
                };
                let (target, _) = self.word(&word.value, ctx);
                let access = match kind {
                    ast::IoFileRedirectKind::Read | ast::IoFileRedirectKind::DuplicateInput => Access::Read,
                    _ => Access::Write,
                };
                self.file(target, access);
                None
            }
            ast::IoRedirect::OutputAndError(word, _) => {
                let (target, _) = self.word(&word.value, ctx);
                self.file(target, Access::Write);
                None
            }
            ast::IoRedirect::HereString(_, word) => Some(self.word(&word.value, ctx).0),
            ast::IoRedirect::HereDocument(_, doc) => {
                // An unquoted delimiter: the body's substitutions run, and its variables are
                // expanded before whoever reads it sees the text.
                if doc.requires_expansion {
                    self.embedded(&doc.doc.value, ctx);
                    return Some(self.expand_variables(&doc.doc.value));
                }
                Some(doc.doc.value.clone())
            }
        }
    }

    fn file(&mut self, target: String, access: Access) {
        if programs::is_device_sink(&target) || target.is_empty() {
            return;
        }
        if self.out.files.len() >= MAX_FILES {
            self.out.too_large = true;
            return;
        }
        for spelling in from_dirs(&self.dirs, &target) {
            self.out.files.push((spelling, access));
        }
    }

    /// A word with quotes and escapes removed; the programs its substitutions run are walked
    /// (as commands of their own) and returned.
    fn word(&mut self, raw: &str, ctx: &Context) -> (String, Vec<String>) {
        if !raw.contains(['\'', '"', '\\', '$', '`', '~']) {
            return (raw.to_string(), Vec::new());
        }
        if raw.starts_with('~') {
            if let Some(home) = user_home(raw) {
                return (home, Vec::new());
            }
        }
        if let Some(text) = scan::plain_text(raw) {
            return (text, Vec::new());
        }
        let options = &self.options;
        let parsed = std::panic::catch_unwind(|| word::parse(raw, options)).ok().and_then(Result::ok);
        match parsed.ok_or(()) {
            Ok(pieces) => {
                let mut text = String::new();
                let mut programs = Vec::new();
                self.pieces(raw, &pieces, false, ctx, &mut text, &mut programs);
                (text, programs)
            }
            Err(_) => (raw.chars().filter(|c| !"'\"\\".contains(*c)).collect(), Vec::new()),
        }
    }

    fn pieces(
        &mut self,
        raw: &str,
        pieces: &[WordPieceWithSource],
        quoted: bool,
        ctx: &Context,
        text: &mut String,
        programs: &mut Vec<String>,
    ) {
        for piece in pieces {
            let source = raw.get(piece.start_index..piece.end_index).unwrap_or_default();
            match &piece.piece {
                WordPiece::Text(plain) => text.push_str(plain),
                WordPiece::SingleQuotedText(plain) => text.push_str(plain),
                WordPiece::AnsiCQuotedText(escaped) => text.push_str(&ansi_c(escaped)),
                WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    self.pieces(raw, inner, true, ctx, text, programs);
                }
                WordPiece::EscapeSequence(escape) => {
                    let escaped = escape.strip_prefix('\\').unwrap_or(escape);
                    // Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and
                    // a newline; before anything else it stays.
                    if quoted && !escaped.starts_with(['$', '`', '"', '\\', '\n']) {
                        text.push('\\');
                    }
                    if escaped != "\n" {
                        text.push_str(escaped);
                    }
                }
                WordPiece::TildeExpansion(tilde) => match tilde {
                    TildeExpr::Home => text.push('~'),
                    TildeExpr::WorkingDir => text.push('.'),
                    TildeExpr::UserHome(user) => match user_home(&format!("~{user}")) {
                        Some(home) if text.is_empty() => text.push_str(&home),
                        _ => {
                            text.push('~');
                            text.push_str(user);
                        }
                    },
                    _ => text.push_str(source),
                },
                WordPiece::ParameterExpansion(ParameterExpr::Parameter {
                    parameter: Parameter::Named(name),
                    indirect: false,
                }) => {
                    // `$HOME` at a word's start is the home directory, `~` to the path model;
                    // `${X}` and `"$X"` are otherwise both written `$X`.
                    if name == "HOME" && text.is_empty() {
                        text.push('~');
                    } else if TEMP_VARIABLES.contains(&name.as_str()) && text.is_empty() && !self.temp_set {
                        text.push_str("/tmp");
                    } else if name == "PWD" && text.is_empty() {
                        text.push('.');
                    } else if let Some(value) = self.variables.get(name.as_str()).filter(|value| {
                        // Unquoted, the shell splits a value and expands its globs: only a value
                        // with neither reads as one word.
                        quoted || !value.contains(|c: char| c.is_whitespace() || "*?[".contains(c))
                    }) {
                        text.push_str(value);
                    } else {
                        text.push('$');
                        text.push_str(name);
                    }
                }
                // `r$()m`: an empty substitution is an empty string.
                WordPiece::CommandSubstitution(script) | WordPiece::BackquotedCommandSubstitution(script)
                    if script.trim().is_empty() => {}
                WordPiece::CommandSubstitution(script) | WordPiece::BackquotedCommandSubstitution(script) => {
                    let start = self.out.commands.len();
                    self.script(script, &ctx.nested());
                    programs.extend(self.programs_since(start));
                    text.push_str(source);
                }
                WordPiece::ParameterExpansion(_) | WordPiece::ArithmeticExpression(_) => {
                    // `${HOME:?}`, `${HOME%/}`: still the home directory; `${x:-$(…)}` runs.
                    // `${HOME:?}`, `${HOME:-x}`, `${HOME%/}`; not `${PWD%/*}` (the parent), nor
                    // any other operator, which makes it something else.
                    let named = |name: &str| {
                        source.strip_prefix("${").and_then(|rest| rest.strip_prefix(name)).is_some_and(|rest| {
                            rest.starts_with(":?") || rest.starts_with(":-") || rest.starts_with("%/}") || rest == "}"
                        })
                    };
                    if text.is_empty() && named("HOME") {
                        text.push('~');
                    } else if text.is_empty() && named("PWD") {
                        text.push('.');
                    } else {
                        text.push_str(source);
                    }
                    programs.extend(self.embedded(source, ctx));
                }
            }
        }
    }

    /// One simple command's words: wrappers are seen through, then the command is recorded
    /// with the files it names, and the scripts it runs are read in turn.
    fn command(&mut self, mut words: Vec<String>, fed: Vec<String>, stdin_script: Option<String>, ctx: &Context) {
        if self.out.commands.len() >= MAX_COMMANDS {
            self.out.too_large = true;
            return;
        }
        let mut via = ctx.via.clone();
        let mut inputs = ctx.inputs.clone();
        inputs.extend(fed);
        let mut piped_words = ctx.piped_words.clone();
        // `xargs rm <<< /`: a here-string or heredoc is what the command reads too.
        if let Some(script) = &stdin_script {
            piped_words.extend(script.split_whitespace().map(str::to_string));
        }
        loop {
            let Some(name) = words.first().map(|first| program_name(first)) else { return };
            // `flock FILE -c SCRIPT` runs a script, not a command.
            let script_runner = programs::script_option(&name).is_some()
                && words.iter().any(|word| word == "-c" || word.starts_with("--command"));
            // `uv run CMD`, `poetry run CMD`, `npm exec -- CMD`: a subcommand that runs a command.
            if let Some(wrapper) = words.get(1).and_then(|subcommand| programs::subcommand_wrapper(&name, subcommand)) {
                if self.out.commands.len() >= MAX_COMMANDS {
                    self.out.too_large = true;
                    return;
                }
                let args = words.get(2..).unwrap_or_default().to_vec();
                let (inner, _) = unwrap(&name, &wrapper, &args);
                let own = words.get(1..words.len() - inner.len()).unwrap_or_default().to_vec();
                self.record(&name, &own, &via, &inputs);
                via.push(name.clone());
                words = inner;
                continue;
            }
            let Some(wrapper) = programs::wrapper_of(&name).filter(|_| !script_runner) else { break };
            if self.out.commands.len() >= MAX_COMMANDS {
                self.out.too_large = true;
                return;
            }
            let args = words.get(1..).unwrap_or_default().to_vec();
            let (mut inner, split) = unwrap(&name, &wrapper, &args);
            let own = args.get(..args.len() - inner.len()).unwrap_or_default();
            self.record(&name, own, &via, &inputs);
            via.push(name.clone());
            if name == "xargs" {
                // `echo / | xargs rm -rf`: what xargs reads becomes operands, split at blanks;
                // `-I {}` puts them where `{}` stands. Input the line does not spell is a word
                // known only at run time (`ls | xargs rm -rf`).
                // `-0`, `-d`, `-I`, `-L` take whole lines (or NUL-ended items), blanks and all.
                let whole = own.iter().any(|word| {
                    word == "--null"
                        || word.starts_with("-0")
                        || word.starts_with("-d")
                        || word.starts_with("-I")
                        || word.starts_with("-L")
                        || word.starts_with("--delimiter")
                        || word.starts_with("--replace")
                        || word.starts_with("-i")
                });
                let read = match whole && !piped_words.is_empty() {
                    true => vec![piped_words.join(" ")],
                    false => read_words(&piped_words),
                };
                match xargs_replacement(own) {
                    Some(token) => inner = inner.iter().flat_map(|word| substitute(word, &token, &read)).collect(),
                    None => inner.extend(read),
                }
            }
            if let Some(split) = split {
                let nested =
                    Context { via: via.clone(), inputs: inputs.clone(), piped_words: Vec::new(), depth: ctx.depth + 1 };
                self.script(&split, &nested);
            }
            words = inner;
        }
        if words.first().is_some_and(|first| program_name(first) == "parallel") {
            words = parallel(&words, &read_words(&piped_words));
            self.record("parallel", &[], &via, &inputs);
            via.push("parallel".to_string());
            // `parallel 'rm -rf {}' ::: …`: a command given as one word is a shell's script.
            if words.first().is_some_and(|first| first.contains(char::is_whitespace)) {
                let nested =
                    Context { via: via.clone(), inputs: inputs.clone(), piped_words: Vec::new(), depth: ctx.depth + 1 };
                self.script(&words.join(" "), &nested);
                return;
            }
        }
        let Some(first) = words.first() else { return };
        let program = program_name(first);
        let args = words.get(1..).unwrap_or_default().to_vec();
        let mut parsed = parse_options(&program, &args);
        parsed.flags = expand_abbreviations(&program, parsed.operands.first().map(String::as_str), parsed.flags);
        // `export W=…`, `declare W=…`, `local W=…` set variables as an assignment does.
        if programs::declares_variables(&program) {
            let assignments: Vec<(String, String)> = args
                .iter()
                .filter(|word| scan::is_assignment(word))
                .filter_map(|word| word.split_once('=').map(|(name, value)| (name.to_string(), value.to_string())))
                .collect();
            self.assign(&assignments);
        }
        // `git restore --help` runs `git help restore`: it prints, and changes nothing.
        if programs::help_options(&program).iter().any(|help| parsed.flags.iter().any(|flag| flag == help)) {
            parsed.operands.insert(0, "help".to_string());
        }
        let nested = Context {
            via: [via.as_slice(), std::slice::from_ref(&program)].concat(),
            inputs: inputs.clone(),
            piped_words: Vec::new(),
            depth: ctx.depth + 1,
        };
        if let Some(script) = script_of(&program, &parsed, &args) {
            self.script(&script, &nested);
        } else if programs::reads_script_from_stdin(&program) && reads_stdin(&program, &parsed) {
            // `bash`, `bash -s`, `sh -`, `at now`: the script is what the command reads.
            let script =
                stdin_script.clone().or_else(|| (!ctx.piped_words.is_empty()).then(|| ctx.piped_words.join(" ")));
            if let Some(script) = script {
                self.script(&script, &nested);
            }
        }
        // `pwsh -Command SCRIPT`, `powershell -enc BASE64`: PowerShell's own reading.
        if matches!(program.as_str(), "pwsh" | "powershell") && ctx.depth <= MAX_DEPTH {
            let (flags, scripts) = powershell::invocation(&args);
            parsed.flags = flags;
            for script in scripts {
                let line = powershell::analyse(&script);
                self.out.push_commands(line.commands, &nested.via);
                for (file, access) in line.files {
                    self.file(file, access);
                }
                self.out.too_large |= line.too_large;
            }
        }
        // `psql -c SQL`, `mysql -e SQL`, `sqlite3 DB SQL`, a heredoc: each statement is a `sql`
        // command.
        if sql::is_client(&program) {
            let fed = ctx.piped_words.is_empty() && !ctx.inputs.is_empty();
            let stdin =
                stdin_script.clone().or_else(|| (!ctx.piped_words.is_empty()).then(|| ctx.piped_words.join(" ")));
            let mut statements = sql::commands(&program, &args, stdin.as_deref(), fed);
            for statement in &mut statements {
                statement.inputs = inputs.clone();
            }
            self.out.push_commands(statements, &nested.via);
        }
        // `python3 -c CODE`, `node -e CODE`, `perl <<EOF`: what the code's calls run, delete or write.
        if interpreters::is_interpreter(&program) && ctx.depth <= MAX_DEPTH {
            let stdin =
                stdin_script.clone().or_else(|| (!ctx.piped_words.is_empty()).then(|| ctx.piped_words.join(" ")));
            if let Some(code) = interpreters::code_of(&program, &args, stdin.as_deref()) {
                for run in interpreters::runs(&program, &code) {
                    match run {
                        interpreters::Run::Line(line) => self.script(&line, &nested),
                        interpreters::Run::Argv(words) => self.command(words, Vec::new(), None, &nested),
                    }
                }
            }
        }
        if program == "find" {
            self.find_exec(&args, &parsed, &nested);
        }
        // Codex runs `apply_patch <<'EOF' … EOF` (or with the patch as its operand) given to a
        // shell as its own patch tool: the patch's files are written.
        if matches!(program.as_str(), "apply_patch" | "applypatch") {
            let patch = stdin_script.clone().or_else(|| parsed.operands.first().cloned()).unwrap_or_default();
            for path in crate::vocab::patch::patch_paths(&patch) {
                self.file(path, Access::Write);
            }
        }
        // What this command writes to its output, when the line spells it (through its wrappers
        // too: `stdbuf -o0 echo / | xargs rm -rf`).
        {
            self.output = match program.as_str() {
                // `echo -ne WORDS`: the options are not output.
                "echo" => Some(
                    args.iter()
                        .skip_while(|word| {
                            word.len() > 1 && word.starts_with('-') && word.chars().skip(1).all(|c| "neE".contains(c))
                        })
                        .cloned()
                        .collect(),
                ),
                "printf" if args.len() > 1 => Some(args.get(1..).unwrap_or_default().to_vec()),
                "printf" => Some(args.clone()),
                "cat" if parsed.operands.is_empty() => stdin_script.map(|script| vec![script]),
                // `find / -maxdepth 1 | xargs rm -rf`: what find prints.
                "find" if !parsed.flags.iter().any(|flag| matches!(flag.as_str(), "exec" | "execdir" | "delete")) => {
                    Some(parsed.targets.clone())
                }
                _ => None,
            };
        }
        self.files_of(&program, &parsed);
        let subcommand = parsed.operands.first().cloned();
        let dirs = self.dirs.clone();
        // `cd DIR; …`: later relative paths may start in DIR, or where they started if the `cd`
        // failed or ran in a subshell (`cd -`, `cd $X` add nothing: where the call runs stays).
        if matches!(program.as_str(), "cd" | "pushd") {
            let target = match parsed.operands.first().map(String::as_str) {
                None => Some("~"),
                Some("-") => None,
                // `cd "$(…)"`, `cd $DIR`: relative paths after it start where only the run knows.
                Some(target) if target.starts_with(['$', '`']) => Some(RUN_TIME_INPUT),
                Some(target) if !target.starts_with('-') => Some(target),
                Some(_) => None,
            };
            for spelling in target.map(|target| from_dirs(&dirs, target)).unwrap_or_default() {
                if self.dirs.len() < MAX_DIRS && !self.dirs.contains(&spelling) {
                    self.dirs.push(spelling);
                }
            }
        }
        self.out.commands.push(Command {
            program,
            subcommand,
            flags: parsed.flags,
            operands: parsed.operands,
            words: args,
            via,
            inputs,
            dirs,
        });
    }

    /// Records a wrapper itself as a command (so `runs sudo` holds).
    fn record(&mut self, program: &str, args: &[String], via: &[String], inputs: &[String]) {
        let args = args.to_vec();
        let parsed = parse_options(program, &args);
        self.out.commands.push(Command {
            program: program.to_string(),
            subcommand: None,
            flags: parsed.flags,
            operands: Vec::new(),
            words: args,
            via: via.to_vec(),
            inputs: inputs.to_vec(),
            dirs: self.dirs.clone(),
        });
    }

    /// `find ROOTS… -exec CMD ARGS… ;`: the command runs on what find finds, so `{}` stands
    /// for what the roots and filters select (`find_targets`).
    fn find_exec(&mut self, args: &[String], parsed: &Options, ctx: &Context) {
        for command in find_exec_commands(args) {
            // `{}` stands for each target, inside words too (`{}/`, `sh -c 'rm {}'`).
            for target in &parsed.targets {
                let command: Vec<String> = command.iter().map(|word| word.replace("{}", target)).collect();
                self.command(command, Vec::new(), None, ctx);
            }
        }
    }

    /// The files a command names: the ones it writes by its nature, by a writing option, by
    /// `dd of=`; every other operand and option value as read.
    fn files_of(&mut self, program: &str, parsed: &Options) {
        let mut operands: Vec<&String> = parsed.operands.iter().collect();
        // `grep PATTERN FILE…`, `sed SCRIPT FILE…`, `awk PROGRAM FILE…`.
        if let Some(giving) = programs::text_first_operand(program) {
            if !parsed.values.iter().any(|(option, _)| giving.contains(&option.as_str())) {
                // sed's `r FILE` and `w FILE` commands read and write files of their own.
                if program == "sed" {
                    for (file, access) in operands.first().map(|script| sed_files(script)).unwrap_or_default() {
                        self.file(file, access);
                    }
                }
                operands = operands.split_off(1.min(operands.len()));
            }
        }
        if program == "find" {
            operands.clear();
            // `find ROOT -delete` removes what it selects.
            if parsed.flags.iter().any(|flag| flag == "delete") {
                for target in &parsed.targets {
                    self.file(target.clone(), Access::Write);
                }
            }
        }
        // A script is not a file: `bash -c SCRIPT`, `eval WORDS`, `ssh HOST COMMAND`.
        if programs::runs_words_as_script(program) || program == "ssh" {
            operands.clear();
        } else if programs::is_shell(program) && has_c(&parsed.flags) && !operands.is_empty() {
            operands.remove(0);
        }
        // `awk -i inplace PROGRAM FILE…`.
        let in_place_awk = matches!(program, "awk" | "gawk")
            && parsed.values.iter().any(|(option, value)| option == "i" && value == "inplace");
        // `git rm F`, `git mv A B`, `git checkout -- F`, `git restore F` change the work tree.
        let git_writes = program == "git"
            && matches!(
                parsed.operands.first().map(String::as_str),
                Some("rm" | "mv" | "checkout" | "restore" | "clean")
            );
        if program == "git" && !operands.is_empty() {
            operands.remove(0);
        }
        let writes = programs::writes(program, &parsed.flags);
        let count = operands.len();
        for (at, operand) in operands.into_iter().enumerate() {
            if program == "dd" {
                if let Some(target) = operand.strip_prefix("of=") {
                    self.file(target.to_string(), Access::Write);
                } else if let Some(source) = operand.strip_prefix("if=") {
                    self.file(source.to_string(), Access::Read);
                }
                continue;
            }
            // `chmod MODE FILE…`: the mode is no file.
            if writes == Writes::AfterFirst && at == 0 {
                continue;
            }
            let written = in_place_awk
                || git_writes
                || match writes {
                    Writes::All => true,
                    Writes::AfterFirst => at > 0,
                    Writes::Last => at + 1 == count && count > 1,
                    Writes::None => false,
                };
            if written {
                self.file(operand.clone(), Access::Write);
                // `cp SRC… DIR`: the files written are also `DIR/SRC`.
                let directory = operand.ends_with('/') || matches!(operand.as_str(), "." | "..") || count > 2;
                if (writes == Writes::Last || program == "mv") && at + 1 == count && count > 1 && directory {
                    for source in parsed.operands.iter().take(count.saturating_sub(1)) {
                        let name = source.trim_end_matches('/').rsplit('/').next().unwrap_or(source);
                        self.file(format!("{}/{name}", operand.trim_end_matches('/')), Access::Write);
                    }
                }
            } else if !programs::operands_are_text(program) {
                self.file(operand.clone(), Access::Read);
            }
        }
        let writing = programs::writing_options(program);
        let reading = programs::reading_options(program);
        let using = programs::using_options(program);
        for (option, value) in &parsed.values {
            if writing.contains(&option.as_str()) {
                self.file(value.clone(), Access::Write);
                // `cp -t DIR SRC…`.
                if matches!(option.as_str(), "t" | "target-directory") {
                    for source in &parsed.operands {
                        let name = source.trim_end_matches('/').rsplit('/').next().unwrap_or(source);
                        self.file(format!("{}/{name}", value.trim_end_matches('/')), Access::Write);
                    }
                }
            } else if reading.contains(&option.as_str()) {
                self.file(value.clone(), Access::Read);
            } else if using.contains(&option.as_str()) {
                self.file(value.clone(), Access::Use);
            } else if let Some(file) = value.strip_prefix('@').or_else(|| value.split_once("=@").map(|(_, file)| file))
            {
                // `curl -d @.env`: the value names a file read.
                self.file(file.to_string(), Access::Read);
            }
        }
    }
}

/// How deeply brackets nest in `text` outside quotes and comments, all kinds together and
/// plain parentheses alone (`(`, `((`, not `$(`): brush-parser backtracks on nested parentheses,
/// its time growing about fourfold with each `((` level (measured: eight levels take 1.6 ms,
/// sixteen take minutes), so such a line is read tolerantly. An over-estimate is safe.
fn nesting(text: &str) -> (usize, usize) {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut parens, mut deepest_parens) = (0usize, 0usize);
    let mut previous = ' ';
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '\'' => {
                for inner in chars.by_ref() {
                    if inner == '\'' {
                        break;
                    }
                }
            }
            // A comment starts a word; a `#` inside a word is a character.
            '#' if previous.is_whitespace() || matches!(previous, ';' | '&' | '|' | '(' | ')') => {
                for inner in chars.by_ref() {
                    if inner == '\n' {
                        break;
                    }
                }
            }
            '(' | '{' | '[' => {
                depth += 1;
                deepest = deepest.max(depth);
                if c == '(' && previous != '$' {
                    parens += 1;
                    deepest_parens = deepest_parens.max(parens);
                }
            }
            ')' | '}' | ']' => {
                depth = depth.saturating_sub(1);
                if c == ')' {
                    parens = parens.saturating_sub(1);
                }
            }
            _ => {}
        }
        previous = c;
    }
    (deepest, deepest_parens)
}

/// Whether a number of ten digits or more stands right before `<` or `>` (`99999999999>x`):
/// brush-parser 0.4 unwraps its parse as a descriptor and panics. The panic is caught too
/// (`script`), but a known one is better not raised.
fn huge_descriptor(text: &str) -> bool {
    let mut digits = 0usize;
    for c in text.chars() {
        match c {
            '0'..='9' => digits += 1,
            '<' | '>' if digits >= 10 => return true,
            _ => digits = 0,
        }
    }
    false
}

/// Whether a heredoc's delimiter is anything but a plain word (`<<EOF`, `<<-'EOF'`, `<<"x"`):
/// brush-parser 0.4 loops allocating without end on some (`<<o$( <<< m ` took 3 GB in three
/// seconds; found by fuzzing), which no deadline could contain in one process. Such a line is
/// read tolerantly.
fn odd_heredoc(text: &str) -> bool {
    let mut rest = text;
    while let Some(at) = rest.find("<<") {
        let after = rest.get(at + 2..).unwrap_or_default();
        if let Some(here_string) = after.strip_prefix('<') {
            rest = here_string;
            continue;
        }
        let delimiter = after.strip_prefix('-').unwrap_or(after).trim_start_matches([' ', '\t']);
        let word: &str =
            delimiter.split(|c: char| c.is_whitespace() || ";&|<>()".contains(c)).next().unwrap_or_default();
        let plain = !word.is_empty() && word.chars().all(|c| c.is_alphanumeric() || "_-.'\"\\".contains(c));
        if !plain {
            return true;
        }
        rest = after;
    }
    false
}

/// Tolerantly read words split into the commands a shell would run: after a shell's `-c` (or
/// `--command`) and after `eval`, a new command starts.
fn split_scripts(words: Vec<String>) -> Vec<Vec<String>> {
    let mut commands = vec![Vec::new()];
    let mut shell = false;
    for word in words {
        let name = program_name(&word);
        let starts_script = (shell
            && ((word.starts_with('-') && !word.starts_with("--") && word.contains('c')) || word == "--command"))
            || (commands.last().is_some_and(Vec::is_empty) && programs::runs_words_as_script(&name));
        shell = programs::is_shell(&name) || (shell && word.starts_with(['-', '+']));
        if let Some(current) = commands.last_mut() {
            current.push(word);
        }
        if starts_script {
            commands.push(Vec::new());
        }
    }
    commands.retain(|command| !command.is_empty());
    commands
}

/// Whether a duplication's target names a descriptor (`>&2`, `<&-`) rather than a file.
fn is_descriptor(target: &str) -> bool {
    target == "-" || (!target.is_empty() && target.chars().all(|c| c.is_ascii_digit()))
}

/// A program word's name: its last path segment (`/bin/rm` is `rm`).
pub(crate) fn program_name(word: &str) -> String {
    if word.contains(['$', '`']) {
        return word.to_string();
    }
    // `C:\Git\bin\git.exe` and `git.EXE` are `git`, as Windows runs them (Git Bash, WSL).
    let name = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let stem =
        name.len().checked_sub(4).filter(|&at| name.get(at..).is_some_and(|ext| ext.eq_ignore_ascii_case(".exe")));
    stem.and_then(|at| name.get(..at)).filter(|stem| !stem.is_empty()).unwrap_or(name).to_string()
}

/// The commands of a find expression's `-exec`/`-execdir`/`-ok` primaries.
fn find_exec_commands(args: &[String]) -> Vec<&[String]> {
    let mut commands = Vec::new();
    let mut rest = args;
    while let Some(at) = rest.iter().position(|word| programs::is_find_exec(word)) {
        let after = rest.get(at + 1..).unwrap_or_default();
        let end = after.iter().position(|word| programs::ends_find_exec(word)).unwrap_or(after.len());
        commands.push(after.get(..end).unwrap_or_default());
        rest = after.get(end..).unwrap_or_default();
    }
    commands
}

/// A wrapper's own options and leading operands removed: the command it runs, and the script of
/// `env -S 'rm -rf /'` if given.
fn unwrap(program: &str, wrapper: &programs::Wrapper, words: &[String]) -> (Vec<String>, Option<String>) {
    let mut at = 0;
    let mut split = None;
    let mut leading = wrapper.leading_operands;
    while let Some(word) = words.get(at) {
        if word == "--" {
            at += 1;
            break;
        }
        if word == "-" && wrapper.lone_dash {
            at += 1;
            continue;
        }
        if let Some(long) = word.strip_prefix("--") {
            let (name, value) = long.split_once('=').map_or((long, None), |(name, value)| (name, Some(value)));
            let takes = wrapper.long_values.contains(&name);
            if program == "env" && name == "split-string" {
                split = value.map(str::to_string).or_else(|| words.get(at + 1).cloned());
            }
            at += if takes && value.is_none() { 2 } else { 1 };
            continue;
        }
        if word.len() > 1 && word.starts_with('-') {
            let letters = word.get(1..).unwrap_or_default();
            let mut step = 1;
            for (offset, letter) in letters.char_indices() {
                if wrapper.short_values.contains(letter) {
                    let attached = letters.get(offset + letter.len_utf8()..).unwrap_or_default();
                    let value = if attached.is_empty() {
                        step = 2;
                        words.get(at + 1).cloned()
                    } else {
                        Some(attached.to_string())
                    };
                    if program == "env" && letter == 'S' {
                        split = value;
                    }
                    break;
                }
            }
            at += step;
            continue;
        }
        if wrapper.assignments && word.contains('=') && !word.starts_with('=') {
            at += 1;
            continue;
        }
        if leading > 0 {
            leading -= 1;
            at += 1;
            continue;
        }
        break;
    }
    (words.get(at..).unwrap_or_default().to_vec(), split)
}

/// A command's words split into flags, operands and option values.
#[derive(Debug, Default)]
struct Options {
    flags: Vec<String>,
    operands: Vec<String>,
    /// `(option, value)` for options given a value (`--file=x`, or a known value option).
    values: Vec<(String, String)>,
    /// For `find`: what `{}` and `-delete` stand for (`find_targets`).
    targets: Vec<String>,
}

fn parse_options(program: &str, args: &[String]) -> Options {
    let (mut short_values, mut long_values) = programs::value_options(program);
    let has_subcommands = programs::subcommand_value_options(program, "").is_some();
    let mut options = Options::default();
    if program == "find" {
        // find's own options (`-L`, `-H`, `-P`, `-O3`, `-D opts`) come before its roots; its
        // expression words are single-dash names (`-delete`, `-exec`, `-name X`); the words of
        // an `-exec` command are that command's.
        let mut from = 0;
        while let Some(word) = args.get(from) {
            match word.as_str() {
                "-H" | "-L" | "-P" | "--" => from += 1,
                "-D" => from += 2,
                _ if word.starts_with("-O") => from += 1,
                _ => break,
            }
        }
        let rest = args.get(from..).unwrap_or_default();
        let start =
            rest.iter().position(|word| word.starts_with('-') || word == "(" || word == "!").unwrap_or(rest.len());
        options.operands = rest.get(..start).unwrap_or_default().to_vec();
        let mut in_exec = false;
        for word in rest.get(start..).unwrap_or_default() {
            if in_exec {
                in_exec = !programs::ends_find_exec(word);
                continue;
            }
            in_exec = programs::is_find_exec(word);
            if let Some(name) = word.strip_prefix('-').filter(|name| !name.is_empty()) {
                options.flags.push(name.to_string());
            }
        }
        options.targets = find_targets(rest.get(start..).unwrap_or_default(), &options.operands);
        return options;
    }
    let mut words = args.iter();
    let mut ended = false;
    // `bash +x -c …`, `bash +O extglob -c …`: a shell's `+` options are options too.
    let plus = programs::is_shell(program);
    while let Some(word) = words.next() {
        // `bash -c SCRIPT NAME ARGS…`: what follows a shell's script is its parameters.
        if plus && !options.operands.is_empty() {
            ended = true;
        }
        let word = match word.strip_prefix('+').filter(|rest| plus && !ended && !rest.is_empty()) {
            Some(rest) => &format!("-{rest}"),
            None => word,
        };
        if ended || word == "-" || !word.starts_with('-') {
            options.operands.push(word.clone());
            // The subcommand's own options follow it (`git checkout -bNAME`).
            if has_subcommands && !ended && options.operands.len() == 1 {
                if let Some((short, long)) = programs::subcommand_value_options(program, word) {
                    (short_values, long_values) = (short, long);
                }
            }
            continue;
        }
        if word == "--" {
            ended = !(has_subcommands && options.operands.is_empty());
            continue;
        }
        if let Some(long) = word.strip_prefix("--") {
            match long.split_once('=') {
                Some((name, value)) => {
                    options.flags.push(name.to_string());
                    options.values.push((name.to_string(), value.to_string()));
                }
                None => {
                    options.flags.push(long.to_string());
                    if long_values.contains(&long) {
                        if let Some(value) = words.next() {
                            options.values.push((long.to_string(), value.clone()));
                        }
                    }
                }
            }
            continue;
        }
        let letters = word.get(1..).unwrap_or_default();
        for (offset, letter) in letters.char_indices() {
            options.flags.push(letter.to_string());
            if short_values.contains(letter) {
                let attached = letters.get(offset + letter.len_utf8()..).unwrap_or_default();
                let value = if attached.is_empty() { words.next().cloned() } else { Some(attached.to_string()) };
                if let Some(value) = value {
                    options.values.push((letter.to_string(), value));
                }
                break;
            }
        }
    }
    options
}

/// What `find`'s `{}` and `-delete` stand for: each root when nothing filters (`find /`,
/// `find . -maxdepth 1`), `ROOT/**/NAME` for a `-name NAME` filter, `ROOT/**` for any other
/// filter. `.` when no root is given.
fn find_targets(expression: &[String], roots: &[String]) -> Vec<String> {
    const FILTERS: &[&str] = &[
        "-path",
        "-ipath",
        "-wholename",
        "-iwholename",
        "-regex",
        "-iregex",
        "-type",
        "-xtype",
        "-newer",
        "-mtime",
        "-mmin",
        "-atime",
        "-amin",
        "-ctime",
        "-cmin",
        "-size",
        "-empty",
        "-user",
        "-group",
        "-perm",
        "-links",
        "-inum",
        "-samefile",
        "-mindepth",
        "-uid",
        "-gid",
        "-nouser",
        "-nogroup",
        "-readable",
        "-writable",
        "-executable",
    ];
    let roots: Vec<String> = if roots.is_empty() { vec![".".to_string()] } else { roots.to_vec() };
    let before_exec: Vec<&String> = expression.iter().take_while(|word| !programs::is_find_exec(word)).collect();
    // Every `-name` (an `-o` joins them), and whether anything else filters.
    let names: Vec<&String> = before_exec
        .windows(2)
        .filter(|pair| matches!(pair.first().map(|word| word.as_str()), Some("-name" | "-iname")))
        .filter_map(|pair| pair.get(1).copied())
        .collect();
    let filtered = before_exec.iter().any(|word| FILTERS.contains(&word.as_str()));
    let either = before_exec.iter().any(|word| matches!(word.as_str(), "-o" | "-or"));
    let mut targets = Vec::new();
    for root in roots {
        let trimmed = root.trim_end_matches('/');
        if names.is_empty() && !filtered {
            targets.push(if trimmed.is_empty() { "/".to_string() } else { trimmed.to_string() });
            continue;
        }
        for name in &names {
            targets.push(format!("{trimmed}/{name}"));
            targets.push(format!("{trimmed}/**/{name}"));
        }
        // Other filters without a name, or an `-o` that admits more than the names: anything.
        if (filtered && names.is_empty()) || either {
            targets.push(format!("{trimmed}/**"));
        }
    }
    targets
}

/// Whether a shell's options ask it to run its first operand as a script.
fn has_c(flags: &[String]) -> bool {
    flags.iter().any(|flag| flag == "c" || flag == "command")
}

/// The script a command runs, when its words say it: a shell's `-c SCRIPT` (with its
/// positional parameters put in), `su -c`/`flock -c`/`script -c`, `eval WORDS`, `watch
/// [OPTIONS] WORDS`, `ssh [OPTIONS] HOST WORDS`, `tmux send-keys WORDS`.
fn script_of(program: &str, parsed: &Options, args: &[String]) -> Option<String> {
    if programs::is_shell(program) {
        if !has_c(&parsed.flags) {
            return None;
        }
        let script = parsed.operands.first()?;
        return Some(positional(script, parsed.operands.get(1..).unwrap_or_default()));
    }
    if let Some((short, long)) = programs::script_option(program) {
        return parsed
            .values
            .iter()
            .find(|(option, _)| option == short || option == long)
            .map(|(_, value)| value.clone());
    }
    let words: &[String] = match program {
        "eval" => args.strip_prefix(&["--".to_string()]).unwrap_or(args),
        // watch's options end at its first other word: the rest is the command.
        "watch" => {
            let mut at = 0;
            while let Some(word) = args.get(at).filter(|word| word.starts_with('-')) {
                at += if matches!(word.as_str(), "-n" | "--interval") { 2 } else { 1 };
            }
            args.get(at..).unwrap_or_default()
        }
        "ssh" => parsed.operands.get(1..).unwrap_or_default(),
        "tmux"
            if matches!(
                parsed.operands.first().map(String::as_str),
                Some(
                    "new"
                        | "new-session"
                        | "new-window"
                        | "neww"
                        | "split-window"
                        | "splitw"
                        | "send-keys"
                        | "send"
                        | "respawn-pane"
                )
            ) =>
        {
            parsed.operands.get(1..).unwrap_or_default()
        }
        _ => return None,
    };
    (!words.is_empty()).then(|| words.join(" "))
}

/// Whether a program that reads a script from its input does so here: a shell with no script
/// operand, `-s`, or `-`; `at`/`batch` always; `su` without `-c`.
fn reads_stdin(program: &str, parsed: &Options) -> bool {
    if !programs::is_shell(program) {
        return true;
    }
    !has_c(&parsed.flags)
        && (parsed.operands.is_empty()
            || parsed.operands.first().is_some_and(|first| first == "-")
            || parsed.flags.iter().any(|flag| flag == "s"))
}

/// `~NAME` and `~NAME/…` unquoted, as the shell expands them: NAME's home directory, spelled
/// as the system keeps homes (`/root` for root; `/home/NAME`, or `/Users/NAME` on macOS), so
/// rules on homes see another user's as a home. The current user's is `~` to the path model
/// (which spells its own home so), `~+` and `~-` are directories of the shell, not homes.
fn user_home(raw: &str) -> Option<String> {
    let rest = raw.strip_prefix('~')?;
    let (name, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let plain = |c: char| c.is_ascii_alphanumeric() || "._-".contains(c);
    if name.is_empty() || name.starts_with(['-', '+']) || !name.chars().all(plain) {
        return None;
    }
    let home = match (name, cfg!(target_os = "macos")) {
        ("root", false) => "/root".to_string(),
        ("root", true) => "/var/root".to_string(),
        (name, false) => format!("/home/{name}"),
        (name, true) => format!("/Users/{name}"),
    };
    let own = crate::paths::Anchor::process_home().is_some_and(|own| own.trim_end_matches('/') == home);
    Some(match own {
        true => format!("~{tail}"),
        false => format!("{home}{tail}"),
    })
}

/// `bash -c 'rm -rf "$1"' _ /`: the script with `$0`…`$9`, `${N}`, `$@` and `$*` replaced by
/// the words after it (shell-quoted; `"$@"` is each word on its own). Where the script still
/// reads parameters it cannot be given them here (`shift`, `set --`, `${@:2}`, `$10`), the words
/// are also read as commands of their own, from each of the first ten: `sh -c 'shift; "$@"' _ a
/// rm -rf ~` runs some of them, so they are judged as what it may run.
fn positional(script: &str, values: &[String]) -> String {
    if values.is_empty() || !script.contains('$') {
        return script.to_string();
    }
    // A plain value goes in as it is (inside quotes too); anything else single-quoted.
    let quote = |word: &str| {
        if !word.is_empty() && word.chars().all(|c| c.is_alphanumeric() || "-_./~+:=@%,".contains(c)) {
            word.to_string()
        } else {
            format!("'{}'", word.replace('\'', "'\\''"))
        }
    };
    let words = |from: usize| values.iter().skip(from).map(|value| quote(value)).collect::<Vec<_>>().join(" ");
    let renumbered = script.contains("shift") || script.contains("set ");
    let mut out = script.to_string();
    if !renumbered && script.len().saturating_mul(values.len()) <= MAX_PARSED {
        let all = words(1);
        out = out.replace("\"${@}\"", &all).replace("\"$@\"", &all);
        out = out.replace("${@}", &all).replace("${*}", &all).replace("$@", &all).replace("$*", &all);
        for (at, value) in values.iter().enumerate().take(10).rev() {
            out = out
                .replace(&format!("${{{at}}}"), &quote(value))
                .replace(&format!("\"${at}\""), &quote(value))
                .replace(&format!("${at}"), &quote(value));
        }
    }
    if renumbered || reads_parameters(&out) {
        // `shift N` drops any number of them: every suffix may be what runs.
        for from in 0..values.len().min(10) {
            out.push('\n');
            out.push_str(&words(from));
        }
    }
    out
}

/// Whether a script reads a positional parameter (`$1`, `${12}`, `$@`, `${@:2}`, `$*`, `$#`).
fn reads_parameters(script: &str) -> bool {
    let bytes = script.as_bytes();
    bytes.iter().enumerate().any(|(at, byte)| {
        let next = |offset: usize| bytes.get(at + offset).copied().unwrap_or(0);
        *byte == b'$' && {
            let first = if next(1) == b'{' { next(2) } else { next(1) };
            first.is_ascii_digit() || matches!(first, b'@' | b'*' | b'#')
        }
    })
}

/// Long options given as unique prefixes (`--rec`, `--force-w`) read as the names they
/// abbreviate, for the programs whose options rules decide on.
fn expand_abbreviations(program: &str, subcommand: Option<&str>, flags: Vec<String>) -> Vec<String> {
    let names = programs::long_options(program, subcommand);
    if names.is_empty() {
        return flags;
    }
    flags
        .into_iter()
        .map(|flag| {
            if flag.chars().count() < 2 || names.contains(&flag.as_str()) {
                return flag;
            }
            let mut matching = names.iter().filter(|name| name.starts_with(flag.as_str()));
            match (matching.next(), matching.next()) {
                (Some(only), None) => (*only).to_string(),
                _ => flag,
            }
        })
        .collect()
}

/// The files a sed script's `r`/`R` commands read and `w`/`W` commands (and the `w` flag of
/// `s///w FILE`) write: each runs to the end of its line.
fn sed_files(script: &str) -> Vec<(String, Access)> {
    static COMMANDS: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let Some(pattern) = COMMANDS
        .get_or_init(|| {
            regex::Regex::new(
                r"(?m)(?:^|[;{}]|[0-9$/]\s*!?)\s*([rRwW])\s+([^\s;}][^
;}]*)",
            )
            .ok()
        })
        .as_ref()
    else {
        return Vec::new();
    };
    pattern
        .captures_iter(script)
        .filter_map(|found| {
            let access = match found.get(1)?.as_str() {
                "r" | "R" => Access::Read,
                _ => Access::Write,
            };
            Some((found.get(2)?.as_str().trim().to_string(), access))
        })
        .collect()
}

/// What a command reads from its input as words: what the line spells (`echo / | xargs …`), or
/// one word known only at run time.
fn read_words(piped_words: &[String]) -> Vec<String> {
    let read: Vec<String> = piped_words.iter().flat_map(|word| word.split_whitespace()).map(str::to_string).collect();
    if read.is_empty() {
        vec![RUN_TIME_INPUT.to_string()]
    } else {
        read
    }
}

/// The word that stands for input the line does not spell: like a `$(…)` left as written, it is
/// known only at run time.
const RUN_TIME_INPUT: &str = "$(cat)";

/// `xargs -I {}`, `-i`, `--replace[=R]`: the text its input replaces.
fn xargs_replacement(own: &[String]) -> Option<String> {
    let mut words = own.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-I" => return words.next().cloned(),
            "-i" | "--replace" => return Some("{}".to_string()),
            _ => {}
        }
        if let Some(token) = word.strip_prefix("--replace=").or_else(|| word.strip_prefix("-I")) {
            return Some(token.to_string());
        }
        if let Some(token) = word.strip_prefix("-i") {
            return Some(token.to_string());
        }
    }
    None
}

/// `word` with `token` replaced by each value in turn (the word itself when it has no token).
fn substitute(word: &str, token: &str, values: &[String]) -> Vec<String> {
    if token.is_empty() || !word.contains(token) {
        return vec![word.to_string()];
    }
    values.iter().map(|value| word.replace(token, value)).collect()
}

/// `parallel [OPTIONS] CMD ARGS… ::: VALUES…`: the command, run with the values; without `:::`
/// the values are what it reads (`read`).
fn parallel(words: &[String], read: &[String]) -> Vec<String> {
    let rest = words.get(1..).unwrap_or_default();
    // Options first; `-j N`, `-S HOSTS`, `--jobs N` … take a value.
    let mut start = 0;
    while let Some(word) = rest.get(start).filter(|word| word.starts_with('-')) {
        let takes = matches!(word.as_str(), "-j" | "-P" | "-S" | "-n" | "-N" | "-L" | "-l" | "--jobs" | "--sshlogin");
        start += if takes { 2 } else { 1 };
    }
    let rest = rest.get(start..).unwrap_or_default();
    let split = rest.iter().position(|word| word.starts_with(":::")).unwrap_or(rest.len());
    let command = rest.get(..split).unwrap_or_default();
    let values: Vec<String> = match split == rest.len() {
        true => read.to_vec(),
        // `:::: FILE`: the values are in a file, known only at run time.
        false if rest.iter().any(|word| word.starts_with("::::")) => vec![RUN_TIME_INPUT.to_string()],
        false => {
            rest.get(split..).unwrap_or_default().iter().filter(|word| !word.starts_with(":::")).cloned().collect()
        }
    };
    if command.iter().any(|word| word == "{}") {
        command.iter().flat_map(|word| if word == "{}" { values.clone() } else { vec![word.clone()] }).collect()
    } else {
        command.iter().cloned().chain(values).collect()
    }
}

/// The text of a `$'…'` string: its backslash escapes decoded as bash does.
fn ansi_c(escaped: &str) -> String {
    let mut out = String::new();
    let mut chars = escaped.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(kind) = chars.next() else {
            out.push('\\');
            break;
        };
        let mut number = |radix: u32, max: usize, first: Option<char>| {
            let mut digits: String = first.into_iter().collect();
            while digits.len() < max {
                match chars.peek() {
                    Some(d) if d.is_digit(radix) => {
                        digits.push(*d);
                        chars.next();
                    }
                    _ => break,
                }
            }
            u32::from_str_radix(&digits, radix).ok().and_then(char::from_u32)
        };
        let decoded = match kind {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'e' | 'E' => Some('\u{1b}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            '0'..='7' => number(8, 3, Some(kind)),
            'x' => number(16, 2, None),
            'u' => number(16, 4, None),
            'U' => number(16, 8, None),
            other => Some(other),
        };
        if let Some(decoded) = decoded {
            out.push(decoded);
        }
    }
    out
}

#[cfg(test)]
mod tests;
