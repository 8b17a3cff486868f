//! `hookc lsp`: a language server over stdio for rule files, built on rust-analyzer's
//! `lsp-server`. It gives editors what `hookc check` and `hookc fmt` give the command line:
//!
//! - diagnostics on open and on every change, exactly `check`'s (codes, labels, help), for the
//!   document checked with the other `.rules` files beside it (a list or a rule name may live in
//!   another file; small regular files that parse, not those of subdirectories);
//! - completion of what is valid at the cursor: events at the start of a rule, the event's fields
//!   in a condition (a command's inside `runs (…)`, the others outside), the values of a closed
//!   vocabulary after `kind ==`, `access in [`, `agent ==`…, the event's actions after `=>`, fields
//!   inside a message's `{…}`;
//! - hover documentation for events, fields, actions, kinds and diagnostic codes;
//! - formatting, as `hookc fmt` does (a file with errors is refused with the first error);
//! - bounded input (`transport`): a frame over a limit is refused, never an abort.

use hookc_core::diagnostic::{Code, Diagnostic, Severity};
use hookc_core::source::{SourceFile, SourceMap};
use hookc_core::vocab::{docs, ActionKind, EventKind, Field, Kind};
use lsp_server::{Connection, Message, Notification, Request, Response};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

mod transport;

/// What the `lsp` fuzz target drives (`tests/oracles.rs`): every frame of `data` read as the
/// server reads its input, then, when `data` is UTF-8, completion and hover at every character
/// of it as a document (the first 256) and its formatting. Returns how many messages were read.
/// A test hook: only with the `testing` feature (the tests and the fuzz targets turn it on).
#[cfg(feature = "testing")]
pub fn exercise(data: &[u8]) -> usize {
    let mut input = std::io::BufReader::new(data);
    let mut messages = 0;
    loop {
        match transport::read_frame(&mut input) {
            transport::Frame::Message(_) => messages += 1,
            transport::Frame::Refused(_) => {}
            transport::Frame::End(_) => break,
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        for (at, _) in text.char_indices().take(256).chain([(text.len(), ' ')]) {
            let _ = completions(text, at);
            let _ = hover(text, at);
            let (line, character) = position(text, at);
            assert_eq!(offset(text, line as u64, character as u64), at, "positions round-trip");
        }
        let _ = format(text);
    }
    messages
}

/// Runs the server on stdin and stdout until the client says `exit`.
pub(crate) fn serve() -> Result<(), String> {
    let (connection, client) = Connection::memory();
    let writer = transport::stdio(client);
    let capabilities = json!({
        "textDocumentSync": 1,
        "completionProvider": {"triggerCharacters": ["{", " ", "="]},
        "hoverProvider": true,
        "documentFormattingProvider": true,
    });
    connection.initialize(capabilities).map_err(|error| error.to_string())?;
    Server { connection: &connection, documents: HashMap::new() }.run()?;
    // The writer thread ends when the last sender does.
    drop(connection);
    writer.join().map_err(|_| "the LSP writer thread failed".to_string())
}

struct Server<'c> {
    connection: &'c Connection,
    /// Open documents: URI → text.
    documents: HashMap<String, String>,
}

