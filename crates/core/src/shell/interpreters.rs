//! Code in other languages run from a shell line (`python -c CODE`, `node -e CODE`, `perl -e
//! CODE`, `ruby -e CODE`, `php -r CODE`, or a heredoc or pipe feeding one): what its calls do,
//! as commands the walk reads like any other. `os.system("rm -rf ~")` runs the shell line `rm
//! -rf ~`; `subprocess.run(["rm", "-rf", "/"])` runs that argv; `shutil.rmtree(p)` is `rm -r` of
//! a target known only at run time; `open(".env", "w")` writes `.env`.
//!
//! Everything here is a table: a language is its programs and the options that give it code; a
//! call is a pattern and what it amounts to. The reading is lexical (no interpreter's grammar),
//! so it errs towards seeing a call: a call named in a comment or a string is read too.

use super::RUN_TIME_INPUT;
use regex::Regex;
use std::sync::OnceLock;

/// The program a call runs when the code names it only at run time (`os.system(cmd)`).
pub(super) const RUN_TIME_COMMAND: &str = "$COMMAND";

/// What a call amounts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Meaning {
    /// Its first argument is a shell line (`os.system(LINE)`, `qx{LINE}`).
    Shell,
    /// Its first argument is an argv list, or a shell line when it is a string
    /// (`subprocess.run([…])`, `system('rm', '-rf', '/')` in Perl).
    Argv,
    /// Its first argument is a program and its second that program's arguments
    /// (`spawnSync('rm', ['-rf', '/'])`).
    ProgramAndArgs,
    /// Deletes its first argument, recursively or not.
    Delete { recursive: bool },
    /// Writes its first argument.
    Write,
    /// Writes its second argument (a copy, move, rename or link onto it).
    WriteSecond,
    /// Reads its first argument (`readFileSync(P)`, `File.read(P)`).
    Read,
    /// Opens its first argument, for writing when its mode says so (`open(P, "w")`).
    Open,
    /// Runs its first argument as code of the same language (`eval(…)`, `new Function(…)`):
    /// a literal's calls are read where they stand; anything else is unread.
    Code,
    /// Chooses what runs by its first argument (`require(…)`, `globalThis[…]`, `send(…)`,
    /// `call_user_func(…)`): a literal names a module or method, anything else is unread.
    Callee,
    /// Calls a function a variable holds (PHP's `$f(…)`): what runs is always unread.
    Dynamic,
    /// Perl's `open(FH, MODE, …)`: a piped open runs a command (`"CMD |"`, `"-|", LIST`), a
    /// writing mode writes its file, a reading one reads it.
    PerlOpen,
}

/// A call: the pattern that finds it (ending where its first argument starts) and its effect.
struct Call {
    pattern: &'static str,
    effect: Meaning,
}

const fn call(pattern: &'static str, effect: Meaning) -> Call {
    Call { pattern, effect }
}

/// A language: the programs that run it (a name ending in a version, `python3.12`, is the
/// same program), the options whose value is code (short ones may end a cluster: `-Ic`,
/// `-we`), the options that take the next word as their value, whether its first operand is
/// its code (`awk 'PROGRAM'`), its calls, and whether `` `LINE` `` runs a shell line.
struct Language {
    programs: &'static [&'static str],
    /// The language's own parser, where one reads it (Python: `python.rs`); the calls below
    /// are then not used.
    parsed: Option<fn(&str) -> Vec<Run>>,
    code_options: &'static [&'static str],
    value_options: &'static [&'static str],
    code_operand: bool,
    /// Which of several code options runs: Perl, Ruby and Lua run each `-e` in turn, Node only
    /// the last (`node -e '/*' -e 'CODE //*/'` runs CODE), Python the first (what follows its
    /// `-c CODE` is the code's arguments).
    several: Several,
    calls: &'static [Call],
    backticks: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Several {
    Joined,
    First,
    Last,
}

const RECURSIVE: Meaning = Meaning::Delete { recursive: true };
const DELETE: Meaning = Meaning::Delete { recursive: false };

static LANGUAGES: &[Language] = &[
    Language {
        programs: &["python", "python2", "python3", "pypy", "pypy3"],
        parsed: Some(super::python::runs),
        code_options: &["-c"],
        value_options: &["-W", "-X", "-Q", "--check-hash-based-pycs"],
        code_operand: false,
        several: Several::First,
        calls: &[],
        backticks: false,
    },
    Language {
        parsed: Some(super::javascript::runs),
        programs: &["node", "nodejs", "bun", "deno"],
        code_options: &["-e", "--eval", "-p", "--print", "eval"],
        value_options: &[
            "-r",
            "--require",
            "--import",
            "--loader",
            "--experimental-loader",
            "--input-type",
            "-C",
            "--conditions",
        ],
        code_operand: false,
        several: Several::Last,
        calls: &[],
        backticks: false,
    },
    Language {
        parsed: None,
        programs: &["perl"],
        code_options: &["-e", "-E"],
        value_options: &[],
        code_operand: false,
        several: Several::Joined,
        calls: &[
            call(r"\b(?:system|exec)\b\s*\(?\s*", Meaning::Argv),
            call(r"\bqx\s*", Meaning::Shell),
            call(r"\b(?:rmtree|remove_tree)\b\s*\(?\s*", RECURSIVE),
            call(r"\b(?:unlink|rmdir)\b\s*\(?\s*", DELETE),
            call(r"\b(?:copy|move|rename|symlink|link)\b\s*\(?\s*", Meaning::WriteSecond),
            call(r"\beval\b\s*\(?\s*", Meaning::Code),
            call(r"\bopen\b\s*\(?\s*", Meaning::PerlOpen),
        ],
        backticks: true,
    },
    Language {
        parsed: None,
        programs: &["ruby"],
        code_options: &["-e"],
        value_options: &[],
        code_operand: false,
        several: Several::Joined,
        calls: &[
            call(r"\b(?:system|exec|spawn)\b\s*\(?\s*", Meaning::Argv),
            call(r"\bIO\s*\.\s*popen\b\s*\(?\s*", Meaning::Shell),
            call(r"\bOpen3\s*\.\s*\w+\b\s*\(?\s*", Meaning::Shell),
            call(r"%x", Meaning::Shell),
            call(
                r"\bFileUtils\s*\.\s*(?:rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree)\b\s*\(?\s*",
                RECURSIVE,
            ),
            call(
                r"\b(?:FileUtils\s*\.\s*(?:rm|rm_f|remove|rmdir)|File\s*\.\s*(?:delete|unlink)|Dir\s*\.\s*(?:delete|rmdir|unlink))\b\s*\(?\s*",
                DELETE,
            ),
            call(r"\bFileUtils\s*\.\s*(?:cp|cp_r|mv|ln|ln_s|ln_sf|copy|move)\b\s*\(?\s*", Meaning::WriteSecond),
            call(r"\bFile\s*\.\s*write\b\s*\(?\s*", Meaning::Write),
            call(r"\bFile\s*\.\s*read\b\s*\(?\s*", Meaning::Read),
            call(r"\bFile\s*\.\s*open\b\s*\(?\s*", Meaning::Open),
            call(r"\b(?:eval|instance_eval|class_eval|module_eval)\b\s*\(?\s*", Meaning::Code),
            call(r"\b(?:send|__send__|public_send|const_get|method)\s*\(\s*", Meaning::Callee),
        ],
        backticks: true,
    },
    Language {
        parsed: None,
        programs: &["php"],
        code_options: &["-r"],
        value_options: &[],
        code_operand: false,
        several: Several::Joined,
        calls: &[
            call(r"\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(", Meaning::Shell),
            call(r"\b(?:unlink|rmdir)\s*\(", DELETE),
            call(r"\b(?:copy|rename|symlink|link)\s*\(", Meaning::WriteSecond),
            call(r"\bfile_put_contents\s*\(", Meaning::Write),
            call(r"\bfile_get_contents\s*\(", Meaning::Read),
            call(r"\b(?:eval|assert|create_function)\s*\(", Meaning::Code),
            call(r"\b(?:call_user_func|call_user_func_array)\s*\(", Meaning::Callee),
            call(r"\bpcntl_exec\s*\(", Meaning::ProgramAndArgs),
            call(r"\$[A-Za-z_]\w*\s*\(", Meaning::Dynamic),
        ],
        backticks: true,
    },
    Language {
        parsed: None,
        programs: &["lua", "luajit", "lua5.1", "lua5.2", "lua5.3", "lua5.4"],
        code_options: &["-e"],
        value_options: &["-l"],
        code_operand: false,
        several: Several::Joined,
        calls: &[
            call(r"\b(?:os\s*\.\s*execute|io\s*\.\s*popen)\s*\(?\s*", Meaning::Shell),
            call(r"\bos\s*\.\s*remove\s*\(", DELETE),
            call(r"\bos\s*\.\s*rename\s*\(", Meaning::WriteSecond),
            call(r"\bio\s*\.\s*open\s*\(", Meaning::Open),
            call(r"\b(?:load|loadstring|dofile|loadfile)\s*\(", Meaning::Code),
            call(r"\brequire\s*\(", Meaning::Callee),
        ],
        backticks: false,
    },
    Language {
        parsed: None,
        programs: &["awk", "gawk", "mawk", "nawk"],
        code_options: &[],
        value_options: &["-F", "-v", "-f", "-i", "--field-separator", "--assign", "--include"],
        code_operand: true,
        several: Several::Joined,
        calls: &[call(r"\bsystem\s*\(", Meaning::Shell)],
        backticks: false,
    },
];

