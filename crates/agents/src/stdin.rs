//! Reading a hook payload from stdin: up to the end of the first complete JSON value, within the
//! size limit. A payload over the limit is read on as a stream, keeping only its short top-level
//! fields, so that a Stop that already continued can still be let stop. That is never a
//! substring search: the model controls `last_assistant_message`, and could write
//! `"stop_hook_active": true` into it.

use super::HookFailure;
use hookc_core::model::event::MAX_EVENT_BYTES;
use std::io::{BufRead, Read};

/// Top-level strings longer than this are left out of an over-long payload's summary.
const SUMMARY_STRING_BYTES: usize = 4096;
/// Top-level keys longer than this are left out of it.
const SUMMARY_KEY_BYTES: usize = 128;
/// At most this many fields are kept in it.
const SUMMARY_FIELDS: usize = 64;

/// Reads the payload: up to the end of the first complete JSON object or array (an agent may
/// write the payload and keep stdin open: waiting for end of file would hold the call until
/// the agent gives up and runs it), at most `MAX_EVENT_BYTES`.
pub fn read_payload(input: impl Read) -> Result<Vec<u8>, HookFailure> {
    let mut reader = std::io::BufReader::new(input);
    let mut bytes = Vec::new();
    let mut end = ValueEnd::default();
    while let Some(chunk) = fill(&mut reader)? {
        let (used, complete) = match end.feed(chunk) {
            Some(used) => (used, true),
            None => (chunk.len(), false),
        };
        let taken = chunk.get(..used).unwrap_or(chunk);
        if bytes.len() + taken.len() > MAX_EVENT_BYTES {
            let mut summary = Summary::default();
            summary.feed(&bytes);
            summary.feed(taken);
            drop(bytes);
            reader.consume(used);
            return Err(HookFailure::TooLarge(summarise(summary, complete, &mut reader, end)));
        }
        bytes.extend_from_slice(taken);
        reader.consume(used);
        if complete {
            break;
        }
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(HookFailure::Empty);
    }
    Ok(bytes)
}

/// The next bytes of the stream; `None` at end of file.
fn fill(reader: &mut impl BufRead) -> Result<Option<&[u8]>, HookFailure> {
    // An interrupted read is tried again; checked first, so the buffer is borrowed once.
    while let Err(error) = reader.fill_buf() {
        if error.kind() != std::io::ErrorKind::Interrupted {
            return Err(HookFailure::Read(error.to_string()));
        }
    }
    let chunk = reader.fill_buf().map_err(|error| HookFailure::Read(error.to_string()))?;
    Ok((!chunk.is_empty()).then_some(chunk))
}

/// The summary of an over-long payload: `summary` has seen what was read, and reads the rest of
/// the value from `reader`, in constant memory. A read error ends it early.
fn summarise(mut summary: Summary, complete: bool, reader: &mut impl BufRead, mut end: ValueEnd) -> Vec<u8> {
    if !complete {
        while let Ok(Some(chunk)) = fill(reader) {
            let (used, done) = match end.feed(chunk) {
                Some(used) => (used, true),
                None => (chunk.len(), false),
            };
            summary.feed(chunk.get(..used).unwrap_or(chunk));
            reader.consume(used);
            if done {
                break;
            }
        }
    }
    summary.finish()
}

/// Finds where the first JSON object or array of a byte stream ends, chunk by chunk: brackets
/// are counted outside strings. Anything else (a scalar, stray text) is read to end of file,
/// and decoding then says what is wrong with it.
#[derive(Default, Clone, Copy)]
struct ValueEnd {
    depth: usize,
    started: bool,
    scalar: bool,
    in_string: bool,
    escaped: bool,
}

impl ValueEnd {
    /// Feeds the next bytes; returns how many of them complete the value, if they do.
    fn feed(&mut self, chunk: &[u8]) -> Option<usize> {
        for (index, &byte) in chunk.iter().enumerate() {
            if self.scalar {
                return None;
            }
            if self.in_string {
                match (self.escaped, byte) {
                    (true, _) => self.escaped = false,
                    (false, b'\\') => self.escaped = true,
                    (false, b'"') => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'{' | b'[' => {
                    self.started = true;
                    self.depth += 1;
                }
                b'}' | b']' if self.depth > 0 => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        return Some(index + 1);
                    }
                }
                b'"' if self.started => self.in_string = true,
                byte if !self.started && !byte.is_ascii_whitespace() => self.scalar = true,
                _ => {}
            }
        }
        None
    }
}

/// Where a [`Summary`] is in the top-level object.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum At {
    /// Before the opening `{`.
    #[default]
    Start,
    /// Before a key (or the closing `}`).
    Key,
    /// Inside a key's string.
    InKey,
    /// Between a key and its value.
    Colon,
    /// Inside a top-level string value.
    InString,
    /// Inside a top-level number, `true`, `false` or `null`.
    InScalar,
    /// Inside a nested object or array (left out), at this depth below the top level.
    Nested(usize),
    /// Inside a string within a nested value.
    NestedString(usize),
    /// After a value, before `,` or `}`.
    After,
    /// The object ended, or the text is not an object: nothing more is read.
    Done,
}

