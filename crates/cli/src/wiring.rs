//! Where each agent keeps its hook settings, how hookc's hooks are written there, and Codex's
//! hook trust, as each agent's file says (`vocab::agents`). `hookc init` writes with this;
//! `hookc doctor` reads with it.

use hookc_core::vocab::agents::schema::{Home, SettingsFormat, TimeUnit};
use hookc_core::vocab::agents::{Agent, EventSpec};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// The hook timeout `hookc init` writes, in seconds (Gemini CLI's is in milliseconds). The
/// hook's own `--deadline` (8 s by default) is below it, so hookc answers before the agent
/// gives up and runs the call.
pub(super) const TIMEOUT_SECONDS: u64 = 10;

/// The events `hookc init` wires for an agent.
pub(super) fn events(agent: &Agent) -> impl Iterator<Item = &'static EventSpec> {
    agent.events.iter().filter(|spec| spec.wired)
}

/// Where hook entries sit in an agent's JSON settings: under `hooks.EVENT`, directly (flat) or
/// in groups that carry a matcher and a `hooks` list (nested); the command under one key.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    /// Entries sit in matcher groups.
    nested: bool,
    /// The key holding an entry's command line.
    command_key: &'static str,
    /// The key holding an entry's timeout, and its unit.
    timeout: Option<(&'static str, TimeUnit)>,
    /// The file carries `"version": 1`.
    version: bool,
    /// The key holding an entry's Windows command line, where the agent has one (Copilot CLI's
    /// and VS Code's `powershell`): the committed launcher's PowerShell twin goes there.
    windows_key: Option<&'static str>,
}

/// The layout of an agent's JSON settings; `None` for agents wired by files of their own
/// (Cline's scripts, hookc's plugin).
pub(super) fn layout(agent: &Agent) -> Option<Layout> {
    let flat =
        |command_key, timeout, version| Layout { nested: false, command_key, timeout, version, windows_key: None };
    Some(match agent.settings.format {
        SettingsFormat::Claude { timeout, .. } => Layout {
            nested: true,
            command_key: "command",
            timeout: Some(("timeout", timeout)),
            version: false,
            windows_key: None,
        },
        SettingsFormat::Copilot => {
            Layout { windows_key: Some("powershell"), ..flat("bash", Some(("timeoutSec", TimeUnit::Seconds)), true) }
        }
        // VS Code runs `powershell` on Windows, with PowerShell (its `hookSchema.ts`).
        SettingsFormat::VsCode => {
            Layout { windows_key: Some("powershell"), ..flat("command", Some(("timeout", TimeUnit::Seconds)), false) }
        }
        SettingsFormat::Cursor => flat("command", None, true),
        SettingsFormat::Windsurf => flat("command", None, false),
        SettingsFormat::Kiro => flat("command", Some(("timeout_ms", TimeUnit::Millis)), false),
        SettingsFormat::Crush => flat("command", Some(("timeout", TimeUnit::Seconds)), false),
        SettingsFormat::Scripts | SettingsFormat::Plugin => return None,
    })
}

/// The command line a hook at this event runs: the agent's command, naming the event where the
/// agent's payloads may not.
pub(super) fn event_command(agent: &Agent, spec: &EventSpec, command: &str) -> String {
    match agent.settings.name_event {
        true => format!("{command} --event {}", spec.name),
        false => command.to_string(),
    }
}

/// Whether the agent's settings take a Windows command beside the POSIX one.
pub(super) fn has_windows_command(agent: &Agent) -> bool {
    layout(agent).is_some_and(|layout| layout.windows_key.is_some())
}