impl Server<'_> {
    fn run(&mut self) -> Result<(), String> {
        for message in &self.connection.receiver {
            match message {
                Message::Request(request) => {
                    if self.connection.handle_shutdown(&request).map_err(|error| error.to_string())? {
                        return Ok(());
                    }
                    let response = self.request(request);
                    self.send(Message::Response(response))?;
                }
                Message::Notification(notification) => self.notification(notification)?,
                Message::Response(_) => {}
            }
        }
        Ok(())
    }

    fn send(&self, message: Message) -> Result<(), String> {
        self.connection.sender.send(message).map_err(|error| error.to_string())
    }

    fn notification(&mut self, notification: Notification) -> Result<(), String> {
        let uri = notification.params.pointer("/textDocument/uri").and_then(Value::as_str).map(str::to_string);
        let Some(uri) = uri else { return Ok(()) };
        match notification.method.as_str() {
            "textDocument/didOpen" => {
                let text =
                    notification.params.pointer("/textDocument/text").and_then(Value::as_str).unwrap_or_default();
                self.documents.insert(uri.clone(), text.to_string());
            }
            "textDocument/didChange" => {
                // Full sync: the last change is the whole text.
                let changes = notification.params.get("contentChanges").and_then(Value::as_array);
                if let Some(text) = changes
                    .and_then(|changes| changes.last())
                    .and_then(|change| change.get("text").and_then(Value::as_str))
                {
                    self.documents.insert(uri.clone(), text.to_string());
                }
            }
            "textDocument/didClose" => {
                self.documents.remove(&uri);
                return self.publish(&uri, Vec::new());
            }
            _ => return Ok(()),
        }
        let text = self.documents.get(&uri).cloned().unwrap_or_default();
        let diagnostics = diagnostics(&uri, &text);
        self.publish(&uri, diagnostics)
    }

    fn publish(&self, uri: &str, diagnostics: Vec<Value>) -> Result<(), String> {
        let params = json!({"uri": uri, "diagnostics": diagnostics});
        self.send(Message::Notification(Notification::new("textDocument/publishDiagnostics".into(), params)))
    }

    fn request(&self, request: Request) -> Response {
        let uri = request.params.pointer("/textDocument/uri").and_then(Value::as_str).unwrap_or_default();
        let Some(text) = self.documents.get(uri) else {
            return Response::new_ok(request.id, Value::Null);
        };
        let at = |params: &Value| {
            let line = params.pointer("/position/line").and_then(Value::as_u64).unwrap_or(0);
            let character = params.pointer("/position/character").and_then(Value::as_u64).unwrap_or(0);
            offset(text, line, character)
        };
        let result = match request.method.as_str() {
            "textDocument/completion" => json!(completions(text, at(&request.params))),
            "textDocument/hover" => hover(text, at(&request.params))
                .map_or(Value::Null, |doc| json!({"contents": {"kind": "markdown", "value": doc}})),
            "textDocument/formatting" => match format(text) {
                Ok(edits) => edits,
                Err(why) => {
                    return Response::new_err(request.id, lsp_server::ErrorCode::RequestFailed as i32, why);
                }
            },
            _ => {
                return Response::new_err(
                    request.id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!("hookc lsp does not handle `{}`", request.method),
                )
            }
        };
        Response::new_ok(request.id, result)
    }
}

/// The file a `file://` URI names.
fn path_of(uri: &str) -> Option<PathBuf> {
    hookc_core::paths::url_file(&url::Url::parse(uri).ok()?)
}

/// `check`'s diagnostics for the document, checked with its directory's other rule files.
fn diagnostics(uri: &str, text: &str) -> Vec<Value> {
    let path = path_of(uri).unwrap_or_else(|| PathBuf::from(uri));
    let mut sources = SourceMap::default();
    let this = sources.add(SourceFile::new(path.clone(), text));
    for (sibling, sibling_text) in siblings(&path) {
        sources.add(SourceFile::new(sibling, sibling_text));
    }
    let found = match hookc_core::check_sources(&sources) {
        Ok(checked) => checked.warnings,
        Err(diagnostics) => diagnostics,
    };
    let Some(file) = sources.get(this) else { return Vec::new() };
    let mut own: Vec<&Diagnostic> = found.iter().filter(|diagnostic| diagnostic.span.file == this).collect();
    // Errors first, then in the order of the file: what is cut is the least of it.
    own.sort_by_key(|diagnostic| (diagnostic.severity != Severity::Error, diagnostic.span.start));
    let hidden = own.len().saturating_sub(MAX_DIAGNOSTICS);
    let mut published: Vec<Value> =
        own.iter().take(MAX_DIAGNOSTICS).map(|diagnostic| lsp_diagnostic(diagnostic, file)).collect();
    if hidden > 0 {
        published.push(json!({
            "range": range(file, 0, 0),
            "severity": 3,
            "source": "hookc",
            "message": format!(
                "{hidden} more problems are not shown: the editor lists the first {MAX_DIAGNOSTICS} (errors first); `hookc check` lists them all"
            ),
        }));
    }
    published
}

