//! Signed bundles, in minisign's format: `hookc compile --sign KEY` writes `BUNDLE.minisig`
//! beside the bundle, and a verb given `--trust-key PUB` refuses a bundle whose signature is
//! missing or does not verify. The files are minisign's own, so `minisign -Vm policy.json -p
//! key.pub` checks what hookc signed and `minisign -Sm policy.json -s key.sec` signs what hookc
//! checks.
//!
//! The bundle's `table_hash` detects an edit by accident; only a signature detects one on
//! purpose: whoever can write `policy.json` can drop a rule and recompute the hash, but cannot
//! sign without the secret key.

use std::io::Cursor;
use std::path::{Path, PathBuf};

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
    pub fn read(arg: &str) -> Result<TrustKey, String> {
        let path = Path::new(arg);
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(_) if arg.starts_with("RW") && !arg.contains('/') => arg.to_string(),
            Err(error) => return Err(format!("cannot read the trusted key `{arg}`: {error}")),
        };
        // A `.pub` file's last non-empty line is the key; a bare key is one line.
        let line = text.lines().map(str::trim).rfind(|line| !line.is_empty()).unwrap_or("");
        minisign::PublicKey::from_base64(line)
            .map(TrustKey)
            .map_err(|error| format!("`{arg}` is not a minisign public key: {error}"))
    }
}

/// Where a bundle's signature is: `BUNDLE.minisig`, as minisign names it.
pub fn signature_path(bundle: &Path) -> PathBuf {
    let mut name = bundle.as_os_str().to_os_string();
    name.push(".minisig");
    PathBuf::from(name)
}

/// Signs a bundle's bytes with a minisign secret key file; returns the signature file's text.
/// An encrypted key's password is read from `HOOKC_SIGNING_PASSWORD`, else asked for on the
/// terminal. (Keys the minisign tool makes without a password, `-W`, fail the `minisign`
/// crate's checksum; keys with one work both ways.)
pub fn sign(bundle: &[u8], secret_key: &Path, trusted_comment: &str) -> Result<String, String> {
    let shown = secret_key.display();
    let text =
        std::fs::read_to_string(secret_key).map_err(|error| format!("cannot read the key `{shown}`: {error}"))?;
    let boxed = minisign::SecretKeyBox::from_string(&text)
        .map_err(|error| format!("`{shown}` is not a minisign secret key: {error}"))?;
    let key = match minisign::SecretKeyBox::from_string(&text).and_then(|boxed| boxed.into_unencrypted_secret_key()) {
        Ok(key) => key,
        Err(plain) => boxed.into_secret_key(std::env::var("HOOKC_SIGNING_PASSWORD").ok()).map_err(|error| {
            format!(
                "cannot use the key `{shown}`: {error} (read without a password: {plain}); use a key with a \
                     password (`minisign -G`), given in HOOKC_SIGNING_PASSWORD"
            )
        })?,
    };
    let signature =
        minisign::sign(None, &key, Cursor::new(bundle), Some(trusted_comment), Some("signed by hookc compile"))
            .map_err(|error| format!("cannot sign with `{shown}`: {error}"))?;
    Ok(signature.into_string())
}

/// Checks a bundle's bytes against its signature file's text and the trusted key.
pub fn verify(bundle: &[u8], signature: &str, key: &TrustKey) -> Result<(), String> {
    let signature = minisign::SignatureBox::from_string(signature)
        .map_err(|error| format!("the signature is unreadable: {error}"))?;
    minisign::verify(&key.0, &signature, Cursor::new(bundle), true, false, false)
        .map_err(|error| format!("the signature does not verify with the trusted key: {error}"))
}
