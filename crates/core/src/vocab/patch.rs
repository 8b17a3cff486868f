//! Codex's `apply_patch`: one call may add, update, delete or move several files. Rules see
//! each file as its own `path`, so `path == "generated.txt"` governs patches as it governs
//! `Write`; the strictest answer over the files wins (see `eval::files`).

/// The files a patch touches, in order, each once.
pub fn patch_paths(patch: &str) -> Vec<String> {
    const HEADERS: [&str; 4] = ["*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "];
    let mut paths: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for line in patch.lines() {
        let line = line.trim_start();
        if let Some(path) = HEADERS.iter().find_map(|header| line.strip_prefix(header)) {
            let path = path.trim();
            if !path.is_empty() && seen.insert(path) {
                paths.push(path.to_string());
            }
        }
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::patch_paths;

    #[test]
    fn every_file_of_a_patch_is_found() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Add File: generated.txt\n+z\n\
                     *** Update File: old.rs\n*** Move to: new.rs\n*** Delete File: src/a.rs\n*** End Patch\n";
        assert_eq!(patch_paths(patch), ["src/a.rs", "generated.txt", "old.rs", "new.rs"]);
        assert!(patch_paths("no headers").is_empty());
    }
}
