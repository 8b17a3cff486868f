//! hookc in WebAssembly (wasm-bindgen): rules compiled and events decided in a browser, with the
//! file system off and JavaScript's clock.
//!
//! - The file system is off: a policy here reads its events with [`hookc::PathSettings::detached`]
//!   (no link is followed, a shell glob is judged as its own text and not expanded against the
//!   disk, `~` is no directory, nothing is read from disk or the environment).
//!   A Stop rule's turn, read from the agent's transcript on disk elsewhere, is empty here.
//! - The clock is JavaScript's `Date.now()` (hookc's `crates/core/src/clock.rs`): the day a waiver is judged
//!   by, and the compile budget of a call.
//!
//! [`api`] is the binding in plain Rust, JSON text in and out, so that it is tested on the native
//! target (`cargo test` here); the `#[wasm_bindgen]` items below only carry it across. `hookc.mjs`
//! wraps them: objects in and out, and failures rethrown as `HookcError` with a `code`.

use wasm_bindgen::prelude::*;

/// The binding in plain Rust: what the exported functions do, testable without a browser.
pub mod api {
    use hookc::runtime::{Failure, FailureCode};
    use serde_json::{json, Value};

    /// The name a policy's text is checked under when the caller gives none.
    pub const DEFAULT_NAME: &str = "policy.rules";

    /// Compiles rules given as text, with the file system off.
    pub fn load(name: &str, text: &str) -> Result<hookc::Policy, Failure> {
        load_all(&json!({ name: text }).to_string())
    }

    /// Compiles several rule files given as a JSON object `{name: text}`, tried in name order
    /// as a directory of them is, with the file system off.
    pub fn load_all(files: &str) -> Result<hookc::Policy, Failure> {
        let files: std::collections::BTreeMap<String, String> = serde_json::from_str(files)
            .map_err(|error| Failure::new(FailureCode::Load, format!("rule files must be an object of texts: {error}")))?;
        let mut sources = hookc::source::SourceMap::default();
        for (name, text) in files {
            sources.add(hookc::source::SourceFile::new(name, text));
        }
        let policy = hookc::Policy::from_sources(&sources)?;
        Ok(policy.with_path_settings(hookc::PathSettings::detached()))
    }

    /// `hookc check`'s findings for one rule file, errors and lints alike, as
    /// `{"rules": N, "diagnostics": [{code, severity, message, line, column, …}]}` (the JSON of
    /// `hookc check --format json`); `rules` is null when there are errors.
    pub fn check(name: &str, text: &str) -> Value {
        let mut sources = hookc::source::SourceMap::default();
        sources.add(hookc::source::SourceFile::new(name, text));
        let (rules, diagnostics) = match hookc::check_sources(&sources) {
            Ok(checked) => (Some(checked.rules.len()), checked.warnings),
            Err(diagnostics) => (None, diagnostics),
        };
        let list: Vec<Value> = diagnostics
            .iter()
            .map(|diagnostic| serde_json::to_value(diagnostic.to_json(&sources)).unwrap_or(Value::Null))
            .collect();
        json!({ "rules": rules, "diagnostics": list })
    }

    /// One native event's HookResult, JSON text to JSON text.
    pub fn evaluate(policy: &hookc::Policy, event: &str) -> Result<String, Failure> {
        hookc::runtime::evaluate_json(policy, event)
    }

    /// `hookc explain`'s trace of one native event: every rule tried and what it did, the result,
    /// and which rule set what.
    pub fn explain(policy: &hookc::Policy, event: &str) -> Result<String, Failure> {
        let event = hookc::runtime::read_event(event)?;
        let explanation = hookc::explain(policy, &event).map_err(|error| Failure::new(FailureCode::Eval, error))?;
        serde_json::to_string(&explanation).map_err(|error| Failure::new(FailureCode::Eval, error))
    }

