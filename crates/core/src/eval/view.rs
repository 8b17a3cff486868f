//! What rules see while an event is evaluated: the event's fields, with the arguments or output
//! as rewritten by earlier rules. Conditions and templates read through a [`View`].

use super::files::Files;
pub(crate) use crate::ir::holds::{pred_holds, Val};
use crate::ir::{Cond, Part, Runs, Subject, Template, Test};
use crate::model::event::{Event, EventData};
use crate::model::result::ToolOutput;
use crate::paths::{FilePath, PathCase, PathError};
use crate::shell::Access;
use crate::vocab::tools::{mcp_parts, Resolved, Source};
use crate::vocab::{Field, Kind, Semantic};
use serde_json::{Map, Value as Json};
use std::borrow::Cow;

/// Receives each leaf test's outcome (for `explain`); `()` ignores them at no cost.
pub(crate) trait Tracer {
    /// A test was evaluated on a value.
    fn test(&mut self, test: &Test, seen: &Val<'_>, held: bool);
    /// Evaluation enters (`true`) or leaves (`false`) a `not`.
    fn negation(&mut self, _entering: bool) {}
    /// A `runs` is about to try the line's commands (`programs`: what the line runs; `found`:
    /// whether some command runs its program and subcommand); the tests of its condition
    /// follow, once per command tried.
    fn runs(&mut self, _runs: &Runs, _programs: &Val<'_>, _found: bool) {}
    /// Whether the tracer looks at what it is given (the values `runs` reports are built only
    /// for one that does).
    fn active(&self) -> bool {
        true
    }
}

impl Tracer for () {
    fn test(&mut self, _: &Test, _: &Val<'_>, _: bool) {}
    fn active(&self) -> bool {
        false
    }
}

/// The commands a `runs` tries.
enum Commands<'v> {
    /// A tool call's command line.
    Line(&'v [crate::shell::Command]),
    /// A Stop's turn: every command of its shell calls.
    Turn(&'v [super::files::Ran]),
}

impl<'v> Commands<'v> {
    /// The commands, in order, without copying them (this is the evaluation's hot path).
    fn iter(&self) -> impl Iterator<Item = &'v crate::shell::Command> {
        let (line, turn) = match *self {
            Commands::Line(commands) => (commands, &[][..]),
            Commands::Turn(ran) => (&[][..], ran),
        };
        line.iter().chain(turn.iter().map(|ran| &ran.command))
    }
}

/// The event as rules currently see it.
pub(crate) struct View<'e> {
    event: &'e Event,
    /// The tool's arguments after every `set` so far (empty for events without a tool).
    pub args: Cow<'e, Map<String, Json>>,
    /// The tool's output after every rewrite so far (post_tool_use only).
    pub output: Option<Cow<'e, ToolOutput>>,
    /// Every file the call touches (`paths`), with the call's tool and how paths compare.
    files: &'e Files<'e>,
    /// The file this reading judges (`path`): one of `files`, or the one a `set` wrote.
    file: Option<Cow<'e, FilePath>>,
    /// How the call uses that file (`access`).
    access: Option<Access>,
}

static NO_ARGS: std::sync::OnceLock<Map<String, Json>> = std::sync::OnceLock::new();

impl<'e> View<'e> {
    /// The view of one reading of an event before any rule ran: `file` is the file it judges
    /// (`None` for a call that names none), `files` every file the call touches.
    pub(crate) fn new(event: &'e Event, files: &'e Files<'e>, file: Option<usize>) -> Self {
        let (args, output) = match &event.data {
            EventData::PreToolUse(call)
            | EventData::PostToolUseFailure(call, _)
            | EventData::PermissionRequest(call) => (Cow::Borrowed(&call.args), None),
            EventData::PostToolUse(call, output) => (Cow::Borrowed(&call.args), Some(Cow::Borrowed(output))),
            _ => (Cow::Borrowed(NO_ARGS.get_or_init(Map::new)), None),
        };
        let access = file.and_then(|at| files.access.get(at).copied().flatten());
        View { event, args, output, files, file: file.and_then(|at| files.files.get(at)).map(Cow::Borrowed), access }
    }

    /// The tool, resolved against the vocabulary.
    pub(crate) fn resolved(&self) -> Resolved {
        self.files.tool
    }

    /// How path values compare here.
    pub(crate) fn case(&self) -> PathCase {
        self.files.case
    }

    /// The tool's name (empty for events without a tool).
    pub(crate) fn tool(&self) -> &'e str {
        self.event.tool_call().map_or("", |call| call.tool.as_str())
    }

    /// After a `set` rewrote the path argument, the file this reading judges is the new one.
    pub(crate) fn path_rewritten(&mut self) -> Result<(), PathError> {
        let Some(Source::Args(names)) = self.resolved().source(Semantic::Path) else { return Ok(()) };
        let raw = names.iter().find_map(|name| self.args.get(*name).and_then(Json::as_str));
        self.file = match raw {
            Some(raw) => Some(Cow::Owned(self.files.anchor().file(raw)?)),
            None => None,
        };
        Ok(())
    }

    /// A field's current value.
    pub(crate) fn get(&self, field: &Field) -> Val<'_> {
        self.get_in(field, None)
    }

