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
    let event = Event::from_json(br#"{"event":"pre_tool_use","tool":"Bash","args":{"command":"CAT x.PEM"}}"#).unwrap();
    let binary = policy.to_bundle();
    let json = policy.to_bundle_json();
    assert_eq!(hookc::bundle::Form::of(&binary), Some(hookc::bundle::Form::Binary));
    assert_eq!(hookc::bundle::Form::of(json.as_bytes()), Some(hookc::bundle::Form::Json));
    for loaded in [Policy::from_bundle_bytes(&binary).unwrap(), Policy::from_bundle_str(&json).unwrap()] {
        assert_eq!(loaded.source_hash(), policy.source_hash());
        assert_eq!(loaded.to_bundle(), binary, "writing a loaded bundle reproduces it byte for byte");
        assert_eq!(loaded.to_bundle_json(), json, "in either form");
        assert_eq!(loaded.evaluate(&event).unwrap(), policy.evaluate(&event).unwrap());
        assert_eq!(loaded.evaluate(&event).unwrap().permission_reason.as_deref(), Some("key material"));
    }
}

/// The binary bundle's stored layout, from its header.
fn layout(bundle: &[u8]) -> (usize, serde_json::Value) {
    let word = |at: usize| u32::from_le_bytes(bundle[at..at + 4].try_into().unwrap()) as usize;
    let (meta, count) = (word(12), word(20));
    let payload = 32 + meta + 32 * count.div_ceil(128) + 32 + 32 * count;
    (payload, serde_json::from_slice::<serde_json::Value>(&bundle[32..32 + meta]).unwrap()["layout"].clone())
}

/// Every byte of a binary bundle is covered: a change to any one of them is refused when the
/// bundle is opened (the header) or when a call reads the block that holds it, and reading the
/// whole bundle (`doctor`, `validate`) finds it.
#[test]
fn a_change_to_any_byte_of_a_binary_bundle_is_found() {
    let bundle = Policy::from_source("keys.rules", RULES).unwrap().to_bundle();
    assert!(Policy::from_bundle_bytes(&bundle).unwrap().verify().is_ok());
    let step = (bundle.len() / 600).max(1);
    for at in (0..bundle.len()).step_by(step) {
        let mut changed = bundle.clone();
        changed[at] ^= 0x20;
        let found = match Policy::from_bundle_bytes(&changed) {
            Err(_) => true,
            Ok(policy) => policy.verify().is_err(),
        };
        assert!(found, "a change at byte {at} of {} went unnoticed", bundle.len());
    }
    // A header claiming more than the file holds is refused before anything that large is read.
    let mut claims = bundle.clone();
    claims[20..24].copy_from_slice(&(1u32 << 22).to_le_bytes());
    claims[24..32].copy_from_slice(&((1u64 << 22) * 4096).to_le_bytes());
    assert!(matches!(Policy::from_bundle_bytes(&claims), Err(BundleError::Malformed(_))));
    // Truncated or extended, it is refused on open.
    for changed in [&bundle[..bundle.len() - 1], &[&bundle[..], b"x"].concat()] {
        assert!(Policy::from_bundle_bytes(changed).is_err());
    }
}