    /// `hookc explain --agent`: the trace of the native event an agent's hook payload becomes.
    pub fn explain_payload(
        policy: &hookc::Policy,
        agent: &str,
        payload: &str,
        event: Option<String>,
    ) -> Result<String, Failure> {
        let found =
            hookc::agents::find(agent).ok_or_else(|| Failure::new(FailureCode::Agent, format!("no agent `{agent}`")))?;
        let options = hookc::HookOptions::default().with_event(event);
        let event = hookc::hook_event(found, policy, payload.as_bytes(), &options)
            .map_err(|failure| Failure::new(FailureCode::Payload, failure))?;
        let explanation = hookc::explain(policy, &event).map_err(|error| Failure::new(FailureCode::Eval, error))?;
        serde_json::to_string(&explanation).map_err(|error| Failure::new(FailureCode::Eval, error))
    }

    /// What `hookc hook AGENT` would print and exit with: `{"stdout", "exit", "stderr"}`.
    pub fn answer(policy: &hookc::Policy, agent: &str, payload: &str, event: Option<String>) -> Result<Value, Failure> {
        let answer = hookc::runtime::answer(policy, agent, payload, event)?;
        Ok(json!({ "stdout": answer.stdout, "exit": answer.exit, "stderr": answer.stderr }))
    }

    /// A rule set shipped inside hookc (`baseline`, `packs`, or a pack's name: what
    /// `--rules builtin:NAME` loads), as `{"builtin:PATH": text}`.
    pub fn builtin(name: &str) -> Result<Value, Failure> {
        let files = hookc::builtin::files(name).ok_or_else(|| {
            let names = hookc::builtin::names().join(", ");
            Failure::new(FailureCode::Load, format!("no shipped rule set `{name}` (there are: {names})"))
        })?;
        Ok(files.into_iter().map(|(path, text)| (path, Value::from(text))).collect::<serde_json::Map<_, _>>().into())
    }

    /// Every agent hookc answers: `[{"id", "name", "events"}]`, in the agent table's order
    /// (`events`: the hook points it fires, by its own names).
    pub fn agents() -> Value {
        let agents = hookc::agents::AGENTS.iter().map(|agent| {
            let events: Vec<&str> = agent.events.iter().map(|event| event.name).collect();
            json!({ "id": agent.id, "name": agent.name, "events": events })
        });
        agents.collect()
    }
}

/// A failure as `hookc.mjs` rethrows it: an `Error` whose message is the failure's JSON.
fn thrown(failure: hookc::runtime::Failure) -> JsError {
    JsError::new(&failure.to_json().to_string())
}

/// A compiled policy, its events read with the file system off.
#[wasm_bindgen]
pub struct Policy {
    inner: hookc::Policy,
}

#[wasm_bindgen]
impl Policy {
    /// Compiles rules given as text (`name` is used in diagnostics; `policy.rules` if absent).
    #[wasm_bindgen(js_name = fromSource)]
    pub fn from_source(text: &str, name: Option<String>) -> Result<Policy, JsError> {
        let name = name.unwrap_or_else(|| api::DEFAULT_NAME.to_string());
        api::load(&name, text).map(|inner| Policy { inner }).map_err(thrown)
    }

    /// Compiles several rule files given as a JSON object `{name: text}` (name order).
    #[wasm_bindgen(js_name = fromSourcesJson)]
    pub fn from_sources_json(files: &str) -> Result<Policy, JsError> {
        api::load_all(files).map(|inner| Policy { inner }).map_err(thrown)
    }

    /// The policy's identity (`sha256:…`).
    #[wasm_bindgen(getter, js_name = sourceHash)]
    pub fn source_hash(&self) -> String {
        self.inner.source_hash().to_string()
    }

    /// One native event (JSON text) → its HookResult (JSON text).
    #[wasm_bindgen(js_name = evaluateJson)]
    pub fn evaluate_json(&self, event: &str) -> Result<String, JsError> {
        api::evaluate(&self.inner, event).map_err(thrown)
    }

    /// One native event (JSON text) → `hookc explain`'s trace (JSON text).
    #[wasm_bindgen(js_name = explainJson)]
    pub fn explain_json(&self, event: &str) -> Result<String, JsError> {
        api::explain(&self.inner, event).map_err(thrown)
    }

    /// An agent's hook payload (JSON text) → the trace of the native event it becomes (JSON text).
    #[wasm_bindgen(js_name = explainPayloadJson)]
    pub fn explain_payload_json(&self, agent: &str, payload: &str, event: Option<String>) -> Result<String, JsError> {
        api::explain_payload(&self.inner, agent, payload, event).map_err(thrown)
    }

