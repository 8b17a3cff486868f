//! The respelling generator (issue 35): operators, one row each, that respell a shell line
//! (quoting, `IFS` as blanks and as a separator, default expansions, variables set once,
//! wrappers, `bash -c`, `eval`, interpreters under other names, heredocs, `/dev/stdin`, process
//! substitution, PowerShell), applied singly and in
//! pairs to every positive test case of the baseline and the packs. A respelling is kept only
//! when an execution oracle shows it means the same: bash runs both lines, as the unprivileged
//! user `nobody` in an empty directory, with a `PATH` of stub programs that record their argv
//! (bash, dash, python3, node and perl are the real ones), and both must record the same
//! commands. Each kept respelling must still be refused or asked. PowerShell's rows have no
//! oracle (pwsh cannot run here): they are kept when the line is one simple command, and said
//! so. The same operators over the benign corpus must stay within its bound.
//!
//! It is a seeded, shrinking proptest with a fixed budget (`HOOKC_RESPELL_CASES`, 48 by default);
//! `tests/respell.sh` runs it longer and reports how many kept respellings an older reader let
//! through.

use base64::Engine as _;
use hookc::{Event, Permission, Policy};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// A respelling operator: its name, what it makes of a line (`None` where it does not apply),
/// and whether bash can show the respelling means the same.
struct Operator {
    name: &'static str,
    respell: fn(&str) -> Option<String>,
    oracle: bool,
    /// What it makes is asked about by design, whatever the line (a script from a descriptor).
    asks: bool,
}

const fn op(name: &'static str, respell: fn(&str) -> Option<String>) -> Operator {
    Operator { name, respell, oracle: true, asks: false }
}

