//! The walk over a line's syntax: lists, pipelines, compound commands, substitutions and the
//! scripts handed to a shell, down to each simple command and what it reads and writes.

use super::*;

/// What encloses the command being read.
#[derive(Debug, Clone, Default)]
pub(super) struct Context {
    pub(super) via: Vec<String>,
    pub(super) inputs: Vec<String>,
    /// The words an `echo`/`printf` earlier in the pipeline writes to this command's input
    /// (what `xargs` appends, what `sh` runs).
    pub(super) piped_words: Vec<String>,
    pub(super) depth: usize,
}

impl Context {
    pub(super) fn nested(&self) -> Context {
        Context { depth: self.depth + 1, ..self.clone() }
    }
}

/// What a redirection gives a command as its input.
pub(super) enum Stdin {
    /// Text the line spells: a heredoc's, a here-string's.
    Spelled(String),
    /// A file (`< seed.sql`).
    File(String),
}

/// A simple command's parts as read so far.
#[derive(Default)]
pub(super) struct Read {
    pub(super) words: Vec<String>,
    /// Programs of the substitutions in its words.
    pub(super) fed: Vec<String>,
    /// A heredoc's or here-string's text.
    pub(super) stdin_script: Option<String>,
    /// `NAME=VALUE` words before the program (alone, they set shell variables).
    pub(super) assignments: Vec<(String, String)>,
    /// The file an input redirection gives it (`< seed.sql`).
    pub(super) stdin_file: Option<String>,
}

impl Read {
    /// An input redirection's file: a second one leaves which file is the input unknown (the
    /// scanner does not keep descriptors: `psql < a.sql 3< b.sql`), spelled as no file.
    pub(super) fn input_file(&mut self, file: String) {
        self.stdin_file = Some(if self.stdin_file.is_some() { String::new() } else { file });
    }

    /// Keeps a `NAME=VALUE` word (its quotes and escapes removed) as an assignment.
    pub(super) fn assign(&mut self, text: &str) {
        if let Some((name, value)) = text.split_once('=') {
            self.assignments.push((name.to_string(), value.to_string()));
        }
    }
}

#[derive(Default)]
pub(super) struct Walker {
    pub(super) out: CommandLine,
    pub(super) options: ParserOptions,
    /// Every line through brush-parser, the scanner's fast path off (for the differential test).
    pub(super) parser_only: bool,
    /// Whether brush-parser rejected some script (which the tolerant splitter then read).
    pub(super) rejected: bool,
    /// What the last command at its pipeline stage's own level writes to its output, when the
    /// line spells it (`echo WORDS`, `printf FORMAT ARGS`, `cat` of a heredoc).
    pub(super) output: Option<Vec<String>>,
    /// Where earlier `cd`s/`pushd`s of the line may have moved (besides where the call runs).
    pub(super) dirs: Vec<String>,
    /// The line names a temp-directory variable other than to read it (`TMPDIR=~ rm -rf
    /// $TMPDIR`, `export TMPDIR=/`, `read TMPDIR`): `$TMPDIR` is then not known to be `/tmp`.
    pub(super) temp_set: bool,
    /// The line as the agent sent it, for [`set_once`].
    pub(super) line: String,
    /// Variables the line sets once to a value it spells (`W='rm -rf ~'; eval "$W"`): their
    /// expansions are that value.
    pub(super) variables: std::collections::HashMap<String, String>,
    /// The host's file names fold case: program names are read in lower case.
    pub(super) fold: bool,
    /// The words at hand reached no shell (an argv array, PowerShell's native command): a
    /// program word is not a glob. Scripts read in turn are a shell's words again.
    pub(super) unexpanded: bool,
    /// `IFS` as the line sets it once (`IFS=,`), when it does.
    pub(super) ifs: Option<String>,
    /// Variables a `${V:=W}` may have assigned (`V` is its value or `W`): a later `$V` reads
    /// both ways.
    pub(super) maybe: std::collections::HashMap<String, String>,
    /// The simple command at hand's words that read two ways (`${V:-W}` is `V`'s value or
    /// `W`): each spelling as written, and its other reading.
    pub(super) defaults: Vec<(String, String)>,
    /// The file the simple command at hand reads as its input (`psql db < seed.sql`).
    pub(super) stdin_file: Option<String>,
    /// Aliases the line defines (`alias r='rm -rf'`, `BASH_ALIASES[r]=…`), every text given
    /// to each name: a later command named so reads as written and as each text.
    pub(super) aliases: Vec<(String, String)>,
    /// The aliases being expanded, which expand no further (`alias rm='rm -i'`), as bash does.
    pub(super) expanding: Vec<String>,
    /// Each alias's text with where it was defined, read alone when the line is read if no
    /// command of the line used the alias (a use reads it with its words).
    pub(super) unused_aliases: Vec<(String, String, Context)>,
}

