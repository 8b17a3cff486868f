//! SARIF 2.1.0 output (`hookc check --format sarif`), so GitHub code scanning and other tools
//! show findings on pull requests.

use super::{Code, Diagnostic, Severity};
use crate::source::{SourceMap, Span};
use serde_json::{json, Value};

/// The SARIF log for a check run.
pub fn log(diagnostics: &[Diagnostic], sources: &SourceMap) -> Value {
    let rules: Vec<Value> = Code::ALL
        .iter()
        .map(|code| {
            let doc = code.doc();
            json!({
                "id": code.as_str(),
                "shortDescription": {"text": code.summary()},
                "fullDescription": {"text": doc.what},
                "help": {"text": format!("{} Fix: {}", doc.why, doc.fix), "markdown": code.explain()},
                "defaultConfiguration": {"level": level(code.severity())},
            })
        })
        .collect();
    let results: Vec<Value> = diagnostics
        .iter()
        .map(|diagnostic| {
            let mut text = diagnostic.message.clone();
            if !diagnostic.label.is_empty() {
                text = format!("{text}: {}", diagnostic.label);
            }
            if let Some(help) = &diagnostic.help {
                text = format!("{text} (help: {help})");
            }
            let related: Vec<Value> = diagnostic
                .secondary
                .iter()
                .enumerate()
                .map(|(id, label)| {
                    let mut location = location(label.span, sources);
                    if let Some(fields) = location.as_object_mut() {
                        fields.insert("id".into(), json!(id));
                        fields.insert("message".into(), json!({"text": label.message}));
                    }
                    location
                })
                .collect();
            json!({
                "ruleId": diagnostic.code.as_str(),
                "ruleIndex": Code::ALL.iter().position(|code| *code == diagnostic.code),
                "level": level(diagnostic.severity),
                "message": {"text": text},
                "locations": [location(diagnostic.span, sources)],
                "relatedLocations": related,
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "hookc",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
            "originalUriBaseIds": base().map(|base| json!({SRCROOT: {"uri": base.as_str()}})),
        }],
    })
}

/// The base id relative file URIs are resolved against: the directory `check` ran in.
const SRCROOT: &str = "%SRCROOT%";

/// The directory `check` ran in, as a `file://` URI ending in `/`.
fn base() -> Option<url::Url> {
    std::env::current_dir().ok().and_then(|dir| crate::paths::file_url(&dir, true))
}

/// A file's location: a percent-encoded URI relative to [`SRCROOT`] for a relative path (as
/// code scanning wants it, so results match the repository's files), else a `file://` URI.
fn artifact(path: &std::path::Path) -> Value {
    let base = base();
    let relative = base.as_ref().filter(|_| path.is_relative()).and_then(|base| {
        let dir = crate::paths::url_file(base)?;
        let full = crate::paths::file_url(&dir.join(path), false)?;
        base.make_relative(&full)
    });
    match relative {
        Some(uri) => json!({"uri": uri, "uriBaseId": SRCROOT}),
        None => match std::path::absolute(path).ok().and_then(|path| crate::paths::file_url(&path, false)) {
            Some(uri) => json!({"uri": uri.as_str()}),
            None => json!({"uri": path.to_string_lossy().replace('\\', "/")}),
        },
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn location(span: Span, sources: &SourceMap) -> Value {
    let Some(file) = sources.get(span.file) else { return json!({}) };
    let (start_line, start_column) = file.line_col(span.start as usize);
    let (end_line, end_column) = file.line_col(span.end as usize);
    json!({"physicalLocation": {
        "artifactLocation": artifact(&file.path),
        "region": {"startLine": start_line, "startColumn": start_column, "endLine": end_line, "endColumn": end_column},
    }})
}