/// The operators, one row each.
static OPERATORS: &[Operator] = &[
    // Quoting and escapes of the program's name.
    op("single-quoted program", |line| first_word(line).map(|(word, rest)| format!("'{word}'{rest}"))),
    op("escaped program", |line| first_word(line).map(|(word, rest)| format!("\\{word}{rest}"))),
    op("split program", |line| {
        first_word(line).filter(|(word, _)| word.len() > 1).map(|(word, rest)| {
            let (head, tail) = word.split_at(1);
            format!("{head}\"\"{tail}{rest}")
        })
    }),
    // `IFS` for the blanks, and variables set once.
    op("IFS", |line| simple(line).then(|| line.replace(' ', "${IFS}"))),
    // `IFS` set to split a variable's value at another character.
    op("IFS as a separator", |line| {
        (simple(line) && !line.contains([',', '~', '\'', '"']))
            .then(|| format!("IFS=,; hookc_w='{}'; $hookc_w", line.split_whitespace().collect::<Vec<_>>().join(",")))
    }),
    // Default expansions of the last word: a variable the line never sets reads as its default.
    op("default expansion", |line| last_word(line).map(|(head, word)| format!("{head} ${{hookc_unset:-{word}}}"))),
    op("default assignment", |line| {
        last_word(line).map(|(head, word)| format!(": ${{hookc_d:={word}}}; {head} $hookc_d"))
    }),
    op("program in a variable", |line| first_word(line).map(|(word, rest)| format!("hookc_p={word}; $hookc_p{rest}"))),
    // (Expanded, a variable's words are split but not unquoted or tilde-expanded: the row takes
    // only plain words.)
    op("arguments in a variable", |line| {
        first_word(line)
            .filter(|_| simple(line) && !line.contains('~'))
            .map(|(word, rest)| format!("hookc_a='{}'; {word} $hookc_a", rest.trim()))
    }),
    // Wrappers and nested shells.
    op("env", |line| Some(format!("env {line}"))),
    op("command", |line| Some(format!("command {line}"))),
    op("nice", |line| Some(format!("nice {line}"))),
    op("timeout", |line| Some(format!("timeout 9 {line}"))),
    op("bash -c", |line| Some(format!("bash -c {}", quoted(line)))),
    op("sh -c", |line| Some(format!("sh -c {}", quoted(line)))),
    op("eval", |line| Some(format!("eval {}", quoted(line)))),
    // Aliases (defined on one line, expanded on a later one, where aliases expand).
    op("alias of the program", |line| {
        first_word(line)
            .map(|(word, rest)| format!("shopt -s expand_aliases\nalias hookc_r={}\nhookc_r{rest}", quoted(word)))
    }),
    op("alias of the line", |line| Some(format!("shopt -s expand_aliases\nalias hookc_r={}\nhookc_r", quoted(line)))),
    // Each interpreter, with aliases.
    op("python os.system", |line| {
        Some(format!("python3 -c {}", quoted(&format!("import os; os.system({})", json(line)))))
    }),
    op("python subprocess as", |line| {
        Some(format!("python3 -c {}", quoted(&format!("import subprocess as s; s.run({}, shell=True)", json(line)))))
    }),
    op("node execSync", |line| {
        Some(format!(
            "node -e {}",
            quoted(&format!("require(\"child_process\").execSync({}, {{stdio: \"inherit\"}})", json(line)))
        ))
    }),
    op("node destructured", |line| {
        Some(format!(
            "node -e {}",
            quoted(&format!("const {{execSync: x}} = require(\"node:child_process\"); x({})", json(line)))
        ))
    }),
    op("perl system", |line| {
        let literal = json(line).replace('$', "\\$").replace('@', "\\@");
        Some(format!("perl -e {}", quoted(&format!("system({literal})"))))
    }),
    // Heredocs, `/dev/stdin`, process substitution.
    op("heredoc", |line| Some(format!("bash <<'HOOKC_EOF'\n{line}\nHOOKC_EOF"))),
    op("/dev/stdin", |line| Some(format!("bash /dev/stdin <<'HOOKC_EOF'\n{line}\nHOOKC_EOF"))),
    Operator {
        name: "process substitution",
        respell: |line| Some(format!("bash <(printf '%s\\n' {})", quoted(line))),
        oracle: true,
        asks: true,
    },
    // PowerShell: no oracle here.
    Operator {
        name: "pwsh -Command",
        respell: |line| native_in_pwsh(line).then(|| format!("pwsh -NoProfile -Command {}", quoted(line))),
        oracle: false,
        asks: false,
    },
    Operator {
        name: "pwsh -EncodedCommand",
        respell: |line| {
            let utf16: Vec<u8> = line.encode_utf16().flat_map(u16::to_le_bytes).collect();
            native_in_pwsh(line)
                .then(|| format!("pwsh -ec {}", base64::engine::general_purpose::STANDARD.encode(utf16)))
        },
        oracle: false,
        // (The baseline asks about any encoded PowerShell.)
        asks: true,
    },
];

/// The first word and the rest, for a line that starts with a plain program name.
fn first_word(line: &str) -> Option<(&str, &str)> {
    let end = line.find(' ').unwrap_or(line.len());
    let (word, rest) = line.split_at(end);
    (!word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) && !word.contains('='))
        .then_some((word, rest))
}