/// What to add under `hooks.EVENT` for every event the agent has, in its layout: `[{matcher?,
/// hooks: [{type, command, timeout}]}]` (Claude Code's), or the flat entries of the others;
/// `windows` under the agent's Windows command key, where it has one.
pub(super) fn hooks(agent: &Agent, command: &str, windows: Option<&str>) -> Map<String, Value> {
    let Some(layout) = layout(agent) else { return Map::new() };
    events(agent)
        .map(|spec| {
            let command = event_command(agent, spec, command);
            let mut entry = Map::new();
            if matches!(agent.settings.format, SettingsFormat::Copilot | SettingsFormat::VsCode) || layout.nested {
                entry.insert("type".into(), json!("command"));
            }
            entry.insert(layout.command_key.into(), json!(command));
            if let (Some(key), Some(windows)) = (layout.windows_key, windows) {
                entry.insert(key.into(), json!(event_command(agent, spec, windows)));
            }
            if let Some((key, unit)) = layout.timeout {
                entry.insert(key.into(), json!(written_timeout(unit)));
            }
            if agent.settings.format == SettingsFormat::Windsurf {
                entry.insert("show_output".into(), json!(true));
            }
            let matcher = match agent.settings.format {
                SettingsFormat::Claude { any_tool, .. } => Some(any_tool),
                SettingsFormat::Kiro => Some("*"),
                SettingsFormat::Crush => Some(".*"),
                _ => None,
            };
            let matcher = matcher.filter(|_| spec.kind.has_tool());
            let item = match layout.nested {
                true => {
                    let mut group = Map::new();
                    if let Some(matcher) = matcher {
                        group.insert("matcher".into(), json!(matcher));
                    }
                    group.insert("hooks".into(), json!([Value::Object(entry)]));
                    group
                }
                false => {
                    if let Some(matcher) = matcher {
                        entry.insert("matcher".into(), json!(matcher));
                    }
                    entry
                }
            };
            (spec.name.to_string(), json!([Value::Object(item)]))
        })
        .collect()
}

/// The timeout `init` writes, in a unit.
fn written_timeout(unit: TimeUnit) -> u64 {
    match unit {
        TimeUnit::Seconds => TIMEOUT_SECONDS,
        TimeUnit::Millis => TIMEOUT_SECONDS * 1000,
    }
}

/// A hook timeout as written in an agent's settings.
pub(super) fn timeout(agent: &Agent, written: u64) -> std::time::Duration {
    match layout(agent).and_then(|layout| layout.timeout) {
        Some((_, TimeUnit::Millis)) => std::time::Duration::from_millis(written),
        _ => std::time::Duration::from_secs(written),
    }
}

/// How many of the hooks `merge` was given were added, found already there, or rewritten from
/// an older spelling of the same command.
#[derive(Debug, Default)]
pub(super) struct Merged {
    pub added: usize,
    pub present: usize,
    pub rewritten: usize,
}

/// Merges hooks into an agent's settings value: each event's entry is added unless an entry
/// with the same command is already there, or one with an older spelling of it (`hookc claude
/// …` is now `hookc hook claude …`) is rewritten in place; everything else is left as it is.
pub(super) fn merge(agent: &Agent, settings: &mut Value, hooks: Map<String, Value>) -> Result<Merged, String> {
    let Some(layout) = layout(agent) else { return Err(format!("{} is not wired by a settings file", agent.name)) };
    let Some(root) = settings.as_object_mut() else { return Err("it does not hold a JSON object".into()) };
    if layout.version {
        root.entry("version").or_insert(json!(1));
    }
    let Some(all_hooks) = root.entry("hooks").or_insert_with(|| json!({})).as_object_mut() else {
        return Err("its `hooks` is not an object".into());
    };
    let mut merged = Merged::default();
    for (event, items) in hooks {
        let Some(list) = all_hooks.entry(event.clone()).or_insert_with(|| json!([])).as_array_mut() else {
            return Err(format!("its `hooks.{event}` is not a list"));
        };
        let new = items
            .pointer("/0")
            .and_then(|item| entries(layout, item).next())
            .and_then(|entry| entry.get(layout.command_key))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let windows = layout.windows_key.and_then(|windows_key| {
            let command = items.pointer("/0").and_then(|item| entries(layout, item).next())?.get(windows_key)?;
            Some((windows_key, command.clone()))
        });
        let key = layout.command_key;
        let already = list
            .iter_mut()
            .flat_map(|item| entries_mut(layout, item))
            .find(|entry| entry.get(key).and_then(Value::as_str) == Some(new.as_str()));
        if let Some(entry) = already.and_then(Value::as_object_mut) {
            // The same hook: its Windows command follows this init's.
            match windows.filter(|(windows_key, command)| entry.get(*windows_key) != Some(command)) {
                Some((windows_key, command)) => {
                    entry.insert(windows_key.into(), command);
                    merged.rewritten += 1;
                }
                None => merged.present += 1,
            }
            continue;
        }
        let older = list
            .iter_mut()
            .flat_map(|item| entries_mut(layout, item))
            .find(|entry| entry.get(key).and_then(Value::as_str).is_some_and(|old| respelled(old) == new));
        match older {
            Some(entry) => {
                if let Some(entry) = entry.as_object_mut() {
                    entry.insert(key.into(), Value::String(new));
                    if let Some((windows_key, command)) = windows {
                        entry.insert(windows_key.into(), command);
                    }
                }
                merged.rewritten += 1;
            }
            None => {
                list.extend(items.as_array().into_iter().flatten().cloned());
                merged.added += 1;
            }
        }
    }
    Ok(merged)
}

