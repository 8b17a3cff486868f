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
    /// MCP content: `[{"type": "text", "text": …}]` or `{"content": [...]}`.
    McpContent,
    /// `{"llmContent": …}` (Gemini CLI).
    LlmContent,
    /// Anything else: rules see its JSON text; it cannot be rewritten in place.
    Unknown,
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
    (response.to_string(), Shape::Unknown)
}

/// The concatenated text parts of MCP content, if the response is MCP content with text only.
fn mcp_text(response: &Value) -> Option<String> {
    let parts = match response {
        Value::Array(parts) => parts,
        Value::Object(object) => object.get("content")?.as_array()?,
        _ => return None,
    };
    let texts: Option<Vec<&str>> =
        parts.iter().map(|part| (part.get("type")? == "text").then(|| part.get("text")?.as_str()).flatten()).collect();
    texts.filter(|texts| !texts.is_empty()).map(|texts| texts.join("\n"))
}

/// The response with its text replaced, in its own shape; `None` for an unknown shape.
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
        Shape::Unknown => return None,
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
        let odd = json!({"filePath": "/a", "structuredPatch": []});
        assert_eq!(read(&odd).1, Shape::Unknown);
        assert_eq!(rewrite(&odd, &Shape::Unknown, "x"), None);
    }
}
