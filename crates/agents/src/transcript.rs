//! What the turn did, read from the agent's own transcript at Stop: the tool calls since the
//! user's last prompt (a Stop hook's forced continuation does not start a new turn), and how
//! many there were. Rules read them as `commands`, `files_written`, `tools_used` and
//! `tool_calls` (see `docs/agents.md`).
//!
//! Each agent writes its own record, one JSON object per line:
//!
//! | agent | file | a prompt | a tool call |
//! |---|---|---|---|
//! | Claude Code | `transcript_path` | a `user` entry, not `isMeta` (a Stop hook's feedback is), whose content is text, not tool results | a `tool_use` block of an `assistant` entry |
//! | Codex | `transcript_path` (the rollout) | a completed `UserMessage` item (a `user_message` event before 0.169); a Stop hook's continuation is a `HookPrompt` | a `function_call`, `custom_tool_call` or `local_shell_call` item |
//! | Gemini CLI | `transcript_path` | the last `user` message whose text is the payload's `prompt` (a continuation is a `user` message too; Gemini CLI's own "Please continue." is neither) | a `gemini` message's `toolCalls` (the message is recorded again with them, under its id) |
//!
//! Reading is bounded: the end of the file is read, more while the turn's prompt is not in it,
//! at most [`MAX_TAIL_BYTES`], and only a regular file (a FIFO or a device at the path would
//! block or never end). When the turn's prompt is not in what was read, or the file cannot be
//! read, or a line of the turn cannot be read, the turn is unknown and the fields are missing.
//! The last line is skipped when it cannot be read (the agent may be writing it).

use hookc_core::clock::Stopwatch;
use hookc_core::model::event::{CallOutcome, StopInfo, ToolCall};
use hookc_core::vocab::agents::schema::Dialect;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How much of a transcript's end is read at first, then four times as much while the turn's
/// prompt is not in it, up to [`MAX_TAIL_BYTES`]: a turn is usually near the end, but a long
/// one (Claude Code records a whole file with each edit) can take hundreds of megabytes.
const FIRST_TAIL_BYTES: u64 = 16 * 1024 * 1024;
/// The most of a transcript read.
pub(crate) const MAX_TAIL_BYTES: u64 = 256 * 1024 * 1024;

/// Where an agent's Stop payload says the turn is recorded, read only when rules will ask.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TurnLog {
    /// How it is read.
    pub reading: ReadAs,
    /// The file.
    pub path: PathBuf,
    /// What the payload says the turn is, which the transcript is waited for.
    pub expected: Expected,
    /// Whether what the transcript shows replaces the agent's `stop_hook_active` (an agent that
    /// says true from its first Stop), rather than adding to it.
    pub replace_flag: bool,
}

/// What a Stop payload says of the turn it ends.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Expected {
    /// The id of the turn's prompt, where the payload has one (Claude Code's `prompt_id`).
    pub prompt_id: Option<String>,
    /// The turn's last answer (`last_assistant_message`).
    pub answer: Option<String>,
}

impl TurnLog {
    /// Reads the turn, once the transcript holds it, and sets what it says in `stop`.
    pub(crate) fn apply(&self, stop: &mut StopInfo) {
        let turn = read_settled(
            &self.reading,
            &self.path,
            self.expected.prompt_id.as_deref(),
            self.expected.answer.as_deref(),
        );
        let Some(turn) = turn else { return };
        // A continuation the transcript shows counts, whatever the agent says; for an agent whose
        // flag says true from the start, the transcript alone says.
        match self.replace_flag {
            true => stop.stop_hook_active = turn.continued,
            false => stop.stop_hook_active |= turn.continued,
        }
        stop.tool_calls = Some(turn.calls.len() as u64);
        stop.calls = Some(turn.calls);
    }
}

