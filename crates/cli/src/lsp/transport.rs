//! The LSP's framing on stdin and stdout, with every input bounded: `Content-Length` headers,
//! then a JSON body. lsp-server's own reader allocates whatever length a header claims (a length
//! of 99999999999 aborted the process, 2^64 - 1 panicked its thread), so frames are read here,
//! within the limits below, and handed to lsp-server's in-memory connection.
//!
//! A frame over a limit is refused with an error on stderr and a `window/showMessage` to the
//! editor, never an allocation abort or a panic: a body over the size limit is skipped (read and
//! dropped in constant memory) and the server goes on; a header over its limits means the
//! stream cannot be followed any more, and the server stops.

use lsp_server::{Message, Notification};
use std::io::{BufRead, Read, Write};

/// The largest body read: a rule file may be 64 MiB (`source::MAX_SOURCE_BYTES`); its JSON
/// escaping may double it.
pub(crate) const MAX_BODY_BYTES: u64 = 2 * hookc_core::source::MAX_SOURCE_BYTES + 64 * 1024;
/// The most header lines in one frame.
pub(crate) const MAX_HEADERS: usize = 16;
/// The longest header line.
pub(crate) const MAX_HEADER_LINE: usize = 1024;
/// The deepest nesting of objects and arrays in a body (LSP messages nest a few levels).
pub(crate) const MAX_JSON_DEPTH: usize = 64;

/// What reading one frame gave.
#[derive(Debug)]
pub(crate) enum Frame {
    /// A message.
    Message(Message),
    /// A frame that was refused, and why; the stream goes on after it.
    Refused(String),
    /// The stream cannot be read on (end of input, a broken header), and why.
    End(Option<String>),
}

/// Reads the next frame.
pub(crate) fn read_frame(input: &mut impl BufRead) -> Frame {
    read_frame_within(input, MAX_BODY_BYTES)
}

/// Reads the next frame, its body at most `max_body` bytes.
fn read_frame_within(input: &mut impl BufRead, max_body: u64) -> Frame {
    let mut length: Option<u64> = None;
    let mut headers = 0;
    loop {
        let mut line = Vec::new();
        match input.by_ref().take(MAX_HEADER_LINE as u64 + 1).read_until(b'\n', &mut line) {
            Ok(0) if headers == 0 => return Frame::End(None),
            Ok(0) => return Frame::End(Some("the input ended inside a frame's headers".into())),
            Ok(_) => {}
            Err(error) => return Frame::End(Some(format!("cannot read the input: {error}"))),
        }
        if line.len() > MAX_HEADER_LINE || !line.ends_with(b"\n") {
            return Frame::End(Some(format!("a header line is longer than {MAX_HEADER_LINE} bytes")));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        headers += 1;
        if headers > MAX_HEADERS {
            return Frame::End(Some(format!("a frame has more than {MAX_HEADERS} headers")));
        }
        let Some((name, value)) = text.split_once(':') else {
            return Frame::End(Some(format!("`{}` is not a header", hookc_core::model::escape_controls(text))));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            match value.trim().parse::<u64>() {
                Ok(parsed) => length = Some(parsed),
                Err(_) => return Frame::End(Some(format!("`Content-Length: {}` is not a length", value.trim()))),
            }
        }
    }
    let Some(length) = length else { return Frame::End(Some("a frame has no Content-Length".into())) };
    if length > max_body {
        // Dropped as it is read: the stream stays in step.
        return match std::io::copy(&mut input.by_ref().take(length), &mut std::io::sink()) {
            Ok(skipped) if skipped == length => {
                Frame::Refused(format!("a message of {length} bytes is over the {max_body}-byte limit"))
            }
            _ => Frame::End(Some(format!("the input ended inside a message of {length} bytes"))),
        };
    }
    let mut body = Vec::new();
    match input.by_ref().take(length).read_to_end(&mut body) {
        Ok(read) if read as u64 == length => {}
        _ => return Frame::End(Some(format!("the input ended inside a message of {length} bytes"))),
    }
    if depth(&body) > MAX_JSON_DEPTH {
        return Frame::Refused(format!("a message nests deeper than {MAX_JSON_DEPTH} levels"));
    }
    match serde_json::from_slice::<Message>(&body) {
        Ok(message) => Frame::Message(message),
        Err(error) => Frame::Refused(format!("a message is not a JSON-RPC message: {error}")),
    }
}

/// How deep objects and arrays nest in JSON text (brackets outside strings).
fn depth(json: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &byte in json {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, ..) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'{' | b'[') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, _, b'}' | b']') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Tells the editor and stderr that a frame was refused.
fn refused(out: &std::sync::Mutex<std::io::Stdout>, why: &str) {
    eprintln!("hookc lsp: {why}");
    let params = serde_json::json!({"type": 1, "message": format!("hookc lsp: {why}")});
    let message = Message::Notification(Notification::new("window/showMessage".into(), params));
    let mut out = out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let _ = message.write(&mut *out).and_then(|()| out.flush());
}

