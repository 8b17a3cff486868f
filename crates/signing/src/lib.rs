//! Signed bundles, in minisign's format: `hookc compile --sign KEY` writes `BUNDLE.minisig`
//! beside the bundle, and a verb given `--trust-key PUB` refuses a bundle whose signature is
//! missing or does not verify. The files are minisign's own, so `minisign -Vm policy.hcb -p
//! key.pub` checks what hookc signed and `minisign -Sm policy.hcb -s key.sec` signs what hookc
//! checks.
//!
//! The bundle's `table_hash` detects an edit by accident; only a signature detects one on
//! purpose: whoever can write `policy.hcb` can drop a rule and recompute the hash, but cannot
//! sign without the secret key.
//!
//! This crate (`hookc-signing`) is the one place hookc links a signing library. It sits on
//! `hookc-core`, whose [`hookc_core::SignatureCheck`] its [`TrustKey`] implements; the command
//! line and the Node and Python bindings use it, the WebAssembly build does not.

#![warn(unreachable_pub)]

use std::io::Cursor;
use std::path::Path;

/// Why a key could not be read, a bundle signed, or a signature checked. Each reads as one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SigningError {
    /// A key file cannot be read.
    #[error("cannot read the {what} `{path}`: {reason}")]
    Unreadable {
        /// `trusted key` or `key`.
        what: &'static str,
        /// The path given.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// A file is not a minisign key of the kind wanted.
    #[error("`{path}` is not a minisign {what}: {reason}")]
    NotAKey {
        /// `public key` or `secret key`.
        what: &'static str,
        /// The path given.
        path: String,
        /// minisign's reason.
        reason: String,
    },
    /// The secret key cannot be used (a wrong password, a key without one).
    #[error("cannot use the key `{path}`: {reason}; use a key with a password (`minisign -G`), given in HOOKC_SIGNING_PASSWORD")]
    Unusable {
        /// The path given.
        path: String,
        /// minisign's reasons.
        reason: String,
    },
    /// Signing failed.
    #[error("cannot sign with `{path}`: {reason}")]
    Sign {
        /// The path given.
        path: String,
        /// minisign's reason.
        reason: String,
    },
    /// The signature file cannot be read as one.
    #[error("the signature is unreadable: {0}")]
    UnreadableSignature(String),
    /// The signature is not the trusted key's for these bytes.
    #[error("the signature does not verify with the trusted key: {0}")]
    Mismatch(String),
}

/// A public key bundles must be signed by.
#[derive(Clone)]
pub struct TrustKey(minisign::PublicKey);

impl std::fmt::Debug for TrustKey {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "TrustKey({})", self.0.to_base64())
    }
}

impl TrustKey {
    /// Reads a minisign public key: a `.pub` file (its comment line, then the key), or the
    /// base64 key itself (`RW…`).
    pub fn read(arg: &str) -> Result<TrustKey, SigningError> {
        let path = Path::new(arg);
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(_) if arg.starts_with("RW") && !arg.contains('/') => arg.to_string(),
            Err(error) => {
                return Err(SigningError::Unreadable {
                    what: "trusted key",
                    path: arg.into(),
                    reason: error.to_string(),
                })
            }
        };
        // A `.pub` file's last non-empty line is the key; a bare key is one line.
        let line = text.lines().map(str::trim).rfind(|line| !line.is_empty()).unwrap_or("");
        minisign::PublicKey::from_base64(line).map(TrustKey).map_err(|error| SigningError::NotAKey {
            what: "public key",
            path: arg.into(),
            reason: error.to_string(),
        })
    }
}

pub use hookc_core::bundle::signature_path;

impl hookc_core::SignatureCheck for TrustKey {
    type Error = SigningError;
    fn verify(&self, message: &[u8], signature: &str) -> Result<(), SigningError> {
        verify(message, signature, self)
    }
}

/// Signs a bundle's bytes with a minisign secret key file; returns the signature file's text.
/// An encrypted key's password is read from `HOOKC_SIGNING_PASSWORD`, else asked for on the
/// terminal. (Keys the minisign tool makes without a password, `-W`, fail the `minisign`
/// crate's checksum; keys with one work both ways.)
pub fn sign(bundle: &[u8], secret_key: &Path, trusted_comment: &str) -> Result<String, SigningError> {
    let path = secret_key.display().to_string();
    let text = std::fs::read_to_string(secret_key).map_err(|error| SigningError::Unreadable {
        what: "key",
        path: path.clone(),
        reason: error.to_string(),
    })?;
    let boxed = minisign::SecretKeyBox::from_string(&text).map_err(|error| SigningError::NotAKey {
        what: "secret key",
        path: path.clone(),
        reason: error.to_string(),
    })?;
    let key = match minisign::SecretKeyBox::from_string(&text).and_then(|boxed| boxed.into_unencrypted_secret_key()) {
        Ok(key) => key,
        Err(plain) => boxed.into_secret_key(std::env::var("HOOKC_SIGNING_PASSWORD").ok()).map_err(|error| {
            SigningError::Unusable { path: path.clone(), reason: format!("{error} (read without a password: {plain})") }
        })?,
    };
    let signature =
        minisign::sign(None, &key, Cursor::new(bundle), Some(trusted_comment), Some("signed by hookc compile"))
            .map_err(|error| SigningError::Sign { path, reason: error.to_string() })?;
    Ok(signature.into_string())
}

/// Checks a bundle's bytes against its signature file's text and the trusted key.
pub fn verify(bundle: &[u8], signature: &str, key: &TrustKey) -> Result<(), SigningError> {
    let signature = minisign::SignatureBox::from_string(signature)
        .map_err(|error| SigningError::UnreadableSignature(error.to_string()))?;
    minisign::verify(&key.0, &signature, Cursor::new(bundle), true, false, false)
        .map_err(|error| SigningError::Mismatch(error.to_string()))
}
