//! What a language binding drives (`bindings/node`, `bindings/python`, `bindings/wasm`): a
//! policy's decisions from JSON text to JSON text within the CLI's limits ([`evaluate_json`],
//! [`answer`]), failures with the codes every binding throws ([`Failure`]), and one event's hooks
//! merged one result at a time ([`Chain`]), with the event and results as JSON, so that a registry
//! whose callbacks live in another language (and may be asynchronous there) merges by these rules
//! and no second implementation of them. The binding runs its callbacks and hands their results
//! here.

use super::registry::{Chain, HookError};
use hookc_core::model::event::{Event, EventData, EventError, MAX_EVENT_BYTES};
use hookc_core::model::result::HookResult;
use hookc_core::LogRecord;
use hookc_core::Policy;
use serde_json::{json, Value};

/// Why a binding's call failed: the code its language's error carries (`HOOKC_EVENT`, `E0101`…),
/// the message, and for rules that do not check, every diagnostic.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// `HOOKC_EVENT`, `HOOKC_EVAL`, `HOOKC_AGENT`, `HOOKC_LOAD`, or a load error's first
    /// diagnostic's code.
    pub code: String,
    /// What went wrong (a load error's diagnostics rendered as `hookc check` prints them).
    pub message: String,
    /// A load error's diagnostics: `[{code, severity, message}]`.
    pub diagnostics: Option<Value>,
}

impl Failure {
    /// A failure with no diagnostics.
    pub fn new(code: &str, message: impl std::fmt::Display) -> Failure {
        Failure { code: code.to_string(), message: message.to_string(), diagnostics: None }
    }

    /// `{"code", "message", "diagnostics"?}`, as the JavaScript bindings rethrow it.
    pub fn to_json(&self) -> Value {
        let mut body = serde_json::Map::new();
        body.insert("code".into(), json!(self.code));
        body.insert("message".into(), json!(self.message));
        if let Some(diagnostics) = &self.diagnostics {
            body.insert("diagnostics".into(), diagnostics.clone());
        }
        Value::Object(body)
    }
}

impl From<hookc_core::LoadError> for Failure {
    fn from(error: hookc_core::LoadError) -> Failure {
        let (code, diagnostics) = error.code_and_diagnostics();
        let message = match &error {
            hookc_core::LoadError::Invalid { rendered, .. } => rendered.clone(),
            other => other.to_string(),
        };
        Failure { code: code.to_string(), message, diagnostics }
    }
}

/// One native event's HookResult, from JSON text to JSON text, within the limits of a hook call
/// (`hookc eval`'s size limit and nesting depth, [`Policy::evaluate_bounded`]'s compile budget).
pub fn evaluate_json(policy: &Policy, event: &str) -> Result<String, Failure> {
    let event = read_event(event)?;
    let result = policy.evaluate_bounded(&event).map_err(|error| Failure::new("HOOKC_EVAL", error))?;
    serde_json::to_string(&result).map_err(|error| Failure::new("HOOKC_EVAL", error))
}

/// A native event from JSON text, within `hookc eval`'s limits.
pub fn read_event(event: &str) -> Result<Event, Failure> {
    if event.len() > MAX_EVENT_BYTES {
        return Err(Failure::new("HOOKC_EVENT", "the event is over hookc's size limit"));
    }
    Event::from_json(event.as_bytes()).map_err(|error| Failure::new("HOOKC_EVENT", error))
}

/// What `hookc hook AGENT` would print and exit with for `payload` (`event` names the hook
/// point where the agent's payload does not: `hookc hook AGENT --event`).
pub fn answer(
    policy: &Policy,
    agent: &str,
    payload: &str,
    event: Option<String>,
) -> Result<hookc_agents::HookAnswer, Failure> {
    let agent =
        hookc_core::agents::find(agent).ok_or_else(|| Failure::new("HOOKC_AGENT", format!("no agent `{agent}`")))?;
    let options = hookc_agents::HookOptions { event, ..hookc_agents::HookOptions::default() };
    Ok(hookc_agents::answer_hook(agent, Ok(policy), payload.as_bytes(), &options))
}

/// One native event's chain of hooks, read from JSON.
#[derive(Debug, Clone)]
pub struct JsonChain {
    chain: Chain,
    /// The event as given: what callbacks see, with the rewrites put in.
    native: Value,
    /// The event as read, for observers.
    event: Event,
    /// The records the rules' `log` actions wrote.
    logs: Vec<LogRecord>,
}

impl JsonChain {
    /// The chain of one native event (the JSON `hookc eval` reads), within its size limit.
    pub fn start(event: &str) -> Result<JsonChain, EventError> {
        if event.len() > MAX_EVENT_BYTES {
            return Err(EventError::TooLarge);
        }
        let read = Event::from_json(event.as_bytes())?;
        let native = serde_json::from_str(event)?;
        Ok(JsonChain { chain: Chain::new(&read), native, event: read, logs: Vec::new() })
    }

