//! The one path model. Every path a rule compares — a rule's literal under any operator and an
//! event's value alike — goes through this module, so that the spellings an agent can choose for
//! one file are one path to every rule:
//!
//! - separators: `\` is `/`, repeated `/` is one, `.` segments go, `..` climbs lexically;
//! - Windows: `C:\repo\x` and `c:/repo/x` are the absolute path `C:/repo/x` on any host;
//! - anchoring: a relative value is joined to the event's `cwd`; a path inside the **project
//!   root** is spelled relative to it, anything else stays absolute, so `../repo/x`, `/repo/x`
//!   and `x` (cwd `/repo`, root `/repo`) are all `x`;
//! - each value also keeps its absolute spelling and, under the home directory, its `~/`
//!   spelling, so an absolute literal (`/home/alice/.ssh/id_rsa`) or a home literal
//!   (`~/.ssh/id_rsa`) matches the file whatever the cwd;
//! - symlinks: [`Anchor::resolve_links`] gives the file a link (or a linked directory on the way) leads
//!   to, which evaluation judges as a second reading of the call;
//! - case: [`PathCase`] folds case for matching where the host's file system does;
//! - a NUL byte makes a value invalid ([`PathError`]): evaluation fails closed.

use std::borrow::Cow;

/// How path comparisons treat letter case.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PathCase {
    /// `A.txt` and `a.txt` are different files (Linux and most Unix file systems).
    #[default]
    Sensitive,
    /// `A.txt` and `a.txt` are one file (the default file systems of macOS and Windows).
    Insensitive,
}

impl PathCase {
    /// The behaviour of the default file system of the host hookc was built for.
    pub fn host() -> PathCase {
        if cfg!(any(windows, target_os = "macos")) {
            PathCase::Insensitive
        } else {
            PathCase::Sensitive
        }
    }

    /// `text` as this setting compares it. Insensitive folding maps every character to one
    /// representative of its case class (lower, then upper, then lower: `ſ`, `S` and `s` are all
    /// `s`, as a case-insensitive regex matches them), character by character (unlike
    /// `str::to_lowercase`, which treats a final `Σ` apart), so a folded prefix is a prefix of the
    /// folded text: the index can fold its keys and lookups alike.
    pub fn fold<'t>(self, text: &'t str) -> Cow<'t, str> {
        match self {
            PathCase::Insensitive if text.chars().any(|c| fold_char(c).ne(std::iter::once(c))) => {
                Cow::Owned(text.chars().flat_map(fold_char).collect())
            }
            _ => Cow::Borrowed(text),
        }
    }
}

/// One character's case representative (see [`PathCase::fold`]).
fn fold_char(c: char) -> impl Iterator<Item = char> {
    c.to_lowercase().flat_map(char::to_uppercase).flat_map(char::to_lowercase)
}

/// How a policy reads the paths of events. Closed to struct literals outside this crate (a field
/// added later breaks no caller): start from [`PathSettings::default`] or
/// [`PathSettings::detached`] and set what differs with the `with_` methods.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PathSettings {
    /// Whether letter case matters.
    pub case: PathCase,
    /// Whether the machine's file system is read while judging a call: a path that leads
    /// through a symlink is judged as its target too, and a shell glob a command line names
    /// (`rm -rf ~/.ssh/*`) as every file it matches on the disk (bounded). Off, a path is judged
    /// as written and a glob as its own text.
    pub follow_links: bool,
    /// The home directory `~/` means.
    pub home: Option<String>,
    /// hookc's own files, which no call may write whatever the rules say: the audit log, the
    /// bundle and its signature, the trust key, the rule files (absolute; a directory covers
    /// what is in it). The hook command names them; see [`Guarded`].
    pub guarded: Vec<Guarded>,
}

/// One of hookc's own files, and what it is (`the audit log`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guarded {
    /// Its absolute path, links resolved where it exists.
    pub path: String,
    /// What it is, for the reason the agent reads.
    pub what: &'static str,
}

