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
//!
//! Where each idea lives: this file, the line model (`Command`, `CommandLine`, `Access`) and the
//! entry points; `walk.rs`, the walk over the syntax tree; `command.rs`, one simple command read;
//! `expand.rs`, word and variable expansion; `wrappers.rs`, seeing through wrappers and script
//! runners; `options.rs`, a program's options read by its table; `programs.rs`, the table of
//! program knowledge; `guards.rs`, the limits and the guards against hostile input; `scan.rs`,
//! the fast scanner; `interpreters.rs`, `sql.rs` and `powershell.rs`, the languages other
//! programs are handed.

mod command;
mod egress;
mod expand;
mod guards;
mod interpreters;
mod javascript;
mod options;
pub(crate) mod powershell;
mod programs;
mod python;
mod scan;
mod sql;
mod walk;
mod wrappers;

pub(crate) use egress::hosts as egress;
pub use egress::remote_url_host;
pub(crate) use egress::{normalise as normalise_host, url_host};
pub(crate) use javascript::percent_decoded;
pub(crate) use sql::{mcp_query, read_files as read_sql_files, MAX_FILE as MAX_SQL_FILE};

use brush_parser::ast;
use brush_parser::word::{self, Parameter, ParameterExpr, TildeExpr, WordPiece, WordPieceWithSource};
use brush_parser::ParserOptions;
use expand::*;
use guards::*;
use options::*;
use programs::{Output, Reader, Script, Writes};
use std::borrow::Cow;
use std::panic::AssertUnwindSafe;
use walk::*;
use wrappers::*;

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
    /// The other hosts it acts on: the host `ssh` runs it on (and `ssh` itself), the hosts
    /// whose files `scp`, `rsync` or `sftp` name (`HOST:PATH`). Its paths on those hosts are
    /// not this machine's: they are in no `paths`, and none is `outside` the project.
    pub remote: Vec<String>,
}

/// The host a word names as another host's file or address, as ssh, scp, sftp and rsync read
/// it: `[USER@]HOST:PATH`, rsync's `HOST::MODULE`, `[USER@][IPV6]:PATH`, and `scp://`,
/// `sftp://`, `ssh://` and `rsync://` URLs (`[USER@]HOST[:PORT]/PATH`). A word with a `/`
/// before its first `:` is a local path, as OpenSSH's `colon()` reads it.
pub(crate) fn remote_host(word: &str) -> Option<String> {
    remote(word, false)
}

/// Whether a word may be a Windows drive's path (`C:/x`, `c:\\x`): another host's file to scp
/// on Unix, and this machine's on Windows, so it is read as both.
pub(crate) fn may_be_drive(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|letter| letter.is_ascii_alphabetic()) && chars.next() == Some(':')
}

/// The host `ssh` is given (`[USER@]HOST`, `ssh://[USER@]HOST[:PORT]`).
pub(crate) fn ssh_host(word: &str) -> String {
    remote(word, true).unwrap_or_else(|| word.to_string())
}

fn remote(word: &str, bare: bool) -> Option<String> {
    let host_of = |authority: &str| {
        let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
        let host = match host.strip_prefix('[') {
            Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
            None => host.split(':').next().unwrap_or_default(),
        };
        (!host.is_empty()).then(|| host.to_string())
    };
    if word.starts_with('-') {
        return None;
    }
    for scheme in ["scp://", "sftp://", "ssh://", "rsync://"] {
        if let Some(rest) =
            word.get(..scheme.len()).filter(|head| head.eq_ignore_ascii_case(scheme)).and(word.get(scheme.len()..))
        {
            return host_of(rest.split('/').next().unwrap_or_default());
        }
    }
    if bare {
        return host_of(word);
    }
    // `[::1]:x`, `user@[fe80::1]:x`: the colon that ends the host follows its bracket. As
    // OpenSSH's `colon()` reads it, the bracket opens the word or follows its user, before any
    // colon (`h:u@[x` is h's file `u@[x`).
    let bracketed = word.starts_with('[') || word.split(':').next().is_some_and(|head| head.contains("@["));
    let authority = match bracketed {
        true => word.split_once("]:").map(|(authority, _)| format!("{authority}]"))?,
        false => word.split_once(':').map(|(authority, _)| authority.to_string())?,
    };
    let host = host_of(&authority)?;
    // rsync and scp take a host of letters, digits, dots, dashes and underscores (a `[` but
    // first, `a[b]:x`, is a local file's name).
    let plain = host.chars().all(|c| c.is_ascii_alphanumeric() || ".-_".contains(c))
        || authority.contains('[') && authority.rsplit('@').next().is_some_and(|at| at.starts_with('['));
    (!authority.contains('/') && plain).then_some(host)
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

/// At most this many aliases are kept for a line; past them, what a name runs is unread.
const MAX_ALIASES: usize = 32;

/// Whether a shell text closes every quote it opens (`'…'`, `"…"`, `$'…'`, a trailing `\`).
pub(super) fn quotes_balanced(text: &str) -> bool {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.next().is_none() => return false,
            '\'' if !chars.by_ref().any(|c| c == '\'') => return false,
            '$' if chars.peek() == Some(&'\'') => {
                chars.next();
                loop {
                    match chars.next() {
                        None => return false,
                        Some('\\') => {
                            chars.next();
                        }
                        Some('\'') => break,
                        Some(_) => {}
                    }
                }
            }
            '"' => loop {
                match chars.next() {
                    None => return false,
                    Some('\\') => {
                        chars.next();
                    }
                    Some('"') => break,
                    Some(_) => {}
                }
            },
            _ => {}
        }
    }
    true
}

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
    /// What the reading could not account for, as reasons, each once (`unread`): a program or
    /// callee chosen at run time, a script from a descriptor, code that does not parse, a
    /// bound reached. Unknown is never harmless: the baseline asks about any.
    pub unread: Vec<String>,
}

