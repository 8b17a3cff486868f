//! The committed launcher: `.hookc/hookc`, a POSIX shell script `hookc init` writes into the
//! project, which the agent's settings run instead of a path on one machine. With it, the
//! settings and the launcher can be committed and work on every teammate's checkout.
//!
//! What it does, in order:
//! 1. finds the project root: the directory above the launcher's own (`.hookc/..`), never a
//!    `rules/` found by walking up from wherever the agent runs;
//! 2. finds hookc, trying `$HOOKC` (an absolute path), then each directory of `PATH`, then
//!    `~/.cargo/bin`, `~/.local/bin`, `/usr/local/bin` and `/opt/homebrew/bin`. A candidate
//!    the agent could have planted is skipped: one inside the project, in a `node_modules/.bin`,
//!    a `.venv/bin` or `venv/bin`, or reached through a relative `PATH` entry;
//! 3. runs it from the project root, so that the rules are named relative to it, with
//!    `--require-version PIN`: a hookc of another version refuses the call (exit 2);
//! 4. when none is found, exits 2 with a message: the agent blocks the call and shows why.
//!
//! The hook command in the settings reaches the launcher through the agent's project variable
//! (`$CLAUDE_PROJECT_DIR`), else the git top level, else the directory the hook runs in, and
//! exits 2 itself when the launcher is not there (`sh` would exit 127, which most agents take as
//! a broken hook and run the call). Where the agent runs hooks with `sh -c` or `bash -c`, the
//! command reads the launcher into that shell; elsewhere it starts an `sh -c` of its own
//! ([`command`]).
//!
//! Windows teammates: agents with a Windows command key (Copilot CLI's and VS Code's
//! `powershell`) get a second command that runs `.hookc/hookc.ps1`, the same launcher in
//! PowerShell (the same search, with `hookc.exe`, `%USERPROFILE%\.cargo\bin` and
//! `%LOCALAPPDATA%\Programs\hookc`; the same refusals, with `.venv\Scripts`). Both files are
//! written side by side and pinned alike. The PowerShell one has not been run on a real Windows
//! machine: none is available to this project's checks (see docs/agents.md).

use hookc_core::vocab::agents::schema::HookShell;
use std::path::Path;

/// Where the launcher lives, relative to the project root.
pub(super) const PATH: &str = ".hookc/hookc";

/// Where the Windows launcher lives, relative to the project root.
pub(super) const POWERSHELL_PATH: &str = ".hookc/hookc.ps1";

/// The launcher's text, pinned to `pin` (a version, or a prefix of one: `0.1`).
pub(super) fn script(pin: &str) -> String {
    include_str!("launcher.sh").replace("@PIN@", pin)
}

/// The Windows launcher's text (PowerShell), pinned to `pin`.
pub(super) fn powershell_script(pin: &str) -> String {
    include_str!("launcher.ps1").replace("@PIN@", pin)
}

/// Whether `pin` can be written into the launchers as it is: a version or a prefix of one.
pub(super) fn valid_pin(pin: &str) -> bool {
    pin.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
}

/// The hook command that runs the launcher with `args` (`hook claude --rules rules`): it finds
/// the project through the agent's project variable, else git, else the directory the hook runs
/// in, and exits 2 with a message when the launcher is not there. An agent that runs its hooks
/// with `sh -c` or `bash -c` ([`HookShell::Posix`]) gets a command that reads the launcher into
/// that shell, in a function given the arguments, and the shell then replaces itself with
/// hookc: one shell per call.
/// Any other gets the same script under an `sh -c` of its own, so that it means the same in
/// whatever shell runs it (fish, say), at the cost of a second shell start.
pub(super) fn command(project_var: Option<&str>, args: &str, shell: HookShell) -> String {
    let root = match project_var {
        Some(var) => format!("${{{var}:-$(git rev-parse --show-toplevel 2>/dev/null || pwd)}}"),
        None => "$(git rev-parse --show-toplevel 2>/dev/null || pwd)".to_string(),
    };
    // `l` is made absolute (a relative project variable would otherwise leave the launcher to
    // guess its place from `$0`, the agent's shell).
    let find = format!(
        "l=\"{root}/{PATH}\"; case \"$l\" in /*) ;; *) l=\"$PWD/$l\" ;; esac; [ -f \"$l\" ] || {{ echo \"hookc: no launcher at $l (run hookc init in the project); this call is blocked\" >&2; exit 2; }}"
    );
    // The launcher ends by replacing the shell with hookc, or exits 2 itself: coming back from
    // reading it (an unreadable file, which bash reads as a failed `.` and goes on; an empty
    // or cut one) is a failure too, never the agent's "allow" (0) or "hook error" (1).
    let run = "; echo \"hookc: the launcher $l did not run hookc (unreadable, empty or cut short); this call is blocked\" >&2; exit 2";
    match shell {
        // A function sets the arguments the launcher reads (`. FILE ARGS` does not, in dash), and
        // the line still ends with them: `hookc hook claude --rules rules`.
        HookShell::Posix => format!("{find}; hookc() {{ . \"$l\"{run}; }}; hookc {args}"),
        HookShell::Unknown => {
            let script = format!("{find}; . \"$l\"{run}");
            format!(
                "sh -c {} hookc {args}",
                shlex::try_quote(&script).map(|quoted| quoted.into_owned()).unwrap_or_default()
            )
        }
    }
}