impl Guarded {
    /// `path` guarded as `what`, absolute with links resolved: the file's own, or (a file not
    /// made yet, like a new audit log) its directory's with its name; `None` when neither
    /// resolves or the name is not UTF-8.
    pub fn of(path: &std::path::Path, what: &'static str) -> Option<Guarded> {
        let resolved = std::fs::canonicalize(path).ok().or_else(|| {
            let name = path.file_name()?;
            let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
            Some(std::fs::canonicalize(dir).ok()?.join(name))
        })?;
        Guarded::resolved(&resolved, what)
    }

    /// `path`, already absolute with its links resolved, guarded as `what`; `None` when it is
    /// not UTF-8.
    pub fn resolved(path: &std::path::Path, what: &'static str) -> Option<Guarded> {
        Some(Guarded { path: path.to_str()?.replace('\\', "/"), what })
    }
}

/// An absolute `path` as the hook resolves an event's path: its longest existing prefix
/// resolved by the file system (links followed), the rest appended; `None` when it is not
/// absolute or not UTF-8.
pub fn resolve_as_far_as_it_exists(path: &std::path::Path) -> Option<std::path::PathBuf> {
    resolve_existing_prefix(path.to_str()?).map(|resolved| std::path::PathBuf::from(resolved.to_string()))
}

impl Default for PathSettings {
    /// The host's case rule, links followed, the process's home directory, nothing guarded.
    fn default() -> Self {
        PathSettings { case: PathCase::host(), follow_links: true, home: Anchor::process_home(), guarded: Vec::new() }
    }
}

impl PathSettings {
    /// Nothing read from the machine: links are not followed, `~` is no directory (an event's
    /// paths are anchored by its own `cwd` and root alone), nothing guarded. What a policy has
    /// in WebAssembly in a browser, which has no file system or environment; a policy built so
    /// decides alike on every machine.
    pub fn detached() -> PathSettings {
        PathSettings { case: PathCase::host(), follow_links: false, home: None, guarded: Vec::new() }
    }

    /// Letter case as `case` says.
    pub fn with_case(mut self, case: PathCase) -> Self {
        self.case = case;
        self
    }

    /// The machine's file system read (links followed, globs expanded) or not.
    pub fn with_follow_links(mut self, follow_links: bool) -> Self {
        self.follow_links = follow_links;
        self
    }

    /// `~/` as `home`, or as no directory.
    pub fn with_home(mut self, home: Option<String>) -> Self {
        self.home = home;
        self
    }

    /// These files guarded against every call's writes.
    pub fn with_guarded(mut self, guarded: Vec<Guarded>) -> Self {
        self.guarded = guarded;
        self
    }
}

/// Why a path value cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// A NUL byte: no file system accepts it, and a C API would cut the path there.
    #[error("the path `{0}` contains a NUL byte")]
    Nul(String),
}

/// Where an event's paths are anchored: its working directory, the project root and the home
/// directory, each already canonical and absolute.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Anchor {
    cwd: Option<Lexical>,
    root: Option<Lexical>,
    home: Option<Lexical>,
    case: PathCase,
    /// The root as the file system resolves it, found once for all the call's links.
    real_root: std::cell::OnceCell<Option<Lexical>>,
}

impl Anchor {
    /// The anchor of an event: relative `cwd`, `root` or `home` are ignored (they anchor
    /// nothing); a missing root is the cwd.
    pub fn new(cwd: Option<&str>, root: Option<&str>, home: Option<&str>) -> Anchor {
        let absolute = |text: Option<&str>| text.map(Lexical::parse).filter(Lexical::is_absolute);
        let cwd = absolute(cwd);
        let root = absolute(root).or_else(|| cwd.clone());
        Anchor { cwd, root, home: absolute(home), case: PathCase::Sensitive, real_root: std::cell::OnceCell::new() }
    }

    /// The same anchor, deciding what is inside the root or home under `case`.
    pub fn with_case(self, case: PathCase) -> Anchor {
        Anchor { case, ..self }
    }