    /// An agent's hook payload → what `hookc hook AGENT` would answer (JSON text).
    #[wasm_bindgen(js_name = answerJson)]
    pub fn answer_json(&self, agent: &str, payload: &str, event: Option<String>) -> Result<String, JsError> {
        api::answer(&self.inner, agent, payload, event).map(|answer| answer.to_string()).map_err(thrown)
    }
}

/// A registry's run (`hookc::runtime::JsonSteps`): `hookc.mjs`'s `HookRegistry.run` asks it what to
/// do next, does it (a JS callback or the input check, awaited; a rule set, evaluated here) and
/// hands the answer back. The order, the contract checks and the merge are Rust's.
#[wasm_bindgen]
pub struct Run {
    inner: hookc::runtime::JsonSteps,
}

#[wasm_bindgen]
impl Run {
    /// The run of one native event (JSON text) through the registry's hooks: `"rules"` for a
    /// rule set, an event's name for a callback of that event, in registration order.
    pub fn start(event: &str, hooks: Vec<String>, checking: bool) -> Result<Run, JsError> {
        hookc::runtime::JsonSteps::start(event, &hooks, checking).map(|inner| Run { inner }).map_err(thrown)
    }

    /// The event's name in rule files (`pre_tool_use`).
    #[wasm_bindgen(getter, js_name = eventName)]
    pub fn event_name(&self) -> String {
        self.inner.event_name().to_string()
    }

    /// What to do next, as JSON text (`{step: 'rules' | 'call' | 'check' | 'done' | 'failed', …}`).
    pub fn need(&mut self) -> String {
        self.inner.need().to_string()
    }

    /// Answers `rules`: the policy's rules on the event as the run has it now.
    pub fn evaluate(&mut self, policy: &Policy) {
        self.inner.evaluate(&policy.inner);
    }

    /// Answers `call` with the callback's result (HookResult JSON).
    pub fn returned(&mut self, result: &str) {
        self.inner.returned(result);
    }

    /// Answers `call` for a callback that threw or rejected.
    pub fn threw(&mut self, description: &str) {
        self.inner.threw(description);
    }

    /// Answers `check`: nothing accepts the rewrite, a string refuses it and says why.
    pub fn checked(&mut self, problem: Option<String>) {
        self.inner.checked(problem.as_deref());
    }

    /// Answers `check` for an input check that threw or rejected.
    #[wasm_bindgen(js_name = checkThrew)]
    pub fn check_threw(&mut self, description: &str) {
        self.inner.check_threw(description);
    }

    /// Answers `check` for an input check that returned what is no verdict.
    #[wasm_bindgen(js_name = checkAnswered)]
    pub fn check_answered(&mut self, description: &str) {
        self.inner.check_answered(description);
    }

    /// Ends the run as failed from outside.
    pub fn abort(&mut self, reason: &str) {
        self.inner.abort(reason);
    }
}

/// The rule-file name (`pre_tool_use`) of an event named either way (`PreToolUse`).
#[wasm_bindgen(js_name = eventName)]
pub fn event_name(name: &str) -> Result<String, JsError> {
    hookc::runtime::event_name(name).map(str::to_string).map_err(thrown)
}

/// `hookc check` of one rule file (JSON text: `{"rules", "diagnostics"}`).
#[wasm_bindgen(js_name = checkJson)]
pub fn check_json(text: &str, name: Option<String>) -> String {
    api::check(name.as_deref().unwrap_or(api::DEFAULT_NAME), text).to_string()
}

/// A shipped rule set's files (JSON text: `{"builtin:PATH": text}`); `builtinNames` lists them.
#[wasm_bindgen(js_name = builtinJson)]
pub fn builtin_json(name: &str) -> Result<String, JsError> {
    api::builtin(name).map(|files| files.to_string()).map_err(thrown)
}

/// The names of the shipped rule sets (JSON text: `["baseline", "packs", …]`).
#[wasm_bindgen(js_name = builtinNamesJson)]
pub fn builtin_names_json() -> String {
    serde_json::Value::from(hookc::builtin::names()).to_string()
}

/// Every agent hookc answers (JSON text: `[{"id", "name", "events"}]`).
#[wasm_bindgen(js_name = agentsJson)]
pub fn agents_json() -> String {
    api::agents().to_string()
}
