//! The fast path for the command lines agents send most: simple commands joined by `;`, `&&`,
//! `||`, `|`, `&` and newlines, with quotes, escapes, `$(…)`, backticks, `<(…)` and
//! redirections. brush-parser reads every line correctly but costs 2–5 µs before a word is
//! looked at; this scanner reads these lines in well under that, and answers `None` — hand the
//! line to brush — for anything else: subshells and groups, `if`/`for`/`while`/`case`, functions,
//! heredocs, `[[ ]]`, `(( ))`, arrays. A differential test (`tests.rs`) holds the two to the same
//! reading of every line the scanner accepts.

/// One piece of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Item {
    /// A word, as written (quotes and escapes still in place).
    Word(String),
    /// A redirection: how, and its target word as written.
    Redirect(Redirect, String),
    /// An operator between commands.
    Op(Op),
}

/// A redirection's direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Redirect {
    /// `<`: a file read.
    Read,
    /// `>`, `>>`, `>|`, `<>`, `&>`, `&>>` (a file written).
    Write,
    /// `>&`, `<&`: a descriptor duplicated (`2>&1`), or with a file name, the file written.
    Duplicate,
    /// `<<<`: the word is the command's standard input.
    HereString,
}

/// An operator between commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    /// `;`, `&` or a newline: the next command starts a new pipeline.
    Sequence,
    /// `&&` or `||`.
    AndOr,
    /// `|` or `|&`: the next command reads this one's output.
    Pipe,
}

/// Words that start a construct the scanner leaves to the parser, when they stand where a
/// command's name would.
const RESERVED: &[&str] = &[
    "{", "}", "!", "if", "then", "elif", "else", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "function", "select", "coproc", "[[", "]]", "((",
];

/// The line's items, or `None` when it uses a construct the scanner leaves to the parser.
pub(super) fn scan(text: &str) -> Option<Vec<Item>> {
    let bytes = text.as_bytes();
    let mut items = Vec::new();
    let mut at = 0;
    // Whether the next word stands where a command's name would.
    let mut command_start = true;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b' ' | b'\t' | b'\r' => at += 1,
            b'\\' if bytes.get(at + 1) == Some(&b'\n') => at += 2,
            b'\n' | b';' => {
                if byte == b';' && bytes.get(at + 1) == Some(&b';') {
                    return None;
                }
                items.push(Item::Op(Op::Sequence));
                command_start = true;
                at += 1;
            }
            b'&' => match bytes.get(at + 1) {
                Some(b'&') => {
                    items.push(Item::Op(Op::AndOr));
                    command_start = true;
                    at += 2;
                }
                Some(b'>') => {
                    let skip = if bytes.get(at + 2) == Some(&b'>') { 3 } else { 2 };
                    at = redirect(text, at + skip, Redirect::Write, &mut items)?;
                }
                _ => {
                    items.push(Item::Op(Op::Sequence));
                    command_start = true;
                    at += 1;
                }
            },
            b'|' => {
                let (op, skip) = match bytes.get(at + 1) {
                    Some(b'|') => (Op::AndOr, 2),
                    Some(b'&') => (Op::Pipe, 2),
                    _ => (Op::Pipe, 1),
                };
                items.push(Item::Op(op));
                command_start = true;
                at += skip;
            }
            b'<' | b'>' if bytes.get(at + 1) == Some(&b'(') => {
                let end = word_end(text, at)?;
                items.push(Item::Word(text.get(at..end)?.to_string()));
                command_start = false;
                at = end;
            }
            b'<' | b'>' => at = redirection(text, at, &mut items)?,
            b'(' | b')' => return None,
            b'#' => at = bytes.iter().skip(at).position(|&b| b == b'\n').map_or(bytes.len(), |end| at + end),
            _ => {
                let end = word_end(text, at)?;
                let word = text.get(at..end)?;
                // `2>file`, `2>&1`: a number right before `<` or `>` names a descriptor.
                if matches!(bytes.get(end), Some(b'<' | b'>')) && word.bytes().all(|b| b.is_ascii_digit()) {
                    at = redirection(text, end, &mut items)?;
                    continue;
                }
                if command_start {
                    if RESERVED.contains(&word) {
                        return None;
                    }
                    // `A=b cmd`: assignments keep the command's name to come.
                    command_start = is_assignment(word);
                }
                items.push(Item::Word(word.to_string()));
                at = end;
            }
        }
    }
    Some(items)
}

