//! What hookc knows of particular programs: the wrappers that run another command, the shells
//! that run a script, which options take a value, and which operands name files written.
//! Everything here is a table; `mod.rs` applies it. A program missing from a table is read
//! generically: every `-x`/`--x` word is a flag, every other word an operand.

/// A program that runs the command in its operands (`sudo rm …` runs `rm`).
pub(super) struct Wrapper {
    /// Short options that take a value (`sudo -u USER`).
    pub short_values: &'static str,
    /// Long options that take a value when it is not attached with `=`.
    pub long_values: &'static [&'static str],
    /// Operands before the command (`timeout DURATION cmd`, `chroot DIR cmd`).
    pub leading_operands: usize,
    /// Whether `NAME=value` words before the command are assignments (`env A=b cmd`).
    pub assignments: bool,
    /// Whether a lone `-` is one of its options (`env - cmd` empties the environment).
    pub lone_dash: bool,
}

const fn wrapper(short_values: &'static str, long_values: &'static [&'static str]) -> Wrapper {
    Wrapper { short_values, long_values, leading_operands: 0, assignments: false, lone_dash: false }
}

/// The wrapper named `program`, if it is one.
pub(super) fn wrapper_of(program: &str) -> Option<Wrapper> {
    Some(match program {
        "sudo" => wrapper(
            "ugCDprtTUR",
            &[
                "user",
                "group",
                "chdir",
                "chroot",
                "prompt",
                "role",
                "type",
                "command-timeout",
                "other-user",
                "close-from",
                "host",
            ],
        ),
        "doas" => wrapper("uC", &[]),
        "env" => Wrapper { assignments: true, lone_dash: true, ..wrapper("uCSP", &["unset", "chdir", "split-string"]) },
        "nice" => wrapper("n", &["adjustment"]),
        "timeout" => Wrapper { leading_operands: 1, ..wrapper("sk", &["signal", "kill-after"]) },
        "time" => wrapper("fo", &["format", "output"]),
        "xargs" => wrapper(
            "IELnPsda",
            &["max-args", "max-procs", "max-chars", "delimiter", "arg-file", "eof", "max-lines", "process-slot-var"],
        ),
        "stdbuf" => wrapper("ioe", &["input", "output", "error"]),
        "ionice" => wrapper("cn", &["class", "classdata"]),
        "chroot" => Wrapper { leading_operands: 1, ..wrapper("", &["userspec", "groups"]) },
        "flock" => Wrapper { leading_operands: 1, ..wrapper("wE", &["timeout", "conflict-exit-code"]) },
        "exec" => wrapper("a", &[]),
        "strace" | "ltrace" => wrapper("oepsuEIbPX", &["output", "trace", "attach", "user", "env"]),
        "taskset" | "chrt" => Wrapper { leading_operands: 1, ..wrapper("", &[]) },
        "numactl" => wrapper("CNmipP", &["cpunodebind", "physcpubind", "membind", "interleave", "preferred"]),
        "prlimit" => wrapper("p", &["pid"]),
        "systemd-run" => wrapper("pEHMu", &["property", "setenv", "host", "machine", "unit", "description", "slice"]),
        "nsenter" => wrapper("tSGrwn", &["target", "setuid", "setgid", "root", "wd"]),
        "screen" => wrapper("SXcp", &[]),
        "gdb" => wrapper("x", &["args"]),
        "runuser" => wrapper("ugGs", &["user", "group", "supp-group", "shell"]),
        "nohup" | "command" | "builtin" | "setsid" | "unbuffer" | "busybox" | "caffeinate" | "valgrind" | "unshare"
        | "fakeroot" | "catchsegv" | "dbus-launch" | "firejail" | "proxychains" | "proxychains4" | "torsocks"
        | "toybox" => wrapper("", &[]),
        "npx" | "bunx" | "pnpx" | "uvx" => wrapper("p", &["package", "call", "from", "with", "python"]),
        _ => return None,
    })
}

/// Programs whose subcommand runs the command in its operands (`uv run python -c …`, `poetry
/// run pytest`, `npm exec -- rimraf /`, `conda run -n env CMD`).
pub(super) fn subcommand_wrapper(program: &str, subcommand: &str) -> Option<Wrapper> {
    Some(match (program, subcommand) {
        ("uv", "run") => wrapper(
            "p",
            &[
                "with",
                "python",
                "directory",
                "project",
                "package",
                "extra",
                "group",
                "env-file",
                "index",
                "with-requirements",
            ],
        ),
        ("poetry" | "pipenv" | "pdm" | "hatch" | "rye" | "bundle", "run" | "exec") => wrapper("", &[]),
        ("npm", "exec" | "x") | ("pnpm" | "yarn", "exec" | "dlx") => wrapper("p", &["package", "call", "workspace"]),
        ("conda" | "mamba" | "micromamba", "run") => wrapper("np", &["name", "prefix"]),
        ("mise" | "asdf" | "rtx", "exec" | "x") => wrapper("", &[]),
        ("pipx", "run") => wrapper("", &["spec", "python"]),
        _ => return None,
    })
}

/// Shells: `-c SCRIPT` runs a script, an operand names a script file, and with neither the
/// script is read from standard input.
pub(super) fn is_shell(program: &str) -> bool {
    matches!(
        program,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "yash" | "fish" | "rbash" | "tcsh" | "csh" | "pdksh"
    )
}

/// Programs whose words are run as one script: `eval rm -rf /`, `watch -n1 rm -rf /`.
pub(super) fn runs_words_as_script(program: &str) -> bool {
    matches!(program, "eval" | "watch")
}

/// Programs that run the value of an option as a script: `su -c SCRIPT`, `flock FILE -c
/// SCRIPT`, `script -c SCRIPT`.
pub(super) fn script_option(program: &str) -> Option<(&'static str, &'static str)> {
    match program {
        "su" | "runuser" | "script" | "flock" => Some(("c", "command")),
        _ => None,
    }
}

/// Programs that run a script read from standard input when given no script operand.
pub(super) fn reads_script_from_stdin(program: &str) -> bool {
    is_shell(program) || matches!(program, "at" | "batch" | "su")
}

/// Long option names of the commands whose options decide a rule (`rm`, `git push`, …): GNU
/// getopt and git accept any unique prefix (`--rec` is `--recursive`), so a prefix is read as
/// the name it abbreviates.
pub(super) fn long_options(program: &str, subcommand: Option<&str>) -> &'static [&'static str] {
    match (program, subcommand) {
        ("rm", _) => &[
            "recursive",
            "force",
            "interactive",
            "one-file-system",
            "no-preserve-root",
            "preserve-root",
            "dir",
            "verbose",
        ],
        ("git", Some("push")) => &[
            "force",
            "force-with-lease",
            "force-if-includes",
            "mirror",
            "delete",
            "prune",
            "all",
            "branches",
            "tags",
            "follow-tags",
            "set-upstream",
            "dry-run",
            "porcelain",
            "verbose",
            "quiet",
            "progress",
            "atomic",
            "signed",
            "push-option",
            "repo",
            "receive-pack",
            "thin",
            "no-thin",
            "no-verify",
            "verify",
            "recurse-submodules",
            "ipv4",
            "ipv6",
            "no-force-with-lease",
            "no-signed",
            "no-atomic",
        ],
        ("git", Some("reset")) => {
            &["hard", "soft", "mixed", "merge", "keep", "quiet", "patch", "recurse-submodules", "no-refresh", "refresh"]
        }
        ("git", Some("clean")) => &["force", "dry-run", "interactive", "quiet", "exclude"],
        ("git", Some("branch")) => &[
            "delete",
            "force",
            "move",
            "copy",
            "list",
            "all",
            "remotes",
            "track",
            "no-track",
            "set-upstream-to",
            "unset-upstream",
            "edit-description",
            "merged",
            "no-merged",
            "contains",
            "verbose",
            "quiet",
            "show-current",
        ],
        ("git", Some("checkout")) => {
            &["force", "quiet", "progress", "merge", "detach", "orphan", "ours", "theirs", "patch", "conflict"]
        }
        ("git", Some("switch")) => {
            &["force", "discard-changes", "create", "force-create", "detach", "orphan", "merge", "quiet"]
        }
        ("git", Some("restore")) => {
            &["source", "staged", "worktree", "patch", "quiet", "ours", "theirs", "merge", "overlay", "no-overlay"]
        }
        _ => &[],
    }
}

