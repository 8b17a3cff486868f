//! The workspace's layering, held where the compiler cannot see it: which hookc crates each crate
//! may depend on, which libraries stay out of the engine, and what the language bindings compile.
//! A crate's manifest is what the compiler enforces; these tests keep the manifests honest.

use std::collections::BTreeSet;
use std::path::Path;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A manifest's dependency names (normal dependencies, every target), dev-dependencies left out.
fn dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let doc: toml_edit::DocumentMut = text.parse().unwrap();
    let mut names = BTreeSet::new();
    let mut take = |table: &toml_edit::Item| {
        if let Some(table) = table.as_table_like() {
            names.extend(table.iter().map(|(name, _)| name.to_string()));
        }
    };
    take(&doc["dependencies"]);
    if let Some(targets) = doc.get("target").and_then(toml_edit::Item::as_table_like) {
        for (_, target) in targets.iter() {
            take(&target["dependencies"]);
        }
    }
    names
}

/// The libraries of the application (command line, editor, settings files, signing): never in
/// the engine, the protocols or the runtime, so no binding compiles them.
const APPLICATION_ONLY: [&str; 6] = ["clap", "clap_complete", "clap_mangen", "lsp-server", "toml_edit", "minisign"];

#[test]
fn each_crate_imports_only_the_layers_below_it() {
    // (crate folder, the hookc crates it may depend on)
    let layers: [(&str, &[&str]); 5] = [
        ("core", &[]),
        ("agents", &["hookc-core"]),
        ("runtime", &["hookc-core", "hookc-agents"]),
        ("signing", &["hookc-core"]),
        ("cli", &["hookc-core", "hookc-agents", "hookc-runtime", "hookc-signing"]),
    ];
    let folders: BTreeSet<String> = std::fs::read_dir(repo().join("crates"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let listed: BTreeSet<String> = layers.iter().map(|(name, _)| name.to_string()).collect();
    assert_eq!(folders, listed, "every crate under crates/ has its place in the layering here");
    for (name, allowed) in layers {
        let deps = dependencies(&repo().join("crates").join(name).join("Cargo.toml"));
        let hookc: BTreeSet<&str> = deps.iter().map(String::as_str).filter(|dep| dep.starts_with("hookc")).collect();
        assert_eq!(hookc, allowed.iter().copied().collect(), "crates/{name} depends on exactly these hookc crates");
        if name != "cli" {
            let application: Vec<&str> = APPLICATION_ONLY
                .into_iter()
                .filter(|lib| deps.contains(*lib) && !(name == "signing" && *lib == "minisign"))
                .collect();
            assert!(application.is_empty(), "crates/{name} depends on the application's {application:?}");
        }
    }
}

#[test]
fn the_bindings_compile_no_application_library() {
    for (binding, signing) in [("node", true), ("python", true), ("wasm", false)] {
        let lock = std::fs::read_to_string(repo().join("bindings").join(binding).join("Cargo.lock")).unwrap();
        let packages: BTreeSet<&str> =
            lock.lines().filter_map(|line| line.strip_prefix("name = \"")?.strip_suffix('"')).collect();
        assert!(packages.contains("hookc-core"), "bindings/{binding}/Cargo.lock is read (it lists hookc-core)");
        for lib in APPLICATION_ONLY.into_iter().chain(["hookc-cli"]) {
            let expected = lib == "minisign" && signing;
            assert_eq!(packages.contains(lib), expected, "bindings/{binding} compiles {lib}: {expected}");
        }
    }
}

/// An agent is one folder (agents/README.md): every agent in the table has its folder with its
/// data and fixtures, every folder is an agent in the table (the made-up `example` only with its
/// feature), and a folder holds only the files that README says which layer reads. Nothing else
/// in the crates names an agent's folder but the list that compiles its data, and the one file of
/// it another layer compiles (Codex's trust).
#[test]
fn every_agent_is_one_folder() {
    let root = repo().join("agents");
    let known = ["agent.rs", "fixtures.yaml", "client", "plugin.js", "trust.rs"];
    let mut folders = BTreeSet::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let entry = entry.unwrap();
        if !entry.file_type().unwrap().is_dir() {
            continue;
        }
        let id = entry.file_name().to_string_lossy().into_owned();
        for file in std::fs::read_dir(entry.path()).unwrap() {
            let name = file.unwrap().file_name().to_string_lossy().into_owned();
            assert!(known.contains(&name.as_str()), "agents/{id}/{name} is none of {known:?} (agents/README.md)");
        }
        assert!(entry.path().join("agent.rs").is_file(), "agents/{id} has no agent.rs");
        folders.insert(id);
    }
    let mut table: BTreeSet<String> = hookc::agents::AGENTS.iter().map(|agent| agent.id.to_string()).collect();
    table.insert("native".into());
    table.insert("example".into());
    assert_eq!(folders, table, "the folders under agents/ are the agents in the table");
    for id in &folders {
        let fixtures = root.join(id).join("fixtures.yaml");
        assert!(id == "native" || fixtures.is_file(), "agents/{id} has no fixtures.yaml");
    }
    let mut naming = Vec::new();
    for entry in walkdir::WalkDir::new(repo().join("crates")).into_iter().filter_map(Result::ok) {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        if text.contains("agents/") && text.contains("#[path") {
            naming.push(entry.path().strip_prefix(repo()).unwrap().display().to_string());
        }
    }
    naming.sort();
    assert_eq!(naming, ["crates/cli/src/wiring.rs", "crates/core/src/vocab/agents/mod.rs"], "{naming:?}");
}
