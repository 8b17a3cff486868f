//! One simple command, read: wrappers seen through (`wrappers.rs`), its options read by the
//! program's table (`options.rs`, `programs.rs`), the scripts it runs read in turn, and the files
//! it reads and writes collected.

use super::*;

/// At most this many programs are read for one program named by a glob (`/bin/?` matches a few).
const MAX_GLOB_PROGRAMS: usize = 16;

/// Whether a program's name is a glob (`r?`, `r[m]`, `r*`); `[` and `[[` are test.
fn is_glob(name: &str) -> bool {
    name != "[" && name != "[[" && !name.starts_with(['$', '`']) && name.contains(['*', '?', '['])
}

/// The commands ssh, scp, sftp and rsync run here: an `-o` option's (`ProxyCommand`,
/// `LocalCommand`, `KnownHostsCommand`; `RemoteCommand` is the other host's), `-o Name=value` or
/// `-o 'Name value'` with names in any case; and the program run in ssh's place (`scp -S`, `sftp
/// -S`, `rsync -e`/`--rsh`).
fn ssh_commands(program: &str, parsed: &Options) -> Vec<String> {
    const LOCAL: [&str; 3] = ["proxycommand", "localcommand", "knownhostscommand"];
    let options = parsed.values.iter().filter(|(option, _)| option == "o").filter_map(|(_, value)| {
        let (name, command) = value.split_once(['=', ' ', '\t'])?;
        LOCAL
            .contains(&name.trim().to_ascii_lowercase().as_str())
            .then(|| command.trim_start_matches(['=', ' ']).to_string())
    });
    // `scp -S PROGRAM`, `sftp -S PROGRAM`: the program run here in ssh's place; `rsync -e
    // COMMAND`: the remote shell, run here.
    let transports = parsed
        .values
        .iter()
        .filter(|(option, _)| match program {
            "scp" | "sftp" => option == "S",
            "rsync" => option == "e" || option == "rsh",
            _ => false,
        })
        .map(|(_, value)| value.clone());
    options.chain(transports).collect()
}

/// Variables every shell and build reads, which hold no secret: not reported as read.
const COMMON_VARIABLES: &[&str] = &[
    "HOME",
    "PATH",
    "PWD",
    "OLDPWD",
    "USER",
    "LOGNAME",
    "SHELL",
    "TMPDIR",
    "TMP",
    "TEMP",
    "IFS",
    "LANG",
    "TERM",
    "HOSTNAME",
    "UID",
    "EUID",
    "PPID",
    "RANDOM",
    "SECONDS",
    "LINENO",
    "BASH_SOURCE",
    "FUNCNAME",
    "REPLY",
    "OPTARG",
    "OPTIND",
];

/// At most this many variables are reported for one command's words (each is a `printenv`
/// command of its own); past them, what else it reads is unread.
const MAX_VARIABLES: usize = 32;

/// The names of the environment variables `texts` expand (`$NAME`, `${NAME…}`, `${!NAME}`),
/// each once: names in upper case or with an underscore, as the environment's are by convention
/// (`$f` of a loop is the shell's own), but the positional and special parameters (`$$` is the
/// process's id) and [`COMMON_VARIABLES`]. `Err` past [`MAX_VARIABLES`]. (A `$` inside single
/// quotes is read too: the words no longer say how they were quoted, and reading more errs on
/// the side of asking.)
fn expanded_variables<'w>(texts: impl Iterator<Item = &'w String>) -> Result<Vec<String>, Vec<String>> {
    let mut names: Vec<String> = Vec::new();
    for text in texts.filter(|text| text.contains('$')) {
        let mut rest = text.as_str();
        while let Some(at) = rest.find('$') {
            rest = rest.get(at + 1..).unwrap_or_default();
            if let Some(after) = rest.strip_prefix('$') {
                rest = after;
                continue;
            }
            let braced = rest.strip_prefix('{').map_or(rest, |inner| inner.strip_prefix(['!', '#']).unwrap_or(inner));
            let end = braced.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(braced.len());
            let name = braced.get(..end).unwrap_or_default();
            let plain = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && (name.contains('_') || !name.chars().any(|c| c.is_ascii_lowercase()));
            if plain && !COMMON_VARIABLES.contains(&name) && !names.iter().any(|known| known == name) {
                if names.len() >= MAX_VARIABLES {
                    return Err(names);
                }
                names.push(name.to_string());
            }
        }
    }
    Ok(names)
}