/// The hook entries of one item of a `hooks.EVENT` list.
fn entries(layout: Layout, item: &Value) -> Box<dyn Iterator<Item = &Value> + '_> {
    match layout.nested {
        true => Box::new(item.get("hooks").and_then(Value::as_array).into_iter().flatten()),
        false => Box::new(std::iter::once(item)),
    }
}

fn entries_mut(layout: Layout, item: &mut Value) -> Box<dyn Iterator<Item = &mut Value> + '_> {
    match layout.nested {
        true => Box::new(item.get_mut("hooks").and_then(Value::as_array_mut).into_iter().flatten()),
        false => Box::new(std::iter::once(item)),
    }
}

/// A settings file an agent reads hooks from.
#[derive(Debug, Clone)]
pub(super) struct SettingsFile {
    /// Where it is.
    pub path: PathBuf,
    /// What it is, for messages ("project settings").
    pub scope: &'static str,
    /// Whether it is the user's, not the project's.
    pub user: bool,
    /// Whether an administrator manages it for the machine (read, never written).
    pub managed: bool,
}

/// The settings files an agent reads hooks from, project first. `project` is the project root.
pub(super) fn settings_files(agent: &Agent, project: &Path) -> Vec<SettingsFile> {
    let project_files = agent.settings.project.iter().map(|(path, scope)| SettingsFile {
        path: project.join(path),
        scope,
        user: false,
        managed: false,
    });
    let user_files = agent.settings.user.iter().filter_map(|(home, path, scope)| {
        Some(SettingsFile { path: home_dir(*home)?.join(path), scope, user: true, managed: false })
    });
    let managed_files = agent.settings.managed.iter().map(|(path, scope)| SettingsFile {
        path: PathBuf::from(path),
        scope,
        user: true,
        managed: true,
    });
    project_files.chain(user_files).chain(managed_files).collect()
}

/// Where an agent's user-wide files are.
pub(super) fn home_dir(home: Home) -> Option<PathBuf> {
    let user = || std::env::var_os("HOME").filter(|home| !home.is_empty()).map(PathBuf::from);
    match home {
        Home::User => user(),
        Home::Env(variable, fallback) => std::env::var_os(variable)
            .filter(|dir| !dir.is_empty())
            .map(PathBuf::from)
            .or_else(|| user().map(|home| home.join(fallback))),
    }
}

