//! Code in other languages run from a shell line (`python -c CODE`, `node -e CODE`, `perl -e
//! CODE`, `ruby -e CODE`, `php -r CODE`, or a heredoc or pipe feeding one): what its calls do,
//! as commands the walk reads like any other. `os.system("rm -rf ~")` runs the shell line `rm
//! -rf ~`; `subprocess.run(["rm", "-rf", "/"])` runs that argv; `shutil.rmtree(p)` is `rm -r` of
//! a target known only at run time; `open(".env", "w")` writes `.env`.
//!
//! Everything here is a table: a language is its programs and the options that give it code; a
//! call is a pattern and what it amounts to. The reading is lexical (no interpreter's grammar),
//! so it errs towards seeing a call: a call named in a comment or a string is read too.

use regex::Regex;
use std::sync::OnceLock;

/// What a call amounts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
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
    /// Deletes its first argument, recursively when its arguments say `recursive: true`.
    DeleteMaybeRecursive,
    /// Writes its first argument.
    Write,
    /// Opens its first argument, for writing when its mode says so (`open(P, "w")`).
    Open,
    /// `Path(P)` followed by a method that writes or deletes it (`.write_text(…)`, `.unlink()`).
    PathMethod,
}

/// A call: the pattern that finds it (ending where its first argument starts) and its effect.
struct Call {
    pattern: &'static str,
    effect: Effect,
}

const fn call(pattern: &'static str, effect: Effect) -> Call {
    Call { pattern, effect }
}

/// A language: the programs that run it, the options whose value is code, its calls, and
/// whether `` `LINE` `` runs a shell line.
struct Language {
    programs: &'static [&'static str],
    code_options: &'static [&'static str],
    calls: &'static [Call],
    backticks: bool,
}

const RECURSIVE: Effect = Effect::Delete { recursive: true };
const DELETE: Effect = Effect::Delete { recursive: false };

static LANGUAGES: &[Language] = &[
    Language {
        programs: &["python", "python2", "python3", "pypy", "pypy3"],
        code_options: &["-c"],
        calls: &[
            call(r"\bos\s*\.\s*(?:system|popen)\s*\(", Effect::Shell),
            call(r"\bcommands\s*\.\s*getoutput\s*\(", Effect::Shell),
            call(
                r"\bsubprocess\s*\.\s*(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(",
                Effect::Argv,
            ),
            call(r"\bos\s*\.\s*exec[lv]p?e?\s*\(", Effect::ProgramAndArgs),
            call(r"\bshutil\s*\.\s*rmtree\s*\(", RECURSIVE),
            call(r"\bos\s*\.\s*(?:remove|unlink|rmdir|removedirs)\s*\(", DELETE),
            call(r"\bPath\s*\(", Effect::PathMethod),
            call(r"\bopen\s*\(", Effect::Open),
        ],
        backticks: false,
    },
    Language {
        programs: &["node", "nodejs", "bun", "deno"],
        code_options: &["-e", "--eval", "-p", "--print"],
        calls: &[
            call(r"\b(?:execSync|exec)\s*\(", Effect::Shell),
            call(r"\b(?:spawnSync|spawn|execFileSync|execFile)\s*\(", Effect::ProgramAndArgs),
            call(r"\b(?:rmSync|rm|rmdirSync|rmdir)\s*\(", Effect::DeleteMaybeRecursive),
            call(r"\b(?:removeSync|remove|rimraf|rimrafSync|emptyDirSync)\s*\(", RECURSIVE),
            call(r"\b(?:unlinkSync|unlink)\s*\(", DELETE),
            call(
                r"\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|outputFileSync)\s*\(",
                Effect::Write,
            ),
        ],
        backticks: false,
    },
    Language {
        programs: &["perl"],
        code_options: &["-e", "-E"],
        calls: &[
            call(r"\b(?:system|exec)\b\s*\(?\s*", Effect::Argv),
            call(r"\bqx\s*", Effect::Shell),
            call(r"\b(?:rmtree|remove_tree)\b\s*\(?\s*", RECURSIVE),
            call(r"\b(?:unlink|rmdir)\b\s*\(?\s*", DELETE),
        ],
        backticks: true,
    },
    Language {
        programs: &["ruby"],
        code_options: &["-e"],
        calls: &[
            call(r"\b(?:system|exec|spawn)\b\s*\(?\s*", Effect::Argv),
            call(r"\bIO\s*\.\s*popen\b\s*\(?\s*", Effect::Shell),
            call(r"\bOpen3\s*\.\s*\w+\b\s*\(?\s*", Effect::Shell),
            call(r"%x", Effect::Shell),
            call(
                r"\bFileUtils\s*\.\s*(?:rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree)\b\s*\(?\s*",
                RECURSIVE,
            ),
            call(
                r"\b(?:FileUtils\s*\.\s*(?:rm|rm_f|remove|rmdir)|File\s*\.\s*(?:delete|unlink)|Dir\s*\.\s*(?:delete|rmdir|unlink))\b\s*\(?\s*",
                DELETE,
            ),
            call(r"\bFile\s*\.\s*write\b\s*\(?\s*", Effect::Write),
            call(r"\bFile\s*\.\s*open\b\s*\(?\s*", Effect::Open),
        ],
        backticks: true,
    },
    Language {
        programs: &["php"],
        code_options: &["-r"],
        calls: &[
            call(r"\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(", Effect::Shell),
            call(r"\b(?:unlink|rmdir)\s*\(", DELETE),
            call(r"\bfile_put_contents\s*\(", Effect::Write),
        ],
        backticks: true,
    },
];