/// A simple line's words but the last, and its last word, where it has two or more and the
/// last is no option.
/// The last word of a simple line, when it is an argument: the head holds the program, not only
/// assignments (`RUST_LOG=info ./main`'s last word is its program, which a variable would choose).
fn last_word(line: &str) -> Option<(&str, &str)> {
    let (head, word) = line.trim_end().rsplit_once(' ')?;
    let assignment = |word: &str| {
        word.split_once('=')
            .is_some_and(|(name, _)| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    };
    let program = head.split_whitespace().any(|word| !assignment(word));
    (simple(line) && !word.is_empty() && !word.starts_with('-') && program).then_some((head, word))
}

/// A line that is one simple command of plain words.
fn simple(line: &str) -> bool {
    !line.is_empty() && line.chars().all(|c| c.is_ascii_alphanumeric() || " ._-/~=:,+@%".contains(c))
}

/// A simple line whose program pwsh runs as the same program: not one of the aliases pwsh has
/// on every platform (PowerShell 929903692e, InitialSessionState.cs:4714-4878), whose names
/// run cmdlets there (`sls` is Select-String).
fn native_in_pwsh(line: &str) -> bool {
    const ALIASES: &[&str] = &[
        "clc", "cli", "clp", "cpi", "copy", "cvpa", "gc", "type", "gci", "dir", "gi", "gp", "ii", "mi", "move", "mp",
        "ni", "ri", "del", "erase", "rd", "rni", "ren", "rnp", "rp", "rvpa", "si", "sp", "iex", "icm", "ihy", "r",
        "saps", "spps", "sajb", "iwr", "irm", "gcm", "ipmo", "foreach", "where", "sal", "nal", "sv", "set", "nv", "sl",
        "cd", "chdir", "echo", "sls", "select", "pushd", "popd", "h", "history", "exec",
    ];
    simple(line) && first_word(line).is_some_and(|(word, _)| !ALIASES.contains(&word.to_lowercase().as_str()))
}

/// `text` single-quoted for the shell.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// `text` as a JSON string literal (which Python, JavaScript and Perl read alike).
fn json(text: &str) -> String {
    serde_json::Value::String(text.to_string()).to_string()
}

/// The baseline with every pack, or alone.
fn policy(packs: bool) -> &'static Policy {
    static EVERY_PACK: OnceLock<Policy> = OnceLock::new();
    static BASELINE: OnceLock<Policy> = OnceLock::new();
    let root = env!("CARGO_MANIFEST_DIR");
    match packs {
        true => EVERY_PACK.get_or_init(|| {
            Policy::from_paths(&[format!("{root}/rules"), format!("{root}/packs")]).unwrap().without_own_files()
        }),
        false => BASELINE.get_or_init(|| Policy::from_paths(&[format!("{root}/rules")]).unwrap().without_own_files()),
    }
}

fn decision(line: &str) -> Permission {
    decision_by(line, true)
}

fn decision_by(line: &str, packs: bool) -> Permission {
    let event = serde_json::json!({
        "event": "pre_tool_use", "tool": "Bash", "cwd": "/repo", "project_root": "/repo", "args": {"command": line}
    });
    match policy(packs).evaluate(&Event::from_json(event.to_string().as_bytes()).unwrap()) {
        Ok(result) if result.blocking_error.is_some() => Permission::Deny,
        Ok(result) => result.permission_behavior,
        Err(_) => Permission::Deny,
    }
}

fn refused(line: &str) -> bool {
    matches!(decision(line), Permission::Deny | Permission::Ask)
}

/// Every positive test case's shell line: the rule tests of the baseline and the packs whose
/// events are shell commands and which expect a refusal.
fn positives() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<PathBuf> = Vec::new();
        for dir in [root.join("rules")].into_iter().chain(
            std::fs::read_dir(root.join("packs"))
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .filter(|path| path.is_dir()),
        ) {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.to_string_lossy().ends_with(".test.yaml") {
                    files.push(path);
                }
            }
        }
        files.sort();
        let mut lines = Vec::new();
        for file in files {
            let cases: Vec<serde_yaml::Value> = serde_yaml::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            for case in cases {
                let event = &case["event"];
                let expect = &case["expect"];
                let refusal = expect.get("blockingError").is_some()
                    || matches!(expect["permissionBehavior"].as_str(), Some("deny" | "ask"));
                if event["tool"].as_str() == Some("Bash") && event["event"].as_str() == Some("pre_tool_use") && refusal
                {
                    if let Some(command) = event["args"]["command"].as_str() {
                        // (A line that is refused only where it stands, `cwd` or a project, is the
                        // tests' own; the generator takes those the baseline refuses here.)
                        if !lines.iter().any(|line| line == command) && refused(command) {
                            lines.push(command.to_string());
                        }
                    }
                }
            }
        }
        lines
    })
}

/// The benign corpus's shell lines.
fn benign() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/benign");
        let mut lines = Vec::new();
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().path()).collect();
        files.sort();
        for file in files.iter().filter(|file| !file.to_string_lossy().ends_with("pwsh.yaml")) {
            let entries: Vec<serde_yaml::Value> =
                serde_yaml::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
            lines.extend(entries.iter().filter_map(|entry| entry["line"].as_str().map(str::to_string)));
        }
        lines
    })
}