/// Whether a hook command runs hookc: a program named `hookc`, this very program (which `init`
/// names by its resolved path, whatever a link to it is called), or a hook verb with its policy
/// (`hook claude …`, `claude --rules …`, `gemini --bundle …`).
pub(super) fn runs_hookc(command: &str) -> bool {
    let this = std::env::current_exe().and_then(std::fs::canonicalize).ok();
    let words: Vec<&str> =
        command.split_whitespace().map(|word| word.trim_matches(|c| c == '\'' || c == '"')).collect();
    let named = words.iter().any(|word| {
        Path::new(word).file_name().is_some_and(|name| name == "hookc")
            || this.as_deref().is_some_and(|this| Path::new(word) == this)
    });
    let verb = words.windows(2).any(|pair| match pair {
        [verb, next] => {
            (*verb == "hook" && hookc_core::vocab::agents::find(next).is_some())
                || (matches!(*verb, "claude" | "gemini") && matches!(*next, "--rules" | "--bundle" | "--agent"))
        }
        _ => false,
    });
    named || verb
}

/// A hookc command as this release writes it: the hook verbs of earlier releases (`claude`,
/// `claude --agent codex`, `gemini`) become `hook AGENT`; anything else is unchanged.
pub(super) fn respelled(command: &str) -> String {
    const OLDER: [(&str, &str); 4] = [
        (" claude --agent codex ", " hook codex "),
        (" claude --agent claude ", " hook claude "),
        (" claude ", " hook claude "),
        (" gemini ", " hook gemini "),
    ];
    OLDER
        .iter()
        .find(|(old, _)| command.contains(old))
        .map_or_else(|| command.to_string(), |(old, new)| command.replacen(old, new, 1))
}

/// The first line of every file hookc writes for an agent wired by files (Cline's scripts): a
/// file without it is the user's own, never changed.
const WRITTEN_BY: &str = "# written by `hookc init`";

/// The files `init` writes for an agent wired by files, by their path relative to its settings
/// path (Cline: one script per event in the folder; a plugin: the file itself), with whether
/// each is executable.
pub(super) fn files(agent: &Agent, command: &str) -> Vec<(PathBuf, String, bool)> {
    match agent.settings.format {
        SettingsFormat::Scripts => events(agent)
            .map(|spec| {
                let command = event_command(agent, spec, command);
                let text = format!(
                    "#!/bin/sh\n{WRITTEN_BY} for {}: {} hooks are files named after their event.\nexec {command}\n",
                    agent.name, agent.name
                );
                (PathBuf::from(spec.name), text, true)
            })
            .collect(),
        SettingsFormat::Plugin => vec![(PathBuf::new(), plugin(agent, command), false)],
        _ => Vec::new(),
    }
}

/// hookc's plugin for an agent whose hooks are JavaScript plugins, running `command`.
pub(super) fn plugin(agent: &Agent, command: &str) -> String {
    // OpenCode's, which Kilo CLI (its fork) loads too: the one plugin, in OpenCode's folder.
    const TEMPLATE: &str = include_str!("../../../agents/opencode/plugin.js");
    let quoted = serde_json::to_string(command).unwrap_or_default();
    TEMPLATE
        .replace("__AGENT_NAME__", agent.name)
        .replace("__AGENT_ID__", agent.id)
        .replace("__COMMAND__", &quoted)
        .replace("__TIMEOUT_MS__", &(TIMEOUT_SECONDS * 1000).to_string())
}

/// What one of an agent's settings files holds, as the agent reads it.
pub(super) struct Found {
    /// hookc's hooks there.
    pub hooks: Vec<WiredHook>,
    /// The settings, for a JSON file (`Null` for files of other kinds).
    pub settings: Value,
    /// What is wrong with the file as hookc wrote it.
    pub problems: Vec<String>,
}