/// How a transcript is read: its agent's dialect (the agent's data, `Transcript::dialect`) and
/// what this Stop's payload adds to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReadAs {
    /// Whose transcript: Claude Code's session JSONL, Codex's rollout, Gemini CLI's session
    /// JSONL, Factory Droid's session JSONL (Anthropic-style blocks, an empty `user_only` entry
    /// for each hook that ran, a Stop hook's continuation the user text after it), or Qwen Code's
    /// chat JSONL (Gemini-style parts; a Stop hook's continuation is not recorded at all: a turn
    /// with two final answers, messages without tool calls, was continued).
    pub dialect: Dialect,
    /// Claude Code: whether a subagent's transcript (`agent_transcript_path`, every entry
    /// `isSidechain`) is read, rather than the main thread's entries.
    pub subagent: bool,
    /// Gemini CLI: the turn's prompt, as the payload gives it. Its continuation is a user
    /// message like any prompt, so the turn starts at the one that begins with this prompt.
    pub prompt: String,
}

impl ReadAs {
    /// A dialect read as it is, with nothing from a payload.
    #[cfg(test)]
    fn plain(dialect: Dialect) -> ReadAs {
        ReadAs { dialect, subagent: false, prompt: String::new() }
    }

    /// Whether the turn's last answer is read from this dialect, to be waited for (checked on
    /// the real clients: Claude Code, Qwen Code).
    fn records_answers(&self) -> bool {
        matches!(self.dialect, Dialect::Claude | Dialect::Qwen | Dialect::Codex | Dialect::Gemini)
    }

    /// Whether `recorded`, the transcript's last answer, is the payload's `expected` one: its
    /// end (Claude Code writes each block of a message as its own entry). Gemini CLI's
    /// `prompt_response` joins the streamed chunks of every answer of the turn, so the recorded
    /// answer is anywhere in it.
    fn answer_is(&self, expected: &str, recorded: &str) -> bool {
        match self.dialect {
            Dialect::Gemini => expected.contains(recorded),
            _ => expected.ends_with(recorded),
        }
    }
}

/// What the transcript says of the turn it ends.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct RecordedTurn {
    /// The tool calls since the prompt, in order.
    calls: Vec<ToolCall>,
    /// Whether a Stop hook already forced a continuation in this turn (the agent's own
    /// `stop_hook_active` is not always set: Gemini CLI clears it when the continuation ran a
    /// tool).
    continued: bool,
    /// The text of the turn's last answer, where the dialect records it (Claude Code).
    answer: Option<String>,
    /// The id of the turn's prompt, where the dialect records it (Claude Code's `promptId`).
    prompt_id: Option<String>,
}

/// How long a Stop waits for the turn to reach the transcript: Claude Code queues transcript
/// writes and flushes them every 100 ms, and runs Stop hooks without waiting, so the file may
/// not exist yet, or not hold the last tool result and the answer. Waited for the same way
/// whether the file is missing, short or behind, on every agent, well within the call's deadline
/// (8 s by default); under load a flush can take far longer than 100 ms.
const SETTLE: Duration = Duration::from_millis(2500);
/// How often the transcript is read again meanwhile.
const POLL: Duration = Duration::from_millis(20);

/// What one transcript line says about the turn.
#[derive(Debug)]
enum Line {
    /// The user submitted a prompt, with its id where the dialect records one: the turn starts
    /// after it.
    Prompt(Option<String>),
    /// A Stop hook's forced continuation.
    Continuation,
    /// A Stop hook ran here (Droid): the user text after it is its continuation, not a prompt.
    StopHook,
    /// The model called tools; a message recorded again under the same id replaces the earlier
    /// record (Gemini CLI writes a message, then again with its tool calls).
    Calls(Option<String>, Vec<ToolCall>),
    /// Calls ended: each call id's outcome.
    Results(Vec<(String, CallOutcome)>),
    /// The model answered with text.
    Answer(String),
    /// Anything else.
    Other,
}

/// What the end of a transcript says: the turn that ends it, `None` when that cannot be known;
/// and then the last answer recorded, which may be known when the turn's start is not.
struct TailRead {
    turn: Option<RecordedTurn>,
    last_answer: Option<String>,
}

/// The turn that ends the transcript at `path`, or `None` when it cannot be known.
fn read(reading: &ReadAs, path: &Path) -> TailRead {
    let mut size = FIRST_TAIL_BYTES;
    let mut last_answer = None;
    loop {
        let Some((text, whole)) = tail(path, size) else { return TailRead { turn: None, last_answer } };
        let (turn, answer) = turn_of(reading, &text);
        last_answer = answer;
        if turn.is_some() || whole || size >= MAX_TAIL_BYTES {
            return TailRead { turn, last_answer };
        }
        size = (size * 4).min(MAX_TAIL_BYTES);
    }
}