/// The language `program` runs, if it is one of these (`python3.12` is `python3`).
fn language(program: &str) -> Option<&'static Language> {
    let name = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    LANGUAGES.iter().find(|language| language.programs.contains(&program) || language.programs.contains(&name))
}

/// Every program of these languages (for a program named by a glob).
pub(super) fn programs() -> impl Iterator<Item = &'static str> {
    LANGUAGES.iter().flat_map(|language| language.programs.iter().copied())
}

/// Whether `program` runs code in one of these languages.
pub(super) fn is_interpreter(program: &str) -> bool {
    language(program).is_some()
}

/// Where a command's code is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Code {
    /// On the line: its code options' values, or an `awk 'PROGRAM'` operand.
    Text(String),
    /// What the command reads from its input (`python3 -`, `echo … | node`).
    Stdin,
    /// In a script file the command names (`python3 x.py`, `awk -f x.awk`, `perl /dev/fd/3`).
    File(String),
}

/// The code a command runs: its code options' values (`-c CODE`, `-eCODE`, `-we CODE`,
/// `--eval=CODE`; Perl's and Node's several `-e` joined), the first operand of a language whose
/// program is its operand (`awk 'PROGRAM'`), a script file it names, or, with neither, what it
/// reads. `None` for a module (`python3 -m pytest`).
pub(super) fn code_of(program: &str, args: &[String]) -> Option<Code> {
    let language = language(program)?;
    let mut code: Vec<String> = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let (option, attached) = match word.split_once('=') {
            Some((option, value)) if option.starts_with("--") => (option, Some(value.to_string())),
            _ => (word.as_str(), None),
        };
        if language.value_options.contains(&option) {
            let value = attached.or_else(|| words.next().cloned());
            // `awk -f FILE`: the program is in a file.
            if language.code_operand && word == "-f" {
                return value.map(Code::File);
            }
            // `node --import 'data:text/javascript,…'`: a module preloaded from a URL that
            // holds its code, read as the code imports it.
            if let Some(url) = value.filter(|value| value.starts_with("data:") && PRELOADS.contains(&option)) {
                code.insert(0, format!("import({})", serde_json::Value::String(url)));
            }
            continue;
        }
        if let Some(found) = code_option(language, word, &mut words) {
            code.push(found);
            continue;
        }
        if word == "--" || super::wrappers::names_stdin(word) {
            if code.is_empty() && word != "--" {
                return Some(Code::Stdin);
            }
            break;
        }
        // `python3 -m MODULE`: a module, whose code is not here.
        if word == "-m" {
            return None;
        }
        if !word.starts_with('-') || word.len() == 1 {
            // The first operand: the program itself, or a script file whose code is not here.
            return Some(match language.code_operand && code.is_empty() {
                true => Code::Text(word.clone()),
                false if code.is_empty() => Code::File(word.clone()),
                false => Code::Text(chosen(language, &code)),
            });
        }
    }
    match code.is_empty() {
        true if language.code_operand => None,
        true => Some(Code::Stdin),
        false => Some(Code::Text(chosen(language, &code))),
    }
}

/// Node's options that load a module before the code (`--import URL`, `-r URL`).
const PRELOADS: &[&str] = &["-r", "--require", "--import", "--loader", "--experimental-loader"];

/// The code several code options run, as the language runs them ([`Several`]).
fn chosen(language: &Language, code: &[String]) -> String {
    match language.several {
        Several::Joined => code.join("\n"),
        Several::First => code.first().cloned().unwrap_or_default(),
        // (Preloads, `import("data:…")`, run before whichever code runs.)
        Several::Last => {
            let preloads = code.iter().take_while(|piece| piece.starts_with("import(\"data:"));
            let last = code.last().filter(|last| !last.starts_with("import(\"data:"));
            preloads.chain(last).cloned().collect::<Vec<_>>().join("\n")
        }
    }
}

