//! The rule sets shipped inside the binary, so an installed hookc has them without a checkout:
//! `--rules builtin:baseline` is `rules/`, `--rules builtin:NAME` the pack `packs/NAME/`, and
//! `--rules builtin:packs` every pack. The table is built from those folders (`build.rs`).

include!(concat!(env!("OUT_DIR"), "/builtin.rs"));

/// The prefix that names a shipped rule set instead of a path.
pub const PREFIX: &str = "builtin:";

/// The files a shipped rule set's name stands for, in path order, each as `builtin:PATH` and
/// its text; `None` for a name that is none.
pub fn files(name: &str) -> Option<Vec<(String, &'static str)>> {
    let folder = format!("{}/", folder(name));
    let found: Vec<(String, &'static str)> = FILES
        .iter()
        .filter(|(path, _)| path.starts_with(&folder))
        .map(|(path, text)| (format!("{PREFIX}{path}"), *text))
        .collect();
    (!found.is_empty()).then_some(found)
}

/// The folder of the checkout a shipped rule set's name stands for (`rules`, `packs/NAME`).
pub fn folder(name: &str) -> String {
    match name {
        "baseline" => "rules".to_string(),
        "packs" => "packs".to_string(),
        pack => format!("packs/{pack}"),
    }
}

/// Every name `builtin:NAME` takes: `baseline`, `packs`, and each pack.
pub fn names() -> Vec<String> {
    let mut names = vec!["baseline".to_string(), "packs".to_string()];
    for (path, _) in FILES {
        if let Some(pack) = path.strip_prefix("packs/").and_then(|rest| rest.split_once('/')).map(|(pack, _)| pack) {
            if !names.iter().any(|name| name == pack) {
                names.push(pack.to_string());
            }
        }
    }
    names
}