/// The turn, read again until the transcript holds the turn the payload names (its prompt: the
/// prompt's id, `prompt_id`, or for Gemini CLI its text) with `answer` (the payload's last
/// assistant message) as its last where the dialect records answers, for at most [`SETTLE`];
/// what was read last, if never. A missing or short file is waited for like one that is behind.
fn read_settled(reading: &ReadAs, path: &Path, prompt_id: Option<&str>, answer: Option<&str>) -> Option<RecordedTurn> {
    let expected = answer.map(str::trim).filter(|answer| !answer.is_empty()).filter(|_| reading.records_answers());
    let mut stopwatch = Stopwatch::start();
    loop {
        let TailRead { turn, last_answer } = read(reading, path);
        // What will never become the transcript is not waited for: a path whose directory does
        // not exist (the agent makes it when the session starts), or something not a file.
        let hopeless = path.parent().is_some_and(|dir| !dir.as_os_str().is_empty() && !dir.is_dir())
            || std::fs::metadata(path).is_ok_and(|meta| !meta.is_file());
        if turn.is_none() && hopeless {
            return None;
        }
        let settled = turn.as_ref().is_some_and(|turn| {
            let answered = expected.is_none_or(|expected| {
                let last = turn.answer.as_deref().map(str::trim);
                last.is_some_and(|last| !last.is_empty() && reading.answer_is(expected, last))
            });
            let this_prompt = prompt_id.is_none_or(|id| turn.prompt_id.as_deref().is_none_or(|found| found == id));
            answered && this_prompt
        });
        if settled {
            return turn;
        }
        // The turn's start cannot be found (it is longer than what is read), but its last answer
        // is the payload's: the turn is all there, and reading again finds no more.
        let caught_up = turn.is_none()
            && expected
                .zip(last_answer.as_deref().map(str::trim))
                .is_some_and(|(expected, last)| !last.is_empty() && reading.answer_is(expected, last));
        if caught_up {
            return None;
        }
        if stopwatch.elapsed() >= SETTLE {
            // The payload's prompt never reached the transcript: what was read is an earlier
            // turn, not this one.
            let other_prompt = turn.as_ref().is_some_and(|turn| {
                prompt_id.zip(turn.prompt_id.as_deref()).is_some_and(|(expected, found)| expected != found)
            });
            return if other_prompt { None } else { turn };
        }
        stopwatch.wait(POLL);
    }
}

/// The turn that ends `text`, if its prompt is in it; else the last answer read, unless a line
/// that cannot be read came before the prompt.
fn turn_of(reading: &ReadAs, text: &str) -> (Option<RecordedTurn>, Option<String>) {
    let mut calls: Vec<Vec<ToolCall>> = Vec::new();
    let mut outcomes: std::collections::HashMap<String, CallOutcome> = std::collections::HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut continued = false;
    let mut answer = None;
    let mut prompted = false;
    let mut prompt_id = None;
    let mut answers = 0;
    // Read backwards, a user text is the prompt unless a Stop hook's entry comes just before it
    // (Droid): it is held until the line before it is seen.
    let mut held: Option<Option<String>> = None;
    for (index, line) in text.lines().rev().filter(|line| !line.trim().is_empty()).enumerate() {
        let Some(line) = parse(reading, line) else {
            // The agent may be writing the last line; any other line that cannot be read may
            // hold calls (a tool input nested past the JSON reader's limit): the turn is unknown.
            if index == 0 {
                continue;
            }
            // Nor is its last answer vouched for: the line may belong to an earlier turn.
            return (None, None);
        };
        if let Some(id) = held.take() {
            if matches!(line, Line::StopHook) {
                continued = true;
                continue;
            }
            prompted = true;
            prompt_id = id;
            break;
        }
        match line {
            Line::Prompt(id) if reading.dialect == Dialect::Droid => held = Some(id),
            Line::Prompt(id) => {
                prompted = true;
                prompt_id = id;
                break;
            }
            Line::Continuation => continued = true,
            Line::StopHook => {}
            Line::Calls(Some(id), found) => {
                if seen.insert(id) {
                    calls.push(found);
                }
            }
            Line::Calls(None, found) => calls.push(found),
            Line::Results(found) => {
                // Read backwards: the last record of a call's end is kept.
                for (id, outcome) in found {
                    outcomes.entry(id).or_insert(outcome);
                }
            }
            Line::Answer(text) => {
                answers += 1;
                answer.get_or_insert(text);
            }
            Line::Other => {}
        }
    }
    if let Some(id) = held {
        // The file's first line is the prompt.
        prompted = true;
        prompt_id = id;
    }
    // Qwen Code records no continuation: a second final answer says there was one.
    if reading.dialect == Dialect::Qwen && answers > 1 {
        continued = true;
    }
    let mut calls: Vec<ToolCall> = calls.into_iter().rev().flatten().collect();
    for call in &mut calls {
        if call.outcome.is_none() {
            call.outcome = call.id.as_ref().and_then(|id| outcomes.get(id)).copied();
        }
    }
    match prompted {
        true => (Some(RecordedTurn { calls, continued, answer, prompt_id }), None),
        false => (None, answer),
    }
}