    /// The home directory of the process (`HOME`, or `USERPROFILE` on Windows).
    pub fn process_home() -> Option<String> {
        std::env::var("HOME").or_else(|_| std::env::var("USERPROFILE")).ok().filter(|home| !home.is_empty())
    }

    /// One path value of an event, in every spelling rules may use.
    pub fn file(&self, raw: &str) -> Result<FilePath, PathError> {
        if raw.contains('\0') {
            return Err(PathError::Nul(raw.replace('\0', "\\0")));
        }
        if self.cwd.is_none() && is_plain_relative(raw) {
            return Ok(FilePath { canonical: raw.to_string(), absolute: None, home: None, physical: None });
        }
        let mut path = Lexical::parse(raw);
        // The path as the operating system will walk it: joined, but with every `..` in place,
        // since `link/..` is the parent of the link's target, not the directory holding the link.
        let mut physical = path.is_absolute().then(|| raw.to_string());
        if path.root == Root::Home {
            if let Some(home) = &self.home {
                physical = Some(format!("{home}/{}", raw.trim_start_matches('~')));
                path = home.join(&path.segments);
            }
        }
        if path.root == Root::None {
            if let Some(cwd) = &self.cwd {
                physical = Some(format!("{cwd}/{raw}"));
                path = cwd.join(&path.segments);
            }
        }
        let mut file = self.spell(&path);
        file.physical = physical;
        Ok(file)
    }

    fn spell(&self, path: &Lexical) -> FilePath {
        if !path.is_absolute() {
            return FilePath { canonical: path.to_string(), absolute: None, home: None, physical: None };
        }
        let inside = |base: &Option<Lexical>| base.as_ref().and_then(|base| path.relative_to(base, self.case));
        let absolute = path.to_string();
        // A file named `~` in the project is `./~`: `~` alone is the home directory.
        let canonical = inside(&self.root).map(literal_tilde).unwrap_or_else(|| absolute.clone());
        let home = inside(&self.home).map(|rest| if rest == "." { "~".to_string() } else { format!("~/{rest}") });
        FilePath { canonical, absolute: Some(absolute), home, physical: None }
    }

    /// The file a path leads to on this machine, if that is another file: the longest existing
    /// prefix of the path as the system walks it is resolved (links followed, `..` after a link
    /// climbing from its target), the rest appended. `None` when that is the file the lexical
    /// spelling names, or the path is not absolute.
    pub fn resolve_links(&self, file: &FilePath) -> Option<FilePath> {
        let lexical = Lexical::parse(file.absolute.as_deref()?);
        let resolved = resolve_existing_prefix(file.physical.as_deref()?)?;
        if resolved == lexical {
            return None;
        }
        let mut spelled = self.spell(&resolved);
        // A root reached through a link (`/tmp` → `/private/tmp`) still holds the project.
        let in_root = self.root.as_ref().and_then(|root| resolved.relative_to(root, self.case));
        if in_root.is_none() {
            let real_root = self
                .real_root
                .get_or_init(|| self.root.as_ref().and_then(|root| resolve_existing_prefix(&root.to_string())));
            if let Some(relative) = real_root.as_ref().and_then(|root| resolved.relative_to(root, self.case)) {
                spelled.canonical = relative;
            }
        }
        Some(spelled)
    }
}

/// Whether a relative path is already canonical: no `\`, drive, `~`, empty, `.` or `..` segment.
fn is_plain_relative(raw: &str) -> bool {
    !raw.is_empty()
        && !raw.starts_with(['/', '~'])
        && !raw.contains('\\')
        && raw.get(1..2).is_none_or(|second| second != ":")
        && raw.split('/').all(|segment| !matches!(segment, "" | "." | ".."))
}

/// Paths longer than this cannot be opened on Linux or macOS (`PATH_MAX`); they are not
/// resolved, so a long junk path cannot make a hook call slow.
const MAX_RESOLVED_BYTES: usize = 4096;

