//! Agents that run a project's hooks only in a folder their user trusted (`Trust::Folders`:
//! Copilot CLI's `trustedFolders` in `$COPILOT_HOME/config.json`, Gemini CLI's
//! `~/.gemini/trustedFolders.json`). `doctor` reports a project that is not trusted, whose hooks
//! will not run; `init --trust` records it as the agent's own trust prompt does.

use super::wiring;
use hookc_core::vocab::agents::schema::{FolderList, FolderTrust};
use hookc_core::vocab::agents::Agent;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The trust file, and whether `project` is trusted.
pub(super) struct State {
    /// The file trust is recorded in.
    pub file: PathBuf,
    /// The project is trusted, or the user turned the check off.
    pub trusted: bool,
    /// The user turned the check off (in this settings file).
    pub off_in: Option<PathBuf>,
}

/// Reads whether `project` is trusted.
pub(super) fn read(agent: &Agent, spec: &FolderTrust, project: &Path) -> Result<State, String> {
    let file = wiring::home_dir(spec.home).ok_or("cannot find the agent's home (is `$HOME` set?)")?.join(spec.file);
    let off_in = spec.off.and_then(|(pointer, value)| {
        wiring::settings_files(agent, project)
            .into_iter()
            .filter(|settings| settings.user || settings.managed)
            .find_map(|settings| {
                let text = std::fs::read_to_string(&settings.path).ok()?;
                let config = parse(&text, &settings.path).ok()?;
                (config.pointer(pointer) == Some(&Value::Bool(value))).then_some(settings.path)
            })
    });
    let trusted = off_in.is_some()
        || match std::fs::read_to_string(&file) {
            Ok(text) => trusts(&parse(&text, &file)?, spec.list, project),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => false,
            Err(error) => return Err(format!("cannot read `{}`: {error}", file.display())),
        };
    Ok(State { file, trusted, off_in })
}

/// Records `project` as trusted, keeping the rest of the file and its leading comment lines;
/// returns what was done.
pub(super) fn trust(agent: &Agent, spec: &FolderTrust, project: &Path) -> Result<String, String> {
    let state = read(agent, spec, project)?;
    let shown = state.file.display();
    if state.trusted {
        return Ok(format!("`{}` is already trusted", project.display()));
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
    let folder = project.to_string_lossy().into_owned();
    match spec.list {
        FolderList::Keys(keys) => {
            let key = keys.first().copied().unwrap_or("trustedFolders");
            let list = object.entry(key).or_insert_with(|| Value::Array(Vec::new()));
            let Some(list) = list.as_array_mut() else { return Err(format!("`{key}` in `{shown}` is not a list")) };
            list.push(Value::String(folder));
        }
        FolderList::Levels => {
            object.insert(folder, Value::String("TRUST_FOLDER".into()));
        }
    }
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

/// Whether the recorded trust covers `project`.
fn trusts(config: &Value, list: FolderList, project: &Path) -> bool {
    match list {
        FolderList::Keys(keys) => {
            let Some(project) = resolve(project) else { return false };
            keys.iter()
                .filter_map(|key| config.get(*key).and_then(Value::as_array))
                .flatten()
                .filter_map(Value::as_str)
                .any(|folder| resolve(Path::new(folder)).is_some_and(|folder| project.starts_with(folder)))
        }
        // The longest recorded folder that covers the project decides.
        FolderList::Levels => {
            let Some(project) = resolve(project) else { return false };
            let Some(entries) = config.as_object() else { return false };
            entries
                .iter()
                .filter_map(|(path, level)| {
                    let path = resolve(Path::new(path))?;
                    let (covered, trusted) = match level.as_str()? {
                        "TRUST_FOLDER" => (path, true),
                        "TRUST_PARENT" => (path.parent()?.to_path_buf(), true),
                        "DO_NOT_TRUST" => (path, false),
                        _ => return None,
                    };
                    project.starts_with(&covered).then_some((covered.components().count(), trusted))
                })
                .max_by_key(|(depth, _)| *depth)
                .is_some_and(|(_, trusted)| trusted)
        }
    }
}

/// A path as the agent compares it: resolved where it exists.
fn resolve(path: &Path) -> Option<PathBuf> {
    path.is_absolute().then(|| std::fs::canonicalize(path).unwrap_or_else(|_| wiring::lexical(path)))
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
