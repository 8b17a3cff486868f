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
    scan_with(text, false)
}

/// The items of a line the parser rejected: quotes, escapes and brackets dropped (so nothing is
/// unclosed), reserved words and heredocs read as plain words and redirections.
pub(super) fn scan_tolerant(text: &str) -> Vec<Item> {
    let cleaned: String = text
        .replace("$(", ";")
        .replace("${", "$")
        .chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .map(|c| if matches!(c, '(' | ')' | '`') { ';' } else { c })
        .collect();
    scan_with(&cleaned, true)
        .unwrap_or_else(|| cleaned.split_whitespace().map(|word| Item::Word(word.to_string())).collect())
}

fn scan_with(text: &str, tolerant: bool) -> Option<Vec<Item>> {
    let bytes = text.as_bytes();
    let mut items = Vec::new();
    let mut at = 0;
    // Whether the next word stands where a command's name would.
    let mut command_start = true;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b' ' | b'\t' => at += 1,
            b'\\' if bytes.get(at + 1) == Some(&b'\n') => at += 2,
            // After `|`, `&&` or `||` the command goes on past a newline.
            b'\n' if matches!(items.last(), Some(Item::Op(Op::Pipe | Op::AndOr))) => at += 1,
            b'\n' | b';' => {
                if byte == b';' && bytes.get(at + 1) == Some(&b';') && !tolerant {
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
                    at = redirect(text, at + skip, Redirect::Write, tolerant, &mut items)?;
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
                // `<(cmd)x`: a substitution inside a longer word is the parser's to read.
                if closing(text, at + 2, b')') != Some(end) && !tolerant {
                    return None;
                }
                items.push(Item::Word(text.get(at..end)?.to_string()));
                command_start = false;
                at = end;
            }
            b'<' | b'>' => at = redirection(text, at, tolerant, &mut items)?,
            b'(' | b')' => return None,
            // A comment, but not when reading tolerantly: quotes are gone, so a `#` that was
            // quoted would hide the rest of the line.
            b'#' if !tolerant => {
                at = bytes.iter().skip(at).position(|&b| b == b'\n').map_or(bytes.len(), |end| at + end)
            }
            _ => {
                let end = word_end(text, at)?;
                let word = text.get(at..end)?;
                // `2>file`, `2>&1`, `{fd}>file`: a number or `{NAME}` right before `<` or `>`
                // names a descriptor.
                let descriptor = word.bytes().all(|b| b.is_ascii_digit())
                    || (word.starts_with('{') && word.ends_with('}') && word.len() > 2);
                if matches!(bytes.get(end), Some(b'<' | b'>')) && descriptor {
                    at = redirection(text, end, tolerant, &mut items)?;
                    continue;
                }
                if command_start {
                    if RESERVED.contains(&word) {
                        if !tolerant {
                            return None;
                        }
                        // Read tolerantly, `if`, `then`, `do`, `!` … start the command after them.
                        at = end;
                        continue;
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
    // `a[0]=x`: an array element.
    let name = match name.split_once('[') {
        Some((array, index)) if index.ends_with(']') => array,
        _ => name,
    };
    name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A redirection operator at `at`, and its target.
fn redirection(text: &str, at: usize, tolerant: bool, items: &mut Vec<Item>) -> Option<usize> {
    let rest = text.get(at..)?;
    let (kind, length) = if rest.starts_with("<<<") {
        (Redirect::HereString, 3)
    } else if rest.starts_with("<<") {
        // A heredoc: its body follows the line; the parser reads it (tolerantly: its delimiter
        // is a word, its body lines are commands, which over-reads and so is safe).
        if !tolerant {
            return None;
        }
        (Redirect::Read, if rest.starts_with("<<-") { 3 } else { 2 })
    } else if rest.starts_with(">&") || rest.starts_with("<&") {
        (Redirect::Duplicate, 2)
    } else if rest.starts_with(">>") || rest.starts_with(">|") || rest.starts_with("<>") {
        (Redirect::Write, 2)
    } else if rest.starts_with('>') {
        (Redirect::Write, 1)
    } else {
        (Redirect::Read, 1)
    };
    redirect(text, at + length, kind, tolerant, items)
}

/// The target word of a redirection whose operator ends at `at`.
fn redirect(text: &str, mut at: usize, kind: Redirect, tolerant: bool, items: &mut Vec<Item>) -> Option<usize> {
    let bytes = text.as_bytes();
    while matches!(bytes.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    match bytes.get(at) {
        // No target: a syntax error the parser reports (tolerantly, the operator is skipped).
        None | Some(b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')') => tolerant.then_some(at),
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
            b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')' => break,
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
fn backquoted_end(text: &str, at: usize) -> Option<usize> {
    escaped_end(text, at, b'`')
}

/// After `$'`: the index after the closing `'`.
fn ansi_c_end(text: &str, at: usize) -> Option<usize> {
    escaped_end(text, at, b'\'')
}

/// The index after the first `close` at or after `at` that no backslash escapes.
fn escaped_end(text: &str, mut at: usize, close: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    loop {
        match *bytes.get(at)? {
            byte if byte == close => return Some(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
}

/// After an opening `(` or `{`: the index after its `close`, quotes and nested pairs skipped.
pub(super) fn closing(text: &str, mut at: usize, close: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let open = if close == b')' { b'(' } else { b'{' };
    let mut depth = 1usize;
    loop {
        let byte = *bytes.get(at)?;
        match byte {
            b'\\' => at += 2,
            b'\'' => at = bytes.iter().skip(at + 1).position(|&b| b == b'\'').map(|end| at + end + 2)?,
            // A comment inside `$(…)` may hide the closing parenthesis: the parser's to read.
            b'#' if close == b')'
                && at > 0
                && matches!(bytes.get(at - 1), Some(b' ' | b'\t' | b'\n' | b'(' | b';')) =>
            {
                return None
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
/// `$`, a backquote or a `~+`/`~-` (the parser's word reader handles those).
pub(super) fn plain_text(raw: &str) -> Option<String> {
    // `~+` and `~-` are directories, not text: the parser's word reader expands them.
    if raw.contains(['$', '`']) || raw.starts_with("~+") || raw.starts_with("~-") {
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

/// Brace expansion as bash does it before anything else: `/{etc,usr}` is `/etc` and `/usr`,
/// `{rm,-rf,/}` is three words (nested braces too; quoted, `${…}` and comma-less braces stay;
/// an empty alternative makes no word).
/// At most 256 words: a word that would make more stays whole.
pub(super) fn expand_braces(raw: &str) -> Vec<String> {
    let mut words = vec![raw.to_string()];
    if !raw.contains('{') {
        return words;
    }
    for _ in 0..16 {
        let mut next = Vec::new();
        let mut changed = false;
        for word in &words {
            match brace_at(word) {
                Some((open, close, commas)) => {
                    changed = true;
                    let head = word.get(..open).unwrap_or_default();
                    let tail = word.get(close + 1..).unwrap_or_default();
                    let mut start = open + 1;
                    for comma in commas.iter().copied().chain(std::iter::once(close)) {
                        next.push(format!("{head}{}{tail}", word.get(start..comma).unwrap_or_default()));
                        start = comma + 1;
                    }
                }
                None => next.push(word.clone()),
            }
        }
        if !changed {
            break;
        }
        if next.len() > 256 {
            return vec![raw.to_string()];
        }
        words = next;
    }
    // An empty alternative is no word at all, as an unquoted empty word is not (`bash {-c,}
    // 'rm -rf ~'` is `bash -c 'rm -rf ~'`).
    words.retain(|word| !word.is_empty());
    words
}

/// The first unquoted `{` whose matching `}` holds a top-level comma: its index, the `}`'s,
/// and the commas'.
fn brace_at(word: &str) -> Option<(usize, usize, Vec<usize>)> {
    let bytes = word.as_bytes();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'\\' => at += 2,
            b'\'' => at = bytes.iter().skip(at + 1).position(|&b| b == b'\'').map_or(bytes.len(), |end| at + end + 2),
            b'"' => at = double_quoted_end(word, at + 1).unwrap_or(bytes.len()),
            b'$' if bytes.get(at + 1) == Some(&b'{') => at = closing(word, at + 2, b'}').unwrap_or(bytes.len()),
            b'$' if bytes.get(at + 1) == Some(&b'(') => at = closing(word, at + 2, b')').unwrap_or(bytes.len()),
            b'{' => {
                let mut depth = 0usize;
                let mut commas = Vec::new();
                let mut inner = at + 1;
                while let Some(&c) = bytes.get(inner) {
                    match c {
                        b'\\' => inner += 1,
                        b'{' => depth += 1,
                        b'}' if depth == 0 => break,
                        b'}' => depth -= 1,
                        b',' if depth == 0 => commas.push(inner),
                        b'\'' | b'"' => return None,
                        _ => {}
                    }
                    inner += 1;
                }
                if bytes.get(inner) == Some(&b'}') && !commas.is_empty() {
                    return Some((at, inner, commas));
                }
                at += 1;
            }
            _ => at += 1,
        }
    }
    None
}

/// The scripts of the `$(…)` and backquoted substitutions in a text (outside single quotes).
pub(super) fn substitutions(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'\\' => at += 2,
            b'\'' => at = bytes.iter().skip(at + 1).position(|&b| b == b'\'').map_or(bytes.len(), |end| at + end + 2),
            b'$' if bytes.get(at + 1) == Some(&b'(') && bytes.get(at + 2) != Some(&b'(') => {
                match closing(text, at + 2, b')') {
                    Some(end) => {
                        found.extend(text.get(at + 2..end - 1));
                        at = end;
                    }
                    None => at += 2,
                }
            }
            b'`' => match backquoted_end(text, at + 1) {
                Some(end) => {
                    found.extend(text.get(at + 1..end - 1));
                    at = end;
                }
                None => at += 1,
            },
            _ => at += 1,
        }
    }
    found
}
