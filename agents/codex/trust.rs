//! Codex's hook trust: which hooks of a `hooks.json` its user trusted, in `$CODEX_HOME/config.toml`
//! as `[hooks.state."KEY"] trusted_hash = "sha256:…"` (what `/hooks` → trust writes).
//!
//! The command line compiles this file (its settings wiring, `hookc init codex --trust` and
//! `hookc doctor`); it is Codex's, so it lives in Codex's folder (agents/README.md).

use super::WiredHook;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
pub(crate) fn key(hooks_json: &Path, hook: &WiredHook) -> String {
    format!("{}:{}:{}:{}", hooks_json.display(), label(&hook.event), hook.group, hook.hook)
}

/// The hash Codex trusts a hook by: SHA-256 of the compact JSON, keys sorted, of
/// `{event_name, hooks: [{async, command, timeout, type}], matcher?}` (Codex 0.169's
/// `hook_hash`, checked against the `currentHash` its app-server reports).
pub(crate) fn hash(hook: &WiredHook) -> String {
    let label = label(&hook.event);
    let timeout = match label.as_str() {
        "session_end" | "interrupt" => hook.timeout.unwrap_or(1).clamp(1, 3),
        _ => hook.timeout.unwrap_or(600).max(1),
    };
    let mut handler: BTreeMap<&str, Value> = BTreeMap::from([
        ("async", Value::Bool(hook.background)),
        ("command", Value::String(hook.command.clone())),
        ("timeout", Value::from(timeout)),
        ("type", Value::String("command".into())),
    ]);
    if let Some(message) = &hook.status_message {
        handler.insert("statusMessage", Value::String(message.clone()));
    }
    let emits_context = ["pre_tool_use", "post_tool_use", "session_start", "user_prompt_submit", "subagent_start"];
    if let (Some(limit), true) = (hook.context_limit, emits_context.contains(&label.as_str())) {
        if limit != 2500 {
            handler.insert("additionalContextLimit", Value::from(limit));
        }
    }
    let mut identity: BTreeMap<&str, Value> = BTreeMap::new();
    identity.insert("event_name", Value::String(label.clone()));
    identity.insert(
        "hooks",
        Value::Array(vec![Value::Object(handler.into_iter().map(|(k, v)| (k.to_string(), v)).collect())]),
    );
    let ignores_matcher = ["user_prompt_submit", "stop", "interrupt", "pre_model_request"].contains(&label.as_str());
    if let (Some(matcher), false) = (&hook.matcher, ignores_matcher) {
        identity.insert("matcher", Value::String(matcher.clone()));
    }
    // BTreeMap keys serialise sorted, as Codex's canonical form has them.
    let bytes = serde_json::to_vec(&identity).unwrap_or_default();
    let hex: String = Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

/// What Codex's user said of one hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HookState {
    /// The hash trusted, if any.
    pub hash: Option<String>,
    /// `enabled = false` turns the hook off, trusted or not.
    pub enabled: bool,
}

/// The hook states in a `config.toml` text, by key.
pub(crate) fn states(config: &str) -> Result<BTreeMap<String, HookState>, String> {
    let document: toml_edit::DocumentMut = config.parse().map_err(|error| format!("{error}"))?;
    let mut found = BTreeMap::new();
    if let Some(state) = document.get("hooks").and_then(|hooks| hooks.get("state")).and_then(|s| s.as_table_like()) {
        for (key, item) in state.iter() {
            let hash = item.get("trusted_hash").and_then(|hash| hash.as_str()).map(str::to_string);
            let enabled = item.get("enabled").and_then(|enabled| enabled.as_bool()).unwrap_or(true);
            found.insert(key.to_string(), HookState { hash, enabled });
        }
    }
    Ok(found)
}

/// An item as a standard table: an inline table (`hooks = { state = {} }`) becomes one, as
/// entries added to it would otherwise be dropped.
fn standard_table<'a>(item: &'a mut toml_edit::Item, name: &str) -> Result<&'a mut toml_edit::Table, String> {
    if let toml_edit::Item::Value(toml_edit::Value::InlineTable(inline)) = item {
        *item = toml_edit::Item::Table(inline.clone().into_table());
    }
    if item.is_none() {
        let mut table = toml_edit::Table::new();
        table.set_implicit(true);
        *item = toml_edit::Item::Table(table);
    }
    item.as_table_mut().ok_or_else(|| format!("`{name}` is not a table"))
}

/// The `config.toml` text with these keys trusted at these hashes, everything else kept;
/// checked by reading it back.
pub(crate) fn with_trusted(config: &str, entries: &[(String, String)]) -> Result<String, String> {
    let mut document: toml_edit::DocumentMut = config.parse().map_err(|error| format!("{error}"))?;
    let hooks = standard_table(document.entry("hooks").or_insert(toml_edit::Item::None), "hooks")?;
    let state = standard_table(hooks.entry("state").or_insert(toml_edit::Item::None), "hooks.state")?;
    for (key, hash) in entries {
        let entry =
            standard_table(state.entry(key).or_insert(toml_edit::Item::None), &format!("hooks.state.\"{key}\""))?;
        entry.insert("trusted_hash", toml_edit::value(hash.as_str()));
    }
    let written = document.to_string();
    let states = states(&written)?;
    match entries.iter().all(|(key, hash)| states.get(key).and_then(|state| state.hash.as_ref()) == Some(hash)) {
        true => Ok(written),
        false => {
            Err("the trust entries did not take (an unusual `hooks` layout); record them with `/hooks` in Codex".into())
        }
    }
}

