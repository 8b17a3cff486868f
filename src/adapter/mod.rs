//! Agent protocols. Claude Code, Codex and Gemini CLI run hookc as a *command hook*: they write
//! a JSON event on stdin and read a decision from stdout and the exit code. Each adapter maps
//! its agent's payload to native [`Event`]s and the merged [`HookResult`] back to the agent's
//! answer; [`run`] does the rest the same way for all of them.
//!
//! **Failing closed.** For these agents, exit 2 blocks the action and shows stderr; any other
//! non-zero exit lets the call proceed — a crashing policy hook would silently disable the
//! policy. So every failure here (unreadable input, unknown event, unreadable rules or bundle,
//! an evaluation error) exits 2 with a one-line reason, unless the user chose `--fail-open`.

pub mod capabilities;
pub(crate) mod claude;
pub(crate) mod gemini;
mod output;
pub(crate) mod transcript;

use crate::agent::audit::AuditLog;
use crate::agent::Observation;
use crate::eval::{EvalError, Evaluation};
use crate::model::escape_controls;
use crate::model::event::{Event, MAX_EVENT_BYTES};
use crate::model::result::HookResult;
use crate::vocab::EventKind;
use crate::Policy;
use std::io::Read;

/// What an adapter answers: stdout (if any) and the exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    /// The JSON written to stdout, if any.
    pub stdout: Option<String>,
    /// The exit code (0: read stdout; 2: block with stderr).
    pub exit: u8,
}

/// An agent's payload, mapped: the native event to evaluate (a call that touches several files
/// is judged per file by evaluation itself), and whatever the adapter needs to render the answer.
pub(crate) struct Mapped<C> {
    /// The event.
    pub event: Event,
    /// Protocol details kept for rendering.
    pub context: C,
    /// Where a Stop's turn is recorded: read before evaluation, when the policy has rules for
    /// the event.
    pub turn: Option<transcript::Source>,
}

/// One agent's protocol.
pub(crate) trait Protocol {
    /// Protocol details kept between mapping and rendering.
    type Context;
    /// Maps the agent's JSON payload to native events.
    fn map(&self, payload: &[u8]) -> Result<Mapped<Self::Context>, String>;
    /// Which agent protocol this is.
    fn id(&self) -> HookProtocol;
    /// Renders the merged result as the agent's answer.
    fn render(&self, context: &Self::Context, result: &HookResult) -> Result<Answer, String>;
    /// The project root the agent tells its hooks (an environment variable, or where it runs
    /// them), if any; `--project-root` overrides it, and the event's `cwd` stands in without it.
    fn project_root(&self, _cwd: Option<&str>) -> Option<String> {
        None
    }
}

/// Why an adapter could not decide.
#[derive(Debug, Clone)]
pub(crate) struct Failure(pub String);

/// Runs one hook call: maps the payload, evaluates, and returns the answer, or
/// the failure to report. `policy` is loaded by the caller (a load failure is a failure too).
pub(crate) fn decide<P: Protocol>(
    protocol: &P,
    policy: &Policy,
    payload: &[u8],
    audit: Option<&AuditLog>,
    project_root: Option<&str>,
) -> Result<(Answer, Vec<String>), Failure> {
    let mapped = native(protocol, policy, payload, project_root).map_err(|reason| {
        unmapped(audit, protocol.id(), Some(payload), &reason);
        Failure(reason)
    })?;
    let evaluation =
        crate::pattern::with_compile_budget(crate::pattern::COMPILE_BUDGET, || policy.evaluate_full(&mapped.event))
            .map_err(|error: EvalError| {
                let error = error.to_string();
                record(audit, &mapped.event, Err(&error));
                Failure(error)
            })?;
    record(audit, &mapped.event, Ok(&evaluation));
    let answer = protocol.render(&mapped.context, &evaluation.result).map_err(Failure)?;
    Ok((answer, log_lines(&evaluation)))
}

/// The agent's payload as the native event the policy evaluates: mapped, its paths anchored at
/// the project root, and a Stop's turn read from the agent's transcript when the policy has
/// rules for the event.
fn native<P: Protocol>(
    protocol: &P,
    policy: &Policy,
    payload: &[u8],
    project_root: Option<&str>,
) -> Result<Mapped<P::Context>, String> {
    let mut mapped = protocol.map(payload)?;
    let event = &mut mapped.event;
    event.common.project_root =
        project_root.map(str::to_string).or_else(|| protocol.project_root(event.common.cwd.as_deref()));
    let has_rules = !policy.table().rules_of(event.kind()).is_empty();
    if let (Some(source), Some(stop), true) = (&mapped.turn, event.stop_info_mut(), has_rules) {
        source.apply(stop);
    }
    Ok(mapped)
}

