//! The audit log, written by the hook path (`hookc hook AGENT --audit-log FILE`) and by the
//! embedded runtime's observers alike: an observer that writes one JSON line per decision to a file, through a
//! bounded queue drained by a writer thread, so the loop never waits on the disk (unless the
//! queue is full, which slows the loop rather than drop a record). Each line is written with a
//! single `write`, so a process killed mid-run leaves only whole lines; [`AuditLog::close`]
//! (or dropping it) flushes every queued record.

mod observation;

pub use observation::Observation;
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// How many records may wait for the writer.
const QUEUE: usize = 4096;

/// One audit record: a JSON line, whose fields are a stable schema (`docs/fleet.md`). Fields
/// an event does not have are left out.
#[derive(Debug, Clone, Serialize)]
pub struct Record<'a> {
    /// When, in RFC 3339 (UTC, milliseconds).
    pub time: String,
    /// The agent's session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<&'a str>,
    /// The agent's working directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<&'a str>,
    /// Which agent: its id (`claude`, `copilot`, …; `vocab::agents`), or `native`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<&'a str>,
    /// The event (`pre_tool_use`, …).
    pub event: &'a str,
    /// The tool, for tool events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<&'a str>,
    /// What the tool does (`shell`, `write`, …), for tool events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// `true` when no table knows the tool on this agent (its `kind` is then `other`, and its
    /// arguments have no profile): `hookc doctor` lists such tools from the log.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unknown_tool: bool,
    /// `true` for an MCP tool whose server `vocab::mcp`'s table does not know (its tools are
    /// read by name where some row has them, else as `mcp`): `hookc doctor` lists such servers.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unknown_server: bool,
    /// What the call acts on: a shell call's command line, else the file (a patch's files),
    /// absolute where the event anchors it, or the URL; at most [`MAX_TARGET_CHARS`] characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The file `target` names, relative to the project root, as rules and reasons spell it
    /// (`.env`), when it is one file inside the project.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_relative: Option<String>,
    /// The decision (`block`, `deny`, `ask`, `allow`, `rewrite`, `stop`, `continue`,
    /// `context`, `none`, `error`).
    pub decision: &'a str,
    /// The reason the decision gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'a str>,
    /// How the agent takes the decision, where it does not take it as the contract says (its
    /// capability row: `instead: …` or `ignored: …`): Cline cannot continue a finished task,
    /// so its `continue` is recorded with why it did not happen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taken_as: Option<String>,
    /// The rules that fired, in order.
    pub rules: &'a [String],
    /// The rules that fired but a waiver in force lifted, each with the waiver: every decision
    /// a waiver changed.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub waived: &'a [crate::eval::Waived],
    /// What the rules' `log` actions wrote.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub logs: Vec<LogLine<'a>>,
    /// Why the hooks failed (decision `error`), in full.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    /// The source hash of the rule set or bundle.
    pub policy: &'a str,
    /// The agent's version, where its payload says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_version: Option<&'a str>,
    /// Where and by whom and what the record was made.
    #[serde(flatten)]
    pub origin: &'a Origin,
}

/// Where a record is made, by whom and by which hookc: read once per log from the system and
/// the environment, never through a lookup that can block the hook (no NSS or LDAP call: the
/// user is the uid and `USER`/`LOGNAME`, not a password-database name).
#[derive(Debug, Clone, Serialize)]
pub struct Origin {
    /// The host name (`gethostname`, else `HOSTNAME`/`COMPUTERNAME`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// The OS user as the environment names it (`USER`, `LOGNAME`, `USERNAME`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// The process's user id (Unix).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uid: Option<u32>,
    /// The hookc binary that decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hookc_path: Option<String>,
    /// Its version.
    pub hookc_version: &'static str,
}

impl Origin {
    /// This process's origin.
    pub fn here() -> Origin {
        let env =
            |names: &[&str]| names.iter().find_map(|name| std::env::var(name).ok().filter(|value| !value.is_empty()));
        Origin {
            host: host_name().or_else(|| env(&["HOSTNAME", "COMPUTERNAME"])),
            user: env(&["USER", "LOGNAME", "USERNAME"]),
            uid: uid(),
            hookc_path: std::env::current_exe().ok().map(|path| path.to_string_lossy().into_owned()),
            hookc_version: env!("CARGO_PKG_VERSION"),
        }
    }
}

