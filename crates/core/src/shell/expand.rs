//! Word expansion as a static reading can do it: `~` and `~user`, `$'…'` escapes, positional
//! parameters of `sh -c`, and the variables the line sets (the temp-directory variables).

use super::*;

/// The variables that name the temporary directory, read as `/tmp` where the line leaves them
/// (`$TMPDIR`, `${TMPDIR}`; not `${TMPDIR:-/}`, whose default may be anything).
pub(super) const TEMP_VARIABLES: [&str; 3] = ["TMPDIR", "TMP", "TEMP"];

/// Whether a line may set a temp-directory variable: it names one other than as `$NAME` or
/// `${NAME…}`.
pub(super) fn sets_temp(line: &str) -> bool {
    TEMP_VARIABLES.iter().any(|name| !settings(line, name).is_empty())
}

/// Whether the line names `name` other than to read it exactly once, and there assigns it
/// (`NAME=…`): a `for NAME`, `read NAME`, a second assignment or an `unset` leave its value to
/// run time.
pub(super) fn set_once(line: &str, name: &str) -> bool {
    !sets_unseen(line)
        && matches!(settings(line, name).as_slice(), [at] if line.get(at + name.len()..).is_some_and(|rest| rest.starts_with('=')))
}

/// Whether the line runs something that sets variables without naming them where they are
/// set (`read` sets `REPLY`, `getopts` `OPTARG`, `mapfile` `MAPFILE`, `printf -v "$N"`, a
/// sourced file or a nameref anything): then no value the line spells is known to stand.
pub(super) fn sets_unseen(line: &str) -> bool {
    const SETTERS: [&str; 8] = ["read", "mapfile", "readarray", "getopts", "source", "printf", "declare", "typeset"];
    line.split(|c: char| c.is_whitespace() || ";&|(){}`".contains(c))
        .any(|word| SETTERS.contains(&word) || matches!(word, "BASH_REMATCH" | "REPLY" | "OPTARG"))
        || line.contains("local -n")
        || sources(line)
}

/// Whether `.` runs as a command somewhere in the line (`. ./env.sh`): first on the line or
/// after an operator or a keyword that starts a command, not an operand (`git -C . push`).
fn sources(line: &str) -> bool {
    const STARTERS: [&str; 16] = [
        "then", "do", "else", "elif", "if", "while", "until", "!", "time", "exec", "command", "builtin", "eval",
        "sudo", "env", "nohup",
    ];
    line.lines().any(|line| {
        let mut starts_command = true;
        line.split_whitespace().any(|token| {
            let word = token.trim_start_matches(['(', '{', '!', ';', '&', '|', '`']);
            let sourced = word == "." && (starts_command || word.len() < token.len());
            starts_command = token.ends_with([';', '&', '|', '(', '{', '`']) || STARTERS.contains(&token);
            sourced
        })
    })
}

/// Where the line names `name` as a whole word other than as `$NAME` or `${NAME…}`.
pub(super) fn settings(line: &str, name: &str) -> Vec<usize> {
    line.match_indices(name)
        .filter(|(at, _)| {
            let before = line.get(..*at).unwrap_or_default();
            let after = line.get(at + name.len()..).and_then(|rest| rest.chars().next());
            let word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
            let read = before.ends_with('$') || before.ends_with("${");
            // (`-p`, `--p`: an option, which sets nothing.)
            let option = before.ends_with('-');
            let whole = !before.chars().next_back().is_some_and(word_char) && !after.is_some_and(word_char);
            whole && !read && !option
        })
        .map(|(at, _)| at)
        .collect()
}

