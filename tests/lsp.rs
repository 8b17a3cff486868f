//! `hookc lsp`, driven by a scripted client over stdio as an editor drives it.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Client {
    child: Child,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
    next_id: u64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hookc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let input = child.stdin.take();
        let output = BufReader::new(child.stdout.take().unwrap());
        Client { child, input, output, next_id: 1 }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        let input = self.input.as_mut().unwrap();
        write!(input, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        input.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.output.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = value.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.output.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message["id"] == id {
                return message;
            }
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics published.
    fn diagnostics(&mut self) -> Vec<Value> {
        loop {
            let message = self.receive();
            if message["method"] == "textDocument/publishDiagnostics" {
                return message["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }
}

impl Drop for Client {
    /// A failed test must not leave the server running (it holds the test's stderr).
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn labels(response: &Value) -> Vec<String> {
    response["result"].as_array().unwrap().iter().map(|item| item["label"].as_str().unwrap().to_string()).collect()
}

#[test]
fn an_editor_gets_diagnostics_completion_hover_and_formatting() {
    let dir = tempfile::tempdir().unwrap();
    // A list the document uses lives in another file of the directory.
    std::fs::write(dir.path().join("lists.rules"), "let protected = [\"generated.txt\"]\n").unwrap();
    let path = dir.path().join("policy.rules");
    let uri = url::Url::from_file_path(&path).unwrap().to_string();
    let mut client = Client::start();
    let init = client.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": {}}));
    assert_eq!(init["result"]["capabilities"]["hoverProvider"], true);
    client.notify("initialized", json!({}));

    let text =
        "pre_tool_use when path like protected => block \"hook_blocked\"\nstop when tol == 1 => continue \"x\"\n";
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "hookc", "version": 1, "text": text}}),
    );
    let diagnostics = client.diagnostics();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let unknown = &diagnostics[0];
    assert_eq!(unknown["code"], "E0102");
    assert!(unknown["message"].as_str().unwrap().contains("`tol`"), "{unknown}");
    assert_eq!(unknown["severity"], 1);
    assert_eq!(unknown["range"]["start"], json!({"line": 1, "character": 10}));
    assert!(unknown["message"].as_str().unwrap().contains("help:"), "{unknown}");

    // Fixed: the diagnostics clear.
    let fixed = "pre_tool_use when path like protected => block \"hook_blocked\"\nstop when tool_calls == 0 => continue \"x\"\n";
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(client.diagnostics(), Vec::<Value>::new());

    // Completion: what is valid at the cursor.
    let completion = |client: &mut Client, text: &str| {
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": text}]}),
        );
        let _ = client.diagnostics();
        let lines: Vec<&str> = text.split('\n').collect();
        let line = lines.len() - 1;
        let character = lines[line].encode_utf16().count();
        labels(&client.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        ))
    };
    let events = completion(&mut client, "pre");
    assert!(events.contains(&"pre_tool_use".to_string()) && events.contains(&"rule".to_string()), "{events:?}");
    let fields = completion(&mut client, "stop when not ");
    assert!(fields.contains(&"commands".to_string()) && fields.contains(&"files_written".to_string()), "{fields:?}");
    assert!(!fields.contains(&"path".to_string()), "stop has no `path`: {fields:?}");
    let kinds = completion(&mut client, "pre_tool_use when kind == ");
    assert_eq!(kinds.len(), 8, "{kinds:?}");
    assert!(kinds.contains(&"shell".to_string()));
    let actions = completion(&mut client, "post_tool_use when is_error\n  => ");
    assert!(actions.contains(&"redact".to_string()) && !actions.contains(&"deny".to_string()), "{actions:?}");
    let template = completion(&mut client, "pre_tool_use => deny \"blocked {");
    assert!(template.contains(&"command".to_string()), "{template:?}");
    // A command's fields inside `runs (…)` only, and the others outside it.
    let outside = completion(&mut client, "pre_tool_use when ");
    assert!(outside.contains(&"path".to_string()) && !outside.contains(&"flags".to_string()), "{outside:?}");
    assert!(!outside.contains(&"operands".to_string()), "{outside:?}");
    let inside = completion(&mut client, "pre_tool_use when runs rm (");
    assert!(inside.contains(&"flags".to_string()) && !inside.contains(&"path".to_string()), "{inside:?}");
    let after = completion(&mut client, "pre_tool_use when runs rm (flags in [r]) and ");
    assert!(after.contains(&"path".to_string()) && !after.contains(&"flags".to_string()), "{after:?}");
    // The values of a closed vocabulary after its field.
    let access = completion(&mut client, "pre_tool_use when access in [read, ");
    assert_eq!(access, ["read", "write", "use"], "{access:?}");
    let agents = completion(&mut client, "pre_tool_use when agent == ");
    assert!(agents.contains(&"claude".to_string()) && agents.contains(&"codex".to_string()), "{agents:?}");

    // Hover: fields, actions, events, codes.
    let text = "stop when not commands matches /make test/ => continue \"run make test\"\n# E0204\n";
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": text}]}),
    );
    let _ = client.diagnostics();
    let hover = |client: &mut Client, line: u64, character: u64| {
        let response = client.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        );
        response["result"]["contents"]["value"].as_str().unwrap_or_default().to_string()
    };
    assert!(hover(&mut client, 0, 16).contains("shell command lines the turn ran"), "field");
    assert!(hover(&mut client, 0, 48).contains("continue MESSAGE"), "action");
    assert!(hover(&mut client, 0, 1).contains("(event)"), "event");
    assert!(hover(&mut client, 1, 4).contains("E0204"), "code");

    // Formatting: one edit, the document as `hookc fmt` writes it.
    let messy = "rule   a pre_tool_use when tool==Bash=>deny \"x\"\n";
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": messy}]}),
    );
    let _ = client.diagnostics();
    let edits = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(edits["result"][0]["newText"], "rule a\npre_tool_use when tool == Bash\n  => deny \"x\"\n");
    // A file with a syntax error is refused with the error, not silently left as it is.
    let broken = "rule a pre_tool_use when (tool == Bash => deny \"x\"\n";
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 6}, "contentChanges": [{"text": broken}]}),
    );
    let _ = client.diagnostics();
    let refused = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("1:26: unclosed `(`"), "{refused}");

    let shutdown = client.request("shutdown", Value::Null);
    assert!(shutdown.get("error").is_none(), "{shutdown}");
    client.notify("exit", Value::Null);
    drop(client.input.take());
    let status = client.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

