//! The compiled-rules cache `--rules` hooks keep: it answers as the rules do, never misses a
//! change, rebuilds what is broken or foreign, is not used where it is not safely this user's,
//! builds once when calls start together, and cannot be written by the agent it governs.

use crate::support::stderr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const DENY_RM: &str = "pre_tool_use when runs rm => deny \"no rm\"\n";

struct Setup {
    _dir: tempfile::TempDir,
    project: PathBuf,
    cache_home: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        std::fs::create_dir_all(project.join("rules")).unwrap();
        std::fs::write(project.join("rules/a.rules"), DENY_RM).unwrap();
        let cache_home = dir.path().join("cache");
        Setup { project, cache_home, _dir: dir }
    }

    fn cache(&self) -> PathBuf {
        self.cache_home.join("hookc")
    }

    fn entries(&self) -> Vec<PathBuf> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(self.cache())
            .map(|listing| {
                listing
                    .flatten()
                    .map(|entry| entry.path())
                    .filter(|path| path.extension().is_some_and(|ext| ext == "bundle"))
                    .collect()
            })
            .unwrap_or_default();
        entries.sort();
        entries
    }

    fn spawn(&self, command: &str) -> std::process::Child {
        let payload = serde_json::json!({"hook_event_name": "PreToolUse", "cwd": self.project, "tool_name": "Bash", "tool_input": {"command": command}});
        let mut child = Command::new(env!("CARGO_BIN_EXE_hookc"))
            .args(["hook", "claude", "--rules", "rules"])
            .current_dir(&self.project)
            .env("XDG_CACHE_HOME", &self.cache_home)
            .env("CLAUDE_PROJECT_DIR", &self.project)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), payload.to_string().as_bytes()).unwrap();
        child
    }

    /// Whether the hook denies `command`.
    fn denies(&self, command: &str) -> bool {
        let output: Output = self.spawn(command).wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        String::from_utf8_lossy(&output.stdout).contains("\"deny\"")
    }
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
#[test]
fn the_cache_answers_as_the_rules_do_and_never_misses_a_change() {
    let setup = Setup::new();
    assert!(setup.denies("rm x"));
    let entries = setup.entries();
    assert_eq!(entries.len(), 1, "the first call keeps its compilation");
    assert_eq!(mode(&setup.cache()), 0o700);
    assert_eq!(mode(&entries[0]), 0o600);
    assert!(setup.denies("rm x"), "from the cache");
    assert!(!setup.denies("ls"));

    // A changed rule file is a new policy at once: same size, same second.
    std::fs::write(setup.project.join("rules/a.rules"), DENY_RM.replace("rm", "ls")).unwrap();
    assert!(!setup.denies("rm x") && setup.denies("ls"), "the change is seen");
    // A file added, and the order of files, are the policy's identity too.
    std::fs::write(setup.project.join("rules/b.rules"), DENY_RM).unwrap();
    assert!(setup.denies("rm x") && setup.denies("ls"));
    std::fs::remove_file(setup.project.join("rules/b.rules")).unwrap();
    assert!(!setup.denies("rm x"));
    // Rules that do not load are not kept, and block.
    let before = setup.entries();
    std::fs::write(setup.project.join("rules/a.rules"), "pre_tool_use when (\n").unwrap();
    let output = setup.spawn("ls").wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2), "a broken policy blocks: {}", stderr(&output));
    assert_eq!(setup.entries(), before);
}