/// The native event an agent's hook payload becomes, exactly as `hookc claude` / `hookc
/// gemini` would evaluate it (for `eval --agent` and `explain --agent`).
pub(crate) fn agent_event(
    protocol: HookProtocol,
    policy: &Policy,
    payload: &[u8],
    project_root: Option<&str>,
) -> Result<Event, String> {
    let event = match protocol {
        HookProtocol::Claude | HookProtocol::Codex => {
            let claude = claude::Claude { flavor: claude::Flavor::of(protocol) };
            native(&claude, policy, payload, project_root)?.event
        }
        HookProtocol::Gemini => native(&gemini::Gemini, policy, payload, project_root)?.event,
    };
    Ok(event)
}

/// An agent protocol hookc answers command hooks in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HookProtocol {
    /// Claude Code (`hookc claude`).
    Claude,
    /// Codex, which speaks Claude Code's protocol (`hookc claude --agent codex`).
    Codex,
    /// Gemini CLI (`hookc gemini`).
    Gemini,
}

impl HookProtocol {
    /// The agent's name, as events and records give it.
    pub(crate) fn agent(self) -> &'static str {
        match self {
            HookProtocol::Claude => "claude",
            HookProtocol::Codex => "codex",
            HookProtocol::Gemini => "gemini",
        }
    }
}

/// What one command-hook call prints and exits with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookAnswer {
    /// The JSON line for stdout, if any.
    pub stdout: Option<String>,
    /// The exit code: 0 (the agent reads stdout) or 2 (the action is blocked; stderr says why).
    pub exit: u8,
    /// Lines for stderr, each one line (control characters escaped).
    pub stderr: Vec<String>,
}

/// How a hook call is answered beyond the policy and the payload.
#[derive(Default)]
pub struct HookOptions<'a> {
    /// Where decisions are recorded.
    pub audit: Option<&'a AuditLog>,
    /// The project root, overriding what the agent tells its hooks.
    pub project_root: Option<String>,
    /// Let the call proceed, with a warning, when the policy cannot decide.
    pub fail_open: bool,
}

/// Answers one command-hook call in-process, exactly as `hookc claude` / `hookc gemini` do:
/// the payload is read from `input`; `policy` is the loaded policy or why it could not be
/// loaded (which fails the call like any other failure).
pub fn answer_hook(
    protocol: HookProtocol,
    policy: Result<&Policy, String>,
    input: impl Read,
    options: &HookOptions<'_>,
) -> HookAnswer {
    let payload = read_payload(input);
    answer_payload(protocol, policy, payload.as_deref().map_err(Clone::clone), options)
}

/// Answers one call whose payload has been read (or could not be).
pub(crate) fn answer_payload(
    protocol: HookProtocol,
    policy: Result<&Policy, String>,
    payload: Result<&[u8], Failure>,
    options: &HookOptions<'_>,
) -> HookAnswer {
    let decided = payload.clone().and_then(|bytes| {
        let policy = policy.map_err(|reason| {
            unmapped(options.audit, protocol, Some(bytes), &reason);
            Failure(reason)
        })?;
        let (audit, root) = (options.audit, options.project_root.as_deref());
        match protocol {
            HookProtocol::Claude | HookProtocol::Codex => {
                decide(&claude::Claude { flavor: claude::Flavor::of(protocol) }, policy, bytes, audit, root)
            }
            HookProtocol::Gemini => decide(&gemini::Gemini, policy, bytes, audit, root),
        }
    });
    if let Err(error) = &payload {
        unmapped(options.audit, protocol, None, &error.0);
    }
    match decided {
        Ok((answer, logs)) => HookAnswer { stdout: answer.stdout, exit: answer.exit, stderr: logs },
        Err(error) => failure(protocol, payload.ok(), &error, options.fail_open),
    }
}