/// An absolute path with its longest existing prefix resolved by the file system, the rest
/// appended lexically. Walks forward and stops at the first component that does not exist (no
/// longer prefix can), so the cost is one `stat` per existing component.
fn resolve_existing_prefix(physical: &str) -> Option<Lexical> {
    let physical = physical.replace('\\', "/");
    // A drive letter is a root only on Windows; elsewhere `C:` is a relative name.
    let rooted = match Lexical::parse(&physical).root {
        Root::Slash => true,
        Root::Drive(_) => cfg!(windows),
        Root::None | Root::Home => false,
    };
    if physical.len() > MAX_RESOLVED_BYTES || !rooted {
        return None;
    }
    let mut ends: Vec<usize> = physical.match_indices('/').map(|(at, _)| at).filter(|at| *at > 0).collect();
    ends.push(physical.len());
    let mut existing = None;
    for end in ends {
        let prefix = physical.get(..end)?;
        if std::fs::symlink_metadata(prefix).is_err() {
            break;
        }
        existing = Some(end);
    }
    let end = existing.unwrap_or(1);
    let real = std::fs::canonicalize(physical.get(..end)?).ok()?;
    let rest: Vec<String> = physical.get(end..)?.split('/').map(str::to_string).collect();
    Some(Lexical::parse(&real.to_string_lossy()).join(&rest))
}

/// A file's `file://` URI (SARIF, the language server). `None` where the target has no file
/// paths (WebAssembly in a browser), as for a path the URI cannot spell.
pub(crate) fn file_url(path: &std::path::Path, directory: bool) -> Option<url::Url> {
    #[cfg(any(unix, windows))]
    return match directory {
        true => url::Url::from_directory_path(path).ok(),
        false => url::Url::from_file_path(path).ok(),
    };
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (path, directory);
        None
    }
}

/// The file a `file://` URI names ([`file_url`]'s inverse).
pub fn url_file(url: &url::Url) -> Option<std::path::PathBuf> {
    #[cfg(any(unix, windows))]
    return url.to_file_path().ok();
    #[cfg(not(any(unix, windows)))]
    {
        let _ = url;
        None
    }
}

/// One file as rules see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePath {
    /// Relative to the project root when inside it, else absolute; relative as written when
    /// the event says nothing to anchor it.
    pub canonical: String,
    /// The absolute spelling, when known.
    pub absolute: Option<String>,
    /// The `~/…` spelling, when the file is under the home directory.
    pub home: Option<String>,
    /// The path as the operating system walks it (joined to the cwd, `..` kept), for
    /// resolving links.
    pub physical: Option<String>,
}

impl FilePath {
    /// Whether the file lies outside the project root: its canonical spelling is absolute (a
    /// path the event gave nothing to anchor is taken as inside).
    pub fn is_outside_project(&self) -> bool {
        is_absolute(&self.canonical) || self.canonical.starts_with('~')
    }

    /// Every spelling, the canonical first.
    pub fn spellings(&self) -> impl Iterator<Item = &str> {
        let absolute = self.absolute.as_deref().filter(|absolute| *absolute != self.canonical);
        std::iter::once(self.canonical.as_str()).chain(absolute).chain(self.home.as_deref())
    }
}

/// Whether `path` is `base` or inside it, both taken as written (lexically, case-sensitively).
pub fn is_within(path: &str, base: &str) -> bool {
    Lexical::parse(path).relative_to(&Lexical::parse(base), PathCase::Sensitive).is_some()
}

/// A rule's path literal (`==`, `in`), spelled canonically: `./a`, `a//b/../a` → `a`;
/// `C:\x` → `C:/x`; `~/x` stays a home path.
pub fn literal(text: &str) -> String {
    Lexical::parse(text).to_string()
}

/// Whether a path text is absolute (`/x`, `C:\x`): it does not depend on a cwd.
pub fn is_absolute(text: &str) -> bool {
    Lexical::parse(text).is_absolute()
}

