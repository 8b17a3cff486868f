//! Shell command lines as words. A shell call's command is parsed once per event, with
//! brush-parser (POSIX and bash syntax), into the simple commands it runs — through lists and
//! pipelines, subshells and groups, `if`/`for`/`while`/`case` bodies, `$(…)` and backticks,
//! process substitution, functions, and the scripts that `bash -c`, `sh -c`, `eval`, `watch`,
//! heredocs and `echo … | sh` hand to a shell. Quotes and escapes are removed; wrappers (`sudo`,
//! `env`, `xargs`, `timeout`, `find -exec`, …; `programs.rs`) are seen through; `/bin/rm` is `rm`.
//!
//! Each simple command has a program, its flags (`-rf` is `r` and `f`; `--force` is `force`;
//! `--` ends options), its operands and the programs feeding it. The files the line writes
//! (redirections, `tee`, `sed -i`, `cp`/`mv` destinations, `rm` operands, `dd of=`, …) and reads
//! (every other operand, input redirections) are collected for the path model.
//!
//! What a static reading cannot know is kept as written: `$HOME` stays `$HOME`, `$(…)` stays
//! `$(…)` (its commands are still seen), a program named by a variable stays `$CMD`. A line the
//! parser rejects is read by a tolerant splitter instead, so no spelling escapes as "not shell".

mod programs;
mod scan;

use brush_parser::ast;
use brush_parser::word::{self, Parameter, ParameterExpr, TildeExpr, WordPiece, WordPieceWithSource};
use brush_parser::ParserOptions;
use programs::Writes;

/// How deep scripts nest (`bash -c "sh -c '…'"`, `$(…)` in `$(…)`) before the rest is read by
/// the tolerant splitter, which does not nest: work stays linear in the line's length.
const MAX_DEPTH: usize = 6;

/// Lines longer than this, or nesting brackets deeper than `MAX_NESTING`, go to the tolerant
/// splitter: the parser recurses per bracket, and a hostile line must not exhaust the stack.
const MAX_PARSED: usize = 64 * 1024;
const MAX_NESTING: usize = 48;

/// One simple command, after wrappers are seen through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Command {
    /// The program's name, without its directory (`/usr/bin/rm` is `rm`).
    pub program: String,
    /// Its first operand (`push` in `git -C . push`), if any.
    pub subcommand: Option<String>,
    /// Option names: `-rf` gives `r` and `f`, `--force=x` gives `force`.
    pub flags: Vec<String>,
    /// The words that are not options or option values.
    pub operands: Vec<String>,
    /// Every word after the program, unquoted.
    pub words: Vec<String>,
    /// The wrappers and shells it was run through (`sudo`, `bash`, `xargs`, `find`, `eval`).
    pub via: Vec<String>,
    /// Programs whose output it reads: earlier commands of its pipeline, and the commands of
    /// `$(…)`, backticks and `<(…)` in its words.
    pub inputs: Vec<String>,
}

/// Whether a command line reads or writes a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Access {
    /// Read (or named as an operand).
    Read,
    /// Written, created, truncated, moved or removed.
    Write,
}

/// A command line as words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CommandLine {
    /// Every simple command it runs, in source order (a wrapper's command after the wrapper's
    /// own words are read; a script's commands after the shell that runs it).
    pub commands: Vec<Command>,
    /// The files it names, as written, with how it uses each (a file may appear twice).
    pub files: Vec<(String, Access)>,
}

impl CommandLine {
    /// The program of every command, each once.
    pub(crate) fn programs(&self) -> Vec<&str> {
        let mut programs: Vec<&str> = Vec::new();
        for command in &self.commands {
            if !programs.contains(&command.program.as_str()) {
                programs.push(&command.program);
            }
        }
        programs
    }

    /// `program subcommand` for every command with a subcommand (`git push`), each once.
    pub(crate) fn program_subcommands(&self) -> Vec<String> {
        let mut pairs: Vec<String> = Vec::new();
        for command in &self.commands {
            if let Some(subcommand) = &command.subcommand {
                let pair = format!("{} {subcommand}", command.program);
                if !pairs.contains(&pair) {
                    pairs.push(pair);
                }
            }
        }
        pairs
    }
}

