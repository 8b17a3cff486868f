//! Helpers shared by the test modules.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The fixture folder.
pub fn fixtures(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(sub)
}

/// An agent's folder (`agents/ID`, agents/README.md), or with `""` the folder of them all.
pub fn agent_folder(id: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("agents").join(id)
}

/// The files in a fixture folder with the given extension, sorted.
pub fn fixture_files(sub: &str, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures(sub))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .{extension} fixtures in {sub}");
    files
}

/// Starts the real `hookc` binary with `args`, every stream piped (for a test that writes its
/// stdin late, or sets the environment).
pub fn spawn_hookc(args: &[&str], configure: impl FnOnce(&mut Command)) -> std::process::Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hookc"));
    command.args(args);
    configure(&mut command);
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

/// Runs the real `hookc` binary in `dir` with `stdin`.
pub fn hookc(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    hookc_with_env(dir, args, stdin, &std::collections::BTreeMap::new())
}

/// [`hookc`] with these environment variables set too.
pub fn hookc_with_env(
    dir: &Path,
    args: &[&str],
    stdin: &[u8],
    env: &std::collections::BTreeMap<String, String>,
) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hookc"))
        .args(args)
        .envs(env)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // The child may exit before reading everything (that is one of the behaviours under test).
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

/// [`hookc`] on the test clock (crates/core/src/clock.rs): its waits take no time, and what it
/// waited in all is returned with the output, read from the line it ends with.
pub fn hookc_on_test_clock(dir: &Path, args: &[&str], stdin: &[u8]) -> (Output, std::time::Duration) {
    let env = [("HOOKC_TEST_CLOCK".to_string(), "1".to_string())].into();
    let output = hookc_with_env(dir, args, stdin, &env);
    let text = stderr(&output);
    let waited = text
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("hookc: test clock: waited "))
        .unwrap_or_else(|| panic!("no test clock line (is the binary built with `test-clock`?): {text}"));
    let millis: u64 = waited.strip_suffix(" ms").and_then(|millis| millis.parse().ok()).unwrap();
    (output, std::time::Duration::from_millis(millis))
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A generator's choices read from a tape that proptest draws: each choice is the next number
/// modulo the options (0, the simplest, once the tape runs out). Shrinking the tape, shorter or
/// with smaller numbers, shrinks what a hand-written generator builds from it, so a failure
/// shrinks to a small case.
#[derive(Debug, Clone)]
pub struct Tape {
    choices: Vec<u32>,
    at: usize,
}

impl Tape {
    pub fn new(choices: Vec<u32>) -> Tape {
        Tape { choices, at: 0 }
    }
    pub fn below(&mut self, n: usize) -> usize {
        let choice = self.choices.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        choice as usize % n.max(1)
    }
}

/// Recomputes a binary bundle's block digests, their pages' digests and the header digest after
/// an edit of its payload: what anyone who can write the file can do, so only a signature stops
/// it. The layout (header version 4) is read from the bytes, as docs/bundle.md gives it.
pub fn rehash(bundle: &mut [u8]) {
    use sha2::{Digest, Sha256};
    let word = |at: usize| u32::from_le_bytes(bundle[at..at + 4].try_into().unwrap()) as usize;
    let (meta, block, count) = (word(12), word(16), word(20));
    let pages = count.div_ceil(128);
    let pages_at = 32 + meta;
    let header = pages_at + 32 * pages + 32;
    let payload = header + 32 * count;
    let digests: Vec<u8> = bundle[payload..].chunks(block).flat_map(|chunk| Sha256::digest(chunk).to_vec()).collect();
    bundle[header..payload].copy_from_slice(&digests);
    for (at, page) in digests.chunks(32 * 128).enumerate() {
        bundle[pages_at + 32 * at..pages_at + 32 * (at + 1)].copy_from_slice(&Sha256::digest(page));
    }
    let digest = Sha256::digest(&bundle[..header - 32]);
    bundle[header - 32..header].copy_from_slice(&digest);
}
