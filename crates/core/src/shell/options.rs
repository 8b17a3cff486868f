//! Program knowledge applied to one command's words: its options and their values, abbreviations,
//! `find`'s targets, `sed`'s written files (the tables in `programs.rs`).

use super::*;

/// Whether a duplication's target names a descriptor (`>&2`, `<&-`) rather than a file.
pub(super) fn is_descriptor(target: &str) -> bool {
    target == "-" || (!target.is_empty() && target.chars().all(|c| c.is_ascii_digit()))
}

/// A command's words split into flags, operands and option values.
#[derive(Debug, Default)]
pub(super) struct Options {
    pub(super) flags: Vec<String>,
    pub(super) operands: Vec<String>,
    /// `(option, value)` for options given a value (`--file=x`, or a known value option).
    pub(super) values: Vec<(String, String)>,
    /// For `find`: what `{}` and `-delete` stand for (`find_targets`).
    pub(super) targets: Vec<String>,
}

impl Options {
    /// Whether a shell's options turn execution off (the [`NOEXEC`] flag the walker sets).
    pub(super) fn noexec(&self) -> bool {
        self.flags.iter().any(|flag| flag == NOEXEC)
    }
}

pub(super) fn parse_options(program: &str, args: &[String]) -> Options {
    let row = programs::program(program);
    let (mut short_values, mut long_values) = (row.short_values, row.long_values);
    let has_subcommands = row.subcommand_first;
    let mut options = Options::default();
    if row.reader == programs::Reader::Find {
        // find's own options (`-L`, `-H`, `-P`, `-O3`, `-D opts`; BSD's `-E`, `-X`, `-d`, `-s`,
        // `-x`, and `-f ROOT`) come before its roots; its expression words are single-dash names
        // (`-delete`, `-exec`, `-name X`); the words of an `-exec` command are that command's.
        let mut from = 0;
        let mut bsd_roots = Vec::new();
        while let Some(word) = args.get(from) {
            match word.as_str() {
                "-H" | "-L" | "-P" | "--" | "-E" | "-X" | "-d" | "-s" | "-x" => from += 1,
                "-f" => {
                    bsd_roots.extend(args.get(from + 1).cloned());
                    from += 2;
                }
                "-D" => from += 2,
                _ if word.starts_with("-O") => from += 1,
                _ => break,
            }
        }
        let rest = args.get(from..).unwrap_or_default();
        let start =
            rest.iter().position(|word| word.starts_with('-') || word == "(" || word == "!").unwrap_or(rest.len());
        options.operands = bsd_roots.into_iter().chain(rest.get(..start).unwrap_or_default().iter().cloned()).collect();
        let mut in_exec = false;
        // The words a primary takes are its values, not primaries (`-gid -delete` deletes nothing).
        let mut values = 0;
        for word in rest.get(start..).unwrap_or_default() {
            if in_exec {
                in_exec = !programs::ends_find_exec(word);
                continue;
            }
            if values > 0 {
                values -= 1;
                continue;
            }
            in_exec = programs::is_find_exec(word);
            if let Some(name) = word.strip_prefix('-').filter(|name| !name.is_empty()) {
                options.flags.push(name.to_string());
                values = programs::find_values(name);
            }
        }
        options.targets = find_targets(rest.get(start..).unwrap_or_default(), &options.operands);
        return options;
    }
    let mut words = args.iter();
    let mut ended = false;
    // `bash +x -c …`, `bash +O extglob -c …`: a shell's `+` options are options too.
    let plus = row.is_shell();
    // `ssh HOST rm -rf /data`: once the command after the host begins, its words are its own
    // (ssh reads options before the host and right after it, as OpenSSH's `goto again` does).
    let command_after_host = row.script == programs::Script::OnHost;
    while let Some(word) = words.next() {
        // `bash -c SCRIPT NAME ARGS…`: what follows a shell's script is its parameters.
        if plus && !options.operands.is_empty()
            || command_after_host && options.operands.len() >= 2
            || row.options_first && !options.operands.is_empty()
        {
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
                (short_values, long_values) = row
                    .subcommand(word)
                    .map_or(("", &[][..]), |subcommand| (subcommand.short_values, subcommand.long_values));
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
            // A shell's `-o NAME`/`-O NAME` take the next word even inside a cluster, and the
            // cluster goes on: `bash -oc errexit 'rm -rf ~'` is `-o errexit -c 'rm -rf ~'`.
            if plus && matches!(letter, 'o' | 'O') {
                if let Some(value) = words.next() {
                    options.values.push((letter.to_string(), value.clone()));
                }
                continue;
            }
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

/// The flag a shell's options carry when they turn execution off ([`shell_noexec`]). A shell's
/// own `--noexec` word is not it: the walker drops that flag and sets this one only where the
/// words say so.
pub(super) const NOEXEC: &str = "noexec";

/// The shells whose option grammar [`shell_noexec`] reads. zsh, ksh93 and yash turn execution
/// back on by other option names (`-o exec`, `--exec`, `+o no_exec`), fish's `-o` and `-d` take
/// files, so for them `-n` is never believed.
const NOEXEC_SHELLS: &[&str] = &["sh", "bash", "dash", "ash"];

/// `set -o` names that leave execution alone, in bash and dash (any other name is doubt).
const NEUTRAL_SET_OPTIONS: &[&str] = &[
    "allexport",
    "braceexpand",
    "emacs",
    "errexit",
    "errtrace",
    "functrace",
    "hashall",
    "histexpand",
    "history",
    "ignoreeof",
    "keyword",
    "monitor",
    "noclobber",
    "noglob",
    "nolog",
    "notify",
    "nounset",
    "onecmd",
    "physical",
    "pipefail",
    "posix",
    "privileged",
    "verbose",
    "vi",
    "xtrace",
];

/// Whether a shell's options turn execution off: `-n` (`-o noexec`) reads the script and runs
/// nothing, unless a later `+n` (`+o noexec`) turns it back on. Any doubt reads as running: a
/// shell outside [`NOEXEC_SHELLS`], `-i` (interactive), a `-o` name not known to be neutral, or a
/// word the shell expands (`$X`, `` `…` ``, `{a,b}`, a glob) before or as its first operand, which
/// may become options (`bash -n $X` with `X='+n -c …'`). Only the options before the script count
/// (`bash -c 'rm -rf /' -n` runs the script, with `-n` as `$0`).
pub(super) fn shell_noexec(program: &str, args: &[String]) -> bool {
    if !NOEXEC_SHELLS.contains(&program) {
        return false;
    }
    let expands = |word: &String| word.contains(['$', '`', '{', '}', '*', '?', '[']);
    let (mut noexec, mut interactive) = (false, false);
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if expands(word) {
            return false;
        }
        let on = word.starts_with('-');
        if word.len() < 2 || !(on || word.starts_with('+')) || word == "--" {
            break;
        }
        if word.starts_with("--") || word.starts_with("++") {
            // bash's long options (none turns execution on); the two that take a file.
            if matches!(word.as_str(), "--rcfile" | "--init-file") {
                words.next();
            }
            continue;
        }
        for letter in word.chars().skip(1) {
            match letter {
                'n' => noexec = on,
                'i' => interactive = on,
                'o' => match words.next().map(String::as_str) {
                    Some("noexec") => noexec = on,
                    Some(name) if NEUTRAL_SET_OPTIONS.contains(&name) => {}
                    _ => return false,
                },
                'O' if words.next().is_some_and(expands) => return false,
                _ => {}
            }
        }
    }
    noexec && !interactive
}

/// What `find`'s `{}` and `-delete` stand for: each root when nothing filters (`find /`,
/// `find . -maxdepth 1`), `ROOT/**/NAME` for a `-name NAME` filter, `ROOT/**` for any other
/// filter. `.` when no root is given.
pub(super) fn find_targets(expression: &[String], roots: &[String]) -> Vec<String> {
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

/// Long options given as unique prefixes (`--rec`, `--force-w`) read as the names they
/// abbreviate, for the programs whose options rules decide on.
pub(super) fn expand_abbreviations(program: &str, subcommand: Option<&str>, flags: Vec<String>) -> Vec<String> {
    let names = programs::program(program).long_names(subcommand);
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
pub(super) fn sed_files(script: &str) -> Vec<(String, Access)> {
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
