//! Tool output shapes: the text rules see as `output`, and how a rewritten text goes back into
//! the same shape, so the agent receives an answer it can use.

use serde_json::{json, Value};

/// A tool response's shape, as far as hookc can rewrite it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Shape {
    /// A plain JSON string.
    Text,
    /// `{"stdout": …, "stderr": …}` (Claude Code's Bash).
    Shell,
    /// `{"file": {"content": …}}` (Claude Code's Read).
    File,
    /// MCP content: `[{"type": "text", "text": …}, …]` or `{"content": [...]}`; rules see the
    /// text blocks, and a rewrite is text only (images and other blocks are withheld with it).
    McpContent,
    /// `{"llmContent": …}` (Gemini CLI).
    LlmContent,
    /// An object whose text is one string field: Claude Code's Grep (`content`, beside `mode`)
    /// and WebFetch (`result`, beside `url`).
    Field(&'static str),
    /// Anything else: rules see its strings, in order, separated by [`LEAF_SEPARATOR`]; a
    /// rewrite that keeps the separators (a redaction inside the strings) goes back string by
    /// string, so the structure (keys, numbers, kinds) is the tool's own.
    Json,
}

/// Between the strings of a JSON output as rules see it: the ASCII record separator, which no
/// text pattern matches by accident (`\s` does not; `.` does, so a redaction that crosses it
/// cannot go back string by string).
pub(super) const LEAF_SEPARATOR: char = '\u{1e}';

/// The output text of a tool response and its shape.
pub(super) fn read(response: &Value) -> (String, Shape) {
    if let Value::String(text) = response {
        return (text.clone(), Shape::Text);
    }
    if let Some(stdout) = response.get("stdout").and_then(Value::as_str) {
        let stderr = response.get("stderr").and_then(Value::as_str).unwrap_or("");
        // Claude Code shows Bash's `structuredContent` to the model in place of stdout.
        let structured = response.get("structuredContent").map(leaves).unwrap_or_default();
        let parts = [stdout]
            .into_iter()
            .chain((!stderr.is_empty()).then_some(stderr))
            .chain(structured.iter().map(|leaf| leaf.as_str()));
        return (parts.collect::<Vec<_>>().join("\n"), Shape::Shell);
    }
    if let Some(content) = response.pointer("/file/content").and_then(Value::as_str) {
        return (content.to_string(), Shape::File);
    }
    if let Some(text) = mcp_text(response) {
        return (text, Shape::McpContent);
    }
    if let Some(content) = response.get("llmContent").and_then(Value::as_str) {
        return (content.to_string(), Shape::LlmContent);
    }
    for (field, beside) in TEXT_FIELDS {
        if let (Some(text), true) = (response.get(field).and_then(Value::as_str), response.get(beside).is_some()) {
            return (text.to_string(), Shape::Field(field));
        }
    }
    (leaves(response).join(&LEAF_SEPARATOR.to_string()), Shape::Json)
}

/// The strings of a JSON value, depth first.
fn leaves(value: &Value) -> Vec<String> {
    let mut found = Vec::new();
    visit_leaves(value, &mut |leaf| found.push(leaf.clone()));
    found
}

fn visit_leaves(value: &Value, visit: &mut impl FnMut(&String)) {
    match value {
        Value::String(text) => visit(text),
        Value::Array(items) => items.iter().for_each(|item| visit_leaves(item, visit)),
        Value::Object(fields) => fields.values().for_each(|field| visit_leaves(field, visit)),
        _ => {}
    }
}

/// The value with its strings replaced, in order; `false` if there are not as many.
fn replace_leaves(value: &mut Value, texts: &mut std::str::Split<'_, char>) -> bool {
    match value {
        Value::String(text) => match texts.next() {
            Some(new) => {
                *text = new.to_string();
                true
            }
            None => false,
        },
        Value::Array(items) => items.iter_mut().all(|item| replace_leaves(item, texts)),
        Value::Object(fields) => fields.values_mut().all(|field| replace_leaves(field, texts)),
        _ => true,
    }
}

/// Objects whose text is one string field, told apart by a field beside it.
const TEXT_FIELDS: [(&str, &str); 2] = [("content", "mode"), ("result", "url")];