/// The most diagnostics published for one document; a note at its top says how many more there
/// are. An editor given tens of thousands of them answers nothing else while it draws them.
const MAX_DIAGNOSTICS: usize = 500;

/// The most of a sibling rule file read on each change.
const MAX_SIBLING_BYTES: u64 = 1024 * 1024;

/// The other `.rules` files beside the document that can take part in its check: regular
/// files (no links, no FIFOs), at most [`MAX_SIBLING_BYTES`], that parse (a broken sibling
/// would hide the document's own diagnostics). Not below: the editor checks on every change.
fn siblings(path: &Path) -> Vec<(PathBuf, String)> {
    let Some(entries) = path.parent().and_then(|dir| std::fs::read_dir(dir).ok()) else { return Vec::new() };
    let mut found: Vec<(PathBuf, String)> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|candidate| candidate.extension().is_some_and(|ext| ext == "rules") && candidate != path)
        .filter(|candidate| {
            std::fs::symlink_metadata(candidate).is_ok_and(|meta| meta.is_file() && meta.len() <= MAX_SIBLING_BYTES)
        })
        .filter_map(|candidate| std::fs::read_to_string(&candidate).ok().map(|text| (candidate, text)))
        .filter(|(candidate, text)| hookc_core::parses(&SourceFile::new(candidate.clone(), text.as_str())))
        .collect();
    found.sort();
    found
}

fn lsp_diagnostic(diagnostic: &Diagnostic, file: &SourceFile) -> Value {
    let mut message = diagnostic.message.clone();
    if !diagnostic.label.is_empty() {
        message.push_str(&format!(": {}", diagnostic.label));
    }
    if let Some(help) = &diagnostic.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    json!({
        "range": range(file, diagnostic.span.start as usize, diagnostic.span.end as usize),
        "severity": match diagnostic.severity { Severity::Error => 1, Severity::Warning => 2 },
        "code": diagnostic.code.as_str(),
        "source": "hookc",
        "message": message,
    })
}

fn range(file: &SourceFile, start: usize, end: usize) -> Value {
    let (start_line, start_character) = position_in(file, start);
    let (end_line, end_character) = position_in(file, end.max(start));
    json!({
        "start": {"line": start_line, "character": start_character},
        "end": {"line": end_line, "character": end_character},
    })
}

/// [`position`] through the file's line index: the same answer, at a cost independent of how far
/// into the file the offset is (a document's diagnostics are many positions).
fn position_in(file: &SourceFile, offset: usize) -> (usize, usize) {
    let offset = offset.min(file.text.len());
    let (line, number) = file.lines_around(offset, offset);
    let character = file.text.get(line.start..offset).unwrap_or_default().encode_utf16().count();
    (number - 1, character)
}

/// A byte offset as an LSP position: a line from 0, and UTF-16 code units into it.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let line = before.matches('\n').count();
    let character = before.get(line_start..).unwrap_or_default().encode_utf16().count();
    (line, character)
}

/// An LSP position as a byte offset (clamped to the text).
fn offset(text: &str, line: u64, character: u64) -> usize {
    let mut start = 0;
    for _ in 0..line {
        match text.get(start..).and_then(|rest| rest.find('\n')) {
            Some(at) => start += at + 1,
            None => return text.len(),
        }
    }
    let line_text = text.get(start..).unwrap_or_default();
    let line_text = &line_text[..line_text.find('\n').unwrap_or(line_text.len())];
    let mut units = 0u64;
    for (at, c) in line_text.char_indices() {
        if units >= character {
            return start + at;
        }
        units += c.len_utf16() as u64;
    }
    start + line_text.len()
}