/// A code option's value: `-c CODE`, `-cCODE`, `--eval=CODE`, or a cluster of short options
/// ending in the code option (`-Ic CODE`, `-we CODE`, `-lne CODE`).
fn code_option<'a>(language: &Language, word: &str, words: &mut impl Iterator<Item = &'a String>) -> Option<String> {
    for option in language.code_options {
        if word == *option {
            return words.next().cloned();
        }
        if let Some(value) = option
            .starts_with("--")
            .then(|| word.strip_prefix(option).and_then(|rest| rest.strip_prefix('=')))
            .flatten()
        {
            return Some(value.to_string());
        }
    }
    let letters = word.strip_prefix('-').filter(|letters| !letters.starts_with('-'))?;
    for (at, letter) in letters.char_indices() {
        let short = format!("-{letter}");
        if language.code_options.contains(&short.as_str()) {
            let attached = letters.get(at + letter.len_utf8()..).unwrap_or_default();
            // `node -pe CODE`: letters after it that hold another code option are flags.
            let another = |c: char| language.code_options.contains(&format!("-{c}").as_str());
            if attached.len() <= 3 && attached.chars().all(|c| c.is_ascii_alphabetic()) && attached.chars().any(another)
            {
                continue;
            }
            return match attached.is_empty() {
                true => words.next().cloned(),
                false => Some(attached.to_string()),
            };
        }
        // An option taking a value ends the cluster: what follows is its value.
        if language.value_options.contains(&short.as_str()) {
            return None;
        }
    }
    None
}

/// What one call in the code does, for the walk to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Run {
    /// A shell line.
    Line(String),
    /// A command's words, as a program receives them (no shell expands them).
    Argv(Vec<String>),
    /// What the reading could not account for: a class of [`super::unread`] and its detail.
    Unread(&'static str, String),
}

/// Code longer than this is not read: a reading bound (Python's too, `python.rs`).
pub(super) const MAX_CODE: usize = 64 * 1024;
/// Brackets nested deeper than this (counted in strings too: an over-estimate) are a reading
/// bound.
pub(super) const MAX_BRACKETS: usize = 64;

/// The commands `code`'s calls amount to, in the order they appear.
pub(super) fn runs(program: &str, code: &str) -> Vec<Run> {
    let Some(language) = language(program) else { return Vec::new() };
    // `python3 -c "$X"`: code known only at run time.
    // (A shell's variable, `$X` or `${X}`; Ruby's `$_.upcase!` is code.)
    let trimmed = code.trim();
    let name = trimmed.strip_prefix('$').map(|name| name.trim_start_matches('{').trim_end_matches('}'));
    if name.is_some_and(|name| {
        name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    }) {
        return vec![Run::Argv(vec![trimmed.to_string()])];
    }
    if let Some(parse) = language.parsed {
        return parse(code);
    }
    // The lexical reading does not recurse, but code this long or this deeply nested is no
    // ordinary one-liner, and what a pattern misses in it would pass unread.
    let deepest = code
        .chars()
        .scan(0usize, |depth, c| {
            match c {
                '(' | '[' | '{' => *depth += 1,
                ')' | ']' | '}' => *depth = depth.saturating_sub(1),
                _ => {}
            }
            Some(*depth)
        })
        .max()
        .unwrap_or(0);
    if code.len() > MAX_CODE || deepest > MAX_BRACKETS {
        let program = language.programs.first().copied().unwrap_or_default();
        let bound = match code.len() > MAX_CODE {
            true => format!("{program} code longer than {} KiB", MAX_CODE / 1024),
            false => format!("{program} brackets nested more than {MAX_BRACKETS} deep"),
        };
        return vec![Run::Unread(super::unread::BOUND, bound)];
    }
    let mut found: Vec<(usize, Run)> = Vec::new();
    let mut literals: Vec<std::ops::Range<usize>> = Vec::new();
    for (call, pattern) in language.calls.iter().zip(compiled(language)) {
        let Some(pattern) = pattern else { continue };
        for matched in pattern.find_iter(code) {
            let rest = code.get(matched.end()..).unwrap_or_default();
            // `qx{…}` and `%x(…)` are literals the pattern begins.
            let opener = matched.as_str().trim_end();
            // `system failed: …` in a string: a call whose parentheses are optional is not one
            // when a bareword follows (`system "ls"`, `system $cmd`, `system("ls")` are).
            if !matched.as_str().ends_with(['(', '[']) && rest.starts_with(|c: char| c.is_alphabetic()) {
                continue;
            }
            let first = match opener.ends_with("qx") || opener.ends_with("%x") {
                true => quoted(&format!("{opener}{rest}")),
                false => argument(rest),
            };
            let name = matched.as_str().trim_end_matches(|c: char| c == '(' || c == '[' || c.is_whitespace());
            // A literal argument's text is the call's (a shell line, a path): a call named inside
            // it is that text's, read where the text runs, not a call of this code. (`eval`'s
            // literal is this language's code: its calls are read where they stand.)
            if matches!(first, Arg::Text(_)) && call.effect != Meaning::Code {
                let (_, length) = quoted_at(rest);
                literals.push(matched.end()..matched.end() + length);
            }
            if let Some(run) = effect(call.effect, name, &first, rest) {
                found.push((matched.start(), run));
            }
        }
    }
    // (Inside a call's literal, `ENV` is that text's: `system("awk '…ENVIRON…'")`.)
    found.extend(environment(code));
    found.retain(|(at, _)| !literals.iter().any(|literal| literal.start < *at && *at < literal.end));
    if language.backticks {
        // `` `LINE` ``: every other backtick opens one.
        let mut at = 0;
        for (index, segment) in code.split('`').enumerate() {
            if index % 2 == 1 && code.get(at + segment.len()..).is_some_and(|after| after.starts_with('`')) {
                found.push((at, Run::Line(interpolated(segment))));
            }
            at += segment.len() + 1;
        }
    }
    if language.programs.contains(&"awk") {
        found.extend(awk_pipes(code));
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, run)| run).collect()
}

/// What the code reads of the environment, as `printenv NAME` or `printenv` for all of it, in
/// the lexical languages' spellings: Perl's `$ENV{NAME}` and `%ENV`, Ruby's `ENV["NAME"]`,
/// `ENV.fetch("NAME")` and `ENV` otherwise, PHP's `getenv("NAME")`, `getenv()`, `$_ENV["NAME"]`
/// and `$_ENV`, awk's `ENVIRON["NAME"]` and `ENVIRON`, Lua's `os.getenv("NAME")`.
fn environment(code: &str) -> Vec<(usize, Run)> {
    static NAMED: OnceLock<Option<Regex>> = OnceLock::new();
    static WHOLE: OnceLock<Option<Regex>> = OnceLock::new();
    let named = NAMED.get_or_init(|| {
        Regex::new(
            r#"\$ENV\s*\{\s*['"]?(\w+)['"]?\s*\}|\bENV\s*(?:\[|\.fetch\s*\(?)\s*['"](\w+)['"]|\bgetenv\s*\(\s*['"](\w+)['"]|\$_ENV\s*\[\s*['"](\w+)['"]|\bENVIRON\s*\[\s*"(\w+)""#,
        )
        .ok()
    });
    let whole = WHOLE.get_or_init(|| Regex::new(r"%ENV\b|\$_ENV\b|\bENVIRON\b|\bENV\b|\bgetenv\s*\(\s*\)").ok());
    let mut found: Vec<(usize, Run)> = Vec::new();
    let mut spans: Vec<std::ops::Range<usize>> = Vec::new();
    for captures in named.iter().flat_map(|named| named.captures_iter(code)) {
        let (Some(all), Some(name)) = (captures.get(0), captures.iter().skip(1).flatten().next()) else { continue };
        spans.push(all.range());
        found.push((all.start(), Run::Argv(vec!["printenv".to_string(), name.as_str().to_string()])));
    }
    for matched in whole.iter().flat_map(|whole| whole.find_iter(code)) {
        // (Inside a named reading, or Perl's `$ENV{…}`, it is that reading.)
        let within = spans.iter().any(|span| span.start <= matched.start() && matched.start() < span.end);
        let perl_element = code.get(..matched.start()).is_some_and(|before| before.ends_with('$'))
            && code.get(matched.end()..).is_some_and(|after| after.trim_start().starts_with('{'));
        if !within && !perl_element {
            found.push((matched.start(), Run::Argv(vec!["printenv".to_string()])));
        }
    }
    found
}

