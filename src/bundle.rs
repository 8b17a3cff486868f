//! The compiled bundle: a versioned, language-neutral JSON file holding the checked rules.
//!
//! ```json
//! {"format":"hookc-bundle","version":1,"hookc":"0.1.0",
//!  "source_hash":"sha256:…","table_hash":"sha256:…","rules":[…]}
//! ```
//!
//! `source_hash` identifies the rule files the bundle was compiled from; `table_hash` is the
//! SHA-256 of the `rules` text exactly as stored, so any edit to the table is detected on load.
//! Indexes are not stored: they are rebuilt on load from the rules (see `compile`).

use crate::ir::Rule;
use crate::source::SourceMap;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

/// The bundle format's name, in the `format` field.
pub const FORMAT: &str = "hookc-bundle";
/// The bundle format version this build reads and writes.
pub const VERSION: u32 = 1;

/// Why a bundle could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// Not JSON, or not a bundle's shape.
    #[error("not a hookc bundle: {0}")]
    Malformed(String),
    /// Another format's file.
    #[error("not a hookc bundle: the format is `{0}`, expected `{FORMAT}`")]
    WrongFormat(String),
    /// Written by an incompatible hookc.
    #[error("bundle format version {found} is not supported (this hookc reads version {VERSION}); recompile the rules with `hookc compile`")]
    WrongVersion {
        /// The version in the file.
        found: u32,
    },
    /// The rules do not match their digest.
    #[error("the bundle's rules do not match its table_hash (expected {expected}, found {found}): it was modified after `hookc compile`; recompile it")]
    Tampered {
        /// The digest stored.
        expected: String,
        /// The digest of the rules as found.
        found: String,
    },
    /// The digests match but a rule is invalid (for example a regex this hookc cannot compile).
    #[error("the bundle's rules are invalid: {0}")]
    InvalidRules(String),
}

#[derive(Serialize)]
struct Envelope<'a> {
    format: &'a str,
    version: u32,
    hookc: &'a str,
    source_hash: &'a str,
    table_hash: &'a str,
    rules: &'a RawValue,
}

#[derive(Deserialize)]
struct Header<'a> {
    format: String,
    version: u32,
    source_hash: String,
    table_hash: String,
    #[serde(borrow)]
    rules: &'a RawValue,
}

/// A loaded bundle.
#[derive(Debug)]
pub struct Loaded {
    /// The checked rules, in order.
    pub rules: Vec<Rule>,
    /// The source hash recorded at compile time.
    pub source_hash: String,
}

/// `sha256:HEX` of some bytes.
pub fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let hex: String = hash.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

/// The hash of a rule set's sources: every file's path and text, in order.
pub fn source_hash(sources: &SourceMap) -> String {
    let mut hasher = Sha256::new();
    for (_, file) in sources.iter() {
        let name = file.name();
        for part in [name.as_bytes(), file.text.as_bytes()] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
    }
    let hex: String = hasher.finalize().iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

/// Writes rules as bundle JSON.
pub fn write(rules: &[Rule], source_hash: &str) -> Result<String, serde_json::Error> {
    let rules_text = serde_json::to_string(rules)?;
    let table_hash = digest(rules_text.as_bytes());
    let raw = RawValue::from_string(rules_text)?;
    let envelope = Envelope {
        format: FORMAT,
        version: VERSION,
        hookc: env!("CARGO_PKG_VERSION"),
        source_hash,
        table_hash: &table_hash,
        rules: &raw,
    };
    let mut out = serde_json::to_string(&envelope)?;
    out.push('\n');
    Ok(out)
}

/// Reads bundle JSON, checking format, version and digest before trusting any rule.
pub fn read(text: &str) -> Result<Loaded, BundleError> {
    let header: Header<'_> = serde_json::from_str(text).map_err(|error| BundleError::Malformed(error.to_string()))?;
    if header.format != FORMAT {
        return Err(BundleError::WrongFormat(header.format));
    }
    if header.version != VERSION {
        return Err(BundleError::WrongVersion { found: header.version });
    }
    let found = digest(header.rules.get().as_bytes());
    if found != header.table_hash {
        return Err(BundleError::Tampered { expected: header.table_hash, found });
    }
    let rules: Vec<Rule> =
        serde_json::from_str(header.rules.get()).map_err(|error| BundleError::InvalidRules(error.to_string()))?;
    Ok(Loaded { rules, source_hash: header.source_hash })
}
