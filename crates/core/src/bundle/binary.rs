//! The binary bundle: read in place, each block verified before it is used.
//!
//! ```text
//! offset  size  field
//! 0       8     magic: 89 'h' 'o' 'o' 'k' 'c' '\r' '\n'
//! 8       4     header version (4), little-endian like every integer here
//! 12      4     M: the length of the metadata
//! 16      4     B: the block size (4096)
//! 20      4     N: the number of blocks
//! 24      8     P: the payload's length; N = ceil(P / B)
//! 32      M     metadata, JSON: {"format", "hookc", "source_hash", "layout", "waivers", "redact"}
//! 32+M    32·G  the SHA-256 of each page of block digests (G = ceil(N / 128))
//! …       32    the SHA-256 of every byte above
//! H       32·N  the pages: the SHA-256 of each B-byte block of the payload, 128 to a 4 KiB page
//!               (the last block and the last page may be shorter)
//! H+32·N  P     the payload: the sections the layout names (`crate::compile::stored`)
//! ```
//!
//! The header (everything before the pages, H bytes) is read and its digest checked when the
//! bundle is opened; a signature (`hookc compile --sign`) covers exactly the header. The payload
//! is read with positioned reads, one block at a time, and each block is checked against its
//! digest before any byte of it is used, the digest against its page, and the page against the
//! header; the bytes checked are the bytes used, since they are checked in the buffer they are
//! read into. Nothing is memory-mapped: a file truncated or rewritten under a running call makes
//! a read fail or a block not verify, an error (the call fails closed), never a signal. So every
//! byte a decision uses is covered by the header's digest, and by the signature when a key is
//! trusted, and a call hashes the header (32 bytes per 512 KiB of rules), the pages and the
//! blocks it reads, not the whole file. Header version 3 (every block's digest in the header,
//! none in pages) is still read.
//!
//! The `layout`'s index is a cache: a bundle another release wrote, or whose index version this
//! build does not know, has its index rebuilt from the stored rules and keys instead of trusted.

use super::{BundleError, Loaded, FORMAT};
use crate::compile::stored::{Layout, Span, Store, INDEX_VERSION};
use crate::compile::DecisionTable;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::sync::{Arc, Mutex};

/// The first eight bytes: not text (0x89), and a line ending that a text-mode copy would change.
pub(crate) const MAGIC: [u8; 8] = *b"\x89hookc\r\n";
/// The fixed part of the header.
const FIXED: usize = 32;
/// The block size written.
const BLOCK: u32 = 4096;
/// The most metadata read: a header is small, whatever it claims.
const MAX_META: u32 = 16 << 20;
/// The most blocks: a payload of 16 GiB.
const MAX_BLOCKS: u32 = 1 << 22;
/// The header version written: block digests in pages, each page's digest in the header.
const HEADER: u32 = 4;
/// The header version before pages: every block's digest in the header.
const LISTED: u32 = 3;
/// Block digests to a page.
const PER_PAGE: u64 = 128;

/// The metadata: what the bundle is and where its parts are.
#[derive(Serialize)]
struct Meta<'a> {
    format: &'a str,
    hookc: &'a str,
    source_hash: &'a str,
    layout: &'a Layout,
    waivers: &'a [crate::ir::Waiver],
    #[serde(skip_serializing_if = "Option::is_none")]
    redact: Option<&'a crate::redact::Redaction>,
}

/// The metadata as read: the layout is parsed in full only when this build knows its index.
#[derive(Deserialize)]
struct ReadMeta {
    format: String,
    hookc: String,
    source_hash: String,
    layout: serde_json::Value,
    #[serde(default)]
    waivers: Vec<crate::ir::Waiver>,
    #[serde(default)]
    redact: Option<crate::redact::Redaction>,
}

/// The parts of any version's layout that find the rules and their keys.
#[derive(Deserialize)]
struct RulesLayout {
    rules: u32,
    bodies: Span,
    body_offsets: Span,
    entries: Span,
}