/// awk's pipes: `"CMD" | getline` runs `CMD` and reads its output; `print … | "CMD"` runs `CMD`
/// and writes into it, so a shell or interpreter there runs what awk prints, which is unread.
fn awk_pipes(code: &str) -> Vec<(usize, Run)> {
    static PIPES: OnceLock<Option<(Regex, Regex)>> = OnceLock::new();
    let Some((from, into)) = PIPES
        .get_or_init(|| {
            Some((
                Regex::new(r#""((?:[^"\\]|\\.)*)"\s*\|\s*getline"#).ok()?,
                Regex::new(r#"\|&?\s*"((?:[^"\\]|\\.)*)""#).ok()?,
            ))
        })
        .as_ref()
    else {
        return Vec::new();
    };
    let mut found: Vec<(usize, Run)> = Vec::new();
    for captures in from.captures_iter(code) {
        if let (Some(whole), Some(command)) = (captures.get(0), captures.get(1)) {
            found.push((whole.start(), Run::Line(command.as_str().to_string())));
        }
    }
    for captures in into.captures_iter(code) {
        if let (Some(whole), Some(command)) = (captures.get(0), captures.get(1)) {
            let program = command.as_str().split_whitespace().next().map(super::program_name).unwrap_or_default();
            let run = match super::runs_scripts(&program) {
                true => Run::Unread(super::unread::DESCRIPTOR, format!("awk prints a script into {program}")),
                false => Run::Line(command.as_str().to_string()),
            };
            found.push((whole.start(), run));
        }
    }
    found
}

/// Each call's pattern, compiled once per language.
fn compiled(language: &'static Language) -> &'static [Option<Regex>] {
    static COMPILED: OnceLock<Vec<Vec<Option<Regex>>>> = OnceLock::new();
    let all = COMPILED.get_or_init(|| {
        let compile = |call: &Call| Regex::new(call.pattern).ok();
        LANGUAGES.iter().map(|language| language.calls.iter().map(compile).collect()).collect()
    });
    let at = LANGUAGES.iter().position(|candidate| std::ptr::eq(candidate, language)).unwrap_or(usize::MAX);
    all.get(at).map_or(&[], Vec::as_slice)
}

/// A call's first argument, as far as the code spells it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Arg {
    /// A string literal's text.
    Text(String),
    /// A list of string literals (an element that is not one is known only at run time).
    List(Vec<String>),
    /// The home directory (`os.path.expanduser("~")`, `os.homedir()`, `Dir.home`).
    Home,
    /// Anything else: known only at run time.
    Unknown,
}

/// What the call amounts to, given its first argument and the code after it.
fn effect(effect: Meaning, name: &str, first: &Arg, rest: &str) -> Option<Run> {
    let target = || match first {
        Arg::Text(text) => Some(literal_path(text)),
        Arg::Home => Some("~".to_string()),
        Arg::List(_) | Arg::Unknown => Some(RUN_TIME_INPUT.to_string()),
    };
    match effect {
        // A line known only at run time (`os.system(cmd)`) runs a program known only then.
        Meaning::Shell => match first {
            Arg::Text(line) => Some(Run::Line(line.clone())),
            _ => Some(Run::Argv(vec![RUN_TIME_COMMAND.to_string()])),
        },
        Meaning::Argv => match first {
            Arg::Text(line) => {
                // Perl's and Ruby's `system('rm', '-rf', '/')`: more literals after the first.
                let more = list_after_first(rest);
                match more.is_empty() {
                    true => Some(Run::Line(line.clone())),
                    false => Some(Run::Argv(argv([vec![line.clone()], more].concat()))),
                }
            }
            Arg::List(words) => Some(Run::Argv(argv(words.clone()))),
            _ => Some(Run::Argv(vec![RUN_TIME_COMMAND.to_string()])),
        },
        Meaning::ProgramAndArgs => {
            let Arg::Text(program) = first else { return None };
            let args = match argument(after_first(rest)) {
                Arg::List(args) => args,
                _ => Vec::new(),
            };
            Some(Run::Argv(argv([vec![program.clone()], args].concat())))
        }
        Meaning::Delete { recursive } => Some(Run::Argv(delete(recursive, target()?))),
        Meaning::Write => Some(Run::Argv(write(target()?))),
        Meaning::WriteSecond => {
            let second = match argument(after_first(rest)) {
                Arg::Text(text) => literal_path(&text),
                Arg::Home => "~".to_string(),
                Arg::List(_) | Arg::Unknown => RUN_TIME_INPUT.to_string(),
            };
            Some(Run::Argv(write(second)))
        }
        Meaning::Read => Some(Run::Argv(vec!["cat".to_string(), "--".to_string(), target()?])),
        Meaning::Open => {
            // `open(P)` and `open(P, "r")` read; a mode with `w`, `a`, `x` or `+` writes.
            let second = after_first(rest).trim_start();
            let mode = match argument(
                second.strip_prefix("mode").map_or(second, |rest| rest.trim_start().trim_start_matches('=')),
            ) {
                Arg::Text(mode) => mode,
                // `open(P)` reads; a mode known only at run time may write.
                _ if second.is_empty() || second.starts_with(')') => "r".to_string(),
                _ => "w".to_string(),
            };
            match mode.contains(['w', 'a', 'x', '+']) {
                true => target().map(|target| Run::Argv(write(target))),
                false => target().map(|target| Run::Argv(vec!["cat".to_string(), "--".to_string(), target])),
            }
        }
        // (The lexical reading reads a literal's calls where they stand, in the string.)
        Meaning::Code => match first {
            Arg::Text(_) => None,
            // Perl's `eval { … }` and Ruby's `instance_eval do … end` run a block of the code.
            _ if rest.trim_start().starts_with('{') || rest.trim_start().starts_with("do") => None,
            _ => Some(Run::Unread(super::unread::CALLEE, format!("{} of a value known only at run time", name.trim()))),
        },
        Meaning::PerlOpen => {
            // The filehandle first; then a mode and a target, or one string that is both.
            let second = after_first(rest);
            let more = list_after_first(second);
            match argument(second) {
                Arg::Text(mode) if more.is_empty() => perl_open(&mode, None),
                Arg::Text(mode) => perl_open(&mode, Some(more)),
                _ => None,
            }
        }
        Meaning::Dynamic => {
            Some(Run::Unread(super::unread::CALLEE, format!("{} called through a variable", name.trim())))
        }
        Meaning::Callee => match first {
            Arg::Text(_) | Arg::Home => None,
            // Ruby's symbols (`send(:map)`) are literals.
            _ if rest.trim_start().strip_prefix(':').is_some_and(|name| name.starts_with(char::is_alphabetic)) => None,
            _ => Some(Run::Unread(super::unread::CALLEE, format!("{} of a value known only at run time", name.trim()))),
        },
    }
}

/// What Perl's `open` does with its mode and what follows it: `open(FH, "CMD |")` and
/// `open(FH, "-|", LIST)` run a command; `"| CMD"` and `"|-"` write into one (a shell there runs
/// what the code prints: unread); `>`, `>>`, `+<` write the file, `<` reads it.
fn perl_open(mode: &str, rest: Option<Vec<String>>) -> Option<Run> {
    let mode = mode.trim();
    let command = |words: Vec<String>| match words.as_slice() {
        [line] => Run::Line(line.clone()),
        _ => Run::Argv(words),
    };
    let into = |line: &str| {
        let program = line.split_whitespace().next().map(super::program_name).unwrap_or_default();
        match super::runs_scripts(&program) {
            true => Run::Unread(super::unread::DESCRIPTOR, format!("perl prints a script into {program}")),
            false => Run::Line(line.to_string()),
        }
    };
    match (mode, rest) {
        ("-|", Some(words)) => Some(command(words)),
        ("|-", Some(words)) => Some(into(&words.join(" "))),
        (mode, Some(words)) if mode.contains(['>', '+']) => Some(Run::Argv(write(literal_path(words.first()?)))),
        (_, Some(words)) => Some(Run::Argv(vec!["cat".to_string(), "--".to_string(), literal_path(words.first()?)])),
        (mode, None) if mode.ends_with('|') => Some(Run::Line(mode.trim_end_matches('|').trim().to_string())),
        (mode, None) if mode.starts_with('|') => Some(into(mode.trim_start_matches('|').trim())),
        (mode, None) => {
            let target = mode.trim_start_matches(['<', '>', '+', ' ']);
            match mode.starts_with(['>', '+']) {
                true => Some(Run::Argv(write(literal_path(target)))),
                false => Some(Run::Argv(vec!["cat".to_string(), "--".to_string(), literal_path(target)])),
            }
        }
    }
}

/// `tee -- TARGET`: a command that writes its operand.
fn write(target: String) -> Vec<String> {
    vec!["tee".to_string(), "--".to_string(), target]
}

/// `rm [-r] -- TARGET`.
fn delete(recursive: bool, target: String) -> Vec<String> {
    let mut words = vec!["rm".to_string()];
    if recursive {
        words.push("-r".to_string());
    }
    words.extend(["--".to_string(), target]);
    words
}

/// A string literal of the code as a path ([`literal_path`]), or `None` where the shell line
/// chose it before the code ran (`open('$(echo .git/config)', 'w')` in a line the shell
/// expands first): known only at run time.
pub(super) fn text_path(text: &str) -> Option<String> {
    let chosen = text.contains("$(") || text.contains('`') || text.contains("${");
    (!chosen).then(|| literal_path(text))
}

/// A path as a program receives it: no shell expands `~`, so `"~"` is a file of that name.
pub(super) fn literal_path(text: &str) -> String {
    match text.starts_with('~') {
        true => format!("./{text}"),
        false => text.to_string(),
    }
}

/// An argv as a program receives it (see [`literal_path`]).
fn argv(words: Vec<String>) -> Vec<String> {
    words.iter().map(|word| literal_path(word)).collect()
}

/// The code after a call's first argument (after its comma), or nothing.
fn after_first(rest: &str) -> &str {
    let end = skip_argument(rest);
    let after = rest.get(end..).unwrap_or_default().trim_start();
    after.strip_prefix(',').unwrap_or_default()
}

/// The string literals that follow the first argument, up to the call's end.
fn list_after_first(rest: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut rest = after_first(rest);
    while let Arg::Text(word) = argument(rest) {
        words.push(word);
        rest = after_first(rest);
        if rest.is_empty() {
            break;
        }
    }
    words
}

/// How far the first argument reaches: a literal, a bracketed list, or up to `,` or `)` at the
/// top level.
fn skip_argument(rest: &str) -> usize {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (at, c) in rest.char_indices() {
        if let Some(open) = quote {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, _) if c == open => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '\'' | '"' | '`' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return at,
            ')' | ']' | '}' => depth -= 1,
            ',' | ';' if depth == 0 => return at,
            _ => {}
        }
    }
    rest.len()
}

/// The first argument of a call whose arguments start at `rest`.
fn argument(rest: &str) -> Arg {
    let rest = rest.trim_start();
    if let Some(list) = rest.strip_prefix('[') {
        let mut words = Vec::new();
        let mut inner = list;
        loop {
            let trimmed = inner.trim_start();
            if trimmed.starts_with(']') || trimmed.is_empty() {
                break;
            }
            match quoted(trimmed) {
                Arg::Text(word) => words.push(word),
                Arg::Home => words.push("~".to_string()),
                _ => words.push(RUN_TIME_INPUT.to_string()),
            }
            let end = skip_argument(trimmed);
            match trimmed.get(end..).and_then(|after| after.strip_prefix(',')) {
                Some(after) => inner = after,
                None => break,
            }
        }
        return Arg::List(words);
    }
    match quoted_at(rest) {
        (Arg::Unknown, _) if is_home(rest) => Arg::Home,
        // `'rm -rf ' + home`, `'%s' % x`, `'{}'.format(x)`: what the literal is joined with is
        // known only at run time.
        (Arg::Text(text), end) if joined(rest.get(end..).unwrap_or_default()) => Arg::Text(text + RUN_TIME_INPUT),
        (other, _) => other,
    }
}

/// Whether what follows a literal joins it with more (`+`, `%`, `.format(…)`, Perl's `.`).
fn joined(after: &str) -> bool {
    let after = after.trim_start();
    after.starts_with(['+', '%', '*'])
        || after.starts_with(". ")
        || after.starts_with(".$")
        || after.starts_with(".format")
}

/// Whether an expression is the home directory.
fn is_home(expression: &str) -> bool {
    static HOME: OnceLock<Option<Regex>> = OnceLock::new();
    HOME.get_or_init(|| {
        Regex::new(
            r#"^(?:os\.path\.expanduser\(\s*['"]~/?['"]\s*\)|(?:pathlib\.)?Path\.home\(\)|(?:os|require\(['"]os['"]\))\.homedir\(\)|process\.env\.HOME\b|os\.environ\[\s*['"]HOME['"]\s*\]|os\.getenv\(\s*['"]HOME['"]\s*\)|\$ENV\{\s*['"]?HOME['"]?\s*\}|ENV\[\s*['"]HOME['"]\s*\]|Dir\.home\b)"#,
        )
        .ok()
    })
    .as_ref()
    .is_some_and(|home| home.is_match(expression))
}

/// A string literal at the start of `text`: `'…'`, `"…"`, `` `…` `` (a prefix such as Python's
/// `r` or `f` allowed), Perl's `qx{…}` and Ruby's `%x(…)`, with its backslash escapes decoded.
/// What a literal interpolates (`${…}`, `#{…}`, an f-string's `{…}`) is known only at run time.
fn quoted(text: &str) -> Arg {
    quoted_at(text).0
}

/// [`quoted`], and where in `text` the literal ends.
fn quoted_at(text: &str) -> (Arg, usize) {
    let skipped = text.len() - text.trim_start().len();
    let (prefix, body) = split_prefix(text.trim_start());
    let mut chars = body.char_indices().peekable();
    let Some((_, open)) = chars.next() else { return (Arg::Unknown, 0) };
    let close = match (open, prefix.is_empty() || prefix.starts_with(['r', 'R', 'f', 'F', 'b', 'B', 'u', 'U'])) {
        ('\'' | '"' | '`', _) => open,
        ('{', false) => '}',
        ('(', false) => ')',
        ('[', false) => ']',
        ('/' | '|' | '!', false) => open,
        _ => return (Arg::Unknown, 0),
    };
    // Python's triple-quoted strings end at the same three quotes.
    let triple = matches!(open, '\'' | '"') && body.get(..3).is_some_and(|start| start.chars().all(|c| c == open));
    if triple {
        chars.next();
        chars.next();
    }
    let raw = prefix.contains(['r', 'R']);
    let start = skipped + prefix.len();
    let mut out = String::new();
    while let Some((at, c)) = chars.next() {
        if c == '\\' && !raw {
            let Some((_, escaped)) = chars.next() else { break };
            match escaped {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                // `'\x72m -rf ~'` is `rm -rf ~`.
                'x' | 'u' => {
                    let digits = if escaped == 'x' { 2 } else { 4 };
                    let hex: String = (0..digits)
                        .filter_map(|_| chars.next_if(|(_, c)| c.is_ascii_hexdigit()))
                        .map(|(_, c)| c)
                        .collect();
                    match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        Some(decoded) => out.push(decoded),
                        None => out.push_str(&hex),
                    }
                }
                other => out.push(other),
            }
            continue;
        }
        let closes = c == close && (!triple || body.get(at..at + 3).is_some_and(|end| end.chars().all(|c| c == close)));
        if closes {
            let end = start + at + if triple { 3 } else { 1 };
            let formatted = open == '`' || prefix.contains(['f', 'F']);
            let text = if formatted || out.contains("#{") { interpolated(&out) } else { out };
            return (Arg::Text(text), end);
        }
        out.push(c);
    }
    (Arg::Unknown, 0)
}