/// Reads one of an agent's settings files (for Cline, its hooks folder); `Ok(None)` when there
/// is none. `Err` says why the agent cannot read it.
pub(super) fn read(agent: &Agent, path: &Path) -> Result<Option<Found>, String> {
    let read_text = |path: &Path| match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(format!("cannot read it: {error}")),
    };
    match agent.settings.format {
        SettingsFormat::Scripts => {
            let mut found = Found { hooks: Vec::new(), settings: Value::Null, problems: Vec::new() };
            if !path.is_dir() {
                return Ok(None);
            }
            for spec in events(agent) {
                let file = path.join(spec.name);
                // The user's own script at this event is theirs; hookc's says so.
                let Some(text) = read_text(&file)? else { continue };
                if !text.lines().any(|line| line.starts_with(WRITTEN_BY)) {
                    continue;
                }
                if !is_executable(&file) {
                    found.problems.push(format!(
                        "{}: `{}` is not executable: {} does not run it",
                        spec.name,
                        file.display(),
                        agent.name
                    ));
                }
                // Run as the agent runs it: the file itself (it names its event), within the
                // 120 s Cline gives a hook (checked on Cline CLI 3.0.65).
                let command =
                    shlex::try_quote(&file.to_string_lossy()).map(|quoted| quoted.into_owned()).unwrap_or_default();
                found.hooks.push(wired(spec.name, &command, Some(120)));
            }
            Ok(Some(found))
        }
        SettingsFormat::Plugin => {
            let Some(text) = read_text(path)? else { return Ok(None) };
            let command = text.lines().find_map(|line| {
                let value = line.trim().strip_prefix("const HOOKC_COMMAND = ")?.strip_suffix(';')?;
                serde_json::from_str::<String>(value).ok()
            });
            let Some(command) = command else {
                return Err("it is not hookc's plugin: hookc does not run from it".into());
            };
            let mut problems = Vec::new();
            if text != plugin(agent, &command) {
                problems.push(format!(
                    "`{}` is not the plugin this hookc writes (edited, or an older release's): a plugin that does not load leaves every call unguarded; write it again with `hookc init {} --write`",
                    path.display(),
                    agent.id
                ));
            }
            let hooks = events(agent).map(|spec| wired(spec.name, &command, Some(TIMEOUT_SECONDS))).collect();
            Ok(Some(Found { hooks, settings: Value::Null, problems }))
        }
        _ => {
            let Some(text) = read_text(path)? else { return Ok(None) };
            let settings: Value = serde_json::from_str(&text)
                .map_err(|error| format!("it is not valid JSON ({error}): the agent ignores its hooks"))?;
            let hooks = commands(agent, &settings).into_iter().filter(|hook| runs_hookc(&hook.command)).collect();
            Ok(Some(Found { hooks, settings, problems: Vec::new() }))
        }
    }
}

/// A hook found in a file of hookc's own, with the timeout (seconds) it runs within.
fn wired(event: &str, command: &str, timeout: Option<u64>) -> WiredHook {
    WiredHook {
        event: event.to_string(),
        group: 0,
        hook: 0,
        command: command.to_string(),
        matcher: None,
        timeout,
        background: false,
        once: false,
        status_message: None,
        context_limit: None,
    }
}