/// The language `program` runs, if it is one of these.
fn language(program: &str) -> Option<&'static Language> {
    LANGUAGES.iter().find(|language| language.programs.contains(&program))
}

/// Whether `program` runs code in one of these languages.
pub(super) fn is_interpreter(program: &str) -> bool {
    language(program).is_some()
}

/// The code a command runs: an option's value (`-c CODE`, `-eCODE`, `--eval=CODE`), or, with
/// no script file named, what it reads (`python3 <<EOF`, `echo … | node`).
pub(super) fn code_of(program: &str, args: &[String], stdin: Option<&str>) -> Option<String> {
    let language = language(program)?;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        for option in language.code_options {
            if word == option {
                return words.next().cloned();
            }
            let attached = match option.starts_with("--") {
                true => word.strip_prefix(option).and_then(|rest| rest.strip_prefix('=')),
                false => word.strip_prefix(option).filter(|rest| !rest.is_empty()),
            };
            if let Some(code) = attached {
                return Some(code.to_string());
            }
        }
        // The first word that is not an option names a script file, whose code is not here.
        if word == "-" {
            break;
        }
        if !word.starts_with('-') {
            return None;
        }
    }
    stdin.map(str::to_string)
}

/// What one call in the code does, for the walk to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Run {
    /// A shell line.
    Line(String),
    /// A command's words, as a program receives them (no shell expands them).
    Argv(Vec<String>),
}

/// The commands `code`'s calls amount to, in the order they appear.
pub(super) fn runs(program: &str, code: &str) -> Vec<Run> {
    let Some(language) = language(program) else { return Vec::new() };
    let mut found: Vec<(usize, Run)> = Vec::new();
    for (call, pattern) in language.calls.iter().zip(compiled(language)) {
        let Some(pattern) = pattern else { continue };
        for matched in pattern.find_iter(code) {
            let rest = code.get(matched.end()..).unwrap_or_default();
            // `qx{…}` and `%x(…)` are literals the pattern begins.
            let opener = matched.as_str().trim_end();
            let first = match opener.ends_with("qx") || opener.ends_with("%x") {
                true => quoted(&format!("{opener}{rest}")),
                false => argument(rest),
            };
            if let Some(run) = effect(call.effect, &first, rest) {
                found.push((matched.start(), run));
            }
        }
    }
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
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, run)| run).collect()
}