/// Options whose value names a file the command reads (`grep -f FILE`, `curl -T FILE`,
/// `ssh -i KEY`).
pub(super) fn reading_options(program: &str) -> &'static [&'static str] {
    match program {
        "grep" | "egrep" | "fgrep" | "rg" => &["f", "file"],
        "curl" => &["T", "K", "upload-file", "config"],
        "ssh" | "scp" | "sftp" => &["F"],
        "wget" => &["i", "input-file", "load-cookies"],
        "openssl" => &["in", "inkey", "key"],
        _ => &[],
    }
}

/// Options whose value names a file the command uses without printing it: a key or certificate
/// it authenticates with (`ssh -i KEY`, `curl --cert FILE`).
pub(super) fn using_options(program: &str) -> &'static [&'static str] {
    match program {
        // (`-F FILE` is read: ssh prints the lines of a config file it cannot parse.)
        "ssh" | "scp" | "sftp" => &["i"],
        "curl" => &["E", "cert", "key", "cacert", "capath", "proxy-cert", "proxy-key", "proxy-cacert"],
        "wget" => &["certificate", "private-key", "ca-certificate"],
        _ => &[],
    }
}

/// Programs whose first operand is a pattern or a program, not a file (`grep -rn .env src/`
/// searches `src/`), unless one of these options gives it (`grep -e PATTERN FILE…`).
pub(super) fn text_first_operand(program: &str) -> Option<&'static [&'static str]> {
    match program {
        "grep" | "egrep" | "fgrep" | "zgrep" | "rg" | "ag" | "ack" => Some(&["e", "f", "regexp", "file"]),
        "sed" => Some(&["e", "f", "expression", "file"]),
        "awk" | "gawk" | "mawk" | "nawk" => Some(&["f", "file"]),
        _ => None,
    }
}

