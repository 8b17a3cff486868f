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
