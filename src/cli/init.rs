//! `hookc init`: wire hookc into an agent's hook settings.

use super::exit;
use crate::adapter::{claude, gemini};
use crate::vocab::EventKind;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// Print (or, with `--write`, merge into the agent's settings) the hook settings that run hookc
/// at every hook point the agent has.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The agent to wire.
    #[arg(value_enum)]
    agent: Agent,
    /// Run with this compiled bundle (recommended: `hookc compile` first).
    #[arg(long, value_name = "FILE", conflicts_with = "rules")]
    bundle: Option<String>,
    /// Run with these rule files or directories (default: `rules`).
    #[arg(long, value_name = "PATH")]
    rules: Option<String>,
    /// How the agent should invoke hookc.
    #[arg(long, default_value = "hookc", value_name = "COMMAND")]
    command: String,
    /// Merge into the settings file instead of printing (a backup is kept).
    #[arg(long)]
    write: bool,
    /// The settings file to merge into (default: the agent's project settings).
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Agent {
    /// Claude Code (`.claude/settings.json`).
    Claude,
    /// OpenAI Codex CLI (`$CODEX_HOME/hooks.json`, default `~/.codex/hooks.json`).
    Codex,
    /// Gemini CLI (`.gemini/settings.json`).
    Gemini,
}

/// Codex fires these of Claude Code's events.
const CODEX_EVENTS: &[&str] = &["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart"];

/// Runs `hookc init`.
pub(super) fn run(args: &Args) -> u8 {
    let hooks = hooks(args);
    if !args.write {
        match serde_json::to_string_pretty(&json!({ "hooks": hooks })) {
            Ok(text) => println!("{text}"),
            Err(error) => {
                super::error(error);
                return exit::FAILED;
            }
        }
        return exit::OK;
    }
    let Some(path) = args.settings.clone().or_else(|| default_settings(args.agent)) else {
        super::error("cannot find the home directory for Codex's settings; pass `--settings FILE`");
        return exit::USAGE;
    };
    match merge_into(&path, hooks) {
        Ok(report) => {
            eprintln!("{report}");
            exit::OK
        }
        Err(message) => {
            super::error(message);
            exit::USAGE
        }
    }
}

/// The command line the agent runs.
fn command_line(args: &Args) -> String {
    let verb = match args.agent {
        Agent::Claude => "claude".to_string(),
        Agent::Codex => "claude --agent codex".to_string(),
        Agent::Gemini => "gemini".to_string(),
    };
    let policy = match (&args.bundle, &args.rules) {
        (Some(bundle), _) => format!("--bundle {}", quote(bundle)),
        (None, Some(rules)) => format!("--rules {}", quote(rules)),
        (None, None) => "--rules rules".to_string(),
    };
    format!("{} {verb} {policy}", args.command)
}

fn quote(word: &str) -> String {
    if word.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:@%".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// `{EVENT: [{matcher?, hooks: [{type, command, timeout}]}]}` for every event the agent has.
fn hooks(args: &Args) -> Map<String, Value> {
    let command = command_line(args);
    let (events, timeout, any_tool): (Vec<(&str, EventKind)>, u64, &str) = match args.agent {
        Agent::Claude => (claude::EVENTS.to_vec(), 10, "*"),
        Agent::Codex => {
            (claude::EVENTS.iter().copied().filter(|(name, _)| CODEX_EVENTS.contains(name)).collect(), 10, "*")
        }
        // Gemini CLI timeouts are in milliseconds and its tool matchers are regexes.
        Agent::Gemini => (gemini::EVENTS.to_vec(), 10_000, ".*"),
    };
    events
        .into_iter()
        .map(|(name, kind)| {
            let mut group = Map::new();
            if kind.has_tool() {
                group.insert("matcher".into(), json!(any_tool));
            }
            group.insert("hooks".into(), json!([{"type": "command", "command": command, "timeout": timeout}]));
            (name.to_string(), json!([group]))
        })
        .collect()
}

fn default_settings(agent: Agent) -> Option<PathBuf> {
    match agent {
        Agent::Claude => Some(PathBuf::from(".claude/settings.json")),
        Agent::Gemini => Some(PathBuf::from(".gemini/settings.json")),
        Agent::Codex => std::env::var_os("CODEX_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".codex")))
            .map(|dir| dir.join("hooks.json")),
    }
}

/// Adds each event's hook group unless a hook with the same command is already there; other
/// settings and hooks are left as they are. The old file is kept as a backup.
fn merge_into(path: &Path, hooks: Map<String, Value>) -> Result<String, String> {
    let shown = path.display();
    let existing = match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(format!("cannot read `{shown}`: {error}")),
    };
    let mut settings: Value = match &existing {
        Some(text) if !text.trim().is_empty() => serde_json::from_str(text)
            .map_err(|error| format!("`{shown}` is not valid JSON ({error}); it was not changed"))?,
        _ => json!({}),
    };
    let Some(root) = settings.as_object_mut() else {
        return Err(format!("`{shown}` does not hold a JSON object; it was not changed"));
    };
    let hooks_entry = root.entry("hooks").or_insert_with(|| json!({}));
    let Some(all_hooks) = hooks_entry.as_object_mut() else {
        return Err(format!("`hooks` in `{shown}` is not an object; it was not changed"));
    };
    let (mut added, mut present) = (0, 0);
    for (event, groups) in hooks {
        let slot = all_hooks.entry(event.clone()).or_insert_with(|| json!([]));
        let Some(list) = slot.as_array_mut() else {
            return Err(format!("`hooks.{event}` in `{shown}` is not a list; it was not changed"));
        };
        let command = groups.pointer("/0/hooks/0/command").cloned();
        let already = list.iter().any(|group| {
            group
                .get("hooks")
                .and_then(Value::as_array)
                .is_some_and(|hooks| hooks.iter().any(|hook| hook.get("command") == command.as_ref()))
        });
        if already {
            present += 1;
        } else {
            list.extend(groups.as_array().into_iter().flatten().cloned());
            added += 1;
        }
    }
    let text = serde_json::to_string_pretty(&settings).map_err(|error| error.to_string())? + "\n";
    let mut backup_note = String::new();
    if let Some(old) = existing {
        let backup = free_backup_path(path);
        std::fs::write(&backup, old)
            .map_err(|error| format!("cannot write the backup `{}`: {error}", backup.display()))?;
        backup_note = format!(" (backup: `{}`)", backup.display());
    } else if let Some(parent) = path.parent().filter(|parent| !parent.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|error| format!("cannot create `{}`: {error}", parent.display()))?;
    }
    let temporary = path.with_extension("hookc-tmp");
    std::fs::write(&temporary, text).map_err(|error| format!("cannot write `{}`: {error}", temporary.display()))?;
    std::fs::rename(&temporary, path).map_err(|error| format!("cannot replace `{shown}`: {error}"))?;
    Ok(format!("updated `{shown}`{backup_note}: {added} hook(s) added, {present} already present"))
}

/// `FILE.bak`, or `FILE.bak.N` with the first free N.
fn free_backup_path(path: &Path) -> PathBuf {
    let base = format!("{}.bak", path.display());
    std::iter::once(PathBuf::from(&base))
        .chain((1..).map(|n| PathBuf::from(format!("{base}.{n}"))))
        .find(|candidate| !candidate.exists())
        .unwrap_or_else(|| PathBuf::from(base))
}