/// The Windows hook command (a `powershell` key: Copilot CLI's, and VS Code's on Windows) that
/// runs the PowerShell launcher with `args`: it finds the project through `root_var` (which the
/// agent sets), else git, else the directory the hook runs in, runs the launcher's text as a
/// script block (no execution policy applies to one), and exits 2 with a message when the
/// launcher is not there. `args` are POSIX words (`hook copilot --rules rules`), requoted.
pub(super) fn powershell_command(root_var: Option<&str>, args: &str) -> String {
    let from_var = root_var.map(|var| format!("$r = $env:{var}; ")).unwrap_or_else(|| "$r = $null; ".to_string());
    let args = shlex::split(args)
        .unwrap_or_default()
        .iter()
        .map(|word| match word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=".contains(c)) {
            true => word.clone(),
            false => format!("'{}'", word.replace('\'', "''")),
        })
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "{from_var}if (-not $r) {{ try {{ $r = git rev-parse --show-toplevel 2>$null }} catch {{ }} }}; \
         if (-not $r) {{ $r = (Get-Location).Path }}; $l = Join-Path $r '.hookc\\hookc.ps1'; \
         if (-not (Test-Path -LiteralPath $l -PathType Leaf)) {{ [Console]::Error.WriteLine(\"hookc: no launcher at $l (run hookc init in the project); this call is blocked\"); exit 2 }}; \
         & ([scriptblock]::Create([IO.File]::ReadAllText($l))) $r {args}"
    )
}

/// Writes the launcher into `project` (or says what it would write), made executable.
pub(super) fn write(project: &Path, pin: &str, write: bool) -> Result<String, String> {
    if !write {
        return Ok(format!("would write the launchers `{PATH}` and `{POWERSHELL_PATH}` (pinned to hookc {pin})"));
    }
    let mut changed = false;
    for (name, text) in [(PATH, script(pin)), (POWERSHELL_PATH, powershell_script(pin))] {
        let path = project.join(name);
        if std::fs::read_to_string(&path).is_ok_and(|existing| existing == text) {
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|error| format!("cannot create `{}`: {error}", dir.display()))?;
        }
        std::fs::write(&path, &text).map_err(|error| format!("cannot write `{}`: {error}", path.display()))?;
        super::wiring::make_executable(&path).map_err(|error| format!("cannot make `{name}` executable: {error}"))?;
        changed = true;
    }
    Ok(match changed {
        true => format!("wrote the launchers `{PATH}` and `{POWERSHELL_PATH}` (pinned to hookc {pin}): commit them with the settings"),
        false => format!("the launchers `{PATH}` and `{POWERSHELL_PATH}` are up to date"),
    })
}

/// Whether this hookc's version is the one `required` names: the same, or `required` is a
/// prefix of it at a component boundary (`0.1` takes `0.1.3`).
pub(super) fn version_matches(required: &str) -> bool {
    let version = env!("CARGO_PKG_VERSION");
    let required = required.trim();
    required.is_empty()
        || version == required
        || version.strip_prefix(required).is_some_and(|rest| rest.starts_with('.') || rest.starts_with('-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An agent known to run hooks with `sh -c` or `bash -c` reads the launcher into that shell;
    /// any other gets an `sh -c` of its own, with the same script and arguments.
    #[test]
    fn the_command_starts_a_shell_of_its_own_only_where_the_agents_shell_is_not_known() {
        let posix = command(Some("CLAUDE_PROJECT_DIR"), "hook claude --rules 'my rules'", HookShell::Posix);
        assert!(posix.starts_with(r#"l="${CLAUDE_PROJECT_DIR:-$(git rev-parse"#), "{posix}");
        assert!(
            posix.ends_with(r#"this call is blocked" >&2; exit 2; }; hookc hook claude --rules 'my rules'"#),
            "{posix}"
        );
        let unknown = command(None, "hook codex --rules 'my rules'", HookShell::Unknown);
        assert!(unknown.starts_with("sh -c 'l=\"$(git rev-parse"), "{unknown}");
        assert!(unknown.ends_with(" hookc hook codex --rules 'my rules'"), "{unknown}");
        for wired in [&posix, &unknown] {
            let words = shlex::split(wired).unwrap_or_default();
            assert!(!words.is_empty(), "{wired} is not one shell line");
        }
    }
}
