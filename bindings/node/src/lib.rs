//! hookc for Node (napi-rs): a policy loaded once, each decision made in-process. `index.js`
//! wraps this module: it turns the JSON error texts below into `HookcError`s with a `code` (and a
//! load error's `diagnostics`), and adds the async variants.

use hookc::runtime::{Failure, FailureCode};
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde_json::Value;
use std::sync::{Arc, Mutex};

/// A failure as `index.js` rethrows it: `{"code", "message", "diagnostics"?}`.
fn thrown(failure: Failure) -> Error {
    Error::new(Status::GenericFailure, failure.to_json().to_string())
}

/// A failure with no diagnostics.
fn failure(code: FailureCode, message: impl std::fmt::Display) -> Error {
    thrown(Failure::new(code, message))
}

/// A load error: the first diagnostic's code when the rules do not check.
fn load_failure(error: hookc::LoadError) -> Error {
    thrown(Failure::from(error))
}

/// What `hookc hook AGENT` would print and exit with.
#[napi(object)]
pub struct Answer {
    /// The JSON line for stdout, if any.
    pub stdout: Option<String>,
    /// 0 (the agent reads stdout) or 2 (the call is blocked; `stderr` says why).
    pub exit: u32,
    /// The lines for stderr.
    pub stderr: Vec<String>,
}

/// Options for a bundle.
#[napi(object)]
pub struct BundleOptions {
    /// A minisign public key (a `.pub` file or the key itself): the bundle loads only if
    /// `BUNDLE.minisig` is its signature.
    pub trust_key: Option<String>,
}

/// A loaded policy.
#[napi]
pub struct Policy {
    inner: Arc<hookc::Policy>,
}

/// One native event's HookResult, from JSON text to JSON text (the limits of `hookc eval`).
fn evaluate_text(policy: &hookc::Policy, event: &str) -> Result<String> {
    hookc::runtime::evaluate_json(policy, event).map_err(thrown)
}

/// What `hookc hook AGENT` would answer.
fn answer_payload(policy: &hookc::Policy, agent: &str, payload: &str, event: Option<String>) -> Result<Answer> {
    let answer = hookc::runtime::answer(policy, agent, payload, event).map_err(thrown)?;
    Ok(Answer { stdout: answer.stdout, exit: u32::from(answer.exit), stderr: answer.stderr })
}

/// `evaluateJsonAsync`: the evaluation on libuv's thread pool, off the event loop.
pub struct EvaluateTask {
    policy: Arc<hookc::Policy>,
    event: String,
}

impl Task for EvaluateTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        evaluate_text(&self.policy, &self.event)
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

/// `answerAsync`: the answer on libuv's thread pool, off the event loop.
pub struct AnswerTask {
    policy: Arc<hookc::Policy>,
    agent: String,
    payload: String,
    event: Option<String>,
}

impl Task for AnswerTask {
    type Output = Answer;
    type JsValue = Answer;

    fn compute(&mut self) -> Result<Answer> {
        answer_payload(&self.policy, &self.agent, &self.payload, self.event.take())
    }

    fn resolve(&mut self, _env: Env, output: Answer) -> Result<Answer> {
        Ok(output)
    }
}

#[napi]
impl Policy {
    /// Compiles rule files: each path a `.rules` file, a directory of them, or `builtin:NAME`.
    #[napi(factory)]
    pub fn from_rules(paths: Vec<String>) -> Result<Policy> {
        hookc::Policy::from_paths(&paths).map(|inner| Policy { inner: Arc::new(inner) }).map_err(load_failure)
    }

    /// Compiles rules given as text (`name` is used in diagnostics).
    #[napi(factory)]
    pub fn from_source(name: String, text: String) -> Result<Policy> {
        hookc::Policy::from_source(&name, &text).map(|inner| Policy { inner: Arc::new(inner) }).map_err(load_failure)
    }

    /// Loads a bundle written by `hookc compile`; with `trustKey`, only a bundle that key signed.
    #[napi(factory)]
    pub fn from_bundle(path: String, options: Option<BundleOptions>) -> Result<Policy> {
        let key = match options.and_then(|options| options.trust_key) {
            Some(key) => Some(hookc::signing::TrustKey::read(&key).map_err(|error| failure(FailureCode::TrustKey, error))?),
            None => None,
        };
        hookc::Policy::load_bundle_trusted(&path, key.as_ref())
            .map(|inner| Policy { inner: Arc::new(inner) })
            .map_err(load_failure)
    }

    /// The policy's identity (`sha256:…`), as the audit log and `hookc check` name it.
    #[napi(getter)]
    pub fn source_hash(&self) -> String {
        self.inner.source_hash().to_string()
    }

    /// Evaluates one native event (hookc's own JSON shape) and returns the HookResult, the same
    /// JSON as `hookc eval`.
    #[napi]
    pub fn evaluate(&self, event: Value) -> Result<Value> {
        let text = serde_json::to_string(&event).map_err(|error| failure(FailureCode::Event, error))?;
        let result = evaluate_text(&self.inner, &text)?;
        serde_json::from_str(&result).map_err(|error| failure(FailureCode::Eval, error))
    }

    /// [`Policy::evaluate`] from JSON text to JSON text: no conversion through JS objects.
    #[napi]
    pub fn evaluate_json(&self, event: String) -> Result<String> {
        evaluate_text(&self.inner, &event)
    }

