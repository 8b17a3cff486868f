//! What a language binding drives (`bindings/node`, `bindings/python`, `bindings/wasm`): a
//! policy's decisions from JSON text to JSON text within the CLI's limits ([`evaluate_json`],
//! [`answer`]), failures with the codes every binding throws ([`Failure`]), and a registry's run
//! as steps with JSON in and out ([`JsonSteps`]), so that a registry whose callbacks live in
//! another language (and may be asynchronous there) runs by these rules and no second
//! implementation of them. The binding runs its callbacks and hands their results here.

use super::chain::HookError;
use super::steps::{Need, Slot, SlotKind, Steps, Verdict};
use hookc_core::model::event::{Event, EventData, MAX_EVENT_BYTES};
use hookc_core::model::result::HookResult;
use hookc_core::Policy;
use serde_json::{json, Value};

/// The code a binding's error carries, one per kind of failure: the bindings throw
/// [`FailureCode::as_str`] and nothing else, so the codes are written once, here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailureCode {
    /// `HOOKC_EVENT`: the event could not be read (not JSON, not an event, too large, an unknown
    /// event name).
    Event,
    /// `HOOKC_EVAL`: the policy could not decide (a rule failed, the compile budget ran out).
    Eval,
    /// `HOOKC_AGENT`: no agent by that name.
    Agent,
    /// `HOOKC_PAYLOAD`: an agent's payload could not be given (not text, say).
    Payload,
    /// `HOOKC_LOAD`: the rules or the bundle could not be read.
    Load,
    /// `HOOKC_TRUST_KEY`: the key a bundle must be signed with could not be read.
    TrustKey,
    /// `HOOKC_HOOK`: a hook of a registry's run failed.
    Hook,
    /// `HOOKC_CONTRACT`: a hook's result broke the contract (the seed's text, with a detail).
    Contract,
    /// The rules do not check: the first error's code (`E0101`…), the diagnostics beside it.
    Diagnostic(hookc_core::diagnostic::Code),
}

impl FailureCode {
    /// The code as every binding's error carries it.
    pub fn as_str(&self) -> &'static str {
        match self {
            FailureCode::Event => "HOOKC_EVENT",
            FailureCode::Eval => "HOOKC_EVAL",
            FailureCode::Agent => "HOOKC_AGENT",
            FailureCode::Payload => "HOOKC_PAYLOAD",
            FailureCode::Load => "HOOKC_LOAD",
            FailureCode::TrustKey => "HOOKC_TRUST_KEY",
            FailureCode::Hook => "HOOKC_HOOK",
            FailureCode::Contract => "HOOKC_CONTRACT",
            FailureCode::Diagnostic(code) => code.as_str(),
        }
    }
}

impl std::fmt::Display for FailureCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a binding's call failed: its [`FailureCode`], the message, and for rules that do not
/// check, every diagnostic.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    code: FailureCode,
    message: String,
    diagnostics: Option<Value>,
}

impl Failure {
    /// A failure with no diagnostics.
    pub fn new(code: FailureCode, message: impl std::fmt::Display) -> Failure {
        Failure { code, message: message.to_string(), diagnostics: None }
    }

    /// The kind of failure.
    pub fn code(&self) -> FailureCode {
        self.code
    }

    /// What went wrong (a load error's diagnostics rendered as `hookc check` prints them).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// A load error's diagnostics: `[{code, severity, message}]`.
    pub fn diagnostics(&self) -> Option<&Value> {
        self.diagnostics.as_ref()
    }

    /// `{"code", "message", "diagnostics"?}`, as the JavaScript bindings rethrow it.
    pub fn to_json(&self) -> Value {
        let mut body = serde_json::Map::new();
        body.insert("code".into(), json!(self.code.as_str()));
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
        let code = code.map_or(FailureCode::Load, FailureCode::Diagnostic);
        let message = match &error {
            hookc_core::LoadError::Invalid { rendered, .. } => rendered.clone(),
            other => other.to_string(),
        };
        Failure { code, message, diagnostics }
    }
}

/// One native event's HookResult, from JSON text to JSON text, within the limits of a hook call
/// (`hookc eval`'s size limit and nesting depth, [`Policy::evaluate_bounded`]'s compile budget).
pub fn evaluate_json(policy: &Policy, event: &str) -> Result<String, Failure> {
    let event = read_event(event)?;
    let result = policy.evaluate_bounded(&event).map_err(|error| Failure::new(FailureCode::Eval, error))?;
    serde_json::to_string(&result).map_err(|error| Failure::new(FailureCode::Eval, error))
}