    /// The event's name in rule files (`pre_tool_use`).
    pub fn event_name(&self) -> &'static str {
        self.event.kind().name()
    }

    /// Whether the merged result halts the chain: no later hook runs.
    pub fn halted(&self) -> bool {
        self.chain.halted()
    }

    /// The event as the next hook sees it: the native event with the earlier hooks' rewrites
    /// (`args` at PreToolUse, `result` at PostToolUse) put in.
    pub fn current(&self) -> Value {
        let mut native = self.native.clone();
        let current = self.chain.current();
        if let (Some(call), Some(object)) = (current.tool_call(), native.as_object_mut()) {
            object.insert("args".to_string(), Value::Object(call.args.clone()));
            if let EventData::PostToolUse(_, output) = &current.data {
                object.insert("result".to_string(), json!(output));
            }
        }
        native
    }

    /// Runs a policy's rules on the event as the chain has it now, and takes their result.
    pub fn evaluate(&mut self, policy: &Policy) -> Result<(), HookError> {
        let evaluation =
            policy.evaluate_full_bounded(self.chain.current()).map_err(|error| self.chain.failed(error.to_string()))?;
        self.logs.extend(evaluation.logs);
        self.chain.take(evaluation.result, None)
    }

    /// Takes a callback's result: HookResult JSON, as `evaluate` returns it (`{}` decides
    /// nothing). Anything else fails the chain.
    pub fn take(&mut self, result: &str) -> Result<(), HookError> {
        // An object: serde would also read an array by position (`["deny"]`) or an empty one as
        // a result that decides nothing.
        let result = match serde_json::from_str::<Value>(result) {
            Ok(object @ Value::Object(_)) => {
                serde_json::from_value::<HookResult>(object).map_err(|error| error.to_string())
            }
            Ok(other) => Err(format!("a HookResult is a JSON object, not `{}`", truncate(&other.to_string()))),
            Err(error) => Err(error.to_string()),
        }
        .map_err(|error| self.chain.failed(format!("the callback returned no HookResult: {error}")))?;
        self.chain.take(result, None)
    }

    /// The failure of a callback that threw or rejected.
    pub fn failed(&self, reason: impl Into<String>) -> HookError {
        self.chain.failed(reason)
    }

    /// The contract error of a PreToolUse rewrite the binding's input check refused (`detail`
    /// says why): the seed's "PreToolUse hook returned an invalid update".
    pub fn invalid_input(&self, detail: impl Into<String>) -> HookError {
        self.chain.invalid_input(detail)
    }

    /// The merged result so far.
    pub fn result(&self) -> &HookResult {
        self.chain.merged().0
    }

    /// What observers see of the run: its merged result, or `error` when it failed.
    pub fn observation(&self, error: Option<&str>) -> Value {
        let (merged, dropped) = self.chain.merged();
        let observation = super::Observation::of(&self.event, error.is_none().then_some(merged))
            .with_logs(&self.logs)
            .with_dropped_continuation(dropped);
        let observation = match error {
            Some(error) => observation.with_error(error),
            None => observation,
        };
        json!({
            "event": observation.event.name(),
            "tool": observation.tool,
            "outcome": observation.outcome,
            "matched": observation.matched,
            "reason": observation.reason,
            "error": observation.error,
            "logs": observation.logs.iter().map(|log| match &log.message {
                Ok(message) => json!({ "rule": log.rule, "message": message }),
                Err(error) => json!({ "rule": log.rule, "error": error }),
            }).collect::<Vec<_>>(),
            "waived": observation.waived,
        })
    }
}

/// The rule-file name (`pre_tool_use`) of the event a binding's caller names by it or by its seed
/// name (`PreToolUse`); `Err` lists the events.
pub fn event_name(name: &str) -> Result<&'static str, String> {
    hookc_core::vocab::EventKind::ALL
        .into_iter()
        .find(|event| event.name() == name || event.seed_name() == name)
        .map(|event| event.name())
        .ok_or_else(|| {
            let names: Vec<&str> = hookc_core::vocab::EventKind::ALL.into_iter().map(|event| event.name()).collect();
            format!("unknown event `{name}`; the events are {}", names.join(", "))
        })
}

/// A chain's failure as the bindings report it: a code (`HOOKC_CONTRACT` for a result the
/// contract refuses, with the seed's text as the message and what was wrong as `detail`;
/// `HOOKC_HOOK` for a hook that failed) and its fields.
pub fn failure_json(error: &HookError) -> Value {
    match error {
        HookError::Contract { message, .. } => {
            json!({ "code": "HOOKC_CONTRACT", "message": message, "detail": error.in_full() })
        }
        HookError::Execution { .. } => json!({ "code": "HOOKC_HOOK", "message": error.to_string() }),
    }
}

/// At most 80 characters of `text`, for a message.
fn truncate(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", text.get(..at).unwrap_or_default()),
        None => text.to_string(),
    }
}