/// The kernel's host name: `uname`, which asks no resolver.
#[cfg(unix)]
fn host_name() -> Option<String> {
    let name = rustix::system::uname().nodename().to_string_lossy().into_owned();
    (!name.is_empty()).then_some(name)
}

#[cfg(not(unix))]
fn host_name() -> Option<String> {
    None
}

#[cfg(unix)]
fn uid() -> Option<u32> {
    Some(rustix::process::getuid().as_raw())
}

#[cfg(not(unix))]
fn uid() -> Option<u32> {
    None
}

/// A call that failed before it became an event, for [`AuditLog::record_failure`].
#[derive(Debug, Clone)]
pub struct Failed<'a> {
    /// Which agent: `claude`, `codex`, `gemini`.
    pub agent: &'a str,
    /// The event, when the payload names one hookc knows.
    pub event: Option<crate::vocab::EventKind>,
    /// The session, when the payload says.
    pub session_id: Option<&'a str>,
    /// The working directory, when the payload says.
    pub cwd: Option<&'a str>,
    /// The tool, when the payload says.
    pub tool: Option<&'a str>,
    /// What the call acts on, when the payload could be read that far.
    pub target: Option<(String, Option<String>)>,
    /// The agent's version, when the payload says.
    pub agent_version: Option<&'a str>,
    /// Why the call could not be decided.
    pub error: &'a str,
}

/// The most characters of a target a record keeps.
pub const MAX_TARGET_CHARS: usize = 512;

/// What a call acts on, for the record, and the file it names relative to the project root
/// when it is one file inside the project; secret values redacted (by `redaction`, else the
/// shipped baseline's shapes) before either is cut to [`MAX_TARGET_CHARS`].
pub fn target(
    event: &crate::model::event::Event,
    redaction: Option<&crate::redact::Redaction>,
) -> Option<(String, Option<String>)> {
    use crate::vocab::tools::Source;
    use crate::vocab::{Kind, Semantic};
    let call = event.tool_call()?;
    let tool = event.resolved_tool();
    let (text, relative) = if tool.kind() == Kind::Shell {
        let line = crate::eval::files::command_text(tool, &call.args)?;
        (crate::redact::shell_line(redaction, &line, tool.powershell()), None)
    } else {
        match tool.source(Semantic::Path) {
            Some(Source::Patch(names)) => {
                let patch = names.iter().find_map(|name| call.args.get(*name).and_then(serde_json::Value::as_str))?;
                (crate::vocab::patch::patch_paths(patch).join(", "), None)
            }
            _ => match tool.value(Semantic::Path, &call.args).and_then(serde_json::Value::as_str) {
                Some(raw) => {
                    let common = &event.common;
                    let anchor = crate::paths::Anchor::new(
                        common.cwd.as_deref(),
                        common.project_root.as_deref(),
                        crate::paths::Anchor::process_home().as_deref(),
                    );
                    match anchor.file(raw) {
                        Ok(file) => {
                            let inside = !file.is_outside_project();
                            let relative = inside.then(|| file.canonical.clone());
                            (file.absolute.unwrap_or(file.canonical), relative)
                        }
                        Err(_) => (raw.to_string(), None),
                    }
                }
                None => (tool.value(Semantic::Url, &call.args).and_then(serde_json::Value::as_str)?.to_string(), None),
            },
        }
    };
    let redact = |text: String| crate::redact::owned(redaction, text);
    let (text, relative) = (redact(text), relative.map(redact));
    let cut = |text: String| match (text.char_indices().nth(MAX_TARGET_CHARS - 1), text.chars().nth(MAX_TARGET_CHARS)) {
        (Some((cut, _)), Some(_)) => format!("{}…", text.get(..cut).unwrap_or_default()),
        _ => text,
    };
    Some((cut(text), relative.map(cut)))
}

