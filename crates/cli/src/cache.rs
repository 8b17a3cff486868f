//! The compiled-rules cache: `--rules` compiles the rule files once and keeps the result, so a
//! later call loads it as it would a bundle instead of checking and compiling every rule again.
//!
//! - **Key.** An entry is found by the policy's identity (the content hash of every rule file,
//!   its name and the read order: `bundle::source_hash`), this hookc's version and the bundle
//!   format; the entry must also name that identity itself, or it is rebuilt.
//! - **Metadata guard.** Reading and hashing every rule file on every call costs time in
//!   proportion to the policy (20 ms at 100,000 rules). So after hashing them a call records, in
//!   a *stamp* beside the entries (keyed by this hookc and the files listed, in order), each
//!   file's size, inode, device, and modification and change times (nanoseconds), with the
//!   identity. A later call lists the files again (a directory is walked every call, so an
//!   added, removed or renamed file is seen), stats each, and takes the identity from the stamp
//!   only when every figure is unchanged and every file's times are more than
//!   [`RACY_SECONDS`] older than when the stamp's figures were taken, so that an edit within the
//!   clock granularity of a coarse file system cannot hide behind an unchanged time (git's
//!   "racily clean" rule). The change time cannot be set back by a user (any write, rename or
//!   `touch -d` moves it to now), so a changed file is never missed: it is hashed again.
//! - **Place.** `$XDG_CACHE_HOME/hookc` (else `~/.cache/hookc`; `~/Library/Caches/hookc` on
//!   macOS), a directory owned by this user with mode 0700, none of whose components is a
//!   symlink. Entries are 0600 files written atomically (a temporary file renamed into place),
//!   opened without following links, owned by this user. Parallel first calls take a lock and
//!   build an entry once. The oldest entries are evicted past [`MAX_ENTRIES`] or [`MAX_BYTES`].
//! - **Trust.** An entry is verified as a bundle is (its digest), and never trusted across
//!   releases (the version is in the key). A corrupt, foreign or stale
//!   entry is rebuilt; a cache that cannot be used safely is not used, and the rules are compiled
//!   as if there were none. The cache holds no secret: an agent running as the same user could
//!   write an entry, which is why the baseline and the hook's own-files guard refuse writes to it
//!   (SECURITY.md). Only Unix keeps a cache; elsewhere the rules are compiled on every call.

use hookc_core::{bundle, LoadError, Policy};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The most entries kept: past it the oldest are evicted.
pub const MAX_ENTRIES: usize = 32;
/// The most bytes kept: past it the oldest entries are evicted.
pub const MAX_BYTES: u64 = 256 << 20;
/// How much older than a stamp a file's times must be for the stamp to vouch for it: coarser
/// than any file system's time granularity (FAT's is 2 s).
pub const RACY_SECONDS: u64 = 3;
/// The most stamps kept: past it the oldest are evicted.
#[cfg_attr(not(unix), allow(dead_code))] // the cache is kept on Unix alone
const MAX_STAMPS: usize = 128;
/// How long a call waits for another call building the same cache before compiling alone.
#[cfg_attr(not(unix), allow(dead_code))]
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// The cache directory this user's hook calls use, whether or not it exists.
pub fn dir() -> Option<PathBuf> {
    let from_env = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
    let base = from_env("XDG_CACHE_HOME").filter(|dir| dir.is_absolute()).or_else(|| {
        let home = from_env("HOME").filter(|home| home.is_absolute())?;
        Some(match cfg!(target_os = "macos") {
            true => home.join("Library/Caches"),
            false => home.join(".cache"),
        })
    })?;
    Some(base.join("hookc"))
}