/// A block that does not verify fails the call that reads it (an evaluation error: the hook
/// fails closed), and never drops the rules it holds.
#[test]
fn a_binary_bundle_whose_index_was_edited_fails_the_call_that_reads_it() {
    let keyed = r#"rule pem pre_tool_use when tool == Bash and command matches /cat\s+.*\.pem/i => ask "key material""#;
    let policy = Policy::from_source("keys.rules", keyed).unwrap();
    let mut bundle = policy.to_bundle();
    let (header, layout) = layout(&bundle);
    let slots = layout["slots"][0].as_u64().unwrap() as usize;
    let len = layout["slots"][1].as_u64().unwrap() as usize;
    bundle[header + slots..header + slots + len].fill(0);
    let event = Event::from_json(br#"{"event":"pre_tool_use","tool":"Bash","args":{"command":"CAT x.PEM"}}"#).unwrap();
    let loaded = Policy::from_bundle_bytes(&bundle).unwrap();
    let error = loaded.evaluate(&event).unwrap_err().to_string();
    assert!(error.contains("does not match its digest"), "{error}");
    // Re-hashed, the edit loads and drops the rule: only a signature stops that (below).
    crate::support::rehash(&mut bundle);
    let loaded = Policy::from_bundle_bytes(&bundle).unwrap();
    assert_ne!(loaded.evaluate(&event).unwrap(), policy.evaluate(&event).unwrap());
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
fn any_change_to_a_json_table_is_refused() {
    let text = Policy::from_source("keys.rules", RULES).unwrap().to_bundle_json();
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
    assert!(policy.validate().is_err());
}

#[test]
fn malformed_bundles_are_refused() {
    for text in ["", "{}", "[1]", r#"{"format":"hookc-bundle"}"#] {
        assert!(matches!(Policy::from_bundle_str(text), Err(BundleError::Malformed(_))), "{text:?}");
    }
}

/// A bundle the previous release wrote (format 2, hookc 0.1.0: the shipped rules of the day,
/// committed and never rewritten) keeps working after an upgrade.
const PREVIOUS_RELEASE: &str = include_str!("fixtures/bundles/v2-hookc-0.1.0.json");

/// What the previous release's bundle decides, for calls its rules govern.
fn decisions_of(policy: &Policy) -> Vec<(hookc::Permission, bool)> {
    let events = [
        r#"{"event":"pre_tool_use","tool":"Write","cwd":"/repo","project_root":"/repo","args":{"file_path":"/repo/Cargo.lock","content":"x"}}"#,
        r#"{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","project_root":"/repo","args":{"command":"git reset --hard"}}"#,
        r#"{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","project_root":"/repo","args":{"command":"sudo rm -rf /"}}"#,
        r#"{"event":"pre_tool_use","tool":"Bash","cwd":"/repo","project_root":"/repo","args":{"command":"cargo test"}}"#,
    ];
    events
        .iter()
        .map(|event| {
            let result = policy.evaluate(&Event::from_json(event.as_bytes()).unwrap()).unwrap();
            (result.permission_behavior, result.blocking_error.is_some())
        })
        .collect()
}

#[test]
fn a_bundle_of_the_previous_release_keeps_working() {
    use hookc::Permission::{Ask, Deny, Passthrough};
    let policy = Policy::from_bundle_str(PREVIOUS_RELEASE).unwrap();
    assert_eq!(decisions_of(&policy), [(Passthrough, true), (Ask, false), (Deny, false), (Passthrough, false)]);
}

/// A binary bundle of header version 3 (every block's digest in the header, before pages of
/// digests) still loads, verifies and decides: the shipped rules as compiled then.
#[test]
fn a_binary_bundle_of_header_version_3_keeps_working() {
    use hookc::Permission::{Ask, Deny, Passthrough};
    let bundle = std::fs::read("tests/fixtures/bundles/v3-hookc-0.1.0.hcb").unwrap();
    assert_eq!(u32::from_le_bytes(bundle[8..12].try_into().unwrap()), 3, "the fixture is header version 3");
    let policy = Policy::from_bundle_bytes(&bundle).unwrap();
    assert!(policy.verify().is_ok());
    assert_eq!(decisions_of(&policy), [(Passthrough, true), (Ask, false), (Deny, false), (Passthrough, false)]);
    let written = Policy::from_source("keys.rules", RULES).unwrap().to_bundle();
    assert_eq!(u32::from_le_bytes(written[8..12].try_into().unwrap()), 4, "this build writes header version 4");
}

/// Index keys are the compiler's choice, not part of the format: a bundle whose keys this build
/// cannot read (another release chose them differently) is indexed again from its rules.
#[test]
fn index_keys_of_another_release_are_chosen_again() {
    let mut bundle: serde_json::Value = serde_json::from_str(PREVIOUS_RELEASE).unwrap();
    let rules = bundle["rules"].as_array_mut().unwrap();
    let keyed = rules.iter().filter(|rule| !rule[1].is_null()).count();
    assert!(keyed > 5, "the fixture has keyed rules");
    for rule in rules.iter_mut() {
        rule[1] = serde_json::json!({"a-key-shape-of-a-later-release": [1, 2]});
    }
    let table = serde_json::to_string(&bundle["rules"]).unwrap();
    bundle["table_hash"] = hookc::bundle::table_hash(&table).unwrap().into();
    let policy = Policy::from_bundle_str(&bundle.to_string()).unwrap();
    assert_eq!(decisions_of(&policy), decisions_of(&Policy::from_bundle_str(PREVIOUS_RELEASE).unwrap()));

    // Keys this build can read but another release chose (here: wrong ones) are not trusted.
    let mut bundle: serde_json::Value = serde_json::from_str(PREVIOUS_RELEASE).unwrap();
    bundle["hookc"] = "0.0.9".into();
    for rule in bundle["rules"].as_array_mut().unwrap() {
        rule[1] = serde_json::json!({"exact": ["tool", ["no-such-tool"]]});
    }
    let table = serde_json::to_string(&bundle["rules"]).unwrap();
    bundle["table_hash"] = hookc::bundle::table_hash(&table).unwrap().into();
    let policy = Policy::from_bundle_str(&bundle.to_string()).unwrap();
    assert_eq!(decisions_of(&policy), decisions_of(&Policy::from_bundle_str(PREVIOUS_RELEASE).unwrap()));
}

/// A minisign key pair in a directory: (secret key file, public key file).
fn key_pair(dir: &std::path::Path, name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let pair = minisign::KeyPair::generate_unencrypted_keypair().unwrap();
    let (secret, public) = (dir.join(format!("{name}.key")), dir.join(format!("{name}.pub")));
    std::fs::write(&secret, pair.sk.to_box(None).unwrap().to_string()).unwrap();
    std::fs::write(&public, pair.pk.to_box().unwrap().to_string()).unwrap();
    (secret, public)
}

/// `hookc claude --bundle BUNDLE` on a `sudo rm -rf /` call, trusting `key` if given.
fn hook_rm_root(dir: &std::path::Path, bundle: &str, key: Option<&std::path::Path>) -> std::process::Output {
    let payload = br#"{"hook_event_name":"PreToolUse","cwd":"/repo","tool_name":"Bash","tool_input":{"command":"sudo rm -rf /"}}"#;
    let mut args = vec!["claude", "--bundle", bundle];
    if let Some(key) = key {
        args.extend(["--trust-key", key.to_str().unwrap()]);
    }
    crate::support::hookc(dir, &args, payload)
}

/// `compile --sign` writes a minisign signature beside the bundle; with `--trust-key`, a
/// bundle that is unsigned, signed by another key, or edited and re-hashed is refused (the
/// edit the table hash alone cannot stop: drop a rule, recompute the hash).
#[test]
fn a_trusted_key_refuses_unsigned_and_re_hashed_bundles() {
    use crate::support::{hookc, stderr, stdout};
    let dir = tempfile::tempdir().unwrap();
    let (secret, public) = key_pair(dir.path(), "team");
    let (other_secret, _) = key_pair(dir.path(), "other");
    let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let compile = |key: &std::path::Path| {
        let output = hookc(
            dir.path(),
            &[
                "compile",
                rules.to_str().unwrap(),
                "-o",
                "policy.json",
                "--format",
                "json",
                "--sign",
                key.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    };
    let hook = |trust: bool| hook_rm_root(dir.path(), "policy.json", trust.then_some(public.as_path()));
    compile(&secret);
    assert!(dir.path().join("policy.json.minisig").exists());
    let trusted = hook(true);
    assert_eq!(trusted.status.code(), Some(0), "{}", stderr(&trusted));
    assert!(stdout(&trusted).contains("\"deny\""), "{}", stdout(&trusted));

    // Drop the rule that denies this call and recompute the hash: loads without a trusted key.
    let text = std::fs::read_to_string(dir.path().join("policy.json")).unwrap();
    let mut bundle: serde_json::Value = serde_json::from_str(&text).unwrap();
    bundle["rules"].as_array_mut().unwrap().retain(|rule| !rule[2].to_string().contains("\"rm\""));
    let table = serde_json::to_string(&bundle["rules"]).unwrap();
    bundle["table_hash"] = hookc::bundle::table_hash(&table).unwrap().into();
    std::fs::write(dir.path().join("policy.json"), bundle.to_string()).unwrap();
    let untrusted = hook(false);
    assert!(!stdout(&untrusted).contains("\"deny\""), "the edit took effect without a key: {}", stdout(&untrusted));
    let refused = hook(true);
    assert_eq!(refused.status.code(), Some(2), "{}", stdout(&refused));
    assert!(stderr(&refused).contains("the signature does not verify"), "{}", stderr(&refused));

    // Signed by another key; then not signed at all.
    compile(&other_secret);
    assert!(stderr(&hook(true)).contains("is refused"), "{}", stderr(&hook(true)));
    let unsigned = hookc(dir.path(), &["compile", rules.to_str().unwrap(), "-o", "policy.json"], b"");
    assert_eq!(unsigned.status.code(), Some(0));
    assert!(!dir.path().join("policy.json.minisig").exists(), "a stale signature was left beside a new bundle");
    let refused = hook(true);
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains("policy.json.minisig` cannot be read"), "{}", stderr(&refused));
}

/// A binary bundle's signature covers its header, which holds every block's digest: an index
/// edited and re-hashed (a rule dropped) loads without a key and is refused with one; a signature
/// of the whole file (`minisign -Sm`) is accepted too.
#[test]
fn a_trusted_key_refuses_a_binary_bundle_whose_index_was_re_hashed() {
    use crate::support::{hookc, stderr, stdout};
    let dir = tempfile::tempdir().unwrap();
    let (secret, public) = key_pair(dir.path(), "team");
    let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let output = hookc(
        dir.path(),
        &["compile", rules.to_str().unwrap(), "-o", "policy.hcb", "--sign", secret.to_str().unwrap()],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let hook = |trust: bool| hook_rm_root(dir.path(), "policy.hcb", trust.then_some(public.as_path()));
    let trusted = hook(true);
    assert!(stdout(&trusted).contains("\"deny\""), "{}{}", stdout(&trusted), stderr(&trusted));

    let path = dir.path().join("policy.hcb");
    let original = std::fs::read(&path).unwrap();
    let mut bundle = original.clone();
    let (header, layout) = layout(&bundle);
    let slots = layout["slots"][0].as_u64().unwrap() as usize;
    let len = layout["slots"][1].as_u64().unwrap() as usize;
    bundle[header + slots..header + slots + len].fill(0);
    crate::support::rehash(&mut bundle);
    std::fs::write(&path, &bundle).unwrap();
    let untrusted = hook(false);
    assert!(!stdout(&untrusted).contains("\"deny\""), "the edit took effect without a key: {}", stdout(&untrusted));
    let refused = hook(true);
    assert_eq!(refused.status.code(), Some(2), "{}", stdout(&refused));
    assert!(stderr(&refused).contains("the signature does not verify"), "{}", stderr(&refused));

    // A whole-file signature made with minisign's own format verifies too.
    std::fs::write(&path, &original).unwrap();
    let pair = minisign::SecretKeyBox::from_string(&std::fs::read_to_string(&secret).unwrap()).unwrap();
    let sk = pair.into_unencrypted_secret_key().unwrap();
    let signature = minisign::sign(None, &sk, std::io::Cursor::new(&original), None, None).unwrap();
    std::fs::write(dir.path().join("policy.hcb.minisig"), signature.to_string()).unwrap();
    let whole = hook(true);
    assert!(stdout(&whole).contains("\"deny\""), "{}{}", stdout(&whole), stderr(&whole));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 300,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0xb0d1),
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Whoever can write a bundle can also recompute its digests (only a signature stops them):
    /// a binary bundle whose payload was rewritten anyhow and re-hashed loads or is refused,
    /// and decides, fails or verifies — never panics, never reads past the file.
    #[test]
    fn a_re_hashed_hostile_payload_never_panics(
        edits in proptest::collection::vec((proptest::prelude::any::<u16>(), proptest::prelude::any::<u8>()), 1..24),
    ) {
        let mut bundle = Policy::from_source("keys.rules", HOSTILE_RULES).unwrap().to_bundle();
        let (header, _) = layout(&bundle);
        let payload = bundle.len() - header;
        for (at, byte) in edits {
            let at = header + usize::from(at) % payload;
            bundle[at] = byte;
        }
        crate::support::rehash(&mut bundle);
        exercise(&bundle);
    }
}

/// The rules the hostile-bundle properties rewrite: keyed on several fields.
const HOSTILE_RULES: &str =
    "rule pem pre_tool_use when tool == Bash and command matches /cat\\s+.*\\.pem/i => ask \"key\"\n\
     rule w pre_tool_use when path like \"**/*.lock\" => deny \"lock\"\n\
     rule p pre_tool_use when command starts_with \"rm \" => deny \"rm\"\n";

/// Loads a (hostile) bundle and, if it loads, decides shell and write calls with it, verifies
/// it and exports it: each may fail, none may panic.
fn exercise(bundle: &[u8]) {
    let Ok(policy) = Policy::from_bundle_bytes(bundle) else { return };
    for command in ["cat x.PEM", "rm -rf /", "ls"] {
        let json = serde_json::json!({"event": "pre_tool_use", "tool": "Bash", "args": {"command": command}});
        let _ = policy.evaluate(&Event::from_json(json.to_string().as_bytes()).unwrap());
    }
    let write =
        br#"{"event":"pre_tool_use","tool":"Write","cwd":"/r","args":{"file_path":"/r/Cargo.lock","content":""}}"#;
    let _ = policy.evaluate(&Event::from_json(write).unwrap());
    let _ = policy.verify();
    let _ = policy.to_bundle_json();
}

/// A binary bundle with its metadata replaced, every digest recomputed.
fn with_meta(bundle: &[u8], meta: &serde_json::Value) -> Vec<u8> {
    let (payload, _) = layout(bundle);
    let word = |at: usize| u32::from_le_bytes(bundle[at..at + 4].try_into().unwrap()) as usize;
    let (old_meta, count) = (word(12), word(20));
    let meta = serde_json::to_vec(meta).unwrap();
    let mut out = bundle[..12].to_vec();
    out.extend_from_slice(&u32::try_from(meta.len()).unwrap().to_le_bytes());
    out.extend_from_slice(&bundle[16..32]);
    out.extend_from_slice(&meta);
    // The page digests, the header digest and the pages as they were: `rehash` recomputes them.
    out.extend_from_slice(&bundle[32 + old_meta..payload]);
    out.extend_from_slice(&bundle[payload..]);
    assert_eq!(out.len(), bundle.len() - old_meta + meta.len(), "{count} blocks");
    crate::support::rehash(&mut out);
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 300,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x1a70),
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// The same with the layout itself rewritten (its offsets, lengths, counts, capacity, key
    /// lengths): the index arithmetic is bounds-checked, so a hostile layout is an error or a
    /// decision, never a panic or a read past the file.
    #[test]
    fn a_re_hashed_hostile_layout_never_panics(
        edits in proptest::collection::vec((proptest::prelude::any::<u16>(), proptest::prelude::any::<u64>()), 1..6),
    ) {
        let bundle = Policy::from_source("keys.rules", HOSTILE_RULES).unwrap().to_bundle();
        let word = |at: usize| u32::from_le_bytes(bundle[at..at + 4].try_into().unwrap()) as usize;
        let mut meta: serde_json::Value = serde_json::from_slice(&bundle[32..32 + word(12)]).unwrap();
        let mut paths = Vec::new();
        collect(&meta["layout"], String::new(), &mut paths);
        for (at, value) in edits {
            let path = &paths[usize::from(at) % paths.len()];
            let small = [0, 1, 2, 3, 4096, u64::from(u32::MAX), value % 1000, value][usize::try_from(value % 8).unwrap()];
            *meta.pointer_mut(&format!("/layout{path}")).unwrap() = small.into();
        }
        exercise(&with_meta(&bundle, &meta));
    }
}

/// The JSON pointers of every number under `value`.
fn collect(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Number(_) => out.push(at),
        serde_json::Value::Array(items) => {
            items.iter().enumerate().for_each(|(index, item)| collect(item, format!("{at}/{index}"), out));
        }
        serde_json::Value::Object(map) => map.iter().for_each(|(key, item)| collect(item, format!("{at}/{key}"), out)),
        _ => {}
    }
}

/// A long text against contained-text keys of many lengths is not probed byte by byte for each
/// length past a bound: every rule of the event becomes a candidate, and the rule that matches
/// still fires.
#[test]
fn a_long_text_against_many_key_lengths_still_finds_its_rule() {
    let rules: String = (1..=40)
        .map(|n| format!("rule r{n} pre_tool_use when command matches /key{}end/ => deny \"r{n}\"\n", "y".repeat(n)))
        .collect();
    let policy = Policy::from_source("many.rules", &rules).unwrap();
    let bundled = Policy::from_bundle_bytes(&policy.to_bundle()).unwrap();
    let command = format!("{} key{}end {}", "a".repeat(200_000), "y".repeat(17), "b".repeat(100_000));
    let event = serde_json::json!({"event": "pre_tool_use", "tool": "Bash", "args": {"command": command}});
    let event = Event::from_json(event.to_string().as_bytes()).unwrap();
    let started = std::time::Instant::now();
    let result = bundled.evaluate(&event).unwrap();
    assert_eq!(result.matched, ["r17"]);
    assert_eq!(result, policy.evaluate(&event).unwrap());
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
}
