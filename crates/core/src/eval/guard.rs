//! hookc's own files, kept out of the agent's reach whatever the rules say: a call that writes,
//! truncates, moves or deletes the audit log, the bundle or its signature, the trust key or a
//! rule file the hook reads is refused before any rule is tried. The hook command names these
//! files (`PathSettings::guarded`), so a team's policy that forgets to protect them, or names
//! them by another spelling, still cannot be switched off by the agent it governs.

use super::files::Files;
use crate::model::event::Event;
use crate::model::result::{HookResult, Permission};
use crate::paths::{Guarded, PathCase};
use crate::shell::Access;
use crate::vocab::EventKind;

/// The name the audit record and `explain` give to a refusal of this guard.
pub(crate) const RULE: &str = "hookc/own-files";

/// The refusal, when the call writes one of the guarded files.
pub(crate) fn check(event: &Event, files: &Files<'_>, guarded: &[Guarded]) -> Option<HookResult> {
    if guarded.is_empty() || !matches!(event.kind(), EventKind::PreToolUse | EventKind::PermissionRequest) {
        return None;
    }
    let (written, what) =
        files.files.iter().zip(&files.access).filter(|(_, access)| **access == Some(Access::Write)).find_map(
            |(file, _)| {
                // A directory many things are written into (the project root, home, `/`, the
                // temp directory) is left to the rules as a holder (see `covers`).
                let shared = matches!(file.canonical.as_str(), "" | "." | "./")
                    || file.home.as_deref() == Some("~")
                    || file.spellings().any(|spelling| matches!(spelling, "/" | "/tmp" | "/var/tmp" | "/private/tmp"));
                let holds = !shared;
                let hit = file.spellings().find_map(|spelling| {
                    guarded.iter().find(|guard| covers(&guard.path, spelling, holds, files.case))
                })?;
                Some((file, hit.what))
            },
        )?;
    let mut result = HookResult::default();
    result.recommend(
        Permission::Deny,
        format!("{} belongs to the hook that governs this agent ({what}); a person changes it", written.canonical),
    );
    result.matched.push(RULE.to_string());
    Some(result)
}

/// Whether a write of `path` reaches `guarded`: it is the file, inside it (a rule directory), or
/// — when `holds` — a directory that holds it (`rm -r logs`, `mv logs elsewhere`), as the file
/// system compares names. The project root, home, `/` and the temp directory are not taken as
/// holding (`holds` is false): commands name them as the place they write into (`cp a.txt .`,
/// `mv build.log /tmp`), and deleting any of them whole is the baseline's to refuse.
fn covers(guarded: &str, path: &str, holds: bool, case: PathCase) -> bool {
    let (guarded, path) = (case.fold(guarded), case.fold(path.trim_end_matches('/')));
    let within = |outer: &str, inner: &str| {
        !outer.is_empty() && inner.strip_prefix(outer).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    within(&guarded, &path) || (holds && within(&path, &guarded))
}