/// The concatenated text blocks of MCP content (a list of typed blocks with at least one
/// text block); other blocks (images, resources) are not text rules can read.
fn mcp_text(response: &Value) -> Option<String> {
    let parts = match response {
        Value::Array(parts) => parts,
        Value::Object(object) => object.get("content")?.as_array()?,
        _ => return None,
    };
    if !parts.iter().all(|part| part.get("type").is_some_and(Value::is_string)) {
        return None;
    }
    let texts: Vec<&str> = parts
        .iter()
        .filter(|part| part.get("type") == Some(&json!("text")))
        .filter_map(|part| part.get("text")?.as_str())
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

/// The response with its text replaced, in its own shape; `None` when the text cannot go back
/// into it (a rewrite of a JSON response that is no longer JSON of the same structure).
pub(super) fn rewrite(response: &Value, shape: &Shape, text: &str) -> Option<Value> {
    let mut updated = response.clone();
    match shape {
        Shape::Text => return Some(Value::String(text.to_string())),
        Shape::Shell => {
            // stdout and stderr were read as one text; the rewrite replaces both.
            let object = updated.as_object_mut()?;
            object.insert("stdout".into(), Value::String(text.to_string()));
            if object.contains_key("stderr") {
                object.insert("stderr".into(), Value::String(String::new()));
            }
            // Claude Code points the model at the whole output saved on disk when it is large,
            // and shows `structuredContent` in place of stdout: both were read into the text.
            object.remove("persistedOutputPath");
            object.remove("persistedOutputSize");
            object.remove("structuredContent");
        }
        Shape::File => *updated.pointer_mut("/file/content")? = Value::String(text.to_string()),
        Shape::McpContent => {
            let content = json!([{"type": "text", "text": text}]);
            match &mut updated {
                Value::Object(object) => {
                    object.insert("content".to_string(), content);
                }
                other => *other = content,
            }
        }
        Shape::LlmContent => {
            updated.as_object_mut()?.insert("llmContent".into(), Value::String(text.to_string()));
        }
        Shape::Field(field) => {
            updated.as_object_mut()?.insert(field.to_string(), Value::String(text.to_string()));
        }
        Shape::Json => {
            // An agent checks a tool's output against the tool's schema and drops one that
            // fails for the original: only the strings change, one for one.
            let mut texts = text.split(LEAF_SEPARATOR);
            let complete = replace_leaves(&mut updated, &mut texts) && texts.next().is_none();
            return complete.then_some(updated);
        }
    }
    Some(updated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_read_and_rewrite_in_place() {
        let cases = [
            (json!("plain"), "plain", Shape::Text, json!("new")),
            (
                json!({"stdout": "out", "stderr": "", "interrupted": false}),
                "out",
                Shape::Shell,
                json!({"stdout": "new", "stderr": "", "interrupted": false}),
            ),
            (
                json!({"stdout": "out", "stderr": "err"}),
                "out\nerr",
                Shape::Shell,
                json!({"stdout": "new", "stderr": ""}),
            ),
            (
                json!({"type": "text", "file": {"filePath": "/a", "content": "body"}}),
                "body",
                Shape::File,
                json!({"type": "text", "file": {"filePath": "/a", "content": "new"}}),
            ),
            (
                json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]),
                "a\nb",
                Shape::McpContent,
                json!([{"type": "text", "text": "new"}]),
            ),
            (
                json!({"llmContent": "x", "returnDisplay": "x"}),
                "x",
                Shape::LlmContent,
                json!({"llmContent": "new", "returnDisplay": "x"}),
            ),
        ];
        for (response, text, shape, rewritten) in cases {
            assert_eq!(read(&response), (text.to_string(), shape.clone()), "{response}");
            assert_eq!(rewrite(&response, &shape, "new"), Some(rewritten), "{response}");
        }
        let odd = json!({"filePath": "/a", "cells": [{"source": "k = \"v\"", "n": 1}], "mode": "x"});
        assert_eq!(
            read(&odd),
            ("/a\u{1e}k = \"v\"\u{1e}x".to_string(), Shape::Json),
            "strings as they are, not escaped"
        );
        let redacted = json!({"filePath": "/a", "cells": [{"source": "k = [v]", "n": 1}], "mode": "x"});
        assert_eq!(rewrite(&odd, &Shape::Json, "/a\u{1e}k = [v]\u{1e}x"), Some(redacted));
        // A rewrite that does not keep one text per string cannot go back.
        for changed in ["x", "/a\u{1e}k", "/a\u{1e}k\u{1e}x\u{1e}more"] {
            assert_eq!(rewrite(&odd, &Shape::Json, changed), None, "{changed}");
        }
        let bash = json!({"stdout": "ok", "stderr": "", "interrupted": false, "structuredContent": [{"type": "text", "text": "K"}]});
        assert_eq!(read(&bash), ("ok\ntext\nK".to_string(), Shape::Shell));
        assert_eq!(
            rewrite(&bash, &Shape::Shell, "new"),
            Some(json!({"stdout": "new", "stderr": "", "interrupted": false}))
        );
    }
}
