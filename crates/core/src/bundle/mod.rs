//! The compiled bundle: the checked rules, their index keys and their index, in one of two forms
//! told apart by their first bytes.
//!
//! - **Binary** ([`binary`], what `hookc compile` writes): a header with every 4 KiB block's
//!   digest, then the rules and a stored index that a call reads in place, verifying each block
//!   it reads. A call pays for the rules it can reach, not for the whole file.
//! - **JSON** ([`json`], `hookc compile --format json`): the same rules and keys as one
//!   language-neutral document for other tools; loading it builds the index in memory.
//!
//! The JSON form is format version [`VERSION`] and the binary form header version 4; JSON
//! bundles of version 2 (before the binary form) and binary bundles of header version 3 (before
//! pages of digests) still load and decide as they did. `docs/bundle.md` describes both byte for
//! byte.

pub(crate) mod binary;
pub(crate) mod json;

use crate::compile::DecisionTable;
use crate::source::SourceMap;
use sha2::{Digest, Sha256};
use std::path::Path;

pub use json::table_hash;

/// The bundle format's name, in the JSON form's `format` field and the binary form's header.
pub const FORMAT: &str = "hookc-bundle";
/// The bundle format version this build writes.
pub const VERSION: u32 = 3;

/// Why a bundle could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// Not a bundle's shape.
    #[error("not a hookc bundle: {0}")]
    Malformed(String),
    /// Another format's file.
    #[error("not a hookc bundle: the format is `{0}`, expected `{FORMAT}`")]
    WrongFormat(String),
    /// Written by an incompatible hookc.
    #[error("bundle format version {found} is not supported (this hookc reads JSON bundles of versions 2 and {VERSION}, binary bundles of header versions 3 and 4); recompile the rules with `hookc compile`")]
    WrongVersion {
        /// The version in the file.
        found: u32,
    },
    /// The rules do not match their digest.
    #[error("the bundle's rules do not match its digest (expected {expected}, found {found}): it was modified after `hookc compile`; recompile it")]
    Tampered {
        /// The digest stored.
        expected: String,
        /// The digest of the rules as found.
        found: String,
    },
    /// The digests match but a rule is invalid (for example a regex this hookc cannot compile).
    #[error("the bundle's rules are invalid: {0}")]
    InvalidRules(String),
    /// A part of the bundle cannot be read: a block or a rule its checks did not reach until it
    /// was read whole ([`crate::Policy::verify`]).
    #[error("part of the bundle cannot be read: {0}")]
    Unreadable(String),
    /// The file could not be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A loaded bundle, which [`crate::Policy::from_loaded`] makes a policy of (its table is the
/// engine's own).
#[derive(Debug)]
pub struct Loaded {
    /// The decision table (rule bodies decoded on first use).
    pub(crate) table: DecisionTable,
    /// The source hash recorded at compile time.
    pub(crate) source_hash: String,
}

