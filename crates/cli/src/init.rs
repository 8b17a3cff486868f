//! `hookc init`: wire hookc into an agent's hook settings, so that it cannot brick the agent:
//! the policy must exist and check, every path in the command works from any directory, and
//! the settings file is changed only where it must be.

use super::folder_trust;
use super::report::exit;
use super::wiring::{self, codex_trust, WiredHook};
use hookc_core::vocab::agents::schema::Trust;
use hookc_core::vocab::agents::Agent;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// Print (or, with `--write`, merge into the agent's settings) the hook settings that run hookc
/// at every hook point the agent has.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  hookc init claude                        print the settings to add\n  hookc init claude --write                write them into .claude/settings.json\n  hookc init codex --write --trust         wire and trust Codex's hooks for this project\n  hookc init gemini --write --bundle policy.bundle --trust-key hookc.pub"
)]
pub(super) struct Args {
    /// The agent to wire (its id or an alias).
    #[arg(value_parser = super::input::agent_arg, value_name = "AGENT")]
    agent: &'static Agent,
    /// Run with this compiled bundle (recommended: `hookc compile` first).
    #[arg(long, value_name = "FILE", conflicts_with = "rules")]
    bundle: Option<PathBuf>,
    /// Load the bundle only if it is signed by this minisign public key (`hookc compile
    /// --sign`): whoever can write the bundle then cannot change the policy.
    #[arg(long, value_name = "PUB", requires = "bundle")]
    trust_key: Option<PathBuf>,
    /// Run with these rule files or directories, or rule sets built into hookc
    /// (`builtin:baseline`, `builtin:NAME`, `builtin:packs`); repeatable (default: `rules`).
    #[arg(long, value_name = "PATH")]
    rules: Vec<PathBuf>,
    /// How the agent should invoke hookc (default: the project's committed launcher,
    /// `.hookc/hookc`, which finds hookc on each teammate's machine; with `--global` or
    /// `--settings`, this hookc's absolute path).
    #[arg(long, value_name = "COMMAND")]
    command: Option<String>,
    /// The hookc version the launcher requires: a version or a prefix of one (default: this
    /// hookc's MAJOR.MINOR; `''` for any).
    #[arg(long, value_name = "VERSION", conflicts_with = "command")]
    pin: Option<String>,
    /// Merge into the settings file instead of printing (a backup is kept when it changes).
    #[arg(long)]
    write: bool,
    /// The settings file to merge into (default: the agent's project settings).
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
    /// Wire the agent's user-wide settings instead of this project's (every project then runs
    /// this policy): `~/.claude/settings.json`, `$CODEX_HOME/hooks.json`, ….
    #[arg(long)]
    global: bool,
    /// Codex: record the hooks written as trusted in `$CODEX_HOME/config.toml`, as `/hooks` →
    /// trust does in Codex (Codex runs only hooks its user trusted). Copilot CLI: record the
    /// project as a trusted folder in `$COPILOT_HOME/config.json`; Gemini CLI: in
    /// `~/.gemini/trustedFolders.json` (they run a project's hooks only in one).
    #[arg(long, requires = "write")]
    trust: bool,
    /// Have every hook call append its decision to this audit log (one JSON line each; see
    /// docs/fleet.md).
    #[arg(long, value_name = "FILE")]
    audit_log: Option<PathBuf>,
}

/// Runs `hookc init`.
pub(super) fn run(args: &Args) -> u8 {
    match init(args) {
        Ok(()) => exit::OK,
        Err(message) => {
            super::report::error(message);
            exit::USAGE
        }
    }
}