/// Options that make a program print its help and do nothing else: `git restore --help` is
/// `git help restore`.
pub(super) fn help_options(program: &str) -> &'static [&'static str] {
    match program {
        "git" => &["help"],
        _ => &[],
    }
}

/// Environment variables whose value a program runs as a command (`GIT_SSH_COMMAND`, `PAGER`,
/// `BASH_ENV`; git's `GIT_CONFIG_VALUE_N`, which may set any of its command keys).
pub(super) fn runs_value_as_script(name: &str) -> bool {
    matches!(
        name,
        "GIT_SSH_COMMAND"
            | "GIT_SSH"
            | "GIT_PAGER"
            | "GIT_EDITOR"
            | "GIT_SEQUENCE_EDITOR"
            | "GIT_EXTERNAL_DIFF"
            | "GIT_ASKPASS"
            | "GIT_PROXY_COMMAND"
            | "SSH_ASKPASS"
            | "SUDO_ASKPASS"
            | "PAGER"
            | "MANPAGER"
            | "EDITOR"
            | "VISUAL"
            | "LESSOPEN"
            | "LESSCLOSE"
            | "BASH_ENV"
            | "ENV"
            | "PROMPT_COMMAND"
            | "RSYNC_RSH"
            | "RSYNC_CONNECT_PROG"
    ) || name.starts_with("GIT_CONFIG_VALUE_")
}