/// A rule's path prefix (`starts_with`): canonical like a literal, keeping a final `/` so that
/// `vendor/` does not match `vendorx`.
pub fn prefix(text: &str) -> String {
    let trailing = text.ends_with(['/', '\\']);
    let canonical = literal(text);
    if trailing && !canonical.ends_with('/') && canonical != "." {
        format!("{canonical}/")
    } else if canonical == "." {
        String::new()
    } else {
        canonical
    }
}

/// A fragment of a path (`contains`, `ends_with`): separators as `/`, repeated ones folded, so
/// `\.ssh\` finds `/.ssh/`. A leading `./` of a fragment is dropped.
pub fn fragment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let c = if c == '\\' { '/' } else { c };
        if c == '/' && out.ends_with('/') {
            continue;
        }
        out.push(c);
    }
    match out.strip_prefix("./") {
        // `./` alone stays: an empty fragment would match every path.
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => out,
    }
}

/// A rule's path glob (`like`): `./` segments and empty segments dropped, `..` after a literal
/// segment resolved. Wildcards and escapes are left as written (globs escape with `\`).
pub fn glob(pattern: &str) -> String {
    let absolute = pattern.starts_with('/');
    let mut segments: Vec<&str> = Vec::new();
    for segment in pattern.split('/') {
        match segment {
            "" | "." => {}
            ".." if segments.last().is_some_and(|last| !last.contains(GLOB_META) && *last != "..") => {
                segments.pop();
            }
            other => segments.push(other),
        }
    }
    let joined = segments.join("/");
    let drive_root = joined.len() == 2 && joined.ends_with(':') && pattern.len() > 2;
    if absolute {
        format!("/{joined}")
    } else if drive_root {
        // `C:/` is the drive's root, spelled as the path model spells it.
        format!("{joined}/")
    } else if joined.is_empty() {
        ".".to_string()
    } else {
        joined
    }
}

const GLOB_META: &[char] = &['*', '?', '[', ']', '{', '}', '\\'];

/// What a path starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Root {
    /// Relative.
    None,
    /// `/`.
    Slash,
    /// A Windows drive, upper case.
    Drive(char),
    /// `~`.
    Home,
}

/// A path split into segments, `.` and `..` resolved as far as they can be.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Lexical {
    root: Root,
    segments: Vec<String>,
}

impl Lexical {
    fn parse(text: &str) -> Lexical {
        let text = text.replace('\\', "/");
        // Windows verbatim and device prefixes (`\\?\C:\x`, `\\.\C:\x`) name the same file.
        let text = match text.strip_prefix("//?/").or_else(|| text.strip_prefix("//./")) {
            Some(rest) => rest.to_string(),
            None => text,
        };
        let (root, rest) = split_root(&text);
        let mut path = Lexical { root, segments: Vec::new() };
        path.push_all(rest.split('/'));
        path
    }

    fn is_absolute(&self) -> bool {
        matches!(self.root, Root::Slash | Root::Drive(_))
    }

    fn push_all<'s>(&mut self, segments: impl IntoIterator<Item = &'s str>) {
        for segment in segments {
            match segment {
                "" | "." => {}
                ".." => match self.segments.last() {
                    Some(last) if last != ".." => {
                        self.segments.pop();
                    }
                    // `/..` is `/`; a relative path keeps climbing, and so does `~/..` (the home
                    // directory is joined later, and `..` climbs out of it then).
                    _ if matches!(self.root, Root::Slash | Root::Drive(_)) => {}
                    _ => self.segments.push("..".to_string()),
                },
                other => self.segments.push(other.to_string()),
            }
        }
    }

    fn join(&self, rest: &[String]) -> Lexical {
        let mut joined = self.clone();
        joined.push_all(rest.iter().map(String::as_str));
        joined
    }

    /// This path relative to `base` (`.` for the base itself), if inside it under `case`.
    fn relative_to(&self, base: &Lexical, case: PathCase) -> Option<String> {
        if self.root != base.root || self.segments.len() < base.segments.len() {
            return None;
        }
        let (head, rest) = self.segments.split_at(base.segments.len());
        if head.iter().zip(&base.segments).any(|(a, b)| case.fold(a) != case.fold(b)) {
            return None;
        }
        Some(if rest.is_empty() { ".".to_string() } else { rest.join("/") })
    }
}