/// Parses a command line as a shell would.
pub(crate) fn analyse(line: &str) -> CommandLine {
    let mut walker = Walker::default();
    walker.script(line, &Context::default());
    walker.out
}

/// Parses a command line with brush-parser alone (the scanner's fast path off).
/// `None` when brush-parser rejects some part of it.
#[cfg(test)]
fn analyse_with_parser(line: &str) -> Option<CommandLine> {
    let mut walker = Walker { parser_only: true, ..Walker::default() };
    walker.script(line, &Context::default());
    (!walker.rejected).then_some(walker.out)
}

/// Reads an argv array (Codex's `shell` tool) as one simple command.
pub(crate) fn analyse_argv(argv: &[String]) -> CommandLine {
    let mut walker = Walker::default();
    walker.command(argv.to_vec(), Vec::new(), None, &Context::default());
    walker.out
}

/// What encloses the command being read.
#[derive(Debug, Clone, Default)]
struct Context {
    via: Vec<String>,
    inputs: Vec<String>,
    /// The words an `echo`/`printf` earlier in the pipeline writes to this command's input
    /// (what `xargs` appends, what `sh` runs).
    piped_words: Vec<String>,
    depth: usize,
}

impl Context {
    fn nested(&self) -> Context {
        Context { depth: self.depth + 1, ..self.clone() }
    }
}

/// A simple command's parts as read so far.
#[derive(Default)]
struct Read {
    words: Vec<String>,
    /// Programs of the substitutions in its words.
    fed: Vec<String>,
    /// A heredoc's or here-string's text.
    stdin_script: Option<String>,
}

#[derive(Default)]
struct Walker {
    out: CommandLine,
    options: ParserOptions,
    /// Every line through brush-parser, the scanner's fast path off (for the differential test).
    parser_only: bool,
    /// Whether brush-parser rejected some script (which the tolerant splitter then read).
    rejected: bool,
}

impl Walker {
    fn script(&mut self, text: &str, ctx: &Context) {
        // The tolerant splitter already split the whole line: what it nests is seen, but for
        // the words an `eval` joins, read once more (tolerantly, so no deeper).
        if ctx.depth > MAX_DEPTH + 2 {
            return;
        }
        if ctx.depth > MAX_DEPTH || text.len() > MAX_PARSED || nesting(text) > MAX_NESTING {
            return self.tolerant(text, ctx);
        }
        if let Some(items) = scan::scan(text).filter(|_| !self.parser_only) {
            return self.scanned(&items, ctx);
        }
        let mut parser = brush_parser::Parser::new(std::io::Cursor::new(text), &self.options);
        match parser.parse_program() {
            Ok(program) => program.complete_commands.iter().for_each(|list| self.list(list, ctx)),
            Err(_) => {
                self.rejected = true;
                self.tolerant(text, ctx);
            }
        }
    }

    /// A line the parser rejects (an unclosed quote, a construct it does not know, hostile
    /// nesting) is split at operators and blanks, quotes dropped, and after each shell's `-c`
    /// and each `eval`: a shell that does run it runs no fewer words.
    fn tolerant(&mut self, text: &str, ctx: &Context) {
        let ctx = Context { depth: ctx.depth.max(MAX_DEPTH + 1), ..ctx.clone() };
        for piece in text.replace("$(", ";").split(|c: char| ";&|()`\n{}".contains(c)) {
            let mut words: Vec<String> = Vec::new();
            let mut shell = false;
            for word in piece.split_whitespace() {
                let word: String = word.chars().filter(|c| !"'\"\\<>".contains(*c)).collect();
                if word.is_empty() {
                    continue;
                }
                let name = program_name(&word);
                let ends_command = (shell && word.starts_with('-') && word.contains('c'))
                    || (words.is_empty() && programs::runs_words_as_script(&name));
                shell = programs::is_shell(&name);
                words.push(word);
                if ends_command {
                    self.command(std::mem::take(&mut words), Vec::new(), None, &ctx);
                }
            }
            if !words.is_empty() {
                self.command(words, Vec::new(), None, &ctx);
            }
        }
    }

    fn list(&mut self, list: &ast::CompoundList, ctx: &Context) {
        for ast::CompoundListItem(and_or, _) in &list.0 {
            self.pipeline(&and_or.first, ctx);
            for next in &and_or.additional {
                match next {
                    ast::AndOr::And(pipeline) | ast::AndOr::Or(pipeline) => self.pipeline(pipeline, ctx),
                }
            }
        }
    }

