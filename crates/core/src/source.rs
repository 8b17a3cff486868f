//! Source files and spans: where every AST node and diagnostic points.

use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
pub type FileId = u32;

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file the range is in.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets; offsets beyond `u32::MAX` saturate (files that large are refused
    /// when read, see [`MAX_SOURCE_BYTES`]).
    pub fn new(file: FileId, start: usize, end: usize) -> Self {
        let clamp = |offset: usize| u32::try_from(offset).unwrap_or(u32::MAX);
        Span { file, start: clamp(start), end: clamp(end) }
    }

    /// The byte range, for slicing source text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Rule files larger than this are refused: rule sets are written by people, and the limit keeps
/// every offset in a `u32`.
pub const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// One rule file's text and the name it is shown under.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as given (relative paths stay relative, so diagnostics read as the user typed).
    pub path: PathBuf,
    /// The file's contents.
    pub text: String,
    /// The name that enters the policy's identity: the path relative to the `--rules` argument
    /// it was found under, with `/` separators (a file given directly is its file name), so the
    /// same rules hash alike wherever they are checked out and however the path is spelled.
    pub identity: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// A source file from its path and text.
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> Self {
        let path = path.into();
        let identity =
            path.file_name().map_or_else(|| path.display().to_string(), |name| name.to_string_lossy().into_owned());
        SourceFile::named(path, identity, text)
    }

    /// A source file with its identity name given (see [`SourceFile::identity`]).
    pub fn named(path: impl Into<PathBuf>, identity: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1)).collect();
        SourceFile { path: path.into(), text, identity: identity.into(), line_starts }
    }

    /// The name used in diagnostics.
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line_starts.partition_point(|&start| start <= offset).max(1);
        let line_start = self.line_starts.get(line - 1).copied().unwrap_or(0);
        let column = self.text.get(line_start..offset).map_or(1, |s| s.chars().count() + 1);
        (line, column)
    }

    /// The byte range of the whole lines from the one holding `start` to the one holding `end`
    /// (each 1-based line's text with its line break), and the first one's number: found in the
    /// line index, at no cost in the file's size.
    pub fn lines_around(&self, start: usize, end: usize) -> (std::ops::Range<usize>, usize) {
        let line_of = |offset: usize| self.line_starts.partition_point(|&at| at <= offset).max(1);
        let (first, last) = (line_of(start), line_of(end.max(start)));
        let from = self.line_starts.get(first - 1).copied().unwrap_or(0);
        let to = self.line_starts.get(last).copied().unwrap_or(self.text.len());
        (from..to.max(from), first)
    }

    /// The text a span covers (empty if the span is not in this file's bounds).
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }
}

/// All files of a rule set, indexed by [`FileId`].
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// Adds a file and returns its id.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId::try_from(self.files.len() - 1).unwrap_or(FileId::MAX)
    }

    /// The file with this id.
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id as usize)
    }

    /// Every file with its id, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(id, file)| (id as FileId, file))
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether the map holds no file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        self.get(span.file).map_or("", |file| file.slice(span))
    }
}

/// Why rule files could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// `builtin:NAME` names no shipped rule set.
    #[error("`builtin:{name}` is no rule set shipped with hookc; the names are {names}")]
    UnknownBuiltin {
        /// The name given.
        name: String,
        /// The names there are.
        names: String,
    },
    /// The file or directory could not be read.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// What was being read.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The file is not UTF-8 text.
    #[error("`{path}` is not valid UTF-8 text")]
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// The file is larger than [`MAX_SOURCE_BYTES`].
    #[error("`{path}` is larger than the {limit}-byte limit for rule files")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit.
        limit: u64,
    },
    /// A directory held no `.rules` file, or no path was given.
    #[error("no `.rules` files found in {what}")]
    NoRules {
        /// The paths searched, for the message.
        what: String,
    },
}

/// Reads rule files: each path is a `.rules` file or a directory searched recursively for them.
/// Files are returned in path order, which is the order their rules are tried in.
pub fn read_rule_files(paths: &[PathBuf]) -> Result<SourceMap, ReadError> {
    read_listed(&list_rule_files(paths)?)
}

/// One rule file a policy's paths lead to, before it is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listed {
    /// A file on disk, with its identity name.
    File {
        /// Where it is read from.
        path: PathBuf,
        /// The name it is known by in the policy's identity.
        identity: String,
    },
    /// A rule set built into the binary (`builtin:NAME`).
    Builtin(String),
}