/// The whole document as `hookc fmt` writes it, or why it cannot be formatted (its first
/// syntax error, where it is): the editor shows that instead of silently changing nothing.
fn format(text: &str) -> Result<Value, String> {
    let file = SourceFile::new("document.rules", text);
    match hookc_core::format(0, &file) {
        Ok(formatted) if formatted != text => {
            let end = position(text, text.len());
            Ok(
                json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": end.0, "character": end.1}}, "newText": formatted}]),
            )
        }
        Ok(_) => Ok(json!([])),
        Err(errors) => {
            let count = errors.len();
            let first = errors.first().map_or_else(String::new, |error| {
                let (line, column) = file.line_col(error.span.start as usize);
                format!(": {line}:{column}: {}", error.message)
            });
            let more = if count > 1 { format!(" (and {} more)", count - 1) } else { String::new() };
            Err(format!("hookc cannot format a file with errors{first}{more}"))
        }
    }
}

/// Where the cursor is in a rule.
#[derive(Debug, PartialEq, Eq)]
enum Place {
    /// Where a rule starts.
    Start,
    /// In the condition of a rule of this event: inside `runs (…)` or not, and after a test of a
    /// field with a closed vocabulary (`kind ==`, `access in [`), that field.
    Condition { event: Option<EventKind>, in_runs: bool, value_of: Option<Field> },
    /// Where an action of a rule of this event goes.
    Action(Option<EventKind>),
    /// Inside a message's `{…}`.
    Template(Option<EventKind>),
    /// Elsewhere (inside a string, a regex, an action's argument).
    Other,
}

/// The rule the cursor is in, up to the cursor: from the last line that starts a rule.
fn place(text: &str, at: usize) -> Place {
    let before = text.get(..at).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let line = before.get(line_start..).unwrap_or_default();
    if !line.starts_with([' ', '\t']) && !line.contains(char::is_whitespace) && !line.contains('"') {
        return Place::Start;
    }
    let starts_rule = |line: &str| {
        let word = line.split_whitespace().next().unwrap_or_default();
        !line.starts_with([' ', '\t', '#']) && (word == "rule" || EventKind::from_name(word).is_some())
    };
    let rule_start = before
        .match_indices('\n')
        .map(|(at, _)| at + 1)
        .chain(std::iter::once(0))
        .filter(|&start| before.get(start..).is_some_and(starts_rule))
        .max()
        .unwrap_or(0);
    let rule = before.get(rule_start..).unwrap_or_default();
    let event = rule.split_whitespace().find_map(EventKind::from_name);
    // Inside a string: a `{` not yet closed is a field in a message.
    if rule.matches('"').count() % 2 == 1 {
        let string = rule.rsplit('"').next().unwrap_or_default();
        return match (string.rfind('{'), string.rfind('}')) {
            (Some(open), close) if close.is_none_or(|close| close < open) => Place::Template(event),
            _ => Place::Other,
        };
    }
    if let Some((_, actions)) = rule.rsplit_once("=>") {
        let last = actions.rsplit(',').next().unwrap_or_default();
        // Nothing yet, or the action's name being typed: not its arguments.
        let typing_name = last.split_whitespace().count() == 0 || !last.trim().contains(char::is_whitespace);
        return if typing_name { Place::Action(event) } else { Place::Other };
    }
    if rule.contains(" when") {
        let words: Vec<&str> =
            rule.split(|c: char| c.is_whitespace() || matches!(c, '[' | ',' | '(')).filter(|w| !w.is_empty()).collect();
        // The field before the last `==`, `!=` or `in`, while its value is being typed.
        let tested = words.iter().rposition(|word| matches!(*word, "==" | "!=" | "in")).and_then(|op| {
            let name = *words.get(op.checked_sub(1)?)?;
            let after = words.get(op + 1..).unwrap_or_default();
            let open_list = words.get(op) == Some(&"in")
                && rule.rfind('[') > rule.rfind(']')
                && !after.iter().any(|word| matches!(*word, "and" | "or"));
            let typing = after.is_empty() || (after.len() == 1 && !rule.ends_with(char::is_whitespace)) || open_list;
            typing.then_some(name)
        });
        let value_of = tested
            .and_then(|name| match event {
                Some(event) => match Field::lookup(name, event) {
                    hookc_core::vocab::FieldLookup::Found(field, _) => Some(field),
                    _ => None,
                },
                None => Field::from_name(name),
            })
            .filter(|field| field.vocabulary().is_some());
        return Place::Condition { event, in_runs: in_runs(rule), value_of };
    }
    Place::Other
}