/// Records a call that failed before it became an event (the payload or the policy could not
/// be read): what the payload says of itself, read leniently, and why.
fn unmapped(audit: Option<&AuditLog>, protocol: HookProtocol, payload: Option<&[u8]>, error: &str) {
    let Some(log) = audit else { return };
    let said = payload.and_then(Said::read).unwrap_or_default();
    let events = match protocol {
        HookProtocol::Claude | HookProtocol::Codex => claude::EVENTS,
        HookProtocol::Gemini => gemini::EVENTS,
    };
    let event = said.hook_event_name.and_then(|name| event_kind(events, &name).ok());
    log.record_failure(&crate::agent::audit::Failed {
        agent: protocol.agent(),
        event,
        session_id: said.session_id.as_deref(),
        cwd: said.cwd.as_deref(),
        tool: said.tool_name.as_deref(),
        error,
    });
}

/// The answer when a call cannot be decided: blocked (exit 2, the reason on stderr), or let
/// through with a warning under `fail_open`. A Stop that already forced a continuation may
/// stop either way: blocking it again would loop the agent on a broken policy.
pub(crate) fn failure(
    protocol: HookProtocol,
    payload: Option<&[u8]>,
    failure: &Failure,
    fail_open: bool,
) -> HookAnswer {
    let reason = escape_controls(&failure.0);
    let (stdout, exit, message) = if payload.is_some_and(|payload| may_stop(protocol, payload)) {
        let stdout = (protocol == HookProtocol::Gemini).then(|| "{}".to_string());
        (stdout, 0, format!("hookc: {reason} (a Stop that may already have continued once stops rather than loop)"))
    } else if let (false, HookProtocol::Claude, Some(stdout)) =
        (fail_open, protocol, payload.and_then(|payload| claude::unchecked_output(payload, &reason)))
    {
        // After a tool, exit 2 would not keep the output from the model.
        (Some(stdout), 0, format!("hookc: {reason} (the policy could not decide, so the tool's output is withheld)"))
    } else if fail_open {
        let stdout = match protocol {
            HookProtocol::Claude | HookProtocol::Codex => None,
            HookProtocol::Gemini => Some("{}".to_string()),
        };
        (stdout, 0, format!("hookc: warning: {reason} (--fail-open: not enforcing the policy for this call)"))
    } else {
        (None, 2, format!("hookc: {reason} (the policy could not decide, so the action is blocked)"))
    };
    HookAnswer { stdout, exit, stderr: vec![message] }
}

/// Whether a failure may let the agent stop: a Stop or SubagentStop with `stop_hook_active:
/// true`, and any Gemini CLI AfterAgent — Gemini CLI says `stop_hook_active: false` again after
/// a continuation that ran a tool, so blocking a failing AfterAgent would loop it. Read
/// leniently: the payload may be what failed.
fn may_stop(protocol: HookProtocol, payload: &[u8]) -> bool {
    let Some(said) = Said::read(payload) else { return false };
    match said.hook_event_name.as_deref() {
        Some("AfterAgent") if protocol == HookProtocol::Gemini => true,
        Some("Stop" | "SubagentStop" | "AfterAgent") => said.stop_hook_active == Some(true),
        _ => false,
    }
}

/// What a payload says of itself, read leniently for a call that failed (the payload may be
/// what failed). Typed, so a payload that names its event twice (the last would win in a
/// `Value`) is not read at all.
#[derive(serde::Deserialize, Default)]
struct Said {
    hook_event_name: Option<String>,
    stop_hook_active: Option<bool>,
    session_id: Option<String>,
    cwd: Option<String>,
    tool_name: Option<String>,
}

impl Said {
    fn read(payload: &[u8]) -> Option<Said> {
        serde_json::from_slice(payload).ok()
    }
}

/// The first of these environment variables that is set and not empty.
fn env_dir(names: &[&str]) -> Option<String> {
    names.iter().find_map(|name| std::env::var(name).ok().filter(|value| !value.is_empty()))
}

/// Decodes an agent's JSON payload (UTF-8 first, so the message says which problem it is).
fn decode<T: serde::de::DeserializeOwned>(payload: &[u8]) -> Result<T, String> {
    let text = std::str::from_utf8(payload).map_err(|error| {
        format!("the hook payload is not valid UTF-8 (invalid byte at offset {})", error.valid_up_to())
    })?;
    serde_json::from_str(text).map_err(|error| format!("the hook payload is not valid JSON: {error}"))
}

/// The tool call of a payload, or the name of the field it lacks.
fn tool_call(
    tool: &Option<String>,
    input: &Option<serde_json::Map<String, serde_json::Value>>,
    id: &Option<String>,
) -> Result<crate::model::event::ToolCall, &'static str> {
    Ok(crate::model::event::ToolCall {
        tool: tool.clone().ok_or("tool_name")?,
        args: input.clone().ok_or("tool_input")?,
        id: id.clone(),
    })
}