fn init(args: &Args) -> Result<(), String> {
    let agent = args.agent;
    if args.trust && agent.settings.trust == Trust::Workspace {
        return Err(format!(
            "`--trust` is for agents that run only hooks or folders their user trusted (Codex, Copilot CLI, Gemini CLI); {} does not",
            agent.name
        ));
    }
    let project = std::env::current_dir().map_err(|error| format!("cannot read the current directory: {error}"))?;
    let policy = checked_policy(args)?;
    if let PolicyPath::Rules(rules) = &policy {
        if let Some(report) = seed_known_hosts(&project, rules, args.write)? {
            eprintln!("{report}");
        }
    }
    let files = wiring::settings_files(agent, &project);
    let path: PathBuf = match (&args.settings, args.global) {
        (Some(path), _) => wiring::lexical(&project.join(path)),
        (None, global) => {
            files.iter().find(|file| file.user == global && !file.managed).map(|file| file.path.clone()).ok_or_else(
                || {
                    format!(
                        "cannot find {}'s {} settings (is `$HOME` set?); pass `--settings FILE`",
                        agent.name,
                        if global { "user" } else { "project" }
                    )
                },
            )?
        }
    };
    // `$CLAUDE_PROJECT_DIR` is whichever project the agent runs in: only a project's own
    // settings may name the policy by it (in user settings it would be every project's `rules`).
    // A settings file that is a link to one outside the project (the user's own) is not the
    // project's either.
    let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
    let real_project = std::fs::canonicalize(&project).unwrap_or_else(|_| project.clone());
    let user_file =
        files.iter().filter(|file| file.user).any(|file| file.path.parent().is_some_and(|dir| path.starts_with(dir)));
    let project_var = agent
        .settings
        .project_var
        .filter(|_| path.starts_with(&project) && real.starts_with(&real_project) && !user_file);
    // The project's own settings run the committed launcher unless told otherwise: it works on
    // every teammate's machine, and paths in it are relative to the project root.
    let launcher = args.command.is_none() && !args.global && args.settings.is_none();
    let line = command_line(args, &project, &policy, project_var, launcher)?;
    let (command, windows) = match launcher {
        true => {
            let pin = args.pin.clone().unwrap_or_else(default_pin);
            if !super::launcher::valid_pin(&pin) {
                return Err(format!("`--pin {pin}` is not a version (digits, letters, `.`, `-`, `+`)"));
            }
            eprintln!("{}", super::launcher::write(&project, &pin, args.write)?);
            // Windows teammates: the agent's own root variable, else git, else where it runs.
            let root_var = agent.root_vars().next();
            let windows =
                wiring::has_windows_command(agent).then(|| super::launcher::powershell_command(root_var, &line));
            (super::launcher::command(project_var, &line, agent.settings.hook_shell), windows)
        }
        false => (line, None),
    };
    if wiring::layout(agent).is_none() {
        return write_files(agent, &path, &command, args.write);
    }
    let hooks = wiring::hooks(agent, &command, windows.as_deref());
    if !args.write {
        let text = serde_json::to_string_pretty(&json!({ "hooks": hooks })).map_err(|error| error.to_string())?;
        println!("{text}");
        return Ok(());
    }
    eprintln!("{}", merge_into(agent, &path, hooks)?);
    match agent.settings.trust {
        Trust::CodexHooks => eprintln!("{}", codex_trust_report(agent, &path, &project, &command, args.trust)?),
        // A project's hooks run only in a trusted folder; user-wide hooks are not the project's.
        Trust::Folders(spec) if !args.global && path.starts_with(&project) => {
            let real = std::fs::canonicalize(&project).unwrap_or_else(|_| project.clone());
            let report = match args.trust {
                true => format!("{}: {}", agent.name, folder_trust::trust(agent, &spec, &real)?),
                false => match folder_trust::read(agent, &spec, &real)? {
                    state if state.trusted => format!("{}: `{}` is a trusted folder", agent.name, real.display()),
                    state => format!(
                        "{}: `{}` is not a trusted folder in `{}`, and {} runs a project's hooks only in one: none of these will run, and nothing will say so. \
                         Trust it with `hookc init {} --write --trust`, or when {} asks",
                        agent.name,
                        real.display(),
                        state.file.display(),
                        agent.name,
                        agent.id,
                        agent.name
                    ),
                },
            };
            eprintln!("{report}");
        }
        _ => {}
    }
    Ok(())
}

/// The list of hosts the project sends to, which the baseline's egress rules read.
const KNOWN_HOSTS: &str = "known_hosts";

/// Adds the hosts of the project's git remotes, as `git remote -v` shows them now, to the
/// policy's `let known_hosts` list, and says so: `init` is a person's step, so the remotes it
/// finds are the project's, where a remote added later by an agent is asked about
/// (`remote-change`) and never read from `.git/config` at call time. With `--write` the rule
/// file is rewritten (formatted); without, what would be added is said. `None`: nothing to say
/// (no remote names a host, or the policy has no such list in a file of its own).
fn seed_known_hosts(project: &Path, rules: &[PathBuf], write: bool) -> Result<Option<String>, String> {
    let hosts = remote_hosts(project);
    if hosts.is_empty() {
        return Ok(None);
    }
    let files = rules
        .iter()
        .filter(|path| !path.to_string_lossy().starts_with("builtin:"))
        .map(|path| project.join(path))
        .collect::<Vec<_>>();
    let sources = hookc_core::source::read_rule_files(&files).map_err(|error| error.to_string())?;
    for (id, file) in sources.iter() {
        let edited = hookc_core::with_list_values(id, file, KNOWN_HOSTS, &hosts)
            .map_err(|_| format!("`{}` does not parse; run `hookc check`", file.path.display()))?;
        let Some(text) = edited else { continue };
        if text == file.text {
            return Ok(None);
        }
        let shown = hosts.join(", ");
        if !write {
            return Ok(Some(format!(
                "{}: `{KNOWN_HOSTS}` lacks the git remotes' hosts ({shown}); `--write` adds them",
                file.path.display()
            )));
        }
        std::fs::write(&file.path, text).map_err(|error| format!("cannot write `{}`: {error}", file.path.display()))?;
        return Ok(Some(format!(
            "{}: `{KNOWN_HOSTS}` now holds the git remotes' hosts ({shown}); commit it with the settings",
            file.path.display()
        )));
    }
    Ok(Some(format!(
        "the policy has no `let {KNOWN_HOSTS}` list in a rule file of its own, so the git remotes' hosts ({}) were not added",
        hosts.join(", ")
    )))
}