/// Loads rule files through the cache: the cached compilation of exactly these files when there
/// is a sound one, else the rules compiled (and, when they load, kept for the next call).
pub fn load_rules(paths: &[PathBuf]) -> Result<Policy, LoadError> {
    let listed = hookc_core::source::list_rule_files(paths)?;
    let Some(cache) = dir().and_then(|dir| Cache::open(&dir).ok()) else {
        return Policy::from_sources(&hookc_core::source::read_listed(&listed)?);
    };
    // Figures taken before the files are read: a file changed while it is read has other
    // figures at the next call, which then hashes it again.
    let stamp = Stamp::of(&listed);
    if let Some(identity) = stamp.as_ref().and_then(|stamp| cache.stamped(stamp)) {
        if let Some(policy) = cache.load(&key(&identity), &identity) {
            return Ok(policy);
        }
    }
    let sources = hookc_core::source::read_listed(&listed)?;
    let identity = bundle::source_hash(&sources);
    let key = key(&identity);
    let stamp_it = |cache: &Cache| {
        if let Some(stamp) = &stamp {
            cache.stamp(stamp, &identity);
        }
    };
    if let Some(policy) = cache.load(&key, &identity) {
        stamp_it(&cache);
        return Ok(policy);
    }
    // Build once when calls start together: the first builds, the others wait and load it.
    let lock = cache.lock();
    if lock.is_some() {
        if let Some(policy) = cache.load(&key, &identity) {
            return Ok(policy);
        }
    }
    let policy = Policy::from_sources(&sources)?;
    if lock.is_some() {
        cache.store(&key, &policy);
        stamp_it(&cache);
    }
    Ok(policy)
}

/// The figures of the files a policy is read from, taken at one moment.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Stamp {
    /// The stamp's name: this hookc and the files listed, in order.
    #[serde(skip)]
    name: String,
    /// Per file: size, inode, device, modification and change times (seconds, nanoseconds).
    files: Vec<[i64; 7]>,
    /// When the figures were taken (nanoseconds since 1970).
    taken: u128,
}

impl Stamp {
    /// The figures of every listed file now; `None` when one cannot be read, or off Unix.
    fn of(listed: &[hookc_core::source::Listed]) -> Option<Stamp> {
        use hookc_core::source::Listed;
        let taken = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos();
        let mut name = Sha256::new();
        name.update(env!("CARGO_PKG_VERSION"));
        let mut files = Vec::new();
        for entry in listed {
            match entry {
                Listed::Builtin(builtin) => name.update(format!("\0builtin:{builtin}")),
                Listed::File { path, identity } => {
                    let absolute = std::path::absolute(path).ok()?;
                    name.update(format!("\0{}\0{identity}", absolute.display()));
                    // Opened, not only stat'ed: an NFS client refreshes a file's attributes when
                    // it is opened, and may serve cached ones to a bare stat for a minute.
                    files.push(figures(&std::fs::File::open(path).ok()?.metadata().ok()?)?);
                }
            }
        }
        let name = name.finalize().iter().take(16).map(|byte| format!("{byte:02x}")).collect();
        Some(Stamp { name, files, taken })
    }

    /// Whether every file's times are older than the figures by more than [`RACY_SECONDS`].
    #[cfg_attr(not(unix), allow(dead_code))]
    fn settled(&self) -> bool {
        let limit = i128::try_from(self.taken).unwrap_or(0) - i128::from(RACY_SECONDS) * 1_000_000_000;
        let nanos = |seconds: i64, nanos: i64| i128::from(seconds) * 1_000_000_000 + i128::from(nanos);
        self.files.iter().all(|[_, _, _, modified, modified_ns, changed, changed_ns]| {
            nanos(*modified, *modified_ns) < limit && nanos(*changed, *changed_ns) < limit
        })
    }
}

#[cfg(unix)]
fn figures(meta: &std::fs::Metadata) -> Option<[i64; 7]> {
    use std::os::unix::fs::MetadataExt;
    let unsigned = |value: u64| i64::try_from(value).ok();
    Some([
        unsigned(meta.size())?,
        unsigned(meta.ino())?,
        unsigned(meta.dev())?,
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec(),
    ])
}

#[cfg(not(unix))]
fn figures(_meta: &std::fs::Metadata) -> Option<[i64; 7]> {
    None
}

/// What a stamp file holds: the figures and the identity they vouch for.
#[derive(serde::Serialize, serde::Deserialize)]
struct Stamped {
    stamp: Stamp,
    identity: String,
}

/// Drops the entry of the policy `identity`, if there is one (its blocks did not verify).
pub fn forget(identity: &str) {
    if let Some(cache) = dir().and_then(|dir| Cache::open(&dir).ok()) {
        let _ = std::fs::remove_file(cache.entry(&key(identity)));
    }
}