impl Walker {
    /// Reads a script: a shell's words, whatever read the words that handed it over.
    pub(super) fn script(&mut self, text: &str, ctx: &Context) {
        let unexpanded = std::mem::replace(&mut self.unexpanded, false);
        self.shell_script(text, ctx);
        self.unexpanded = unexpanded;
    }

    fn shell_script(&mut self, text: &str, ctx: &Context) {
        // The tolerant splitter already split the whole line: what it nests is seen, but for
        // the words an `eval` joins, read once more (tolerantly, so no deeper).
        if ctx.depth > MAX_DEPTH + 2 {
            self.out.unread(unread::BOUND, &format!("scripts nested more than {} deep", MAX_DEPTH + 2));
            return;
        }
        // `rm${IFS}-rf${IFS}/`: the field separator splits words as a blank does.
        let text: Cow<'_, str> = if text.contains("IFS") {
            Cow::Owned(text.replace("${IFS}", " ").replace("$IFS", " "))
        } else {
            Cow::Borrowed(text)
        };
        let text = text.as_ref();
        let (brackets, parentheses) = nesting(text);
        let bound = match () {
            _ if ctx.depth > MAX_DEPTH => Some(format!("scripts nested more than {MAX_DEPTH} deep")),
            _ if text.len() > MAX_PARSED => Some(format!("a script longer than {} KiB", MAX_PARSED / 1024)),
            _ if brackets > MAX_NESTING => Some(format!("brackets nested more than {MAX_NESTING} deep")),
            _ if parentheses > MAX_PARENTHESES => Some(format!("parentheses nested more than {MAX_PARENTHESES} deep")),
            _ if huge_descriptor(text) || odd_heredoc(text) => Some("a spelling the parser cannot take".to_string()),
            _ => None,
        };
        if let Some(bound) = bound {
            // Read tolerantly, so nothing hides behind the bound; and said, since a tolerant
            // reading is not the shell's.
            self.out.unread(unread::BOUND, &format!("shell: {bound}"));
            return self.tolerant(text, ctx);
        }
        if let Some(items) = scan::scan(text).filter(|_| !self.parser_only) {
            return self.scanned(&items, ctx);
        }
        // A parser panic (brush-parser unwraps inside) must not take the hook down — an exit
        // other than 0 or 2 lets the agent run the call: it is a rejected line.
        let parse = |text: &str| {
            let mut parser = brush_parser::Parser::new(std::io::Cursor::new(text), &self.options);
            std::panic::catch_unwind(AssertUnwindSafe(|| parser.parse_program())).ok().and_then(Result::ok)
        };
        // A heredoc the text never closes ends where the text does, as bash reads it (with a
        // warning): closed so, the text is read whole (`bash <<'E'` then `curl … |` and `sh`
        // on the next lines is one pipeline), not line by line. Tried once.
        let parsed =
            parse(text).ok_or(()).or_else(|()| close_heredocs(text).and_then(|closed| parse(&closed)).ok_or(()));
        match parsed {
            Ok(program) => program.complete_commands.iter().for_each(|list| self.list(list, ctx)),
            Err(_) => {
                self.rejected = true;
                // A shell runs the lines before a syntax error: read each line on its own, and
                // only a line that fails alone tolerantly.
                let joined = text.replace("\\\n", "");
                if joined.trim_end().contains('\n') {
                    joined.lines().for_each(|line| self.script(line, ctx));
                } else {
                    self.tolerant(text, ctx);
                }
            }
        }
    }

    /// A line the parser rejects (an unclosed quote, a construct it does not know, hostile
    /// nesting) is read with quotes and brackets dropped, by the scanner in its tolerant mode,
    /// and split after each shell's `-c` and each `eval`: a shell that does run it runs no
    /// fewer words.
    pub(super) fn tolerant(&mut self, text: &str, ctx: &Context) {
        let ctx = Context { depth: ctx.depth.max(MAX_DEPTH + 1), ..ctx.clone() };
        let items = scan::scan_tolerant(text);
        self.scanned(&items, &ctx);
    }

    pub(super) fn list(&mut self, list: &ast::CompoundList, ctx: &Context) {
        for ast::CompoundListItem(and_or, _) in &list.0 {
            self.pipeline(&and_or.first, ctx);
            for next in &and_or.additional {
                match next {
                    ast::AndOr::And(pipeline) | ast::AndOr::Or(pipeline) => self.pipeline(pipeline, ctx),
                }
            }
        }
    }

    pub(super) fn pipeline(&mut self, pipeline: &ast::Pipeline, ctx: &Context) {
        self.stages(pipeline.seq.len(), ctx, |walker, at, inner| {
            if let Some(command) = pipeline.seq.get(at) {
                walker.node(command, inner);
            }
        });
    }

    /// A pipeline of `count` stages: each stage reads what the earlier ones wrote.
    pub(super) fn stages(&mut self, count: usize, ctx: &Context, mut stage: impl FnMut(&mut Walker, usize, &Context)) {
        let mut upstream: Vec<String> = Vec::new();
        let mut piped_words: Vec<String> = Vec::new();
        for at in 0..count {
            let mut inner = ctx.clone();
            inner.inputs.extend(upstream.iter().cloned());
            if !piped_words.is_empty() {
                inner.piped_words = std::mem::take(&mut piped_words);
            }
            let start = self.out.commands.len();
            self.output = None;
            stage(self, at, &inner);
            for command in self.out.commands.get(start..).unwrap_or_default() {
                if !upstream.contains(&command.program) {
                    upstream.push(command.program.clone());
                }
            }
            // `echo / | xargs rm -rf`, `echo 'rm -rf /' | sh`, `cat <<EOF | sh`: what the stage
            // writes, when the line spells it.
            if let Some(output) = self.output.take() {
                piped_words = output;
            }
        }
    }

    /// A line the scanner read: pipelines split at `;`, `&&`, `||`, `&` and newlines.
    pub(super) fn scanned(&mut self, items: &[scan::Item], ctx: &Context) {
        use scan::{Item, Op};
        for pipeline in items.split(|item| matches!(item, Item::Op(Op::Sequence | Op::AndOr))) {
            let stages: Vec<&[Item]> = pipeline.split(|item| matches!(item, Item::Op(Op::Pipe))).collect();
            self.stages(stages.len(), ctx, |walker, at, inner| {
                if let Some(stage) = stages.get(at) {
                    walker.scanned_command(stage, inner);
                }
            });
        }
    }

    /// One simple command the scanner read.
    pub(super) fn scanned_command(&mut self, items: &[scan::Item], ctx: &Context) {
        use scan::{Item, Redirect};
        let outer = std::mem::take(&mut self.defaults);
        let mut read = Read::default();
        let mut prefix = true;
        for item in items {
            match item {
                Item::Word(raw) => {
                    let substituted = raw.strip_prefix("<(").or_else(|| raw.strip_prefix(">("));
                    if let Some(script) = substituted.and_then(|rest| rest.strip_suffix(')')) {
                        let start = self.out.commands.len();
                        self.script(script, &ctx.nested());
                        read.fed.extend(self.programs_since(start));
                        read.words.push("/dev/fd/63".to_string());
                        prefix = false;
                        continue;
                    }
                    // `A=b cmd`: an assignment before the command is not one of its words.
                    if prefix && scan::is_assignment(raw) {
                        let (text, programs) = self.word(raw, ctx);
                        read.fed.extend(programs);
                        read.assign(&text);
                        continue;
                    }
                    prefix = false;
                    if let Some(words) = self.split_variable(raw) {
                        read.words.extend(words);
                        continue;
                    }
                    for expanded in scan::expand_braces(raw) {
                        let (text, programs) = self.word(&expanded, ctx);
                        read.fed.extend(programs);
                        read.words.push(text);
                    }
                }
                Item::Redirect(Redirect::HereString, raw) => {
                    let (text, programs) = self.word(raw, ctx);
                    read.fed.extend(programs);
                    read.stdin_script = Some(text);
                }
                Item::Redirect(kind, raw) => {
                    let (target, _) = self.word(raw, ctx);
                    let access = match kind {
                        Redirect::Read => {
                            read.input_file(target.clone());
                            Access::Read
                        }
                        Redirect::Duplicate if is_descriptor(&target) => continue,
                        _ => Access::Write,
                    };
                    self.file(target, access);
                }
                Item::Op(_) => {}
            }
        }
        self.finish(read, outer, ctx);
    }

    pub(super) fn node(&mut self, command: &ast::Command, ctx: &Context) {
        match command {
            ast::Command::Simple(simple) => self.simple(simple, ctx),
            ast::Command::Compound(compound, redirects) => {
                self.compound(compound, ctx);
                if let Some(redirects) = redirects {
                    for redirect in &redirects.0 {
                        self.redirect(redirect, ctx);
                    }
                }
            }
            ast::Command::Function(function) => {
                self.compound(&function.body.0, ctx);
            }
            ast::Command::ExtendedTest(test, _) => {
                self.embedded(&test.to_string(), ctx);
            }
        }
    }

    pub(super) fn compound(&mut self, compound: &ast::CompoundCommand, ctx: &Context) {
        match compound {
            ast::CompoundCommand::BraceGroup(group) => self.list(&group.list, ctx),
            ast::CompoundCommand::Subshell(subshell) => self.list(&subshell.list, ctx),
            ast::CompoundCommand::ForClause(clause) => {
                for value in clause.values.iter().flatten() {
                    self.word(&value.value, ctx);
                }
                self.list(&clause.body.list, ctx);
            }
            ast::CompoundCommand::CaseClause(clause) => {
                self.word(&clause.value.value, ctx);
                for case in &clause.cases {
                    for pattern in &case.patterns {
                        self.word(&pattern.value, ctx);
                    }
                    if let Some(list) = &case.cmd {
                        self.list(list, ctx);
                    }
                }
            }
            ast::CompoundCommand::IfClause(clause) => {
                self.list(&clause.condition, ctx);
                self.list(&clause.then, ctx);
                for other in clause.elses.iter().flatten() {
                    if let Some(condition) = &other.condition {
                        self.list(condition, ctx);
                    }
                    self.list(&other.body, ctx);
                }
            }
            ast::CompoundCommand::WhileClause(clause) | ast::CompoundCommand::UntilClause(clause) => {
                self.list(&clause.0, ctx);
                self.list(&clause.1.list, ctx);
            }
            ast::CompoundCommand::Coprocess(coprocess) => self.node(&coprocess.body, ctx),
            ast::CompoundCommand::Arithmetic(arithmetic) => {
                let text = arithmetic.to_string();
                self.embedded(&text, ctx);
                // `( ( rm -rf / ) )` is two subshells to bash, arithmetic to the parser: read
                // the inside as commands too (over-reading is safe).
                let inner = text.trim().trim_start_matches("((").trim_end_matches("))");
                self.script(inner, &ctx.nested());
            }
            ast::CompoundCommand::ArithmeticForClause(clause) => {
                self.embedded(&clause.to_string(), ctx);
            }
        }
    }

    pub(super) fn simple(&mut self, simple: &ast::SimpleCommand, ctx: &Context) {
        // (A `$(…)` in a word reads simple commands of its own: each keeps its own defaults.)
        let outer = std::mem::take(&mut self.defaults);
        let mut read = Read::default();
        for each in simple.prefix.iter().flat_map(|prefix| &prefix.0) {
            self.item(each, true, &mut read, ctx);
        }
        if let Some(name) = &simple.word_or_name {
            self.item(&ast::CommandPrefixOrSuffixItem::Word(name.clone()), false, &mut read, ctx);
        }
        for each in simple.suffix.iter().flat_map(|suffix| &suffix.0) {
            self.item(each, false, &mut read, ctx);
        }
        self.finish(read, outer, ctx);
    }

    /// A simple command read, by the parser or the scanner: its assignments are kept, and the
    /// command is read, once as written and, where a word reads two ways (`rm -rf ${D:-/}`),
    /// once more with each such word's other reading. `outer` is the enclosing command's own
    /// two-way words, put back.
    pub(super) fn finish(&mut self, read: Read, outer: Vec<(String, String)>, ctx: &Context) {
        if read.words.is_empty() {
            self.assign(&read.assignments);
        }
        self.command_variables(&read.assignments, ctx);
        // `LD_PRELOAD=/tmp/x.so ls` is `env LD_PRELOAD=/tmp/x.so ls`: the environment the command
        // runs in, recorded as `env`'s words, one spelling for rules either way.
        if !read.words.is_empty() && !read.assignments.is_empty() && self.out.commands.len() < MAX_COMMANDS {
            let words: Vec<String> = read.assignments.iter().map(|(name, value)| format!("{name}={value}")).collect();
            self.record("env", &words, &ctx.via, &ctx.inputs);
        }
        let defaults = std::mem::replace(&mut self.defaults, outer);
        let other = (!defaults.is_empty()).then(|| {
            let mut words = read.words.clone();
            for word in &mut words {
                for (spelling, value) in &defaults {
                    *word = word.replacen(spelling.as_str(), value, 1);
                }
            }
            words
        });
        let readings = std::iter::once(read.words).chain(other);
        let stdin_file = std::mem::replace(&mut self.stdin_file, read.stdin_file.clone());
        for words in readings {
            if ctx.depth > MAX_DEPTH {
                // Tolerantly read, quotes are gone: `bash -c rm -rf /` is two commands.
                for words in split_scripts(words) {
                    self.command(words, read.fed.clone(), read.stdin_script.clone(), ctx);
                }
            } else {
                self.command(words, read.fed.clone(), read.stdin_script.clone(), ctx);
            }
        }
        self.stdin_file = stdin_file;
    }

    /// One word, assignment, redirection or process substitution of a simple command.
    pub(super) fn item(&mut self, item: &ast::CommandPrefixOrSuffixItem, prefix: bool, read: &mut Read, ctx: &Context) {
        match item {
            ast::CommandPrefixOrSuffixItem::Word(word) => {
                if let Some(words) = self.split_variable(&word.value) {
                    read.words.extend(words);
                    return;
                }
                for expanded in scan::expand_braces(&word.value) {
                    let (text, programs) = self.word(&expanded, ctx);
                    read.words.push(text);
                    read.fed.extend(programs);
                }
            }
            ast::CommandPrefixOrSuffixItem::AssignmentWord(_, word) => {
                let (text, programs) = self.word(&word.value, ctx);
                read.fed.extend(programs);
                // `dd of=/dev/sda`: after the program, an assignment-shaped word is a word.
                if prefix {
                    read.assign(&text);
                } else {
                    read.words.push(text);
                }
            }
            ast::CommandPrefixOrSuffixItem::IoRedirect(redirect) => {
                let start = self.out.commands.len();
                match self.redirect(redirect, ctx) {
                    Some(Stdin::Spelled(script)) => read.stdin_script = Some(script),
                    Some(Stdin::File(file)) => read.input_file(file),
                    None => {}
                }
                // `bash < <(curl …)`, `sh <<< "$(curl …)"`: what feeds the command's input.
                read.fed.extend(self.programs_since(start));
            }
            ast::CommandPrefixOrSuffixItem::ProcessSubstitution(_, subshell) => {
                let start = self.out.commands.len();
                self.list(&subshell.list, &ctx.nested());
                read.fed.extend(self.programs_since(start));
                read.words.push("/dev/fd/63".to_string());
            }
        }
    }

    /// The `$(…)` and backquoted scripts inside a text the parser keeps whole (`[[ … ]]`,
    /// `(( … ))`, `${x:-…}`, a heredoc's body), walked; the programs they run.
    pub(super) fn embedded(&mut self, text: &str, ctx: &Context) -> Vec<String> {
        let start = self.out.commands.len();
        for script in scan::substitutions(text) {
            self.script(script, &ctx.nested());
        }
        self.programs_since(start)
    }

    pub(super) fn programs_since(&self, start: usize) -> Vec<String> {
        self.out.commands.get(start..).unwrap_or_default().iter().map(|command| command.program.clone()).collect()
    }

    /// A redirection: the file it reads or writes; for a heredoc or here-string, its text
    /// (the script a shell reading standard input runs), and for an input file its name.
    pub(super) fn redirect(&mut self, redirect: &ast::IoRedirect, ctx: &Context) -> Option<Stdin> {
        match redirect {
            ast::IoRedirect::File(fd, kind, target) => {
                let word = match target {
                    ast::IoFileRedirectTarget::Filename(word) => word,
                    ast::IoFileRedirectTarget::Duplicate(word) => {
                        // `>&2` duplicates a descriptor; `>& file` writes the file.
                        let text = self.word(&word.value, ctx).0;
                        if is_descriptor(&text) {
                            return None;
                        }
                        word
                    }
                    ast::IoFileRedirectTarget::Fd(_) => return None,
                    ast::IoFileRedirectTarget::ProcessSubstitution(_, subshell) => {
                        self.list(&subshell.list, &ctx.nested());
                        return None;
                    }
                };
                let (target, _) = self.word(&word.value, ctx);
                let (access, stdin) = match kind {
                    // (`3< x` opens another descriptor: only 0 is the command's input.)
                    ast::IoFileRedirectKind::Read if fd.is_none_or(|fd| fd == 0) => {
                        (Access::Read, Some(Stdin::File(target.clone())))
                    }
                    ast::IoFileRedirectKind::Read => (Access::Read, None),
                    ast::IoFileRedirectKind::DuplicateInput => (Access::Read, None),
                    _ => (Access::Write, None),
                };
                self.file(target, access);
                stdin
            }
            ast::IoRedirect::OutputAndError(word, _) => {
                let (target, _) = self.word(&word.value, ctx);
                self.file(target, Access::Write);
                None
            }
            ast::IoRedirect::HereString(_, word) => Some(Stdin::Spelled(self.word(&word.value, ctx).0)),
            ast::IoRedirect::HereDocument(_, doc) => {
                // An unquoted delimiter: the body's substitutions run, and its variables are
                // expanded before whoever reads it sees the text.
                if doc.requires_expansion {
                    self.embedded(&doc.doc.value, ctx);
                    return Some(Stdin::Spelled(self.expand_variables(&doc.doc.value)));
                }
                Some(Stdin::Spelled(doc.doc.value.clone()))
            }
        }
    }

    pub(super) fn file(&mut self, target: String, access: Access) {
        if programs::is_device_sink(&target) || target.is_empty() {
            return;
        }
        if self.out.files.len() >= MAX_FILES {
            self.out.too_large = true;
            return;
        }
        // `> ${F:-generated.txt}`: the file as written, and as its default.
        let others: Vec<String> = self
            .defaults
            .iter()
            .filter(|(spelling, _)| target.contains(spelling.as_str()))
            .map(|(spelling, value)| target.replacen(spelling.as_str(), value, 1))
            .collect();
        for target in std::iter::once(target).chain(others) {
            for spelling in from_dirs(&self.dirs, &target) {
                self.out.files.push((spelling, access));
            }
        }
    }
}

