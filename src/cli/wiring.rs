//! Where each agent keeps its hook settings, how hookc's hooks are written there, and Codex's
//! hook trust. `hookc init` writes with this; `hookc doctor` reads with it.

use crate::adapter::capabilities::Agent;
use crate::vocab::EventKind;
use crate::HookProtocol;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// The hook timeout `hookc init` writes, in seconds (Gemini CLI's is in milliseconds). The
/// hook's own `--deadline` (8 s by default) is below it, so hookc answers before the agent
/// gives up and runs the call.
pub(super) const TIMEOUT_SECONDS: u64 = 10;

/// The events `hookc init` wires for an agent, with the agent's names.
pub(super) fn events(agent: HookProtocol) -> &'static [(&'static str, EventKind)] {
    Agent::of(agent).events
}

/// `{EVENT: [{matcher?, hooks: [{type, command, timeout}]}]}` for every event the agent has.
pub(super) fn hooks(agent: HookProtocol, command: &str) -> Map<String, Value> {
    let (timeout, any_tool) = match agent {
        // Gemini CLI timeouts are in milliseconds and its tool matchers are regexes.
        HookProtocol::Gemini => (TIMEOUT_SECONDS * 1000, ".*"),
        HookProtocol::Claude | HookProtocol::Codex => (TIMEOUT_SECONDS, "*"),
    };
    events(agent)
        .iter()
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

/// A settings file an agent reads hooks from.
#[derive(Debug, Clone)]
pub(super) struct SettingsFile {
    /// Where it is.
    pub path: PathBuf,
    /// What it is, for messages ("project settings").
    pub scope: &'static str,
}

/// The settings files an agent reads hooks from, project first. `project` is the project root.
pub(super) fn settings_files(agent: HookProtocol, project: &Path) -> Vec<SettingsFile> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut files = Vec::new();
    let mut add = |path: Option<PathBuf>, scope| {
        if let Some(path) = path {
            files.push(SettingsFile { path, scope });
        }
    };
    match agent {
        HookProtocol::Claude => {
            add(Some(project.join(".claude/settings.json")), "project settings");
            add(Some(project.join(".claude/settings.local.json")), "local project settings");
            add(home.map(|home| home.join(".claude/settings.json")), "user settings");
        }
        HookProtocol::Codex => {
            add(Some(project.join(".codex/hooks.json")), "project hooks");
            add(codex_home().map(|home| home.join("hooks.json")), "user hooks");
        }
        HookProtocol::Gemini => {
            add(Some(project.join(".gemini/settings.json")), "project settings");
            add(home.map(|home| home.join(".gemini/settings.json")), "user settings");
        }
    }
    files
}

/// `$CODEX_HOME`, else `~/.codex`.
pub(super) fn codex_home() -> Option<PathBuf> {
    std::env::var_os("CODEX_HOME")
        .filter(|home| !home.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".codex")))
}

/// The commands of a settings value's hooks: `(event, group index, hook index, command,
/// matcher, timeout)` for every `command` hook.
pub(super) fn commands(settings: &Value) -> Vec<WiredHook> {
    let mut found = Vec::new();
    let Some(events) = settings.get("hooks").and_then(Value::as_object) else { return found };
    for (event, groups) in events {
        for (group_index, group) in groups.as_array().into_iter().flatten().enumerate() {
            let matcher = group.get("matcher").and_then(Value::as_str).map(str::to_string);
            for (hook_index, hook) in group.get("hooks").and_then(Value::as_array).into_iter().flatten().enumerate() {
                let Some(command) = hook.get("command").and_then(Value::as_str) else { continue };
                found.push(WiredHook {
                    event: event.clone(),
                    group: group_index,
                    hook: hook_index,
                    command: command.to_string(),
                    matcher: matcher.clone(),
                    timeout: hook.get("timeout").and_then(Value::as_u64),
                });
            }
        }
    }
    found
}

/// One command hook found in a settings file.
#[derive(Debug, Clone)]
pub(super) struct WiredHook {
    /// The agent's event name.
    pub event: String,
    /// Its group's index in the event's list.
    pub group: usize,
    /// Its index in the group.
    pub hook: usize,
    /// The command line.
    pub command: String,
    /// The group's matcher.
    pub matcher: Option<String>,
    /// Its timeout as written (seconds; Gemini CLI: milliseconds).
    pub timeout: Option<u64>,
}

/// Codex's hook trust: which hooks of a `hooks.json` its user trusted, in `$CODEX_HOME/config.toml`
/// as `[hooks.state."KEY"] trusted_hash = "sha256:…"` (what `/hooks` → trust writes).
pub(super) mod codex_trust {
    use super::WiredHook;
    use serde_json::Value;
    use sha2::{Digest, Sha256};
    use std::collections::BTreeMap;
    use std::path::Path;