/// Builtins whose `NAME=VALUE` operands set shell variables (`export W=…`).
pub(super) fn declares_variables(program: &str) -> bool {
    matches!(program, "export" | "declare" | "typeset" | "local" | "readonly")
}

/// Programs whose operands are text, not files (`echo .env` reads nothing).
pub(super) fn operands_are_text(program: &str) -> bool {
    matches!(program, "echo" | "printf" | "true" | "false" | ":" | "export" | "unset" | "alias" | "type" | "which")
}

/// The options of `program` that take a value as the next word: short option letters, long
/// option names.
pub(super) fn value_options(program: &str) -> (&'static str, &'static [&'static str]) {
    match program {
        _ if is_shell(program) => ("oO", &["rcfile", "init-file"]),
        "git" => (
            "Cc",
            &[
                "git-dir",
                "work-tree",
                "namespace",
                "config-env",
                "super-prefix",
                "attr-source",
                "exec-path",
                "list-cmds",
            ],
        ),
        "cp" | "mv" | "ln" => ("tS", &["target-directory", "suffix"]),
        "install" => ("tSmog", &["target-directory", "suffix", "mode", "owner", "group"]),
        "sed" => ("ef", &["expression", "file"]),
        "grep" | "egrep" | "fgrep" | "zgrep" => {
            ("efABCm", &["regexp", "file", "max-count", "after-context", "before-context", "context"])
        }
        "rg" => (
            "efABCmgtTjME",
            &[
                "regexp",
                "file",
                "max-count",
                "after-context",
                "before-context",
                "context",
                "glob",
                "iglob",
                "type",
                "type-not",
                "threads",
                "max-columns",
                "max-depth",
                "encoding",
                "replace",
                "type-add",
            ],
        ),
        "curl" => (
            "odHXuAeTFbcmrwKxUEQyYzCD",
            &[
                "output",
                "data",
                "data-raw",
                "data-binary",
                "data-urlencode",
                "data-ascii",
                "header",
                "request",
                "user",
                "user-agent",
                "referer",
                "upload-file",
                "form",
                "cookie",
                "cookie-jar",
                "max-time",
                "range",
                "write-out",
                "config",
                "proxy",
                "connect-timeout",
                "retry",
                "output-dir",
                "url",
                "dump-header",
                "cert",
                "key",
                "cacert",
                "capath",
                "proxy-cert",
                "proxy-key",
                "proxy-cacert",
            ],
        ),
        "wget" => (
            "OoaePUtTwQ",
            &[
                "output-document",
                "output-file",
                "append-output",
                "directory-prefix",
                "user-agent",
                "header",
                "tries",
                "timeout",
            ],
        ),
        "tar" => ("fCT", &["file", "directory", "files-from"]),
        "truncate" => ("sr", &["size", "reference"]),
        "touch" => ("drt", &["date", "reference"]),
        "mkdir" => ("m", &["mode"]),
        "head" | "tail" => ("nc", &["lines", "bytes"]),
        "sort" => ("otkS", &["output", "key", "field-separator", "buffer-size"]),
        "ssh" => ("bcDEeFIiJLlmOopQRSWw", &[]),
        "scp" | "sftp" => ("cFiJloPS", &[]),
        "su" | "runuser" => ("cgGsu", &["command", "group", "supp-group", "shell", "user"]),
        "script" => ("cEIOT", &["command", "echo", "log-in", "log-out", "log-timing"]),
        "flock" => ("cwE", &["command", "timeout", "conflict-exit-code"]),
        "watch" => ("nd", &["interval"]),
        "perl" | "ruby" => ("eEIlM", &[]),
        "awk" | "gawk" => ("fvFiE", &["file", "assign", "field-separator", "include"]),
        "unzip" => ("dxP", &[]),
        "tmux" => ("LSfcsntxyeF", &[]),
        _ => ("", &[]),
    }
}

/// Programs whose first operand is a subcommand with options of its own (`git checkout -b
/// NAME`): its options' values, as [`value_options`] gives a program's. A `--` before the
/// subcommand does not end the options (`git -- reset --hard`).
pub(super) fn subcommand_value_options(
    program: &str,
    subcommand: &str,
) -> Option<(&'static str, &'static [&'static str])> {
    match (program, subcommand) {
        ("git", "checkout") => {
            Some(("bBU", &["orphan", "conflict", "pathspec-from-file", "unified", "inter-hunk-context"]))
        }
        ("git", "switch") => Some(("cC", &["create", "force-create", "orphan", "conflict"])),
        ("git", "restore") => Some(("s", &["source", "conflict", "pathspec-from-file"])),
        ("git", "commit") => Some((
            "mFCct",
            &["message", "file", "reuse-message", "reedit-message", "template", "author", "date", "fixup", "squash"],
        )),
        ("git", "push") => Some(("o", &["push-option", "repo", "receive-pack", "exec"])),
        ("git", "reset" | "clean" | "stash" | "worktree") => Some(("e", &["exclude", "pathspec-from-file"])),
        ("git", _) => Some(("", &[])),
        _ => None,
    }
}

/// Options whose value names a file the command writes (`curl -o FILE`, `sort -o FILE`).
pub(super) fn writing_options(program: &str) -> &'static [&'static str] {
    match program {
        "curl" => &["o", "output", "c", "cookie-jar", "D", "dump-header"],
        "wget" => &["O", "output-document", "o", "output-file", "a", "append-output"],
        "sort" => &["o", "output"],
        "cp" | "mv" | "ln" | "install" => &["t", "target-directory"],
        "unzip" => &["d"],
        "tar" => &["C", "directory"],
        "git" => &["file"],
        _ => &[],
    }
}

/// Which of a command's operands it writes: all of them, all but the first, the last, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Writes {
    /// None (the command reads its operands, if anything).
    None,
    /// Every operand (`rm`, `touch`, `tee`, `mv`).
    All,
    /// All but the first (`chmod MODE FILE…`).
    AfterFirst,
    /// The last, when there are at least two (`cp SRC… DEST`).
    Last,
}