#[cfg(unix)]
#[test]
fn a_broken_or_foreign_entry_is_rebuilt_and_never_followed() {
    let setup = Setup::new();
    assert!(setup.denies("rm x"));
    let entry = setup.entries().remove(0);
    // Garbage, another policy's bundle, an entry of another user's mode: rebuilt.
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("allow.rules"), "pre_tool_use when runs ls => deny \"ls\"\n").unwrap();
    let compiled = Command::new(env!("CARGO_BIN_EXE_hookc"))
        .args(["compile", "allow.rules", "-o", "allow.json"])
        .current_dir(other.path())
        .output()
        .unwrap();
    assert!(compiled.status.success());
    let foreign = std::fs::read(other.path().join("allow.json")).unwrap();
    let holds_ls = |bytes: &[u8]| bytes.windows(4).any(|window| window == b"\"ls\"");
    for (what, bytes) in [
        ("garbage", b"not a bundle".to_vec()),
        ("another policy", foreign.clone()),
        ("truncated", foreign[..foreign.len() / 2].to_vec()),
    ] {
        std::fs::write(&entry, bytes).unwrap();
        assert!(setup.denies("rm x") && !setup.denies("ls"), "{what}: decided by the rules");
        assert!(!holds_ls(&std::fs::read(&entry).unwrap()), "{what}: the entry was rebuilt");
    }
    // What the cache cannot tell: an entry forged with the policy's identity is used. This is
    // why the agent must not write it (the next test, and SECURITY.md).
    let real = std::fs::read(&entry).unwrap();
    let identity_of = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes).into_owned();
        text.split("\"source_hash\":\"").nth(1).unwrap().split('"').next().unwrap().to_string()
    };
    let (identity, forged_identity) = (identity_of(&real), identity_of(&foreign));
    let at = foreign.windows(forged_identity.len()).position(|window| window == forged_identity.as_bytes()).unwrap();
    let mut forged = foreign.clone();
    forged[at..at + identity.len()].copy_from_slice(identity.as_bytes());
    crate::support::rehash(&mut forged);
    std::fs::write(&entry, forged).unwrap();
    assert!(setup.denies("ls") && !setup.denies("rm x"), "the forged entry decided: the cache is what the hook loads");
    // A symlink in the entry's place is never followed.
    std::fs::remove_file(&entry).unwrap();
    std::fs::write(other.path().join("target.bundle"), &foreign).unwrap();
    std::os::unix::fs::symlink(other.path().join("target.bundle"), &entry).unwrap();
    assert!(setup.denies("rm x") && !setup.denies("ls"));
    assert_eq!(std::fs::read(other.path().join("target.bundle")).unwrap(), foreign, "the link's target is untouched");
}

#[cfg(unix)]
#[test]
fn a_cache_that_is_not_safely_this_users_is_not_used() {
    use std::os::unix::fs::PermissionsExt;
    // A directory others could write: decided by the rules, nothing kept.
    let setup = Setup::new();
    std::fs::create_dir_all(setup.cache()).unwrap();
    std::fs::set_permissions(setup.cache(), std::fs::Permissions::from_mode(0o777)).unwrap();
    assert!(setup.denies("rm x") && !setup.denies("ls"));
    assert!(setup.entries().is_empty(), "nothing kept in a 777 directory");
    let doctor = Command::new(env!("CARGO_BIN_EXE_hookc"))
        .args(["doctor", "claude"])
        .current_dir(&setup.project)
        .env("XDG_CACHE_HOME", &setup.cache_home)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&doctor.stdout);
    assert!(said.contains("its mode is 777") && said.contains("problem"), "{said}");

    // A symlinked component: not used either.
    let setup = Setup::new();
    let real = setup.cache_home.with_file_name("real-cache");
    std::fs::create_dir_all(&real).unwrap();
    std::os::unix::fs::symlink(&real, &setup.cache_home).unwrap();
    assert!(setup.denies("rm x") && !setup.denies("ls"));
    assert_eq!(std::fs::read_dir(&real).unwrap().count(), 0, "nothing made through the link");
}

#[cfg(unix)]
#[test]
fn calls_that_start_together_build_the_cache_once_and_all_decide() {
    let setup = Setup::new();
    let children: Vec<_> = (0..8).map(|at| setup.spawn(if at % 2 == 0 { "rm x" } else { "ls" })).collect();
    for (at, child) in children.into_iter().enumerate() {
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(String::from_utf8_lossy(&output.stdout).contains("\"deny\""), at % 2 == 0);
    }
    assert_eq!(setup.entries().len(), 1);
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(setup.cache())
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|name| name == "lock" || name.ends_with(".bundle")), "{names:?}");
}

