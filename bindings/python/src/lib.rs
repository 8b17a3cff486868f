//! hookc for Python (PyO3): a policy loaded once, each decision made in-process, with the GIL
//! released while hookc evaluates. `python/hookc/__init__.py` re-exports this module.

use hookc::runtime::{Failure, FailureCode};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

create_exception!(_hookc, HookcError, PyException, "A failure from hookc; `code` says which.");

/// A `HookcError` with `code` (and `diagnostics` for rules that do not check).
fn raised(py: Python<'_>, failure: Failure) -> PyErr {
    let error = HookcError::new_err(failure.message().to_string());
    let value = error.value(py);
    let _ = value.setattr("code", failure.code().as_str());
    if let Some(list) = failure.diagnostics() {
        if let Ok(list) = pythonize::pythonize(py, list) {
            let _ = value.setattr("diagnostics", list);
        }
    }
    error
}

/// A `HookcError` with no diagnostics.
fn failure(py: Python<'_>, code: FailureCode, message: impl std::fmt::Display) -> PyErr {
    raised(py, Failure::new(code, message))
}

/// A value's Python type name, for a message that names what was given.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map_or_else(|_| "an unknown type".to_string(), |name| name.to_string())
}

fn load_failure(py: Python<'_>, error: hookc::LoadError) -> PyErr {
    raised(py, Failure::from(error))
}

/// A loaded policy.
#[pyclass(frozen, module = "hookc")]
struct Policy {
    inner: hookc::Policy,
}

#[pymethods]
impl Policy {
    /// Compiles rule files: each path a `.rules` file, a directory of them, or `builtin:NAME`.
    #[staticmethod]
    fn from_rules(py: Python<'_>, paths: &Bound<'_, PyAny>) -> PyResult<Policy> {
        // One path or a list of them, as Node's `fromRules` takes.
        let paths: Vec<String> = match paths.extract::<String>() {
            Ok(path) => vec![path],
            Err(_) => paths.extract().map_err(|_| {
                failure(py, FailureCode::Load, format!("paths must be a str or a list of str, not {}", type_name(paths)))
            })?,
        };
        let loaded = py.detach(|| hookc::Policy::from_paths(&paths));
        loaded.map(|inner| Policy { inner }).map_err(|error| load_failure(py, error))
    }

    /// Compiles rules given as text (`name` is used in diagnostics).
    #[staticmethod]
    fn from_source(py: Python<'_>, name: &str, text: &str) -> PyResult<Policy> {
        hookc::Policy::from_source(name, text).map(|inner| Policy { inner }).map_err(|error| load_failure(py, error))
    }

    /// Loads a bundle written by `hookc compile`; with `trust_key`, only a bundle that key signed.
    #[staticmethod]
    #[pyo3(signature = (path, trust_key = None))]
    fn from_bundle(py: Python<'_>, path: String, trust_key: Option<String>) -> PyResult<Policy> {
        let key = match trust_key {
            Some(key) => {
                Some(hookc::signing::TrustKey::read(&key).map_err(|error| failure(py, FailureCode::TrustKey, error))?)
            }
            None => None,
        };
        let loaded = py.detach(|| hookc::Policy::load_bundle_trusted(&path, key.as_ref()));
        loaded.map(|inner| Policy { inner }).map_err(|error| load_failure(py, error))
    }

    /// The policy's identity (`sha256:…`).
    #[getter]
    fn source_hash(&self) -> String {
        self.inner.source_hash().to_string()
    }

    /// Evaluates one native event (a dict in hookc's own shape) and returns the HookResult as a
    /// dict, the same JSON as `hookc eval`.
    fn evaluate<'py>(&self, py: Python<'py>, event: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyAny>> {
        let event: Value = pythonize::depythonize(event.as_any()).map_err(|error| failure(py, FailureCode::Event, error))?;
        let text = serde_json::to_string(&event).map_err(|error| failure(py, FailureCode::Event, error))?;
        let decided =
            py.detach(|| hookc::runtime::evaluate_json(&self.inner, &text)).map_err(|error| raised(py, error))?;
        let result: Value = serde_json::from_str(&decided).map_err(|error| failure(py, FailureCode::Eval, error))?;
        pythonize::pythonize(py, &result).map_err(|error| failure(py, FailureCode::Eval, error))
    }

    /// [`Policy::evaluate`] from JSON text to JSON text: no conversion through Python objects.
    fn evaluate_json(&self, py: Python<'_>, event: &str) -> PyResult<String> {
        py.detach(|| hookc::runtime::evaluate_json(&self.inner, event)).map_err(|error| raised(py, error))
    }

