//! Seeing through wrappers and script runners: `sudo`, `env`, `xargs`, `parallel`, `find -exec`,
//! `sh -c`, `eval`, `ssh`, `watch` and what a pipeline feeds them (the tables in `programs.rs`).

use super::*;

/// Tolerantly read words split into the commands a shell would run: after a shell's `-c` (or
/// `--command`) and after `eval`, a new command starts.
pub(super) fn split_scripts(words: Vec<String>) -> Vec<Vec<String>> {
    let mut commands = vec![Vec::new()];
    let mut shell = false;
    for word in words {
        // (Tolerant: a name in any case, erring towards more commands.)
        let name = program_name(&word).to_lowercase();
        let starts_script = (shell
            && ((word.starts_with('-') && !word.starts_with("--") && word.contains('c')) || word == "--command"))
            || (commands.last().is_some_and(Vec::is_empty) && programs::program(&name).runs_words());
        shell = programs::program(&name).is_shell() || (shell && word.starts_with(['-', '+']));
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

/// The commands of a find expression's `-exec`/`-execdir`/`-ok` primaries.
pub(super) fn find_exec_commands(args: &[String]) -> Vec<&[String]> {
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
pub(super) fn unwrap(wrapper: &programs::Wrapper, words: &[String]) -> (Vec<String>, Option<String>) {
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
            if wrapper.split.is_some_and(|(_, split)| split == name) {
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
                    if wrapper.split.is_some_and(|(split, _)| split == letter) {
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

/// Whether a shell's options ask it to run its first operand as a script.
pub(super) fn has_c(flags: &[String]) -> bool {
    flags.iter().any(|flag| flag == "c" || flag == "command")
}

/// Scripts a shell may run that its spelt options do not say: the words after a word
/// the shell expands before them (`set -- -c; bash "$1" 'rm -rf ~'`, `bash {-c,} 'rm -rf ~'`,
/// `bash $(echo -c) …`: the expansion may be `-c`), and an init command (`fish -C 'rm -rf ~' -c
/// true`). Each is read as a script too: a word that was only an argument reads as a command
/// that decides nothing.
pub(super) fn maybe_scripts(parsed: &Options, args: &[String]) -> Vec<String> {
    let expands = |word: &String| word.contains(['$', '`', '{']);
    let mut scripts = Vec::new();
    if !has_c(&parsed.flags) {
        if let Some(at) = args.iter().position(expands) {
            scripts.extend(args.iter().skip(at + 1).filter(|word| !word.starts_with('-')).cloned());
        }
    }
    if parsed.flags.iter().any(|flag| flag == "C" || flag == "init-command") {
        let value = parsed.values.iter().find(|(option, _)| option == "init-command").map(|(_, value)| value);
        scripts.extend(value.or_else(|| parsed.operands.first()).cloned());
    }
    scripts
}

/// The script a command runs, when its words say it (its row's [`Script`]): a shell's `-c
/// SCRIPT` (with its positional parameters put in), `su -c`/`flock -c`/`script -c`, `eval
/// WORDS`, `watch [OPTIONS] WORDS`, `ssh [OPTIONS] HOST WORDS`, `tmux send-keys WORDS`.
pub(super) fn script_of(program: &str, parsed: &Options, args: &[String]) -> Option<String> {
    let row = programs::program(program);
    let words: &[String] = match row.script {
        Script::None => return None,
        Script::Shell => {
            if !has_c(&parsed.flags) || parsed.noexec() {
                return None;
            }
            let script = parsed.operands.first()?;
            return Some(positional(script, parsed.operands.get(1..).unwrap_or_default()));
        }
        Script::Option(short, long) => {
            // A long option's unambiguous prefix is the option (`sort --compress-prog=sh`).
            let abbreviates = |option: &str| {
                option.len() > 1 && long.starts_with(option) && {
                    let mut matching = row.long_values.iter().filter(|name| name.starts_with(option));
                    matching.next().is_some() && matching.next().is_none()
                }
            };
            return parsed
                .values
                .iter()
                .find(|(option, _)| (!short.is_empty() && option == short) || option == long || abbreviates(option))
                .map(|(_, value)| value.clone());
        }
        Script::Words => args.strip_prefix(&["--".to_string()]).unwrap_or(args),
        // watch's options end at its first other word: the rest is the command.
        // (Short options cluster as getopt reads them: `-tn 1` is `-t -n 1`, `-n1` is `-n 1`.)
        Script::AfterOptions => {
            let mut at = 0;
            while let Some(word) = args.get(at).filter(|word| word.starts_with('-') && word.len() > 1) {
                at += 1;
                if word == "--" {
                    break;
                }
                let takes_next = match word.strip_prefix("--") {
                    Some(long) => row.long_values.contains(&long),
                    None => word
                        .char_indices()
                        .skip(1)
                        .find(|(_, letter)| row.short_values.contains(*letter))
                        .is_some_and(|(offset, letter)| offset + letter.len_utf8() == word.len()),
                };
                if takes_next {
                    at += 1;
                }
            }
            args.get(at..).unwrap_or_default()
        }
        Script::OnHost => parsed.operands.get(1..).unwrap_or_default(),
        Script::FirstOperand => return parsed.operands.first().filter(|script| script.as_str() != "-").cloned(),
        Script::AfterSubcommand(subcommands) => match parsed.operands.first() {
            Some(first) if subcommands.contains(&first.as_str()) => parsed.operands.get(1..).unwrap_or_default(),
            _ => return None,
        },
    };
    (!words.is_empty()).then(|| words.join(" "))
}

/// Whether a program that reads a script from its input does so here: a shell with no script
/// operand, `-s`, or `-`; `at`/`batch` always; `su` without `-c`.
pub(super) fn reads_stdin(program: &str, parsed: &Options) -> bool {
    if !programs::program(program).is_shell() {
        return true;
    }
    !has_c(&parsed.flags)
        && (parsed.operands.is_empty()
            || parsed.operands.first().is_some_and(|first| names_stdin(first))
            || parsed.flags.iter().any(|flag| flag == "s"))
}

/// Whether a script operand names a descriptor, whose contents the line does not spell:
/// standard input, `<(…)` (`/dev/fd/63`), another descriptor.
pub(super) fn names_descriptor(word: &str) -> bool {
    let path = normalised(word);
    let fd = |rest: &str| {
        rest.split_once("/fd/").is_some_and(|(process, _)| {
            process == "self" || process == "thread-self" || process.chars().all(|c| c.is_ascii_digit())
        })
    };
    path == "-"
        || path == "/dev/stdin"
        || path.starts_with("/dev/fd/")
        || path.strip_prefix("/proc/").is_some_and(fd)
        || path.starts_with("/dev/tcp/")
        || path.starts_with("/dev/udp/")
}

/// Whether a script operand is standard input, however the path is spelled (`/dev//stdin`,
/// `/dev/./stdin`).
pub(super) fn names_stdin(word: &str) -> bool {
    let path = normalised(word);
    path == "-" || path == "/dev/stdin"
}

/// A path with repeated slashes and `.` segments dropped, as the kernel resolves them.
fn normalised(word: &str) -> String {
    let absolute = word.starts_with('/');
    let segments: Vec<&str> = word.split('/').filter(|segment| !segment.is_empty() && *segment != ".").collect();
    match absolute {
        true => format!("/{}", segments.join("/")),
        false => word.to_string(),
    }
}

/// What a command reads from its input as words: what the line spells (`echo / | xargs …`), or
/// one word known only at run time.
pub(super) fn read_words(piped_words: &[String]) -> Vec<String> {
    let read: Vec<String> = piped_words.iter().flat_map(|word| word.split_whitespace()).map(str::to_string).collect();
    if read.is_empty() {
        vec![RUN_TIME_INPUT.to_string()]
    } else {
        read
    }
}

/// The word that stands for input the line does not spell: like a `$(…)` left as written, it is
/// known only at run time.
pub(super) const RUN_TIME_INPUT: &str = "$(cat)";

/// `xargs -I {}`, `-i`, `--replace[=R]`: the text its input replaces.
pub(super) fn xargs_replacement(own: &[String]) -> Option<String> {
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
pub(super) fn substitute(word: &str, token: &str, values: &[String]) -> Vec<String> {
    if token.is_empty() || !word.contains(token) {
        return vec![word.to_string()];
    }
    values.iter().map(|value| word.replace(token, value)).collect()
}

/// `parallel [OPTIONS] CMD ARGS… ::: VALUES…`: the command, run with the values; without `:::`
/// the values are what it reads (`read`).
pub(super) fn parallel(words: &[String], read: &[String]) -> Vec<String> {
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
