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
//! a broken hook and run the call).

use std::path::Path;

/// Where the launcher lives, relative to the project root.
pub(super) const PATH: &str = ".hookc/hookc";

/// The launcher's text, pinned to `pin` (a version, or a prefix of one: `0.1`).
pub(super) fn script(pin: &str) -> String {
    format!(
        r#"#!/bin/sh
# hookc launcher, written by `hookc init`: commit it with the agents' settings. It finds hookc on
# this machine and runs it from the project root; when there is none it exits 2, so the agent
# blocks the call instead of running it unchecked. Search order: $HOOKC (an absolute path), each
# directory of PATH, ~/.cargo/bin, ~/.local/bin, /usr/local/bin, /opt/homebrew/bin. A hookc in
# the project, a node_modules/.bin, a .venv/bin or venv/bin, or a relative PATH entry is never
# used: the agent could have put it there. PIN is the hookc version this wiring expects.
PIN='{pin}'
fail() {{ printf 'hookc: %s\n' "$*" >&2; exit 2; }}
here=$(CDPATH= cd -- "$(dirname -- "$0")" 2>/dev/null && pwd -P) || fail "cannot find the launcher's directory"
root=$(dirname -- "$here")
usable() {{
    case "$1" in /*) ;; *) return 1 ;; esac
    [ -f "$1" ] && [ -x "$1" ] || return 1
    dir=$(CDPATH= cd -- "$(dirname -- "$1")" 2>/dev/null && pwd -P) || return 1
    case "$dir/" in
        "$root"/*) return 1 ;;
        */node_modules/.bin/ | */.venv/bin/ | */venv/bin/) return 1 ;;
    esac
    return 0
}}
found=
if [ -n "${{HOOKC:-}}" ] && usable "$HOOKC"; then found=$HOOKC; fi
if [ -z "$found" ]; then
    IFS_was=$IFS
    IFS=:
    for dir in $PATH ${{HOME:+$HOME/.cargo/bin}} ${{HOME:+$HOME/.local/bin}} /usr/local/bin /opt/homebrew/bin; do
        if usable "$dir/hookc"; then found=$dir/hookc; break; fi
    done
    IFS=$IFS_was
fi
[ -n "$found" ] || fail "no hookc $PIN found on this machine (searched \$HOOKC, PATH, ~/.cargo/bin, ~/.local/bin, /usr/local/bin, /opt/homebrew/bin; one inside the project is never used); install it, then try again. This call is blocked."
cd "$root" || fail "cannot enter the project root $root"
exec "$found" --require-version "$PIN" "$@"
"#
    )
}

/// The hook command that runs the launcher with `args` (`hook claude --rules rules`): it finds
/// the project through the agent's project variable, else git, else the directory the hook runs
/// in, and exits 2 with a message when the launcher is not there.
pub(super) fn command(project_var: Option<&str>, args: &str) -> String {
    let root = match project_var {
        Some(var) => format!("${{{var}:-$(git rev-parse --show-toplevel 2>/dev/null || pwd)}}"),
        None => "$(git rev-parse --show-toplevel 2>/dev/null || pwd)".to_string(),
    };
    let script = format!(
        "l=\"{root}/{PATH}\"; [ -f \"$l\" ] || {{ echo \"hookc: no launcher at $l (run hookc init in the project); this call is blocked\" >&2; exit 2; }}; exec sh \"$l\" \"$@\""
    );
    format!("sh -c {} hookc {args}", shlex::try_quote(&script).map(|quoted| quoted.into_owned()).unwrap_or_default())
}

/// Writes the launcher into `project` (or says what it would write), made executable.
pub(super) fn write(project: &Path, pin: &str, write: bool) -> Result<String, String> {
    let path = project.join(PATH);
    let text = script(pin);
    if !write {
        return Ok(format!("would write the launcher `{PATH}` (pinned to hookc {pin})"));
    }
    if std::fs::read_to_string(&path).is_ok_and(|existing| existing == text) {
        return Ok(format!("the launcher `{PATH}` is up to date"));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|error| format!("cannot create `{}`: {error}", dir.display()))?;
    }
    std::fs::write(&path, &text).map_err(|error| format!("cannot write `{}`: {error}", path.display()))?;
    super::wiring::make_executable(&path).map_err(|error| format!("cannot make `{PATH}` executable: {error}"))?;
    Ok(format!("wrote the launcher `{PATH}` (pinned to hookc {pin}): commit it with the settings"))
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