/// The last `size` bytes of a regular file, from a line start, and whether that is the whole
/// file.
fn tail(path: &Path, size: u64) -> Option<(String, bool)> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO swapped in after the check must not block the open.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let mut file = options.open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let start = meta.len().saturating_sub(size);
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::new();
    file.take(size).read_to_end(&mut bytes).ok()?;
    if start > 0 {
        // The first line is cut: it starts after the first newline.
        let cut = bytes.iter().position(|&byte| byte == b'\n').map_or(bytes.len(), |at| at + 1);
        bytes.drain(..cut);
    }
    Some((String::from_utf8_lossy(&bytes).into_owned(), start == 0))
}

/// What a line says, or `None` when it is not a record of the dialect's shape.
fn parse(reading: &ReadAs, line: &str) -> Option<Line> {
    Some(match reading.dialect {
        Dialect::Claude => serde_json::from_str::<ClaudeEntry>(line).ok()?.line(reading.subagent),
        Dialect::Codex => serde_json::from_str::<CodexEntry>(line).ok()?.line(),
        Dialect::Gemini => serde_json::from_str::<GeminiRecord>(line).ok()?.line(&reading.prompt),
        Dialect::Droid => serde_json::from_str::<DroidEntry>(line).ok()?.line(),
        Dialect::Qwen => serde_json::from_str::<QwenRecord>(line).ok()?.line(),
    })
}

/// A Claude Code transcript entry, as far as the turn is concerned.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClaudeEntry {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    is_meta: bool,
    #[serde(default)]
    is_sidechain: bool,
    #[serde(default)]
    is_compact_summary: bool,
    prompt_id: Option<String>,
    message: Option<ClaudeMessage>,
}

#[derive(Deserialize)]
struct ClaudeMessage {
    content: Option<ClaudeContent>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ClaudeContent {
    Text(String),
    Blocks(Vec<ClaudeBlock>),
}

#[derive(Deserialize)]
struct ClaudeBlock {
    #[serde(rename = "type")]
    kind: String,
    id: Option<String>,
    name: Option<String>,
    input: Option<Map<String, Value>>,
    text: Option<String>,
    /// A `tool_result`'s call.
    tool_use_id: Option<String>,
    /// Whether a `tool_result` reports a failure (a refused or failed call).
    is_error: Option<bool>,
    /// A `tool_result`'s content: text, or blocks with text.
    content: Option<Value>,
}

impl ClaudeBlock {
    /// A `tool_result` block's call and outcome: an error when it says so, and the exit status
    /// a failed command's result starts with (`Exit code 2`).
    fn result(&self) -> Option<(String, CallOutcome)> {
        if self.kind != "tool_result" {
            return None;
        }
        let text = match &self.content {
            Some(Value::String(text)) => Some(text.as_str()),
            Some(Value::Array(blocks)) => blocks.iter().find_map(|block| block.get("text").and_then(Value::as_str)),
            _ => None,
        };
        let status = text.and_then(|text| status_after(text, "Exit code "));
        let ok = !self.is_error.unwrap_or(false) && status.is_none_or(|status| status == 0);
        Some((self.tool_use_id.clone()?, CallOutcome { ok, status }))
    }
}

/// The number right after `label` at the start of a line of `text` (`Exit code 2`).
fn status_after(text: &str, label: &str) -> Option<i64> {
    text.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix(label)?;
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
        digits.parse().ok()
    })
}

