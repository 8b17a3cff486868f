//! String literals: escape decoding and `{field}` interpolation, with exact spans.
//!
//! The same decoder serves plain values (`path == "a\"b"`) and messages (`deny "blocked {path}"`);
//! only messages treat `{…}` as a field.

use super::ast::{Ident, StrLit};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;

/// A piece of a decoded string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Literal text.
    Text(String),
    /// `{field}`: the field's name and where it is.
    Field(Ident),
}

/// Decodes a string literal's escapes; with `interpolate`, `{name}` becomes a [`Piece::Field`].
pub(crate) fn decode(lit: &StrLit, interpolate: bool) -> Result<Vec<Piece>, Diagnostic> {
    let base = lit.body.start as usize;
    let span = |from: usize, to: usize| Span::new(lit.body.file, base + from, base + to);
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut chars = lit.raw.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                let Some((_, escaped)) = chars.next() else {
                    return Err(escape_error(span(at, at + 1), "\\"));
                };
                match escaped {
                    'n' => text.push('\n'),
                    't' => text.push('\t'),
                    'r' => text.push('\r'),
                    '\\' | '"' | '{' | '}' => text.push(escaped),
                    other => return Err(escape_error(span(at, at + 1 + other.len_utf8()), &format!("\\{other}"))),
                }
            }
            '{' if interpolate => {
                let close = lit.raw.get(at..).and_then(|rest| rest.find('}')).map(|offset| at + offset);
                let Some(close) = close else {
                    return Err(Diagnostic::new(Code::BadEscape, span(at, at + 1), "unclosed `{` in string")
                        .label("this `{` starts a field but has no closing `}`")
                        .help("write `\\{` for a literal brace"));
                };
                let name = lit.raw.get(at + 1..close).unwrap_or("").trim();
                if name.is_empty() {
                    return Err(Diagnostic::new(Code::BadEscape, span(at, close + 1), "empty `{}` in string")
                        .label("expected a field name between the braces")
                        .help("write `\\{\\}` for literal braces"));
                }
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                pieces.push(Piece::Field(Ident { text: name.to_string(), span: span(at + 1, close) }));
                while chars.peek().is_some_and(|&(next, _)| next <= close) {
                    chars.next();
                }
            }
            '}' if interpolate => {
                return Err(Diagnostic::new(Code::BadEscape, span(at, at + 1), "unmatched `}` in string")
                    .label("no `{` opens this")
                    .help("write `\\}` for a literal brace"));
            }
            other => text.push(other),
        }
    }
    if !text.is_empty() || pieces.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

/// Decodes a string that must not interpolate, to its text.
pub(crate) fn decode_plain(lit: &StrLit) -> Result<String, Diagnostic> {
    Ok(decode(lit, false)?
        .into_iter()
        .map(|piece| match piece {
            Piece::Text(text) => text,
            Piece::Field(field) => field.text,
        })
        .collect())
}

fn escape_error(span: Span, escape: &str) -> Diagnostic {
    Diagnostic::new(Code::BadEscape, span, format!("unknown escape `{escape}` in string"))
        .label("unknown escape")
        .help("the escapes are `\\\"`, `\\\\`, `\\n`, `\\t`, `\\r`, `\\{` and `\\}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(raw: &str) -> StrLit {
        let body = Span::new(0, 1, 1 + raw.len());
        StrLit { raw: raw.to_string(), body, span: Span::new(0, 0, raw.len() + 2) }
    }

    #[test]
    fn escapes_decode_and_braces_interpolate() {
        let pieces = decode(&lit(r#"a\"b {path} \{x\}"#), true).unwrap();
        assert_eq!(pieces.len(), 3);
        assert_eq!(pieces[0], Piece::Text("a\"b ".into()));
        match &pieces[1] {
            Piece::Field(field) => {
                assert_eq!(field.text, "path");
                assert_eq!(field.span, Span::new(0, 7, 11));
            }
            other => panic!("expected a field, got {other:?}"),
        }
        assert_eq!(pieces[2], Piece::Text(" {x}".into()));
    }

    #[test]
    fn plain_strings_keep_braces() {
        assert_eq!(decode_plain(&lit("{a}")).unwrap(), "{a}");
    }

    #[test]
    fn bad_escapes_and_braces_are_errors() {
        assert!(decode(&lit(r"\q"), false).is_err());
        assert!(decode(&lit("{open"), true).is_err());
        assert!(decode(&lit("close}"), true).is_err());
        assert!(decode(&lit("{}"), true).is_err());
    }
}