/// `NAME=…` or `NAME+=…`.
pub(super) fn is_assignment(word: &str) -> bool {
    let Some(equals) = word.find('=') else { return false };
    let name = word.get(..equals).unwrap_or_default();
    let name = name.strip_suffix('+').unwrap_or(name);
    name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A redirection operator at `at`, and its target.
fn redirection(text: &str, at: usize, items: &mut Vec<Item>) -> Option<usize> {
    let rest = text.get(at..)?;
    let (kind, length) = if rest.starts_with("<<<") {
        (Redirect::HereString, 3)
    } else if rest.starts_with("<<") {
        // A heredoc: its body follows the line; the parser reads it.
        return None;
    } else if rest.starts_with(">&") || rest.starts_with("<&") {
        (Redirect::Duplicate, 2)
    } else if rest.starts_with(">>") || rest.starts_with(">|") || rest.starts_with("<>") {
        (Redirect::Write, 2)
    } else if rest.starts_with('>') {
        (Redirect::Write, 1)
    } else {
        (Redirect::Read, 1)
    };
    redirect(text, at + length, kind, items)
}

/// The target word of a redirection whose operator ends at `at`.
fn redirect(text: &str, mut at: usize, kind: Redirect, items: &mut Vec<Item>) -> Option<usize> {
    let bytes = text.as_bytes();
    while matches!(bytes.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    match bytes.get(at) {
        None | Some(b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')') => None,
        Some(_) => {
            let end = word_end(text, at)?;
            items.push(Item::Redirect(kind, text.get(at..end)?.to_string()));
            Some(end)
        }
    }
}

/// Where the word starting at `at` ends: at an unquoted blank or operator. `None` for an
/// unclosed quote or substitution.
fn word_end(text: &str, mut at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    // A process substitution is one word.
    if matches!(bytes.get(at), Some(b'<' | b'>')) && bytes.get(at + 1) == Some(&b'(') {
        at = closing(text, at + 2, b')')?;
    }
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')' => break,
            b'\\' => at += 2,
            b'\'' => at = bytes.iter().skip(at + 1).position(|&b| b == b'\'').map(|end| at + end + 2)?,
            b'"' => at = double_quoted_end(text, at + 1)?,
            b'`' => at = backquoted_end(text, at + 1)?,
            b'$' => match bytes.get(at + 1) {
                Some(b'(') => at = closing(text, at + 2, b')')?,
                Some(b'{') => at = closing(text, at + 2, b'}')?,
                Some(b'\'') => at = ansi_c_end(text, at + 2)?,
                _ => at += 1,
            },
            _ => at += 1,
        }
    }
    Some(at.min(bytes.len()))
}

/// After the opening `"`: the index after the closing one.
fn double_quoted_end(text: &str, mut at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    loop {
        match bytes.get(at)? {
            b'"' => return Some(at + 1),
            b'\\' => at += 2,
            b'`' => at = backquoted_end(text, at + 1)?,
            b'$' if bytes.get(at + 1) == Some(&b'(') => at = closing(text, at + 2, b')')?,
            b'$' if bytes.get(at + 1) == Some(&b'{') => at = closing(text, at + 2, b'}')?,
            _ => at += 1,
        }
    }
}

/// After the opening backquote: the index after the closing one.
fn backquoted_end(text: &str, mut at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    loop {
        match bytes.get(at)? {
            b'`' => return Some(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
}

/// After `$'`: the index after the closing `'`.
fn ansi_c_end(text: &str, mut at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    loop {
        match bytes.get(at)? {
            b'\'' => return Some(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
}

/// After an opening `(` or `{`: the index after its `close`, quotes and nested pairs skipped.
fn closing(text: &str, mut at: usize, close: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let open = if close == b')' { b'(' } else { b'{' };
    let mut depth = 1usize;
    loop {
        let byte = *bytes.get(at)?;
        match byte {
            b'\\' => at += 2,
            b'\'' if close == b')' => {
                at = bytes.iter().skip(at + 1).position(|&b| b == b'\'').map(|end| at + end + 2)?
            }
            b'"' => at = double_quoted_end(text, at + 1)?,
            b'`' => at = backquoted_end(text, at + 1)?,
            _ if byte == open => {
                depth += 1;
                at += 1;
            }
            _ if byte == close => {
                depth -= 1;
                at += 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            // A heredoc or a `case` inside a substitution: the parser reads it.
            b'<' if bytes.get(at + 1) == Some(&b'<') && bytes.get(at + 2) != Some(&b'<') => return None,
            _ => at += 1,
        }
    }
}

/// A word's text when it has no expansion: quotes and escapes removed. `None` when it has
/// `$` or a backquote (the parser's word reader handles those).
pub(super) fn plain_text(raw: &str) -> Option<String> {
    if raw.contains(['$', '`']) {
        return None;
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    if next != '\n' {
                        out.push(next);
                    }
                }
            }
            '\'' => {
                for inner in chars.by_ref() {
                    if inner == '\'' {
                        break;
                    }
                    out.push(inner);
                }
            }
            '"' => {
                while let Some(inner) = chars.next() {
                    match inner {
                        '"' => break,
                        '\\' => match chars.next() {
                            Some(escaped @ ('"' | '\\')) => out.push(escaped),
                            Some('\n') => {}
                            Some(other) => {
                                out.push('\\');
                                out.push(other);
                            }
                            None => out.push('\\'),
                        },
                        other => out.push(other),
                    }
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}