/// A literal's text with what it interpolates (`${…}`, `#{…}`, `{…}`) as a word known only at
/// run time.
fn interpolated(text: &str) -> String {
    static INTERPOLATION: OnceLock<Option<Regex>> = OnceLock::new();
    let pattern = INTERPOLATION.get_or_init(|| Regex::new(r"[$#]?\{[^{}]*\}").ok());
    match pattern {
        Some(pattern) => pattern.replace_all(text, RUN_TIME_INPUT).into_owned(),
        None => text.to_string(),
    }
}

/// A literal's prefix (`r`, `f`, `b`, `rb`; Perl's `qx`, `q`, `qq`; Ruby's `%x`, `%q`, `%Q`)
/// and the text from its opening delimiter on.
fn split_prefix(text: &str) -> (&str, &str) {
    for prefix in ["qx", "qq", "q", "%x", "%q", "%Q", "%"] {
        if let Some(body) = text.strip_prefix(prefix) {
            if body.starts_with(['{', '(', '[', '/', '|', '!']) {
                return (prefix, body);
            }
        }
    }
    let letters = text.chars().take_while(|c| matches!(c, 'r' | 'R' | 'f' | 'F' | 'b' | 'B' | 'u' | 'U')).count();
    match letters <= 2 && text.get(letters..).is_some_and(|body| body.starts_with(['\'', '"'])) {
        true => text.split_at(letters),
        false => ("", text),
    }
}

