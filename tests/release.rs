//! The release artefacts, tried as a user meets them: this build packed by `release/package.sh`,
//! signed with a test key, served from 127.0.0.1, and installed by `release/install.sh` and by
//! the GitHub Action's install step; the Homebrew formula and the cargo-binstall metadata read
//! against the same archive. Every pin of the release key and version is checked to agree.

#![cfg(target_os = "linux")]

use sha2::{Digest, Sha256};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// This machine's release target, as the archives are named.
fn target() -> String {
    format!("{}-unknown-linux-gnu", std::env::consts::ARCH)
}

/// Serves the files of `dir` over HTTP on 127.0.0.1 until the test ends; returns the base URL.
fn serve(dir: &Path) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = dir.to_path_buf();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = String::new();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            if reader.read_line(&mut request).is_err() {
                continue;
            }
            // Read the headers through to the blank line.
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request.split_whitespace().nth(1).unwrap_or("/").trim_start_matches('/').to_string();
            let file = (!path.contains("..")).then(|| dir.join(&path)).and_then(|file| std::fs::read(file).ok());
            let response = match file {
                Some(body) => [
                    format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len())
                        .into_bytes(),
                    body,
                ]
                .concat(),
                None => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
            };
            let _ = stream.write_all(&response);
        }
    });
    format!("http://127.0.0.1:{port}")
}

/// A release key for the test, and its public half as minisign spells it.
struct Key(minisign::KeyPair);

impl Key {
    fn new() -> Self {
        Key(minisign::KeyPair::generate_unencrypted_keypair().unwrap())
    }

    fn public(&self) -> String {
        self.0.pk.to_base64()
    }

    /// Writes `file.minisig`, a prehashed signature as `minisign -S` makes.
    fn sign(&self, file: &Path) {
        let data = std::fs::File::open(file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy();
        let signature =
            minisign::sign(Some(&self.0.pk), &self.0.sk, data, Some(&format!("hookc {name}")), Some("test signature"))
                .unwrap();
        std::fs::write(signature_of(file), signature.to_string()).unwrap();
    }
}

fn signature_of(file: &Path) -> PathBuf {
    PathBuf::from(format!("{}.minisig", file.display()))
}

/// The release key pinned in `release/minisign.pub`.
fn pinned_key() -> String {
    let text = std::fs::read_to_string(repo().join("release/minisign.pub")).unwrap();
    text.lines().nth(1).unwrap().trim().to_string()
}

/// The value of `NAME='…'` in `release/install.sh`.
fn install_sh_pin(name: &str) -> String {
    let text = std::fs::read_to_string(repo().join("release/install.sh")).unwrap();
    let prefix = format!("{name}='");
    let lines: Vec<&str> = text.lines().filter(|line| line.starts_with(&prefix)).collect();
    assert_eq!(lines.len(), 1, "one `{prefix}` line in install.sh");
    lines[0].trim_start_matches(&prefix).trim_end_matches('\'').to_string()
}

/// A copy of the repository's release folder whose install script pins `key` instead of the
/// release key: everything else is the shipped script.
fn release_dir_pinning(key: &Key, into: &Path) -> PathBuf {
    let release = into.join("release");
    std::fs::create_dir_all(&release).unwrap();
    let text = std::fs::read_to_string(repo().join("release/install.sh")).unwrap();
    let pinned = format!("PUBKEY='{}'", pinned_key());
    assert!(text.contains(&pinned), "install.sh pins the release key");
    std::fs::write(release.join("install.sh"), text.replace(&pinned, &format!("PUBKEY='{}'", key.public()))).unwrap();
    std::fs::copy(repo().join("release/pre-commit.sh"), release.join("pre-commit.sh")).unwrap();
    release
}

/// Packs this build as a release archive into `dist`, as the release does: stripped of the test
/// profile's debug information first, which is most of its size (a release build has none).
fn package(dist: &Path) -> PathBuf {
    let binary = dist.with_file_name("hookc");
    std::fs::copy(env!("CARGO_BIN_EXE_hookc"), &binary).unwrap();
    let _ = Command::new("strip").arg("--strip-debug").arg(&binary).status();
    let output = Command::new("sh")
        .arg(repo().join("release/package.sh"))
        .arg(&binary)
        .arg(target())
        .arg(dist)
        .output()
        .unwrap();
    assert!(output.status.success(), "package.sh: {}", String::from_utf8_lossy(&output.stderr));
    dist.join(format!("hookc-{}.tar.gz", target()))
}

fn install(script: &Path, base: &str, dest: &Path, extra: &[(&str, &str)]) -> Output {
    let mut command = Command::new("sh");
    command
        .arg(script)
        .env("HOOKC_BASE_URL", base)
        .env("HOOKC_INSTALL_DIR", dest)
        .env("HOOKC_TARGET", target())
        .env_remove("HOOKC_VERIFIER")
        .env_remove("HOOKC_CACHE_DIR");
    for (name, value) in extra {
        command.env(name, value);
    }
    command.output().unwrap()
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn sha256(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect()
}

fn has(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|output| output.status.success())
}

/// One archive, packed and signed once for every test here.
struct Release {
    _dir: tempfile::TempDir,
    root: PathBuf,
    dist: PathBuf,
    archive: PathBuf,
    key: Key,
    base: String,
}

fn release() -> &'static Release {
    static RELEASE: std::sync::OnceLock<Release> = std::sync::OnceLock::new();
    RELEASE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let dist = dir.path().join("dist");
        let archive = package(&dist);
        let key = Key::new();
        key.sign(&archive);
        let base = serve(&dist);
        Release { root: dir.path().to_path_buf(), _dir: dir, dist, archive, key, base }
    })
}