/// Writes a table as a binary bundle.
pub(super) fn write(table: &DecisionTable, source_hash: &str) -> Result<Vec<u8>, String> {
    let encoded = table.encode()?;
    let meta = Meta {
        format: FORMAT,
        hookc: env!("CARGO_PKG_VERSION"),
        source_hash,
        layout: &encoded.layout,
        waivers: table.waivers(),
        redact: table.redaction(),
    };
    let meta = serde_json::to_vec(&meta).map_err(|error| error.to_string())?;
    let payload = encoded.payload;
    let blocks = payload.chunks(BLOCK as usize);
    let count =
        u32::try_from(blocks.len()).ok().filter(|&count| count <= MAX_BLOCKS).ok_or("the bundle is too large")?;
    let meta_len =
        u32::try_from(meta.len()).ok().filter(|&len| len <= MAX_META).ok_or("the bundle's metadata is too large")?;
    let digests: Vec<u8> = blocks.flat_map(|block| Sha256::digest(block).to_vec()).collect();
    let pages = digests.chunks(32 * PER_PAGE as usize);
    let mut out = Vec::with_capacity(FIXED + meta.len() + 32 * (pages.len() + 1) + digests.len() + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&HEADER.to_le_bytes());
    out.extend_from_slice(&meta_len.to_le_bytes());
    out.extend_from_slice(&BLOCK.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&meta);
    for page in pages {
        out.extend_from_slice(&Sha256::digest(page));
    }
    let digest = Sha256::digest(&out);
    out.extend_from_slice(&digest);
    out.extend_from_slice(&digests);
    out.extend_from_slice(&payload);
    Ok(out)
}

/// Fills `buf` from `offset` of `file`, without moving a shared cursor.
pub(crate) fn read_at(file: &std::fs::File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        let mut done = 0;
        while done < buf.len() {
            let rest = buf.get_mut(done..).unwrap_or_default();
            match std::os::windows::fs::FileExt::seek_read(file, rest, offset + done as u64)? {
                0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                read => done += read,
            }
        }
        Ok(())
    }
    // No file system (WebAssembly in a browser): no file was opened to read.
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (file, offset, buf);
        Err(std::io::ErrorKind::Unsupported.into())
    }
}

/// The length of the header at the start of `bytes`, from its fixed part.
pub(crate) fn header_len(bytes: &[u8]) -> Result<usize, BundleError> {
    let (version, meta_len, count) = (le_u32(bytes, 8), le_u32(bytes, 12), le_u32(bytes, 20));
    match bytes.len() >= FIXED && meta_len <= MAX_META && count <= MAX_BLOCKS {
        true => Ok(header_size(version, meta_len, count)),
        false => Err(BundleError::Malformed("its header's sizes are inconsistent".to_string())),
    }
}

/// The header's length: the fixed part, the metadata, a digest per page (per block before
/// pages) and the header's own digest.
fn header_size(version: u32, meta_len: u32, count: u32) -> usize {
    let listed = match version {
        LISTED => u64::from(count),
        _ => u64::from(count).div_ceil(PER_PAGE),
    };
    FIXED + meta_len as usize + 32 * (listed as usize + 1)
}

/// Where the bytes are.
#[derive(Debug)]
enum Origin {
    File(std::fs::File),
    Bytes(Arc<[u8]>),
}

impl Origin {
    fn read(&self, offset: u64, len: usize) -> Result<Vec<u8>, BundleError> {
        match self {
            Origin::File(file) => {
                let mut buf = vec![0; len];
                read_at(file, offset, &mut buf).map_err(|error| match error.kind() {
                    std::io::ErrorKind::UnexpectedEof => truncated(),
                    _ => BundleError::Io(error),
                })?;
                Ok(buf)
            }
            Origin::Bytes(bytes) => {
                let start = usize::try_from(offset).map_err(|_| truncated())?;
                bytes.get(start..start.saturating_add(len)).map(<[u8]>::to_vec).ok_or_else(truncated)
            }
        }
    }

    fn len(&self) -> Result<u64, BundleError> {
        match self {
            Origin::File(file) => Ok(file.metadata()?.len()),
            Origin::Bytes(bytes) => Ok(bytes.len() as u64),
        }
    }
}

fn truncated() -> BundleError {
    BundleError::Malformed("the file ends early (truncated, or changed while it was read)".to_string())
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    bytes.get(at..at + 4).and_then(|b| b.try_into().ok()).map_or(0, u32::from_le_bytes)
}

/// A binary bundle whose header has been read and checked.
pub(crate) struct Opened {
    header: Vec<u8>,
    meta: ReadMeta,
    blocks: Blocks,
}

impl Opened {
    pub(crate) fn from_file(file: std::fs::File) -> Result<Opened, BundleError> {
        Self::open(Origin::File(file))
    }

    pub(crate) fn from_bytes(bytes: Arc<[u8]>) -> Result<Opened, BundleError> {
        Self::open(Origin::Bytes(bytes))
    }