    fn pipeline(&mut self, pipeline: &ast::Pipeline, ctx: &Context) {
        self.stages(pipeline.seq.len(), ctx, |walker, at, inner| {
            if let Some(command) = pipeline.seq.get(at) {
                walker.node(command, inner);
            }
        });
    }

    /// A pipeline of `count` stages: each stage reads what the earlier ones wrote.
    fn stages(&mut self, count: usize, ctx: &Context, mut stage: impl FnMut(&mut Walker, usize, &Context)) {
        let mut upstream: Vec<String> = Vec::new();
        let mut piped_words: Vec<String> = Vec::new();
        for at in 0..count {
            let mut inner = ctx.clone();
            inner.inputs.extend(upstream.iter().cloned());
            if !piped_words.is_empty() {
                inner.piped_words = std::mem::take(&mut piped_words);
            }
            let start = self.out.commands.len();
            stage(self, at, &inner);
            for command in self.out.commands.get(start..).unwrap_or_default() {
                if !upstream.contains(&command.program) {
                    upstream.push(command.program.clone());
                }
            }
            // `echo / | xargs rm -rf`, `echo 'rm -rf /' | sh`: the words echo writes are known.
            if let Some(head) = self.out.commands.get(start..).and_then(<[Command]>::first) {
                if matches!(head.program.as_str(), "echo" | "printf") && head.via.len() == ctx.via.len() {
                    piped_words = head.operands.clone();
                }
            }
        }
    }