/// `text` with a line closing each heredoc it opens and never closes, in the order bash reads
/// their bodies; `None` when every heredoc is closed (or the text opens none).
pub(super) fn close_heredocs(text: &str) -> Option<String> {
    let mut missing: Vec<String> = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    while let Some(at) = rest.find("<<") {
        let after = rest.get(at + 2..).unwrap_or_default();
        let consumed = offset + at + 2;
        if let Some(here_string) = after.strip_prefix('<') {
            offset = consumed + 1;
            rest = here_string;
            continue;
        }
        let dash = after.starts_with('-');
        let word = after.strip_prefix('-').unwrap_or(after).trim_start_matches([' ', '\t']);
        let word: String = word
            .split(|c: char| c.is_whitespace() || ";&|<>()".contains(c))
            .next()
            .unwrap_or_default()
            .chars()
            .filter(|c| !matches!(c, '\'' | '"' | '\\'))
            .collect();
        let body = text.get(consumed..).unwrap_or_default();
        let closed = body.lines().skip(1).any(|line| {
            let line = if dash { line.trim_start_matches('\t') } else { line };
            line == word
        });
        if !word.is_empty() && !closed {
            missing.push(word);
        }
        offset = consumed;
        rest = after;
    }
    (!missing.is_empty()).then(|| {
        let mut closed = text.trim_end_matches('\n').to_string();
        for word in missing {
            closed.push('\n');
            closed.push_str(&word);
        }
        closed
    })
}
