//! The JSON bundle: the language-neutral form (`hookc compile --format json`).
//!
//! ```json
//! {"format":"hookc-bundle","version":3,"hookc":"0.1.0",
//!  "source_hash":"sha256:…","table_hash":"sha256:…",
//!  "rules":[[EVENT, KEY, RULE], …]}
//! ```
//!
//! Each rule is stored with its event and the index key the compiler chose for it, so loading
//! builds the index without decoding or analysing the rules; a rule's body is decoded the first
//! time the rule is tried. `source_hash` identifies the rule files the bundle was compiled from;
//! `table_hash` is the SHA-256 of the `rules` text exactly as stored, so any edit to the table is
//! detected on load. Version 2 is read the same way.

use super::{finish, BundleError, Loaded, FORMAT, VERSION};
use crate::compile::{DecisionTable, OwnedKey};
use crate::vocab::EventKind;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

#[derive(Serialize)]
struct Envelope<'a> {
    format: &'a str,
    version: u32,
    hookc: &'a str,
    source_hash: &'a str,
    table_hash: &'a str,
    rules: &'a [(EventKind, &'a Option<OwnedKey>, &'a RawValue)],
    #[serde(skip_serializing_if = "Option::is_none")]
    waivers: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    waivers_hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    redact: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    redact_hash: Option<String>,
}

/// A bundle as read: one pass over the text, index keys and rule bodies kept as they are.
#[derive(Deserialize)]
struct Stored<'a> {
    format: String,
    version: u32,
    hookc: Option<String>,
    source_hash: String,
    table_hash: String,
    #[serde(borrow)]
    rules: Vec<(EventKind, &'a RawValue, &'a RawValue)>,
    #[serde(borrow, default)]
    waivers: Option<&'a RawValue>,
    #[serde(default)]
    waivers_hash: Option<String>,
    #[serde(borrow, default)]
    redact: Option<&'a RawValue>,
    #[serde(default)]
    redact_hash: Option<String>,
}

/// An index key as stored: one this build reads, or another release's, kept as its text.
enum StoredKey<'a> {
    Known(Option<OwnedKey>),
    Foreign(&'a str),
}

