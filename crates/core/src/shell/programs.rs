//! What hookc knows of particular programs, as one table: a row per program ([`PROGRAMS`]) holds
//! everything about it — which options take a value, the long names an abbreviation stands
//! for, the files its operands and options name and whether it writes them, the command or
//! script it runs, its subcommands, and which of the walker's readings it needs ([`Reader`]).
//! A new program is one new row; a program with no row is read generically: every `-x`/`--x`
//! word is a flag, every other word an operand read as a file.
//!
//! The languages a program's code is written in (`python -c`, `node -e`) and the SQL clients
//! are tables of their own, by language (`interpreters.rs`, `sql.rs`); PowerShell's reading is
//! `powershell.rs`.

use super::Access;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// Everything hookc knows of one program.
pub(super) struct Program {
    /// The names it runs under (`/usr/bin/rm` and `rm.exe` are `rm`: `program_name`).
    pub names: &'static [&'static str],
    /// Short options that take a value as the next word or attached (`-o FILE`, `-oFILE`).
    pub short_values: &'static str,
    /// Long options that take the next word as their value when none is attached with `=`.
    pub long_values: &'static [&'static str],
    /// Its long option names, where rules decide on them: GNU getopt accepts any unique prefix
    /// (`--rec` is `--recursive`), so a prefix is read as the name it abbreviates.
    pub long_names: &'static [&'static str],
    /// Whether its first operand ends its options, as getopt with a leading `+` has it: awk's
    /// program text (`awk '{print}' -F x` reads the files `-F` and `x`).
    pub options_first: bool,
    /// Whether its first operand is a subcommand with options of its own (`git checkout
    /// -bNAME`): from there on the subcommand's row says which options take a value (none when
    /// it has no row), a `--` before it does not end the options (`git -- reset --hard`), and
    /// it names no file.
    pub subcommand_first: bool,
    /// Its subcommands that it knows more of.
    pub subcommands: &'static [Subcommand],
    /// The command in its operands that it runs (`sudo rm …` runs `rm`).
    pub wrapper: Option<Wrapper>,
    /// The script it runs.
    pub script: Script,
    /// Whether it runs a script read from standard input when its words give none (`bash`,
    /// `bash -s`, `at now`, `su`).
    pub stdin_script: bool,
    /// Its first operand is a pattern or a program, not a file (`grep -rn .env src/` searches
    /// `src/`), unless one of these options gives it (`grep -e PATTERN FILE…`).
    pub text_first: Option<&'static [&'static str]>,
    /// Which of its operands it writes.
    pub writes: Writes,
    /// Flags (`i`) or option values (`i=inplace`) with which it writes every operand (`sed -i`,
    /// `awk -i inplace`, `chmod --reference=R FILE…`).
    pub writes_all_with: &'static [&'static str],
    /// Whether a written last operand may be a directory the others go into (`cp SRC… DIR`
    /// writes `DIR/SRC`).
    pub into_directory: bool,
    /// When given, only operands with one of these prefixes name files, each with its access
    /// (`dd if=A of=B`).
    pub operand_prefixes: Option<&'static [(&'static str, Access)]>,
    /// Options whose value names a file it reads (`grep -f FILE`, `curl -T FILE`).
    pub reading: &'static [&'static str],
    /// Options whose value names a file it uses without printing it: a key or certificate it
    /// authenticates with (`ssh -i KEY`, `curl --cert FILE`).
    pub using: &'static [&'static str],
    /// Options whose value names a file it writes (`curl -o FILE`, `sort -o FILE`).
    pub writing: &'static [&'static str],
    /// Options that make it print its help and do nothing else: `git restore --help` is `git
    /// help restore`.
    pub help: &'static [&'static str],
    /// Whether its `NAME=VALUE` operands set shell variables (`export W=…`).
    pub declares: bool,
    /// Whether its operands are text, not files (`echo .env` reads nothing).
    pub operands_text: bool,
    /// What it writes to its output, when the line spells it (`echo / | xargs rm -rf`).
    pub output: Output,
    /// The walker's own reading it needs beyond this row.
    pub reader: Reader,
    /// Whether an operand may name another host's file (`scp x HOST:/etc/`, `rsync d/
    /// HOST::module`): such an operand is no file of this machine, and its host is the
    /// command's `remote`.
    pub remote_operands: bool,
}

/// A subcommand a program knows more of (`git checkout`, `uv run`).
pub(super) struct Subcommand {
    /// The names it is given by.
    pub names: &'static [&'static str],
    /// As [`Program::short_values`], for the subcommand's own options.
    pub short_values: &'static str,
    /// As [`Program::long_values`].
    pub long_values: &'static [&'static str],
    /// As [`Program::long_names`].
    pub long_names: &'static [&'static str],
    /// The command in its operands that it runs (`uv run CMD`, `npm exec -- CMD`).
    pub wrapper: Option<Wrapper>,
    /// Which of its operands it writes (`git rm F`, `git checkout -- F`, `git restore F`).
    pub writes: Writes,
    /// Whether its first operand is a pattern, not a file, unless `-e` or `-f` give the
    /// patterns (`git grep PATTERN PATH…`; `git grep -f FILE` reads FILE).
    pub pattern_first: bool,
}

