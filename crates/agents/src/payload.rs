//! One mapper for every agent's payload: the agent's file says where each field is
//! ([`Payload`]'s pointers, each event's [`Call`]); this reads them, the same way for all.

use super::failure::HookFailure;
use super::output::{self, Shape};
use super::transcript;
use hookc_core::model::event::{Common, Event, EventData, StopInfo, ToolCall};
use hookc_core::model::result::ToolOutput;
use hookc_core::vocab::agents::schema::{self, Answer, Call, Mark, Payload, Ptrs, RootFrom, StopFlag};
use hookc_core::vocab::agents::{self, Agent, EventSpec};
use hookc_core::vocab::EventKind;
use serde_json::{Map, Value};

/// An agent's payload, mapped: the native event to evaluate (a call that touches several files
/// is judged per file by evaluation itself), and what rendering the answer needs.
pub(super) struct Mapped {
    /// The event.
    pub event: Event,
    /// Protocol details kept for rendering.
    pub context: Context,
    /// Where a Stop's turn is recorded: read before evaluation, when the policy has rules for
    /// the event.
    pub turn: Option<transcript::TurnLog>,
}

/// What rendering the answer needs to know about the call.
#[derive(Debug)]
pub(super) struct Context {
    /// The agent that sent the payload (a guest of the hook's agent, when its payload says so).
    pub agent: &'static Agent,
    /// How the answer is written.
    pub answer: Answer,
    /// The agent's name for the event.
    pub event_name: String,
    /// The native event.
    pub kind: EventKind,
    /// The tool's name, for tool events.
    pub tool: String,
    /// The tool's response and its shape (PostToolUse).
    pub tool_response: Option<(Value, Shape)>,
}

/// A payload's top-level object, each key once: a payload that names a field twice (the last
/// would win in a plain map, the first in another reader) is refused.
struct Object(Map<String, Value>);