/// Each call's pattern, compiled once per language.
fn compiled(language: &'static Language) -> &'static [Option<Regex>] {
    static COMPILED: OnceLock<Vec<Vec<Option<Regex>>>> = OnceLock::new();
    let all = COMPILED.get_or_init(|| {
        LANGUAGES
            .iter()
            .map(|language| language.calls.iter().map(|call| Regex::new(call.pattern).ok()).collect())
            .collect()
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
fn effect(effect: Effect, first: &Arg, rest: &str) -> Option<Run> {
    let target = || match first {
        Arg::Text(text) => Some(literal_path(text)),
        Arg::Home => Some("~".to_string()),
        Arg::List(_) | Arg::Unknown => Some(super::RUN_TIME_INPUT.to_string()),
    };
    match effect {
        Effect::Shell => match first {
            Arg::Text(line) => Some(Run::Line(line.clone())),
            _ => None,
        },
        Effect::Argv => match first {
            Arg::Text(line) => {
                // Perl's and Ruby's `system('rm', '-rf', '/')`: more literals after the first.
                let more = list_after_first(rest);
                match more.is_empty() {
                    true => Some(Run::Line(line.clone())),
                    false => Some(Run::Argv(argv([vec![line.clone()], more].concat()))),
                }
            }
            Arg::List(words) => Some(Run::Argv(argv(words.clone()))),
            _ => None,
        },
        Effect::ProgramAndArgs => {
            let Arg::Text(program) = first else { return None };
            let args = match argument(after_first(rest)) {
                Arg::List(args) => args,
                _ => Vec::new(),
            };
            Some(Run::Argv(argv([vec![program.clone()], args].concat())))
        }
        Effect::Delete { recursive } => Some(Run::Argv(delete(recursive, target()?))),
        Effect::DeleteMaybeRecursive => {
            let call = rest.get(..call_end(rest)).unwrap_or_default();
            let recursive = Regex::new(r"recursive\s*:\s*true").is_ok_and(|pattern| pattern.is_match(call));
            Some(Run::Argv(delete(recursive, target()?)))
        }
        Effect::Write => Some(Run::Argv(write(target()?))),
        Effect::Open => {
            // `open(P)` and `open(P, "r")` read; a mode with `w`, `a`, `x` or `+` writes.
            let second = after_first(rest).trim_start();
            let mode = match argument(
                second.strip_prefix("mode").map_or(second, |rest| rest.trim_start().trim_start_matches('=')),
            ) {
                Arg::Text(mode) => mode,
                _ => return None,
            };
            mode.contains(['w', 'a', 'x', '+']).then(|| target().map(|target| Run::Argv(write(target))))?
        }
        Effect::PathMethod => {
            let after = rest.get(skip_argument(rest)..).unwrap_or_default();
            let method = after.strip_prefix(')')?.trim_start().strip_prefix('.')?.trim_start();
            let name: String = method.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            match name.as_str() {
                "write_text" | "write_bytes" | "touch" => Some(Run::Argv(write(target()?))),
                "unlink" | "rmdir" => Some(Run::Argv(delete(false, target()?))),
                "open" => {
                    let args = method.get(name.len()..)?.trim_start().strip_prefix('(')?;
                    let Arg::Text(mode) = argument(args) else { return None };
                    mode.contains(['w', 'a', 'x', '+']).then(|| target().map(|target| Run::Argv(write(target))))?
                }
                _ => None,
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

/// A path as a program receives it: no shell expands `~`, so `"~"` is a file of that name.
fn literal_path(text: &str) -> String {
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

/// Where a call whose arguments start at `rest` ends: its closing parenthesis, or the end.
fn call_end(rest: &str) -> usize {
    let mut at = 0;
    loop {
        at += skip_argument(rest.get(at..).unwrap_or_default());
        match rest.get(at..).and_then(|after| after.chars().next()) {
            Some(',') => at += 1,
            _ => return at,
        }
    }
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
                _ => words.push(super::RUN_TIME_INPUT.to_string()),
            }
            let end = skip_argument(trimmed);
            match trimmed.get(end..).and_then(|after| after.strip_prefix(',')) {
                Some(after) => inner = after,
                None => break,
            }
        }
        return Arg::List(words);
    }
    match quoted(rest) {
        Arg::Unknown if is_home(rest) => Arg::Home,
        other => other,
    }
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
    let (prefix, body) = split_prefix(text.trim_start());
    let mut chars = body.chars();
    let Some(open) = chars.next() else { return Arg::Unknown };
    let close = match (open, prefix.is_empty() || prefix.starts_with(['r', 'R', 'f', 'F', 'b', 'B', 'u', 'U'])) {
        ('\'' | '"' | '`', _) => open,
        ('{', false) => '}',
        ('(', false) => ')',
        ('[', false) => ']',
        ('/' | '|' | '!', false) => open,
        _ => return Arg::Unknown,
    };
    let raw = prefix.contains(['r', 'R']);
    let mut out = String::new();
    let mut escaped = false;
    for c in chars {
        if escaped {
            out.push(match c {
                'n' => '\n',
                't' => '\t',
                other => other,
            });
            escaped = false;
        } else if c == '\\' && !raw {
            escaped = true;
        } else if c == close {
            let formatted = open == '`' || prefix.contains(['f', 'F']);
            return Arg::Text(if formatted || out.contains("#{") { interpolated(&out) } else { out });
        } else {
            out.push(c);
        }
    }
    Arg::Unknown
}

/// A literal's text with what it interpolates (`${…}`, `#{…}`, `{…}`) as a word known only at
/// run time.
fn interpolated(text: &str) -> String {
    static INTERPOLATION: OnceLock<Option<Regex>> = OnceLock::new();
    let pattern = INTERPOLATION.get_or_init(|| Regex::new(r"[$#]?\{[^{}]*\}").ok());
    match pattern {
        Some(pattern) => pattern.replace_all(text, super::RUN_TIME_INPUT).into_owned(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(program: &str, code: &str) -> Vec<Run> {
        runs(program, code)
    }

    fn line(text: &str) -> Run {
        Run::Line(text.to_string())
    }

    fn argv_of(words: &[&str]) -> Run {
        Run::Argv(words.iter().map(|word| word.to_string()).collect())
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
        assert_eq!(lines("python3", "shutil.rmtree(p)"), vec![argv_of(&["rm", "-r", "--", "$(cat)"])]);
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
        assert_eq!(lines("perl", "use File::Path; rmtree($ENV{HOME})"), vec![argv_of(&["rm", "-r", "--", "~"])]);
    }

    #[test]
    fn writes_name_their_file_and_reads_do_not() {
        assert_eq!(lines("python3", "open('.env', 'w').write('x')"), vec![argv_of(&["tee", "--", ".env"])]);
        assert_eq!(lines("python3", "open('.env', mode='a')"), vec![argv_of(&["tee", "--", ".env"])]);
        assert_eq!(lines("python3", "print(open('README.md').read())"), vec![]);
        assert_eq!(lines("python3", "open('a', 'r')"), vec![]);
        assert_eq!(
            lines("python3", "Path('.claude/settings.json').write_text('{}')"),
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
        assert_eq!(lines("python3", "os.system(cmd)"), vec![]);
    }

    #[test]
    fn code_comes_from_its_option_or_from_what_it_reads() {
        let args = |words: &[&str]| words.iter().map(|word| word.to_string()).collect::<Vec<_>>();
        assert_eq!(code_of("python3", &args(&["-c", "x"]), None).as_deref(), Some("x"));
        assert_eq!(code_of("python3", &args(&["-u", "-cx"]), None).as_deref(), Some("x"));
        assert_eq!(code_of("node", &args(&["--eval=x"]), None).as_deref(), Some("x"));
        assert_eq!(code_of("python3", &args(&["script.py"]), Some("y")), None);
        assert_eq!(code_of("python3", &args(&[]), Some("y")).as_deref(), Some("y"));
        assert_eq!(code_of("python3", &args(&["-"]), Some("y")).as_deref(), Some("y"));
        assert_eq!(code_of("ls", &args(&["-c", "x"]), None), None);
    }
}