/// What the parsed readers' tests (`python.rs`, `javascript.rs`) compare: the runs a reading
/// gives, without or only its reasons.
#[cfg(test)]
pub(super) mod reading {
    use super::Run;

    pub(in crate::shell) fn line(text: &str) -> Run {
        Run::Line(text.to_string())
    }

    pub(in crate::shell) fn argv(words: &[&str]) -> Run {
        Run::Argv(words.iter().map(|word| (*word).to_string()).collect())
    }

    /// The commands of a reading, without its reasons.
    pub(in crate::shell) fn commands(runs: Vec<Run>) -> Vec<Run> {
        runs.into_iter().filter(|run| !matches!(run, Run::Unread(..))).collect()
    }

    /// The classes of a reading's reasons.
    pub(in crate::shell) fn unread(runs: Vec<Run>) -> Vec<&'static str> {
        runs.into_iter()
            .filter_map(|run| match run {
                Run::Unread(class, _) => Some(class),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(program: &str, code: &str) -> Vec<Run> {
        runs(program, code)
    }

    #[test]
    fn the_environment_is_read_in_every_lexical_language() {
        let env = |name: &str| Run::Argv(vec!["printenv".to_string(), name.to_string()]);
        let all = Run::Argv(vec!["printenv".to_string()]);
        for (program, code, expected) in [
            ("perl", "print $ENV{GITHUB_TOKEN}", vec![env("GITHUB_TOKEN")]),
            ("perl", "print $ENV{'GITHUB_TOKEN'}", vec![env("GITHUB_TOKEN")]),
            ("perl", "print %ENV", vec![all.clone()]),
            ("ruby", "puts ENV[\"GITHUB_TOKEN\"]", vec![env("GITHUB_TOKEN")]),
            ("ruby", "puts ENV.fetch('NPM_TOKEN')", vec![env("NPM_TOKEN")]),
            ("ruby", "p ENV.to_h", vec![all.clone()]),
            ("php", "echo getenv(\"GITHUB_TOKEN\");", vec![env("GITHUB_TOKEN")]),
            ("php", "print_r(getenv());", vec![all.clone()]),
            ("php", "echo $_ENV['API_KEY'];", vec![env("API_KEY")]),
            ("awk", "BEGIN { print ENVIRON[\"GITHUB_TOKEN\"] }", vec![env("GITHUB_TOKEN")]),
            ("awk", "BEGIN { for (k in ENVIRON) print k, ENVIRON[k] }", vec![all.clone(), all.clone()]),
            ("lua", "print(os.getenv(\"GITHUB_TOKEN\"))", vec![env("GITHUB_TOKEN")]),
            ("perl", "print 1", vec![]),
        ] {
            assert_eq!(lines(program, code), expected, "{program} {code}");
        }
    }

    fn line(text: &str) -> Run {
        Run::Line(text.to_string())
    }

    fn argv_of(words: &[&str]) -> Run {
        Run::Argv(words.iter().map(|word| word.to_string()).collect())
    }

    fn unread(program: &str, code: &str) -> Vec<String> {
        runs(program, code)
            .into_iter()
            .filter_map(|run| match run {
                Run::Unread(class, detail) => Some(format!("{class}: {detail}")),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn callees_and_code_chosen_at_run_time_are_unread() {
        use super::super::unread::CALLEE;
        for (program, code) in [
            ("node", "eval(process.argv[2])"),
            ("node", "new Function(body)()"),
            ("node", "require(name).execSync('x')"),
            ("node", "globalThis[k]('rm -rf ~')"),
            ("node", "import(m).then(x => x.default())"),
            ("perl", "eval $code"),
            ("ruby", "eval(ARGV[0])"),
            ("ruby", "Kernel.send(m, 'rm -rf ~')"),
            ("php", "eval($argv[1]);"),
            ("php", "call_user_func($f, 'rm -rf ~');"),
            ("php", "$f('rm -rf ~');"),
        ] {
            let found = unread(program, code);
            assert!(found.len() == 1 && found[0].starts_with(CALLEE), "{program} {code}: {found:?}");
        }
        // Code given as a literal is read as code of the same language.
        assert_eq!(lines("node", r#"eval("require('child_process').execSync('rm -rf ~')")"#), vec![line("rm -rf ~")]);
        assert_eq!(lines("php", r#"eval("system('rm -rf ~');");"#), vec![line("rm -rf ~")]);
        // A literal callee, Perl's block `eval { … }`, a word in a string and Ruby's `$_` are
        // read as what they are.
        for (program, code) in [
            ("perl", r#"system("ls", "-la") == 0 or die "system failed: $?""#),
            ("ruby", "$_.upcase!"),
            ("node", "const fs = require('fs'); fs.readFileSync('a')"),
            ("node", "import('node:fs').then(fs => fs.readdirSync('.'))"),
            ("perl", "eval { die 'x' }; print $@"),
            ("ruby", "puts [1,2].send(:map) { |x| x * 2 }"),
        ] {
            assert!(unread(program, code).is_empty(), "{program} {code}: {:?}", unread(program, code));
        }
    }

    #[test]
    fn pipes_to_and_from_commands_are_read() {
        use super::super::unread::DESCRIPTOR;
        // awk: a command's output read with getline, output printed into a command.
        assert_eq!(lines("awk", r#"BEGIN { "rm -rf ~" | getline x }"#), vec![line("rm -rf ~")]);
        assert_eq!(lines("awk", r#"{ print $0 | "sort -u > out.txt" }"#), vec![line("sort -u > out.txt")]);
        let into_shell = unread("awk", r#"BEGIN { print "rm -rf ~" | "sh" }"#);
        assert!(into_shell.len() == 1 && into_shell[0].starts_with(DESCRIPTOR), "{into_shell:?}");
        // Perl: a piped open, two-argument and three-argument.
        assert_eq!(lines("perl", r#"open(my $fh, "rm -rf ~ |"); print <$fh>"#), vec![line("rm -rf ~")]);
        assert_eq!(lines("perl", r#"open(my $fh, "-|", "rm", "-rf", "/")"#), vec![argv_of(&["rm", "-rf", "/"])]);
        assert_eq!(lines("perl", r#"open(FH, ">", ".git/config")"#), vec![argv_of(&["tee", "--", ".git/config"])]);
        assert_eq!(lines("perl", r#"open(my $in, "<", "data.txt")"#), vec![argv_of(&["cat", "--", "data.txt"])]);
        let into_shell = unread("perl", r#"open(my $sh, "| sh"); print $sh "rm -rf ~""#);
        assert!(into_shell.len() == 1 && into_shell[0].starts_with(DESCRIPTOR), "{into_shell:?}");
        // Lua, PHP's pcntl_exec, Bun and Deno.
        assert_eq!(lines("lua", r#"os.execute("rm -rf ~")"#), vec![line("rm -rf ~")]);
        assert_eq!(lines("lua", r#"io.popen("rm -rf ~"):read("a")"#), vec![line("rm -rf ~")]);
        assert_eq!(lines("lua", r#"os.remove(".git/config")"#), vec![argv_of(&["rm", "--", ".git/config"])]);
        assert_eq!(lines("php", r#"pcntl_exec("/bin/rm", ["-rf", "/"]);"#), vec![argv_of(&["/bin/rm", "-rf", "/"])]);
        assert_eq!(lines("bun", r#"Bun.spawnSync(["rm", "-rf", "/"])"#), vec![argv_of(&["rm", "-rf", "/"])]);
        assert_eq!(
            lines("deno", r#"await Deno.writeTextFile(".git/config", "x")"#),
            vec![argv_of(&["tee", "--", ".git/config"])]
        );
    }

    #[test]
    fn shell_lines_are_read_from_each_language() {
        assert_eq!(lines("python3", "import os; os.system('rm -rf ~')"), vec![line("rm -rf ~")]);
        assert_eq!(
            lines("python", r#"import subprocess; subprocess.run("rm -rf /", shell=True)"#),
            vec![line("rm -rf /")]
        );
        assert_eq!(lines("python", r#"subprocess.call(["rm", "-rf", "/"])"#), vec![argv_of(&["rm", "-rf", "/"])]);
        assert_eq!(lines("node", r#"require("child_process").execSync("rm -rf ~")"#), vec![line("rm -rf ~")]);
        assert_eq!(lines("node", r#"cp.spawnSync('rm', ['-rf', '/'])"#), vec![argv_of(&["rm", "-rf", "/"])]);
        assert_eq!(lines("perl", r#"system "rm -rf ~""#), vec![line("rm -rf ~")]);
        assert_eq!(lines("perl", r#"system('rm', '-rf', '/')"#), vec![argv_of(&["rm", "-rf", "/"])]);
        assert_eq!(lines("perl", "print qx{rm -rf ~}"), vec![line("rm -rf ~")]);
        assert_eq!(lines("ruby", "`rm -rf ~`"), vec![line("rm -rf ~")]);
        assert_eq!(lines("ruby", "puts `ls`; `rm -rf ~`"), vec![line("ls"), line("rm -rf ~")]);
        assert_eq!(lines("ruby", "%x(rm -rf ~)"), vec![line("rm -rf ~")]);
        assert_eq!(lines("php", r#"shell_exec("rm -rf ~");"#), vec![line("rm -rf ~")]);
    }

    #[test]
    fn deletions_are_rm_of_their_target() {
        assert_eq!(lines("python3", "import shutil; shutil.rmtree('/')"), vec![argv_of(&["rm", "-r", "--", "/"])]);
        assert_eq!(
            lines("python3", "import shutil,os; shutil.rmtree(os.path.expanduser('~'))"),
            vec![argv_of(&["rm", "-r", "--", "~"])]
        );
        // Python does not expand `~`: it is a directory of that name.
        assert_eq!(lines("python3", "shutil.rmtree('~')"), vec![argv_of(&["rm", "-r", "--", "./~"])]);
        assert_eq!(
            lines("python3", "shutil.rmtree(p)"),
            vec![
                Run::Unread(
                    super::super::unread::TARGET,
                    "python shutil.rmtree of a path known only at run time".into()
                ),
                argv_of(&["rm", "-r", "--", "$(cat)"])
            ]
        );
        assert_eq!(
            lines("node", r#"require("fs").rmSync("/", {recursive: true, force: true})"#),
            vec![argv_of(&["rm", "-r", "--", "/"])]
        );
        assert_eq!(lines("node", r#"fs.rmSync("a.txt")"#), vec![argv_of(&["rm", "--", "a.txt"])]);
        assert_eq!(
            lines("node", "fs.rmSync(require('os').homedir(), {recursive:true})"),
            vec![argv_of(&["rm", "-r", "--", "~"])]
        );
        assert_eq!(
            lines("ruby", "require 'fileutils'; FileUtils.rm_rf(Dir.home)"),
            vec![argv_of(&["rm", "-r", "--", "~"])]
        );
        assert_eq!(
            lines("perl", "use File::Path; rmtree($ENV{HOME})"),
            vec![argv_of(&["rm", "-r", "--", "~"]), argv_of(&["printenv", "HOME"])]
        );
    }

    #[test]
    fn writes_name_their_file_and_reads_do_not() {
        assert_eq!(lines("python3", "open('.env', 'w').write('x')"), vec![argv_of(&["tee", "--", ".env"])]);
        assert_eq!(lines("python3", "open('.env', mode='a')"), vec![argv_of(&["tee", "--", ".env"])]);
        assert_eq!(lines("python3", "print(open('README.md').read())"), vec![argv_of(&["cat", "--", "README.md"])]);
        assert_eq!(lines("python3", "open('a', 'r')"), vec![argv_of(&["cat", "--", "a"])]);
        assert_eq!(
            lines("python3", "from pathlib import Path; Path('.claude/settings.json').write_text('{}')"),
            vec![argv_of(&["tee", "--", ".claude/settings.json"])]
        );
        assert_eq!(
            lines("node", "fs.writeFileSync('generated.txt', 'x')"),
            vec![argv_of(&["tee", "--", "generated.txt"])]
        );
    }

    #[test]
    fn what_a_line_interpolates_is_known_only_at_run_time() {
        assert_eq!(lines("python3", "os.system(f'rm -rf {d}')"), vec![line("rm -rf $(cat)")]);
        assert_eq!(lines("node", "execSync(`rm -rf ${d}/x`)"), vec![line("rm -rf $(cat)/x")]);
        assert_eq!(lines("ruby", r#"system("rm -rf #{d}")"#), vec![line("rm -rf $(cat)")]);
        // The shell expands what the language does not.
        assert_eq!(lines("python3", r#"os.system("rm -rf $HOME")"#), vec![line("rm -rf $HOME")]);
        assert_eq!(lines("python3", "import os; os.system(cmd)"), vec![argv_of(&["$COMMAND"])]);
    }

    #[test]
    fn what_review_three_found_is_read() {
        assert_eq!(lines("python3", "from os import system; system('rm -rf ~')"), vec![line("rm -rf ~")]);
        assert_eq!(lines("python3", "import os as o; o.system('rm -rf ~')"), vec![line("rm -rf ~")]);
        assert_eq!(
            lines("python3", "from shutil import rmtree; rmtree('/srv')"),
            vec![argv_of(&["rm", "-r", "--", "/srv"])]
        );
        assert_eq!(lines("python3", "import os; os.system(c)"), vec![argv_of(&["$COMMAND"])]);
        assert_eq!(lines("python3", "import os; os.system('rm -rf ' + home)"), vec![line("rm -rf $(cat)")]);
        assert_eq!(lines("python3", "import os; os.system('''rm -rf ~''')"), vec![line("rm -rf ~")]);
        assert_eq!(lines("python3", r"import os; os.system('\x72m -rf ~')"), vec![line("rm -rf ~")]);
        assert_eq!(
            lines("python3", "import shutil; shutil.copyfile('x', '.claude/settings.json')"),
            vec![argv_of(&["cp", "--", "x", ".claude/settings.json"])]
        );
        assert_eq!(lines("python3", "print(open('.env').read())"), vec![argv_of(&["cat", "--", ".env"])]);
        assert_eq!(
            lines("node", "fs.copyFileSync('x', '.git/hooks/pre-commit')"),
            vec![argv_of(&["cp", "--", "x", ".git/hooks/pre-commit"])]
        );
        assert_eq!(lines("python3", "$X"), vec![argv_of(&["$X"])]);
        assert_eq!(lines("awk", r#"BEGIN { system("rm -rf ~") }"#), vec![line("rm -rf ~")]);
        // A bare `run(` is subprocess's only where the code names it.
        assert_eq!(lines("python3", "import asyncio; asyncio.run(main())"), vec![]);
    }

    #[test]
    fn code_comes_from_its_option_or_from_what_it_reads() {
        let args = |words: &[&str]| words.iter().map(|word| word.to_string()).collect::<Vec<_>>();
        let text = |code: &str| Some(Code::Text(code.to_string()));
        assert_eq!(code_of("python3", &args(&["-c", "x"])), text("x"));
        assert_eq!(code_of("python3", &args(&["-u", "-cx"])), text("x"));
        assert_eq!(code_of("node", &args(&["--eval=x"])), text("x"));
        assert_eq!(code_of("python3", &args(&["script.py"])), Some(Code::File("script.py".into())));
        assert_eq!(code_of("python3", &args(&[])), Some(Code::Stdin));
        assert_eq!(code_of("python3", &args(&["-"])), Some(Code::Stdin));
        assert_eq!(code_of("ls", &args(&["-c", "x"])), None);
        assert_eq!(code_of("python3.12", &args(&["-Ic", "x"])), text("x"));
        assert_eq!(code_of("python3", &args(&["-W", "ignore", "-c", "x"])), text("x"));
        assert_eq!(code_of("perl", &args(&["-we", "x", "-e", "y"])), text("x\ny"));
        assert_eq!(code_of("node", &args(&["-pe", "x"])), text("x"));
        assert_eq!(code_of("deno", &args(&["eval", "x"])), text("x"));
        assert_eq!(code_of("python3", &args(&["-m", "http.server"])), None);
        assert_eq!(code_of("awk", &args(&["-F", ":", "{print $1}", "f"])), text("{print $1}"));
        assert_eq!(code_of("awk", &args(&["-f", "prog.awk", "f"])), Some(Code::File("prog.awk".into())));
    }
}
