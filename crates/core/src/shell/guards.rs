//! Guards against hostile input: how deep the reader follows nested scripts, and the spellings
//! (deep nesting, huge descriptors, odd heredocs) that go to the tolerant reading instead of
//! brush-parser.

/// How deep scripts nest (`bash -c "sh -c '…'"`, `$(…)` in `$(…)`) before the rest is read by
/// the tolerant splitter, which does not nest: work stays linear in the line's length.
pub(super) const MAX_DEPTH: usize = 6;

/// Lines longer than this, nesting brackets deeper than `MAX_NESTING` or plain parentheses
/// deeper than `MAX_PARENTHESES` go to the tolerant reading: the parser recurses per bracket,
/// backtracks on parentheses (`nesting`), and a hostile line must exhaust neither stack nor time.
pub(super) const MAX_PARSED: usize = 256 * 1024;
pub(super) const MAX_NESTING: usize = 48;
pub(super) const MAX_PARENTHESES: usize = 10;

/// How deeply brackets nest in `text` outside quotes and comments, all kinds together and
/// plain parentheses alone (`(`, `((`, not `$(`): brush-parser backtracks on nested parentheses,
/// its time growing about fourfold with each `((` level (measured: eight levels take 1.6 ms,
/// sixteen take minutes), so such a line is read tolerantly. An over-estimate is safe.
pub(super) fn nesting(text: &str) -> (usize, usize) {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut parens, mut deepest_parens) = (0usize, 0usize);
    let mut previous = ' ';
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '\'' => {
                for inner in chars.by_ref() {
                    if inner == '\'' {
                        break;
                    }
                }
            }
            // A comment starts a word; a `#` inside a word is a character.
            '#' if previous.is_whitespace() || matches!(previous, ';' | '&' | '|' | '(' | ')') => {
                for inner in chars.by_ref() {
                    if inner == '\n' {
                        break;
                    }
                }
            }
            '(' | '{' | '[' => {
                depth += 1;
                deepest = deepest.max(depth);
                if c == '(' && previous != '$' {
                    parens += 1;
                    deepest_parens = deepest_parens.max(parens);
                }
            }
            ')' | '}' | ']' => {
                depth = depth.saturating_sub(1);
                if c == ')' {
                    parens = parens.saturating_sub(1);
                }
            }
            _ => {}
        }
        previous = c;
    }
    (deepest, deepest_parens)
}

/// Whether a number of ten digits or more stands right before `<` or `>` (`99999999999>x`):
/// brush-parser 0.4 unwraps its parse as a descriptor and panics. The panic is caught too
/// (`script`), but a known one is better not raised.
pub(super) fn huge_descriptor(text: &str) -> bool {
    let mut digits = 0usize;
    for c in text.chars() {
        match c {
            '0'..='9' => digits += 1,
            '<' | '>' if digits >= 10 => return true,
            _ => digits = 0,
        }
    }
    false
}

/// Whether a heredoc's delimiter is anything but a plain word (`<<EOF`, `<<-'EOF'`, `<<"x"`):
/// brush-parser 0.4 loops allocating without end on some (`<<o$( <<< m ` took 3 GB in three
/// seconds; found by fuzzing), which no deadline could contain in one process. Such a line is
/// read tolerantly.
pub(super) fn odd_heredoc(text: &str) -> bool {
    let mut rest = text;
    while let Some(at) = rest.find("<<") {
        let after = rest.get(at + 2..).unwrap_or_default();
        if let Some(here_string) = after.strip_prefix('<') {
            rest = here_string;
            continue;
        }
        let delimiter = after.strip_prefix('-').unwrap_or(after).trim_start_matches([' ', '\t']);
        let word: &str =
            delimiter.split(|c: char| c.is_whitespace() || ";&|<>()".contains(c)).next().unwrap_or_default();
        let plain = !word.is_empty() && word.chars().all(|c| c.is_alphanumeric() || "_-.'\"\\".contains(c));
        if !plain {
            return true;
        }
        rest = after;
    }
    false
}