/// A program or subcommand that runs the command in its operands (`sudo rm …` runs `rm`).
#[derive(Clone, Copy)]
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
    /// The short and long option whose value is a script it splits into a command (`env -S
    /// 'rm -rf /'`, `env --split-string=…`).
    pub split: Option<(char, &'static str)>,
}

/// The script a program runs, when its words give one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Script {
    /// None.
    None,
    /// A shell: `-c SCRIPT` runs its first operand (the operands after it are its positional
    /// parameters), `+x` options are options, and an operand otherwise names a script file.
    Shell,
    /// The value of this short or long option (`su -c SCRIPT`, `flock FILE -c SCRIPT`); without
    /// it the program is read as its wrapper, if it is one.
    Option(&'static str, &'static str),
    /// Its words, after a `--`, are one script (`eval rm -rf /`).
    Words,
    /// Its words after its options are one script (`watch -n1 rm -rf /`).
    AfterOptions,
    /// Its first operand is another host, and its operands after it one script that host runs
    /// (`ssh HOST rm -rf /`): the script's commands carry the host as their `remote`, and its
    /// paths are that host's, not this machine's.
    OnHost,
    /// Its first operand is a script, run later (`trap 'rm -rf ~' EXIT`); `-` resets instead.
    FirstOperand,
    /// Its operands after one of these subcommands are one script (`tmux send-keys …`).
    AfterSubcommand(&'static [&'static str]),
}

impl Script {
    /// Whether the words the script is made of are no files (`eval WORDS`, `ssh HOST COMMAND`).
    pub(super) fn takes_operands(self) -> bool {
        matches!(self, Script::Words | Script::AfterOptions | Script::OnHost | Script::FirstOperand)
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

/// What a command writes to its output, read from its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Output {
    /// Nothing the line spells.
    None,
    /// Its words after its `-neE` options (`echo -n WORDS`).
    Words,
    /// Its words after the format, or the format alone (`printf '%s\n' WORDS`).
    AfterFormat,
    /// Its standard input when it has no operand (`cat <<EOF`).
    Stdin,
    /// What it selects, unless it runs or deletes it (`find / -maxdepth 1 | xargs rm -rf`).
    FindTargets,
}

/// A reading of the walker's own that a program needs beyond its row (`command.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reader {
    /// None.
    None,
    /// What it reads becomes its command's operands (`echo / | xargs rm -rf`).
    Xargs,
    /// `parallel CMD ::: VALUES`, or the values read (`ls | parallel rm`).
    Parallel,
    /// find's expression: its targets, `-delete`, and the commands of `-exec`.
    Find,
    /// PowerShell's own reading of `-Command` and `-EncodedCommand`.
    PowerShell,
    /// The files of the patch it applies (Codex's `apply_patch <<'EOF' … EOF`).
    ApplyPatch,
    /// Later relative paths may start in the directory it enters (`cd DIR`).
    ChangesDirectory,
    /// The files a sed script's `r`/`w` commands read and write.
    Sed,
}

const WRAPPER: Wrapper = Wrapper {
    short_values: "",
    long_values: &[],
    leading_operands: 0,
    assignments: false,
    lone_dash: false,
    split: None,
};