    /// [`Policy::evaluate_json`] on libuv's thread pool: a Promise, the event loop never waits.
    #[napi]
    pub fn evaluate_json_async(&self, event: String) -> AsyncTask<EvaluateTask> {
        AsyncTask::new(EvaluateTask { policy: Arc::clone(&self.inner), event })
    }

    /// [`Policy::answer`] on libuv's thread pool: a Promise, the event loop never waits.
    #[napi]
    pub fn answer_async(&self, agent: String, payload: String, event: Option<String>) -> AsyncTask<AnswerTask> {
        AsyncTask::new(AnswerTask { policy: Arc::clone(&self.inner), agent, payload, event })
    }

    /// Answers one payload an agent sends its command hook, exactly as `hookc hook AGENT` would:
    /// what it prints and its exit code (a failure blocks the call, as the command does).
    #[napi]
    pub fn answer(&self, agent: String, payload: String, event: Option<String>) -> Result<Answer> {
        answer_payload(&self.inner, &agent, &payload, event)
    }
}

/// The rule-file name (`pre_tool_use`) of an event named either way (`PreToolUse`).
#[napi]
pub fn event_name(name: String) -> Result<String> {
    hookc::runtime::event_name(&name).map(str::to_string).map_err(thrown)
}

/// A registry's run (`hookc::runtime::JsonSteps`): `index.js`'s `HookRegistry.run` asks it what to
/// do next, does it (a JS callback or the input check awaited, a rule set evaluated off the event
/// loop) and hands the answer back. The order, the contract checks and the merge are Rust's.
#[napi]
pub struct Run {
    /// Shared with an `evaluateAsync` task while it runs on the thread pool (the registry awaits
    /// each step, so nothing else holds the lock meanwhile).
    inner: Arc<Mutex<hookc::runtime::JsonSteps>>,
}

/// `Run.evaluateAsync`: a rule set's evaluation on libuv's thread pool, off the event loop.
pub struct RunEvaluateTask {
    run: Arc<Mutex<hookc::runtime::JsonSteps>>,
    policy: Arc<hookc::Policy>,
}

impl Task for RunEvaluateTask {
    type Output = ();
    type JsValue = ();

    fn compute(&mut self) -> Result<()> {
        let mut run = self.run.lock().map_err(|_| failure(FailureCode::Hook, "the hook run was poisoned"))?;
        run.evaluate(&self.policy);
        Ok(())
    }

    fn resolve(&mut self, _env: Env, _output: ()) -> Result<()> {
        Ok(())
    }
}

impl Run {
    fn with<T>(&self, act: impl FnOnce(&mut hookc::runtime::JsonSteps) -> T) -> Result<T> {
        let mut run = self.inner.lock().map_err(|_| failure(FailureCode::Hook, "the hook run was poisoned"))?;
        Ok(act(&mut run))
    }
}

#[napi]
impl Run {
    /// The run of one native event (JSON text) through the registry's hooks: `"rules"` for a
    /// rule set, an event's name for a callback of that event, in registration order.
    #[napi(factory)]
    pub fn start(event: String, hooks: Vec<String>, checking: bool) -> Result<Run> {
        hookc::runtime::JsonSteps::start(&event, &hooks, checking)
            .map(|inner| Run { inner: Arc::new(Mutex::new(inner)) })
            .map_err(|error| thrown(error))
    }

    /// The event's name in rule files (`pre_tool_use`).
    #[napi(getter)]
    pub fn event_name(&self) -> Result<String> {
        self.with(|run| run.event_name().to_string())
    }

    /// What to do next, as JSON text (`{step: 'rules' | 'call' | 'check' | 'done' | 'failed', …}`):
    /// text, not a JS value, so that a number past 2^53 in an event stays a number (napi would
    /// make it a BigInt, which JSON cannot write).
    #[napi]
    pub fn need(&self) -> Result<String> {
        self.with(|run| run.need().to_string())
    }

    /// Ends the run as failed from outside (the JS driver met what it could not hand over).
    #[napi]
    pub fn abort(&self, reason: String) -> Result<()> {
        self.with(|run| run.abort(&reason))
    }

    /// Answers `rules`, on libuv's thread pool: a Promise, the event loop never waits.
    #[napi]
    pub fn evaluate_async(&self, policy: &Policy) -> AsyncTask<RunEvaluateTask> {
        AsyncTask::new(RunEvaluateTask { run: Arc::clone(&self.inner), policy: Arc::clone(&policy.inner) })
    }

    /// Answers `call` with the callback's result (HookResult JSON).
    #[napi]
    pub fn returned(&self, result: String) -> Result<()> {
        self.with(|run| run.returned(&result))
    }

    /// Answers `call` for a callback that threw or rejected.
    #[napi]
    pub fn threw(&self, description: String) -> Result<()> {
        self.with(|run| run.threw(&description))
    }

    /// Answers `check`: nothing accepts the rewrite, a string refuses it and says why.
    #[napi]
    pub fn checked(&self, problem: Option<String>) -> Result<()> {
        self.with(|run| run.checked(problem.as_deref()))
    }

    /// Answers `check` for an input check that threw or rejected.
    #[napi]
    pub fn check_threw(&self, description: String) -> Result<()> {
        self.with(|run| run.check_threw(&description))
    }

    /// Answers `check` for an input check that returned what is no verdict.
    #[napi]
    pub fn check_answered(&self, description: String) -> Result<()> {
        self.with(|run| run.check_answered(&description))
    }
}