/// The hosts of the project's git remotes' fetch and push URLs (after `insteadOf`), each once,
/// as `egress` spells them; none where git or a repository is missing.
fn remote_hosts(project: &Path) -> Vec<String> {
    let Ok(output) = std::process::Command::new("git").arg("-C").arg(project).args(["remote", "-v"]).output() else {
        return Vec::new();
    };
    let mut hosts: Vec<String> = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        // `origin\thttps://github.com/acme/app.git (fetch)`
        let Some(url) = line.split('\t').nth(1).and_then(|rest| rest.rsplit_once(' ')).map(|(url, _)| url) else {
            continue;
        };
        if let Some(host) = hookc_core::remote_url_host(url) {
            if !hosts.contains(&host) {
                hosts.push(host);
            }
        }
    }
    hosts
}

/// Where the policy is, after making sure it exists and checks: a missing or broken policy
/// would block every call the agent makes.
enum PolicyPath {
    Rules(Vec<PathBuf>),
    Bundle(PathBuf),
}

fn checked_policy(args: &Args) -> Result<PolicyPath, String> {
    let (path, loaded) = match (&args.bundle, &args.rules) {
        (Some(bundle), _) => {
            let key = match &args.trust_key {
                Some(key) => {
                    Some(hookc_signing::TrustKey::read(&key.to_string_lossy()).map_err(|error| error.to_string())?)
                }
                None => None,
            };
            (
                PolicyPath::Bundle(bundle.clone()),
                hookc_core::Policy::load_bundle_trusted(bundle, key.as_ref()).map(|_| ()),
            )
        }
        (None, rules) => {
            let rules = if rules.is_empty() { vec![PathBuf::from("rules")] } else { rules.clone() };
            // As `hookc check` does, so that a regex over the size limit (which a hook call
            // would find only when it reaches it) is refused now too.
            let loaded =
                hookc_core::source::read_rule_files(&rules).map_err(hookc_core::LoadError::from).and_then(|sources| {
                    hookc_core::check_sources(&sources)
                        .map(|_| ())
                        .map_err(|diagnostics| hookc_core::LoadError::Invalid { diagnostics, rendered: String::new() })
                });
            (PolicyPath::Rules(rules), loaded)
        }
    };
    match loaded {
        Ok(_) => Ok(path),
        Err(hookc_core::LoadError::Invalid { diagnostics, .. }) => {
            let errors = diagnostics.iter().filter(|d| d.is_error()).count();
            Err(format!("the rules have {errors} error(s) (run `hookc check`); wired in, they would block every call"))
        }
        Err(error) => Err(format!("{error}; wired in, it would block every call")),
    }
}