#[cfg(unix)]
#[test]
fn the_agent_cannot_write_the_cache() {
    let setup = Setup::new();
    assert!(setup.denies("rm x"));
    let cache = setup.cache().display().to_string();
    for command in [
        format!("mv {cache} /tmp/elsewhere"),
        format!("cp /dev/null {cache}/x.bundle"),
        format!("truncate -s 0 {cache}/lock"),
    ] {
        let output = setup.spawn(&command).wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(said.contains("\"deny\"") && said.contains("compiled-rules cache"), "{command}: {said}");
    }
}

/// An entry whose blocks do not verify (the header does) fails the call that reads them closed,
/// is dropped, and the next call compiles the rules again.
#[cfg(unix)]
#[test]
fn an_entry_whose_blocks_do_not_verify_fails_closed_once_then_is_rebuilt() {
    let setup = Setup::new();
    assert!(setup.denies("rm x"));
    let entry = setup.entries().remove(0);
    let mut bytes = std::fs::read(&entry).unwrap();
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let header = 32 + word(12) + 32 * word(20) + 32;
    bytes[header..].iter_mut().for_each(|byte| *byte ^= 0xff);
    std::fs::write(&entry, &bytes).unwrap();
    let failed = setup.spawn("rm x").wait_with_output().unwrap();
    assert_eq!(failed.status.code(), Some(2), "fails closed: {}", stderr(&failed));
    assert!(stderr(&failed).contains("does not match its digest"), "{}", stderr(&failed));
    assert!(!entry.exists(), "the broken entry was dropped");
    assert!(setup.denies("rm x") && entry.exists(), "rebuilt");
}

/// The metadata guard: once the rule files have settled, a call takes the policy identity from
/// the stamp instead of hashing the files (a stamp pointing elsewhere is followed, which is how
/// the test sees it is used); any edit moves the file's change time, which the stamp cannot
/// match, even one that keeps the size and sets the modification time back; and a file added
/// to the directory is seen.
#[cfg(unix)]
#[test]
fn the_metadata_guard_skips_hashing_only_while_no_file_changed() {
    let setup = Setup::new();
    let rules = setup.project.join("rules/a.rules");
    // Another policy's entry, to point a stamp at.
    std::fs::write(&rules, "pre_tool_use when runs ls => deny \"ls\"\n").unwrap();
    assert!(setup.denies("ls"));
    let ls_entry = setup.entries().remove(0);
    std::fs::write(&rules, DENY_RM).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(3_300));
    assert!(setup.denies("rm x") && !setup.denies("ls"), "hashed, and the stamp written");
    let stamps: Vec<PathBuf> = std::fs::read_dir(setup.cache())
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "stamp"))
        .collect();
    assert_eq!(stamps.len(), 1, "one stamp for one listing");
    let stamp = std::fs::read_to_string(&stamps[0]).unwrap();
    let ls_identity = String::from_utf8_lossy(&std::fs::read(&ls_entry).unwrap())
        .split("\"source_hash\":\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let mut stamped: serde_json::Value = serde_json::from_str(&stamp).unwrap();
    stamped["identity"] = ls_identity.into();
    std::fs::write(&stamps[0], stamped.to_string()).unwrap();
    assert!(setup.denies("ls") && !setup.denies("rm x"), "the stamp vouched: the files were not hashed");

    // An edit of the same size, its modification time set back: the change time moved.
    let modified = std::fs::metadata(&rules).unwrap().modified().unwrap();
    std::fs::write(&rules, DENY_RM.replace("no rm", "No rm")).unwrap();
    std::fs::File::options().write(true).open(&rules).unwrap().set_modified(modified).unwrap();
    assert!(setup.denies("rm x") && !setup.denies("ls"), "the edit was seen");
    let output = setup.spawn("rm x").wait_with_output().unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).contains("No rm"), "the new text decided");

    // A file added to the directory is part of the listing.
    std::fs::write(setup.project.join("rules/b.rules"), "pre_tool_use when runs cp => deny \"cp\"\n").unwrap();
    assert!(setup.denies("cp x"));
}
