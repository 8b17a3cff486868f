//! Builds the table of rule sets shipped inside the binary (`--rules builtin:NAME`): every
//! `.rules` file under `rules/` (the baseline) and `packs/` (one folder a pack), so that adding a
//! pack is adding its folder.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    // `cfg(browser)`: WebAssembly with no operating system (wasm-bindgen in a browser), where
    // the clocks are JavaScript's (`src/clock.rs`) and there is no file system.
    println!("cargo:rustc-check-cfg=cfg(browser)");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_FAMILY") == "wasm" && var("CARGO_CFG_TARGET_OS") == "unknown" {
        println!("cargo:rustc-cfg=browser");
    }
    // The shipped rule sets live at the workspace root, two folders above this crate.
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default()).join("../..");
    let root = root.canonicalize().unwrap_or(root);
    let mut files = Vec::new();
    for dir in ["rules", "packs"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
        collect(&root.join(dir), &mut files);
    }
    files.sort();
    let mut table = String::from("/// Every shipped `.rules` file: its path in the repository and its text.\npub static FILES: &[(&str, &str)] = &[\n");
    for file in &files {
        let relative = file.strip_prefix(&root).unwrap_or(file).to_string_lossy().replace('\\', "/");
        let _ = writeln!(table, "    ({relative:?}, include_str!({:?})),", file.to_string_lossy());
    }
    table.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("builtin.rs");
    if let Err(error) = std::fs::write(&out, table) {
        println!("cargo:warning=cannot write {}: {error}", out.display());
    }
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rules") {
            files.push(path);
        }
    }
}