/// A native event from JSON text, within `hookc eval`'s limits.
pub fn read_event(event: &str) -> Result<Event, Failure> {
    if event.len() > MAX_EVENT_BYTES {
        return Err(Failure::new(FailureCode::Event, "the event is over hookc's size limit"));
    }
    Event::from_json(event.as_bytes()).map_err(|error| Failure::new(FailureCode::Event, error))
}

/// What `hookc hook AGENT` would print and exit with for `payload` (`event` names the hook
/// point where the agent's payload does not: `hookc hook AGENT --event`).
pub fn answer(
    policy: &Policy,
    agent: &str,
    payload: &str,
    event: Option<String>,
) -> Result<hookc_agents::HookAnswer, Failure> {
    let agent = hookc_core::agents::find(agent)
        .ok_or_else(|| Failure::new(FailureCode::Agent, format!("no agent `{agent}`")))?;
    let options = hookc_agents::HookOptions::default().with_event(event);
    Ok(hookc_agents::answer_hook(agent, policy, payload.as_bytes(), &options))
}

/// A registry's run with JSON in and out, for a binding whose hooks live in another language (and
/// may be asynchronous there): the binding lists its hooks ([`JsonSteps::start`]), then asks
/// [`JsonSteps::need`] what to do, does it (evaluates a rule set, awaits a callback or the input
/// check) and hands the answer back, until the run says it is done. The order, the contract
/// checks, the merge and the end of the run are [`Steps`]'s: no binding implements them again.
#[derive(Debug, Clone)]
pub struct JsonSteps {
    steps: Steps,
    /// The event as given: what callbacks see, with the rewrites put in.
    native: Value,
    /// The event as read, for observers.
    event: Event,
}

impl JsonSteps {
    /// The run of one native event (the JSON `hookc eval` reads, within its size limit) through
    /// `hooks`, in registration order: `"rules"` for a rule set (it runs at every event), or an
    /// event's name (`pre_tool_use` or `PreToolUse`) for a callback of that event. With
    /// `checking`, each PreToolUse rewrite waits for the binding's input check.
    pub fn start(event: &str, hooks: &[String], checking: bool) -> Result<JsonSteps, Failure> {
        let read = read_event(event)?;
        let native = serde_json::from_str(event).map_err(|error| Failure::new(FailureCode::Event, error))?;
        let slots = hooks
            .iter()
            .map(|hook| match hook.as_str() {
                "rules" => Ok(Slot { event: None, kind: SlotKind::Rules }),
                name => Ok(Slot { event: Some(event_kind(name)?), kind: SlotKind::Callback }),
            })
            .collect::<Result<Vec<Slot>, Failure>>()?;
        Ok(JsonSteps { steps: Steps::start(&read, slots, checking), native, event: read })
    }