/// How Claude Code words a Stop (or SubagentStop) hook's feedback, an `isMeta` user entry.
fn is_stop_feedback(text: &str) -> bool {
    text.starts_with("Stop hook feedback:") || text.starts_with("SubagentStop hook feedback:")
}

impl ClaudeEntry {
    fn line(self, subagent: bool) -> Line {
        // The other thread's entries are not this turn's: a subagent's in the main transcript
        // (older versions kept them there) are its own turn, read at SubagentStop.
        if self.is_sidechain != subagent {
            return Line::Other;
        }
        let content = self.message.and_then(|message| message.content);
        let feedback = match &content {
            Some(ClaudeContent::Text(text)) => is_stop_feedback(text),
            Some(ClaudeContent::Blocks(blocks)) => {
                blocks.iter().any(|block| block.text.as_deref().is_some_and(is_stop_feedback))
            }
            None => false,
        };
        match (self.kind.as_deref(), content) {
            (Some("user"), Some(_)) if self.is_meta && feedback => Line::Continuation,
            // A Stop hook's feedback and other injected text is `isMeta`; a compaction's
            // summary continues the turn.
            (Some("user"), Some(ClaudeContent::Text(_))) if !self.is_meta && !self.is_compact_summary => {
                Line::Prompt(self.prompt_id)
            }
            (Some("user"), Some(ClaudeContent::Blocks(blocks)))
                if !self.is_meta
                    && !self.is_compact_summary
                    && blocks.iter().any(|block| block.kind == "text")
                    && blocks.iter().all(|block| block.kind != "tool_result") =>
            {
                Line::Prompt(self.prompt_id)
            }
            (Some("user"), Some(ClaudeContent::Blocks(blocks)))
                if blocks.iter().any(|block| block.kind == "tool_result") =>
            {
                Line::Results(blocks.iter().filter_map(ClaudeBlock::result).collect())
            }
            // Claude Code writes each block of a message as its own entry.
            (Some("assistant"), Some(ClaudeContent::Blocks(blocks))) => {
                if blocks.iter().any(|block| block.kind == "tool_use") {
                    Line::Calls(
                        None,
                        blocks
                            .into_iter()
                            .filter(|block| block.kind == "tool_use")
                            .filter_map(|block| {
                                let args = block.input.unwrap_or_default();
                                Some(ToolCall { tool: block.name?, args, id: block.id, outcome: None })
                            })
                            .collect(),
                    )
                } else {
                    Line::Answer(blocks.into_iter().filter_map(|block| block.text).collect())
                }
            }
            _ => Line::Other,
        }
    }
}

/// A Codex rollout line, as far as the turn is concerned.
#[derive(Deserialize)]
struct CodexEntry {
    #[serde(rename = "type")]
    kind: String,
    payload: Option<CodexPayload>,
}

#[derive(Deserialize)]
struct CodexPayload {
    #[serde(rename = "type")]
    kind: Option<String>,
    name: Option<String>,
    call_id: Option<String>,
    /// A `function_call`'s arguments: a JSON object, as a string.
    arguments: Option<String>,
    /// A `custom_tool_call`'s input (`apply_patch`'s patch).
    input: Option<String>,
    /// A `local_shell_call`'s action.
    action: Option<Map<String, Value>>,
    /// A `function_call_output`'s or `custom_tool_call_output`'s output: text, or JSON text
    /// with `metadata.exit_code`.
    output: Option<Value>,
    /// A `message`'s role and content parts (an answer's `output_text`).
    role: Option<String>,
    content: Option<Vec<Value>>,
    /// An `item_completed` event's item.
    item: Option<CodexItem>,
}

#[derive(Deserialize)]
struct CodexItem {
    #[serde(rename = "type")]
    kind: Option<String>,
}