/// The oracle's sandbox: a directory of stub programs (every word of the inputs that could
/// name one), each recording its name and argv to `$LOG`; the real bash, sh, python3, node,
/// perl and the wrappers beside them. `None` where the oracle cannot run (not root, so no
/// `nobody` to run as; no `setpriv`), with the reason.
fn sandbox() -> Result<&'static Path, &'static str> {
    static SANDBOX: OnceLock<Result<PathBuf, &'static str>> = OnceLock::new();
    SANDBOX
        .get_or_init(|| {
            if !is_root() {
                return Err("the oracle runs lines as `nobody`, which needs root");
            }
            if Command::new("setpriv").arg("--version").output().is_err() {
                return Err("no setpriv to run the oracle as `nobody`");
            }
            let root = std::env::temp_dir().join(format!("hookc-respell-{}", std::process::id()));
            let bin = root.join("bin");
            std::fs::create_dir_all(&bin).unwrap();
            let recorder = bin.join(".record");
            std::fs::write(
                &recorder,
                "#!/bin/sh\n{ printf '%s' \"${0##*/}\"; printf ' %s' \"$@\"; printf '\\n'; } >> \"$LOG\"\n",
            )
            .unwrap();
            let real = ["bash", "sh", "dash", "python3", "node", "perl", "env", "nice", "timeout", "printf", "cat"];
            for program in real {
                if let Some(path) = which(program) {
                    let _ = std::os::unix::fs::symlink(path, bin.join(program));
                }
            }
            let mut names: Vec<&str> = Vec::new();
            for line in positives().iter().chain(benign()) {
                names.extend(line.split(|c: char| !(c.is_ascii_alphanumeric() || "._-+".contains(c))));
            }
            for name in names {
                let valid = !name.is_empty() && !name.starts_with(['-', '.']) && name.len() < 64;
                if valid && !real.contains(&name) && !bin.join(name).exists() {
                    let _ = std::os::unix::fs::symlink(".record", bin.join(name));
                }
            }
            for path in [&root, &bin] {
                set_mode(path, 0o755);
            }
            set_mode(&recorder, 0o755);
            Ok(root)
        })
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(|reason| *reason)
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn which(program: &str) -> Option<PathBuf> {
    ["/usr/local/bin", "/usr/bin", "/bin"].iter().map(|dir| Path::new(dir).join(program)).find(|path| path.exists())
}

/// The commands `line` runs, as the stubs record them: bash runs it as `nobody`, in an empty
/// directory that is also its home, with only the sandbox on `PATH`, for at most 5 s.
fn recorded(line: &str) -> Option<Vec<String>> {
    let root = sandbox().ok()?;
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = root.join(format!("run-{}", RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    std::fs::create_dir_all(&run).ok()?;
    set_mode(&run, 0o777);
    let log = run.join("log");
    let status = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .args(["/usr/bin/env", "-i"])
        .arg(format!("PATH={}", root.join("bin").display()))
        .arg(format!("HOME={}", run.display()))
        .arg(format!("LOG={}", log.display()))
        .args([root.join("bin/timeout").to_string_lossy().as_ref(), "5", "bash", "-c", line])
        .current_dir(&run)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .ok()?;
    let commands = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&run);
    // (A line bash gave up on, timed out, records nothing, or records a program the
    // sandbox does not stub, is no evidence either way.)
    (status.code() != Some(124) && !commands.is_empty())
        .then(|| commands.lines().map(|command| command.replace(&run.display().to_string(), "<home>")).collect())
}

/// What one respelling came to.
#[derive(Debug, PartialEq)]
enum Outcome {
    /// The operator does not apply, or the oracle could not show it means the same.
    Dropped,
    /// Kept (shown alike, or a PowerShell row on a simple command): refused or not.
    Kept { refused: bool },
}

fn respelled(line: &str, first: usize, second: Option<usize>) -> Option<(String, bool)> {
    let mut text = line.to_string();
    let mut oracle = true;
    for index in std::iter::once(first).chain(second) {
        let operator = OPERATORS.get(index)?;
        // PowerShell's rows only last: what they make is no bash line.
        if !oracle {
            return None;
        }
        text = (operator.respell)(&text)?;
        oracle &= operator.oracle;
    }
    Some((text, oracle))
}

fn outcome(line: &str, first: usize, second: Option<usize>) -> (Option<String>, Outcome) {
    let Some((text, oracle)) = respelled(line, first, second) else { return (None, Outcome::Dropped) };
    if oracle {
        let (Some(before), Some(after)) = (recorded(line), recorded(&text)) else {
            return (Some(text), Outcome::Dropped);
        };
        if before != after {
            return (Some(text), Outcome::Dropped);
        }
    }
    let refused = refused(&text);
    (Some(text), Outcome::Kept { refused })
}

fn cases() -> u32 {
    std::env::var("HOOKC_RESPELL_CASES").ok().and_then(|cases| cases.parse().ok()).unwrap_or(48)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(35),
        ..ProptestConfig::default()
    }
}

/// The operators' own behaviour, which the oracle rests on: it must tell a respelling that
/// means the same from one that does not.
#[test]
fn the_oracle_tells_alike_from_different() {
    if let Err(reason) = sandbox() {
        eprintln!("skipped: {reason}");
        return;
    }
    let home = recorded("rm -rf ~").unwrap();
    assert_eq!(home, ["rm -rf <home>"]);
    assert_eq!(recorded("bash -c 'rm -rf ~'"), Some(home.clone()));
    assert_eq!(recorded("python3 -c 'import os; os.system(\"rm -rf ~\")'"), Some(home.clone()));
    // `IFS` keeps a tilde from expanding: not the same command.
    assert_ne!(recorded("rm${IFS}-rf${IFS}~"), Some(home));
    // The sandbox holds the stubs, not the real programs.
    assert_eq!(recorded("/bin/true; git push --force"), Some(vec!["git push --force".to_string()]));
}

proptest! {
    #![proptest_config(config())]

    /// Every kept respelling of a refused line is refused or asked.
    #[test]
    fn respellings_of_refused_lines_are_refused(
        index in 0..10_000usize,
        first in 0..OPERATORS.len(),
        second in proptest::option::of(0..OPERATORS.len()),
    ) {
        if let Err(reason) = sandbox() {
            eprintln!("skipped: {reason}");
            return Ok(());
        }
        let lines = positives();
        let line = &lines[index % lines.len()];
        let (text, outcome) = outcome(line, first, second);
        if let Ok(path) = std::env::var("HOOKC_RESPELL_OUT") {
            if let (Some(text), Outcome::Kept { .. }) = (&text, &outcome) {
                use std::io::Write as _;
                let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();
                writeln!(file, "{}", serde_json::json!({"line": line, "respelled": text})).unwrap();
            }
        }
        prop_assert_ne!(outcome, Outcome::Kept { refused: false }, "{:?} respelled as {:?}", line, text);
    }
}

/// The same operators over the whole benign corpus, judged by the baseline as
/// `tests/benign.rs` judges it: none denied, and, for each operator whose respellings are not
/// asked about by design, at most 1% of the lines the baseline leaves alone asked.
#[test]
fn respellings_of_benign_lines_stay_within_the_bound() {
    let lines = benign();
    for operator in OPERATORS.iter().filter(|operator| !operator.asks) {
        let mut asked = Vec::new();
        let mut total = 0usize;
        for line in lines.iter().filter(|line| !matches!(decision_by(line, false), Permission::Ask | Permission::Deny))
        {
            let Some(text) = (operator.respell)(line) else { continue };
            total += 1;
            match decision_by(&text, false) {
                Permission::Deny => panic!("{}: {line:?} respelled as {text:?} is denied", operator.name),
                Permission::Ask => asked.push(text),
                _ => {}
            }
        }
        assert!(asked.len() * 100 <= total, "{}: {} of {total} asked: {asked:#?}", operator.name, asked.len());
    }
}