    fn open(source: Origin) -> Result<Opened, BundleError> {
        let fixed = source.read(0, FIXED)?;
        if !fixed.starts_with(&MAGIC) {
            return Err(BundleError::Malformed("it does not start as a binary bundle does".to_string()));
        }
        let version = le_u32(&fixed, 8);
        if version != HEADER && version != LISTED {
            return Err(BundleError::WrongVersion { found: version });
        }
        let (meta_len, block, count) = (le_u32(&fixed, 12), le_u32(&fixed, 16), le_u32(&fixed, 20));
        let payload_len = fixed.get(24..32).and_then(|b| b.try_into().ok()).map_or(0, u64::from_le_bytes);
        let sound = meta_len <= MAX_META
            && block.is_power_of_two()
            && (512..=1 << 20).contains(&block)
            && count <= MAX_BLOCKS
            && payload_len.div_ceil(u64::from(block)) == u64::from(count);
        if !sound {
            return Err(BundleError::Malformed("its header's sizes are inconsistent".to_string()));
        }
        let header_len = header_size(version, meta_len, count);
        let pages_len = match version {
            LISTED => 0,
            _ => 32 * u64::from(count),
        };
        // The sizes are the file's own claim: check them against its length before reading (and
        // allocating) that much.
        let claimed = header_len as u64 + pages_len + payload_len;
        if source.len()? != claimed {
            return Err(BundleError::Malformed(format!(
                "its length is {} bytes, but its header says {claimed}",
                source.len()?
            )));
        }
        let header = source.read(0, header_len)?;
        let (covered, stored) = header.split_at(header_len - 32);
        let found = Sha256::digest(covered);
        if found.as_slice() != stored {
            return Err(BundleError::Tampered { expected: super::hex(stored), found: super::hex(&found) });
        }
        let meta_end = FIXED + meta_len as usize;
        let meta: ReadMeta = serde_json::from_slice(header.get(FIXED..meta_end).unwrap_or_default())
            .map_err(|error| BundleError::Malformed(format!("its metadata is unreadable: {error}")))?;
        if meta.format != FORMAT {
            return Err(BundleError::WrongFormat(meta.format));
        }
        let listed: Vec<[u8; 32]> = header
            .get(meta_end..header_len - 32)
            .unwrap_or_default()
            .chunks_exact(32)
            .map(|digest| digest.try_into().unwrap_or([0; 32]))
            .collect();
        let digests = match version {
            LISTED => Digests::Listed(listed),
            _ => {
                Digests::Paged { pages: listed, at: header_len as u64, count: u64::from(count), read: Mutex::default() }
            }
        };
        let blocks = Blocks {
            source,
            payload_at: header_len as u64 + pages_len,
            payload_len,
            block: u64::from(block),
            digests,
            verified: Mutex::default(),
        };
        Ok(Opened { header, meta, blocks })
    }

    /// The header: what a signature covers.
    pub(crate) fn header(&self) -> &[u8] {
        &self.header
    }

    /// Every byte of the file.
    pub(crate) fn whole(&self) -> Result<Vec<u8>, BundleError> {
        let len = usize::try_from(self.blocks.source.len()?).map_err(|_| truncated())?;
        self.blocks.source.read(0, len)
    }

    /// The rules: read in place when this build knows the stored index, else with the index
    /// rebuilt from the stored rules and keys.
    pub(crate) fn load(self) -> Result<Loaded, BundleError> {
        let Opened { meta, blocks, .. } = self;
        let store: Arc<dyn Store> = Arc::new(blocks);
        // The layout is parsed once: in full when this release wrote it with an index it knows.
        let index = meta.layout.get("index").and_then(serde_json::Value::as_u64);
        let layout = meta.layout;
        if meta.hookc == env!("CARGO_PKG_VERSION") && index == Some(u64::from(INDEX_VERSION)) {
            if let Ok(layout) = Layout::deserialize(&layout) {
                let table =
                    DecisionTable::from_store(store, layout).with_waivers(meta.waivers).with_redaction(meta.redact);
                return Ok(Loaded { table, source_hash: meta.source_hash });
            }
        }
        let rules = RulesLayout::deserialize(&layout)
            .map_err(|error| BundleError::Malformed(format!("its layout is unreadable: {error}")))?;
        // Another release's index: only the rules and their keys are read, and the index is
        // built again (the keys are chosen again too, since they are the compiler's choice).
        let layout = Layout {
            index: 0,
            case: crate::paths::PathCase::Sensitive,
            rules: rules.rules,
            bodies: rules.bodies,
            body_offsets: rules.body_offsets,
            entries: rules.entries,
            postings: Span::default(),
            slots: Span::default(),
            capacity: 0,
            events: Vec::new(),
        };
        let parts = crate::compile::stored::Stored::new(store, layout)
            .entries()
            .map_err(BundleError::InvalidRules)?
            .into_iter()
            .map(|(event, key, body)| (event, serde_json::from_value(key).ok(), body))
            .collect();
        let table = DecisionTable::from_bundled(parts, false).with_waivers(meta.waivers).with_redaction(meta.redact);
        Ok(Loaded { table, source_hash: meta.source_hash })
    }
}