/// How an agent takes a decision, where its capability row departs from the contract.
fn taken_as(agent: Option<&str>, at: Option<&str>, event: crate::vocab::EventKind, outcome: &str) -> Option<String> {
    use crate::vocab::agents::{AnswerKind, Support};
    use crate::vocab::EventKind;
    let answer = match outcome {
        "block" | "deny" => AnswerKind::Deny,
        "ask" => AnswerKind::Ask,
        "allow" => AnswerKind::Allow,
        "rewrite" if event == EventKind::PostToolUse => AnswerKind::UpdatedOutput,
        "rewrite" => AnswerKind::UpdatedInput,
        "stop" => AnswerKind::Stop,
        "continue" => AnswerKind::Continue,
        "context" => AnswerKind::Context,
        _ => return None,
    };
    let agent = crate::vocab::agents::find(agent?)?;
    let support = match at {
        Some(name) => agent.support_at(name, event, answer),
        None => agent.support(event, answer),
    };
    match support {
        Support::Instead(how) => Some(format!("instead: {how}")),
        Support::Ignored(why) => Some(format!("ignored: {why}")),
        Support::Honoured | Support::NotFired => None,
    }
}

/// Whether no table knows a tool (an MCP tool is known for what it is: `mcp`).
fn unknown(resolved: crate::vocab::tools::Resolved, tool: &str) -> bool {
    resolved.tool().is_none() && crate::vocab::tools::mcp_parts(tool).is_none()
}

/// One `log` action's record in the audit log.
#[derive(Debug, Clone, Serialize)]
pub struct LogLine<'a> {
    /// The rule that logged.
    pub rule: &'a str,
    /// Its message, or why it could not be rendered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<&'a str>,
    /// Why the message could not be rendered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
}

/// A running audit log.
pub struct AuditLog {
    sender: Mutex<Option<SyncSender<String>>>,
    writer: Mutex<Option<JoinHandle<std::io::Result<()>>>>,
    policy: String,
    origin: Origin,
}