impl std::fmt::Display for Lexical {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let joined = self.segments.join("/");
        match &self.root {
            Root::None if joined.is_empty() => f.write_str("."),
            Root::None if self.segments.first().is_some_and(|first| first == "~") => write!(f, "./{joined}"),
            Root::None => f.write_str(&joined),
            Root::Slash => write!(f, "/{joined}"),
            Root::Drive(letter) => write!(f, "{letter}:/{joined}"),
            Root::Home if joined.is_empty() => f.write_str("~"),
            Root::Home => write!(f, "~/{joined}"),
        }
    }
}

/// A relative spelling whose first segment is `~`, kept apart from the home directory.
fn literal_tilde(relative: String) -> String {
    match relative == "~" || relative.starts_with("~/") {
        true => format!("./{relative}"),
        false => relative,
    }
}

/// The root of a `/`-separated path and the rest.
fn split_root(text: &str) -> (Root, &str) {
    let mut chars = text.chars();
    if let (Some(letter), Some(':')) = (chars.next(), chars.next()) {
        if letter.is_ascii_alphabetic() && matches!(chars.next(), None | Some('/')) {
            return (Root::Drive(letter.to_ascii_uppercase()), text.get(2..).unwrap_or(""));
        }
    }
    if let Some(rest) = text.strip_prefix('/') {
        return (Root::Slash, rest);
    }
    if text == "~" {
        return (Root::Home, "");
    }
    if let Some(rest) = text.strip_prefix("~/") {
        return (Root::Home, rest);
    }
    (Root::None, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(raw: &str, cwd: &str, root: Option<&str>) -> String {
        Anchor::new(Some(cwd), root, Some("/home/alice")).file(raw).unwrap().canonical
    }

    #[test]
    fn one_file_one_path_whatever_the_spelling() {
        for spelling in ["generated.txt", "./generated.txt", "x/../generated.txt", ".//generated.txt"] {
            assert_eq!(literal(spelling), "generated.txt", "{spelling}");
            assert_eq!(canonical(spelling, "/repo", None), "generated.txt", "{spelling}");
        }
        for spelling in ["../repo/generated.txt", "/repo/generated.txt", "/repo/./src/../generated.txt"] {
            assert_eq!(canonical(spelling, "/repo", None), "generated.txt", "{spelling}");
        }
        // The agent did `cd src`: the project root still anchors the spelling.
        assert_eq!(canonical("/repo/Cargo.lock", "/repo/src", Some("/repo")), "Cargo.lock");
        assert_eq!(canonical("../Cargo.lock", "/repo/src", Some("/repo")), "Cargo.lock");
        assert_eq!(canonical("lib.rs", "/repo/src", Some("/repo")), "src/lib.rs");
    }

    #[test]
    fn windows_paths_on_any_host() {
        assert_eq!(canonical(r"C:\repo\generated.txt", r"C:\repo", None), "generated.txt");
        assert_eq!(canonical(r"c:/repo/generated.txt", r"C:\repo", None), "generated.txt");
        assert_eq!(canonical(r"src\a.rs", r"C:\repo", None), "src/a.rs");
        assert_eq!(canonical(r"D:\other\x", r"C:\repo", None), "D:/other/x");
        assert_eq!(literal(r"C:\Users\me\.ssh\id_rsa"), "C:/Users/me/.ssh/id_rsa");
    }

    #[test]
    fn absolute_and_home_spellings_whatever_the_cwd() {
        for cwd in ["/home/alice", "/", "/repo"] {
            let file = Anchor::new(Some(cwd), None, Some("/home/alice")).file("/home/alice/.ssh/id_rsa").unwrap();
            assert!(file.spellings().any(|s| s == "/home/alice/.ssh/id_rsa"), "{cwd}: {file:?}");
            assert!(file.spellings().any(|s| s == "~/.ssh/id_rsa"), "{cwd}: {file:?}");
        }
        let file = Anchor::new(Some("/repo"), None, Some("/home/alice")).file("~/.ssh/id_rsa").unwrap();
        assert_eq!(file.absolute.as_deref(), Some("/home/alice/.ssh/id_rsa"));
        // `..` climbs out of the home directory once it is joined.
        let file = Anchor::new(Some("/repo"), None, Some("/home/alice")).file("~/../../repo/Cargo.lock").unwrap();
        assert_eq!(file.canonical, "Cargo.lock");
        assert_eq!(literal(r"\\?\C:\repo\x"), "C:/repo/x");
    }

    #[test]
    fn outside_stays_outside() {
        assert_eq!(canonical("/other/generated.txt", "/repo", None), "/other/generated.txt");
        assert_eq!(canonical("/repository/a", "/repo", None), "/repository/a");
        assert_eq!(canonical("/../etc/passwd", "/repo", None), "/etc/passwd");
        assert_eq!(canonical("../../etc/passwd", "/repo", None), "/etc/passwd");
        assert_eq!(Anchor::default().file("../generated.txt").unwrap().canonical, "../generated.txt");
        assert_eq!(Anchor::default().file("a/../..").unwrap().canonical, "..");
    }

    #[test]
    fn rule_literals_are_spelled_like_values() {
        assert_eq!(glob("./secrets/**"), "secrets/**");
        assert_eq!(glob("a//b/./c/../*.rs"), "a/b/*.rs");
        assert_eq!(glob("**/../x"), "**/../x");
        assert_eq!(prefix("./vendor/"), "vendor/");
        assert_eq!(prefix(r".\vendor\"), "vendor/");
        assert_eq!(prefix("./"), "");
        assert_eq!(fragment(r"\.ssh\"), "/.ssh/");
        assert_eq!(fragment("./x//y"), "x/y");
    }

    #[test]
    fn nul_bytes_are_refused() {
        assert!(Anchor::default().file("generated.txt\0.png").is_err());
    }

    #[test]
    fn case_folds_only_when_asked() {
        assert_eq!(PathCase::Insensitive.fold("Generated.TXT"), "generated.txt");
        assert_eq!(PathCase::Sensitive.fold("Generated.TXT"), "Generated.TXT");
    }

    #[test]
    fn links_lead_to_their_targets() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("generated.txt"), "x").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("generated.txt"), root.join("link.txt")).unwrap();
            std::os::unix::fs::symlink(&root, root.join("loop")).unwrap();
            let root_text = root.to_string_lossy().to_string();
            let anchor = Anchor::new(Some(&root_text), None, None);
            let link = anchor.file("link.txt").unwrap();
            assert_eq!(anchor.resolve_links(&link).unwrap().canonical, "generated.txt");
            let through_dir = anchor.file("loop/loop/new-file.txt").unwrap();
            assert_eq!(anchor.resolve_links(&through_dir).unwrap().canonical, "new-file.txt");
            assert_eq!(anchor.resolve_links(&anchor.file("generated.txt").unwrap()), None);
            // The system walks `link/..` from the link's target, not from the link's directory.
            std::fs::create_dir_all(root.join("outside/sub")).unwrap();
            std::os::unix::fs::symlink(root.join("outside/sub"), root.join("l")).unwrap();
            let climbed = anchor.file("l/../secret.txt").unwrap();
            assert_eq!(climbed.canonical, "secret.txt");
            assert_eq!(anchor.resolve_links(&climbed).unwrap().canonical, "outside/secret.txt");
            // A long junk path costs one stat per existing component, and nothing past PATH_MAX.
            let junk = format!("{}x", "a/".repeat(20_000));
            let started = std::time::Instant::now();
            assert_eq!(anchor.resolve_links(&anchor.file(&junk).unwrap()), None);
            assert!(started.elapsed() < std::time::Duration::from_secs(1));
        }
    }
}