/// The payload, read a block at a time; each block is checked against its digest once and kept.
#[derive(Debug)]
struct Blocks {
    source: Origin,
    payload_at: u64,
    payload_len: u64,
    block: u64,
    digests: Digests,
    verified: Mutex<rustc_hash::FxHashMap<u64, Arc<[u8]>>>,
}

/// Where the blocks' digests are.
#[derive(Debug)]
enum Digests {
    /// In the header, one per block (header version 3).
    Listed(Vec<[u8; 32]>),
    /// In pages after the header, 128 to a page, each page checked against its digest in the
    /// header (`pages`) when first read and kept.
    Paged { pages: Vec<[u8; 32]>, at: u64, count: u64, read: Mutex<rustc_hash::FxHashMap<u64, Arc<[u8]>>> },
}

impl Blocks {
    /// The digest of block `number`, from the header or its page (read and checked once).
    fn digest(&self, number: u64) -> Result<[u8; 32], String> {
        let (pages, at, count, read) = match &self.digests {
            Digests::Listed(digests) => {
                return digests.get(number as usize).copied().ok_or_else(|| "a block past the payload".to_string())
            }
            Digests::Paged { pages, at, count, read } => (pages, *at, *count, read),
        };
        if number >= count {
            return Err("a block past the payload".to_string());
        }
        let page = number / PER_PAGE;
        let known = read.lock().ok().and_then(|read| read.get(&page).cloned());
        let bytes = match known {
            Some(bytes) => bytes,
            None => {
                let expected = pages.get(page as usize).ok_or("a page past the header")?;
                let len = 32 * PER_PAGE.min(count - page * PER_PAGE);
                let bytes = self
                    .source
                    .read(at + page * 32 * PER_PAGE, len as usize)
                    .map_err(|error| format!("page {page} of the bundle's block digests: {error}"))?;
                if Sha256::digest(&bytes).as_slice() != expected {
                    return Err(format!(
                        "page {page} of the bundle's block digests does not match its digest: it was modified after `hookc compile`; recompile it"
                    ));
                }
                let bytes: Arc<[u8]> = bytes.into();
                if let Ok(mut read) = read.lock() {
                    read.insert(page, Arc::clone(&bytes));
                }
                bytes
            }
        };
        let from = 32 * (number % PER_PAGE) as usize;
        bytes
            .get(from..from + 32)
            .and_then(|digest| digest.try_into().ok())
            .ok_or_else(|| "a digest past its page".to_string())
    }

    fn block(&self, number: u64) -> Result<Arc<[u8]>, String> {
        if let Some(found) = self.verified.lock().ok().and_then(|verified| verified.get(&number).cloned()) {
            return Ok(found);
        }
        let start = number * self.block;
        let len = self.block.min(self.payload_len.saturating_sub(start));
        let expected = self.digest(number)?;
        let bytes = self
            .source
            .read(self.payload_at + start, len as usize)
            .map_err(|error| format!("block {number} of the bundle: {error}"))?;
        let found = Sha256::digest(&bytes);
        if found.as_slice() != expected {
            return Err(format!(
                "block {number} of the bundle does not match its digest: it was modified after `hookc compile`; recompile it"
            ));
        }
        let bytes: Arc<[u8]> = bytes.into();
        if let Ok(mut verified) = self.verified.lock() {
            verified.insert(number, Arc::clone(&bytes));
        }
        Ok(bytes)
    }
}

impl Store for Blocks {
    fn read(&self, offset: u64, len: u64) -> Result<Vec<u8>, String> {
        let end =
            offset.checked_add(len).filter(|&end| end <= self.payload_len).ok_or("a read past the bundle's end")?;
        let mut out = Vec::with_capacity(len as usize);
        let mut at = offset;
        while at < end {
            let number = at / self.block;
            let block = self.block(number)?;
            let from = (at - number * self.block) as usize;
            let to = ((end - number * self.block).min(self.block)) as usize;
            out.extend_from_slice(block.get(from..to).ok_or("a read past a block")?);
            at = number * self.block + to as u64;
        }
        Ok(out)
    }

    fn len(&self) -> u64 {
        self.payload_len
    }
}