/// `~NAME` and `~NAME/…` unquoted, as the shell expands them: NAME's home directory, spelled
/// as the system keeps homes (`/root` for root; `/home/NAME`, or `/Users/NAME` on macOS), so
/// rules on homes see another user's as a home. The current user's is `~` to the path model
/// (which spells its own home so), `~+` and `~-` are directories of the shell, not homes.
pub(super) fn user_home(raw: &str) -> Option<String> {
    let rest = raw.strip_prefix('~')?;
    let (name, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let plain = |c: char| c.is_ascii_alphanumeric() || "._-".contains(c);
    if name.is_empty() || name.starts_with(['-', '+']) || !name.chars().all(plain) {
        return None;
    }
    let home = match (name, cfg!(target_os = "macos")) {
        ("root", false) => "/root".to_string(),
        ("root", true) => "/var/root".to_string(),
        (name, false) => format!("/home/{name}"),
        (name, true) => format!("/Users/{name}"),
    };
    let own = crate::paths::Anchor::process_home().is_some_and(|own| own.trim_end_matches('/') == home);
    Some(match own {
        true => format!("~{tail}"),
        false => format!("{home}{tail}"),
    })
}

/// `bash -c 'rm -rf "$1"' _ /`: the script with `$0`…`$9`, `${N}`, `$@` and `$*` replaced by
/// the words after it (shell-quoted; `"$@"` is each word on its own). Where the script still
/// reads parameters it cannot be given them here (`shift`, `set --`, `${@:2}`, `$10`), the words
/// are also read as commands of their own, from each of the first ten: `sh -c 'shift; "$@"' _ a
/// rm -rf ~` runs some of them, so they are judged as what it may run.
pub(super) fn positional(script: &str, values: &[String]) -> String {
    if values.is_empty() || !script.contains('$') {
        return script.to_string();
    }
    // A plain value goes in as it is (inside quotes too); anything else single-quoted.
    let quote = |word: &str| {
        if !word.is_empty() && word.chars().all(|c| c.is_alphanumeric() || "-_./~+:=@%,".contains(c)) {
            word.to_string()
        } else {
            format!("'{}'", word.replace('\'', "'\\''"))
        }
    };
    let words = |from: usize| values.iter().skip(from).map(|value| quote(value)).collect::<Vec<_>>().join(" ");
    let renumbered = script.contains("shift") || script.contains("set ");
    let mut out = script.to_string();
    if !renumbered && script.len().saturating_mul(values.len()) <= MAX_PARSED {
        let all = words(1);
        out = out.replace("\"${@}\"", &all).replace("\"$@\"", &all);
        out = out.replace("${@}", &all).replace("${*}", &all).replace("$@", &all).replace("$*", &all);
        for (at, value) in values.iter().enumerate().take(10).rev() {
            out = out
                .replace(&format!("${{{at}}}"), &quote(value))
                .replace(&format!("\"${at}\""), &quote(value))
                .replace(&format!("${at}"), &quote(value));
        }
    }
    if renumbered || reads_parameters(&out) {
        // `shift N` drops any number of them: every suffix may be what runs.
        for from in 0..values.len().min(10) {
            out.push('\n');
            out.push_str(&words(from));
        }
    }
    out
}

/// Whether a script reads a positional parameter (`$1`, `${12}`, `$@`, `${@:2}`, `$*`, `$#`).
pub(super) fn reads_parameters(script: &str) -> bool {
    let bytes = script.as_bytes();
    bytes.iter().enumerate().any(|(at, byte)| {
        let next = |offset: usize| bytes.get(at + offset).copied().unwrap_or(0);
        *byte == b'$' && {
            let first = if next(1) == b'{' { next(2) } else { next(1) };
            first.is_ascii_digit() || matches!(first, b'@' | b'*' | b'#')
        }
    })
}

/// The text of a `$'…'` string: its backslash escapes decoded as bash does.
pub(super) fn ansi_c(escaped: &str) -> String {
    let mut out = String::new();
    let mut chars = escaped.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(kind) = chars.next() else {
            out.push('\\');
            break;
        };
        let mut number = |radix: u32, max: usize, first: Option<char>| {
            let mut digits: String = first.into_iter().collect();
            while digits.len() < max {
                match chars.peek() {
                    Some(d) if d.is_digit(radix) => {
                        digits.push(*d);
                        chars.next();
                    }
                    _ => break,
                }
            }
            u32::from_str_radix(&digits, radix).ok().and_then(char::from_u32)
        };
        let decoded = match kind {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'e' | 'E' => Some('\u{1b}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            '0'..='7' => number(8, 3, Some(kind)),
            'x' => number(16, 2, None),
            'u' => number(16, 4, None),
            'U' => number(16, 8, None),
            other => Some(other),
        };
        if let Some(decoded) = decoded {
            out.push(decoded);
        }
    }
    out
}

/// What a substitution that ran `commands` writes, where that is one plain word: one `echo`
/// (its `-n`/`-e`/`-E` options skipped) or one `printf` of a format alone with no `%` or escape,
/// writing a word with no blank to split at, no glob, no expansion and no escape.
fn spelled_output(commands: &[Command]) -> Option<String> {
    let [command] = commands else { return None };
    let words: Vec<&str> = match command.program.as_str() {
        "echo" => command
            .words
            .iter()
            .map(String::as_str)
            .skip_while(|word| {
                word.len() > 1 && word.starts_with('-') && word.chars().skip(1).all(|c| "neE".contains(c))
            })
            .collect(),
        "printf" if command.words.len() == 1 => command.words.iter().map(String::as_str).collect(),
        _ => return None,
    };
    let [word] = words.as_slice() else { return None };
    let plain = !word.is_empty() && !word.contains(|c: char| c.is_whitespace() || "*?[$`\\%{}~".contains(c));
    (plain && command.via.is_empty() && command.inputs.is_empty()).then(|| (*word).to_string())
}

/// Variables the line sets, and words expanded as far as the line spells them.
impl Walker {
    /// Shell variables set by a command of assignments alone (`W='rm -rf ~'`), kept where the
    /// line sets them once ([`set_once`]).
    pub(super) fn assign(&mut self, assignments: &[(String, String)]) {
        for (name, value) in assignments {
            let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            let special =
                matches!(name.as_str(), "HOME" | "PWD" | "IFS" | "PATH") || TEMP_VARIABLES.contains(&name.as_str());
            if plain && !special && set_once(&self.line, name) {
                self.variables.insert(name.clone(), value.clone());
            }
            if name == "IFS" && set_once(&self.line, name) {
                self.ifs = Some(value.clone());
            }
        }
    }

    /// `GIT_SSH_COMMAND='…' git fetch`, `PAGER='…' man x`, `BASH_ENV=… bash`: variables whose
    /// value a program runs as a command; their values are read as scripts.
    pub(super) fn command_variables(&mut self, assignments: &[(String, String)], ctx: &Context) {
        for (name, value) in assignments {
            if programs::runs_value_as_script(name) && !value.is_empty() {
                self.script(value, &ctx.nested());
            }
            // `BASH_ALIASES[r]='rm -rf'` defines an alias, as `alias` does.
            if let Some(alias) = name.strip_prefix("BASH_ALIASES[").and_then(|rest| rest.strip_suffix(']')) {
                self.define_alias(alias, value, ctx);
            }
        }
    }

    /// An alias the line defines: kept for later commands of that name (every text, however
    /// often it is redefined or removed, since which definition holds when is known only at
    /// run time). A command of the line that uses it reads its text with that command's words
    /// (`alias r=export; r A=1` exports `A`, it dumps nothing); one the line never uses is read
    /// alone once the line is read, as a trap's body is, since it may run later in the session
    /// ([`Walker::unused_aliases`]). A quote the text leaves open (`alias r="rm -rf '"`) makes
    /// what it runs unknown.
    pub(super) fn define_alias(&mut self, name: &str, text: &str, ctx: &Context) {
        let name = name.trim_matches(['\'', '"']);
        if self.aliases.len() >= MAX_ALIASES {
            self.out.unread(unread::BOUND, &format!("more than {MAX_ALIASES} aliases"));
            return;
        }
        if !self.aliases.iter().any(|(known, known_text)| known == name && known_text == text) {
            self.aliases.push((name.to_string(), text.to_string()));
        }
        if !super::quotes_balanced(text) {
            self.out.unread(unread::UNPARSED, &format!("alias {name} whose text leaves a quote open"));
        }
        self.unused_aliases.push((name.to_string(), text.to_string(), ctx.nested()));
    }

    /// Reads the text of every alias no command of the line used, as the script it may be
    /// later in the session. Called once the whole line is read.
    pub(super) fn unused_aliases(&mut self) {
        // A text read here may define aliases of its own (at most `MAX_ALIASES` in all).
        while let Some((_, text, ctx)) = self.unused_aliases.pop() {
            self.script(&text, &ctx);
        }
    }

    /// `$NAME` or `${NAME}` unquoted, of a variable the line set once to words without globs
    /// (`A='ec2 terminate-instances'; aws $A`): the words the shell splits it into.
    /// The characters that split an unquoted expansion: `IFS` as the line sets it once, or
    /// the blanks where the line never sets it; `None` where it sets it otherwise (`read IFS`,
    /// twice), so that no split is known.
    pub(super) fn separators(&self) -> Option<&str> {
        match &self.ifs {
            Some(ifs) => Some(ifs),
            None if !self.line.contains("IFS") || settings(&self.line, "IFS").is_empty() => Some(" \t\n"),
            None => None,
        }
    }

    /// `$NAME` or `${NAME}` unquoted, of a variable the line set once to words without globs
    /// (`A='ec2 terminate-instances'; aws $A`; with `IFS=,`, `x=rm,-rf,/; $x`): the words the
    /// shell splits it into, at `IFS`'s characters.
    pub(super) fn split_variable(&mut self, raw: &str) -> Option<Vec<String>> {
        let name = raw.strip_prefix("${").and_then(|rest| rest.strip_suffix('}')).or_else(|| raw.strip_prefix('$'))?;
        let value = self.variables.get(name)?.clone();
        let separators = self.separators()?.to_string();
        let split = |separators: &str| -> Vec<String> {
            value.split(|c| separators.contains(c)).filter(|word| !word.is_empty()).map(str::to_string).collect()
        };
        let words = split(&separators);
        // `(IFS=,); W='rm -rf ~'; $W`: an `IFS` set in a subshell or a branch is not the one
        // here, so where the blanks split the value otherwise, what runs is known only then.
        // One set by the line's first command is.
        let first = self.line.trim_start().starts_with("IFS=");
        if self.ifs.is_some() && !first && words != split(" \t\n") {
            self.out.unread(unread::CALLEE, &format!("${name} split by an IFS set in part of the line"));
        }
        (value.contains(|c| separators.contains(c)) && !value.contains(['*', '?', '['])).then_some(words)
    }

    /// `text` with `$NAME` and `${NAME}` of the variables the line set ([`Walker::assign`])
    /// replaced by their values.
    pub(super) fn expand_variables(&self, text: &str) -> String {
        let mut expanded = text.to_string();
        for (name, value) in &self.variables {
            expanded = expanded.replace(&format!("${{{name}}}"), value);
            let mut out = String::with_capacity(expanded.len());
            let mut rest = expanded.as_str();
            let reference = format!("${name}");
            while let Some(at) = rest.find(&reference) {
                let after = rest.get(at + reference.len()..).unwrap_or_default();
                let whole = !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
                out.push_str(rest.get(..at).unwrap_or_default());
                out.push_str(if whole { value } else { &reference });
                rest = after;
            }
            out.push_str(rest);
            expanded = out;
        }
        expanded
    }

    /// A word with quotes and escapes removed; the programs its substitutions run are walked
    /// (as commands of their own) and returned.
    pub(super) fn word(&mut self, raw: &str, ctx: &Context) -> (String, Vec<String>) {
        if !raw.contains(['\'', '"', '\\', '$', '`', '~']) {
            return (raw.to_string(), Vec::new());
        }
        if raw.starts_with('~') {
            if let Some(home) = user_home(raw) {
                return (home, Vec::new());
            }
        }
        if let Some(text) = scan::plain_text(raw) {
            return (text, Vec::new());
        }
        let options = &self.options;
        let parsed = std::panic::catch_unwind(|| word::parse(raw, options)).ok().and_then(Result::ok);
        match parsed.ok_or(()) {
            Ok(pieces) => {
                let mut text = String::new();
                let mut programs = Vec::new();
                self.pieces(raw, &pieces, false, ctx, &mut text, &mut programs);
                (text, programs)
            }
            Err(_) => (raw.chars().filter(|c| !"'\"\\".contains(*c)).collect(), Vec::new()),
        }
    }

    pub(super) fn pieces(
        &mut self,
        raw: &str,
        pieces: &[WordPieceWithSource],
        quoted: bool,
        ctx: &Context,
        text: &mut String,
        programs: &mut Vec<String>,
    ) {
        for piece in pieces {
            let source = raw.get(piece.start_index..piece.end_index).unwrap_or_default();
            match &piece.piece {
                WordPiece::Text(plain) => text.push_str(plain),
                WordPiece::SingleQuotedText(plain) => text.push_str(plain),
                WordPiece::AnsiCQuotedText(escaped) => text.push_str(&ansi_c(escaped)),
                WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    self.pieces(raw, inner, true, ctx, text, programs);
                }
                WordPiece::EscapeSequence(escape) => {
                    let escaped = escape.strip_prefix('\\').unwrap_or(escape);
                    // Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and
                    // a newline; before anything else it stays.
                    if quoted && !escaped.starts_with(['$', '`', '"', '\\', '\n']) {
                        text.push('\\');
                    }
                    if escaped != "\n" {
                        text.push_str(escaped);
                    }
                }
                WordPiece::TildeExpansion(tilde) => match tilde {
                    TildeExpr::Home => text.push('~'),
                    TildeExpr::WorkingDir => text.push('.'),
                    TildeExpr::UserHome(user) => match user_home(&format!("~{user}")) {
                        Some(home) if text.is_empty() => text.push_str(&home),
                        _ => {
                            text.push('~');
                            text.push_str(user);
                        }
                    },
                    _ => text.push_str(source),
                },
                WordPiece::ParameterExpansion(ParameterExpr::Parameter {
                    parameter: Parameter::Named(name),
                    indirect: false,
                }) => {
                    // `$HOME` at a word's start is the home directory, `~` to the path model;
                    // `${X}` and `"$X"` are otherwise both written `$X`.
                    if name == "HOME" && text.is_empty() {
                        text.push('~');
                    } else if TEMP_VARIABLES.contains(&name.as_str()) && text.is_empty() && !self.temp_set {
                        text.push_str("/tmp");
                    } else if name == "PWD" && text.is_empty() {
                        text.push('.');
                    } else if let Some(value) = self.variables.get(name.as_str()).filter(|value| {
                        // Unquoted, the shell splits a value and expands its globs: only a value
                        // with neither reads as one word.
                        let separators = self.separators();
                        quoted
                            || separators.is_some_and(|separators| !value.contains(|c| separators.contains(c)))
                                && !value.contains(['*', '?', '['])
                    }) {
                        text.push_str(value);
                    } else if let Some(value) = self.maybe.get(name.as_str()).cloned() {
                        // After `${V:=W}`, `$V` is its value or W.
                        let spelling = format!("${name}");
                        text.push_str(&spelling);
                        self.defaults.push((spelling, value));
                    } else {
                        text.push('$');
                        text.push_str(name);
                    }
                }
                // `${V:-W}`, `${V:=W}`, `${V:+W}`: `V`'s value (known only at run time, or as the
                // line set it once), or W, where W is text; `:=` also sets `V` for later words.
                WordPiece::ParameterExpansion(
                    ParameterExpr::UseDefaultValues {
                        parameter: Parameter::Named(name),
                        indirect: false,
                        default_value: Some(value),
                        ..
                    }
                    | ParameterExpr::AssignDefaultValues {
                        parameter: Parameter::Named(name),
                        indirect: false,
                        default_value: Some(value),
                        ..
                    }
                    | ParameterExpr::UseAlternativeValue {
                        parameter: Parameter::Named(name),
                        indirect: false,
                        alternative_value: Some(value),
                        ..
                    },
                ) if !matches!(name.as_str(), "HOME" | "PWD") && scan::plain_text(value).is_some() => {
                    // (A variable the line sets may be set only in a subshell or a branch, or
                    // empty: the default reads either way. Inside double quotes a `~` is text.)
                    let value = scan::plain_text(value).unwrap_or_default();
                    let value = match (quoted, value.starts_with('~')) {
                        (true, true) => format!("./{value}"),
                        (false, _) => value.trim().to_string(),
                        (true, false) => value,
                    };
                    let assigns = source.contains(&format!("{name}:=")) || source.contains(&format!("{name}="));
                    text.push_str(source);
                    self.defaults.push((source.to_string(), value.clone()));
                    if assigns && !self.variables.contains_key(name.as_str()) {
                        self.maybe.insert(name.clone(), value);
                    }
                }
                // `r$()m`: an empty substitution is an empty string.
                WordPiece::CommandSubstitution(script) | WordPiece::BackquotedCommandSubstitution(script)
                    if script.trim().is_empty() => {}
                WordPiece::CommandSubstitution(script) | WordPiece::BackquotedCommandSubstitution(script) => {
                    let start = self.out.commands.len();
                    self.script(script, &ctx.nested());
                    programs.extend(self.programs_since(start));
                    // `$(echo rm) -rf ~`, `$(printf r)m`: a substitution of one `echo` or
                    // `printf` whose output is one plain word is that word.
                    match self.out.commands.get(start..).and_then(spelled_output) {
                        Some(word) => text.push_str(&word),
                        None => text.push_str(source),
                    }
                }
                WordPiece::ParameterExpansion(_) | WordPiece::ArithmeticExpression(_) => {
                    // `${HOME:?}`, `${HOME%/}`: still the home directory; `${x:-$(…)}` runs.
                    // `${HOME:?}`, `${HOME:-x}`, `${HOME%/}`; not `${PWD%/*}` (the parent), nor
                    // any other operator, which makes it something else.
                    let named = |name: &str| {
                        source.strip_prefix("${").and_then(|rest| rest.strip_prefix(name)).is_some_and(|rest| {
                            rest.starts_with(":?") || rest.starts_with(":-") || rest.starts_with("%/}") || rest == "}"
                        })
                    };
                    if text.is_empty() && named("HOME") {
                        text.push('~');
                    } else if text.is_empty() && named("PWD") {
                        text.push('.');
                    } else {
                        text.push_str(source);
                    }
                    programs.extend(self.embedded(source, ctx));
                }
            }
        }
    }
}