/// The VS Code extension's grammar names every event and action, and its manifest points at
/// files that exist.
#[test]
fn the_vscode_extension_knows_the_whole_language() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode");
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(root.join("package.json")).unwrap()).unwrap();
    let contributes = &manifest["contributes"];
    for file in [
        manifest["main"].as_str().unwrap(),
        contributes["grammars"][0]["path"].as_str().unwrap(),
        contributes["languages"][0]["configuration"].as_str().unwrap(),
    ] {
        assert!(root.join(file).is_file(), "{file} is missing");
    }
    let grammar = std::fs::read_to_string(root.join("syntaxes/hookc.tmLanguage.json")).unwrap();
    let grammar: Value = serde_json::from_str(&grammar).unwrap();
    let repository = &grammar["repository"];
    let events = regex::Regex::new(repository["event"]["match"].as_str().unwrap()).unwrap();
    for event in hookc::EventKind::ALL {
        assert!(events.is_match(event.name()), "the grammar does not know the event {}", event.name());
    }
    let actions = regex::Regex::new(repository["action"]["match"].as_str().unwrap()).unwrap();
    for action in hookc::vocab::ActionKind::ALL {
        assert!(
            actions.is_match(&format!("=> {}", action.name())),
            "the grammar does not know the action {}",
            action.name()
        );
    }
    let keywords = regex::Regex::new(repository["keyword"]["match"].as_str().unwrap()).unwrap();
    for keyword in
        ["when", "and", "or", "not", "in", "like", "matches", "contains", "starts_with", "ends_with", "runs", "len"]
    {
        assert!(keywords.is_match(keyword), "the grammar does not know `{keyword}`");
    }
    let pest =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar/rules.pest")).unwrap();
    for keyword in ["when", "matches", "starts_with", "ends_with", "runs"] {
        assert!(pest.contains(&format!("\"{keyword}\"")), "`{keyword}` is not in the rules grammar any more");
    }
}