/// Whether the end of `rule` is inside the `(…)` of a `runs`: a `(` after the last `runs` that
/// is not closed yet.
fn in_runs(rule: &str) -> bool {
    let Some(at) = rule.rfind("runs") else { return false };
    let after = rule.get(at..).unwrap_or_default();
    let Some(open) = after.find('(') else { return false };
    let mut depth = 0i32;
    for c in after.get(open..).unwrap_or_default().chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

fn item(label: &str, kind: u32, detail: &str, documentation: &str) -> Value {
    json!({"label": label, "kind": kind, "detail": detail, "documentation": {"kind": "markdown", "value": documentation}})
}

/// LSP completion item kinds.
const KEYWORD: u32 = 14;
const FIELD: u32 = 5;
const FUNCTION: u32 = 3;
const ENUM_MEMBER: u32 = 20;
const EVENT: u32 = 23;

/// What is valid at the cursor.
fn completions(text: &str, at: usize) -> Vec<Value> {
    // The fields of the event: inside `runs (…)` the command's, outside them the others.
    let fields = |event: Option<EventKind>, in_runs: bool| -> Vec<Value> {
        let names = match event {
            Some(event) => Field::names_for(event),
            None => EventKind::ALL.into_iter().flat_map(Field::names_for).collect(),
        };
        let mut seen = std::collections::BTreeSet::new();
        names
            .into_iter()
            .filter(|name| seen.insert(*name))
            .filter(|name| Field::from_name(name).is_some_and(|field| field.in_command() == in_runs))
            .map(|name| item(name, FIELD, "field", docs::field(name).unwrap_or_default()))
            .collect()
    };
    match place(text, at) {
        Place::Start => {
            let mut items: Vec<Value> = EventKind::ALL
                .into_iter()
                .map(|event| item(event.name(), EVENT, "event", docs::event(event)))
                .collect();
            items.push(item("rule", KEYWORD, "rule NAME", "Name the rule that follows: `rule no-rm-root`."));
            items.push(item(
                "let",
                KEYWORD,
                "let NAME = [\"…\", …]",
                "A named list, for `in` and `like`; `let NAME = /…/`, a named regex, for `matches`.",
            ));
            items.push(item(
                "waive",
                KEYWORD,
                "waive RULE [when CONDITION] until YYYY-MM-DD [\"REASON\"]",
                "Lift a rule where the condition holds, through the last day (UTC).",
            ));
            items.push(item(
                "audit",
                KEYWORD,
                "audit RULES [when CONDITION] [until YYYY-MM-DD] [\"REASON\"]",
                "Roll rules out: where they fire, they decide for the audit log only (\"would deny\"), not the agent; from the day after `until`, they apply. RULES is a name, a pattern (`egress-*`) or a rule file (`\"network.rules\"`). `hookc stats LOG` counts what they would have decided.",
            ));
            items
        }
        Place::Condition { value_of: Some(Field::Kind), .. } => {
            Kind::ALL.into_iter().map(|kind| item(kind.name(), ENUM_MEMBER, "kind", docs::kind(kind))).collect()
        }
        Place::Condition { value_of: Some(field), .. } => {
            let name = field.name();
            let values = field.vocabulary().map(|vocabulary| vocabulary.values).unwrap_or_default();
            values.into_iter().map(|value| item(value, ENUM_MEMBER, &name, &format!("a value of `{name}`"))).collect()
        }
        Place::Condition { event, in_runs, .. } => {
            let mut items = fields(event, in_runs);
            for (keyword, doc) in [
                ("and", "Both tests hold."),
                ("or", "Either test holds."),
                ("not", "The test does not hold (a test on a missing field does not hold, so `not` of it does)."),
                ("runs", "A shell call runs a program: `runs git push (flags in [f, force])`."),
                ("len", "The length of a text field: `len(output) > 100000`."),
            ] {
                items.push(item(keyword, KEYWORD, "keyword", doc));
            }
            items
        }
        Place::Action(event) => ActionKind::ALL
            .into_iter()
            .filter(|action| event.is_none_or(|event| action.events().contains(&event)))
            .map(|action| item(action.name(), FUNCTION, action.usage(), docs::action(action)))
            .collect(),
        Place::Template(event) => fields(event, false),
        Place::Other => Vec::new(),
    }
}

/// The documentation of the word at the cursor.
fn hover(text: &str, at: usize) -> Option<String> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let start = text.get(..at)?.rfind(|c: char| !is_word(c)).map_or(0, |found| found + 1);
    let end = at + text.get(at..)?.find(|c: char| !is_word(c)).unwrap_or(text.len() - at);
    let word = text.get(start..end).filter(|word| !word.is_empty())?;
    if let Some(code) = Code::ALL.iter().find(|code| code.as_str() == word) {
        return Some(code.explain());
    }
    if let Some(event) = EventKind::from_name(word) {
        return Some(format!("**{word}** (event)\n\n{}", docs::event(event)));
    }
    // In an action position the name is an action; else a field (`stop` is both).
    let action = ActionKind::ALL.into_iter().find(|action| action.name() == word);
    let in_actions = text
        .get(..start)
        .and_then(|before| before.rsplit('\n').find(|line| !line.trim().is_empty()))
        .is_some_and(|line| line.contains("=>") || line.trim_start().starts_with(','));
    if let Some(action) = action.filter(|_| in_actions || docs::field(word).is_none()) {
        let events: Vec<&str> = action.events().iter().map(|event| event.name()).collect();
        return Some(format!(
            "**{}** (action)\n\n{}\n\nAt: {}",
            action.usage(),
            docs::action(action),
            events.join(", ")
        ));
    }
    if let Some(doc) = docs::field(word) {
        return Some(format!("**{word}** (field)\n\n{doc}"));
    }
    Kind::from_name(word).map(|kind| format!("**{word}** (kind)\n\n{}", docs::kind(kind)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_round_trip() {
        let text = "rule a\npre_tool_use when path == \"é😀\" => deny\n";
        let file = SourceFile::new("a.rules", format!("{text}\r\nlast"));
        for at in text.char_indices().map(|(at, _)| at) {
            let (line, character) = position(text, at);
            assert_eq!(offset(text, line as u64, character as u64), at, "{at}");
        }
        for at in file.text.char_indices().map(|(at, _)| at).chain([file.text.len()]) {
            assert_eq!(position_in(&file, at), position(&file.text, at), "the line index agrees at {at}");
        }
        assert_eq!(position(text, text.find('😀').unwrap() + 4), (1, 30), "the emoji is two UTF-16 units");
    }

    #[test]
    fn the_place_decides_what_is_offered() {
        let place_at_end = |text: &str| place(text, text.len());
        assert_eq!(place_at_end("pre"), Place::Start);
        assert_eq!(
            place_at_end("stop when not com"),
            Place::Condition { event: Some(EventKind::Stop), in_runs: false, value_of: None }
        );
        assert_eq!(
            place_at_end("pre_tool_use when kind == "),
            Place::Condition { event: Some(EventKind::PreToolUse), in_runs: false, value_of: Some(Field::Kind) }
        );
        assert_eq!(
            place_at_end("pre_tool_use when access in [read, "),
            Place::Condition { event: Some(EventKind::PreToolUse), in_runs: false, value_of: Some(Field::Access) }
        );
        assert_eq!(
            place_at_end("pre_tool_use when runs git push (fl"),
            Place::Condition { event: Some(EventKind::PreToolUse), in_runs: true, value_of: None }
        );
        assert_eq!(
            place_at_end("pre_tool_use when runs git push (flags in [f]) and pa"),
            Place::Condition { event: Some(EventKind::PreToolUse), in_runs: false, value_of: None }
        );
        assert_eq!(
            place_at_end("rule x\npost_tool_use when is_error\n  => "),
            Place::Action(Some(EventKind::PostToolUse))
        );
        assert_eq!(place_at_end("stop => continue \"ran {comm"), Place::Template(Some(EventKind::Stop)));
        assert_eq!(place_at_end("stop => continue \"ran "), Place::Other);
    }
}