impl AuditLog {
    /// Opens (appends to) the file and starts the writer. Only a regular file is an audit log:
    /// a FIFO with no reader would block the open (and with it the decision) for ever, and one
    /// an agent can create at the path would switch the policy off; a device is no log either.
    /// The open itself never blocks, and the file is checked again once open.
    ///
    /// Links are refused too: hookc runs outside the agent's sandbox, and a log the agent can
    /// swap for a symbolic or hard link to another file (a shell's startup file) would have
    /// hookc append the agent's own command lines to it.
    pub fn open(path: &Path, policy_hash: &str) -> std::io::Result<Arc<AuditLog>> {
        let not_regular = || std::io::Error::other("not a regular file");
        let linked = || std::io::Error::other("a link: the audit log must be a file of its own");
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => return Err(linked()),
            Ok(meta) if !meta.is_file() => return Err(not_regular()),
            _ => {}
        }
        let mut options = std::fs::OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            // A new log is the user's alone: it holds commands, paths and reasons.
            options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW).mode(0o600);
        }
        let mut file = options.open(path)?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(not_regular());
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            if meta.nlink() > 1 {
                return Err(linked());
            }
        }
        let (sender, receiver) = sync_channel::<String>(QUEUE);
        let writer = std::thread::Builder::new().name("hookc-audit".into()).spawn(move || {
            for line in receiver {
                // One write per line: a kill leaves whole lines only.
                file.write_all(line.as_bytes())?;
            }
            file.flush()
        })?;
        Ok(Arc::new(AuditLog {
            sender: Mutex::new(Some(sender)),
            writer: Mutex::new(Some(writer)),
            policy: policy_hash.to_string(),
            origin: Origin::here(),
        }))
    }

    /// Queues one record for an observation.
    pub fn record(&self, observation: &Observation<'_>) {
        let common = &observation.source.common;
        let redact = |text: &str| crate::redact::apply(observation.redaction, text).into_owned();
        let (target, target_relative) = target(observation.source, observation.redaction).unzip();
        // The tool resolved once for its kind and whether tables know it.
        let resolved = observation.tool.map(|tool| (common.resolve(tool), tool));
        let error = observation.error.map(redact);
        let (session_id, cwd, tool) =
            (common.session_id.as_deref().map(redact), common.cwd.as_deref().map(redact), observation.tool.map(redact));
        let record = Record {
            time: humantime::format_rfc3339_millis(crate::clock::system_now()).to_string(),
            session_id: session_id.as_deref(),
            cwd: cwd.as_deref(),
            agent: common.agent.as_deref(),
            event: observation.event.name(),
            tool: tool.as_deref(),
            kind: resolved.map(|(resolved, _)| resolved.kind().name()),
            unknown_tool: resolved.is_some_and(|(resolved, tool)| unknown(resolved, tool)),
            unknown_server: resolved.is_some_and(|(resolved, _)| resolved.unknown_server()),
            target,
            target_relative: target_relative.flatten(),
            decision: observation.outcome,
            reason: observation.reason,
            taken_as: taken_as(common.agent.as_deref(), observation.at, observation.event, observation.outcome),
            rules: observation.matched,
            waived: observation.waived,
            policy: &self.policy,
            logs: observation
                .logs
                .iter()
                .map(|log| LogLine {
                    rule: &log.rule,
                    message: log.message.as_ref().ok().map(String::as_str),
                    error: log.message.as_ref().err().map(String::as_str),
                })
                .collect(),
            error: error.as_deref(),
            agent_version: common.agent_version.as_deref(),
            origin: &self.origin,
        };
        self.send(&record);
    }

    /// Queues a record for a call that failed before it became an event (its payload or the
    /// policy could not be read): decision `error`, with what the payload said of itself.
    pub fn record_failure(&self, failed: &Failed<'_>) {
        // No policy decided: the shipped baseline's secret value shapes are redacted (the
        // target was, when it was read).
        let redact = |text: &str| crate::redact::apply(None, text).into_owned();
        let (target, target_relative) = failed.target.clone().unzip();
        let resolved = failed.tool.map(|tool| (crate::vocab::agents::resolve(Some(failed.agent), tool), tool));
        let error = redact(failed.error);
        let (session_id, cwd, tool) = (failed.session_id.map(redact), failed.cwd.map(redact), failed.tool.map(redact));
        let record = Record {
            time: humantime::format_rfc3339_millis(crate::clock::system_now()).to_string(),
            session_id: session_id.as_deref(),
            cwd: cwd.as_deref(),
            agent: Some(failed.agent),
            event: failed.event.map_or("unknown", crate::vocab::EventKind::name),
            tool: tool.as_deref(),
            kind: resolved.map(|(resolved, _)| resolved.kind().name()),
            unknown_tool: resolved.is_some_and(|(resolved, tool)| unknown(resolved, tool)),
            unknown_server: resolved.is_some_and(|(resolved, _)| resolved.unknown_server()),
            target,
            target_relative: target_relative.flatten(),
            decision: "error",
            reason: None,
            taken_as: None,
            rules: &[],
            waived: &[],
            logs: Vec::new(),
            error: Some(&error),
            policy: &self.policy,
            agent_version: failed.agent_version,
            origin: &self.origin,
        };
        self.send(&record);
    }

    fn send(&self, record: &Record<'_>) {
        let Ok(mut line) = serde_json::to_string(record) else { return };
        line.push('\n');
        if let Ok(guard) = self.sender.lock() {
            if let Some(sender) = guard.as_ref() {
                // A closed log drops records silently: it is shutting down.
                let _ = sender.send(line);
            }
        }
    }

    /// Stops accepting records and waits until every queued one is written.
    pub fn close(&self) -> std::io::Result<()> {
        if let Ok(mut sender) = self.sender.lock() {
            sender.take();
        }
        let writer = self.writer.lock().ok().and_then(|mut writer| writer.take());
        match writer.map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(std::io::Error::other("the audit writer panicked")),
            None => Ok(()),
        }
    }
}

impl Drop for AuditLog {
    fn drop(&mut self) {
        if let Err(error) = self.close() {
            eprintln!("hookc: warning: the audit log could not be written: {error}");
        }
    }
}