/// Runs the reader and the writer between stdio and `client` (the other end of the server's
/// in-memory connection). Returns the writer's thread, which ends when the server drops its end.
pub(crate) fn stdio(client: lsp_server::Connection) -> std::thread::JoinHandle<()> {
    let stdout = std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
    let writer_out = std::sync::Arc::clone(&stdout);
    let lsp_server::Connection { sender, receiver } = client;
    let writer = std::thread::spawn(move || {
        for message in receiver {
            let mut out = writer_out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if message.write(&mut *out).and_then(|()| out.flush()).is_err() {
                return;
            }
        }
    });
    // The reader is not joined: it may be blocked on stdin when the server exits.
    std::thread::spawn(move || {
        let mut input = std::io::BufReader::new(std::io::stdin().lock());
        loop {
            match read_frame(&mut input) {
                Frame::Message(message) => {
                    if sender.send(message).is_err() {
                        return;
                    }
                }
                Frame::Refused(why) => refused(&stdout, &why),
                Frame::End(why) => {
                    if let Some(why) = why {
                        refused(&stdout, &format!("{why}; stopping"));
                    }
                    // Dropping the sender ends the server's loop, as `exit` would.
                    return;
                }
            }
        }
    });
    writer
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<String> {
        let mut reader = std::io::BufReader::new(input);
        let mut out = Vec::new();
        loop {
            match read_frame_within(&mut reader, 1000) {
                Frame::Message(Message::Notification(note)) => out.push(format!("note {}", note.method)),
                Frame::Message(other) => out.push(format!("{other:?}")),
                Frame::Refused(why) => out.push(format!("refused {why}")),
                Frame::End(why) => {
                    out.push(format!("end {}", why.unwrap_or_default()));
                    return out;
                }
            }
        }
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn limits_refuse_frames_without_allocating_what_they_claim() {
        let ok = frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
        let deep = frame(&format!("{}{}", "[".repeat(100), "]".repeat(100)));
        let input = format!("{ok}{deep}Content-Length: 99999999999\r\n\r\n");
        let found = frames(input.as_bytes());
        assert_eq!(found[0], "note initialized");
        assert!(found[1].starts_with("refused a message nests deeper"), "{found:?}");
        assert!(found[2].starts_with("end the input ended inside a message of 99999999999"), "{found:?}");
        let found = frames(format!("Content-Length: {}\r\n\r\n", u64::MAX).as_bytes());
        assert!(found[0].starts_with("end the input ended inside"), "{found:?}");
        let found = frames(b"Content-Length: 18446744073709551616\r\n\r\n");
        assert!(found[0].contains("is not a length"), "{found:?}");
        let long_header = format!("X-A: {}\r\n", "a".repeat(5000));
        assert!(frames(long_header.as_bytes())[0].contains("longer than"));
        let many = format!("{}\r\n", "X-A: b\r\n".repeat(20));
        assert!(frames(many.as_bytes())[0].contains("more than 16 headers"));
        // An over-long body is skipped and the stream stays in step.
        let input = format!("Content-Length: 1001\r\n\r\n{}{ok}", " ".repeat(1001));
        let found = frames(input.as_bytes());
        assert!(found[0].starts_with("refused a message of"), "{found:?}");
        assert_eq!(found[1], "note initialized");
    }
}
