//! The files a tool call touches, found once per event: every argument its profile names for
//! `path` (an array argument names several; a Codex patch names each file it adds, updates,
//! deletes or moves), each spelled by the path model, then — when the file system says a path
//! leads through a symlink — its target too. Evaluation judges the call once per file.

use crate::model::event::Event;
use crate::paths::{Anchor, FilePath, PathCase, PathError, PathSettings};
use crate::vocab::patch::patch_paths;
use crate::vocab::tools::{source_of, Source};
use crate::vocab::Semantic;
use serde_json::{Map, Value as Json};
use std::collections::HashSet;

/// Every file of one event, and how its paths are anchored and compared.
#[derive(Debug, Clone)]
pub struct Files {
    /// The files, each once, in the order the call names them (link targets after).
    pub files: Vec<FilePath>,
    /// The event's anchor.
    pub anchor: Anchor,
    /// The case rule.
    pub case: PathCase,
}

impl Files {
    /// The files of `event`; `Err` if a path is invalid (a NUL byte).
    pub fn of(event: &Event, settings: &PathSettings) -> Result<Files, PathError> {
        let common = &event.common;
        let anchor = Anchor::new(common.cwd.as_deref(), common.project_root.as_deref(), settings.home.as_deref())
            .with_case(settings.case);
        let mut files = Files { files: Vec::new(), anchor, case: settings.case };
        let Some(call) = event.tool_call() else { return Ok(files) };
        let mut seen = HashSet::new();
        for raw in raw_paths(&call.tool, &call.args) {
            let file = files.anchor.file(&raw)?;
            if seen.insert(file.canonical.clone()) {
                files.files.push(file);
            }
        }
        if settings.follow_links {
            let targets: Vec<FilePath> =
                files.files.iter().filter_map(|file| files.anchor.resolve_links(file)).collect();
            for target in targets {
                if seen.insert(target.canonical.clone()) {
                    files.files.push(target);
                }
            }
        }
        Ok(files)
    }

    /// The readings to judge: one per file, or one with no file.
    pub fn readings(&self) -> Vec<Option<usize>> {
        if self.files.is_empty() {
            vec![None]
        } else {
            (0..self.files.len()).map(Some).collect()
        }
    }
}

/// The path texts a call names, as sent.
fn raw_paths(tool: &str, args: &Map<String, Json>) -> Vec<String> {
    match source_of(tool, Semantic::Path) {
        None => Vec::new(),
        Some(Source::Patch(names)) => {
            names.iter().find_map(|name| args.get(*name).and_then(Json::as_str)).map(patch_paths).unwrap_or_default()
        }
        Some(Source::Args(names)) => {
            let mut paths = Vec::new();
            for value in names.iter().filter_map(|name| args.get(*name)) {
                match value {
                    Json::String(path) => paths.push(path.clone()),
                    Json::Array(items) => paths.extend(items.iter().filter_map(Json::as_str).map(str::to_string)),
                    _ => {}
                }
            }
            paths
        }
    }
}