    /// A line the scanner read: pipelines split at `;`, `&&`, `||`, `&` and newlines.
    fn scanned(&mut self, items: &[scan::Item], ctx: &Context) {
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
    fn scanned_command(&mut self, items: &[scan::Item], ctx: &Context) {
        use scan::{Item, Redirect};
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
                    let (text, programs) = self.word(raw, ctx);
                    read.fed.extend(programs);
                    // `A=b cmd`: an assignment before the command is not one of its words.
                    if prefix && scan::is_assignment(raw) {
                        continue;
                    }
                    prefix = false;
                    read.words.push(text);
                }
                Item::Redirect(Redirect::HereString, raw) => read.stdin_script = Some(self.word(raw, ctx).0),
                Item::Redirect(kind, raw) => {
                    let (target, _) = self.word(raw, ctx);
                    let access = match kind {
                        Redirect::Read => Access::Read,
                        Redirect::Duplicate if target.chars().all(|c| c.is_ascii_digit()) || target == "-" => continue,
                        _ => Access::Write,
                    };
                    self.file(target, access);
                }
                Item::Op(_) => {}
            }
        }
        self.command(read.words, read.fed, read.stdin_script, ctx);
    }

    fn node(&mut self, command: &ast::Command, ctx: &Context) {
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
            ast::Command::ExtendedTest(..) => {}
        }
    }

    fn compound(&mut self, compound: &ast::CompoundCommand, ctx: &Context) {
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
                clause.cases.iter().filter_map(|case| case.cmd.as_ref()).for_each(|list| self.list(list, ctx));
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
            ast::CompoundCommand::Arithmetic(_) | ast::CompoundCommand::ArithmeticForClause(_) => {}
        }
    }

    fn simple(&mut self, simple: &ast::SimpleCommand, ctx: &Context) {
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
        self.command(read.words, read.fed, read.stdin_script, ctx);
    }

    /// One word, assignment, redirection or process substitution of a simple command.
    fn item(&mut self, item: &ast::CommandPrefixOrSuffixItem, prefix: bool, read: &mut Read, ctx: &Context) {
        match item {
            ast::CommandPrefixOrSuffixItem::Word(word) => {
                let (text, programs) = self.word(&word.value, ctx);
                read.words.push(text);
                read.fed.extend(programs);
            }
            ast::CommandPrefixOrSuffixItem::AssignmentWord(_, word) => {
                let (text, programs) = self.word(&word.value, ctx);
                read.fed.extend(programs);
                // `dd of=/dev/sda`: after the program, an assignment-shaped word is a word.
                if !prefix {
                    read.words.push(text);
                }
            }
            ast::CommandPrefixOrSuffixItem::IoRedirect(redirect) => {
                if let Some(script) = self.redirect(redirect, ctx) {
                    read.stdin_script = Some(script);
                }
            }
            ast::CommandPrefixOrSuffixItem::ProcessSubstitution(_, subshell) => {
                let start = self.out.commands.len();
                self.list(&subshell.list, &ctx.nested());
                read.fed.extend(self.programs_since(start));
                read.words.push("/dev/fd/63".to_string());
            }
        }
    }

    fn programs_since(&self, start: usize) -> Vec<String> {
        self.out.commands.get(start..).unwrap_or_default().iter().map(|command| command.program.clone()).collect()
    }

    /// A redirection: the file it reads or writes; for a heredoc or here-string, its text
    /// (the script a shell reading standard input runs).
    fn redirect(&mut self, redirect: &ast::IoRedirect, ctx: &Context) -> Option<String> {
        match redirect {
            ast::IoRedirect::File(_, kind, target) => {
                let word = match target {
                    ast::IoFileRedirectTarget::Filename(word) => word,
                    ast::IoFileRedirectTarget::Duplicate(word) => {
                        // `>&2` duplicates a descriptor; `>& file` writes the file.
                        let text = self.word(&word.value, ctx).0;
                        if text.chars().all(|c| c.is_ascii_digit()) || text == "-" {
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
                let access = match kind {
                    ast::IoFileRedirectKind::Read | ast::IoFileRedirectKind::DuplicateInput => Access::Read,
                    _ => Access::Write,
                };
                self.file(target, access);
                None
            }
            ast::IoRedirect::OutputAndError(word, _) => {
                let (target, _) = self.word(&word.value, ctx);
                self.file(target, Access::Write);
                None
            }
            ast::IoRedirect::HereString(_, word) => Some(self.word(&word.value, ctx).0),
            ast::IoRedirect::HereDocument(_, doc) => Some(doc.doc.value.clone()),
        }
    }

    fn file(&mut self, target: String, access: Access) {
        if programs::is_device_sink(&target) || target.is_empty() {
            return;
        }
        self.out.files.push((target, access));
    }

    /// A word with quotes and escapes removed; the programs its substitutions run are walked
    /// (as commands of their own) and returned.
    fn word(&mut self, raw: &str, ctx: &Context) -> (String, Vec<String>) {
        if !raw.contains(['\'', '"', '\\', '$', '`', '~']) {
            return (raw.to_string(), Vec::new());
        }
        if let Some(text) = scan::plain_text(raw) {
            return (text, Vec::new());
        }
        match word::parse(raw, &self.options) {
            Ok(pieces) => {
                let mut text = String::new();
                let mut programs = Vec::new();
                self.pieces(raw, &pieces, false, ctx, &mut text, &mut programs);
                (text, programs)
            }
            Err(_) => (raw.chars().filter(|c| !"'\"\\".contains(*c)).collect(), Vec::new()),
        }
    }

    fn pieces(
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
                    TildeExpr::UserHome(user) => {
                        text.push('~');
                        text.push_str(user);
                    }
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
                    } else {
                        text.push('$');
                        text.push_str(name);
                    }
                }
                WordPiece::CommandSubstitution(script) | WordPiece::BackquotedCommandSubstitution(script) => {
                    let start = self.out.commands.len();
                    self.script(script, &ctx.nested());
                    programs.extend(self.programs_since(start));
                    text.push_str(source);
                }
                WordPiece::ParameterExpansion(_) | WordPiece::ArithmeticExpression(_) => text.push_str(source),
            }
        }
    }

    /// One simple command's words: wrappers are seen through, then the command is recorded
    /// with the files it names, and the scripts it runs are read in turn.
    fn command(&mut self, mut words: Vec<String>, fed: Vec<String>, stdin_script: Option<String>, ctx: &Context) {
        let mut via = ctx.via.clone();
        let mut inputs = ctx.inputs.clone();
        inputs.extend(fed);
        let mut piped_words = ctx.piped_words.clone();
        while let Some(wrapper) = words
            .first()
            .map(|first| program_name(first))
            .and_then(|name| programs::wrapper_of(&name).map(|w| (name, w)))
        {
            let (program, wrapper) = wrapper;
            let args = words.get(1..).unwrap_or_default().to_vec();
            let (mut inner, split) = unwrap(&program, &wrapper, &args);
            let own = args.get(..args.len() - inner.len()).unwrap_or_default();
            self.record(&program, own, &via, &inputs);
            via.push(program.clone());
            if program == "xargs" {
                // `echo / | xargs rm -rf`: what xargs reads becomes operands.
                inner.append(&mut piped_words);
            }
            if let Some(split) = split {
                let nested =
                    Context { via: via.clone(), inputs: inputs.clone(), piped_words: Vec::new(), depth: ctx.depth + 1 };
                self.script(&split, &nested);
            }
            words = inner;
        }
        let Some(first) = words.first() else { return };
        let program = program_name(first);
        let args = words.get(1..).unwrap_or_default().to_vec();
        let parsed = parse_options(&program, &args);
        let nested = Context {
            via: [via.as_slice(), std::slice::from_ref(&program)].concat(),
            inputs: inputs.clone(),
            piped_words: Vec::new(),
            depth: ctx.depth + 1,
        };
        // The scripts this command runs.
        if programs::is_shell(&program) {
            let has_c = parsed.flags.iter().any(|flag| flag == "c");
            match (has_c, parsed.operands.first()) {
                (true, Some(script)) => self.script(script, &nested),
                (false, None) => {
                    let script = stdin_script.or_else(|| (!piped_words.is_empty()).then(|| piped_words.join(" ")));
                    if let Some(script) = script {
                        self.script(&script, &nested);
                    }
                }
                _ => {}
            }
        } else if programs::runs_words_as_script(&program) && !args.is_empty() {
            self.script(&args.join(" "), &nested);
        }
        if program == "find" {
            self.find_exec(&args, &parsed.operands, &nested);
        }
        self.files_of(&program, &parsed);
        let subcommand = parsed.operands.first().cloned();
        self.out.commands.push(Command {
            program,
            subcommand,
            flags: parsed.flags,
            operands: parsed.operands,
            words: args,
            via,
            inputs,
        });
    }

    /// Records a wrapper itself as a command (so `runs sudo` holds).
    fn record(&mut self, program: &str, args: &[String], via: &[String], inputs: &[String]) {
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
        });
    }

    /// `find ROOTS… -exec CMD ARGS… ;`: the command runs on what find finds, so `{}` stands
    /// for each root (`.` when none is given).
    fn find_exec(&mut self, args: &[String], roots: &[String], ctx: &Context) {
        let roots: Vec<String> = if roots.is_empty() { vec![".".to_string()] } else { roots.to_vec() };
        for command in find_exec_commands(args) {
            let command: Vec<String> =
                command.iter().flat_map(|word| if word == "{}" { roots.clone() } else { vec![word.clone()] }).collect();
            self.command(command, Vec::new(), None, ctx);
        }
    }

    /// The files a command names: the ones it writes by its nature, by a writing option, by
    /// `dd of=`; every other operand and option value as read.
    fn files_of(&mut self, program: &str, parsed: &Options) {
        let mut operands: Vec<&String> = parsed.operands.iter().collect();
        if program == "sed"
            && !parsed.values.iter().any(|(option, _)| matches!(option.as_str(), "e" | "f" | "expression" | "file"))
        {
            operands = operands.split_off(1.min(operands.len()));
        }
        if program == "find" {
            operands.clear();
        }
        // A script is not a file: `bash -c SCRIPT`, `eval WORDS`.
        if programs::runs_words_as_script(program) {
            operands.clear();
        } else if programs::is_shell(program) && parsed.flags.iter().any(|flag| flag == "c") && !operands.is_empty() {
            operands.remove(0);
        }
        let writes = programs::writes(program, &parsed.flags);
        let count = operands.len();
        for (at, operand) in operands.into_iter().enumerate() {
            if program == "dd" {
                if let Some(target) = operand.strip_prefix("of=") {
                    self.file(target.to_string(), Access::Write);
                } else if let Some(source) = operand.strip_prefix("if=") {
                    self.file(source.to_string(), Access::Read);
                }
                continue;
            }
            // `chmod MODE FILE…`: the mode is no file.
            if writes == Writes::AfterFirst && at == 0 {
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
            } else if !programs::operands_are_text(program) {
                self.file(operand.clone(), Access::Read);
            }
        }
        let writing = programs::writing_options(program);
        for (option, value) in &parsed.values {
            if writing.contains(&option.as_str()) {
                self.file(value.clone(), Access::Write);
            } else if let Some(file) = value.strip_prefix('@').or_else(|| value.split_once("=@").map(|(_, file)| file))
            {
                // `curl -d @.env`: the value names a file read.
                self.file(file.to_string(), Access::Read);
            } else if option.len() > 1 {
                self.file(value.clone(), Access::Read);
            }
        }
    }
}