    /// Codex's label for an event (`PreToolUse` → `pre_tool_use`).
    fn label(event: &str) -> String {
        let mut label = String::new();
        for (index, c) in event.chars().enumerate() {
            if c.is_ascii_uppercase() && index > 0 {
                label.push('_');
            }
            label.push(c.to_ascii_lowercase());
        }
        label
    }

    /// The key Codex stores a hook's trust under: `HOOKS_JSON:LABEL:GROUP:HOOK`.
    pub(in crate::cli) fn key(hooks_json: &Path, hook: &WiredHook) -> String {
        format!("{}:{}:{}:{}", hooks_json.display(), label(&hook.event), hook.group, hook.hook)
    }

    /// The hash Codex trusts a hook by: SHA-256 of the compact JSON, keys sorted, of
    /// `{event_name, hooks: [{async, command, timeout, type}], matcher?}` (Codex 0.169's
    /// `hook_hash`, checked against the `currentHash` its app-server reports).
    pub(in crate::cli) fn hash(hook: &WiredHook) -> String {
        let label = label(&hook.event);
        let timeout = match label.as_str() {
            "session_end" | "interrupt" => hook.timeout.unwrap_or(1).clamp(1, 3),
            _ => hook.timeout.unwrap_or(600).max(1),
        };
        let handler: BTreeMap<&str, Value> = BTreeMap::from([
            ("async", Value::Bool(false)),
            ("command", Value::String(hook.command.clone())),
            ("timeout", Value::from(timeout)),
            ("type", Value::String("command".into())),
        ]);
        let mut identity: BTreeMap<&str, Value> = BTreeMap::new();
        identity.insert("event_name", Value::String(label.clone()));
        identity.insert(
            "hooks",
            Value::Array(vec![Value::Object(handler.into_iter().map(|(k, v)| (k.to_string(), v)).collect())]),
        );
        let ignores_matcher =
            ["user_prompt_submit", "stop", "interrupt", "pre_model_request"].contains(&label.as_str());
        if let (Some(matcher), false) = (&hook.matcher, ignores_matcher) {
            identity.insert("matcher", Value::String(matcher.clone()));
        }
        // BTreeMap keys serialise sorted, as Codex's canonical form has them.
        let bytes = serde_json::to_vec(&identity).unwrap_or_default();
        let hex: String = Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect();
        format!("sha256:{hex}")
    }

    /// The trusted hashes in a `config.toml` text, by key.
    pub(in crate::cli) fn trusted(config: &str) -> Result<BTreeMap<String, String>, String> {
        let document: toml_edit::DocumentMut = config.parse().map_err(|error| format!("{error}"))?;
        let mut found = BTreeMap::new();
        if let Some(state) = document.get("hooks").and_then(|hooks| hooks.get("state")).and_then(|s| s.as_table_like())
        {
            for (key, item) in state.iter() {
                if let Some(hash) = item.get("trusted_hash").and_then(|hash| hash.as_str()) {
                    found.insert(key.to_string(), hash.to_string());
                }
            }
        }
        Ok(found)
    }