    /// A field's value with the shell command `scope` (an index into the command line's
    /// commands) in scope, as inside `runs (…)`.
    fn get_in(&self, field: &Field, scope: Option<usize>) -> Val<'_> {
        if field.in_command() {
            return self.command_field(field, scope);
        }
        let common = &self.event.common;
        let text =
            |value: Option<&'e String>| value.map_or(Val::Missing, |text| Val::Str(Cow::Borrowed(text.as_str())));
        match (field, &self.event.data) {
            (Field::Tool, _) => self.event.tool_call().map_or(Val::Missing, |call| Val::Str(Cow::Borrowed(&call.tool))),
            (Field::Kind, _) => match self.event.tool_call() {
                Some(_) => Val::Str(Cow::Borrowed(self.resolved().kind().name())),
                None => Val::Missing,
            },
            (Field::Paths, _) if self.files.files.is_empty() => Val::Missing,
            (Field::Paths, _) => Val::List(self.files.files.iter().map(Val::Path).collect()),
            (Field::Programs | Field::ProgramSubcommands | Field::ProgramFlags, _) => {
                // A call's line, or at Stop the turn's commands (what `runs` reads there).
                let lists = match (&self.files.shell, self.event.stop_info().and_then(|_| self.files.turn())) {
                    (Some(shell), _) => Some((&shell.programs, &shell.program_subcommands, &shell.program_flags)),
                    (None, Some(turn)) => Some((&turn.programs, &turn.program_subcommands, &turn.program_flags)),
                    (None, None) => None,
                };
                match lists {
                    Some((programs, subcommands, flags)) => {
                        let names = match field {
                            Field::Programs => programs,
                            Field::ProgramSubcommands => subcommands,
                            _ => flags,
                        };
                        Val::List(names.iter().map(|name| Val::Str(Cow::Borrowed(name.as_str()))).collect())
                    }
                    None => Val::Missing,
                }
            }
            // What the call's reader could not account for: a call with no line to read left
            // nothing unread.
            (Field::Unread, _) => Val::List(
                self.files
                    .shell
                    .as_ref()
                    .map(|shell| {
                        shell.line.unread.iter().map(|reason| Val::Str(Cow::Borrowed(reason.as_str()))).collect()
                    })
                    .unwrap_or_default(),
            ),
            (Field::Egress, _) if self.event.tool_call().is_none() => Val::Missing,
            (Field::Egress, _) => Val::List(
                self.files
                    .egress
                    .get_or_init(|| self.egress())
                    .iter()
                    .map(|host| Val::Str(Cow::Borrowed(host.as_str())))
                    .collect(),
            ),
            (Field::Access, _) => match self.access {
                Some(Access::Use) => Val::Str(Cow::Borrowed("use")),
                Some(Access::Read) => Val::Str(Cow::Borrowed("read")),
                Some(Access::Write) => Val::Str(Cow::Borrowed("write")),
                None => Val::Missing,
            },
            (Field::Prompt, EventData::UserPromptSubmit { prompt }) => Val::Str(Cow::Borrowed(prompt)),
            (Field::Output, _) => {
                self.output.as_ref().map_or(Val::Missing, |output| Val::Str(Cow::Borrowed(&output.content)))
            }
            (Field::IsError, _) => self.output.as_ref().map_or(Val::Missing, |output| Val::Bool(output.is_error)),
            (Field::Commands | Field::ToolsUsed, _) => match self.files.turn() {
                Some(turn) => {
                    let items = if *field == Field::Commands { &turn.commands } else { &turn.tools_used };
                    Val::List(items.iter().map(|item| Val::Str(Cow::Borrowed(item.as_str()))).collect())
                }
                None => Val::Missing,
            },
            (Field::FilesWritten, _) => match self.files.turn() {
                Some(turn) => Val::List(turn.files_written.iter().map(Val::Path).collect()),
                None => Val::Missing,
            },
            (Field::StopHookActive | Field::ToolCalls | Field::LastMessage, _) => match self.event.stop_info() {
                None => Val::Missing,
                Some(stop) => match field {
                    Field::StopHookActive => Val::Bool(stop.stop_hook_active),
                    #[expect(clippy::cast_precision_loss, reason = "tool-call counts are far below 2^52")]
                    Field::ToolCalls => stop.tool_calls.map_or(Val::Missing, |count| Val::Num(count as f64)),
                    _ => text(stop.last_message.as_ref()),
                },
            },
            (Field::McpServer | Field::McpTool, _) => match mcp_parts(self.tool()) {
                Some((server, tool)) => Val::Str(Cow::Borrowed(if *field == Field::McpServer { server } else { tool })),
                None => Val::Missing,
            },
            (Field::Error, EventData::PostToolUseFailure(_, error)) => Val::Str(Cow::Borrowed(error)),
            (Field::Source, EventData::SessionStart { source }) => text(source.as_ref()),
            (Field::Reason, EventData::SessionEnd { reason }) => text(reason.as_ref()),
            (Field::Trigger, EventData::PreCompact { trigger }) => text(trigger.as_ref()),
            (Field::Message, EventData::Notification { message }) => Val::Str(Cow::Borrowed(message)),
            (Field::Cwd, _) => text(common.cwd.as_ref()),
            (Field::ProjectRoot, _) => text(common.project_root.as_ref().or(common.cwd.as_ref())),
            (Field::SessionId, _) => text(common.session_id.as_ref()),
            (Field::PermissionMode, _) => text(common.permission_mode.as_ref()),
            (Field::Agent, _) => text(common.agent.as_ref()),
            (Field::Args, _) if self.event.tool_call().is_none() => Val::Missing,
            // Every text of the arguments, and a shell line's words as the shell unquotes them
            // (`"…ghp_"AAAA…` is one word).
            (Field::Args, _) => {
                let words =
                    self.files.shell.iter().flat_map(|shell| &shell.line.commands).flat_map(|command| &command.words);
                Val::List(
                    super::files::nested_strings(&self.args)
                        .into_iter()
                        .chain(words.map(String::as_str))
                        .map(|text| Val::Str(Cow::Borrowed(text)))
                        .collect(),
                )
            }
            (Field::Arg(path), _) => arg_value(&self.args, path),
            (Field::Semantic(Semantic::Path), _) => self.file.as_deref().map_or(Val::Missing, Val::Path),
            (Field::Semantic(Semantic::Host), _) => match self.semantic(Semantic::Url).text() {
                Some(url) => {
                    let mut hosts: Vec<Val<'_>> =
                        hosts_of(&url).into_iter().map(|host| Val::Str(Cow::Owned(host))).collect();
                    match hosts.len() {
                        0 => Val::Missing,
                        1 => hosts.pop().unwrap_or(Val::Missing),
                        _ => Val::List(hosts),
                    }
                }
                None => Val::Missing,
            },
            // A shell call's command as one line, however it was sent (Codex's `shell` sends
            // argv, Cline's `run_commands` a list of lines, maybe as JSON text).
            (Field::Semantic(Semantic::Command), _) if self.resolved().kind() == Kind::Shell => {
                super::files::command_text(self.resolved(), &self.args).map_or(Val::Missing, Val::Str)
            }
            (Field::Semantic(semantic), _) => self.semantic(*semantic),
            _ => Val::Missing,
        }
    }

    /// The commands `runs` tries: the call's line, or at Stop every command of the turn's
    /// shell calls.
    fn commands(&self) -> Commands<'_> {
        match &self.files.shell {
            Some(shell) => Commands::Line(&shell.line.commands),
            None => match self.event.stop_info().and_then(|_| self.files.turn()) {
                Some(turn) => Commands::Turn(&turn.ran),
                None => Commands::Line(&[]),
            },
        }
    }

    /// The shell command `scope`, and at Stop how its call ended.
    fn command(&self, scope: Option<usize>) -> Option<(&crate::shell::Command, Option<&super::files::Ran>)> {
        match self.commands() {
            Commands::Line(commands) => commands.get(scope?).map(|command| (command, None)),
            Commands::Turn(ran) => ran.get(scope?).map(|ran| (&ran.command, Some(ran))),
        }
    }

    /// The operands of the shell command `scope`, spelled by the path model.
    fn operands(&self, scope: Option<usize>) -> &[FilePath] {
        match (scope, self.command(scope)) {
            (_, Some((_, Some(ran)))) => &ran.operands,
            (Some(at), Some((_, None))) => self.files.operands(at),
            _ => &[],
        }
    }

    /// A field of the shell command `scope`.
    fn command_field<'v>(&'v self, field: &Field, scope: Option<usize>) -> Val<'v> {
        let Some((command, ran)) = self.command(scope) else { return Val::Missing };
        let texts =
            |items: &'v [String]| Val::List(items.iter().map(|item| Val::Str(Cow::Borrowed(item.as_str()))).collect());
        match field {
            Field::Program => Val::Str(self.case().fold(&command.program)),
            Field::Subcommand => {
                command.subcommand.as_deref().map_or(Val::Missing, |text| Val::Str(Cow::Borrowed(text)))
            }
            Field::Flags => texts(&command.flags),
            Field::Words => texts(&command.words),
            Field::Via => texts(&command.via),
            Field::Inputs => texts(&command.inputs),
            Field::Remote => texts(&command.remote),
            Field::Operands => Val::List(self.operands(scope).iter().map(Val::Path).collect()),
            // A command of an earlier call (a Stop's turn) has its operands only.
            Field::Sources | Field::Destination if ran.is_some() => Val::Missing,
            Field::Sources | Field::Destination => {
                let which = usize::from(*field == Field::Destination);
                let at = scope.unwrap_or_default();
                Val::List(self.files.transfer(at, which).iter().map(Val::Path).collect())
            }
            // Another host's paths are none of this project's.
            Field::Outside if !command.remote.is_empty() => Val::List(Vec::new()),
            Field::Outside => {
                Val::List(self.operands(scope).iter().filter(|file| file.is_outside_project()).map(Val::Path).collect())
            }
            Field::Ok => ran.and_then(|ran| ran.ok).map_or(Val::Missing, Val::Bool),
            #[expect(clippy::cast_precision_loss, reason = "exit statuses are small")]
            Field::Status => ran.and_then(|ran| ran.status).map_or(Val::Missing, |status| Val::Num(status as f64)),
            Field::AfterWrites => ran.map_or(Val::Missing, |ran| Val::Bool(ran.after_writes)),
            _ => Val::Missing,
        }
    }

    /// The raw value of a profile field: the first of the tool's arguments for it present.
    fn semantic(&self, semantic: Semantic) -> Val<'_> {
        self.resolved().value(semantic, &self.args).map_or(Val::Missing, json_value)
    }

    /// Whether a condition holds, reporting each leaf test to the tracer. `Err` carries why a
    /// pattern could not be compiled (only possible for a hand-made bundle).
    pub(crate) fn holds(&self, cond: &Cond, tracer: &mut impl Tracer) -> Result<bool, String> {
        self.holds_in(cond, None, tracer)
    }

    fn holds_in(&self, cond: &Cond, scope: Option<usize>, tracer: &mut impl Tracer) -> Result<bool, String> {
        Ok(match cond {
            Cond::Always => true,
            Cond::All(children) => {
                for child in children {
                    if !self.holds_in(child, scope, tracer)? {
                        return Ok(false);
                    }
                }
                true
            }
            Cond::Any(children) => {
                for child in children {
                    if self.holds_in(child, scope, tracer)? {
                        return Ok(true);
                    }
                }
                false
            }
            Cond::Not(child) => {
                tracer.negation(true);
                let held = self.holds_in(child, scope, tracer);
                tracer.negation(false);
                !held?
            }
            Cond::Runs(runs) => self.runs(runs, tracer)?,
            Cond::Test(test) => {
                // A command's text lists are tested in place when no tracer needs the value.
                if let (false, Some(items)) = (tracer.active(), self.command_texts(&test.subject, scope)) {
                    for item in items {
                        if pred_holds(&test.pred, &Val::Str(Cow::Borrowed(item)), self.case())? {
                            return Ok(true);
                        }
                    }
                    return Ok(false);
                }
                let seen = self.subject(&test.subject, scope);
                let held = pred_holds(&test.pred, &seen, self.case())?;
                tracer.test(test, &seen, held);
                held
            }
        })
    }

    /// The texts of a command's list field (`flags`, `words`, `via`, `inputs`) when `subject`
    /// is one and a command is in scope: a test on a list holds when one element does.
    fn command_texts(&self, subject: &Subject, scope: Option<usize>) -> Option<&[String]> {
        let Subject::Field(field) = subject else { return None };
        let (command, _) = self.command(scope)?;
        match field {
            Field::Flags => Some(&command.flags),
            Field::Words => Some(&command.words),
            Field::Via => Some(&command.via),
            Field::Inputs => Some(&command.inputs),
            Field::Remote => Some(&command.remote),
            _ => None,
        }
    }

    /// Whether some command of the shell call's line runs one of the programs and satisfies the
    /// condition, its fields in scope.
    fn runs(&self, runs: &Runs, tracer: &mut impl Tracer) -> Result<bool, String> {
        let case = self.case();
        let applies = |command: &crate::shell::Command| {
            let program = case.fold(&command.program);
            (runs.programs.is_empty() || runs.programs.iter().any(|name| case.fold(name) == program))
                && (runs.subcommand.is_none() || command.subcommand == runs.subcommand)
        };
        let commands = self.commands();
        if tracer.active() {
            tracer.runs(runs, &self.get(&Field::Programs), commands.iter().any(applies));
        }
        for (at, command) in commands.iter().enumerate() {
            if applies(command) && self.holds_in(&runs.condition, Some(at), tracer)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn subject(&self, subject: &Subject, scope: Option<usize>) -> Val<'_> {
        match subject {
            Subject::Field(field) => self.get_in(field, scope),
            #[expect(clippy::cast_precision_loss, reason = "lengths are far below 2^52")]
            Subject::Len(field) => match self.get_in(field, scope) {
                Val::List(items) => Val::Num(items.len() as f64),
                value => value.text().map_or(Val::Missing, |text| Val::Num(text.chars().count() as f64)),
            },
        }
    }

    /// Renders a template; `Err` names the first field the event does not carry.
    pub(crate) fn render(&self, template: &Template) -> Result<String, Field> {
        let mut out = String::new();
        for part in &template.0 {
            match part {
                Part::Text(text) => out.push_str(text),
                Part::Field(field) => match self.get(field).text() {
                    Some(text) => out.push_str(&text),
                    None => return Err(field.clone()),
                },
            }
        }
        Ok(out)
    }
}

