//! The data model every stage shares: the [`Event`] an agent hands hookc at a hook point and the
//! [`HookResult`] it gets back, with the seed's merge rules. It sits below every stage: syntax,
//! check, compile, eval and the adapters all read it, and it reads none of them.

pub mod event;
pub mod result;

pub use event::{Event, EventData};
pub use result::{BlockingError, HookResult, Permission, ToolOutput};

/// Keeps the first of each equal item, in order (one pass, a set of what was seen).
pub(crate) fn dedup_in_order<T: Clone + Eq + std::hash::Hash>(items: &mut Vec<T>) {
    dedup_in_order_by(items, T::clone);
}

/// Keeps the first item of each key, in order.
pub(crate) fn dedup_in_order_by<T, K: Eq + std::hash::Hash>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    let mut seen = rustc_hash::FxHashSet::default();
    items.retain(|item| seen.insert(key(item)));
}

/// Text from an event made safe for a line-oriented channel (stderr, the audit log's text):
/// control characters are escaped (`\n`, `\u{1b}`), so a command with a newline cannot forge a
/// second `hookc: …` line, and an escape sequence cannot repaint the terminal.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            escaped.extend(c.escape_default());
        } else {
            escaped.push(c);
        }
    }
    std::borrow::Cow::Owned(escaped)
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_cannot_forge_lines() {
        let forged = super::escape_controls("ls\nhookc: log: allow-all: fine\u{1b}[2J\t");
        assert_eq!(forged, "ls\\nhookc: log: allow-all: fine\\u{1b}[2J\\t");
        assert!(!forged.contains('\n'));
        assert_eq!(super::escape_controls("plain é"), "plain é");
    }
}