/// The native event for an agent's event name, from the adapter's table.
fn event_kind(events: &[(&str, EventKind)], name: &str) -> Result<EventKind, String> {
    events
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, kind)| *kind)
        .ok_or_else(|| format!("unsupported hook event `{name}`"))
}

fn record(audit: Option<&AuditLog>, event: &Event, outcome: Result<&Evaluation, &str>) {
    if let Some(log) = audit {
        log.record(&Observation::of_evaluation(event, outcome));
    }
}

/// Reads the payload: up to the end of the first complete JSON object or array (an agent may
/// write the payload and keep stdin open: waiting for end of file would hold the call until
/// the agent gives up and runs it), at most `MAX_EVENT_BYTES`.
pub(crate) fn read_payload(input: impl Read) -> Result<Vec<u8>, Failure> {
    let mut reader = std::io::BufReader::new(input.take(MAX_EVENT_BYTES as u64 + 1));
    let mut bytes = Vec::new();
    let mut end = ValueEnd::default();
    loop {
        let chunk = match std::io::BufRead::fill_buf(&mut reader) {
            Ok(chunk) => chunk,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(Failure(format!("cannot read the hook payload: {error}"))),
        };
        if chunk.is_empty() {
            break;
        }
        let (used, complete) = match end.feed(chunk) {
            Some(used) => (used, true),
            None => (chunk.len(), false),
        };
        bytes.extend_from_slice(chunk.get(..used).unwrap_or(chunk));
        std::io::BufRead::consume(&mut reader, used);
        if complete {
            break;
        }
    }
    if bytes.len() > MAX_EVENT_BYTES {
        return Err(Failure(format!("the hook payload is larger than the {MAX_EVENT_BYTES}-byte limit")));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Failure("the hook payload is empty".to_string()));
    }
    Ok(bytes)
}

/// Finds where the first JSON object or array of a byte stream ends, chunk by chunk: brackets
/// are counted outside strings. Anything else (a scalar, stray text) is read to end of file,
/// and decoding then says what is wrong with it.
#[derive(Default)]
struct ValueEnd {
    depth: usize,
    started: bool,
    scalar: bool,
    in_string: bool,
    escaped: bool,
}

impl ValueEnd {
    /// Feeds the next bytes; returns how many of them complete the value, if they do.
    fn feed(&mut self, chunk: &[u8]) -> Option<usize> {
        for (index, &byte) in chunk.iter().enumerate() {
            if self.scalar {
                return None;
            }
            if self.in_string {
                match (self.escaped, byte) {
                    (true, _) => self.escaped = false,
                    (false, b'\\') => self.escaped = true,
                    (false, b'"') => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'{' | b'[' => {
                    self.started = true;
                    self.depth += 1;
                }
                b'}' | b']' if self.depth > 0 => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        return Some(index + 1);
                    }
                }
                b'"' if self.started => self.in_string = true,
                byte if !self.started && !byte.is_ascii_whitespace() => self.scalar = true,
                _ => {}
            }
        }
        None
    }
}

fn log_lines(evaluation: &Evaluation) -> Vec<String> {
    evaluation
        .logs
        .iter()
        .map(|log| match &log.message {
            Ok(message) => format!("hookc: log: {}: {}", log.rule, escape_controls(message)),
            Err(reason) => format!("hookc: warning: log of rule `{}` failed: {}", log.rule, escape_controls(reason)),
        })
        .collect()
}

/// The reason to send with a denial: agents reject a blank one (Codex then runs the call) or
/// show nothing, so a blank reason says which rules denied.
fn denial_reason(reason: Option<String>, result: &HookResult) -> String {
    reason
        .filter(|reason| !reason.trim().is_empty())
        .unwrap_or_else(|| format!("denied by hookc rules: {}", result.matched.join(", ")))
}

/// Rewritten output to send where the agent takes it as a text that replaces the output
/// (Codex's and Gemini CLI's block reason): a blank one would be rejected, and the original shown.
fn replacement_text(text: &str, result: &HookResult) -> String {
    match text.trim().is_empty() {
        true => format!("[the output was removed by hookc rules: {}]", result.matched.join(", ")),
        false => text.to_string(),
    }
}

/// `additionalContext` entries as one text.
fn joined_context(result: &HookResult) -> Option<String> {
    (!result.additional_context.is_empty()).then(|| result.additional_context.join("\n\n"))
}