/// How `program` writes its operands, given its flags.
pub(super) fn writes(program: &str, flags: &[String]) -> Writes {
    let has = |name: &str| flags.iter().any(|flag| flag == name);
    match program {
        "rm" | "rmdir" | "unlink" | "shred" | "touch" | "truncate" | "mkdir" | "tee" | "mv" | "wipefs" | "mkfifo"
        | "sponge" | "fallocate" => Writes::All,
        "chmod" | "chown" | "chgrp" if !has("reference") => Writes::AfterFirst,
        "chmod" | "chown" | "chgrp" => Writes::All,
        "install" if has("d") => Writes::All,
        "cp" | "ln" | "install" | "rsync" | "scp" => Writes::Last,
        "sed" | "perl" | "ruby" if has("i") || has("in-place") => Writes::All,
        // Line editors exist to change their files (`ed FILE <<< ',d\nw'`, `ex -sc '%d|x' FILE`);
        // vi run with commands (`-c`, `-e`, `-s`, `+CMD`) is one too.
        "ed" | "red" | "ex" => Writes::All,
        "vi" | "vim" | "nvim" if has("c") || has("e") || has("s") || has("E") || has("es") => Writes::All,
        _ => Writes::None,
    }
}

/// Shell operators and words that end a `find -exec` command.
pub(super) fn ends_find_exec(word: &str) -> bool {
    word == ";" || word == "+"
}

/// `find`'s primaries that run a command (`-exec CMD {} ;`).
pub(super) fn is_find_exec(word: &str) -> bool {
    matches!(word, "-exec" | "-execdir" | "-ok" | "-okdir")
}

/// Files that are not files: writing to them changes nothing on disk.
pub(super) fn is_device_sink(target: &str) -> bool {
    matches!(target, "/dev/null" | "/dev/stdin" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "-")
        || target.starts_with("/dev/fd/")
}