/// The classes of [`CommandLine::unread`] reasons, each a reason's first words (`CLASS:
/// DETAIL`), so that a rule can tell them apart (`unread matches /^script from/`). docs/shell.md
/// lists them.
pub(crate) mod unread {
    /// A program, or a language's callee, chosen at run time (`$(echo rm) -rf ~`, `getattr`,
    /// `eval(x)`, `iex $x`).
    pub(crate) const CALLEE: &str = "callee chosen at run time";
    /// An effect that changes files reached with a target known only at run time
    /// (`shutil.rmtree(sys.argv[1])`).
    pub(crate) const TARGET: &str = "target known only at run time";
    /// Code in another language that does not parse.
    pub(crate) const UNPARSED: &str = "code that does not parse";
    /// A script read from a descriptor the line does not spell (`python3 /dev/stdin`,
    /// `bash <(curl …)`, `pwsh -Command -`).
    pub(crate) const DESCRIPTOR: &str = "script from a descriptor";
    /// A reading stopped at its size, depth or time bound.
    pub(crate) const BOUND: &str = "reading bound";
}

/// At most this many reasons are kept (the first ones): one is enough to ask.
const MAX_UNREAD: usize = 16;

/// The most commands one line may run, and files it may name, and be judged: every agent's
/// command fits many times over, while a hostile line (8,000 `sudo`s, a pipeline of 8,000
/// programs) would otherwise cost time quadratic in its length.
pub(crate) const MAX_COMMANDS: usize = 500;
/// See [`MAX_COMMANDS`].
pub(crate) const MAX_FILES: usize = 2_000;

impl CommandLine {
    /// Records what the reading could not account for: `class` is one of [`unread`]'s.
    pub(crate) fn unread(&mut self, class: &str, detail: &str) {
        self.push_unread(vec![format!("{class}: {detail}")]);
    }