    /// The event's name in rule files (`pre_tool_use`).
    pub fn event_name(&self) -> &'static str {
        self.event.kind().name()
    }

    /// What the binding does next, as JSON:
    /// - `{"step": "rules", "index": I}`: evaluate rule set I ([`JsonSteps::evaluate`]);
    /// - `{"step": "call", "index": I, "event": EVENT}`: call callback I with the event as it is
    ///   now (earlier rewrites in), then [`JsonSteps::returned`] or [`JsonSteps::threw`];
    /// - `{"step": "check", "args": ARGS}`: judge the rewrite, then [`JsonSteps::checked`],
    ///   [`JsonSteps::check_threw`] or [`JsonSteps::check_answered`];
    /// - `{"step": "done", "result": HOOKRESULT, "observation": …}`: give the observers the
    ///   observation and return the result;
    /// - `{"step": "failed", "error": {"code", "message", "detail"?}, "observation": …}`: give
    ///   the observers the observation and throw the error.
    pub fn need(&mut self) -> Value {
        match self.steps.need() {
            Need::Rules(index) => json!({ "step": "rules", "index": index }),
            Need::Call(index) => json!({ "step": "call", "index": index, "event": self.current() }),
            Need::Check => json!({ "step": "check", "args": self.steps.pending_args() }),
            Need::Done => {
                let (outcome, _, _) = self.steps.outcome();
                match outcome {
                    Ok(result) => json!({ "step": "done", "result": result, "observation": self.observation() }),
                    Err(error) => {
                        json!({ "step": "failed", "error": failure_json(error), "observation": self.observation() })
                    }
                }
            }
        }
    }

    /// Answers `rules`: runs the rule set on the event as the run has it now, within a hook
    /// call's compile budget.
    pub fn evaluate(&mut self, policy: &Policy) {
        let evaluation = policy.evaluate_full_bounded(self.steps.current());
        self.steps.evaluated(evaluation);
    }

    /// Answers `call`: the callback's result, HookResult JSON as `evaluate` returns it (`{}`
    /// decides nothing). Anything else fails the run.
    pub fn returned(&mut self, result: &str) {
        // An object: serde would also read an array by position (`["deny"]`) or an empty one as
        // a result that decides nothing.
        let result = match serde_json::from_str::<Value>(result) {
            Ok(object @ Value::Object(_)) => {
                serde_json::from_value::<HookResult>(object).map_err(|error| error.to_string())
            }
            Ok(other) => Err(format!("a HookResult is a JSON object, not `{}`", truncate(&other.to_string()))),
            Err(error) => Err(error.to_string()),
        }
        .map_err(|error| format!("the callback returned no HookResult: {error}"));
        self.steps.returned(result);
    }

    /// Answers `call` for a callback that threw or rejected (`description`: what it threw).
    pub fn threw(&mut self, description: &str) {
        self.steps.returned(Err(format!("the callback failed: {description}")));
    }

    /// Answers `check`: `None` accepts the rewrite, `Some(why)` refuses it (the seed's contract
    /// error, `why` its detail).
    pub fn checked(&mut self, problem: Option<&str>) {
        self.steps.checked(problem.map_or(Verdict::Accepted, |why| Verdict::Refused(why.to_string())));
    }

    /// Answers `check` for an input check that threw or rejected.
    pub fn check_threw(&mut self, description: &str) {
        self.steps.checked(Verdict::Failed(format!("the input check failed: {description}")));
    }

    /// Answers `check` for an input check that returned what is no verdict (`true`, `false`…: a
    /// predicate is never read backwards, the run fails closed). `description` is what it
    /// returned, as the binding's language writes it.
    pub fn check_answered(&mut self, description: &str) {
        self.steps.checked(Verdict::Failed(format!("the input check returned {description}, not a string or nothing")));
    }

    /// Ends the run as failed from outside (the binding's run was cancelled or interrupted).
    pub fn abort(&mut self, reason: &str) {
        self.steps.abort(reason);
    }

    /// The event as the next hook sees it: the native event with the earlier hooks' rewrites
    /// (`args` at PreToolUse, `result` at PostToolUse) put in.
    fn current(&self) -> Value {
        let mut native = self.native.clone();
        let current = self.steps.current();
        if let (Some(call), Some(object)) = (current.tool_call(), native.as_object_mut()) {
            object.insert("args".to_string(), Value::Object(call.args.clone()));
            if let EventData::PostToolUse(_, output) = &current.data {
                object.insert("result".to_string(), json!(output));
            }
        }
        native
    }

    /// What observers see of the run: its merged result, or its failure in full.
    fn observation(&self) -> Value {
        let (outcome, dropped, logs) = self.steps.outcome();
        let error = outcome.err().map(HookError::in_full);
        let observation = super::Observation::of(&self.event, outcome.ok())
            .with_logs(logs)
            .with_dropped_continuation(dropped)
            .with_waived(self.steps.waived());
        let observation = match &error {
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

/// The event a binding names by its rule-file name or its seed name.
fn event_kind(name: &str) -> Result<hookc_core::vocab::EventKind, Failure> {
    hookc_core::vocab::EventKind::ALL
        .into_iter()
        .find(|event| event.name() == name || event.seed_name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = hookc_core::vocab::EventKind::ALL.into_iter().map(|event| event.name()).collect();
            Failure::new(FailureCode::Event, format!("unknown event `{name}`; the events are {}", names.join(", ")))
        })
}

/// The rule-file name (`pre_tool_use`) of the event a binding's caller names by it or by its seed
/// name (`PreToolUse`); `Err` (`FailureCode::Event`) lists the events.
pub fn event_name(name: &str) -> Result<&'static str, Failure> {
    event_kind(name).map(|event| event.name())
}

/// A chain's failure as the bindings report it: a code (`HOOKC_CONTRACT` for a result the
/// contract refuses, with the seed's text as the message and what was wrong as `detail`;
/// `HOOKC_HOOK` for a hook that failed) and its fields.
pub fn failure_json(error: &HookError) -> Value {
    match error {
        HookError::Contract { message, .. } => {
            json!({ "code": FailureCode::Contract.as_str(), "message": message, "detail": error.in_full() })
        }
        HookError::Execution { .. } => json!({ "code": FailureCode::Hook.as_str(), "message": error.to_string() }),
    }
}

/// At most 80 characters of `text`, for a message.
fn truncate(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", text.get(..at).unwrap_or_default()),
        None => text.to_string(),
    }
}