/// The command line the agent runs (through the launcher, its arguments). Paths are absolute, or relative to the agent's project
/// variable (`$CLAUDE_PROJECT_DIR`) when inside the project (so the settings can be committed):
/// an agent runs hooks from wherever its shell went, and a relative path would break after
/// `cd src`.
fn command_line(
    args: &Args,
    project: &Path,
    policy: &PolicyPath,
    project_var: Option<&str>,
    launcher: bool,
) -> Result<String, String> {
    let verb = format!("hook {}", args.agent.id);
    let paths: Vec<(&str, &PathBuf)> = match policy {
        PolicyPath::Rules(paths) => paths.iter().map(|path| ("--rules", path)).collect(),
        PolicyPath::Bundle(path) => vec![("--bundle", path)],
    };
    let program = match &args.command {
        Some(command) => command.clone(),
        None if launcher => String::new(),
        None => default_program()?,
    };
    // Through the launcher, hookc runs from the project root: paths inside it are relative.
    let spell = |path: &Path| spell(project_var, launcher, project, path);
    let mut line = if launcher { verb } else { format!("{program} {verb}") };
    for (flag, path) in paths {
        // `builtin:NAME` is inside hookc: no path to resolve.
        let spelled = match path.to_str().filter(|text| text.starts_with(hookc_core::builtin::PREFIX)) {
            Some(name) => quote(name),
            None => spell(path)?,
        };
        line.push_str(&format!(" {flag} {spelled}"));
    }
    match &args.trust_key {
        // A key given as itself (`RW…`) rather than a file goes as it is.
        Some(key) if !project.join(key).exists() => {
            line.push_str(&format!(" --trust-key {}", quote(&key.to_string_lossy())))
        }
        Some(key) => line.push_str(&format!(" --trust-key {}", spell(key)?)),
        None => {}
    }
    // An agent that tells its hooks no project root (Windsurf) is given this one, in the
    // project's own settings: paths in its calls are then judged relative to it.
    if args.agent.project_root.is_empty() && !args.global && args.settings.is_none() {
        line.push_str(&format!(" --project-root {}", spell(Path::new("."))?));
    }
    if let Some(log) = &args.audit_log {
        // The log need not exist yet: its directory is resolved, then the name appended.
        let name = log.file_name().ok_or_else(|| format!("`{}` names no file", log.display()))?;
        let dir = log.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let absolute = std::fs::canonicalize(project.join(dir))
            .map_err(|error| format!("cannot resolve `{}`: {error}", dir.display()))?
            .join(name);
        line.push_str(&format!(" --audit-log {}", quote(&absolute.to_string_lossy())));
    }
    Ok(line)
}

/// The launcher's default pin: this hookc's MAJOR.MINOR, so a teammate's patch release runs.
fn default_pin() -> String {
    let version = env!("CARGO_PKG_VERSION");
    version.splitn(3, '.').take(2).collect::<Vec<_>>().join(".")
}

/// A path as the agent's command line should spell it, so that it works from any directory.
/// Inside the project it is relative to where the command starts: to the launcher's project root
/// (`launcher`), else to the agent's project variable, when there is one. Otherwise absolute.
fn spell(project_var: Option<&str>, launcher: bool, project: &Path, path: &Path) -> Result<String, String> {
    let absolute = std::fs::canonicalize(project.join(path))
        .map_err(|error| format!("cannot resolve `{}`: {error}", path.display()))?;
    let real_project = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
    let inside = absolute.strip_prefix(&real_project).ok().map(|inside| inside.to_string_lossy().replace('\\', "/"));
    Ok(match (inside, launcher, project_var) {
        (Some(inside), true, _) if inside.is_empty() => ".".to_string(),
        (Some(inside), true, _) => quote(&inside),
        (Some(inside), false, Some(variable)) => format!("\"${variable}\"/{}", quote(&inside)),
        _ => quote(&absolute.to_string_lossy()),
    })
}

/// This program's absolute path: an agent's hook shell may not have the `PATH` this shell has
/// (Codex runs a login shell), and "command not found" (exit 127) lets every call through.
fn default_program() -> Result<String, String> {
    let this = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|error| format!("cannot find this hookc's path ({error}); pass `--command`"))?;
    Ok(quote(&this.to_string_lossy()))
}

/// A word as a POSIX shell reads it back (the agents run hook commands through `sh -c` or the
/// user's shell). A NUL byte cannot be passed at all: such a path is refused before this.
fn quote(word: &str) -> String {
    shlex::try_quote(word).map_or_else(|_| word.replace('\0', ""), std::borrow::Cow::into_owned)
}

/// Writes (or, without `--write`, prints) the files of an agent wired by files: Cline's scripts,
/// one per event, or hookc's plugin. A file of the user's own at the same name is never
/// replaced; one hookc wrote is rewritten when it differs, with a backup.
fn write_files(agent: &Agent, path: &Path, command: &str, write: bool) -> Result<(), String> {
    let files = wiring::files(agent, command);
    if !write {
        for (name, text, _) in &files {
            let file = if name.as_os_str().is_empty() { path.to_path_buf() } else { path.join(name) };
            println!("# {}\n{text}", file.display());
        }
        return Ok(());
    }
    let (mut written, mut present) = (0, 0);
    for (name, text, executable) in files {
        let file = if name.as_os_str().is_empty() { path.to_path_buf() } else { path.join(&name) };
        let shown = file.display();
        let old = match std::fs::read_to_string(&file) {
            Ok(old) => Some(old),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => return Err(format!("cannot read `{shown}`: {error}")),
        };
        if let Some(old) = &old {
            if *old == text {
                present += 1;
                continue;
            }
            if !old.contains("hookc init") {
                return Err(format!(
                    "`{shown}` is not a file hookc wrote; it was not changed (run hookc from it yourself, or move it away)"
                ));
            }
        }
        wiring::write_settings(&file, old.as_deref(), &text)?;
        if executable {
            wiring::make_executable(&file).map_err(|error| format!("cannot make `{shown}` executable: {error}"))?;
        }
        written += 1;
    }
    let shown = path.display();
    eprintln!("wired {} at `{shown}`: {written} file(s) written, {present} already as they should be", agent.name);
    Ok(())
}