/// `sha256:HEX` of what a hasher has seen.
fn finish(hasher: Sha256) -> String {
    format!("sha256:{}", hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The policy's identity: the hash of every file's identity name (its path relative to its
/// `--rules` argument) and text, in the order the rules are tried. It does not depend on where the
/// rules are checked out or how their path was spelled.
pub fn source_hash(sources: &SourceMap) -> String {
    let mut hasher = Sha256::new();
    for (_, file) in sources.iter() {
        for part in [file.identity.as_bytes(), file.text.as_bytes()] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
    }
    finish(hasher)
}

/// Which form a bundle's first bytes say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The binary form.
    Binary,
    /// The JSON form.
    Json,
}

impl Form {
    /// The form of a file starting with `head`; `None` when it is neither.
    pub fn of(head: &[u8]) -> Option<Form> {
        if head.starts_with(&binary::MAGIC) {
            return Some(Form::Binary);
        }
        match head.iter().find(|byte| !byte.is_ascii_whitespace()) {
            Some(b'{') => Some(Form::Json),
            _ => None,
        }
    }
}

/// Writes a table as a binary bundle.
pub(crate) fn write(table: &DecisionTable, source_hash: &str) -> Result<Vec<u8>, String> {
    binary::write(table, source_hash)
}

/// Writes a table as a JSON bundle.
pub(crate) fn write_json(table: &DecisionTable, source_hash: &str) -> Result<String, String> {
    json::write(table, source_hash)
}

/// Reads a bundle held in memory, of either form.
pub fn read(bytes: &[u8]) -> Result<Loaded, BundleError> {
    match Form::of(bytes) {
        Some(Form::Binary) => binary::Opened::from_bytes(bytes.into())?.load(),
        Some(Form::Json) => {
            let text = std::str::from_utf8(bytes).map_err(|error| BundleError::Malformed(error.to_string()))?;
            json::read(text)
        }
        None => Err(BundleError::Malformed("it is neither a binary bundle nor JSON".to_string())),
    }
}

/// The part of a bundle in memory that `hookc compile --sign` signs: a binary bundle's header,
/// a JSON bundle's whole text.
pub fn signed_part(bytes: &[u8]) -> Result<&[u8], BundleError> {
    match Form::of(bytes) {
        Some(Form::Binary) => Ok(bytes.get(..binary::header_len(bytes)?).unwrap_or(bytes)),
        _ => Ok(bytes),
    }
}

/// A bundle file opened: its signed part read and checked, the rest read when used.
pub struct Opened {
    inner: Inner,
}

enum Inner {
    Binary(Box<binary::Opened>),
    Json(String),
}

impl Opened {
    /// Opens a bundle file: a binary bundle's header is read and checked now and its blocks
    /// when a call needs them; a JSON bundle is read whole.
    pub fn open(path: &Path) -> Result<Opened, BundleError> {
        Self::from_file(std::fs::File::open(path)?)
    }

    /// Opens a bundle from an open file.
    pub fn from_file(mut file: std::fs::File) -> Result<Opened, BundleError> {
        let mut head = [0u8; 8];
        let read = binary::read_at(&file, 0, &mut head).map_or(0, |()| head.len());
        let inner = match Form::of(head.get(..read).unwrap_or_default()) {
            Some(Form::Binary) => Inner::Binary(Box::new(binary::Opened::from_file(file)?)),
            _ => {
                let mut text = Vec::new();
                std::io::Read::read_to_end(&mut file, &mut text)?;
                match Form::of(&text) {
                    Some(Form::Json) => {
                        Inner::Json(String::from_utf8(text).map_err(|error| BundleError::Malformed(error.to_string()))?)
                    }
                    _ => return Err(BundleError::Malformed("it is neither a binary bundle nor JSON".to_string())),
                }
            }
        };
        Ok(Opened { inner })
    }

    /// The bytes a signature made by `hookc compile --sign` covers: a binary bundle's header
    /// (which holds the digest of every block), or a JSON bundle's whole text.
    pub fn signed_part(&self) -> &[u8] {
        match &self.inner {
            Inner::Binary(opened) => opened.header(),
            Inner::Json(text) => text.as_bytes(),
        }
    }

    /// The whole file, for a signature made over all of it (`minisign -Sm`).
    pub fn whole(&self) -> Result<Vec<u8>, BundleError> {
        match &self.inner {
            Inner::Binary(opened) => opened.whole(),
            Inner::Json(text) => Ok(text.as_bytes().to_vec()),
        }
    }

    /// Loads the rules.
    pub fn load(self) -> Result<Loaded, BundleError> {
        match self.inner {
            Inner::Binary(opened) => (*opened).load(),
            Inner::Json(text) => json::read(&text),
        }
    }
}

/// Where a bundle's signature is: `BUNDLE.minisig`, as minisign names it.
pub fn signature_path(bundle: &std::path::Path) -> std::path::PathBuf {
    let mut name = bundle.as_os_str().to_os_string();
    name.push(".minisig");
    std::path::PathBuf::from(name)
}