/// Makes a file executable by its owner, group and others (`rwxr-xr-x` at most its own bits).
pub(super) fn make_executable(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut permissions = std::fs::metadata(path)?.permissions();
        permissions.set_mode(permissions.mode() | 0o755);
        std::fs::set_permissions(path, permissions)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|meta| meta.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// The command hooks of a settings value, in the agent's layout.
pub(super) fn commands(agent: &Agent, settings: &Value) -> Vec<WiredHook> {
    let mut found = Vec::new();
    let Some(layout) = layout(agent) else { return found };
    let Some(events) = settings.get("hooks").and_then(Value::as_object) else { return found };
    for (event, items) in events {
        for (group_index, item) in items.as_array().into_iter().flatten().enumerate() {
            let matcher = item.get("matcher").and_then(Value::as_str).map(str::to_string);
            for (hook_index, hook) in entries(layout, item).enumerate() {
                let Some(command) = hook.get(layout.command_key).and_then(Value::as_str) else { continue };
                let timeout_key = layout.timeout.map_or("timeout", |(key, _)| key);
                found.push(WiredHook {
                    event: event.clone(),
                    group: group_index,
                    hook: hook_index,
                    command: command.to_string(),
                    matcher: matcher.clone(),
                    timeout: hook.get(timeout_key).and_then(Value::as_u64),
                    background: hook.get("async").and_then(Value::as_bool).unwrap_or(false),
                    once: hook.get("once").and_then(Value::as_bool).unwrap_or(false),
                    status_message: hook.get("statusMessage").and_then(Value::as_str).map(str::to_string),
                    context_limit: hook.get("additionalContextLimit").and_then(Value::as_u64),
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
    /// `async: true`: the agent does not wait for it, so it decides nothing.
    pub background: bool,
    /// `once: true` (Claude Code): it runs once per session.
    pub once: bool,
    /// `statusMessage`, which Codex hashes.
    pub status_message: Option<String>,
    /// `additionalContextLimit`, which Codex hashes.
    pub context_limit: Option<u64>,
}

/// A path with `.` and `..` taken out without reading the file system.
pub(super) fn lexical(path: &Path) -> PathBuf {
    let mut clean = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    clean
}

/// Codex's hook trust, in Codex's folder (`agents/codex/trust.rs`): the one agent whose hooks
/// run only once its user trusted them (`Trust::CodexHooks`).
#[path = "../../../agents/codex/trust.rs"]
pub(super) mod codex_trust;

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
    if old == Some(text) {
        return Ok(None);
    }
    if let Some(parent) = target.parent().filter(|parent| !parent.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|error| format!("cannot create `{}`: {error}", parent.display()))?;
    }
    // New files only (never through a link a repository could have planted at the name): the
    // new text in a fresh temporary file beside the target (`tempfile`: a random name, created
    // exclusively, owner-only), then the backup, then the rename over the target, so a failure
    // leaves neither a half-written file nor a stray backup.
    let directory = target.parent().filter(|parent| !parent.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let temporary = tempfile::Builder::new()
        .prefix(".hookc-settings-")
        .tempfile_in(directory)
        .and_then(|mut file| {
            use std::io::Write;
            if let Some(permissions) = mode.clone() {
                file.as_file().set_permissions(permissions)?;
            }
            file.write_all(text.as_bytes())?;
            file.as_file().sync_all()?;
            Ok(file)
        })
        .map_err(|error| format!("cannot write beside `{shown}`: {error}"))?;
    let backup = match old {
        Some(old) => {
            let backup = free_backup_path(&target);
            write_new(&backup, old, mode)
                .map_err(|error| format!("cannot write the backup `{}`: {error}", backup.display()))?;
            Some(backup)
        }
        None => None,
    };
    temporary.persist(&target).map_err(|error| format!("cannot replace `{shown}`: {}", error.error))?;
    Ok(backup)
}

/// Creates a new file (refusing any existing path, a symlink included) with the permissions of
/// the file it stands for (owner-only until they are set, so a file that may hold keys is never
/// readable by others in between); a new settings file gets the usual permissions.
fn write_new(path: &Path, text: &str, permissions: Option<std::fs::Permissions>) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
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
        // A dangling link is a name in use too.
        .find(|candidate| std::fs::symlink_metadata(candidate).is_err())
        .unwrap_or_else(|| PathBuf::from(base))
}

#[cfg(test)]
mod managed_tests {
    use super::*;

    /// Every agent's managed settings are read after its own layers, as the machine's (never as
    /// a file `init` would write).
    #[test]
    fn managed_settings_come_last_and_are_marked() {
        for agent in hookc_core::vocab::agents::AGENTS {
            let files = settings_files(agent, Path::new("/project"));
            let managed: Vec<&SettingsFile> = files.iter().filter(|file| file.managed).collect();
            assert_eq!(managed.len(), agent.settings.managed.len(), "{}", agent.id);
            let first = files.iter().position(|file| file.managed).unwrap_or(files.len());
            assert!(files.get(first..).unwrap_or_default().iter().all(|file| file.managed), "{}", agent.id);
            assert!(managed.iter().all(|file| file.path.is_absolute()), "{}", agent.id);
        }
        let claude = hookc_core::vocab::agents::find("claude").unwrap();
        let files = settings_files(claude, Path::new("/project"));
        assert!(files.iter().any(|file| file.path == Path::new("/etc/claude-code/managed-settings.json")));
    }
}
