//! Native events: what an agent hands hookc at a hook point (`hookc eval` reads them as JSON).

use super::result::ToolOutput;
use crate::vocab::EventKind;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Native event payloads larger than this are refused (fail closed) rather than read.
pub const MAX_EVENT_BYTES: usize = 32 * 1024 * 1024;

/// One event at a hook point.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Fields every event may carry.
    pub common: Common,
    /// The event and its own fields.
    pub data: EventData,
}

/// Fields any event may carry, when the agent knows them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Common {
    /// The agent's working directory; relative paths are joined to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The project root: paths inside it are spelled relative to it (default: `cwd`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_root: Option<String>,
    /// The agent's session id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The agent's permission mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_mode: Option<String>,
    /// Which agent sent the event (`native`, `claude`, `codex`, `gemini`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The agent's version, where its payload says (for the audit record).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_version: Option<String>,
}

impl Common {
    /// A tool name as the vocabulary knows it on this event's agent.
    pub fn resolve(&self, tool: &str) -> crate::vocab::tools::Resolved {
        crate::vocab::agents::resolve(self.agent.as_deref(), tool)
    }
}

/// The event-specific part.
#[derive(Debug, Clone, PartialEq)]
pub enum EventData {
    /// The user submitted a prompt.
    UserPromptSubmit {
        /// The prompt.
        prompt: String,
    },
    /// A tool call is about to be decided.
    PreToolUse(ToolCall),
    /// A tool call ran.
    PostToolUse(ToolCall, ToolOutput),
    /// The model stopped without tool calls.
    Stop(StopInfo),
    /// A session started or resumed.
    SessionStart {
        /// `startup`, `resume`, `clear` or `compact`, when known.
        source: Option<String>,
    },
    /// A session ended.
    SessionEnd {
        /// Why, when known.
        reason: Option<String>,
    },
    /// A subagent stopped.
    SubagentStop(StopInfo),
    /// A tool call failed.
    PostToolUseFailure(ToolCall, String),
    /// The history is about to be compacted.
    PreCompact {
        /// `manual` or `auto`, when known.
        trigger: Option<String>,
    },
    /// The agent sent a notification.
    Notification {
        /// Its text.
        message: String,
    },
    /// The agent is about to ask its user to approve a tool call.
    PermissionRequest(ToolCall),
}

/// A prepared tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolCall {
    /// The tool's name as the agent knows it.
    pub tool: String,
    /// The arguments object.
    #[serde(default)]
    pub args: Map<String, Value>,
    /// The call id, when the agent has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// How the call ended, in a Stop's turn, where the agent's record of it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<CallOutcome>,
}

/// How a call of a turn ended, as the agent recorded it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallOutcome {
    /// Whether the call succeeded: its result is no error (a refused write, a failed command).
    pub ok: bool,
    /// A command's exit status, where the record gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<i64>,
}

/// What a Stop hook sees. The turn is the span since the user's last prompt (a Stop hook's
/// forced continuation does not start a new one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StopInfo {
    /// Whether this Stop follows one that forced a continuation.
    pub stop_hook_active: bool,
    /// How many tool results the turn holds, when known.
    pub tool_calls: Option<u64>,
    /// The last assistant message, if any.
    pub last_message: Option<String>,
    /// The turn's tool calls, in order, when known (rules read them as `commands`,
    /// `files_written` and `tools_used`).
    pub calls: Option<Vec<ToolCall>>,
}

impl StopInfo {
    /// The turn of a history: what follows its last user message, each call with the outcome
    /// its tool message reports.
    pub fn turn_of(history: &[Message]) -> (u64, Vec<ToolCall>) {
        let start = history.iter().rposition(|message| message.role == "user").map_or(0, |at| at + 1);
        let turn = history.get(start..).unwrap_or_default();
        let results = turn.iter().filter(|message| message.role == "tool").count() as u64;
        let mut calls: Vec<ToolCall> = turn.iter().flat_map(|message| message.tool_calls.iter().cloned()).collect();
        for message in turn.iter().filter(|message| message.role == "tool") {
            let Some(id) = &message.tool_call_id else { continue };
            if let Some(call) = calls.iter_mut().find(|call| call.id.as_ref() == Some(id)) {
                call.outcome = Some(CallOutcome { ok: !message.is_error, status: None });
            }
        }
        (results, calls)
    }
}

/// One message of a history, as native Stop events carry it (the reference loop's messages
/// read as these).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Message {
    /// `user`, `assistant`, `tool` or `system`.
    pub role: String,
    /// The text.
    #[serde(default)]
    pub content: String,
    /// An assistant message's tool calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// A tool message's call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Whether a tool message reports a failed call (the seed's `isError`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