impl<'de> serde::Deserialize<'de> for Object {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Object, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Object;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut access: A) -> Result<Object, A::Error> {
                let mut fields = Map::new();
                while let Some(key) = access.next_key::<String>()? {
                    if fields.contains_key(&key) {
                        return Err(serde::de::Error::custom(format_args!("duplicate field `{key}`")));
                    }
                    let value: Value = access.next_value()?;
                    fields.insert(key, value);
                }
                Ok(Object(fields))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// Decodes a payload (UTF-8 first, so the message says which problem it is) into its top-level
/// object.
pub(super) fn decode(payload: &[u8]) -> Result<Value, HookFailure> {
    let text = std::str::from_utf8(payload).map_err(|error| HookFailure::NotUtf8(error.valid_up_to()))?;
    let Object(fields) = serde_json::from_str(text).map_err(|error| HookFailure::NotJson(error.to_string()))?;
    Ok(Value::Object(fields))
}

/// The first of these pointers that is present and not `null`, with the pointer.
fn pick(root: &Value, pointers: Ptrs) -> Option<(&'static str, &Value)> {
    pointers.iter().find_map(|pointer| root.pointer(pointer).filter(|value| !value.is_null()).map(|v| (*pointer, v)))
}

/// A field's name as the agent spells it: the pointer's last step.
fn field_name(pointer: &str) -> String {
    pointer.rsplit('/').next().unwrap_or(pointer).to_string()
}

/// The agent a payload is from: the hook's agent, or one of its guests whose signature the
/// payload carries (VS Code runs Claude Code's hooks with payloads of its own).
pub(super) fn speaker(host: &'static Agent, root: &Value) -> &'static Agent {
    let guests = || host.guests.iter().filter_map(|guest| agents::find(guest));
    let matches = |guest: &&Agent| guest.signature.iter().all(|mark| marked(*mark, root));
    // A mark the payload itself carries is surer than the environment (which a hook can inherit
    // from a Copilot CLI session the agent was started in): those guests are tried first.
    let by_payload = |guest: &&Agent| guest.signature.iter().all(|mark| matches!(mark, Mark::Key(_)));
    guests().filter(by_payload).find(matches).or_else(|| guests().find(matches)).unwrap_or(host)
}

/// Whether a hook call carries a mark.
fn marked(mark: Mark, root: &Value) -> bool {
    match mark {
        Mark::Key(key) => root.get(key).is_some(),
        Mark::Env(name) => std::env::var_os(name).is_some_and(|value| !value.is_empty()),
    }
}

/// The event a payload is for: its own name for it, else the one the hook command gives.
fn event_spec(agent: &'static Agent, root: &Value, given: Option<&str>) -> Result<&'static EventSpec, HookFailure> {
    let name = match pick(root, agent.payload.event) {
        Some((_, Value::String(name))) => name.clone(),
        Some((pointer, _)) => {
            return Err(HookFailure::WrongType {
                event: "hook".into(),
                field: field_name(pointer),
                expected: "a string",
            })
        }
        None => given.ok_or(HookFailure::NoEvent)?.to_string(),
    };
    agent.event(&name).ok_or(HookFailure::UnknownEvent(name))
}

/// Reads one event's fields.
struct Fields<'v> {
    root: &'v Value,
    event: &'static str,
}

impl Fields<'_> {
    fn value(&self, pointers: Ptrs) -> Option<&Value> {
        pick(self.root, pointers).map(|(_, value)| value)
    }

    fn text(&self, pointers: Ptrs) -> Result<Option<String>, HookFailure> {
        match pick(self.root, pointers) {
            None => Ok(None),
            Some((_, Value::String(text))) => Ok(Some(text.clone())),
            Some((pointer, _)) => Err(self.wrong(pointer, "a string")),
        }
    }

    fn flag(&self, pointers: Ptrs) -> Result<Option<bool>, HookFailure> {
        match pick(self.root, pointers) {
            None => Ok(None),
            Some((_, Value::Bool(flag))) => Ok(Some(*flag)),
            Some((pointer, _)) => Err(self.wrong(pointer, "a boolean")),
        }
    }

    fn required_text(&self, pointers: Ptrs) -> Result<String, HookFailure> {
        self.text(pointers)?.ok_or_else(|| self.missing(pointers))
    }

    fn missing(&self, pointers: Ptrs) -> HookFailure {
        let field = pointers.first().map_or_else(|| "?".to_string(), |pointer| field_name(pointer));
        HookFailure::Missing { event: self.event.to_string(), field }
    }

    fn wrong(&self, pointer: &str, expected: &'static str) -> HookFailure {
        HookFailure::WrongType { event: self.event.to_string(), field: field_name(pointer), expected }
    }

    /// A tool's input: an object, or a JSON text of one (Copilot CLI's docs show a text; its
    /// 1.0.102 sends an object).
    fn object(&self, pointers: Ptrs) -> Result<Map<String, Value>, HookFailure> {
        match pick(self.root, pointers) {
            None => Err(self.missing(pointers)),
            Some((_, Value::Object(object))) => Ok(object.clone()),
            Some((pointer, Value::String(text))) => match serde_json::from_str::<Object>(text) {
                Ok(Object(object)) => Ok(object),
                Err(_) => Err(self.wrong(pointer, "an object, or a JSON text of one")),
            },
            Some((pointer, _)) => Err(self.wrong(pointer, "an object")),
        }
    }

    fn call(&self, payload: &Payload, call: Call) -> Result<ToolCall, HookFailure> {
        match call {
            Call::Payload => Ok(ToolCall {
                tool: self.required_text(payload.tool_name)?,
                args: self.object(payload.tool_input)?,
                id: self.text(payload.tool_use_id)?,
                outcome: None,
            }),
            Call::Implied { tool, args } => Ok(ToolCall {
                tool: tool.to_string(),
                args: args
                    .iter()
                    .filter_map(|(name, pointers)| self.value(pointers).map(|value| (name.to_string(), value.clone())))
                    .collect(),
                id: self.text(payload.tool_use_id)?,
                outcome: None,
            }),
        }
    }
}

/// Maps a payload that arrived at `host`'s hook: `given` is the event the hook command names
/// (`--event`), for agents whose payload does not.
pub(super) fn map(host: &'static Agent, payload: &[u8], given: Option<&str>) -> Result<Mapped, HookFailure> {
    let root = decode(payload)?;
    let agent = speaker(host, &root);
    let spec = event_spec(agent, &root, given)?;
    let reader = Fields { root: &root, event: spec.name };
    let fields = &agent.payload;
    let common = Common {
        cwd: reader.text(fields.cwd)?,
        session_id: reader.text(fields.session)?,
        permission_mode: reader.text(fields.permission_mode)?,
        agent: Some(agent.id.to_string()),
        // Only recorded: a version of another type is left out, never a failure.
        agent_version: reader.text(fields.version).ok().flatten(),
        ..Common::default()
    };
    let common = Common { project_root: project_root(agent, Some(&root), common.cwd.as_deref()), ..common };
    let mut tool = String::new();
    let mut tool_response = None;
    let mut turn = None;
    let data = match spec.kind {
        EventKind::PreToolUse | EventKind::PermissionRequest => {
            let call = reader.call(fields, spec.call)?;
            tool.clone_from(&call.tool);
            match spec.kind {
                EventKind::PreToolUse => EventData::PreToolUse(call),
                _ => EventData::PermissionRequest(call),
            }
        }
        EventKind::PostToolUse => {
            let response =
                reader.value(fields.tool_response).cloned().ok_or_else(|| reader.missing(fields.tool_response))?;
            let (content, shape) = output::read(&response);
            let failed = reader.value(fields.tool_failed).is_some_and(|value| match value {
                Value::Bool(failed) => *failed,
                Value::String(outcome) => outcome != "success",
                _ => true,
            }) || reader.value(fields.tool_ok) == Some(&Value::Bool(false));
            let call = reader.call(fields, spec.call)?;
            tool.clone_from(&call.tool);
            tool_response = Some((response, shape));
            EventData::PostToolUse(call, ToolOutput { content, is_error: failed })
        }
        EventKind::PostToolUseFailure => {
            let call = reader.call(fields, spec.call)?;
            tool.clone_from(&call.tool);
            EventData::PostToolUseFailure(call, reader.text(fields.error)?.unwrap_or_default())
        }
        EventKind::UserPromptSubmit => EventData::UserPromptSubmit { prompt: reader.required_text(fields.prompt)? },
        EventKind::Stop | EventKind::SubagentStop => {
            let last_message = reader.text(fields.last_message)?;
            turn = turn_source(agent, &reader, spec.kind, last_message.clone())?;
            let stop = StopInfo {
                stop_hook_active: reader.flag(fields.stop_hook_active)?.unwrap_or(false),
                last_message,
                ..StopInfo::default()
            };
            match spec.kind {
                EventKind::Stop => EventData::Stop(stop),
                _ => EventData::SubagentStop(stop),
            }
        }
        EventKind::SessionStart => EventData::SessionStart { source: reader.text(fields.source)? },
        EventKind::SessionEnd => EventData::SessionEnd { reason: reader.text(fields.reason)? },
        EventKind::PreCompact => EventData::PreCompact { trigger: reader.text(fields.trigger)? },
        EventKind::Notification => {
            EventData::Notification { message: reader.text(fields.message)?.unwrap_or_default() }
        }
    };
    let context = Context {
        agent,
        answer: spec.answer.unwrap_or(agent.answer),
        event_name: spec.name.to_string(),
        kind: spec.kind,
        tool,
        tool_response,
    };
    Ok(Mapped { event: Event { common, data }, context, turn })
}

/// Where a Stop's turn is recorded, in the agent's dialect.
fn turn_source(
    agent: &Agent,
    reader: &Fields<'_>,
    kind: EventKind,
    last_message: Option<String>,
) -> Result<Option<transcript::TurnLog>, HookFailure> {
    let Some(spec) = agent.transcript else { return Ok(None) };
    let fields = &agent.payload;
    // A subagent's turn is in its own transcript; the session's is the main turn's.
    let pointers = match kind {
        EventKind::SubagentStop => fields.subagent_transcript,
        _ => fields.transcript,
    };
    let Some(path) = reader.text(pointers)? else { return Ok(None) };
    let reading = transcript::ReadAs {
        dialect: spec.dialect,
        subagent: kind == EventKind::SubagentStop,
        prompt: match spec.dialect {
            schema::Dialect::Gemini => reader.text(fields.prompt)?.unwrap_or_default(),
            _ => String::new(),
        },
    };
    let expected = transcript::Expected { prompt_id: reader.text(fields.prompt_id)?, answer: last_message };
    // An agent whose flag says true from the first Stop (Qwen Code) is told by its transcript.
    let replace_flag = agent.stop_flag == StopFlag::TrueFromTheStart;
    Ok(Some(transcript::TurnLog { reading, path: path.into(), expected, replace_flag }))
}

/// The project root an agent tells its hooks, if any.
pub(super) fn project_root(agent: &Agent, root: Option<&Value>, cwd: Option<&str>) -> Option<String> {
    agent.project_root.iter().find_map(|from| match from {
        RootFrom::Env(name) => std::env::var(name).ok().filter(|value| !value.is_empty()),
        RootFrom::HookDir => {
            let session = std::env::current_dir().ok()?.to_string_lossy().into_owned();
            cwd.is_some_and(|cwd| hookc_core::paths::is_within(cwd, &session)).then_some(session)
        }
        RootFrom::Payload(pointers) => match pick(root?, pointers)?.1 {
            Value::String(dir) => Some(dir.clone()),
            Value::Array(dirs) => dirs.first()?.as_str().map(str::to_string),
            _ => None,
        },
    })
}

/// What a payload says of itself, read leniently for a call that failed (the payload may be
/// what failed): a payload that is not one JSON object with each key once says nothing.
#[derive(Debug, Default)]
pub(super) struct Said {
    /// The agent that sent it.
    pub agent: Option<&'static Agent>,
    /// How its answer is written.
    pub answer: Option<Answer>,
    /// The native event, when the payload names one the agent has.
    pub event: Option<EventKind>,
    /// `stop_hook_active`.
    pub stop_hook_active: Option<bool>,
    /// The session.
    pub session_id: Option<String>,
    /// The working directory.
    pub cwd: Option<String>,
    /// The tool.
    pub tool: Option<String>,
    /// The agent's version.
    pub agent_version: Option<String>,
}

impl Said {
    /// Reads what it can.
    pub(super) fn read(host: &'static Agent, payload: &[u8], given: Option<&str>) -> Said {
        let Ok(root) = decode(payload) else { return Said::default() };
        let agent = speaker(host, &root);
        let text = |pointers: Ptrs| pick(&root, pointers).and_then(|(_, value)| value.as_str()).map(str::to_string);
        let spec = event_spec(agent, &root, given).ok();
        let tool = match spec.map(|spec| spec.call) {
            Some(Call::Implied { tool, .. }) => Some(tool.to_string()),
            _ => text(agent.payload.tool_name),
        };
        Said {
            agent: Some(agent),
            answer: Some(spec.and_then(|spec| spec.answer).unwrap_or(agent.answer)),
            event: spec.map(|spec| spec.kind),
            stop_hook_active: pick(&root, agent.payload.stop_hook_active).and_then(|(_, value)| value.as_bool()),
            session_id: text(agent.payload.session),
            cwd: text(agent.payload.cwd),
            agent_version: text(agent.payload.version),
            tool,
        }
    }

    /// Whether a failure may let the agent stop: a Stop or SubagentStop that says a hook already
    /// continued it, and any Stop of an agent whose flag cannot be trusted (Gemini CLI says
    /// `stop_hook_active: false` again after a continuation that ran a tool, so blocking a
    /// failing AfterAgent would loop it).
    pub(super) fn may_stop(&self) -> bool {
        let stopping = matches!(self.event, Some(EventKind::Stop | EventKind::SubagentStop));
        let unreliable = self.agent.is_some_and(|agent| agent.stop_flag != StopFlag::Reliable);
        stopping && (unreliable || self.stop_hook_active == Some(true))
    }
}