#[test]
fn the_install_script_installs_a_signed_archive_and_nothing_else() {
    let release = release();
    let scratch = tempfile::tempdir().unwrap();
    let script = release_dir_pinning(&release.key, scratch.path()).join("install.sh");
    let version = format!("hookc {}", env!("CARGO_PKG_VERSION"));

    let mut verifiers = vec!["openssl"];
    if has("minisign") {
        verifiers.push("minisign");
    } else {
        eprintln!("minisign is not installed here: the install script's minisign path is tried by release/check.sh");
    }
    for verifier in verifiers {
        let dest = scratch.path().join(format!("bin-{verifier}"));
        let output = install(&script, &release.base, &dest, &[("HOOKC_VERIFIER", verifier)]);
        assert!(output.status.success(), "{verifier}: {}", text(&output));
        assert!(text(&output).contains(&format!("signature verified with {verifier}")), "{}", text(&output));
        let installed = Command::new(dest.join("hookc")).arg("--version").output().unwrap();
        assert_eq!(String::from_utf8_lossy(&installed.stdout).trim(), version);
    }

    // Each way the download can be wrong installs nothing, with the reason.
    let other = Key::new();
    let bad = scratch.path().join("bad");
    let served = |name: &str, setup: &dyn Fn(&Path)| {
        let dir = bad.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        for file in [&release.archive, &signature_of(&release.archive)] {
            std::fs::copy(file, dir.join(file.file_name().unwrap())).unwrap();
        }
        setup(&dir.join(release.archive.file_name().unwrap()));
        serve(&dir)
    };
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "a changed byte",
            served("tampered", &|archive| {
                let mut bytes = std::fs::read(archive).unwrap();
                let middle = bytes.len() / 2;
                bytes[middle] ^= 1;
                std::fs::write(archive, bytes).unwrap();
            }),
            "does not verify",
        ),
        ("another key's signature", served("other-key", &|archive| other.sign(archive)), "does not verify"),
        (
            "a changed trusted comment",
            served("comment", &|archive| {
                let signature = signature_of(archive);
                let text = std::fs::read_to_string(&signature)
                    .unwrap()
                    .replace("trusted comment: hookc", "trusted comment: hookd");
                std::fs::write(signature, text).unwrap();
            }),
            "does not verify",
        ),
        (
            "no signature",
            served("unsigned", &|archive| std::fs::remove_file(signature_of(archive)).unwrap()),
            "cannot download the signature",
        ),
    ];
    let verifiers: Vec<&str> = ["openssl", "minisign"].into_iter().filter(|verifier| has(verifier)).collect();
    // Said, not silent: on a machine with neither, only the refusal of an unknown verifier
    // below is checked.
    for missing in ["openssl", "minisign"].into_iter().filter(|verifier| !verifiers.contains(verifier)) {
        eprintln!("skipped: install.sh's refusals through {missing} (no `{missing}` on PATH)");
    }
    for verifier in verifiers {
        for (what, base, says) in &cases {
            let dest = scratch.path().join("refused");
            let output = install(&script, base, &dest, &[("HOOKC_VERIFIER", verifier)]);
            assert_eq!(output.status.code(), Some(1), "{what} ({verifier}): {}", text(&output));
            assert!(text(&output).contains(says), "{what} ({verifier}): {}", text(&output));
            assert!(!dest.join("hookc").exists(), "{what} ({verifier}): nothing is installed");
        }
    }
    let output = install(&script, &release.base, &scratch.path().join("x"), &[("HOOKC_VERIFIER", "sha256sum")]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(!scratch.path().join("x/hookc").exists());
}