const fn wrapper(short_values: &'static str, long_values: &'static [&'static str]) -> Option<Wrapper> {
    Some(Wrapper { short_values, long_values, ..WRAPPER })
}

const fn leading(operands: usize, short_values: &'static str, long_values: &'static [&'static str]) -> Option<Wrapper> {
    Some(Wrapper { short_values, long_values, leading_operands: operands, ..WRAPPER })
}

/// A program with no row: everything generic.
pub(super) const GENERIC: Program = Program {
    names: &[],
    short_values: "",
    long_values: &[],
    long_names: &[],
    options_first: false,
    subcommand_first: false,
    subcommands: &[],
    wrapper: None,
    script: Script::None,
    stdin_script: false,
    text_first: None,
    writes: Writes::None,
    writes_all_with: &[],
    into_directory: false,
    operand_prefixes: None,
    reading: &[],
    using: &[],
    writing: &[],
    help: &[],
    declares: false,
    operands_text: false,
    output: Output::None,
    reader: Reader::None,
    remote_operands: false,
};

const SUBCOMMAND: Subcommand = Subcommand {
    names: &[],
    short_values: "",
    long_values: &[],
    long_names: &[],
    wrapper: None,
    writes: Writes::None,
    pattern_first: false,
};

const fn runs(names: &'static [&'static str], wrapper: Option<Wrapper>) -> Subcommand {
    Subcommand { names, wrapper, ..SUBCOMMAND }
}

/// The table: one row per program.
pub(super) static PROGRAMS: &[Program] = &[
    // Shells.
    Program {
        names: &["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "rbash", "tcsh", "csh", "pdksh"],
        short_values: "oO",
        long_values: &["rcfile", "init-file"],
        script: Script::Shell,
        stdin_script: true,
        ..GENERIC
    },
    // Programs that run a script, or read one.
    Program { names: &["eval"], script: Script::Words, ..GENERIC },
    Program { names: &["trap"], script: Script::FirstOperand, ..GENERIC },
    Program {
        names: &["watch"],
        short_values: "nq",
        long_values: &["interval", "equexit"],
        script: Script::AfterOptions,
        ..GENERIC
    },
    Program {
        names: &["ssh"],
        short_values: "BbcDEeFIiJLlmOoPpQRSWw",
        // (`-E FILE` appends ssh's log to it.)
        writing: &["E"],
        script: Script::OnHost,
        // (`-F FILE` is read: ssh prints the lines of a config file it cannot parse.)
        reading: &["F"],
        using: &["i"],
        ..GENERIC
    },
    Program {
        names: &["scp"],
        short_values: "cFiJloPS",
        writes: Writes::Last,
        into_directory: true,
        remote_operands: true,
        reading: &["F"],
        using: &["i"],
        ..GENERIC
    },
    Program {
        names: &["sftp"],
        short_values: "cFiJloPS",
        reading: &["F"],
        using: &["i"],
        remote_operands: true,
        ..GENERIC
    },
    Program {
        names: &["tmux"],
        short_values: "LSfcsntxyeF",
        script: Script::AfterSubcommand(&[
            "new",
            "new-session",
            "new-window",
            "neww",
            "split-window",
            "splitw",
            "send-keys",
            "send",
            "respawn-pane",
        ]),
        ..GENERIC
    },
    Program {
        names: &["su"],
        short_values: "cgGsu",
        long_values: &["command", "group", "supp-group", "shell", "user"],
        script: Script::Option("c", "command"),
        stdin_script: true,
        ..GENERIC
    },
    Program {
        names: &["runuser"],
        short_values: "cgGsu",
        long_values: &["command", "group", "supp-group", "shell", "user"],
        script: Script::Option("c", "command"),
        wrapper: wrapper("ugGs", &["user", "group", "supp-group", "shell"]),
        ..GENERIC
    },
    Program {
        names: &["script"],
        short_values: "cEIOT",
        long_values: &["command", "echo", "log-in", "log-out", "log-timing"],
        script: Script::Option("c", "command"),
        ..GENERIC
    },
    Program {
        names: &["flock"],
        short_values: "cwE",
        long_values: &["command", "timeout", "conflict-exit-code"],
        script: Script::Option("c", "command"),
        wrapper: leading(1, "wE", &["timeout", "conflict-exit-code"]),
        ..GENERIC
    },
    Program { names: &["at", "batch"], stdin_script: true, ..GENERIC },
    Program { names: &["pwsh", "powershell"], reader: Reader::PowerShell, ..GENERIC },
    Program { names: &["apply_patch", "applypatch"], reader: Reader::ApplyPatch, ..GENERIC },
    // Wrappers: they run the command in their operands.
    Program {
        names: &["sudo"],
        wrapper: wrapper(
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
        ..GENERIC
    },
    Program { names: &["doas"], wrapper: wrapper("uC", &[]), ..GENERIC },
    Program {
        names: &["env"],
        wrapper: Some(Wrapper {
            assignments: true,
            lone_dash: true,
            split: Some(('S', "split-string")),
            short_values: "uCSP",
            long_values: &["unset", "chdir", "split-string"],
            ..WRAPPER
        }),
        ..GENERIC
    },
    Program { names: &["nice"], wrapper: wrapper("n", &["adjustment"]), ..GENERIC },
    Program { names: &["timeout"], wrapper: leading(1, "sk", &["signal", "kill-after"]), ..GENERIC },
    Program { names: &["time"], wrapper: wrapper("fo", &["format", "output"]), ..GENERIC },
    Program {
        names: &["xargs"],
        wrapper: wrapper(
            "IELnPsda",
            &["max-args", "max-procs", "max-chars", "delimiter", "arg-file", "eof", "max-lines", "process-slot-var"],
        ),
        reader: Reader::Xargs,
        ..GENERIC
    },
    Program { names: &["parallel"], reader: Reader::Parallel, ..GENERIC },
    Program { names: &["stdbuf"], wrapper: wrapper("ioe", &["input", "output", "error"]), ..GENERIC },
    Program { names: &["ionice"], wrapper: wrapper("cn", &["class", "classdata"]), ..GENERIC },
    Program { names: &["chroot"], wrapper: leading(1, "", &["userspec", "groups"]), ..GENERIC },
    Program { names: &["exec"], wrapper: wrapper("a", &[]), ..GENERIC },
    Program {
        names: &["strace", "ltrace"],
        wrapper: wrapper("oepsuEIbPX", &["output", "trace", "attach", "user", "env"]),
        ..GENERIC
    },
    Program { names: &["taskset", "chrt"], wrapper: leading(1, "", &[]), ..GENERIC },
    Program {
        names: &["numactl"],
        wrapper: wrapper("CNmipP", &["cpunodebind", "physcpubind", "membind", "interleave", "preferred"]),
        ..GENERIC
    },
    Program { names: &["prlimit"], wrapper: wrapper("p", &["pid"]), ..GENERIC },
    Program {
        names: &["systemd-run"],
        wrapper: wrapper("pEHMu", &["property", "setenv", "host", "machine", "unit", "description", "slice"]),
        ..GENERIC
    },
    Program {
        names: &["nsenter"],
        wrapper: wrapper("tSGrwn", &["target", "setuid", "setgid", "root", "wd"]),
        ..GENERIC
    },
    Program { names: &["screen"], wrapper: wrapper("SXcp", &[]), ..GENERIC },
    Program { names: &["gdb"], wrapper: wrapper("x", &["args"]), ..GENERIC },
    Program {
        names: &[
            "nohup",
            "command",
            "builtin",
            "setsid",
            "unbuffer",
            "busybox",
            "caffeinate",
            "valgrind",
            "unshare",
            "fakeroot",
            "catchsegv",
            "dbus-launch",
            "firejail",
            "proxychains",
            "proxychains4",
            "torsocks",
            "toybox",
        ],
        wrapper: wrapper("", &[]),
        ..GENERIC
    },
    Program {
        names: &["npx", "bunx", "pnpx", "uvx"],
        wrapper: wrapper("p", &["package", "call", "from", "with", "python"]),
        ..GENERIC
    },
    // Tools whose subcommand runs the command in its operands (`uv run python -c …`).
    Program {
        names: &["uv"],
        subcommands: &[runs(
            &["run"],
            wrapper(
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
        )],
        ..GENERIC
    },
    Program {
        names: &["poetry", "pipenv", "pdm", "hatch", "rye", "bundle"],
        subcommands: &[runs(&["run", "exec"], wrapper("", &[]))],
        ..GENERIC
    },
    Program {
        names: &["npm"],
        subcommands: &[runs(&["exec", "x"], wrapper("p", &["package", "call", "workspace"]))],
        ..GENERIC
    },
    Program {
        names: &["pnpm", "yarn"],
        subcommands: &[runs(&["exec", "dlx"], wrapper("p", &["package", "call", "workspace"]))],
        ..GENERIC
    },
    Program {
        names: &["conda", "mamba", "micromamba"],
        subcommands: &[runs(&["run"], wrapper("np", &["name", "prefix"]))],
        ..GENERIC
    },
    Program { names: &["mise", "asdf", "rtx"], subcommands: &[runs(&["exec", "x"], wrapper("", &[]))], ..GENERIC },
    Program { names: &["pipx"], subcommands: &[runs(&["run"], wrapper("", &["spec", "python"]))], ..GENERIC },
    // git: its subcommands' options, and the ones that change the work tree.
    Program {
        names: &["git"],
        short_values: "Cc",
        long_values: &[
            "git-dir",
            "work-tree",
            "namespace",
            "config-env",
            "super-prefix",
            "attr-source",
            "exec-path",
            "list-cmds",
        ],
        subcommand_first: true,
        subcommands: &[
            Subcommand {
                names: &["push"],
                short_values: "o",
                long_values: &["push-option", "repo", "receive-pack", "exec"],
                long_names: &[
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
                ..SUBCOMMAND
            },
            Subcommand {
                names: &["reset"],
                short_values: "e",
                long_values: &["exclude", "pathspec-from-file"],
                long_names: &[
                    "hard",
                    "soft",
                    "mixed",
                    "merge",
                    "keep",
                    "quiet",
                    "patch",
                    "recurse-submodules",
                    "no-refresh",
                    "refresh",
                ],
                ..SUBCOMMAND
            },
            Subcommand {
                names: &["clean"],
                short_values: "e",
                long_values: &["exclude", "pathspec-from-file"],
                long_names: &["force", "dry-run", "interactive", "quiet", "exclude"],
                writes: Writes::All,
                ..SUBCOMMAND
            },
            Subcommand {
                names: &["stash", "worktree"],
                short_values: "e",
                long_values: &["exclude", "pathspec-from-file"],
                ..SUBCOMMAND
            },
            Subcommand {
                names: &["branch"],
                long_names: &[
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
                ..SUBCOMMAND
            },
            Subcommand {
                names: &["checkout"],
                short_values: "bBU",
                long_values: &["orphan", "conflict", "pathspec-from-file", "unified", "inter-hunk-context"],
                long_names: &[
                    "force",
                    "quiet",
                    "progress",
                    "merge",
                    "detach",
                    "orphan",
                    "ours",
                    "theirs",
                    "patch",
                    "conflict",
                    "pathspec-from-file",
                ],
                writes: Writes::All,
                ..SUBCOMMAND
            },
            Subcommand {
                names: &["switch"],
                short_values: "cC",
                long_values: &["create", "force-create", "orphan", "conflict"],
                long_names: &[
                    "force",
                    "discard-changes",
                    "create",
                    "force-create",
                    "detach",
                    "orphan",
                    "merge",
                    "quiet",
                ],
                ..SUBCOMMAND
            },
            Subcommand {
                names: &["restore"],
                short_values: "s",
                long_values: &["source", "conflict", "pathspec-from-file"],
                long_names: &[
                    "source",
                    "staged",
                    "worktree",
                    "patch",
                    "quiet",
                    "ours",
                    "theirs",
                    "merge",
                    "overlay",
                    "no-overlay",
                    "pathspec-from-file",
                    "pathspec-file-nul",
                ],
                writes: Writes::All,
                ..SUBCOMMAND
            },
            Subcommand {
                names: &["commit"],
                short_values: "mFCct",
                long_values: &[
                    "message",
                    "file",
                    "reuse-message",
                    "reedit-message",
                    "template",
                    "author",
                    "date",
                    "fixup",
                    "squash",
                ],
                ..SUBCOMMAND
            },
            Subcommand { names: &["rm", "mv"], writes: Writes::All, ..SUBCOMMAND },
            Subcommand {
                names: &["grep"],
                short_values: "ABCm",
                long_values: &["after-context", "before-context", "context", "max-count", "threads"],
                pattern_first: true,
                ..SUBCOMMAND
            },
            // Their text options' values are text (`git log --grep "fix\.env"` reads no file;
            // `--pretty`, `--format` and `--encoding` take theirs only after `=`).
            Subcommand {
                names: &["log", "shortlog", "whatchanged", "show", "rev-list", "reflog"],
                short_values: "SGn",
                long_values: &[
                    "grep",
                    "grep-reflog",
                    "author",
                    "committer",
                    "since",
                    "until",
                    "after",
                    "before",
                    "max-count",
                    "skip",
                    "date",
                ],
                ..SUBCOMMAND
            },
        ],
        // `git -C DIR` reads DIR's repository; `--output=FILE` (diff, log, format-patch) writes FILE.
        reading: &["C"],
        writing: &["file", "output"],
        help: &["help"],
        ..GENERIC
    },
    // Programs that change their operands.
    Program {
        names: &["rm"],
        writes: Writes::All,
        long_names: &[
            "recursive",
            "force",
            "interactive",
            "one-file-system",
            "no-preserve-root",
            "preserve-root",
            "dir",
            "verbose",
        ],
        ..GENERIC
    },
    Program {
        names: &["rmdir", "unlink", "shred", "tee", "wipefs", "mkfifo", "sponge", "fallocate"],
        writes: Writes::All,
        ..GENERIC
    },
    Program {
        names: &["touch"],
        short_values: "drt",
        long_values: &["date", "reference"],
        writes: Writes::All,
        ..GENERIC
    },
    Program {
        names: &["truncate"],
        short_values: "sr",
        long_values: &["size", "reference"],
        writes: Writes::All,
        ..GENERIC
    },
    Program { names: &["mkdir"], short_values: "m", long_values: &["mode"], writes: Writes::All, ..GENERIC },
    Program {
        names: &["mv"],
        short_values: "tS",
        long_values: &["target-directory", "suffix"],
        writes: Writes::All,
        into_directory: true,
        writing: &["t", "target-directory"],
        ..GENERIC
    },
    Program {
        names: &["cp", "ln"],
        short_values: "tS",
        long_values: &["target-directory", "suffix"],
        writes: Writes::Last,
        into_directory: true,
        writing: &["t", "target-directory"],
        ..GENERIC
    },
    Program {
        names: &["install"],
        short_values: "tSmog",
        long_values: &["target-directory", "suffix", "mode", "owner", "group"],
        writes: Writes::Last,
        writes_all_with: &["d"],
        into_directory: true,
        writing: &["t", "target-directory"],
        ..GENERIC
    },
    Program {
        names: &["rsync"],
        // (rsync(1)'s options that take a value, so that none is read as a file it copies.)
        short_values: "eBfMT",
        long_values: &[
            "rsh",
            "rsync-path",
            "filter",
            "exclude",
            "include",
            "block-size",
            "temp-dir",
            "remote-option",
            "backup-dir",
            "suffix",
            "chmod",
            "chown",
            "usermap",
            "groupmap",
            "timeout",
            "contimeout",
            "port",
            "bwlimit",
            "max-size",
            "min-size",
            "max-delete",
            "info",
            "debug",
            "compare-dest",
            "copy-dest",
            "link-dest",
            "partial-dir",
            "log-file-format",
            "out-format",
            "iconv",
            "checksum-choice",
            "compress-choice",
            "compress-level",
            "skip-compress",
            "modify-window",
            "exclude-from",
            "include-from",
            "files-from",
            "password-file",
            "log-file",
            "write-batch",
            "only-write-batch",
            "read-batch",
        ],
        reading: &["exclude-from", "include-from", "files-from", "password-file", "read-batch"],
        // `-e 'ssh -p 2'`: the remote shell is a command run here (rsync splits it into words
        // itself; read as a script, a superset).
        script: Script::Option("e", "rsh"),
        writing: &["log-file", "write-batch", "only-write-batch"],
        writes: Writes::Last,
        into_directory: true,
        remote_operands: true,
        ..GENERIC
    },
    Program {
        names: &["chmod", "chown", "chgrp"],
        writes: Writes::AfterFirst,
        writes_all_with: &["reference"],
        ..GENERIC
    },
    Program { names: &["dd"], operand_prefixes: Some(&[("of=", Access::Write), ("if=", Access::Read)]), ..GENERIC },
    // Line editors exist to change their files (`ed FILE <<< ',d\nw'`, `ex -sc '%d|x' FILE`);
    // vi run with commands (`-c`, `-e`, `-s`, `+CMD`) is one too.
    Program { names: &["ed", "red", "ex"], writes: Writes::All, ..GENERIC },
    Program { names: &["vi", "vim", "nvim"], writes_all_with: &["c", "e", "s", "E", "es"], ..GENERIC },
    // Text tools: a pattern or a program first.
    Program {
        names: &["sed"],
        short_values: "ef",
        long_values: &["expression", "file"],
        text_first: Some(&["e", "f", "expression", "file"]),
        reading: &["f", "file"],
        writes_all_with: &["i", "in-place"],
        reader: Reader::Sed,
        ..GENERIC
    },
    Program {
        names: &["grep", "egrep", "fgrep", "zgrep"],
        short_values: "efABCm",
        long_values: &["regexp", "file", "max-count", "after-context", "before-context", "context"],
        text_first: Some(&["e", "f", "regexp", "file"]),
        reading: &["f", "file"],
        ..GENERIC
    },
    Program {
        names: &["rg"],
        short_values: "efABCmgtTjME",
        long_values: &[
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
        text_first: Some(&["e", "f", "regexp", "file"]),
        reading: &["f", "file"],
        ..GENERIC
    },
    Program { names: &["ag", "ack"], text_first: Some(&["e", "f", "regexp", "file"]), ..GENERIC },
    Program {
        names: &["awk", "gawk"],
        short_values: "fvFiE",
        long_values: &["file", "assign", "field-separator", "include"],
        options_first: true,
        text_first: Some(&["f", "file"]),
        reading: &["f", "file"],
        writes_all_with: &["i=inplace"],
        ..GENERIC
    },
    Program {
        names: &["mawk", "nawk"],
        short_values: "fvF",
        options_first: true,
        text_first: Some(&["f", "file"]),
        reading: &["f"],
        ..GENERIC
    },
    // `uniq IN OUT` writes OUT.
    Program {
        names: &["uniq"],
        short_values: "fsw",
        long_values: &["skip-fields", "skip-chars", "check-chars"],
        writes: Writes::Last,
        ..GENERIC
    },
    Program { names: &["perl", "ruby"], short_values: "eEIlM", writes_all_with: &["i", "in-place"], ..GENERIC },
    Program {
        names: &["sort"],
        short_values: "otkS",
        long_values: &["output", "key", "field-separator", "buffer-size", "compress-program"],
        // `--compress-program=PROG` runs PROG to compress its temporary files.
        script: Script::Option("", "compress-program"),
        writing: &["o", "output"],
        ..GENERIC
    },
    Program {
        names: &["shuf"],
        short_values: "oni",
        long_values: &["output", "head-count", "input-range", "random-source"],
        reading: &["random-source"],
        writing: &["o", "output"],
        ..GENERIC
    },
    Program {
        names: &["iconv"],
        short_values: "fto",
        long_values: &["from-code", "to-code", "output"],
        writing: &["o", "output"],
        ..GENERIC
    },
    // `xxd [IN [OUT]]`: the dump, or with `-r` the bytes, goes to OUT.
    Program {
        names: &["xxd"],
        short_values: "cglosn",
        long_values: &["cols", "groupsize", "len", "offset", "seek", "name"],
        writes: Writes::Last,
        ..GENERIC
    },
    // `yq -i EXPR FILE…` edits its files in place (the expression is read as a file too: a
    // superset); Python's yq spells it `--in-place`, and ships `xq` and `tomlq` alike.
    Program {
        names: &["yq", "xq", "tomlq"],
        short_values: "opI",
        long_values: &["output-format", "input-format", "indent"],
        writes_all_with: &["i", "inplace", "in-place"],
        ..GENERIC
    },
    Program { names: &["head", "tail"], short_values: "nc", long_values: &["lines", "bytes"], ..GENERIC },
    Program { names: &["find"], output: Output::FindTargets, reader: Reader::Find, ..GENERIC },
    // Network tools.
    Program {
        names: &["curl"],
        short_values: "odHXuAeTFbcmrwKxUEQyYzCD",
        long_values: &[
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
        reading: &["T", "K", "upload-file", "config"],
        using: &["E", "cert", "key", "cacert", "capath", "proxy-cert", "proxy-key", "proxy-cacert"],
        writing: &["o", "output", "c", "cookie-jar", "D", "dump-header"],
        ..GENERIC
    },
    Program {
        names: &["wget"],
        short_values: "OoaePUtTwQ",
        long_values: &[
            "output-document",
            "output-file",
            "append-output",
            "directory-prefix",
            "user-agent",
            "header",
            "tries",
            "timeout",
        ],
        reading: &["i", "input-file", "load-cookies"],
        using: &["certificate", "private-key", "ca-certificate"],
        writing: &["O", "output-document", "o", "output-file", "a", "append-output"],
        ..GENERIC
    },
    Program { names: &["openssl"], reading: &["in", "inkey", "key"], ..GENERIC },
    // Archives.
    Program {
        names: &["tar"],
        short_values: "fCT",
        long_values: &["file", "directory", "files-from"],
        writing: &["C", "directory"],
        ..GENERIC
    },
    Program { names: &["unzip"], short_values: "dxP", writing: &["d"], ..GENERIC },
    // Builtins and printers.
    Program { names: &["cd", "pushd"], reader: Reader::ChangesDirectory, ..GENERIC },
    Program { names: &["export"], declares: true, operands_text: true, ..GENERIC },
    Program { names: &["declare", "typeset", "local", "readonly"], declares: true, ..GENERIC },
    Program { names: &["echo"], operands_text: true, output: Output::Words, ..GENERIC },
    Program { names: &["printf"], operands_text: true, output: Output::AfterFormat, ..GENERIC },
    Program { names: &["true", "false", ":", "unset", "alias", "type", "which"], operands_text: true, ..GENERIC },
    Program { names: &["cat"], output: Output::Stdin, ..GENERIC },
];

/// The setup scripts tools print for `eval` to run, as `(program, what follows it)`: the script
/// is the tool's own, so `eval "$(ssh-agent -s)"` or `eval "$(pyenv init -)"` is not unread.
/// Only these forms: `$(pyenv exec echo rm)` prints what it is told.
const SHELL_SETUP: &[(&str, &[&str])] = &[
    ("ssh-agent", &["", "-s", "-c"]),
    ("gpg-agent", &["--daemon"]),
    ("pyenv", &["init -", "init - bash", "init - zsh", "init --path", "virtualenv-init -"]),
    ("rbenv", &["init -", "init - bash", "init - zsh"]),
    ("nodenv", &["init -"]),
    ("goenv", &["init -"]),
    ("jenv", &["init -"]),
    ("direnv", &["hook bash", "hook zsh", "hook fish"]),
    ("brew", &["shellenv"]),
    ("conda", &["shell.bash hook", "shell.zsh hook"]),
    ("starship", &["init bash", "init zsh"]),
    ("zoxide", &["init bash", "init zsh"]),
    ("fnm", &["env", "env --use-on-cd"]),
    ("mise", &["activate bash", "activate zsh"]),
    ("opam", &["env"]),
    ("luarocks", &["path"]),
    ("dircolors", &["", "-b"]),
    ("keychain", &["--eval"]),
    ("atuin", &["init bash", "init zsh"]),
    ("minikube", &["docker-env"]),
    ("docker-machine", &["env"]),
];

/// Whether a program word is a substitution of one of [`SHELL_SETUP`]'s forms
/// (`$(ssh-agent -s)`, `` `pyenv init -` ``).
pub(super) fn prints_shell_setup(word: &str) -> bool {
    let inner = word
        .strip_prefix("$(")
        .and_then(|rest| rest.strip_suffix(')'))
        .or_else(|| word.strip_prefix('`').and_then(|rest| rest.strip_suffix('`')));
    let Some(inner) = inner else { return false };
    let words: Vec<&str> = inner.split_whitespace().collect();
    let Some((program, rest)) = words.split_first() else { return false };
    let rest = rest.join(" ");
    SHELL_SETUP.iter().any(|(name, forms)| name == program && forms.contains(&rest.as_str()))
}

/// The names of the tables' programs that the glob `pattern` matches, each once, sorted.
pub(super) fn matching(pattern: &str) -> Vec<&'static str> {
    let Ok(glob) = globset::GlobBuilder::new(pattern).literal_separator(true).build() else { return Vec::new() };
    let matcher = glob.compile_matcher();
    let mut names: Vec<&'static str> = PROGRAMS
        .iter()
        .flat_map(|row| row.names.iter().copied())
        .chain(super::interpreters::programs())
        .filter(|name| matcher.is_match(name))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The row of `name` (`GENERIC` when it has none).
pub(super) fn program(name: &str) -> &'static Program {
    known(name).unwrap_or(&GENERIC)
}

/// `name`'s row, where the table has one.
pub(super) fn known(name: &str) -> Option<&'static Program> {
    static BY_NAME: OnceLock<FxHashMap<&'static str, &'static Program>> = OnceLock::new();
    BY_NAME
        .get_or_init(|| PROGRAMS.iter().flat_map(|row| row.names.iter().map(move |name| (*name, row))).collect())
        .get(name)
        .copied()
}

impl Program {
    /// Its subcommand `name`'s row, if it has one.
    pub(super) fn subcommand(&self, name: &str) -> Option<&'static Subcommand> {
        self.subcommands.iter().find(|row| row.names.contains(&name))
    }

    /// Whether it is a shell (`-c SCRIPT`).
    pub(super) fn is_shell(&self) -> bool {
        self.script == Script::Shell
    }

    /// Whether its words are a script from the first (`eval WORDS`) or after its options
    /// (`watch -n1 WORDS`): a command line read tolerantly starts a new command there.
    pub(super) fn runs_words(&self) -> bool {
        matches!(self.script, Script::Words | Script::AfterOptions)
    }

    /// The long option names an abbreviation of its options (of `subcommand`'s, when it has
    /// subcommands) stands for.
    pub(super) fn long_names(&self, subcommand: Option<&str>) -> &'static [&'static str] {
        match self.subcommand_first {
            true => subcommand.and_then(|name| self.subcommand(name)).map_or(&[], |row| row.long_names),
            false => self.long_names,
        }
    }

    /// How it writes its operands, given its flags and option values (and its subcommand's
    /// row when it has one).
    pub(super) fn writes(&self, subcommand: Option<&str>, flags: &[String], values: &[(String, String)]) -> Writes {
        let given = |spelling: &&str| match spelling.split_once('=') {
            Some((option, value)) => values.iter().any(|(name, given)| name == option && given == value),
            None => flags.iter().any(|flag| flag == spelling),
        };
        if self.writes_all_with.iter().any(given) {
            return Writes::All;
        }
        match subcommand.filter(|_| self.subcommand_first).and_then(|name| self.subcommand(name)) {
            Some(row) if row.writes != Writes::None => row.writes,
            _ => self.writes,
        }
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

/// Shell operators and words that end a `find -exec` command.
pub(super) fn ends_find_exec(word: &str) -> bool {
    word == ";" || word == "+"
}

/// How many words after a `find` primary are its values (`-name PATTERN`, `-fprintf FILE
/// FORMAT`, `-newermt DATE`): GNU find's and BSD find's primaries that take any.
pub(super) fn find_values(primary: &str) -> usize {
    const ONE: &[&str] = &[
        "name",
        "iname",
        "path",
        "ipath",
        "wholename",
        "iwholename",
        "regex",
        "iregex",
        "regextype",
        "lname",
        "ilname",
        "type",
        "xtype",
        "mtime",
        "mmin",
        "atime",
        "amin",
        "ctime",
        "cmin",
        "used",
        "size",
        "user",
        "group",
        "uid",
        "gid",
        "perm",
        "links",
        "inum",
        "samefile",
        "mindepth",
        "maxdepth",
        "fstype",
        "context",
        "fprint",
        "fprint0",
        "fls",
        "printf",
        "files0-from",
        "anewer",
        "cnewer",
        // BSD find's
        "Bmin",
        "Btime",
        "Bnewer",
        "flags",
    ];
    match primary {
        "fprintf" => 2,
        _ if primary.starts_with("newer") => 1,
        _ if ONE.contains(&primary) => 1,
        _ => 0,
    }
}

/// `find`'s primaries that run a command (`-exec CMD {} ;`).
pub(super) fn is_find_exec(word: &str) -> bool {
    matches!(word, "-exec" | "-execdir" | "-ok" | "-okdir")
}

/// Files that are not files: writing to them changes nothing on disk.
pub(super) fn is_device_sink(target: &str) -> bool {
    matches!(target, "/dev/null" | "/dev/stdin" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "-")
        // A descriptor by its number only: `/dev/fd/../cwd/…` is a path like any other (the
        // kernel resolves it through the process's directory).
        || target.strip_prefix("/dev/fd/").is_some_and(|fd| !fd.is_empty() && fd.bytes().all(|byte| byte.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_has_one_row() {
        let mut seen = std::collections::HashSet::new();
        for row in PROGRAMS {
            assert!(!row.names.is_empty(), "a row with no name");
            for name in row.names {
                assert!(seen.insert(*name), "`{name}` has two rows");
            }
        }
    }

    #[test]
    fn a_script_option_is_one_of_the_programs_value_options() {
        for row in PROGRAMS {
            if let Script::Option(short, long) = row.script {
                assert!(row.short_values.contains(short) && row.long_values.contains(&long), "{:?}", row.names);
            }
        }
    }
}