/// Why an event could not be read. Each reads as one line.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// Not UTF-8.
    #[error("the event is not valid UTF-8 (invalid byte at offset {0})")]
    NotUtf8(usize),
    /// Too large.
    #[error("the event is larger than the {MAX_EVENT_BYTES}-byte limit")]
    TooLarge,
    /// Not JSON.
    #[error("the event is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// JSON, but not a native event: a field hookc does not know or one of the wrong type.
    #[error("the event is JSON but not a native hookc event: {error}{hint}")]
    Shape {
        /// What serde found.
        error: serde_json::Error,
        /// What was likely meant, where known (`; a tool's output is \`result\`…`), or empty.
        hint: &'static str,
    },
    /// An event name hookc does not know.
    #[error("unknown event `{0}`; the events are `user_prompt_submit`, `pre_tool_use`, `post_tool_use`, `stop`, `session_start`, `session_end`, `subagent_stop`, `post_tool_use_failure`, `pre_compact` and `notification`")]
    UnknownEvent(String),
    /// A field the event needs is absent.
    #[error("a `{event}` event needs the field `{field}`")]
    Missing {
        /// The event.
        event: &'static str,
        /// The missing field.
        field: &'static str,
    },
}

/// Fields other tools' events have that a native event names otherwise, and what to write.
const MEANT: [(&str, &str); 3] = [
    ("output", "; a post_tool_use event's tool output is `result`: {\"content\": \"…\", \"is_error\": false}"),
    ("tool_input", "; a native event's arguments are `args` (an agent's own payload is read by `--agent`)"),
    ("tool_name", "; a native event's tool is `tool` (an agent's own payload is read by `--agent`)"),
];

/// Every field any native event may have, as read; [`Event::from_json`] then checks the event
/// has what it needs. One flat struct keeps parsing fast and errors specific, and unknown fields
/// are refused: a misspelt `arg` must not turn into an event with no arguments that no rule
/// matches (a silent allow).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEvent {
    event: String,
    cwd: Option<String>,
    project_root: Option<String>,
    session_id: Option<String>,
    permission_mode: Option<String>,
    #[serde(default)]
    agent_version: Option<String>,
    agent: Option<String>,
    tool: Option<String>,
    args: Option<Map<String, Value>>,
    id: Option<String>,
    result: Option<ToolOutput>,
    prompt: Option<String>,
    stop_hook_active: Option<bool>,
    history: Option<Vec<Message>>,
    tool_calls: Option<u64>,
    last_message: Option<String>,
    error: Option<String>,
    source: Option<String>,
    reason: Option<String>,
    trigger: Option<String>,
    message: Option<String>,
}

impl Event {
    /// Reads a native event from JSON bytes.
    pub fn from_json(bytes: &[u8]) -> Result<Event, EventError> {
        if bytes.len() > MAX_EVENT_BYTES {
            return Err(EventError::TooLarge);
        }
        let text = std::str::from_utf8(bytes).map_err(|error| EventError::NotUtf8(error.valid_up_to()))?;
        let raw: RawEvent = serde_json::from_str(text).map_err(|error| match error.classify() {
            serde_json::error::Category::Data => {
                let hint = MEANT
                    .iter()
                    .find(|(field, _)| error.to_string().starts_with(&format!("unknown field `{field}`")))
                    .map_or("", |(_, hint)| *hint);
                EventError::Shape { error, hint }
            }
            _ => EventError::Json(error),
        })?;
        raw.into_event()
    }

    /// Which hook point this is.
    pub fn kind(&self) -> EventKind {
        match self.data {
            EventData::UserPromptSubmit { .. } => EventKind::UserPromptSubmit,
            EventData::PreToolUse(_) => EventKind::PreToolUse,
            EventData::PostToolUse(..) => EventKind::PostToolUse,
            EventData::Stop(_) => EventKind::Stop,
            EventData::SessionStart { .. } => EventKind::SessionStart,
            EventData::SessionEnd { .. } => EventKind::SessionEnd,
            EventData::SubagentStop(_) => EventKind::SubagentStop,
            EventData::PostToolUseFailure(..) => EventKind::PostToolUseFailure,
            EventData::PreCompact { .. } => EventKind::PreCompact,
            EventData::Notification { .. } => EventKind::Notification,
            EventData::PermissionRequest(_) => EventKind::PermissionRequest,
        }
    }

    /// The tool call, for tool events.
    pub fn tool_call(&self) -> Option<&ToolCall> {
        match &self.data {
            EventData::PreToolUse(call)
            | EventData::PostToolUse(call, _)
            | EventData::PostToolUseFailure(call, _)
            | EventData::PermissionRequest(call) => Some(call),
            _ => None,
        }
    }

    /// The call's tool as the vocabulary knows it on the event's agent (the seed's, for a native
    /// event); nothing known for events without a tool.
    pub fn resolved_tool(&self) -> crate::vocab::tools::Resolved {
        self.tool_call().map(|call| self.common.resolve(&call.tool)).unwrap_or_default()
    }

    /// The stop information, for `stop` and `subagent_stop`.
    pub fn stop_info(&self) -> Option<&StopInfo> {
        match &self.data {
            EventData::Stop(stop) | EventData::SubagentStop(stop) => Some(stop),
            _ => None,
        }
    }

    /// The stop information, to fill in.
    pub fn stop_info_mut(&mut self) -> Option<&mut StopInfo> {
        match &mut self.data {
            EventData::Stop(stop) | EventData::SubagentStop(stop) => Some(stop),
            _ => None,
        }
    }
}