impl<'a> StoredKey<'a> {
    fn read(raw: &'a RawValue) -> StoredKey<'a> {
        match serde_json::from_str(raw.get()) {
            Ok(key) => StoredKey::Known(key),
            Err(_) => StoredKey::Foreign(raw.get()),
        }
    }

    /// The bytes the table digest covers: the key re-encoded, or a foreign key's text.
    fn digest_bytes(&self) -> Result<Vec<u8>, serde_json::Error> {
        match self {
            StoredKey::Known(key) => serde_json::to_vec(key),
            StoredKey::Foreign(text) => Ok(text.as_bytes().to_vec()),
        }
    }
}

/// Just the envelope, to say why a file that is not a readable bundle is not one.
#[derive(Deserialize)]
struct Header {
    format: String,
    version: u32,
}

/// The table digest: every rule's event, index key and body text, in order. Computed from the
/// parsed parts (the key re-encoded, the body as stored), so reading needs one pass.
fn table_digest(
    entries: impl Iterator<Item = (EventKind, Vec<u8>, impl AsRef<[u8]>)>,
) -> Result<String, serde_json::Error> {
    let mut hasher = Sha256::new();
    for (event, key, body) in entries {
        hasher.update(event.name());
        hasher.update([0]);
        hasher.update(key);
        hasher.update([0]);
        hasher.update(body.as_ref());
        hasher.update([b'\n']);
    }
    Ok(finish(hasher))
}

/// The digest of a part's JSON text as stored (the waivers, the redaction).
fn part_digest(part: &RawValue) -> String {
    let mut hasher = Sha256::new();
    hasher.update(part.get());
    finish(hasher)
}

/// A part stored beside the rules with a digest of its own (a bundle without it has neither),
/// decoded once the digest holds.
fn covered<T: serde::de::DeserializeOwned>(
    part: Option<&RawValue>,
    expected: Option<String>,
    what: &str,
) -> Result<Option<T>, BundleError> {
    match (part, expected) {
        (None, None) => Ok(None),
        (Some(part), Some(expected)) => {
            let found = part_digest(part);
            if found != expected {
                return Err(BundleError::Tampered { expected, found });
            }
            serde_json::from_str(part.get()).map(Some).map_err(|error| BundleError::InvalidRules(error.to_string()))
        }
        (part, expected) => Err(BundleError::Tampered {
            expected: expected.unwrap_or_else(|| format!("no {what}")),
            found: part.map_or_else(|| format!("no {what}"), part_digest),
        }),
    }
}

/// The `table_hash` of a bundle's `rules` JSON (for tools that write bundles by hand).
pub fn table_hash(rules: &str) -> Result<String, BundleError> {
    let entries: Vec<(EventKind, &RawValue, &RawValue)> =
        serde_json::from_str(rules).map_err(|error| BundleError::InvalidRules(error.to_string()))?;
    digest_stored(&entries)
}

/// Writes a table as bundle JSON.
pub(super) fn write(table: &DecisionTable, source_hash: &str) -> Result<String, String> {
    let parts = table.parts()?;
    let json = |error: serde_json::Error| error.to_string();
    let table_hash = table_digest(
        parts
            .iter()
            .map(|(event, key, body)| serde_json::to_vec(key).map(|key| (*event, key, body.get())))
            .collect::<Result<Vec<_>, _>>()
            .map_err(json)?
            .into_iter(),
    )
    .map_err(json)?;
    let entries: Vec<(EventKind, &Option<OwnedKey>, &RawValue)> =
        parts.iter().map(|(event, key, body)| (*event, key, body.as_ref())).collect();
    let waivers = match table.waivers() {
        [] => None,
        waivers => Some(serde_json::value::to_raw_value(waivers).map_err(json)?),
    };
    let redact = match table.redaction() {
        Some(redaction) => Some(serde_json::value::to_raw_value(redaction).map_err(json)?),
        None => None,
    };
    let envelope = Envelope {
        format: FORMAT,
        version: VERSION,
        hookc: env!("CARGO_PKG_VERSION"),
        source_hash,
        table_hash: &table_hash,
        rules: &entries,
        waivers_hash: waivers.as_deref().map(part_digest),
        waivers: waivers.as_deref(),
        redact_hash: redact.as_deref().map(part_digest),
        redact: redact.as_deref(),
    };
    let mut out = serde_json::to_string(&envelope).map_err(json)?;
    out.push('\n');
    Ok(out)
}

/// Reads bundle JSON, checking format, version and digest before trusting any rule. Events and
/// index keys are decoded now (the index needs them); each rule's body stays JSON until the rule
/// is first tried.
pub(super) fn read(text: &str) -> Result<Loaded, BundleError> {
    let stored: Stored<'_> = match serde_json::from_str(text) {
        Ok(stored) => stored,
        Err(error) => return Err(explain_unreadable(text, error)),
    };
    check_envelope(&stored.format, stored.version)?;
    let keys: Vec<StoredKey<'_>> = stored.rules.iter().map(|(_, key, _)| StoredKey::read(key)).collect();
    let found = digest(stored.rules.iter().zip(&keys).map(|((event, _, body), key)| (*event, key, *body)))?;
    if found != stored.table_hash {
        return Err(BundleError::Tampered { expected: stored.table_hash, found });
    }
    // Index keys are the compiler's choice, not part of the format: another release's keys
    // (or keys this build cannot read) are chosen again from the rules.
    let same_compiler = stored.hookc.as_deref() == Some(env!("CARGO_PKG_VERSION"));
    let parts = stored
        .rules
        .iter()
        .zip(keys)
        .map(|((event, _, body), key)| {
            let key = match key {
                StoredKey::Known(key) => Some(key),
                StoredKey::Foreign(_) => None,
            };
            (*event, key, (*body).to_owned())
        })
        .collect();
    // The waivers and the redaction are covered by digests of their own.
    let waivers: Vec<crate::ir::Waiver> = covered(stored.waivers, stored.waivers_hash, "waivers")?.unwrap_or_default();
    let redact: Option<crate::redact::Redaction> = covered(stored.redact, stored.redact_hash, "redaction")?;
    let table = DecisionTable::from_bundled(parts, same_compiler).with_waivers(waivers).with_redaction(redact);
    Ok(Loaded { table, source_hash: stored.source_hash })
}

/// The table digest of rules as stored.
fn digest_stored(rules: &[(EventKind, &RawValue, &RawValue)]) -> Result<String, BundleError> {
    digest(rules.iter().map(|(event, key, body)| (*event, StoredKey::read(key), *body)))
}

fn digest<'a, K: std::borrow::Borrow<StoredKey<'a>>>(
    rules: impl Iterator<Item = (EventKind, K, &'a RawValue)>,
) -> Result<String, BundleError> {
    let entries = rules
        .map(|(event, key, body)| key.borrow().digest_bytes().map(|key| (event, key, body.get())))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| BundleError::InvalidRules(error.to_string()))?;
    table_digest(entries.into_iter()).map_err(|error| BundleError::InvalidRules(error.to_string()))
}

fn check_envelope(format: &str, version: u32) -> Result<(), BundleError> {
    if format != FORMAT {
        return Err(BundleError::WrongFormat(format.to_string()));
    }
    // Version 2 is version 3 without the binary form: read alike.
    if version != VERSION && version != 2 {
        return Err(BundleError::WrongVersion { found: version });
    }
    Ok(())
}

/// Why a text did not read as a bundle: another format or version first, then what serde said.
fn explain_unreadable(text: &str, error: serde_json::Error) -> BundleError {
    match serde_json::from_str::<Header>(text) {
        Ok(header) => match check_envelope(&header.format, header.version) {
            Err(wrong) => wrong,
            Ok(()) => BundleError::InvalidRules(error.to_string()),
        },
        Err(_) => BundleError::Malformed(error.to_string()),
    }
}
