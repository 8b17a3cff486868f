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
    /// Anything else: rules see its JSON text, and a rewrite that is still JSON of the same
    /// structure (a redaction inside its strings) goes back as that JSON.
    Json,
}

/// The output text of a tool response and its shape.
pub(super) fn read(response: &Value) -> (String, Shape) {
    if let Value::String(text) = response {
        return (text.clone(), Shape::Text);
    }
    if let Some(stdout) = response.get("stdout").and_then(Value::as_str) {
        let stderr = response.get("stderr").and_then(Value::as_str).unwrap_or("");
        let text = if stderr.is_empty() { stdout.to_string() } else { format!("{stdout}\n{stderr}") };
        return (text, Shape::Shell);
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
    (response.to_string(), Shape::Json)
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
            // Claude Code points the model at the whole output saved on disk when it is large.
            object.remove("persistedOutputPath");
            object.remove("persistedOutputSize");
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
            let rewritten: Value = serde_json::from_str(text).ok()?;
            return same_structure(response, &rewritten).then_some(rewritten);
        }
    }
    Some(updated)
}

/// Whether two JSON values differ at most in their strings: same keys, same lengths, same
/// numbers, booleans and nulls. An agent checks a tool's output against the tool's schema, and
/// one that fails is dropped for the original; only strings are safe to change.
fn same_structure(old: &Value, new: &Value) -> bool {
    match (old, new) {
        (Value::String(_), Value::String(_)) => true,
        (Value::Array(old), Value::Array(new)) => {
            old.len() == new.len() && old.iter().zip(new).all(|(old, new)| same_structure(old, new))
        }
        (Value::Object(old), Value::Object(new)) => {
            old.len() == new.len()
                && old.iter().all(|(key, old)| new.get(key).is_some_and(|new| same_structure(old, new)))
        }
        (old, new) => old == new,
    }
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
        let odd = json!({"filePath": "/a", "structuredPatch": [], "n": 1});
        assert_eq!(read(&odd), (odd.to_string(), Shape::Json));
        assert_eq!(rewrite(&odd, &Shape::Json, "x"), None);
        let redacted = json!({"filePath": "/[x]", "structuredPatch": [], "n": 1});
        assert_eq!(rewrite(&odd, &Shape::Json, &redacted.to_string()), Some(redacted));
        // Only strings may change: another number, key or length is not the tool's output.
        for changed in [
            json!({"filePath": "/a", "structuredPatch": [], "n": 2}),
            json!({"filePath": "/a", "structuredPatch": [""], "n": 1}),
            json!({"file": "/a", "structuredPatch": [], "n": 1}),
        ] {
            assert_eq!(rewrite(&odd, &Shape::Json, &changed.to_string()), None, "{changed}");
        }
    }
}
