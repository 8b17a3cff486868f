//! The audit log: an observer that writes one JSON line per decision to a file, through a
//! bounded queue drained by a writer thread, so the loop never waits on the disk (unless the
//! queue is full, which slows the loop rather than drop a record). Each line is written with a
//! single `write`, so a process killed mid-run leaves only whole lines; [`AuditLog::close`]
//! (or dropping it) flushes every queued record.

use super::registry::Observation;
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// How many records may wait for the writer.
const QUEUE: usize = 4096;

/// One audit record.
#[derive(Debug, Clone, Serialize)]
pub struct Record<'a> {
    /// Milliseconds since the Unix epoch.
    pub time_ms: u128,
    /// The event.
    pub event: &'a str,
    /// The tool, for tool events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<&'a str>,
    /// The rules that fired.
    pub rules: &'a [String],
    /// The outcome word (`block`, `deny`, …, `none`, `error`).
    pub outcome: &'a str,
    /// The source hash of the rule set or bundle.
    pub policy: &'a str,
    /// What the rules' `log` actions wrote.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub logs: Vec<LogLine<'a>>,
    /// Why the hooks failed (outcome `error`), in full.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
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
}

impl AuditLog {
    /// Opens (appends to) the file and starts the writer. Only a regular file is an audit log:
    /// a FIFO with no reader would block the open (and with it the decision) for ever, and one
    /// an agent can create at the path would switch the policy off; a device is no log either.
    /// The open itself never blocks, and the file is checked again once open.
    pub fn open(path: &Path, policy_hash: &str) -> std::io::Result<Arc<AuditLog>> {
        let not_regular = || std::io::Error::other("not a regular file");
        if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file()) {
            return Err(not_regular());
        }
        let mut options = std::fs::OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK);
        }
        let mut file = options.open(path)?;
        if !file.metadata()?.is_file() {
            return Err(not_regular());
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
        }))
    }

    /// Queues one record for an observation.
    pub fn record(&self, observation: &Observation<'_>) {
        let time_ms =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |since| since.as_millis());
        let record = Record {
            time_ms,
            event: observation.event.name(),
            tool: observation.tool,
            rules: observation.matched,
            outcome: observation.outcome,
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
            error: observation.error,
        };
        let Ok(mut line) = serde_json::to_string(&record) else { return };
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
