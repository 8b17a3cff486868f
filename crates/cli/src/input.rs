//! Reading a policy (`--rules` or `--bundle`) and an event (`--input`), shared by the verbs that
//! evaluate.

use super::report::exit;
use hookc_core::model::event::{Event, MAX_EVENT_BYTES};
use hookc_core::vocab::agents::{self, Agent};
use hookc_core::{LoadError, Policy};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Where the rules come from.
#[derive(Debug, clap::Args)]
pub(super) struct PolicyArgs {
    /// Rule files or directories to compile on the fly.
    #[arg(long, num_args = 1.., value_name = "PATH", required_unless_present = "bundle", conflicts_with = "bundle")]
    pub rules: Vec<PathBuf>,
    /// A bundle written by `hookc compile`.
    #[arg(long, value_name = "FILE")]
    pub bundle: Option<PathBuf>,
    /// Load the bundle only if `BUNDLE.minisig` is this key's signature of it (a minisign
    /// public key file, or the key itself); an unsigned or altered bundle is refused.
    #[arg(long, value_name = "PUB", requires = "bundle")]
    pub trust_key: Option<String>,
}

/// How the policy reads paths.
#[derive(Debug, clap::Args)]
pub(super) struct PathArgs {
    /// Whether path comparisons ignore letter case (default: as the host's file system does,
    /// insensitive on macOS and Windows).
    #[arg(long, value_enum, value_name = "CASE")]
    pub path_case: Option<CaseArg>,
}

/// `--path-case`'s values: [`hookc_core::PathCase`]'s, named for the command line here (the
/// engine knows no command-line library).
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(super) enum CaseArg {
    /// `A.txt` and `a.txt` are different files (Linux and most Unix file systems).
    Sensitive,
    /// `A.txt` and `a.txt` are one file (the default file systems of macOS and Windows).
    Insensitive,
}

impl From<CaseArg> for hookc_core::PathCase {
    fn from(case: CaseArg) -> Self {
        match case {
            CaseArg::Sensitive => hookc_core::PathCase::Sensitive,
            CaseArg::Insensitive => hookc_core::PathCase::Insensitive,
        }
    }
}

impl PathArgs {
    /// How the loaded policy reads paths.
    pub(crate) fn path_settings(&self) -> hookc_core::PathSettings {
        let mut settings = hookc_core::PathSettings::default();
        settings.case = self.path_case.map_or(settings.case, Into::into);
        settings
    }
}

