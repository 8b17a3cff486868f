//! Bundles through the library API: round trip, integrity, versions.

use hookc::bundle::BundleError;
use hookc::{Event, Policy};

const RULES: &str = r#"
let keys = ["**/*.pem"]
rule keys pre_tool_use when path like keys or command matches /cat\s+.*\.pem/i => ask "key material"
rule trim post_tool_use when len(output) > 5 => truncate 5
"#;

#[test]
fn a_bundle_round_trips_to_the_same_rules_and_results() {
    let policy = Policy::from_source("keys.rules", RULES).unwrap();
    let text = policy.to_bundle();
    let loaded = Policy::from_bundle_str(&text).unwrap();
    assert_eq!(loaded.source_hash(), policy.source_hash());
    assert_eq!(loaded.to_bundle(), text, "writing a loaded bundle reproduces it byte for byte");
    let event = Event::from_json(br#"{"event":"pre_tool_use","tool":"Bash","args":{"command":"CAT x.PEM"}}"#).unwrap();
    assert_eq!(loaded.evaluate(&event).unwrap(), policy.evaluate(&event).unwrap());
    assert_eq!(loaded.evaluate(&event).unwrap().permission_reason.as_deref(), Some("key material"));
}

#[test]
fn the_source_hash_follows_the_sources() {
    let a = Policy::from_source("keys.rules", RULES).unwrap();
    let b = Policy::from_source("keys.rules", &format!("{RULES}\n# a comment\n")).unwrap();
    let c = Policy::from_source("keys.rules", RULES).unwrap();
    assert_ne!(a.source_hash(), b.source_hash());
    assert_eq!(a.source_hash(), c.source_hash());
    assert!(a.source_hash().starts_with("sha256:") && a.source_hash().len() == 7 + 64);
}

#[test]
fn any_change_to_the_table_is_refused() {
    let text = Policy::from_source("keys.rules", RULES).unwrap().to_bundle();
    // A rule's body, and the event it is filed under, are both covered by the digest.
    for (from, to) in [
        ("key material", "key materiaL"),
        (r#""truncate":5"#, r#""truncate":50"#),
        (r#"[["pre_tool_use","#, r#"[["stop","#),
    ] {
        assert!(text.contains(from), "{from}");
        let tampered = text.replace(from, to);
        assert!(matches!(Policy::from_bundle_str(&tampered), Err(BundleError::Tampered { .. })), "{from}");
    }
}

/// Patterns in a bundle compile on first use (the digest vouches that `hookc compile` checked
/// them). A hand-made bundle with a valid digest but a bad regex therefore loads, and the first
/// event that reaches the rule fails closed, naming it.
#[test]
fn a_hand_made_bundle_with_a_bad_regex_fails_closed_on_use() {
    let rules = r#"[["pre_tool_use",null,{"name":"bad","event":"pre_tool_use","origin":"x:1:1","condition":{"test":["command",{"matches":{"pattern":"("}}]},"actions":[{"permission":{"behavior":"allow","reason":null}}]}]]"#;
    let hash = hookc::bundle::table_hash(rules).unwrap();
    let text =
        format!(r#"{{"format":"hookc-bundle","version":2,"source_hash":"s","table_hash":"{hash}","rules":{rules}}}"#);
    let policy = Policy::from_bundle_str(&text).unwrap();
    let event = Event::from_json(br#"{"event":"pre_tool_use","tool":"bash","args":{"command":"ls"}}"#).unwrap();
    let error = policy.evaluate(&event).unwrap_err().to_string();
    assert!(error.contains("rule `bad` (x:1:1): invalid pattern"), "{error}");
    assert!(error.contains("unclosed group"), "{error}");
}

/// `hookc check` refuses a message naming a field the call may lack (E0204); a hand-made bundle
/// that does it anyway fails closed on the call that lacks the field, never renders a hole.
#[test]
fn a_hand_made_bundle_with_an_unrenderable_message_fails_closed() {
    let rules = r#"[["pre_tool_use",null,{"name":"bad","event":"pre_tool_use","origin":"x:1:1","condition":"always","actions":[{"permission":{"behavior":"deny","reason":"blocked {path}"}}]}]]"#;
    let hash = hookc::bundle::table_hash(rules).unwrap();
    let text =
        format!(r#"{{"format":"hookc-bundle","version":2,"source_hash":"s","table_hash":"{hash}","rules":{rules}}}"#);
    let policy = Policy::from_bundle_str(&text).unwrap();
    let event = Event::from_json(br#"{"event":"pre_tool_use","tool":"t","args":{}}"#).unwrap();
    let error = policy.evaluate(&event).unwrap_err().to_string();
    assert!(error.contains("cannot render its reason: the event has no `path`"), "{error}");
}

/// Events and index keys are decoded on load; a rule's body when the rule is first tried. A
/// hand-made bundle (with a valid digest) whose body is invalid fails closed then, naming it.
#[test]
fn a_hand_made_bundle_with_an_invalid_rule_fails_on_load_or_on_use() {
    let bundle = |rules: &str| {
        // An unreadable entry has no digest; the bundle is refused before the digest matters.
        let hash = hookc::bundle::table_hash(rules).unwrap_or_default();
        format!(r#"{{"format":"hookc-bundle","version":2,"source_hash":"s","table_hash":"{hash}","rules":{rules}}}"#)
    };
    let bad_event = bundle(r#"[["nope",null,{}]]"#);
    match Policy::from_bundle_str(&bad_event) {
        Err(BundleError::InvalidRules(reason)) => assert!(reason.contains("unknown variant `nope`"), "{reason}"),
        other => panic!("expected InvalidRules, got {other:?}"),
    }
    let bad_body = bundle(
        r#"[["stop",null,{"name":"x","event":"stop","origin":"x","condition":{"test":["nope","truthy"]},"actions":[]}]]"#,
    );
    let policy = Policy::from_bundle_str(&bad_body).unwrap();
    let error = policy.evaluate(&Event::from_json(br#"{"event":"stop"}"#).unwrap()).unwrap_err().to_string();
    assert!(error.contains("rule #0 of the bundle is invalid") && error.contains("unknown field `nope`"), "{error}");
    assert!(policy.rules().is_err());
}

#[test]
fn malformed_bundles_are_refused() {
    for text in ["", "{}", "[1]", r#"{"format":"hookc-bundle"}"#] {
        assert!(matches!(Policy::from_bundle_str(text), Err(BundleError::Malformed(_))), "{text:?}");
    }
}