/// An entry's name: the identity, hookc's version and the bundle format.
fn key(identity: &str) -> String {
    let text = format!("{identity}\0{}\0{}{}", env!("CARGO_PKG_VERSION"), bundle::FORMAT, bundle::VERSION);
    Sha256::digest(text.as_bytes()).iter().take(16).map(|byte| format!("{byte:02x}")).collect()
}

/// What is wrong with a cache directory, for `doctor`; `None` when it is sound or absent.
pub fn problem(dir: &Path) -> Option<String> {
    match std::fs::symlink_metadata(dir) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => Some(format!("cannot read it: {error}")),
        Ok(_) => Cache::check(dir).err(),
    }
}

/// The entries in a cache directory and their total size, for `doctor`.
pub fn usage(dir: &Path) -> (usize, u64) {
    let entries = entries(dir);
    (entries.len(), entries.iter().map(|(_, size, _)| size).sum())
}

fn entries(dir: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
    files_with(dir, "bundle")
}

/// The files of a directory with this extension: path, size, modification time.
fn files_with(dir: &Path, extension: &str) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
    let Ok(listing) = std::fs::read_dir(dir) else { return Vec::new() };
    listing
        .flatten()
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == extension))
        .filter_map(|entry| {
            let meta = entry.metadata().ok().filter(std::fs::Metadata::is_file)?;
            Some((entry.path(), meta.len(), meta.modified().ok()?))
        })
        .collect()
}

/// An open cache directory, checked.
struct Cache {
    dir: PathBuf,
}

impl Cache {
    fn entry(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.bundle"))
    }
}