/// The agents' settings directories a variable of this process moves (`CLAUDE_CONFIG_DIR`,
/// `CODEX_HOME`, `COPILOT_HOME`, …), as the agent that runs the hook passes them on: where it
/// reads its hooks from, wherever that is. The rules name the usual places (`~/.claude`,
/// `~/.codex`); a moved one is known only here.
fn moved_settings() -> Vec<(PathBuf, &'static str)> {
    let mut dirs: Vec<(PathBuf, &'static str)> = Vec::new();
    for agent in hookc_core::agents::AGENTS {
        for (home, file, _) in agent.settings.user {
            let hookc_core::vocab::agents::schema::Home::Env(var, _) = home else { continue };
            let Some(dir) = std::env::var_os(var).filter(|dir| !dir.is_empty()) else { continue };
            // The directory the settings file is in: `$CODEX_HOME`, `$XDG_CONFIG_HOME/crush`.
            let settings = PathBuf::from(dir).join(file);
            if let Some(parent) = settings.parent().map(Path::to_path_buf) {
                if !dirs.iter().any(|(known, _)| *known == parent) {
                    dirs.push((parent, "an agent's settings, where a variable moved them"));
                }
            }
        }
    }
    dirs
}

/// The hook's own binary (the one the agent's settings or the project's launcher resolved), and
/// every `hookc` a directory earlier on `PATH` would put in its place: a write there decides
/// what the next hook call runs. An install by a package manager (`cargo install`) names no file
/// and is left alone.
fn hook_binaries() -> Vec<hookc_core::paths::Guarded> {
    let Ok(exe) = std::env::current_exe() else { return Vec::new() };
    let path = std::env::var_os("PATH").unwrap_or_default();
    let cwd = std::env::current_dir().ok();
    binaries_before(&exe, &path, cwd.as_deref())
}

/// [`hook_binaries`] for the binary `exe`, the search path `path` and the working directory
/// `cwd`. Every directory counts as the shell would search it: an empty entry or a relative one
/// is under `cwd`, and one not made yet is guarded where it would be (an agent could make it,
/// and put a `hookc` in it). Each directory is resolved once, and a name not there is guarded in
/// it as resolved: resolving every name again read each directory's links three times over, a
/// tenth of a hook call.
fn binaries_before(exe: &Path, path: &std::ffi::OsStr, cwd: Option<&Path>) -> Vec<hookc_core::paths::Guarded> {
    let mut files = Vec::new();
    let exe = std::fs::canonicalize(exe).unwrap_or_else(|_| exe.to_path_buf());
    let home = exe.parent().map(Path::to_path_buf);
    files.extend(hookc_core::paths::Guarded::of(&exe, "the hook's own binary"));
    for dir in std::env::split_paths(path) {
        let dir = match (dir.is_absolute(), cwd) {
            (true, _) => dir,
            (false, Some(cwd)) => cwd.join(dir),
            (false, None) => continue,
        };
        let Some(resolved) = hookc_core::paths::resolve_as_far_as_it_exists(&dir) else { continue };
        if Some(&resolved) == home.as_ref() {
            break;
        }
        for name in ["hookc", "hookc.exe", "hookc.cmd"] {
            let what = "a hookc earlier on PATH than the hook's own";
            let file = resolved.join(name);
            files.extend(hookc_core::paths::Guarded::resolved(&file, what));
            // A link is guarded where it leads as well, made yet or not (a write through a
            // dangling link makes its target).
            if file.symlink_metadata().is_ok_and(|meta| meta.file_type().is_symlink()) {
                let leads = std::fs::read_link(&file).ok().and_then(|target| {
                    std::fs::canonicalize(&file)
                        .ok()
                        .or_else(|| hookc_core::paths::resolve_as_far_as_it_exists(&resolved.join(target)))
                });
                files.extend(leads.and_then(|leads| hookc_core::paths::Guarded::resolved(&leads, what)));
            }
        }
    }
    files
}

impl PolicyArgs {
    /// The policy's own files, which the hook keeps out of the agent's reach
    /// (`PathSettings::guarded`): the bundle and its signature, the trust key file, the rule
    /// files and directories and the compiled-rules cache; with the audit log the hook appends
    /// to.
    pub(super) fn guarded(&self, audit_log: Option<&Path>) -> Vec<hookc_core::paths::Guarded> {
        let mut files: Vec<(PathBuf, &'static str)> = Vec::new();
        if let Some(bundle) = &self.bundle {
            files.push((bundle.clone(), "the policy bundle"));
            files.push((hookc_signing::signature_path(bundle), "the policy bundle's signature"));
        }
        if let Some(key) = self.trust_key.as_deref().map(Path::new).filter(|key| key.is_file()) {
            files.push((key.to_path_buf(), "the key the bundle must be signed with"));
        }
        let rules = self.rules.iter().filter(|path| !path.to_string_lossy().starts_with(hookc_core::builtin::PREFIX));
        files.extend(rules.map(|path| (path.clone(), "the policy's rules")));
        files.extend(audit_log.map(|log| (log.to_path_buf(), "the audit log")));
        if self.bundle.is_none() {
            files.extend(crate::cache::dir().map(|dir| (dir, "the compiled-rules cache")));
        }
        files.extend(moved_settings());
        let mut guarded: Vec<hookc_core::paths::Guarded> =
            files.into_iter().filter_map(|(path, what)| hookc_core::paths::Guarded::of(&path, what)).collect();
        guarded.extend(hook_binaries());
        guarded
    }

    /// Loads the policy for a hook call: as [`PolicyArgs::policy`], with rule files compiled
    /// through the compiled-rules cache (`crate::cache`).
    pub(super) fn policy_for_hook(&self) -> Result<Policy, LoadError> {
        match &self.bundle {
            Some(_) => self.policy(),
            None => crate::cache::load_rules(&self.rules),
        }
    }

    /// Loads the policy: the bundle (checked against the trusted key, if one is given) or the
    /// rule files.
    pub(super) fn policy(&self) -> Result<Policy, LoadError> {
        match &self.bundle {
            Some(bundle) => {
                let key =
                    match &self.trust_key {
                        Some(key) => Some(hookc_signing::TrustKey::read(key).map_err(|error| {
                            LoadError::Signature { path: bundle.clone(), reason: error.to_string() }
                        })?),
                        None => None,
                    };
                Policy::load_bundle_trusted(bundle, key.as_ref())
            }
            None => Policy::from_paths(&self.rules),
        }
        // What the rules decide: a verb's answer must not depend on where they are checked out.
        // The hook guards its files itself (`PolicyArgs::guarded`), the audit log's with them.
        .map(Policy::without_own_files)
    }

    /// Loads the policy; on failure prints why and returns the exit code.
    pub(super) fn load(&self) -> Result<Policy, u8> {
        self.policy().map_err(|load_error| {
            match &load_error {
                LoadError::Invalid { rendered, diagnostics } => {
                    eprint!("{rendered}");
                    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
                    super::report::error(format_args!("the rules have {errors} error{}", plural(errors)));
                }
                other => super::report::error(other),
            }
            match load_error {
                LoadError::Read(_) | LoadError::BundleIo { .. } => exit::USAGE,
                _ => exit::FAILED,
            }
        })
    }
}

/// A policy and one native event: what `eval` and `explain` read.
#[derive(Debug, clap::Args)]
pub(super) struct EventArgs {
    #[command(flatten)]
    policy: PolicyArgs,
    #[command(flatten)]
    paths: PathArgs,
    /// The event: a JSON file, or `-` for standard input.
    #[arg(long, default_value = "-", value_name = "FILE")]
    input: PathBuf,
    /// Read the event as this agent's own hook payload (what it sends `hookc hook AGENT`), not
    /// as a native event.
    #[arg(long, value_parser = super::input::agent_arg, value_name = "AGENT")]
    agent: Option<&'static Agent>,
    /// With `--agent`: the project root paths are spelled relative to (default: as the agent's
    /// hook would find it, `CLAUDE_PROJECT_DIR` or `GEMINI_PROJECT_DIR`, else the payload's `cwd`).
    #[arg(long, value_name = "DIR", requires = "agent")]
    project_root: Option<PathBuf>,
}

impl EventArgs {
    /// Loads the policy, then reads the event; on failure prints why and returns the exit code.
    pub(super) fn load(&self) -> Result<(Policy, Event), u8> {
        let policy = self.policy.load()?.with_path_settings(self.paths.path_settings());
        let bytes = read_input(&self.input)?;
        let event = match self.agent {
            None => Event::from_json(&bytes).map_err(|event_error| event_error.to_string()),
            Some(agent) => {
                let root = self.project_root.as_ref().map(|root| root.to_string_lossy().into_owned());
                let options = hookc_agents::HookOptions::default().with_project_root(root);
                hookc_agents::hook_event(agent, &policy, &bytes, &options).map_err(|failure| failure.to_string())
            }
        };
        let event = event.map_err(|reason| {
            super::report::error(reason);
            exit::FAILED
        })?;
        Ok((policy, event))
    }
}

/// Reads an event's bytes from a file or `-` (stdin), at most [`MAX_EVENT_BYTES`].
fn read_input(input: &Path) -> Result<Vec<u8>, u8> {
    let mut bytes = Vec::new();
    let limit = MAX_EVENT_BYTES as u64 + 1;
    let read = if input == Path::new("-") {
        std::io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(input).and_then(|file| file.take(limit).read_to_end(&mut bytes))
    };
    if let Err(io) = read {
        super::report::error(format_args!("cannot read `{}`: {io}", input.display()));
        return Err(exit::USAGE);
    }
    if bytes.len() > MAX_EVENT_BYTES {
        super::report::error(format_args!("`{}` is larger than the {MAX_EVENT_BYTES}-byte limit", input.display()));
        return Err(exit::FAILED);
    }
    Ok(bytes)
}

/// "s" for counts other than one.
pub(super) fn plural(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

/// An agent named on the command line, by its id or an alias.
pub(super) fn agent_arg(name: &str) -> Result<&'static Agent, String> {
    agents::find(name).filter(|agent| *agent != agents::NATIVE).ok_or_else(|| {
        let known = agents::names();
        let hint = hookc_core::diagnostic::did_you_mean(name, known.iter().copied())
            .map(|best| format!(" (did you mean `{best}`?)"))
            .unwrap_or_default();
        format!("no agent is called `{name}`{hint}; the agents are {}", known.join(", "))
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Every directory searched before the hook's own is guarded as the agent's writes resolve:
    /// through a link, not made yet, relative to the working directory; none after it.
    #[test]
    fn every_hookc_earlier_on_path_is_guarded() {
        let root = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(root.path()).unwrap();
        let own = root.join("own");
        let real = root.join("real");
        for dir in [&own, &real, &root.join("project/bin"), &root.join("after")] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::os::unix::fs::symlink(&real, root.join("linked")).unwrap();
        std::os::unix::fs::symlink(root.join("nowhere/hookc"), real.join("hookc")).unwrap();
        let exe = own.join("hookc");
        std::fs::write(&exe, "").unwrap();
        let path = std::env::join_paths([
            root.join("missing/bin"),
            root.join("linked"),
            PathBuf::from("bin"),
            own.clone(),
            root.join("after"),
        ])
        .unwrap();
        let guarded: Vec<String> =
            binaries_before(&exe, &path, Some(&root.join("project"))).into_iter().map(|guarded| guarded.path).collect();
        let at = |path: PathBuf| path.to_str().unwrap().to_string();
        for expected in [
            at(exe.clone()),
            at(root.join("missing/bin/hookc")),
            at(root.join("nowhere/hookc")),
            at(real.join("hookc.exe")),
            at(root.join("project/bin/hookc")),
        ] {
            assert!(guarded.contains(&expected), "{expected} is not guarded: {guarded:?}");
        }
        assert!(!guarded.iter().any(|path| path.contains("/after/")), "{guarded:?}");
    }
}