/// The variables a shell builtin or `ps` prints (`Some(empty)`: all of them): `set` alone,
/// `export` or `export -p` alone, `declare`/`typeset` with only `-p`/`-x` (or with `-p NAME…`,
/// those), BSD `ps`'s `e` (every process's environment). `set -e`, `export A=1` and `declare -p
/// A` do not print the environment (the last prints `A`).
fn environment_read(program: &str, args: &[String]) -> Option<Vec<String>> {
    let (options, names): (Vec<&String>, Vec<&String>) = args.iter().partition(|word| word.starts_with('-'));
    match program {
        "set" if args.is_empty() => Some(Vec::new()),
        "export" if names.is_empty() && options.iter().all(|option| option.as_str() == "-p") => Some(Vec::new()),
        // `declare -x NAME` exports NAME and prints nothing; `-p NAME` prints it.
        "declare" | "typeset"
            if !options.is_empty()
                && (names.is_empty() || options.iter().any(|option| option.contains('p')))
                && options
                    .iter()
                    .all(|option| option.len() > 1 && option.chars().skip(1).all(|c| "px".contains(c)))
                && names.iter().all(|name| !name.contains('=')) =>
        {
            Some(names.into_iter().cloned().collect())
        }
        "declare" | "typeset" if args.is_empty() => Some(Vec::new()),
        // BSD `ps`'s options need no dash (`ps eww`, `ps aux e`, `ps -p 1 eww`).
        "ps" => args
            .iter()
            .any(|word| !word.starts_with('-') && word.chars().all(|c| c.is_ascii_alphabetic()) && word.contains('e'))
            .then(Vec::new),
        _ => None,
    }
}

/// What `rsync --rsync-path=COMMAND` runs on the other host in rsync's place.
fn rsync_paths(parsed: &Options) -> Vec<String> {
    parsed.values.iter().filter(|(option, _)| option == "rsync-path").map(|(_, value)| value.clone()).collect()
}

impl Walker {
    /// A program word's name as this host runs it: its last path segment (`/bin/rm` is `rm`),
    /// in lower case where file names fold (`SUDO` is `sudo` on macOS).
    pub(super) fn name(&self, word: &str) -> String {
        let name = program_name(word);
        match self.fold && !name.starts_with(['$', '`']) {
            true => name.to_lowercase(),
            false => name,
        }
    }