    /// The `config.toml` text with these keys trusted at these hashes, everything else kept.
    pub(in crate::cli) fn with_trusted(config: &str, entries: &[(String, String)]) -> Result<String, String> {
        let mut document: toml_edit::DocumentMut = config.parse().map_err(|error| format!("{error}"))?;
        let hooks = document.entry("hooks").or_insert_with(|| {
            let mut table = toml_edit::Table::new();
            table.set_implicit(true);
            toml_edit::Item::Table(table)
        });
        let hooks = hooks.as_table_like_mut().ok_or("`hooks` is not a table")?;
        let state = hooks.entry("state").or_insert_with(|| {
            let mut table = toml_edit::Table::new();
            table.set_implicit(true);
            toml_edit::Item::Table(table)
        });
        let state = state.as_table_like_mut().ok_or("`hooks.state` is not a table")?;
        for (key, hash) in entries {
            let entry = state.entry(key).or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()));
            let entry = entry.as_table_like_mut().ok_or_else(|| format!("`hooks.state.\"{key}\"` is not a table"))?;
            entry.insert("trusted_hash", toml_edit::value(hash.as_str()));
        }
        Ok(document.to_string())
    }

    /// Whether `config.toml` marks a project directory trusted (`[projects."DIR"] trust_level =
    /// "trusted"`): Codex reads a project's `.codex/hooks.json` only then.
    pub(in crate::cli) fn project_trusted(config: &str, project: &Path) -> bool {
        let Ok(document) = config.parse::<toml_edit::DocumentMut>() else { return false };
        let Some(projects) = document.get("projects").and_then(|projects| projects.as_table_like()) else {
            return false;
        };
        // Codex trusts a project by its own directory or an ancestor (a repository root).
        project.ancestors().any(|dir| {
            projects
                .get(&dir.to_string_lossy())
                .and_then(|entry| entry.get("trust_level"))
                .and_then(|level| level.as_str())
                == Some("trusted")
        })
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn hook(event: &str, command: &str, matcher: Option<&str>, timeout: Option<u64>) -> WiredHook {
            WiredHook {
                event: event.into(),
                group: 0,
                hook: 0,
                command: command.into(),
                matcher: matcher.map(str::to_string),
                timeout,
            }
        }

        /// Hashes Codex 0.169's app-server reported as `currentHash` for these hooks.
        #[test]
        fn hashes_are_codexs_own() {
            let cases = [
                (
                    hook("PreToolUse", "hookc run pre", Some("Bash"), None),
                    "bd73be1ef5165cc56f5ae28ee179b7492b02bf7712cb616710fdf806f0ee9094",
                ),
                (
                    hook("PostToolUse", "hookc run post", None, None),
                    "569749a087bc42eec5438b9644900c2fffa31738828d3a9a5583251537b98c67",
                ),
                (
                    hook("Stop", "hookc run stop", Some("ignored"), Some(0)),
                    "ad2a94419a26344e3a3cb5e434e88d7d138c20103f240b86711f64c70431ec5c",
                ),
            ];
            for (hook, hash) in cases {
                assert_eq!(super::hash(&hook), format!("sha256:{hash}"), "{hook:?}");
            }
            assert_eq!(
                key(Path::new("/p/.codex/hooks.json"), &hook("UserPromptSubmit", "x", None, None)),
                "/p/.codex/hooks.json:user_prompt_submit:0:0"
            );
        }

        #[test]
        fn trust_is_written_into_config_keeping_the_rest() {
            let config = "model = \"gpt-5.5\"\n\n[hooks.state.\"/a:stop:0:0\"]\ntrusted_hash = \"sha256:old\"\n";
            let written = with_trusted(
                config,
                &[("/a:stop:0:0".into(), "sha256:new".into()), ("/a:pre_tool_use:0:0".into(), "sha256:p".into())],
            )
            .unwrap();
            assert!(written.starts_with("model = \"gpt-5.5\"\n"), "{written}");
            let trusted = trusted(&written).unwrap();
            assert_eq!(trusted.get("/a:stop:0:0").map(String::as_str), Some("sha256:new"));
            assert_eq!(trusted.get("/a:pre_tool_use:0:0").map(String::as_str), Some("sha256:p"));
            assert!(project_trusted("[projects.\"/repo\"]\ntrust_level = \"trusted\"\n", Path::new("/repo/sub")));
            assert!(!project_trusted("[projects.\"/repo\"]\ntrust_level = \"untrusted\"\n", Path::new("/repo")));
        }
    }
}

/// Writes a settings file safely: through a symlink to its target, never over a read-only file,
/// keeping the file's permissions (a settings file may hold API keys), via a temporary file
/// renamed over it; a `.bak` of the old text is kept when there was one. Returns the backup.
pub(super) fn write_settings(path: &Path, old: Option<&str>, text: &str) -> Result<Option<PathBuf>, String> {
    let shown = path.display();
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path).map_err(|error| {
            format!("`{shown}` is a symlink whose target cannot be resolved ({error}); it was not changed")
        })?,
        _ => path.to_path_buf(),
    };
    let mode = match std::fs::metadata(&target) {
        Ok(meta) if !meta.is_file() => return Err(format!("`{shown}` is not a regular file; it was not changed")),
        Ok(meta) if meta.permissions().readonly() => {
            return Err(format!("`{shown}` is read-only; it was not changed (make it writable to wire hookc)"))
        }
        Ok(meta) => Some(meta.permissions()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(format!("cannot read `{shown}`: {error}")),
    };
    if let Some(parent) = target.parent().filter(|parent| !parent.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|error| format!("cannot create `{}`: {error}", parent.display()))?;
    }
    let backup = match old {
        Some(old) => {
            let backup = free_backup_path(&target);
            write_with(&backup, old, mode.clone())
                .map_err(|error| format!("cannot write the backup `{}`: {error}", backup.display()))?;
            Some(backup)
        }
        None => None,
    };
    let temporary = target.with_extension("hookc-tmp");
    write_with(&temporary, text, mode).map_err(|error| format!("cannot write `{}`: {error}", temporary.display()))?;
    std::fs::rename(&temporary, &target).map_err(|error| format!("cannot replace `{shown}`: {error}"))?;
    Ok(backup)
}

/// Writes a file with the permissions of the file it stands for (owner-only until they are set,
/// so a file that may hold keys is never readable by others in between); a new file gets the
/// usual permissions.
fn write_with(path: &Path, text: &str, permissions: Option<std::fs::Permissions>) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    if permissions.is_some() {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    if let Some(permissions) = permissions {
        file.set_permissions(permissions)?;
    }
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

/// `FILE.bak`, or `FILE.bak.N` with the first free N.
fn free_backup_path(path: &Path) -> PathBuf {
    let base = format!("{}.bak", path.display());
    std::iter::once(PathBuf::from(&base))
        .chain((1..).map(|n| PathBuf::from(format!("{base}.{n}"))))
        .find(|candidate| !candidate.exists())
        .unwrap_or_else(|| PathBuf::from(base))
}
