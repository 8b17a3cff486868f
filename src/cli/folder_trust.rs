//! Agents that run a project's hooks only in a folder their user trusted (`Trust::Folders`:
//! Copilot CLI's `trustedFolders` in `$COPILOT_HOME/config.json`). `doctor` reports a project
//! that is not trusted, whose hooks will not run; `init --trust` adds it to the list.

use super::wiring;
use crate::vocab::agents::schema::Home;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The trust list's file, and whether `project` is in it.
pub(super) struct State {
    /// The file the list is in.
    pub file: PathBuf,
    /// The project is a listed folder or under one.
    pub trusted: bool,
}

/// Reads whether `project` is trusted, in the list under `keys` of `home`/`file`.
pub(super) fn read(home: Home, file: &str, keys: &[&str], project: &Path) -> Result<State, String> {
    let file = wiring::home_dir(home).ok_or("cannot find the agent's home (is `$HOME` set?)")?.join(file);
    let trusted = match std::fs::read_to_string(&file) {
        Ok(text) => folders(&parse(&text, &file)?, keys).iter().any(|folder| contains(folder, project)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => false,
        Err(error) => return Err(format!("cannot read `{}`: {error}", file.display())),
    };
    Ok(State { file, trusted })
}

/// Adds `project` to the list (under the first of `keys`), keeping the rest of the file and its
/// leading comment lines; returns what was done.
pub(super) fn trust(home: Home, file: &str, keys: &[&str], project: &Path) -> Result<String, String> {
    let state = read(home, file, keys, project)?;
    let shown = state.file.display();
    if state.trusted {
        return Ok(format!("`{}` is already a trusted folder in `{shown}`", project.display()));
    }
    let old = match std::fs::read_to_string(&state.file) {
        Ok(text) => Some(text),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(format!("cannot read `{shown}`: {error}")),
    };
    let mut config = match &old {
        Some(text) => parse(text, &state.file)?,
        None => Value::Object(Default::default()),
    };
    let Some(object) = config.as_object_mut() else { return Err(format!("`{shown}` does not hold a JSON object")) };
    let key = keys.first().copied().unwrap_or("trustedFolders");
    let list = object.entry(key).or_insert_with(|| Value::Array(Vec::new()));
    let Some(list) = list.as_array_mut() else { return Err(format!("`{key}` in `{shown}` is not a list")) };
    list.push(Value::String(project.to_string_lossy().into_owned()));
    let comments: String = old
        .as_deref()
        .unwrap_or_default()
        .lines()
        .take_while(|line| line.trim_start().starts_with("//"))
        .map(|line| format!("{line}\n"))
        .collect();
    let text = comments + &serde_json::to_string_pretty(&config).map_err(|error| error.to_string())? + "\n";
    if let Some(dir) = state.file.parent() {
        std::fs::create_dir_all(dir).map_err(|error| format!("cannot create `{}`: {error}", dir.display()))?;
    }
    wiring::write_settings(&state.file, old.as_deref(), &text)?;
    Ok(format!("`{}` recorded as a trusted folder in `{shown}`", project.display()))
}

/// The folders listed under any of `keys`.
fn folders(config: &Value, keys: &[&str]) -> Vec<PathBuf> {
    keys.iter()
        .filter_map(|key| config.get(*key).and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
        .map(PathBuf::from)
        .collect()
}

/// Whether `project` is `folder` or under it, compared as resolved paths.
fn contains(folder: &Path, project: &Path) -> bool {
    let resolve = |path: &Path| std::fs::canonicalize(path).unwrap_or_else(|_| wiring::lexical(path));
    resolve(project).starts_with(resolve(folder))
}

/// JSON with `//` and `/* */` comments outside strings (the agent writes a comment header).
fn parse(text: &str, file: &Path) -> Result<Value, String> {
    serde_json::from_str(&strip_comments(text)).map_err(|error| format!("`{}` is not JSON: {error}", file.display()))
}

fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                in_string = !in_string;
                out.push(c);
            }
            '\\' if in_string => {
                out.push(c);
                out.extend(chars.next());
            }
            '/' if !in_string && chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if !in_string && chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_outside_strings_are_dropped_and_strings_are_kept() {
        let text = "// header\n// managed\n{\"a\": \"x // not a comment\", /* c */ \"b\": [\"/*y*/\", \"q\\\"//\"]}\n";
        let value: Value = serde_json::from_str(&strip_comments(text)).unwrap_or_default();
        assert_eq!(value["a"], "x // not a comment");
        assert_eq!(value["b"][0], "/*y*/");
        assert_eq!(value["b"][1], "q\"//");
    }
}