    /// One simple command's words: wrappers are seen through, then the command is recorded
    /// with the files it names, and the scripts it runs are read in turn.
    pub(super) fn command(
        &mut self,
        mut words: Vec<String>,
        fed: Vec<String>,
        stdin_script: Option<String>,
        ctx: &Context,
    ) {
        if self.out.commands.len() >= MAX_COMMANDS {
            self.out.too_large = true;
            return;
        }
        self.aliased(&words, &fed, stdin_script.as_ref(), ctx);
        let mut via = ctx.via.clone();
        let mut inputs = ctx.inputs.clone();
        inputs.extend(fed);
        let mut piped_words = ctx.piped_words.clone();
        // `xargs rm <<< /`: a here-string or heredoc is what the command reads too.
        if let Some(script) = &stdin_script {
            piped_words.extend(script.split_whitespace().map(str::to_string));
        }
        loop {
            // `time X=1 rm -rf ~`, `sudo X=1 cmd`: assignments after a wrapper are the command's
            // environment, as before the program (`env X=1 cmd`).
            let assigned = words.iter().take_while(|word| scan::is_assignment(word)).count();
            if !self.unexpanded && assigned > 0 && assigned < words.len() {
                let own: Vec<String> = words.drain(..assigned).collect();
                let assignments: Vec<(String, String)> = own
                    .iter()
                    .filter_map(|word| word.split_once('=').map(|(name, value)| (name.to_string(), value.to_string())))
                    .collect();
                self.command_variables(&assignments, ctx);
                self.record("env", &own, &via, &inputs);
                continue;
            }
            let Some(name) = words.first().map(|first| self.name(first)) else { return };
            // `/bin/r? -rf ~`: a program named by a glob is every program of the tables it
            // matches; one it cannot be matched to is unread.
            if !self.unexpanded && is_glob(&name) {
                let matches = programs::matching(&name);
                match matches.as_slice() {
                    [] => self.out.unread(unread::CALLEE, &format!("a program named by a glob: {name}")),
                    [one] => {
                        if let Some(first) = words.first_mut() {
                            *first = (*one).to_string();
                        }
                        continue;
                    }
                    several if several.len() > MAX_GLOB_PROGRAMS => {
                        let reason =
                            format!("a program named by a glob that matches more than {MAX_GLOB_PROGRAMS}: {name}");
                        self.out.unread(unread::BOUND, &reason);
                    }
                    several => {
                        let each = Context { via: via.clone(), inputs: inputs.clone(), piped_words, depth: ctx.depth };
                        for program in several {
                            let mut words = words.clone();
                            if let Some(first) = words.first_mut() {
                                *first = (*program).to_string();
                            }
                            self.command(words, Vec::new(), stdin_script.clone(), &each);
                        }
                        return;
                    }
                }
            }
            let row = programs::program(&name);
            // `flock FILE -c SCRIPT` runs a script, not a command.
            let script_runner = matches!(row.script, Script::Option(..))
                && words.iter().any(|word| word == "-c" || word.starts_with("--command"));
            // `uv run CMD`, `poetry run CMD`, `npm exec -- CMD`: a subcommand that runs a command.
            let subcommand_wrapper = words
                .get(1)
                .and_then(|subcommand| row.subcommand(subcommand))
                .and_then(|subcommand| subcommand.wrapper);
            if let Some(wrapper) = subcommand_wrapper {
                if self.out.commands.len() >= MAX_COMMANDS {
                    self.out.too_large = true;
                    return;
                }
                let args = words.get(2..).unwrap_or_default().to_vec();
                let (inner, _) = unwrap(&wrapper, &args);
                let own = words.get(1..words.len() - inner.len()).unwrap_or_default().to_vec();
                self.record(&name, &own, &via, &inputs);
                via.push(name.clone());
                words = inner;
                continue;
            }
            // `command -v X`, `command -V X`: a lookup of X, which runs nothing.
            let lookup = name == "command"
                && words.iter().skip(1).take_while(|word| word.starts_with('-')).any(|word| word.contains(['v', 'V']));
            let Some(wrapper) = row.wrapper.filter(|_| !script_runner && !lookup) else { break };
            if self.out.commands.len() >= MAX_COMMANDS {
                self.out.too_large = true;
                return;
            }
            let args = words.get(1..).unwrap_or_default().to_vec();
            let (mut inner, split) = unwrap(&wrapper, &args);
            let own = args.get(..args.len() - inner.len()).unwrap_or_default();
            // `env`, `env -0`, `env -u X`: with nothing to run, env prints the environment.
            if name == "env" && inner.is_empty() && split.is_none() {
                self.environment(&[], &[via.as_slice(), std::slice::from_ref(&name)].concat(), &inputs);
            }
            // `env GIT_SSH_COMMAND='…' git fetch`, `sudo PAGER='…' man x`: a wrapper's
            // assignments are the command's environment, as a line's own are.
            let assignments: Vec<(String, String)> = own
                .iter()
                .filter(|word| scan::is_assignment(word))
                .filter_map(|word| word.split_once('=').map(|(name, value)| (name.to_string(), value.to_string())))
                .collect();
            self.command_variables(&assignments, ctx);
            self.record(&name, own, &via, &inputs);
            via.push(name.clone());
            if row.reader == Reader::Xargs {
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
        let first_name = words.first().map(|first| self.name(first)).unwrap_or_default();
        if programs::program(&first_name).reader == Reader::Parallel {
            words = parallel(&words, &read_words(&piped_words));
            self.record(&first_name, &[], &via, &inputs);
            via.push(first_name);
            // `parallel 'rm -rf {}' ::: …`: a command given as one word is a shell's script.
            if words.first().is_some_and(|first| first.contains(char::is_whitespace)) {
                let nested =
                    Context { via: via.clone(), inputs: inputs.clone(), piped_words: Vec::new(), depth: ctx.depth + 1 };
                self.script(&words.join(" "), &nested);
                return;
            }
        }
        let Some(first) = words.first() else { return };
        let program = self.name(first);
        let row = programs::program(&program);
        let args = words.get(1..).unwrap_or_default().to_vec();
        let mut parsed = parse_options(&program, &args);
        parsed.flags = expand_abbreviations(&program, parsed.operands.first().map(String::as_str), parsed.flags);
        // `bash -n`: the shell reads its script and runs nothing. Only the words say so (a typed
        // `--noexec` is not it), and not where the line may have redefined the shell's name.
        if row.is_shell() {
            parsed.flags.retain(|flag| flag != super::options::NOEXEC);
            let redefines = ["alias", "()", "function"].iter().any(|word| self.line.contains(word));
            if !redefines && super::options::shell_noexec(&program, &args) {
                parsed.flags.push(super::options::NOEXEC.to_string());
            }
        }
        // `set`, `export -p`, `declare -x`, `ps e`: the environment printed, as `printenv` does
        // (`Some(empty)`: all of it).
        let printed = environment_read(&program, &args);
        // `echo $GITHUB_TOKEN`, `curl -d "t=${TOKEN}" …`: the variables its words expand, which
        // the line does not set (those it sets are expanded already). Words that reached no
        // shell (an argv array) expand nothing.
        // A heredoc or here-string the command reads expands them too (`nc h 9 <<< "$TOKEN"`).
        let expanded = match self.unexpanded {
            true => Vec::new(),
            false => match expanded_variables(words.iter().chain(stdin_script.iter())) {
                Ok(names) => names,
                Err(names) => {
                    let reason = format!("{program} expanding more than {MAX_VARIABLES} variables");
                    self.out.unread(unread::BOUND, &reason);
                    names
                }
            },
        };
        // (The reader's `via` is built only for a command that reads any: most read none.)
        if printed.is_some() || !expanded.is_empty() {
            let reader = [via.as_slice(), std::slice::from_ref(&program)].concat();
            match printed {
                Some(names) if names.is_empty() => self.environment(&[], &reader, &inputs),
                Some(names) => {
                    names.iter().for_each(|name| self.environment(std::slice::from_ref(name), &reader, &inputs))
                }
                None => {}
            }
            for name in expanded {
                self.environment(std::slice::from_ref(&name), &reader, &inputs);
            }
        }
        // `alias r='rm -rf'`: defined for later commands, and its text read now.
        if program == "alias" {
            for (name, text) in
                args.iter().filter(|word| !word.starts_with('-')).filter_map(|word| word.split_once('='))
            {
                self.define_alias(name, text, ctx);
            }
        }
        // `export W=…`, `declare W=…`, `local W=…` set variables as an assignment does.
        if row.declares {
            let assignments: Vec<(String, String)> = args
                .iter()
                .filter(|word| scan::is_assignment(word))
                .filter_map(|word| word.split_once('=').map(|(name, value)| (name.to_string(), value.to_string())))
                .collect();
            self.assign(&assignments);
        }
        // `git restore --help` runs `git help restore`: it prints, and changes nothing.
        if row.help.iter().any(|help| parsed.flags.iter().any(|flag| flag == help)) {
            parsed.operands.insert(0, "help".to_string());
        }
        let nested = Context {
            via: [via.as_slice(), std::slice::from_ref(&program)].concat(),
            inputs: inputs.clone(),
            piped_words: Vec::new(),
            depth: ctx.depth + 1,
        };
        // What the command reads, where the line spells it: a heredoc, a here-string, or the
        // words `echo` and `printf` write into its pipe.
        let spelled_stdin =
            stdin_script.clone().or_else(|| (!ctx.piped_words.is_empty()).then(|| ctx.piped_words.join(" ")));
        // `$(echo rm) -rf ~`, `$CMD`, `"$@"`: which program runs is known only at run time.
        // (`eval "$(ssh-agent -s)"` runs a tool's own setup script.)
        if program.starts_with(['$', '`']) && !programs::prints_shell_setup(&program) {
            self.out.unread(unread::CALLEE, &program);
        }
        // `ssh -o ProxyCommand='…' h`, `scp -oLocalCommand=…`: OpenSSH runs these with the
        // user's shell, here.
        if matches!(program.as_str(), "ssh" | "scp" | "sftp" | "rsync") {
            for script in ssh_commands(&program, &parsed) {
                self.script(&script, &nested);
            }
        }
        // `rsync --rsync-path='rm -rf ~ #' src host:dst`: run on the other host.
        if program == "rsync" {
            let host = parsed.operands.iter().find_map(|operand| remote_host(operand));
            for script in rsync_paths(&parsed) {
                match &host {
                    Some(host) => self.remote_script(&script, &nested, host),
                    None => self.script(&script, &nested),
                }
            }
        }
        if let Some(script) = script_of(&program, &parsed, &args) {
            match (row.script, parsed.operands.first()) {
                (Script::OnHost, Some(host)) => self.remote_script(&script, &nested, &ssh_host(host)),
                _ => self.script(&script, &nested),
            }
        } else if row.stdin_script && reads_stdin(&program, &parsed) && !parsed.noexec() {
            // `bash`, `bash -s`, `sh -`, `bash /dev/stdin`, `at now`: the script is what the
            // command reads.
            match &spelled_stdin {
                Some(script) => self.script(script, &nested),
                None if row.is_shell() => self.unspelled_script(&program, parsed.operands.first(), &inputs),
                None => {}
            }
        } else if row.is_shell() && !parsed.noexec() {
            // `bash <(curl …)`, `bash /dev/fd/3`: a script from a descriptor the line does not spell.
            if let Some(operand) = parsed.operands.first().filter(|operand| names_descriptor(operand)) {
                self.out.unread(unread::DESCRIPTOR, &format!("{program} {operand}"));
            }
        }
        if row.is_shell() && !parsed.noexec() {
            for script in maybe_scripts(&parsed, &args) {
                self.script(&script, &nested);
            }
        }
        // `pwsh -Command SCRIPT`, `powershell -enc BASE64`: PowerShell's own reading.
        if row.reader == Reader::PowerShell && ctx.depth > MAX_DEPTH {
            self.out.unread(unread::BOUND, &format!("{program} nested more than {MAX_DEPTH} scripts deep"));
        } else if row.reader == Reader::PowerShell {
            let (flags, scripts) = powershell::invocation(&program, &args);
            parsed.flags = flags;
            for script in scripts {
                // `pwsh -Command -`, `pwsh -File /dev/stdin`: the script is what pwsh reads.
                let script = match script.trim() {
                    stdin if names_stdin(stdin) => match &spelled_stdin {
                        Some(script) => script.clone(),
                        None => {
                            self.out.unread(unread::DESCRIPTOR, &format!("{program} {stdin}"));
                            continue;
                        }
                    },
                    _ => script,
                };
                let line = powershell::analyse(&script);
                self.out.push_commands(line.commands, &nested.via);
                for (file, access) in line.files {
                    self.file(file, access);
                }
                self.out.too_large |= line.too_large;
                self.out.push_unread(line.unread);
            }
        }
        // `psql -c SQL`, `mysql -e SQL`, `sqlite3 DB SQL`, a heredoc: each statement is a `sql`
        // command.
        if sql::is_client(&program) {
            let fed = ctx.piped_words.is_empty() && !ctx.inputs.is_empty();
            let stdin =
                stdin_script.clone().or_else(|| (!ctx.piped_words.is_empty()).then(|| ctx.piped_words.join(" ")));
            let input = sql::Input { spelled: stdin.as_deref(), file: self.stdin_file.as_deref(), fed };
            let (escapes, mut statements): (Vec<Command>, Vec<Command>) = sql::commands(&program, &args, &input)
                .into_iter()
                .partition(|statement| statement.subcommand.as_deref() == Some(sql::SHELL));
            for statement in &mut statements {
                statement.inputs = inputs.clone();
                statement.dirs = self.dirs.clone();
            }
            // `psql -c '\\! rm -rf ~'`: a shell escape runs its script here.
            for escape in escapes {
                for script in escape.words {
                    self.script(&script, &nested);
                }
            }
            self.out.push_commands(statements, &nested.via);
        }
        // `DROP TABLE users;` typed as a shell line: SQL the shell does not run, read as `sql`
        // `via typed` for the database pack to say so.
        let typed = sql::typed(&program, &args, programs::known(&program).is_some());
        if !typed.is_empty() {
            let via = [via.as_slice(), &[sql::VIA_TYPED.to_string()]].concat();
            self.out.push_commands(typed, &via);
        }
        // `python3 -c CODE`, `node -e CODE`, `perl <<EOF`: what the code's calls run, delete or write.
        if interpreters::is_interpreter(&program) && ctx.depth > MAX_DEPTH {
            self.out.unread(unread::BOUND, &format!("{program} nested more than {MAX_DEPTH} scripts deep"));
        } else if interpreters::is_interpreter(&program) {
            let code = match interpreters::code_of(&program, &args) {
                Some(interpreters::Code::Text(code)) => Some(code),
                // `python3 -`, `python3 /dev/stdin`, `echo … | node`: the code is what it reads.
                Some(interpreters::Code::Stdin) => match &spelled_stdin {
                    Some(code) => Some(code.clone()),
                    None => {
                        self.unspelled_script(&program, None, &inputs);
                        None
                    }
                },
                Some(interpreters::Code::File(file)) if names_descriptor(&file) => {
                    self.out.unread(unread::DESCRIPTOR, &format!("{program} {file}"));
                    None
                }
                // A script file is read by whoever reads the files the session wrote.
                Some(interpreters::Code::File(_)) | None => None,
            };
            if let Some(code) = code {
                for run in interpreters::runs(&program, &code) {
                    match run {
                        interpreters::Run::Line(line) => self.script(&line, &nested),
                        interpreters::Run::Argv(words) => self.command(words, Vec::new(), None, &nested),
                        interpreters::Run::Unread(class, detail) => self.out.unread(class, &detail),
                    }
                }
            }
        }
        if row.reader == Reader::Find {
            self.find_exec(&args, &parsed, &nested);
        }
        // Codex runs `apply_patch <<'EOF' … EOF` (or with the patch as its operand) given to a
        // shell as its own patch tool: the patch's files are written.
        if row.reader == Reader::ApplyPatch {
            let patch = stdin_script.clone().or_else(|| parsed.operands.first().cloned()).unwrap_or_default();
            for path in crate::vocab::patch::patch_paths(&patch) {
                self.file(path, Access::Write);
            }
        }
        // What this command writes to its output, when the line spells it (through its wrappers
        // too: `stdbuf -o0 echo / | xargs rm -rf`).
        self.output = match row.output {
            Output::None => None,
            // `echo -ne WORDS`: the options are not output.
            Output::Words => Some(
                args.iter()
                    .skip_while(|word| {
                        word.len() > 1 && word.starts_with('-') && word.chars().skip(1).all(|c| "neE".contains(c))
                    })
                    .cloned()
                    .collect(),
            ),
            Output::AfterFormat if args.len() > 1 => Some(args.get(1..).unwrap_or_default().to_vec()),
            Output::AfterFormat => Some(args.clone()),
            Output::Stdin if parsed.operands.is_empty() => stdin_script.map(|script| vec![script]),
            Output::Stdin => None,
            Output::FindTargets
                if !parsed.flags.iter().any(|flag| matches!(flag.as_str(), "exec" | "execdir" | "delete")) =>
            {
                Some(parsed.targets.clone())
            }
            Output::FindTargets => None,
        };
        self.files_of(&program, &parsed);
        let subcommand = parsed.operands.first().cloned();
        let dirs = self.dirs.clone();
        // `cd DIR; …`: later relative paths may start in DIR, or where they started if the `cd`
        // failed or ran in a subshell (`cd -`, `cd $X` add nothing: where the call runs stays).
        if row.reader == Reader::ChangesDirectory {
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
        let remote = match row.script {
            Script::OnHost => parsed.operands.first().map(|host| ssh_host(host)).into_iter().collect(),
            _ if row.remote_operands => parsed.operands.iter().filter_map(|operand| remote_host(operand)).collect(),
            _ => Vec::new(),
        };
        self.out.commands.push(Command {
            program,
            subcommand,
            flags: parsed.flags,
            operands: parsed.operands,
            words: args,
            via,
            inputs,
            dirs,
            remote,
        });
    }

    /// What a command reads of the environment, in one spelling for every reader: `printenv`
    /// with the variables' names, or none for all of it (as the Python and JavaScript readers
    /// give `os.environ` and `process.env`).
    pub(super) fn environment(&mut self, names: &[String], via: &[String], inputs: &[String]) {
        if self.out.commands.len() >= MAX_COMMANDS {
            self.out.too_large = true;
            return;
        }
        self.out.commands.push(Command {
            program: "printenv".to_string(),
            subcommand: names.first().cloned(),
            flags: Vec::new(),
            operands: names.to_vec(),
            words: names.to_vec(),
            via: via.to_vec(),
            inputs: inputs.to_vec(),
            dirs: self.dirs.clone(),
            remote: Vec::new(),
        });
    }

    /// `r ~` after `alias r='rm -rf'`: a command named as an alias the line defines is read as
    /// each text given to the name, followed by its words, with its input (and, by the caller,
    /// as written: an alias defined on a line takes effect only on a later one, and only where
    /// aliases expand). A name expands no further inside its own text, as bash has it.
    fn aliased(&mut self, words: &[String], fed: &[String], stdin_script: Option<&String>, ctx: &Context) {
        let Some((first, rest)) = words.split_first() else { return };
        if self.expanding.contains(first) {
            return;
        }
        let texts: Vec<String> =
            self.aliases.iter().filter(|(name, _)| name == first).map(|(_, text)| text.clone()).collect();
        if texts.is_empty() {
            return;
        }
        // bash expands an alias only where aliases expand (`shopt -s expand_aliases` in a script)
        // and only on a later line than its definition: without that option the use runs
        // another program of that name, and the text stays to be read alone.
        if self.line.contains("expand_aliases") {
            self.unused_aliases.retain(|(name, ..)| name != first);
        }
        let plain = |word: &str| word.chars().all(|c| c.is_ascii_alphanumeric() || "~/._-+=:,@%".contains(c));
        self.expanding.push(first.clone());
        for text in texts {
            let simple: Vec<String> = text.split_whitespace().map(str::to_string).collect();
            if !simple.is_empty() && simple.iter().all(|word| plain(word)) {
                // `alias r='bash'; r <<EOF …`: one command of plain words, given the input.
                let words = [simple.as_slice(), rest].concat();
                self.command(words, fed.to_vec(), stdin_script.cloned(), &ctx.nested());
                continue;
            }
            // The words as the shell had them: plain ones as they are (`~` stays the home),
            // others quoted; the input as a heredoc of the text's last command.
            let mut script = text;
            for word in rest {
                match plain(word) && !word.is_empty() {
                    true => script.push_str(&format!(" {word}")),
                    false => script.push_str(&format!(" '{}'", word.replace('\'', "'\\''"))),
                }
            }
            if let Some(stdin) = stdin_script {
                let mut end = "HOOKC_EOF".to_string();
                while stdin.contains(&end) {
                    end.push('_');
                }
                script.push_str(&format!(" <<'{end}'\n{stdin}\n{end}"));
            }
            self.script(&script, &ctx.nested());
        }
        self.expanding.pop();
    }

    /// The script `ssh HOST SCRIPT` runs on HOST: its commands are read as any script's, and
    /// carry the host as their `remote` (the innermost host of `ssh a ssh b …`); the files it
    /// names and the directories it enters are that host's, not this machine's.
    fn remote_script(&mut self, script: &str, ctx: &Context, host: &str) {
        let (commands, files, dirs) = (self.out.commands.len(), self.out.files.len(), self.dirs.clone());
        self.script(script, ctx);
        for command in self.out.commands.iter_mut().skip(commands) {
            if command.remote.is_empty() {
                command.remote.push(host.to_string());
            }
        }
        self.out.files.truncate(files);
        self.dirs = dirs;
    }

    /// A shell or interpreter that reads its script from its input, where the line does not
    /// spell what that is (`curl … | bash`, `python3 /dev/stdin`): fed by another program, the
    /// script is unread. With nothing fed it reads a terminal, which an agent does not type at.
    pub(super) fn unspelled_script(&mut self, program: &str, operand: Option<&String>, inputs: &[String]) {
        if !inputs.is_empty() || operand.is_some_and(|operand| !names_stdin(operand)) {
            let from = operand.cloned().unwrap_or_else(|| format!("| {}", inputs.join(" | ")));
            self.out.unread(unread::DESCRIPTOR, &format!("{program} {from}"));
        }
    }

    /// Records a wrapper itself as a command (so `runs sudo` holds).
    pub(super) fn record(&mut self, program: &str, args: &[String], via: &[String], inputs: &[String]) {
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
            remote: Vec::new(),
        });
    }

    /// `find ROOTS… -exec CMD ARGS… ;`: the command runs on what find finds, so `{}` stands
    /// for what the roots and filters select (`find_targets`).
    pub(super) fn find_exec(&mut self, args: &[String], parsed: &Options, ctx: &Context) {
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
    pub(super) fn files_of(&mut self, program: &str, parsed: &Options) {
        let row = programs::program(program);
        let mut operands: Vec<&String> = parsed.operands.iter().collect();
        // `grep PATTERN FILE…`, `sed SCRIPT FILE…`, `awk PROGRAM FILE…`.
        if let Some(giving) = row.text_first {
            if !parsed.values.iter().any(|(option, _)| giving.contains(&option.as_str())) {
                // sed's `r FILE` and `w FILE` commands read and write files of their own.
                if row.reader == Reader::Sed {
                    for (file, access) in operands.first().map(|script| sed_files(script)).unwrap_or_default() {
                        self.file(file, access);
                    }
                }
                operands = operands.split_off(1.min(operands.len()));
            }
        }
        if row.reader == Reader::Find {
            operands.clear();
            // `find ROOT -delete` removes what it selects.
            if parsed.flags.iter().any(|flag| flag == "delete") {
                for target in &parsed.targets {
                    self.file(target.clone(), Access::Write);
                }
            }
        }
        // A script is not a file: `bash -c SCRIPT`, `eval WORDS`, `ssh HOST COMMAND`.
        if row.script.takes_operands() {
            operands.clear();
        } else if row.is_shell() && has_c(&parsed.flags) && !operands.is_empty() {
            operands.remove(0);
        }
        // `git rm F`: the subcommand is no file.
        let subcommand = parsed.operands.first().map(String::as_str);
        if row.subcommand_first && !operands.is_empty() {
            operands.remove(0);
            // `git grep PATTERN PATH…`: the pattern is no file.
            let pattern_first = subcommand.and_then(|name| row.subcommand(name)).is_some_and(|sub| sub.pattern_first);
            let given = parsed.flags.iter().any(|flag| matches!(flag.as_str(), "e" | "f" | "file"));
            if pattern_first && !given && !operands.is_empty() {
                operands.remove(0);
            }
        }
        let writes = row.writes(subcommand, &parsed.flags, &parsed.values);
        let count = operands.len();
        for (at, operand) in operands.into_iter().enumerate() {
            if let Some(prefixes) = row.operand_prefixes {
                // `dd if=A of=B`.
                for (prefix, access) in prefixes {
                    if let Some(file) = operand.strip_prefix(prefix) {
                        self.file(file.to_string(), *access);
                    }
                }
                continue;
            }
            // `chmod MODE FILE…`: the mode is no file.
            if writes == Writes::AfterFirst && at == 0 {
                continue;
            }
            // `scp x HOST:/etc/`: another host's file is none of this machine's (`C:/x` may be).
            if row.remote_operands && remote_host(operand).is_some() && !may_be_drive(operand) {
                continue;
            }
            let written = match writes {
                Writes::All => true,
                Writes::AfterFirst => at > 0,
                Writes::Last => at + 1 == count && count > 1,
                Writes::None => false,
            };
            if written {
                self.file(operand.clone(), Access::Write);
                // `cp SRC… DIR`: the files written are also `DIR/SRC`.
                let directory = operand.ends_with('/') || matches!(operand.as_str(), "." | "..") || count > 2;
                if row.into_directory && writes == row.writes && at + 1 == count && count > 1 && directory {
                    for source in parsed.operands.iter().take(count.saturating_sub(1)) {
                        let name = source.trim_end_matches('/').rsplit('/').next().unwrap_or(source);
                        self.file(format!("{}/{name}", operand.trim_end_matches('/')), Access::Write);
                    }
                }
            } else if !row.operands_text {
                self.file(operand.clone(), Access::Read);
            }
        }
        for (option, value) in &parsed.values {
            if row.writing.contains(&option.as_str()) {
                self.file(value.clone(), Access::Write);
                // `cp -t DIR SRC…`.
                if matches!(option.as_str(), "t" | "target-directory") {
                    for source in &parsed.operands {
                        let name = source.trim_end_matches('/').rsplit('/').next().unwrap_or(source);
                        self.file(format!("{}/{name}", value.trim_end_matches('/')), Access::Write);
                    }
                }
            } else if row.reading.contains(&option.as_str()) {
                self.file(value.clone(), Access::Read);
            } else if row.using.contains(&option.as_str()) {
                self.file(value.clone(), Access::Use);
            } else if let Some(file) = value.strip_prefix('@').or_else(|| value.split_once("=@").map(|(_, file)| file))
            {
                // `curl -d @.env`: the value names a file read.
                self.file(file.to_string(), Access::Read);
            }
        }
    }
}