/// The path Codex names a hooks file by in its trust keys: under `$CODEX_HOME` with links
/// resolved (Codex resolves its home when the variable is set), anywhere else as spelled
/// (`~/.codex` and projects are not resolved), with `.` and `..` taken out.
pub(crate) fn key_path(hooks_json: &Path) -> std::path::PathBuf {
    let spelled = super::lexical(hooks_json);
    let home =
        std::env::var_os("CODEX_HOME").filter(|home| !home.is_empty()).map(|home| super::lexical(Path::new(&home)));
    match home
        .and_then(|home| Some((spelled.strip_prefix(&home).ok()?.to_path_buf(), std::fs::canonicalize(home).ok()?)))
    {
        Some((rest, resolved)) => resolved.join(rest),
        None => spelled,
    }
}

/// What Codex's user config says of some hooks of one hooks file.
pub(crate) struct Trust<'h> {
    /// `$CODEX_HOME/config.toml`.
    pub config_path: std::path::PathBuf,
    /// Its text (empty when there is none).
    pub config: String,
    /// The hooks not trusted at their current hash, with the key and hash to trust them by.
    pub untrusted: Vec<(&'h WiredHook, String, String)>,
    /// The hooks turned off (`enabled = false`).
    pub disabled: Vec<&'h WiredHook>,
    /// Whether the file is a project's that Codex will not read: the project is not trusted.
    pub project_unread: bool,
}

/// Reads Codex's user config for `hooks` of the file `hooks_json` in `project`.
pub(crate) fn read<'h>(hooks_json: &Path, project: &Path, hooks: &'h [WiredHook]) -> Result<Trust<'h>, String> {
    let home = codex_home().ok_or("cannot find Codex's home (`$CODEX_HOME` or `~/.codex`)")?;
    let config_path = home.join("config.toml");
    let config = match std::fs::read_to_string(&config_path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => return Err(format!("cannot read `{}`: {error}", config_path.display())),
    };
    let states = states(&config).map_err(|error| format!("`{}` is not valid TOML: {error}", config_path.display()))?;
    let key_path = key_path(hooks_json);
    let mut trust = Trust {
        project_unread: !hooks_json.starts_with(&home) && !project_trusted(&config, project),
        config_path,
        config,
        untrusted: Vec::new(),
        disabled: Vec::new(),
    };
    for hook in hooks {
        let (key, hash) = (key(&key_path, hook), hash(hook));
        let state = states.get(&key);
        if state.is_some_and(|state| !state.enabled) {
            trust.disabled.push(hook);
        }
        if state.and_then(|state| state.hash.as_ref()) != Some(&hash) {
            trust.untrusted.push((hook, key, hash));
        }
    }
    Ok(trust)
}

/// Whether `config.toml` marks a project directory trusted (`[projects."DIR"] trust_level =
/// "trusted"`): Codex reads a project's `.codex/hooks.json` only then.
pub(crate) fn project_trusted(config: &str, project: &Path) -> bool {
    let Ok(document) = config.parse::<toml_edit::DocumentMut>() else { return false };
    let Some(projects) = document.get("projects").and_then(|projects| projects.as_table_like()) else {
        return false;
    };
    // Codex trusts a project by its own directory or an ancestor (a repository root).
    project.ancestors().any(|dir| {
        projects.get(&dir.to_string_lossy()).and_then(|entry| entry.get("trust_level")).and_then(|level| level.as_str())
            == Some("trusted")
    })
}

/// `$CODEX_HOME`, else `~/.codex`.
pub(crate) fn codex_home() -> Option<PathBuf> {
    std::env::var_os("CODEX_HOME")
        .filter(|home| !home.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".codex")))
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
            background: false,
            once: false,
            status_message: None,
            context_limit: None,
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
        let limited = WiredHook { context_limit: Some(100), ..hook("UserPromptSubmit", "hookc run ups2", None, None) };
        assert_eq!(super::hash(&limited), "sha256:9356c9b48b8e81bdf08b532062dfad87fd6c32cc284f898fafc2811bee001b6d");
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
        let trusted = states(&written).unwrap();
        assert_eq!(trusted.get("/a:stop:0:0").and_then(|s| s.hash.as_deref()), Some("sha256:new"));
        assert_eq!(trusted.get("/a:pre_tool_use:0:0").and_then(|s| s.hash.as_deref()), Some("sha256:p"));
        for inline in
            ["hooks = { state = {} }\n", "hooks = { state = { \"/b:stop:0:0\" = { trusted_hash = \"x\" } } }\n"]
        {
            let written = with_trusted(inline, &[("/a:stop:0:0".into(), "sha256:n".into())]).unwrap();
            assert_eq!(
                states(&written).unwrap().get("/a:stop:0:0").and_then(|s| s.hash.as_deref()),
                Some("sha256:n"),
                "{written}"
            );
        }
        assert_eq!(
            super::super::lexical(Path::new("/p/./.codex/../.codex/hooks.json")),
            Path::new("/p/.codex/hooks.json")
        );
        assert!(project_trusted("[projects.\"/repo\"]\ntrust_level = \"trusted\"\n", Path::new("/repo/sub")));
        assert!(!project_trusted("[projects.\"/repo\"]\ntrust_level = \"untrusted\"\n", Path::new("/repo")));
    }
}