#[cfg(unix)]
impl Cache {
    /// Opens (creating) the directory; refuses one that is not safely this user's.
    fn open(dir: &Path) -> Result<Cache, String> {
        use std::os::unix::fs::DirBuilderExt;
        // Nothing is made through a link.
        for component in dir.ancestors().filter(|component| std::fs::symlink_metadata(component).is_ok()) {
            if std::fs::symlink_metadata(component).is_ok_and(|meta| meta.file_type().is_symlink()) {
                return Err(format!("`{}` is a symlink", component.display()));
            }
        }
        if let Some(parent) = dir.parent() {
            std::fs::create_dir_all(parent).map_err(|error| error.to_string())?;
        }
        match std::fs::DirBuilder::new().mode(0o700).create(dir) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(error.to_string()),
        }
        Self::check(dir)?;
        Ok(Cache { dir: dir.to_path_buf() })
    }

    /// A directory owned by this user, 0700, with no symlinked component.
    fn check(dir: &Path) -> Result<(), String> {
        use std::os::unix::fs::MetadataExt;
        for component in dir.ancestors() {
            let meta = std::fs::symlink_metadata(component).map_err(|error| error.to_string())?;
            if meta.file_type().is_symlink() {
                return Err(format!("`{}` is a symlink", component.display()));
            }
        }
        let meta = std::fs::symlink_metadata(dir).map_err(|error| error.to_string())?;
        if !meta.is_dir() {
            return Err("it is not a directory".into());
        }
        if meta.uid() != rustix::process::getuid().as_raw() {
            return Err("another user owns it".into());
        }
        if meta.mode() & 0o077 != 0 {
            return Err(format!("its mode is {:o}, not 700: other users could write entries", meta.mode() & 0o777));
        }
        Ok(())
    }

    /// The entry for `key`, when it is this user's regular file and a sound bundle of exactly
    /// `identity`; a broken one is removed.
    fn load(&self, key: &str, identity: &str) -> Option<Policy> {
        let path = self.entry(key);
        if std::fs::symlink_metadata(&path).is_err() {
            return None;
        }
        let file = self.open_own(&path);
        // Recently used: evicted last (the handle is the bundle's from here on).
        if let Some(file) = &file {
            let _ = file.set_modified(std::time::SystemTime::now());
        }
        let policy = file
            .and_then(|file| bundle::Opened::from_file(file).and_then(bundle::Opened::load).ok())
            .map(Policy::from_loaded)
            .filter(|policy| policy.source_hash() == identity);
        if policy.is_none() {
            let _ = std::fs::remove_file(&path);
        }
        policy
    }

    /// The identity a stamp of exactly these figures vouches for, when its figures were
    /// settled (see the module's "Metadata guard").
    fn stamped(&self, current: &Stamp) -> Option<String> {
        use std::io::Read;
        let file = self.open_own(&self.dir.join(format!("{}.stamp", current.name)))?;
        let mut text = String::new();
        file.take(1 << 20).read_to_string(&mut text).ok()?;
        let stamped: Stamped = serde_json::from_str(&text).ok()?;
        (stamped.stamp.files == current.files && stamped.stamp.settled()).then_some(stamped.identity)
    }

    /// Records the figures that the identity was hashed under, atomically, when they are
    /// settled (an unsettled stamp would never be used), then evicts the oldest stamps.
    fn stamp(&self, stamp: &Stamp, identity: &str) {
        use std::io::Write;
        if !stamp.settled() {
            return;
        }
        let Ok(text) = serde_json::to_string(&Stamped { stamp: stamp.clone(), identity: identity.to_string() }) else {
            return;
        };
        let Ok(mut file) = tempfile::NamedTempFile::new_in(&self.dir) else { return };
        if file.write_all(text.as_bytes()).is_err()
            || file.persist(self.dir.join(format!("{}.stamp", stamp.name))).is_err()
        {
            return;
        }
        let mut stamps = files_with(&self.dir, "stamp");
        stamps.sort_by_key(|(_, _, modified)| std::cmp::Reverse(*modified));
        for (path, _, _) in stamps.iter().skip(MAX_STAMPS) {
            let _ = std::fs::remove_file(path);
        }
    }

    /// A file of the cache, opened without following a link, when it is this user's regular
    /// file and no one else may write it.
    fn open_own(&self, path: &Path) -> Option<std::fs::File> {
        use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
            .open(path)
            .ok()?;
        let meta = file.metadata().ok()?;
        let own = meta.is_file()
            && meta.uid() == rustix::process::getuid().as_raw()
            && meta.mode() & 0o077 == 0
            && meta.len() <= MAX_BYTES;
        own.then_some(file)
    }

    /// Keeps a compiled policy under `key`, atomically, then evicts the oldest entries.
    fn store(&self, key: &str, policy: &Policy) {
        use std::io::Write;
        let Ok(mut file) = tempfile::NamedTempFile::new_in(&self.dir) else { return };
        if file.write_all(&policy.to_bundle()).is_err() || file.persist(self.entry(key)).is_err() {
            return;
        }
        let mut entries = entries(&self.dir);
        entries.sort_by_key(|(_, _, modified)| std::cmp::Reverse(*modified));
        let mut total = 0;
        for (at, (path, size, _)) in entries.iter().enumerate() {
            total += size;
            if at >= MAX_ENTRIES || total > MAX_BYTES {
                let _ = std::fs::remove_file(path);
            }
        }
    }

    /// An exclusive lock on the cache, held until dropped; `None` when it cannot be had within
    /// [`LOCK_WAIT`] (the call then compiles alone and keeps nothing).
    fn lock(&self) -> Option<std::fs::File> {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
            .open(self.dir.join("lock"))
            .ok()?;
        let start = std::time::Instant::now();
        loop {
            match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => return Some(file),
                Err(_) if start.elapsed() < LOCK_WAIT => std::thread::sleep(std::time::Duration::from_millis(5)),
                Err(_) => return None,
            }
        }
    }
}

#[cfg(not(unix))]
impl Cache {
    fn open(_dir: &Path) -> Result<Cache, String> {
        Err("the compiled-rules cache is kept on Unix only".into())
    }
    fn check(_dir: &Path) -> Result<(), String> {
        Err("the compiled-rules cache is kept on Unix only".into())
    }
    fn load(&self, _key: &str, _identity: &str) -> Option<Policy> {
        None
    }
    fn store(&self, _key: &str, _policy: &Policy) {}
    fn stamped(&self, _current: &Stamp) -> Option<String> {
        None
    }
    fn stamp(&self, _stamp: &Stamp, _identity: &str) {}
    fn lock(&self) -> Option<std::fs::File> {
        None
    }
}