impl RawEvent {
    fn into_event(self) -> Result<Event, EventError> {
        let kind = EventKind::from_name(&self.event).ok_or_else(|| EventError::UnknownEvent(self.event.clone()))?;
        let missing = |field| EventError::Missing { event: kind.name(), field };
        let data = match kind {
            EventKind::UserPromptSubmit => {
                EventData::UserPromptSubmit { prompt: self.prompt.ok_or(missing("prompt"))? }
            }
            EventKind::PreToolUse
            | EventKind::PostToolUse
            | EventKind::PostToolUseFailure
            | EventKind::PermissionRequest => {
                let call = ToolCall {
                    tool: self.tool.ok_or(missing("tool"))?,
                    args: self.args.unwrap_or_default(),
                    id: self.id,
                    outcome: None,
                };
                match kind {
                    EventKind::PreToolUse => EventData::PreToolUse(call),
                    EventKind::PermissionRequest => EventData::PermissionRequest(call),
                    EventKind::PostToolUse => EventData::PostToolUse(call, self.result.ok_or(missing("result"))?),
                    _ => EventData::PostToolUseFailure(call, self.error.ok_or(missing("error"))?),
                }
            }
            EventKind::SessionStart => EventData::SessionStart { source: self.source },
            EventKind::SessionEnd => EventData::SessionEnd { reason: self.reason },
            EventKind::PreCompact => EventData::PreCompact { trigger: self.trigger },
            EventKind::Notification => EventData::Notification { message: self.message.ok_or(missing("message"))? },
            EventKind::Stop | EventKind::SubagentStop => {
                let history = self.history.unwrap_or_default();
                let (counted, calls) = StopInfo::turn_of(&history);
                let last_assistant = history
                    .iter()
                    .rev()
                    .find(|message| message.role == "assistant")
                    .map(|message| message.content.clone());
                let stop = StopInfo {
                    stop_hook_active: self.stop_hook_active.unwrap_or(false),
                    tool_calls: Some(self.tool_calls.unwrap_or(counted)),
                    last_message: self.last_message.or(last_assistant),
                    calls: Some(calls),
                };
                if kind == EventKind::Stop {
                    EventData::Stop(stop)
                } else {
                    EventData::SubagentStop(stop)
                }
            }
        };
        let common = Common {
            cwd: self.cwd,
            project_root: self.project_root,
            session_id: self.session_id,
            permission_mode: self.permission_mode,
            agent: self.agent,
            agent_version: self.agent_version,
        };
        Ok(Event { common, data })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_counts_tool_results_and_finds_the_last_answer() {
        let event = Event::from_json(
            br#"{"event":"stop","history":[{"role":"user","content":"go"},{"role":"tool","content":"x"},
                {"role":"assistant","content":"done"}]}"#,
        )
        .unwrap();
        let EventData::Stop(stop) = event.data else { panic!("not a stop") };
        assert_eq!(stop.tool_calls, Some(1));
        assert_eq!(stop.last_message.as_deref(), Some("done"));
    }

    #[test]
    fn the_turn_is_what_follows_the_last_user_message() {
        let event = Event::from_json(
            br#"{"event":"stop","history":[
                {"role":"user","content":"first"},
                {"role":"assistant","content":"","tool_calls":[{"id":"a","tool":"Bash","args":{"command":"ls"}}]},
                {"role":"tool","content":"x","tool_call_id":"a"},
                {"role":"user","content":"second"},
                {"role":"assistant","content":"","tool_calls":[{"id":"b","tool":"Bash","args":{"command":"make test"}}]},
                {"role":"tool","content":"ok","tool_call_id":"b"},
                {"role":"assistant","content":"done"}]}"#,
        )
        .unwrap();
        let stop = event.stop_info().unwrap();
        assert_eq!(stop.tool_calls, Some(1));
        let calls = stop.calls.as_deref().unwrap();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].args["command"], "make test");
        let misspelt = Event::from_json(br#"{"event":"stop","history":[{"role":"assistant","toolcalls":[]}]}"#);
        assert!(misspelt.unwrap_err().to_string().contains("unknown field `toolcalls`"));
    }

    #[test]
    fn bad_events_say_what_is_wrong() {
        let cases: &[(&[u8], &str)] = &[
            (b"{", "not valid JSON"),
            (br#"{"event":"nope"}"#, "unknown event `nope`"),
            (br#"{"event":"pre_tool_use"}"#, "needs the field `tool`"),
            (br#"{"event":"pre_tool_use","tool":3}"#, "invalid type"),
            (br#"{"event":"pre_tool_use","tool":3}"#, "not a native hookc event"),
            (br#"{"event":"post_tool_use","tool":"t","args":{},"output":"x"}"#, "tool output is `result`"),
            (b"\xff", "not valid UTF-8"),
            (br#"{"event":"stop","extra":1}"#, "unknown field `extra`"),
        ];
        for (input, expected) in cases {
            let error = Event::from_json(input).unwrap_err().to_string();
            assert!(error.contains(expected), "{error} should contain {expected}");
            assert!(!error.contains('\n'), "{error} should be one line");
        }
    }
}
