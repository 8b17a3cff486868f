//! What the parser does after a syntax error: say where the real mistake is, then go on.
//!
//! pest stops at the first token it cannot take, which is often far from the mistake: a `(` left
//! open is reported at the `=>` or the next line's `rule`. So the text of the item the error is
//! in, up to the error, is scanned for a bracket or string left open, and the error is reported
//! at that opening, the place pest stopped being a secondary label.
//!
//! Then the broken item is blanked (its characters turned to spaces, line breaks kept, so every
//! later offset and line number stays the same) and the file parsed again, so the errors of later
//! items are reported too and the items that parsed are checked.

use crate::diagnostic::{Code, Diagnostic};
use crate::source::{FileId, Span};
use crate::vocab::EventKind;

/// At most this many syntax errors are reported per file; the rest of the file is dropped.
pub(super) const MAX_ERRORS: usize = 20;

/// The byte offsets where an item (a rule or a `let`) starts: lines that begin with `rule`, `let`
/// or an event name, the last unless the line before is a bare `rule NAME` header.
pub(super) fn item_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut after_header = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let at = offset + (line.len() - trimmed.len());
        offset += line.len();
        let first = first_word(trimmed);
        if first.is_empty() {
            // A blank or comment line keeps a header's rule open.
            continue;
        }
        let header = first == "rule";
        let event = EventKind::ALL.iter().any(|event| event.name() == first);
        if header || first == "let" || first == "waive" || first == "audit" || (event && !after_header) {
            starts.push(at);
        }
        // `rule NAME` alone on its line: the event on the next line belongs to it.
        after_header = header && trimmed.split_whitespace().nth(2).is_none_or(|word| word.starts_with('#'));
    }
    starts
}

/// The identifier a line starts with (empty for a comment or other punctuation).
fn first_word(line: &str) -> &str {
    let end = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(line.len());
    &line[..end]
}

/// The byte range of the item holding a syntax error at `at`: from the last item start before it
/// (an error at the very start of an item is the previous item's: it did not end) to the next
/// start after it, or the end of the text.
pub(super) fn broken_item(starts: &[usize], at: usize, len: usize) -> (usize, usize) {
    let start = starts.iter().copied().rfind(|start| *start < at).unwrap_or(0);
    let end = starts.iter().copied().find(|next| *next > start && *next >= at).unwrap_or(len);
    (start, end)
}

/// What is left open at the end of `text`: the innermost `(` or `[` not closed, or a string or
/// regex whose line ended first, as (offset, what it is, what would close it). A lexer of its
/// own, since the text does not parse: strings, regexes and comments are skipped.
pub(super) fn left_open(text: &str) -> Option<(usize, &'static str, &'static str)> {
    let mut open: Vec<(usize, u8)> = Vec::new();
    let bytes = text.as_bytes();
    let mut index = 0;
    let mut previous = b'\n';
    while let Some(&byte) = bytes.get(index) {
        // A regex's `/` follows a space or punctuation; a rule name's (`packs/name`) a letter.
        let regex_may_start = matches!(previous, b' ' | b'\t' | b'\n' | b'(' | b'[' | b',' | b'=');
        match byte {
            b'#' => index = line_end(bytes, index),
            b'"' | b'/' if byte == b'"' || regex_may_start => {
                let start = index;
                index += 1;
                loop {
                    match bytes.get(index) {
                        None | Some(b'\n') => {
                            let (what, close) = if byte == b'"' { ("string", "\"") } else { ("regex", "/") };
                            // Unterminated on its line: nothing after it in the item can be read.
                            return Some((start, what, close));
                        }
                        Some(b'\\') => index += 2,
                        Some(&next) if next == byte => break,
                        Some(_) => index += 1,
                    }
                }
                index += 1;
            }
            b'(' | b'[' => {
                open.push((index, byte));
                index += 1;
            }
            b')' | b']' => {
                open.pop();
                index += 1;
            }
            _ => index += 1,
        }
        previous = bytes.get(index.wrapping_sub(1)).copied().unwrap_or(b'\n');
    }
    open.pop().map(|(at, bracket)| match bracket {
        b'(' => (at, "`(`", ")"),
        _ => (at, "`[`", "]"),
    })
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes.iter().skip(from).position(|byte| *byte == b'\n').map_or(bytes.len(), |at| from + at)
}

/// pest's error, moved to the opening of what the broken item (`start..end`) leaves open when
/// there is one, where pest stopped kept as a secondary label.
pub(super) fn at_opening(file: FileId, text: &str, (start, end): (usize, usize), error: Diagnostic) -> Diagnostic {
    let Some((at, what, close)) = text.get(start..end).and_then(left_open) else { return error };
    let at = start + at;
    let (message, label) = match what {
        "string" | "regex" => {
            (format!("unterminated {what}"), format!("this {what} has no closing `{close}` on its line"))
        }
        bracket => (format!("unclosed {bracket}"), "opened here and never closed".to_string()),
    };
    let diagnostic = Diagnostic::new(Code::Syntax, Span::new(file, at, at + 1), message).label(label);
    if error.span.start as usize == at {
        return diagnostic;
    }
    diagnostic.secondary(error.span, format!("the parser stopped here; {}", error.message))
}

/// `text` with `start..end` blanked: every character but a line break becomes a space of the same
/// length in bytes, so offsets and lines elsewhere do not move.
pub(super) fn blank(text: &str, start: usize, end: usize) -> String {
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..start]);
    for c in text[start..end].chars() {
        match c {
            '\n' => out.push('\n'),
            c => out.extend(std::iter::repeat_n(' ', c.len_utf8())),
        }
    }
    out.push_str(&text[end..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_start_at_rules_lets_and_events_not_after_a_bare_header() {
        let text = "let a = [x]\nrule one\n# note\npre_tool_use when kind == write => deny\nstop => continue \"x\"\n  rule two pre_tool_use => deny\n";
        let starts = item_starts(text);
        let words: Vec<&str> = starts.iter().map(|at| first_word(&text[*at..])).collect();
        assert_eq!(words, ["let", "rule", "stop", "rule"]);
    }

    #[test]
    fn what_is_left_open_is_the_innermost_opening() {
        assert_eq!(left_open("pre_tool_use when (kind == write and path in [\"a\"]"), Some((18, "`(`", ")")));
        assert_eq!(left_open("x when path in [\"a\", (b"), Some((21, "`(`", ")")));
        assert_eq!(left_open("x => deny \"oops\nnext"), Some((10, "string", "\"")));
        assert_eq!(left_open("x when command matches /a(b/ and y"), None);
        assert_eq!(left_open("x when command matches /ab"), Some((23, "regex", "/")));
        assert_eq!(left_open("x when (a) # ( in a comment\n"), None);
        assert_eq!(left_open("rule packs/name x => deny \"(\""), None);
    }

    #[test]
    fn blanking_keeps_offsets_and_lines() {
        let text = "ab\ncdé\nf";
        let blanked = blank(text, 1, 7);
        assert_eq!(blanked.len(), text.len());
        assert_eq!(blanked, "a \n    \nf");
    }
}
