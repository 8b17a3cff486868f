//! Lexical path normalisation, so that `./a`, `x/../a` and `/repo/a` (with `cwd` `/repo`) are
//! all `a` before any rule compares them. Nothing touches the file system.

/// Normalises a path: drops `.` segments and empty segments, resolves `..` against earlier
/// segments, and makes an absolute path under `cwd` relative to it. A `..` that would climb
/// above a relative path's start is kept, so it cannot be mistaken for a path inside the tree.
pub fn normalize(path: &str, cwd: Option<&str>) -> String {
    let path = path.replace('\\', "/");
    let absolute = path.starts_with('/');
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => match segments.last() {
                Some(&last) if last != ".." => {
                    segments.pop();
                }
                _ if absolute => {} // `/..` is `/`
                _ => segments.push(".."),
            },
            other => segments.push(other),
        }
    }
    if absolute {
        if let Some(relative) = cwd.and_then(|cwd| strip_cwd(&segments, cwd)) {
            return relative;
        }
        return format!("/{}", segments.join("/"));
    }
    if segments.is_empty() {
        return ".".to_string();
    }
    segments.join("/")
}

/// The path relative to `cwd`, if the (normalised, absolute) path is inside it.
fn strip_cwd(segments: &[&str], cwd: &str) -> Option<String> {
    let cwd = normalize(cwd, None);
    if !cwd.starts_with('/') {
        return None;
    }
    let cwd_segments: Vec<&str> = cwd.split('/').filter(|s| !s.is_empty()).collect();
    let rest = segments.strip_prefix(cwd_segments.as_slice())?;
    Some(if rest.is_empty() { ".".to_string() } else { rest.join("/") })
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn trivial_spellings_become_one() {
        for spelling in ["generated.txt", "./generated.txt", "x/../generated.txt", ".//generated.txt"] {
            assert_eq!(normalize(spelling, None), "generated.txt", "{spelling}");
        }
        assert_eq!(normalize("/repo/generated.txt", Some("/repo")), "generated.txt");
        assert_eq!(normalize("/repo/./src/../generated.txt", Some("/repo/")), "generated.txt");
    }

    #[test]
    fn paths_outside_stay_outside() {
        assert_eq!(normalize("../generated.txt", None), "../generated.txt");
        assert_eq!(normalize("/other/generated.txt", Some("/repo")), "/other/generated.txt");
        assert_eq!(normalize("/repository/a", Some("/repo")), "/repository/a");
        assert_eq!(normalize("/../etc/passwd", None), "/etc/passwd");
        assert_eq!(normalize("a/../..", None), "..");
    }
}