/// Found by a review: a broken or huge rule file beside the document, or one in a subdirectory,
/// neither hides the document's diagnostics nor slows every keystroke.
#[test]
fn a_broken_sibling_does_not_hide_the_documents_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("scratch.rules"), "pre_tool_use when =>\n").unwrap();
    std::fs::write(dir.path().join("huge.rules"), "# x\n".repeat(1_000_000)).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("sub/other.rules"), "let protected = [\"x\"]\n").unwrap();
    let uri = url::Url::from_file_path(dir.path().join("policy.rules")).unwrap().to_string();
    let mut client = Client::start();
    client.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": {}}));
    client.notify("initialized", json!({}));
    let text = "stop when tol == 1 => continue \"x\"\n";
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "hookc", "version": 1, "text": text}}),
    );
    let diagnostics = client.diagnostics();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "E0102");
}

/// Input is bounded: a frame over a limit is refused with an error (stderr and a
/// `window/showMessage`), never an allocation abort or a panic, and a body over the size limit is
/// skipped so the server goes on answering.
#[test]
fn frames_over_the_limits_are_refused_not_fatal() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let cases: [(&str, Vec<u8>, bool); 5] = [
        ("a body nested too deeply", format!("Content-Length: {}\r\n\r\n{deep}", deep.len()).into_bytes(), true),
        ("a length past the input", b"Content-Length: 99999999999\r\n\r\n".to_vec(), false),
        ("the largest length", format!("Content-Length: {}\r\n\r\n", u64::MAX).into_bytes(), false),
        ("a header line without end", [b"X-Pad: ".as_slice(), &vec![b'a'; 100_000]].concat(), false),
        ("too many headers", b"X-A: 1\r\n".repeat(100), false),
    ];
    for (what, frame, goes_on) in cases {
        let mut client = Client::start();
        let init = client.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": {}}));
        assert_eq!(init["result"]["capabilities"]["hoverProvider"], true, "{what}");
        client.notify("initialized", json!({}));
        let input = client.input.as_mut().unwrap();
        // The server may stop reading (and exit) before the frame is all written.
        let _ = input.write_all(&frame).and_then(|()| input.flush());
        if !goes_on {
            // A claimed length is read (and dropped) until the input ends.
            drop(client.input.take());
        }
        let shown = client.receive();
        assert_eq!(shown["method"], "window/showMessage", "{what}: {shown}");
        assert!(shown["params"]["message"].as_str().unwrap().starts_with("hookc lsp: "), "{what}: {shown}");
        if goes_on {
            let response = client.request("shutdown", Value::Null);
            assert!(response.get("error").is_none(), "{what}: {response}");
            client.notify("exit", Value::Null);
        }
        drop(client.input.take());
        let status = client.child.wait().unwrap();
        assert!(status.code().is_some(), "{what}: ended by a signal: {status:?}");
        assert_ne!(status.code(), Some(101), "{what}: panicked");
    }
}

/// A document with thousands of problems gets the first ones (errors first) and a note saying how
/// many more there are, not every one of them.
#[test]
fn an_editor_gets_a_capped_list_of_diagnostics_and_the_cap_stated() {
    let dir = tempfile::tempdir().unwrap();
    let uri = url::Url::from_file_path(dir.path().join("big.rules")).unwrap().to_string();
    let mut text: String = (0..3_000)
        .map(|i| format!("rule r-{i} pre_tool_use when tool == Bash and command == \"c{i}\" => deny \"no\"\n"))
        .collect();
    text.push_str("pre_tool_use when tol == 1 => deny\n");
    let mut client = Client::start();
    client.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": {}}));
    client.notify("initialized", json!({}));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "hookc", "version": 1, "text": text}}),
    );
    let diagnostics = client.diagnostics();
    assert_eq!(diagnostics.len(), 501, "500 problems and the note");
    assert_eq!(diagnostics[0]["code"], "E0102", "the error comes first: {}", diagnostics[0]);
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 3_000);
    let note = &diagnostics[500];
    assert_eq!(note["severity"], 3);
    assert!(note["message"].as_str().unwrap().starts_with("2501 more problems are not shown"), "{note}");
}
