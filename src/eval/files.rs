//! The files a tool call touches, found once per event: every argument its profile names for
//! `path` (an array argument names several; a Codex patch names each file it adds, updates,
//! deletes or moves), each spelled by the path model, then — when the file system says a path
//! leads through a symlink — its target too. Evaluation judges the call once per file.

use crate::model::dedup_in_order_by;
use crate::model::event::Event;
use crate::paths::{Anchor, FilePath, PathCase, PathError, PathSettings};
use crate::vocab::patch::patch_paths;
use crate::vocab::tools::{Resolved, Source};
use crate::vocab::Semantic;
use serde_json::{Map, Value as Json};

/// Every file of one event, and how its paths are anchored and compared.
#[derive(Debug, Clone)]
pub struct Files<'e> {
    /// The files, each once, in the order the call names them (link targets after).
    pub files: Vec<FilePath>,
    /// The event's anchor, built the first time a path needs it (most calls name none).
    anchor: std::cell::OnceCell<Box<Anchor>>,
    event: &'e Event,
    settings: &'e PathSettings,
    /// The case rule.
    pub case: PathCase,
    /// The call's tool, resolved against the vocabulary.
    pub tool: Resolved,
}

impl<'e> Files<'e> {
    /// The files of `event`; `Err` if a path is invalid (a NUL byte).
    pub fn of(event: &'e Event, settings: &'e PathSettings) -> Result<Files<'e>, PathError> {
        let tool = event.tool_call().map(|call| Resolved::of(&call.tool)).unwrap_or_default();
        let mut files =
            Files { files: Vec::new(), anchor: std::cell::OnceCell::new(), event, settings, case: settings.case, tool };
        let Some(call) = event.tool_call() else { return Ok(files) };
        for raw in raw_paths(tool, &call.args) {
            let file = files.anchor().file(&raw)?;
            files.files.push(file);
        }
        if settings.follow_links && files.files.iter().any(|file| file.absolute.is_some()) {
            let targets: Vec<FilePath> =
                files.files.iter().filter_map(|file| files.anchor().resolve_links(file)).collect();
            files.files.extend(targets);
        }
        // One file is the common case: it pays for no set.
        if files.files.len() > 1 {
            dedup_in_order_by(&mut files.files, |file| file.canonical.clone());
        }
        Ok(files)
    }

    /// Where the event's paths are anchored.
    pub fn anchor(&self) -> &Anchor {
        self.anchor.get_or_init(|| {
            let common = &self.event.common;
            Box::new(
                Anchor::new(common.cwd.as_deref(), common.project_root.as_deref(), self.settings.home.as_deref())
                    .with_case(self.settings.case),
            )
        })
    }

    /// How many readings to judge: one per file, or one with no file.
    pub fn readings(&self) -> usize {
        self.files.len().max(1)
    }

    /// The file of reading `at`, if the call names any.
    pub fn reading(&self, at: usize) -> Option<usize> {
        (at < self.files.len()).then_some(at)
    }
}

/// The path texts a call names, as sent.
fn raw_paths(tool: Resolved, args: &Map<String, Json>) -> Vec<String> {
    match tool.source(Semantic::Path) {
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