/// Merges the hooks into the settings file (see [`wiring::merge`]); nothing is written when
/// nothing changes, and a file that cannot be read as settings is left as it was.
fn merge_into(agent: &Agent, path: &Path, hooks: Map<String, Value>) -> Result<String, String> {
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
    let merged =
        wiring::merge(agent, &mut settings, hooks).map_err(|why| format!("`{shown}`: {why}; it was not changed"))?;
    let wiring::Merged { added, present, rewritten } = merged;
    if added + rewritten == 0 {
        return Ok(format!("`{shown}` already runs hookc at all {present} hook point(s); nothing changed"));
    }
    let text = serde_json::to_string_pretty(&settings).map_err(|error| error.to_string())? + "\n";
    let backup = wiring::write_settings(path, existing.as_deref(), &text)?;
    let backup_note = backup.map(|backup| format!(" (backup: `{}`)", backup.display())).unwrap_or_default();
    let rewritten_note = match (rewritten, agent.settings.trust) {
        (0, _) => String::new(),
        (n, Trust::CodexHooks) => format!(
            ", {n} rewritten from an older spelling of the same command (Codex takes a changed command for a new, untrusted hook: `--trust` trusts them again)"
        ),
        (n, _) => format!(", {n} rewritten from an older spelling of the same command"),
    };
    Ok(format!("updated `{shown}`{backup_note}: {added} hook(s) added, {present} already present{rewritten_note}"))
}

/// Codex runs only hooks its user trusted, and reads a project's `.codex/hooks.json` only in a
/// project it trusts. With `--trust`, the hooks that run this command are recorded as trusted;
/// either way the report says plainly what will and will not run.
fn codex_trust_report(
    agent: &Agent,
    hooks_json: &Path,
    project: &Path,
    command: &str,
    trust: bool,
) -> Result<String, String> {
    let text = std::fs::read_to_string(hooks_json)
        .map_err(|error| format!("cannot read `{}`: {error}", hooks_json.display()))?;
    let settings: Value =
        serde_json::from_str(&text).map_err(|error| format!("`{}`: {error}", hooks_json.display()))?;
    let ours: Vec<WiredHook> =
        wiring::commands(agent, &settings).into_iter().filter(|hook| hook.command == command).collect();
    let state = codex_trust::read(hooks_json, project, &ours)?;
    let shown = state.config_path.display();
    let mut report = if state.untrusted.is_empty() {
        format!("Codex: all {} hookc hook(s) are trusted", ours.len())
    } else if trust {
        let entries: Vec<(String, String)> =
            state.untrusted.iter().map(|(_, key, hash)| (key.clone(), hash.clone())).collect();
        let written = codex_trust::with_trusted(&state.config, &entries)
            .map_err(|error| format!("`{shown}`: {error}; it was not changed"))?;
        let old = (!state.config.is_empty()).then_some(state.config.as_str());
        wiring::write_settings(&state.config_path, old, &written)?;
        format!("Codex: {} hook(s) recorded as trusted in `{shown}`", entries.len())
    } else {
        format!(
            "Codex: {} of {} hookc hook(s) are untrusted: Codex will not run them, and nothing will say so. \
             Trust them with `hookc init codex --write --trust`, or `/hooks` in Codex",
            state.untrusted.len(),
            ours.len()
        )
    };
    if !state.disabled.is_empty() {
        report.push_str(&format!(
            "\nCodex: {} hookc hook(s) are turned off (`enabled = false` in `{shown}`): Codex will not run them",
            state.disabled.len()
        ));
    }
    if state.project_unread {
        report.push_str(&format!(
            "\nCodex: `{}` is not a trusted project in `{shown}`, and Codex reads a project's `.codex/hooks.json` only in a \
             trusted one: trust the project when Codex asks, or wire it user-wide with `--global`",
            project.display()
        ));
    }
    Ok(report)
}