#[test]
fn the_shipped_install_script_refuses_an_archive_the_release_key_did_not_sign() {
    // The script as shipped, pinned to the release key: the test key's signature is refused.
    let release = release();
    let dest = tempfile::tempdir().unwrap();
    let output =
        install(&repo().join("release/install.sh"), &release.base, dest.path(), &[("HOOKC_VERIFIER", "openssl")]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(text(&output).contains("another key than hookc's release key"), "{}", text(&output));
    assert!(!dest.path().join("hookc").exists());
}

/// The GitHub Action's install step, run as the runner runs it: its `run` script under bash
/// with its `env`, the inputs given as a workflow would.
#[test]
fn the_action_downloads_verifies_and_caches_a_release() {
    let release = release();
    let action: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(repo().join("action.yml")).unwrap()).unwrap();
    let steps = action["runs"]["steps"].as_sequence().unwrap();
    let step = steps.iter().find(|step| step["id"].as_str() == Some("install")).expect("an install step");
    let script = step["run"].as_str().unwrap();
    let env = step["env"].as_mapping().unwrap();
    let default = |input: &str| action["inputs"][input]["default"].as_str().unwrap().to_string();
    assert_eq!(default("version"), env!("CARGO_PKG_VERSION"), "the action pins this release");
    assert_eq!(default("install"), "release");

    let scratch = tempfile::tempdir().unwrap();
    let action_path = scratch.path().join("action");
    release_dir_pinning(&release.key, &action_path);
    let temp = scratch.path().join("runner-temp");
    let github_path = scratch.path().join("github-path");
    let inputs =
        [("version", default("version")), ("release-url", release.base.clone()), ("install", default("install"))];
    let run = |inputs: &[(&str, String)]| {
        let mut command = Command::new("bash");
        command.args(["-e", "-c", script]).env("GITHUB_ACTION_PATH", &action_path).env("GITHUB_PATH", &github_path);
        // The one build this machine makes (a runner would fetch the musl one).
        command.env("HOOKC_TARGET", target());
        for (name, value) in env {
            let (name, value) = (name.as_str().unwrap(), value.as_str().unwrap());
            // Expand the step's `${{ inputs.X }}` and `${{ runner.temp }}` as the runner does.
            let mut value = value.replace("${{ runner.temp }}", &temp.display().to_string());
            for (input, given) in inputs {
                value = value.replace(&format!("${{{{ inputs.{input} }}}}"), given);
            }
            assert!(!value.contains("${{"), "an expression the test does not expand: {value}");
            command.env(name, value);
        }
        command.output().unwrap()
    };

    let output = run(&inputs);
    assert!(output.status.success(), "{}", text(&output));
    let bin = std::fs::read_to_string(&github_path).unwrap();
    let bin = Path::new(bin.trim());
    assert!(bin.starts_with(&temp), "the binary's folder is added to the PATH: {}", bin.display());
    let installed = Command::new(bin.join("hookc")).arg("--version").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&installed.stdout).trim(), format!("hookc {}", env!("CARGO_PKG_VERSION")));
    let cached = temp.join("hookc-download").join(env!("CARGO_PKG_VERSION")).join(release.archive.file_name().unwrap());
    assert!(cached.exists(), "the download is kept for the cache: {}", text(&output));

    // A second run takes the cached download, with no server, and checks it again.
    let inputs_offline = [
        ("version", default("version")),
        ("release-url", "http://127.0.0.1:9".into()),
        ("install", default("install")),
    ];
    let output = run(&inputs_offline);
    assert!(output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("using ") && text(&output).contains("signature verified"), "{}", text(&output));

    // A poisoned cache installs nothing.
    let mut bytes = std::fs::read(&cached).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&cached, bytes).unwrap();
    std::fs::remove_file(bin.join("hookc")).unwrap();
    let output = run(&inputs_offline);
    assert!(!output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("does not verify"), "{}", text(&output));
    assert!(!bin.join("hookc").exists());
}