/// How deeply brackets nest in `text` (quotes ignored: an over-estimate is safe).
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for c in text.chars() {
        match c {
            '(' | '{' | '[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// A program word's name: its last path segment (`/bin/rm` is `rm`).
fn program_name(word: &str) -> String {
    if word.contains(['$', '`']) {
        return word.to_string();
    }
    word.rsplit('/').next().unwrap_or(word).to_string()
}

/// The commands of a find expression's `-exec`/`-execdir`/`-ok` primaries.
fn find_exec_commands(args: &[String]) -> Vec<&[String]> {
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
fn unwrap(program: &str, wrapper: &programs::Wrapper, words: &[String]) -> (Vec<String>, Option<String>) {
    let mut at = 0;
    let mut split = None;
    let mut leading = wrapper.leading_operands;
    while let Some(word) = words.get(at) {
        if word == "--" {
            at += 1;
            break;
        }
        if let Some(long) = word.strip_prefix("--") {
            let (name, value) = long.split_once('=').map_or((long, None), |(name, value)| (name, Some(value)));
            let takes = wrapper.long_values.contains(&name);
            if program == "env" && name == "split-string" {
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
                    if program == "env" && letter == 'S' {
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

/// A command's words split into flags, operands and option values.
#[derive(Debug, Default)]
struct Options {
    flags: Vec<String>,
    operands: Vec<String>,
    /// `(option, value)` for options given a value (`--file=x`, or a known value option).
    values: Vec<(String, String)>,
}

fn parse_options(program: &str, args: &[String]) -> Options {
    let (short_values, long_values) = programs::value_options(program);
    let mut options = Options::default();
    if program == "find" {
        // find's expression words are single-dash names: `-delete`, `-exec`, `-name X`; the
        // words of an `-exec` command are that command's.
        let start =
            args.iter().position(|word| word.starts_with('-') || word == "(" || word == "!").unwrap_or(args.len());
        options.operands = args.get(..start).unwrap_or_default().to_vec();
        let mut in_exec = false;
        for word in args.get(start..).unwrap_or_default() {
            if in_exec {
                in_exec = !programs::ends_find_exec(word);
                continue;
            }
            in_exec = programs::is_find_exec(word);
            if let Some(name) = word.strip_prefix('-').filter(|name| !name.is_empty()) {
                options.flags.push(name.to_string());
            }
        }
        return options;
    }
    let mut words = args.iter();
    let mut ended = false;
    while let Some(word) = words.next() {
        if ended || word == "-" || !word.starts_with('-') {
            options.operands.push(word.clone());
            continue;
        }
        if word == "--" {
            ended = true;
            continue;
        }
        if let Some(long) = word.strip_prefix("--") {
            match long.split_once('=') {
                Some((name, value)) => {
                    options.flags.push(name.to_string());
                    options.values.push((name.to_string(), value.to_string()));
                }
                None => {
                    options.flags.push(long.to_string());
                    if long_values.contains(&long) {
                        if let Some(value) = words.next() {
                            options.values.push((long.to_string(), value.clone()));
                        }
                    }
                }
            }
            continue;
        }
        let letters = word.get(1..).unwrap_or_default();
        for (offset, letter) in letters.char_indices() {
            options.flags.push(letter.to_string());
            if short_values.contains(letter) {
                let attached = letters.get(offset + letter.len_utf8()..).unwrap_or_default();
                let value = if attached.is_empty() { words.next().cloned() } else { Some(attached.to_string()) };
                if let Some(value) = value {
                    options.values.push((letter.to_string(), value));
                }
                break;
            }
        }
    }
    options
}

/// The text of a `$'…'` string: its backslash escapes decoded as bash does.
fn ansi_c(escaped: &str) -> String {
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

#[cfg(test)]
mod tests;