impl View<'_> {
    /// The hosts the call sends to: its command line's, a fetch tool's URL's, and, for an MCP
    /// tool, its hosted service's (`vocab::mcp`) and every argument at any depth that is a URL (`{"options": {"callback": "https://…"}}`);
    /// a URL a text mentions (a pull request's body linking the docs) is not where it sends.
    fn egress(&self) -> Vec<String> {
        let mut hosts =
            self.files.shell.as_ref().map(|shell| crate::shell::egress(&shell.line.commands)).unwrap_or_default();
        let mut add = |host: String| {
            if !hosts.contains(&host) {
                hosts.push(host);
            }
        };
        if mcp_parts(self.tool()).is_some() {
            // A hosted service's server sends every call to the service.
            if let Some(service) = self.resolved().mcp_server().and_then(|server| server.service) {
                add(service.to_string());
            }
            for text in super::files::nested_strings(&self.args) {
                crate::shell::url_host(text.trim()).into_iter().for_each(&mut add);
            }
        } else if self.resolved().kind() != Kind::Shell {
            if let Some(url) = self.semantic(Semantic::Url).text() {
                hosts_of(&url).into_iter().for_each(&mut add);
            }
        }
        hosts
    }
}

/// The hosts a URL argument names, as an HTTP client reads them (WHATWG URL parsing: lower
/// case, punycode, no port, credentials or brackets): the URL's own, or, for a text that is not
/// one URL (Gemini CLI's `web_fetch` takes a prompt with URLs in it), every URL in it.
fn hosts_of(text: &str) -> Vec<String> {
    let host = crate::shell::url_host;
    if let Some(one) = host(text.trim()) {
        return vec![one];
    }
    let mut hosts: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let start = rest.get(..at).map_or(0, |head| {
            head.rfind(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c))).map_or(0, |stop| stop + 1)
        });
        let end = rest.get(at..).and_then(|tail| tail.find(|c: char| c.is_whitespace() || "<>\"'`()[]{}".contains(c)));
        let candidate = rest.get(start..end.map_or(rest.len(), |end| at + end)).unwrap_or_default();
        if let Some(found) = host(candidate.trim_end_matches(['.', ',', ';', ':', '!', '?'])) {
            if !hosts.contains(&found) {
                hosts.push(found);
            }
        }
        rest = rest.get(at + 3..).unwrap_or_default();
    }
    hosts
}

/// `args.a.b`: walks into objects; absent or `null` is missing.
fn arg_value<'a>(args: &'a Map<String, Json>, path: &str) -> Val<'a> {
    let mut segments = path.split('.');
    let Some(first) = segments.next() else { return Val::Missing };
    let mut current = args.get(first);
    for segment in segments {
        current = current.and_then(|value| value.get(segment));
    }
    current.map_or(Val::Missing, json_value)
}

fn json_value(value: &Json) -> Val<'_> {
    match value {
        Json::Null => Val::Missing,
        Json::Bool(value) => Val::Bool(*value),
        Json::Number(number) => number.as_f64().map_or(Val::Missing, Val::Num),
        Json::String(text) => Val::Str(Cow::Borrowed(text)),
        other => Val::Json(other),
    }
}

impl crate::compile::FieldTexts for View<'_> {
    fn each_text(&self, field: &Field, each: &mut dyn FnMut(&str) -> bool) -> bool {
        let case = if field.folds_case() { self.case() } else { PathCase::Sensitive };
        self.get(field).any_text(case, each)
    }
}