    /// Adds reasons another reading gave (a PowerShell script's, the words it hands the shell
    /// reader), each once, up to [`MAX_UNREAD`].
    pub(crate) fn push_unread(&mut self, reasons: Vec<String>) {
        for reason in reasons {
            if self.unread.len() < MAX_UNREAD && !self.unread.contains(&reason) {
                self.unread.push(reason);
            }
        }
    }

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

/// Parses a command line as a shell would, on a host whose file names do not fold case.
#[cfg(test)]
pub(crate) fn analyse(line: &str) -> CommandLine {
    analyse_on(line, crate::paths::PathCase::Sensitive)
}

/// Parses a command line as a shell on a host with file names of `case` would: where they fold
/// (macOS, Windows), `SUDO` and `Bash` run `sudo` and `bash`.
pub(crate) fn analyse_on(line: &str, case: crate::paths::PathCase) -> CommandLine {
    let fold = case == crate::paths::PathCase::Insensitive;
    let mut walker = Walker { temp_set: sets_temp(line), line: line.to_string(), fold, ..Walker::default() };
    walker.script(line, &Context::default());
    walker.unused_aliases();
    walker.out
}

/// Parses a command line with brush-parser alone (the scanner's fast path off).
/// `None` when brush-parser rejects some part of it.
#[cfg(test)]
fn analyse_with_parser(line: &str) -> Option<CommandLine> {
    let mut walker = Walker { parser_only: true, ..Walker::default() };
    walker.script(line, &Context::default());
    walker.unused_aliases();
    (!walker.rejected).then_some(walker.out)
}

/// Reads words a program receives as one simple command, read by the shell reader's rules for
/// options and wrappers (PowerShell's native commands).
fn analyse_words(words: &[String]) -> CommandLine {
    let mut walker = Walker { unexpanded: true, ..Walker::default() };
    walker.command(words.to_vec(), Vec::new(), None, &Context::default());
    walker.out
}

/// Reads an argv array (Codex's `shell` tool) as one simple command, names folded as
/// [`analyse_on`] folds them.
pub(crate) fn analyse_argv(argv: &[String], case: crate::paths::PathCase) -> CommandLine {
    let mut walker =
        Walker { fold: case == crate::paths::PathCase::Insensitive, unexpanded: true, ..Walker::default() };
    // No shell expands these words: `~` is a file of that name (`./~`), not the home directory.
    let words =
        argv.iter().map(|word| if word.starts_with('~') { format!("./{word}") } else { word.clone() }).collect();
    walker.command(words, Vec::new(), None, &Context::default());
    walker.out
}

/// Whether `program` runs the script it reads: a shell, or an interpreter of another language.
pub(crate) fn runs_scripts(program: &str) -> bool {
    programs::program(program).is_shell() || interpreters::is_interpreter(program)
}

/// A program word's name: its last path segment (`/bin/rm` is `rm`).
/// What a command that moves, copies or links files takes and where it puts it: its sources and
/// its destination (`-t DIR`/`--target-directory`, else the last of two or more operands);
/// nothing for any other command.
pub(crate) fn transfer(command: &Command) -> (Vec<String>, Option<String>) {
    const MOVERS: &[&str] = &["mv", "cp", "ln", "install", "rsync", "scp", "ditto", "gmv", "gcp"];
    if !MOVERS.contains(&command.program.as_str()) {
        return (Vec::new(), None);
    }
    // coreutils' `-t DIR`/`--target-directory` (rsync's `-t` keeps times; scp and ditto have none).
    let targets = !matches!(command.program.as_str(), "rsync" | "scp" | "ditto");
    let mut words = if targets { command.words.iter() } else { [].iter() };
    let mut target: Option<String> = None;
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        if word == "-t" || word == "--target-directory" {
            target = words.next().cloned();
        } else if let Some(dir) = word.strip_prefix("--target-directory=") {
            target = Some(dir.to_string());
        } else if let Some(dir) = word.strip_prefix("-t").filter(|dir| !dir.is_empty() && !word.starts_with("--")) {
            target = Some(dir.to_string());
        }
    }
    match target {
        // (The option's value is no operand: the options table knows it takes one.)
        Some(dir) => (command.operands.clone(), Some(dir)),
        None => match command.operands.split_last() {
            Some((last, rest)) if !rest.is_empty() => (rest.to_vec(), Some(last.clone())),
            _ => (command.operands.clone(), None),
        },
    }
}

pub(crate) fn program_name(word: &str) -> String {
    if word.contains(['$', '`']) {
        // `$(which python3)`, `$(command -v node)`: that program, wherever it is.
        let inner = word.strip_prefix("$(").and_then(|rest| rest.strip_suffix(')')).unwrap_or_default();
        let words: Vec<&str> = inner.split_whitespace().collect();
        if let ["which" | "type -P", name] | ["command", "-v", name] = words.as_slice() {
            if !name.contains(['$', '`', '(', ')', '/']) {
                return (*name).to_string();
            }
        }
        // `"$VIRTUAL_ENV/bin/python"`, `$(go env GOPATH)/bin/golangci-lint`: the directory is
        // known only at run time, the name is spelled.
        return match word.rsplit_once('/') {
            Some((_, name)) if !name.is_empty() && !name.contains(['$', '`', '(', ')', '{', '}']) => name.to_string(),
            _ => word.to_string(),
        };
    }
    // `C:\Git\bin\git.exe`, `git.EXE` and `npm.cmd` are `git` and `npm`, as Windows runs
    // them, and as WSL does on any Linux path model (`powershell.exe -c …` from bash), which the
    // call's payload cannot tell from Linux: on every host, the reading that sees more.
    let name = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let stem = name.len().checked_sub(4).filter(|&at| {
        name.get(at..)
            .is_some_and(|ext| [".exe", ".cmd", ".bat", ".com"].iter().any(|known| ext.eq_ignore_ascii_case(known)))
    });
    stem.and_then(|at| name.get(..at)).filter(|stem| !stem.is_empty()).unwrap_or(name).to_string()
}

#[cfg(test)]
mod tests;