#[test]
fn the_homebrew_formula_names_the_local_archive_and_its_sha256() {
    let release = release();
    let output = Command::new("sh")
        .arg(repo().join("release/formula.sh"))
        .args([env!("CARGO_PKG_VERSION"), &release.base])
        .arg(&release.dist)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output));
    let formula = String::from_utf8(output.stdout).unwrap();
    assert!(formula.contains(&format!("version \"{}\"", env!("CARGO_PKG_VERSION"))), "{formula}");
    // Only this machine's archive exists: the formula has exactly its platform.
    let block = if std::env::consts::ARCH == "x86_64" { "on_intel" } else { "on_arm" };
    let linux = formula.split("on_linux do").nth(1).expect("an on_linux section");
    let platform = linux.split(&format!("{block} do")).nth(1).expect("this machine's platform");
    let field = |name: &str| {
        let line = platform.lines().find(|line| line.trim_start().starts_with(name)).unwrap();
        line.split('"').nth(1).unwrap().to_string()
    };
    let url = field("url ");
    assert_eq!(url, format!("{}/hookc-{}.tar.gz", release.base, target()));
    assert_eq!(field("sha256 "), sha256(&release.archive));
    assert!(!formula.contains("on_macos"), "no macOS archive was built here: {formula}");
    // The URL serves the very bytes the sha256 names.
    let fetched = release.root.join("fetched.tar.gz");
    let curl = Command::new("curl").args(["-fsS", "-o"]).arg(&fetched).arg(&url).output().unwrap();
    assert!(curl.status.success(), "{}", text(&curl));
    assert_eq!(sha256(&fetched), field("sha256 "));
    // The checksum file beside the archive is what `sha256sum -c` reads.
    let check = Command::new("sha256sum")
        .args(["-c", &format!("hookc-{}.tar.gz.sha256", target())])
        .current_dir(&release.dist)
        .output();
    assert!(check.unwrap().status.success());
}