impl CodexEntry {
    fn line(self) -> Line {
        let Some(payload) = self.payload else { return Line::Other };
        match (self.kind.as_str(), payload.kind.as_deref()) {
            // Codex 0.169 marks the prompt as a completed `UserMessage` item (a Stop hook's
            // continuation is a `HookPrompt`); earlier releases wrote a `user_message` event.
            ("event_msg", Some("user_message")) => Line::Prompt(None),
            ("event_msg", Some("item_completed")) => match payload.item.and_then(|item| item.kind).as_deref() {
                Some("UserMessage") => Line::Prompt(None),
                Some("HookPrompt") => Line::Continuation,
                _ => Line::Other,
            },
            ("response_item", Some("function_call")) => {
                let args = payload
                    .arguments
                    .as_deref()
                    .and_then(|text| serde_json::from_str::<Map<String, Value>>(text).ok())
                    .unwrap_or_default();
                call(payload.name, args, payload.call_id)
            }
            ("response_item", Some("custom_tool_call")) => {
                let mut args = Map::new();
                if let Some(input) = payload.input {
                    args.insert("input".into(), Value::String(input));
                }
                call(payload.name, args, payload.call_id)
            }
            ("response_item", Some("local_shell_call")) => {
                call(Some("local_shell".into()), payload.action.unwrap_or_default(), payload.call_id)
            }
            ("response_item", Some("message")) if payload.role.as_deref() == Some("assistant") => {
                let texts = payload.content.iter().flatten().filter_map(|part| part.get("text")?.as_str());
                Line::Answer(texts.collect())
            }
            ("response_item", Some("function_call_output" | "custom_tool_call_output")) => {
                match (payload.call_id, payload.output.as_ref().and_then(codex_status)) {
                    (Some(id), Some(status)) => {
                        Line::Results(vec![(id, CallOutcome { ok: status == 0, status: Some(status) })])
                    }
                    _ => Line::Other,
                }
            }
            _ => Line::Other,
        }
    }
}

/// The exit status a Codex call output records: `Process exited with code N` in its text (0.169),
/// or `metadata.exit_code` in its JSON (earlier releases). `None` when it records none.
fn codex_status(output: &Value) -> Option<i64> {
    let text = match output {
        Value::String(text) => text.as_str(),
        Value::Object(object) => return object.get("metadata")?.get("exit_code")?.as_i64(),
        _ => return None,
    };
    if let Ok(Value::Object(object)) = serde_json::from_str::<Value>(text) {
        return object.get("metadata")?.get("exit_code")?.as_i64();
    }
    status_after(text, "Process exited with code ").or_else(|| status_after(text, "Exit code: "))
}

fn call(name: Option<String>, args: Map<String, Value>, id: Option<String>) -> Line {
    match name {
        Some(tool) => Line::Calls(None, vec![ToolCall { tool, args, id, outcome: None }]),
        None => Line::Other,
    }
}

/// A Gemini CLI session record, as far as the turn is concerned: a message (`user`, `gemini`,
/// …) or an update of the session (`$set`), which names no type.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiRecord {
    id: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    content: Option<GeminiContent>,
    #[serde(default)]
    tool_calls: Vec<GeminiCall>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum GeminiContent {
    Text(String),
    Parts(Vec<GeminiPart>),
}