/// The rule files `paths` lead to, in the order they are read, without reading them: a directory
/// is walked, `builtin:NAME` named. Fails as [`read_rule_files`] does on a path that cannot be
/// walked or an unknown built-in set.
pub fn list_rule_files(paths: &[PathBuf]) -> Result<Vec<Listed>, ReadError> {
    let mut listed = Vec::new();
    for path in paths {
        // `builtin:NAME`: a rule set shipped inside the binary.
        if let Some(name) = path.to_str().and_then(|text| text.strip_prefix(crate::builtin::PREFIX)) {
            if crate::builtin::files(name).is_none() {
                return Err(ReadError::UnknownBuiltin {
                    name: name.to_string(),
                    names: crate::builtin::names().join(", "),
                });
            }
            listed.push(Listed::Builtin(name.to_string()));
            continue;
        }
        for found in find_files(std::slice::from_ref(path), |path| path.extension().is_some_and(|ext| ext == "rules"))?
        {
            let identity = identity_name(path, &found);
            listed.push(Listed::File { path: found, identity });
        }
    }
    if listed.is_empty() {
        let what = paths.iter().map(|p| format!("`{}`", p.display())).collect::<Vec<_>>();
        return Err(ReadError::NoRules { what: what.join(", ") });
    }
    Ok(listed)
}

/// Reads listed rule files.
pub fn read_listed(listed: &[Listed]) -> Result<SourceMap, ReadError> {
    let mut map = SourceMap::default();
    for entry in listed {
        match entry {
            Listed::Builtin(name) => {
                let files = crate::builtin::files(name).unwrap_or_default();
                let folder = format!("{}{}/", crate::builtin::PREFIX, crate::builtin::folder(name));
                for (path, text) in files {
                    let identity = path.strip_prefix(&folder).unwrap_or(&path).to_string();
                    map.add(SourceFile::named(path, identity, text));
                }
            }
            Listed::File { path, identity } => {
                let text = read_limited(path)?;
                map.add(SourceFile::named(path, identity.clone(), text));
            }
        }
    }
    Ok(map)
}

/// The files below `paths` that `wanted` accepts, in path order (a path that is a file is
/// taken as it is), each once. Links are followed; a link back to a directory being walked (a
/// loop) is skipped, as its files are found through that directory.
pub fn find_files(paths: &[PathBuf], wanted: impl Fn(&Path) -> bool) -> Result<Vec<PathBuf>, ReadError> {
    let mut found = Vec::new();
    for path in paths {
        let io = |source| ReadError::Io { path: path.clone(), source };
        if !std::fs::metadata(path).map_err(io)?.is_dir() {
            found.push(path.clone());
            continue;
        }
        for entry in walkdir::WalkDir::new(path).follow_links(true).sort_by_file_name() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) if error.loop_ancestor().is_some() => continue,
                Err(error) => {
                    let at = error.path().unwrap_or(path).to_path_buf();
                    return Err(ReadError::Io { path: at, source: error.into() });
                }
            };
            if entry.file_type().is_file() && wanted(entry.path()) {
                found.push(entry.into_path());
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    found.retain(|path| seen.insert(path.clone()));
    Ok(found)
}

/// A found file's name relative to the `--rules` argument it was found under, `/`-separated; a
/// file given directly is named by its file name.
fn identity_name(argument: &Path, found: &Path) -> String {
    let relative = found.strip_prefix(argument).ok().filter(|rest| !rest.as_os_str().is_empty());
    let name = relative.or_else(|| found.file_name().map(Path::new)).unwrap_or(found);
    name.components().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// Reads a file of at most [`MAX_SOURCE_BYTES`] as UTF-8.
fn read_limited(path: &Path) -> Result<String, ReadError> {
    use std::io::Read;
    let io = |source| ReadError::Io { path: path.to_path_buf(), source };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(ReadError::TooLarge { path: path.to_path_buf(), limit: MAX_SOURCE_BYTES });
    }
    String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8 { path: path.to_path_buf() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_from_one() {
        let file = SourceFile::new("a.rules", "ab\néx y\n");
        assert_eq!(file.line_col(0), (1, 1));
        assert_eq!(file.line_col(3), (2, 1));
        assert_eq!(file.line_col(6), (2, 3)); // after the two-byte `é` and `x`
    }
}