    /// Answers one payload an agent sends its command hook, exactly as `hookc hook AGENT` would:
    /// `(stdout, exit, stderr)`.
    #[pyo3(signature = (agent, payload, event = None))]
    fn answer(
        &self,
        py: Python<'_>,
        agent: &str,
        payload: &Bound<'_, PyAny>,
        event: Option<String>,
    ) -> PyResult<(Option<String>, u8, Vec<String>)> {
        // The payload's text, or a dict of it, as Node's `answer` takes.
        let payload = match payload.extract::<String>() {
            Ok(text) => text,
            Err(_) if payload.is_instance_of::<PyDict>() => {
                let value: Value = pythonize::depythonize(payload).map_err(|error| failure(py, FailureCode::Payload, error))?;
                value.to_string()
            }
            Err(_) => {
                let message = format!("payload must be a str or a dict, not {}", type_name(payload));
                return Err(failure(py, FailureCode::Payload, message));
            }
        };
        let answer = py
            .detach(|| hookc::runtime::answer(&self.inner, agent, &payload, event))
            .map_err(|error| raised(py, error))?;
        Ok((answer.stdout, answer.exit, answer.stderr))
    }
}

/// The rule-file name (`pre_tool_use`) of an event named either way (`PreToolUse`).
#[pyfunction]
fn event_name(py: Python<'_>, name: &str) -> PyResult<&'static str> {
    hookc::runtime::event_name(name).map_err(|failure| raised(py, failure))
}

/// A registry's run (`hookc::runtime::JsonSteps`): `HookRegistry` in `python/hookc/__init__.py`
/// asks it what to do next, does it (runs or awaits a Python callback or the input check,
/// evaluates a rule set with the GIL released) and hands the answer back. The order, the contract
/// checks and the merge are Rust's.
#[pyclass(module = "hookc")]
struct Run {
    inner: hookc::runtime::JsonSteps,
}

#[pymethods]
impl Run {
    /// The run of one native event (JSON text) through the registry's hooks: `"rules"` for a rule
    /// set, an event's name for a callback of that event, in registration order.
    #[staticmethod]
    fn start(py: Python<'_>, event: &str, hooks: Vec<String>, checking: bool) -> PyResult<Run> {
        hookc::runtime::JsonSteps::start(event, &hooks, checking).map(|inner| Run { inner }).map_err(|error| raised(py, error))
    }

    /// The event's name in rule files (`pre_tool_use`).
    #[getter]
    fn event_name(&self) -> &'static str {
        self.inner.event_name()
    }

    /// What to do next (JSON): `{"step": "rules" | "call" | "check" | "done" | "failed", …}`.
    fn need(&mut self) -> String {
        self.inner.need().to_string()
    }

    /// Answers `rules`: the policy's rules on the event as the run has it now (the GIL released).
    fn evaluate(&mut self, py: Python<'_>, policy: &Policy) {
        let inner = &mut self.inner;
        py.detach(|| inner.evaluate(&policy.inner));
    }

    /// Answers `call` with the callback's result (HookResult JSON).
    fn returned(&mut self, result: &str) {
        self.inner.returned(result);
    }

    /// Answers `call` for a callback that raised.
    fn threw(&mut self, description: &str) {
        self.inner.threw(description);
    }

    /// Answers `check`: None accepts the rewrite, a str refuses it and says why.
    #[pyo3(signature = (problem = None))]
    fn checked(&mut self, problem: Option<&str>) {
        self.inner.checked(problem);
    }

    /// Answers `check` for an input check that raised.
    fn check_threw(&mut self, description: &str) {
        self.inner.check_threw(description);
    }

    /// Answers `check` for an input check that returned what is no verdict.
    fn check_answered(&mut self, description: &str) {
        self.inner.check_answered(description);
    }

    /// Ends the run as failed from outside (cancelled, interrupted).
    fn abort(&mut self, reason: &str) {
        self.inner.abort(reason);
    }
}

/// The `HookcError` a failed run raises, from its JSON (`code`, `message`, `detail`).
#[pyfunction]
fn run_error(py: Python<'_>, body: &str) -> PyErr {
    let body: Value = serde_json::from_str(body).unwrap_or_default();
    let text = |field: &str| body.get(field).and_then(Value::as_str).unwrap_or_default().to_string();
    let code = body.get("code").and_then(Value::as_str);
    let code = [FailureCode::Contract, FailureCode::Hook].into_iter().find(|known| Some(known.as_str()) == code);
    let failed = failure(py, code.unwrap_or(FailureCode::Hook), text("message"));
    if body.get("detail").is_some() {
        let _ = failed.value(py).setattr("detail", text("detail"));
    }
    failed
}

#[pymodule]
fn _hookc(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Policy>()?;
    module.add_class::<Run>()?;
    module.add_function(wrap_pyfunction!(run_error, module)?)?;
    module.add_function(wrap_pyfunction!(event_name, module)?)?;
    module.add("HookcError", module.py().get_type::<HookcError>())?;
    Ok(())
}
