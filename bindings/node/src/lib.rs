//! hookc for Node (napi-rs): a policy loaded once, each decision made in-process. `index.js`
//! wraps this module: it turns the JSON error texts below into `HookcError`s with a `code` (and a
//! load error's `diagnostics`), and adds the async variants.

use hookc::agent::Failure;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde_json::Value;
use std::sync::{Arc, Mutex};

/// A failure as `index.js` rethrows it: `{"code", "message", "diagnostics"?}`.
fn thrown(failure: Failure) -> Error {
    Error::new(Status::GenericFailure, failure.to_json().to_string())
}

/// A failure with no diagnostics.
fn failure(code: &str, message: impl std::fmt::Display) -> Error {
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
    hookc::agent::evaluate_json(policy, event).map_err(thrown)
}

/// What `hookc hook AGENT` would answer.
fn answer_payload(policy: &hookc::Policy, agent: &str, payload: &str, event: Option<String>) -> Result<Answer> {
    let answer = hookc::agent::answer(policy, agent, payload, event).map_err(thrown)?;
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
            Some(key) => Some(hookc::signing::TrustKey::read(&key).map_err(|error| failure("HOOKC_TRUST_KEY", error))?),
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
        let text = serde_json::to_string(&event).map_err(|error| failure("HOOKC_EVENT", error))?;
        let result = evaluate_text(&self.inner, &text)?;
        serde_json::from_str(&result).map_err(|error| failure("HOOKC_EVAL", error))
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
    hookc::agent::event_name(&name).map(str::to_string).map_err(|message| failure("HOOKC_EVENT", message))
}

/// One event's hooks merged one result at a time, by hookc's own rules
/// (`hookc::agent::JsonChain`, the Rust registry's chain with JSON in and out): `index.js`'s
/// `HookRegistry.run` drives it, awaiting each JS callback and handing its result here.
#[napi]
pub struct Chain {
    /// Shared with an `evaluateAsync` task while it runs on the thread pool (the registry awaits
    /// each step, so nothing else holds the lock meanwhile).
    inner: Arc<Mutex<hookc::agent::JsonChain>>,
}

/// A chain's failure as the error `index.js` rethrows (`HOOKC_HOOK`, `HOOKC_CONTRACT`).
fn hook_failure(error: &hookc::agent::HookError) -> Error {
    Error::new(Status::GenericFailure, hookc::agent::failure_json(error).to_string())
}

/// `Chain.evaluateAsync`: a rule set's evaluation on libuv's thread pool, off the event loop.
pub struct ChainEvaluateTask {
    chain: Arc<Mutex<hookc::agent::JsonChain>>,
    policy: Arc<hookc::Policy>,
}

impl Task for ChainEvaluateTask {
    type Output = ();
    type JsValue = ();

    fn compute(&mut self) -> Result<()> {
        let mut chain = self.chain.lock().map_err(|_| failure("HOOKC_HOOK", "the hook chain was poisoned"))?;
        chain.evaluate(&self.policy).map_err(|error| hook_failure(&error))
    }

    fn resolve(&mut self, _env: Env, _output: ()) -> Result<()> {
        Ok(())
    }
}

impl Chain {
    fn with<T>(&self, read: impl FnOnce(&mut hookc::agent::JsonChain) -> T) -> Result<T> {
        let mut chain = self.inner.lock().map_err(|_| failure("HOOKC_HOOK", "the hook chain was poisoned"))?;
        Ok(read(&mut chain))
    }
}

#[napi]
impl Chain {
    /// The chain of one native event's hooks (the JSON text `hookc eval` reads).
    #[napi(factory)]
    pub fn start(event: String) -> Result<Chain> {
        hookc::agent::JsonChain::start(&event)
            .map(|inner| Chain { inner: Arc::new(Mutex::new(inner)) })
            .map_err(|error| failure("HOOKC_EVENT", error))
    }

    /// The event's name in rule files (`pre_tool_use`).
    #[napi(getter)]
    pub fn event_name(&self) -> Result<String> {
        self.with(|chain| chain.event_name().to_string())
    }

    /// Whether the merged result halts the chain: no later hook runs.
    #[napi(getter)]
    pub fn halted(&self) -> Result<bool> {
        self.with(|chain| chain.halted())
    }

    /// The event as the next hook sees it, with the earlier hooks' rewrites put in.
    #[napi]
    pub fn current(&self) -> Result<Value> {
        self.with(|chain| chain.current())
    }

    /// Runs a policy's rules on the event as the chain has it now, on libuv's thread pool, and
    /// takes their result: a Promise, the event loop never waits.
    #[napi]
    pub fn evaluate_async(&self, policy: &Policy) -> AsyncTask<ChainEvaluateTask> {
        AsyncTask::new(ChainEvaluateTask { chain: Arc::clone(&self.inner), policy: Arc::clone(&policy.inner) })
    }

    /// Takes a callback's result (HookResult JSON, as `evaluate` returns it).
    #[napi]
    pub fn take(&self, result: String) -> Result<()> {
        self.with(|chain| chain.take(&result))?.map_err(|error| hook_failure(&error))
    }

    /// The JSON of the error to reject the run with when a callback threw or rejected.
    #[napi]
    pub fn failure(&self, reason: String) -> Result<String> {
        self.with(|chain| hookc::agent::failure_json(&chain.failed(reason)).to_string())
    }

    /// The JSON of the contract error to reject the run with when the caller's input check
    /// refused a PreToolUse rewrite (`detail` says why).
    #[napi]
    pub fn invalid_input(&self, detail: String) -> Result<String> {
        self.with(|chain| hookc::agent::failure_json(&chain.invalid_input(detail)).to_string())
    }

    /// The merged result (HookResult JSON).
    #[napi]
    pub fn result(&self) -> Result<String> {
        self.with(|chain| serde_json::to_string(chain.result()))?.map_err(|error| failure("HOOKC_EVAL", error))
    }

    /// What observers see of the run: its merged result, or `error` when it failed.
    #[napi]
    pub fn observation(&self, error: Option<String>) -> Result<Value> {
        self.with(|chain| chain.observation(error.as_deref()))
    }
}