#[test]
fn every_pin_of_the_release_key_and_version_agrees() {
    let manifest: toml_edit::DocumentMut = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap().parse().unwrap();
    let binstall = &manifest["package"]["metadata"]["binstall"];
    assert_eq!(install_sh_pin("PUBKEY"), pinned_key(), "install.sh pins release/minisign.pub");
    assert_eq!(
        binstall["signing"]["pubkey"].as_str(),
        Some(pinned_key().as_str()),
        "cargo-binstall pins release/minisign.pub"
    );
    assert_eq!(binstall["signing"]["algorithm"].as_str(), Some("minisign"));
    assert_eq!(install_sh_pin("RELEASE"), env!("CARGO_PKG_VERSION"), "install.sh installs this version by default");

    // cargo-binstall's templates resolve to the archive package.sh makes and the signature
    // install.sh fetches.
    let fill = |template: &str| {
        template
            // The package takes its repository from the workspace (`repository.workspace = true`).
            .replace("{ repo }", manifest["workspace"]["package"]["repository"].as_str().unwrap())
            .replace("{ version }", env!("CARGO_PKG_VERSION"))
            .replace("{ name }", "hookc")
            .replace("{ target }", &target())
            .replace("{ archive-suffix }", ".tar.gz")
            .replace("{ bin }", "hookc")
            .replace("{ binary-ext }", "")
    };
    let url = fill(binstall["pkg-url"].as_str().unwrap());
    assert_eq!(
        url,
        format!(
            "https://github.com/hookc/hookc/releases/download/v{}/hookc-{}.tar.gz",
            env!("CARGO_PKG_VERSION"),
            target()
        )
    );
    assert_eq!(binstall["signing"]["file"].as_str().unwrap().replace("{ url }", &url), format!("{url}.minisig"));
    let release = release();
    let listing = Command::new("tar").arg("-tzf").arg(&release.archive).output().unwrap();
    let listing = String::from_utf8_lossy(&listing.stdout).to_string();
    let bin_dir = fill(binstall["bin-dir"].as_str().unwrap());
    assert!(listing.lines().any(|line| line == bin_dir), "{bin_dir} in {listing}");

    // The release build names the same archives (cargo-dist's configuration).
    let dist = std::fs::read_to_string(repo().join("dist-workspace.toml")).unwrap();
    assert!(dist.contains("unix-archive = \".tar.gz\""), "cargo-dist makes .tar.gz archives as install.sh expects");
    let script = std::fs::read_to_string(repo().join("release/install.sh")).unwrap();
    assert!(script.contains("\"$arch-unknown-linux-musl\"") && script.contains("\"$arch-apple-darwin\""));
    for target in
        ["x86_64-unknown-linux-musl", "aarch64-unknown-linux-musl", "x86_64-apple-darwin", "aarch64-apple-darwin"]
    {
        assert!(dist.contains(&format!("\"{target}\"")), "cargo-dist builds {target}, which install.sh fetches");
    }
}

#[test]
fn the_vscode_extension_names_its_repository_and_license_and_ships_only_its_own_files() {
    let dir = repo().join("editors/vscode");
    let package: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).unwrap()).unwrap();
    assert_eq!(package["version"], env!("CARGO_PKG_VERSION"), "the extension's version is the crate's");
    assert!(package["repository"]["url"].as_str().is_some_and(|url| url.starts_with("https://github.com/hookc/hookc")));
    let license = std::fs::read_to_string(dir.join("LICENSE")).unwrap();
    for text in ["LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(
            license.contains(std::fs::read_to_string(repo().join(text)).unwrap().trim()),
            "editors/vscode/LICENSE holds {text}"
        );
    }
    let ignore = std::fs::read_to_string(dir.join(".vscodeignore")).unwrap();
    assert!(
        ignore.lines().any(|line| line == "**/*.vsix")
            && ignore.lines().any(|line| line == "node_modules/@vscode/vsce/**")
    );
    let workflow = std::fs::read_to_string(repo().join(".github/workflows/vscode.yml")).unwrap();
    assert!(workflow.contains("vsce package"), "a workflow packages the extension");
}

#[test]
fn the_pre_commit_hooks_run_the_signed_release_installed_once() {
    let release = release();
    let scratch = tempfile::tempdir().unwrap();
    let script = release_dir_pinning(&release.key, scratch.path()).join("pre-commit.sh");
    let hooks: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).unwrap()).unwrap();
    for hook in hooks.as_sequence().unwrap() {
        assert_eq!(hook["language"], "script", "{hook:?}: no hook compiles hookc");
        assert!(hook["entry"].as_str().unwrap().starts_with("release/pre-commit.sh "), "{hook:?}");
    }
    let run = |base: &str| {
        Command::new("sh")
            .arg(&script)
            .arg("--version")
            .env("XDG_CACHE_HOME", scratch.path().join("cache"))
            .env("HOOKC_BASE_URL", base)
            .env("HOOKC_TARGET", target())
            .output()
            .unwrap()
    };
    let first = run(&release.base);
    assert!(first.status.success(), "{}", text(&first));
    assert!(text(&first).contains("signature verified"), "{}", text(&first));
    assert_eq!(String::from_utf8_lossy(&first.stdout).trim(), format!("hookc {}", env!("CARGO_PKG_VERSION")));
    // Installed once: the next run needs no server.
    let second = run("http://127.0.0.1:9");
    assert!(second.status.success(), "{}", text(&second));
    assert!(!text(&second).contains("downloading"), "{}", text(&second));
}