/// What Gemini CLI itself sends as a user message in the middle of a turn: not a Stop hook's
/// continuation (its next-speaker check; its retry of an invalid stream).
const GEMINI_OWN_NUDGES: &[&str] = &["Please continue.", "System: Please continue."];

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiPart {
    text: Option<String>,
    function_response: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
struct GeminiCall {
    id: Option<String>,
    name: String,
    #[serde(default)]
    args: Map<String, Value>,
    /// How the call ended (`success`, `error`, `cancelled`), once it has.
    status: Option<String>,
    /// Its result parts: a shell call's output says `Exit Code: N` when it is not 0.
    #[serde(default)]
    result: Vec<Value>,
}

impl GeminiCall {
    fn outcome(&self) -> Option<CallOutcome> {
        let ok = match self.status.as_deref()? {
            "success" => true,
            "error" | "cancelled" => false,
            _ => return None,
        };
        let output = self.result.iter().find_map(|part| part.pointer("/functionResponse/response/output")?.as_str());
        let status = output.and_then(|output| status_after(output, "Exit Code: "));
        Some(CallOutcome { ok: ok && status.is_none_or(|status| status == 0), status })
    }
}

impl GeminiRecord {
    fn line(self, prompt: &str) -> Line {
        match (self.kind.as_deref(), self.content) {
            (Some("user"), Some(content)) => {
                let text = match content {
                    GeminiContent::Text(text) => text,
                    // Tool results are user messages too: no prompt.
                    GeminiContent::Parts(parts) if parts.iter().any(|part| part.function_response.is_some()) => {
                        return Line::Other
                    }
                    // A BeforeAgent hook's context is a part of its own after the prompt's.
                    GeminiContent::Parts(parts) => parts
                        .into_iter()
                        .filter_map(|part| part.text)
                        .filter(|text| !text.starts_with("<hook_context>"))
                        .collect(),
                };
                if text == prompt {
                    Line::Prompt(None)
                } else if GEMINI_OWN_NUDGES.contains(&text.trim()) {
                    Line::Other
                } else {
                    Line::Continuation
                }
            }
            (Some("gemini"), Some(GeminiContent::Text(text))) if self.tool_calls.is_empty() && !text.is_empty() => {
                Line::Answer(text)
            }
            (Some("gemini"), _) if !self.tool_calls.is_empty() => Line::Calls(
                self.id,
                self.tool_calls
                    .into_iter()
                    .map(|call| {
                        let outcome = call.outcome();
                        ToolCall { tool: call.name, args: call.args, id: call.id, outcome }
                    })
                    .collect(),
            ),
            _ => Line::Other,
        }
    }
}

/// A Factory Droid session line, as far as the turn is concerned.
#[derive(Deserialize)]
struct DroidEntry {
    #[serde(rename = "type")]
    kind: Option<String>,
    message: Option<DroidMessage>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DroidMessage {
    role: Option<String>,
    #[serde(default)]
    content: Vec<ClaudeBlock>,
    /// `user_only` for a hook's own entry, `llm_only` for context Droid injects.
    visibility: Option<String>,
    /// The hook that ran, on its `user_only` entry.
    hook_event_name: Option<String>,
}

impl DroidEntry {
    fn line(self) -> Line {
        let Some(message) = self.message.filter(|_| self.kind.as_deref() == Some("message")) else {
            return Line::Other;
        };
        match (message.role.as_deref(), message.visibility.as_deref(), message.hook_event_name.as_deref()) {
            (Some("user"), _, Some("Stop" | "SubagentStop")) => Line::StopHook,
            (Some("user"), None, None)
                if message.content.iter().any(|block| block.kind == "text")
                    && message.content.iter().all(|block| block.kind != "tool_result") =>
            {
                Line::Prompt(None)
            }
            (Some("user"), _, _) if message.content.iter().any(|block| block.kind == "tool_result") => {
                Line::Results(message.content.iter().filter_map(ClaudeBlock::result).collect())
            }
            (Some("assistant"), _, _) if message.content.iter().any(|block| block.kind == "tool_use") => Line::Calls(
                None,
                message
                    .content
                    .into_iter()
                    .filter(|block| block.kind == "tool_use")
                    .filter_map(|block| {
                        Some(ToolCall {
                            tool: block.name?,
                            args: block.input.unwrap_or_default(),
                            id: block.id,
                            outcome: None,
                        })
                    })
                    .collect(),
            ),
            (Some("assistant"), _, _) => {
                Line::Answer(message.content.into_iter().filter_map(|block| block.text).collect())
            }
            _ => Line::Other,
        }
    }
}

/// A Qwen Code chat record, as far as the turn is concerned.
#[derive(Deserialize)]
struct QwenRecord {
    #[serde(rename = "type")]
    kind: Option<String>,
    uuid: Option<String>,
    message: Option<QwenMessage>,
}

#[derive(Deserialize)]
struct QwenMessage {
    #[serde(default)]
    parts: Vec<QwenPart>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct QwenPart {
    text: Option<String>,
    function_call: Option<GeminiCall>,
    function_response: Option<serde::de::IgnoredAny>,
}

impl QwenRecord {
    fn line(self) -> Line {
        let Some(message) = self.message else { return Line::Other };
        match self.kind.as_deref() {
            Some("user")
                if message.parts.iter().all(|part| part.function_response.is_none())
                    && message.parts.iter().any(|part| part.text.as_deref().is_some_and(|text| !text.is_empty())) =>
            {
                Line::Prompt(None)
            }
            Some("assistant") if message.parts.iter().any(|part| part.function_call.is_some()) => Line::Calls(
                self.uuid,
                message
                    .parts
                    .into_iter()
                    .filter_map(|part| part.function_call)
                    .map(|call| ToolCall { tool: call.name, args: call.args, id: call.id, outcome: None })
                    .collect(),
            ),
            Some("assistant") => Line::Answer(message.parts.into_iter().filter_map(|part| part.text).collect()),
            _ => Line::Other,
        }
    }
}

#[cfg(test)]
mod outcome_tests {
    use super::*;

    fn calls(reading: &ReadAs, lines: &[serde_json::Value]) -> Vec<(String, Option<CallOutcome>)> {
        let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
        let turn = turn_of(reading, &text).0.expect("the turn's prompt is there");
        turn.calls.into_iter().map(|call| (call.tool, call.outcome)).collect()
    }

    /// Each agent's record of how a call ended: an error, and a command's exit status.
    #[test]
    fn every_dialect_reads_how_each_call_ended() {
        use serde_json::json;
        let ok = |status| Some(CallOutcome { ok: true, status });
        let failed = |status| Some(CallOutcome { ok: false, status });
        let claude = calls(
            &ReadAs::plain(Dialect::Claude),
            &[
                json!({"type": "user", "message": {"content": "go"}}),
                json!({"type": "assistant", "message": {"content": [
                    {"type": "tool_use", "id": "a", "name": "Write", "input": {"file_path": "x"}},
                    {"type": "tool_use", "id": "b", "name": "Bash", "input": {"command": "make test"}},
                    {"type": "tool_use", "id": "c", "name": "Bash", "input": {"command": "ls"}}]}}),
                json!({"type": "user", "message": {"content": [
                    {"type": "tool_result", "tool_use_id": "a", "is_error": true, "content": "Permission to use Write has been denied."},
                    {"type": "tool_result", "tool_use_id": "b", "is_error": true, "content": [{"type": "text", "text": "Exit code 2\nmake: *** [test] Error 1"}]},
                    {"type": "tool_result", "tool_use_id": "c", "content": "a b"}]}}),
            ],
        );
        assert_eq!(
            claude.iter().map(|(_, outcome)| *outcome).collect::<Vec<_>>(),
            [failed(None), failed(Some(2)), ok(None)]
        );
        let codex = calls(
            &ReadAs::plain(Dialect::Codex),
            &[
                json!({"type": "event_msg", "payload": {"type": "user_message"}}),
                json!({"type": "response_item", "payload": {"type": "function_call", "name": "exec_command", "call_id": "1", "arguments": "{\"cmd\":\"make test\"}"}}),
                json!({"type": "response_item", "payload": {"type": "function_call_output", "call_id": "1", "output": "Chunk ID: x\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\n"}}),
                json!({"type": "response_item", "payload": {"type": "function_call", "name": "shell", "call_id": "2", "arguments": "{\"command\":[\"ls\"]}"}}),
                json!({"type": "response_item", "payload": {"type": "function_call_output", "call_id": "2", "output": "{\"output\":\"\",\"metadata\":{\"exit_code\":0}}"}}),
            ],
        );
        assert_eq!(codex.iter().map(|(_, outcome)| *outcome).collect::<Vec<_>>(), [failed(Some(2)), ok(Some(0))]);
        let gemini = calls(
            &ReadAs { prompt: "go".into(), ..ReadAs::plain(Dialect::Gemini) },
            &[
                json!({"id": "u", "type": "user", "content": [{"text": "go"}]}),
                json!({"id": "m", "type": "gemini", "content": "", "toolCalls": [
                    {"id": "1", "name": "run_shell_command", "args": {"command": "make test"}, "status": "success",
                     "result": [{"functionResponse": {"response": {"output": "Output: boom\nExit Code: 2"}}}]},
                    {"id": "2", "name": "write_file", "args": {"file_path": "x"}, "status": "error"},
                    {"id": "3", "name": "run_shell_command", "args": {"command": "ls"}, "status": "success"}]}),
            ],
        );
        assert_eq!(
            gemini.iter().map(|(_, outcome)| *outcome).collect::<Vec<_>>(),
            [failed(Some(2)), failed(None), ok(None)]
        );
    }
}