/// The short top-level fields of a JSON object read as a stream: each string of at most
/// [`SUMMARY_STRING_BYTES`], number, boolean and null, kept as its JSON text; nested values and
/// long strings are left out. Duplicate keys are kept in order, so decoding the summary takes
/// the last as decoding the payload would.
#[derive(Default)]
struct Summary {
    at: At,
    escaped: bool,
    key: Vec<u8>,
    value: Vec<u8>,
    too_long: bool,
    fields: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Summary {
    fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.step(byte);
        }
    }

    fn step(&mut self, byte: u8) {
        self.at = match (self.at, byte) {
            (At::Done, _) => At::Done,
            (At::Start, b'{') => At::Key,
            (At::Start, byte) if byte.is_ascii_whitespace() => At::Start,
            (At::Start, _) => At::Done,
            (At::Key, b'"') => {
                self.key.clear();
                self.too_long = false;
                At::InKey
            }
            (At::Key | At::After, b'}') => At::Done,
            (At::Key | At::After, _) => self.at,
            (At::InKey, byte) => match self.string_byte(byte) {
                true => {
                    self.push_key(byte);
                    At::InKey
                }
                false => At::Colon,
            },
            (At::Colon, b':') => {
                self.value.clear();
                At::Colon
            }
            (At::Colon, b'"') => {
                self.value.push(b'"');
                At::InString
            }
            (At::Colon, b'{' | b'[') => At::Nested(1),
            (At::Colon, byte) if byte.is_ascii_whitespace() => At::Colon,
            (At::Colon, byte) => {
                self.value.push(byte);
                At::InScalar
            }
            (At::InString, byte) => {
                let more = self.string_byte(byte);
                self.push_value(byte);
                if more {
                    At::InString
                } else {
                    self.keep();
                    At::After
                }
            }
            (At::InScalar, b',') => {
                self.keep();
                At::Key
            }
            (At::InScalar, b'}') => {
                self.keep();
                At::Done
            }
            (At::InScalar, byte) if byte.is_ascii_whitespace() => {
                self.keep();
                At::After
            }
            (At::InScalar, byte) => {
                self.push_value(byte);
                At::InScalar
            }
            (At::Nested(depth), b'"') => At::NestedString(depth),
            (At::Nested(depth), b'{' | b'[') => At::Nested(depth + 1),
            (At::Nested(1), b'}' | b']') => At::After,
            (At::Nested(depth), b'}' | b']') => At::Nested(depth - 1),
            (At::Nested(depth), _) => At::Nested(depth),
            (At::NestedString(depth), byte) => match self.string_byte(byte) {
                true => At::NestedString(depth),
                false => At::Nested(depth),
            },
        };
        if self.at == At::After && byte == b',' {
            self.at = At::Key;
        }
    }

    /// Whether a string goes on after this byte (false: it was the closing quote).
    fn string_byte(&mut self, byte: u8) -> bool {
        match (self.escaped, byte) {
            (true, _) => {
                self.escaped = false;
                true
            }
            (false, b'\\') => {
                self.escaped = true;
                true
            }
            (false, b'"') => false,
            _ => true,
        }
    }

    fn push_key(&mut self, byte: u8) {
        match self.key.len() < SUMMARY_KEY_BYTES {
            true => self.key.push(byte),
            false => self.too_long = true,
        }
    }

    fn push_value(&mut self, byte: u8) {
        match self.value.len() < SUMMARY_STRING_BYTES {
            true => self.value.push(byte),
            false => self.too_long = true,
        }
    }

    fn keep(&mut self) {
        if !self.too_long && self.fields.len() < SUMMARY_FIELDS {
            self.fields.push((std::mem::take(&mut self.key), std::mem::take(&mut self.value)));
        }
        self.too_long = false;
    }

    /// The fields kept, as a JSON object (invalid JSON in a field makes the whole summary
    /// unreadable, which reads as knowing nothing).
    fn finish(self) -> Vec<u8> {
        let mut out = b"{".to_vec();
        for (index, (key, value)) in self.fields.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            out.push(b'"');
            out.extend_from_slice(key);
            out.extend_from_slice(b"\":");
            out.extend_from_slice(value);
        }
        out.push(b'}');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(text: &str) -> serde_json::Value {
        let mut summary = Summary::default();
        summary.feed(text.as_bytes());
        serde_json::from_slice(&summary.finish()).unwrap()
    }

    #[test]
    fn a_summary_keeps_short_top_level_fields_only() {
        let text = r#"{"hook_event_name":"Stop","last_assistant_message":"say \"stop_hook_active\": true, {[","nested":{"stop_hook_active":false,"a":[1,"}"]},"stop_hook_active" : true , "n": -1.5e3,"z":null}"#;
        let found = summary(text);
        assert_eq!(found["hook_event_name"], "Stop");
        assert_eq!(found["stop_hook_active"], true);
        assert_eq!(found["n"], -1.5e3);
        assert!(found["z"].is_null() && found.get("nested").is_none());
    }

    #[test]
    fn the_models_text_cannot_forge_the_flag() {
        let long = "x".repeat(SUMMARY_STRING_BYTES * 2);
        let text = format!(
            r#"{{"hook_event_name":"Stop","last_assistant_message":"{long}\",\"stop_hook_active\":true,\"","stop_hook_active":false}}"#
        );
        let found = summary(&text);
        assert_eq!(found["stop_hook_active"], false);
        assert!(found.get("last_assistant_message").is_none());
    }

    #[test]
    fn an_over_long_stop_is_read_to_its_end_in_constant_memory() {
        let big = "y".repeat(MAX_EVENT_BYTES + 10);
        let payload =
            format!(r#"{{"hook_event_name":"Stop","last_assistant_message":"{big}","stop_hook_active":true}}"#);
        let Err(HookFailure::TooLarge(summary)) = read_payload(payload.as_bytes()) else { panic!("not too large") };
        let found: serde_json::Value = serde_json::from_slice(&summary).unwrap();
        assert_eq!(found, serde_json::json!({"hook_event_name": "Stop", "stop_hook_active": true}));
    }
}
