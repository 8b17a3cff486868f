//! Diagnostics: `tests/fixtures/diagnostics/*.rules`, one or more per code, each with its
//! rendered `hookc check` output snapshotted (`tests/snapshots/`). Adding a fixture adds a test.

use hookc::diagnostic::{self, Code};
use hookc::source::read_rule_files;
use std::collections::HashSet;

/// Renders a fixture as `hookc check` does, with the path relative to the crate root.
fn render(path: &std::path::Path) -> (String, Vec<Code>) {
    let relative = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().to_path_buf();
    let cwd_relative = relative;
    let sources = read_rule_files(&[path.to_path_buf()]).unwrap();
    let diagnostics =
        hookc::check_sources_for(&sources, agents_for(path)).map_or_else(|found| found, |checked| checked.warnings);
    let mut renamed = hookc::source::SourceMap::default();
    for (_, file) in sources.iter() {
        renamed.add(hookc::source::SourceFile::new(cwd_relative.clone(), file.text.clone()));
    }
    let codes = diagnostics.iter().map(|d| d.code).collect();
    (diagnostic::render(&diagnostics, &renamed, false), codes)
}

/// The agents a fixture is checked for: every agent for W0311's (`hookc check --agent …`), none
/// for the others.
fn agents_for(path: &std::path::Path) -> &'static [&'static hookc::Agent] {
    match path.file_name().is_some_and(|name| name.to_string_lossy().starts_with(Code::AgentDeparts.as_str())) {
        true => hookc::agents::AGENTS,
        false => &[],
    }
}

#[test]
fn every_fixture_renders_as_snapshotted() {
    let mut seen = HashSet::new();
    for path in crate::support::fixture_files("diagnostics", "rules") {
        let (rendered, codes) = render(&path);
        assert!(!codes.is_empty(), "{} produced no diagnostic", path.display());
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        // A fixture named after a code must produce that code.
        if let Some(code) = Code::ALL.iter().find(|code| stem.starts_with(code.as_str())) {
            assert!(codes.contains(code), "{stem} did not produce {}: {codes:?}", code.as_str());
        }
        seen.extend(codes);
        insta::assert_snapshot!(stem, rendered);
    }
    let missing: Vec<&str> = Code::ALL.iter().filter(|code| !seen.contains(code)).map(|code| code.as_str()).collect();
    assert!(missing.is_empty(), "codes with no fixture: {missing:?}");
}

#[test]
fn json_diagnostics_carry_positions_and_help() {
    let path = crate::support::fixtures("diagnostics").join("E0102-unknown-field.rules");
    let sources = read_rule_files(&[path]).unwrap();
    let diagnostics = hookc::check_sources(&sources).unwrap_err();
    let json = serde_json::to_value(diagnostics.iter().map(|d| d.to_json(&sources)).collect::<Vec<_>>()).unwrap();
    assert_eq!(json[0]["code"], "E0102");
    assert_eq!(json[0]["severity"], "error");
    assert_eq!(json[0]["line"], 2);
    assert_eq!(json[0]["column"], 19);
    assert_eq!(json[0]["end_column"], 25);
    assert_eq!(json[0]["help"], "did you mean `command`?");
}

/// Every code's documented example really produces that code: the docs cannot drift from the
/// checker.
#[test]
fn every_documented_example_produces_its_code() {
    for code in Code::ALL {
        let example = code.doc().example;
        let mut sources = hookc::source::SourceMap::default();
        // An example of several files starts each with a `# file: NAME` line.
        match example.starts_with("# file: ") {
            true => {
                for file in example.split("# file: ").filter(|file| !file.is_empty()) {
                    let (name, text) = file.split_once('\n').unwrap_or((file, ""));
                    sources.add(hookc::source::SourceFile::new(name.trim(), text));
                }
            }
            false => {
                sources.add(hookc::source::SourceFile::new("example.rules", example));
            }
        }
        let agents = agents_for(std::path::Path::new(code.as_str()));
        let found = hookc::check_sources_for(&sources, agents).map_or_else(|found| found, |checked| checked.warnings);
        assert!(
            found.iter().any(|d| d.code == *code),
            "the example of {} gives {:?}",
            code.as_str(),
            found.iter().map(|d| d.code).collect::<Vec<_>>()
        );
    }
}

/// `docs/lints.md` is generated from the code docs; `HOOKC_BLESS=1 cargo test` rewrites it.
#[test]
fn docs_lints_md_is_generated_from_the_code_docs() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/lints.md");
    let generated = hookc::diagnostic::all_docs();
    if std::env::var_os("HOOKC_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(on_disk == generated, "docs/lints.md is out of date: run `HOOKC_BLESS=1 cargo test docs_lints_md`");
}

/// Every closed vocabulary is checked from one declaration: each value an agent sends (its
/// table entry) checks clean, a near miss gets the nearest value, and a value only a future
/// release might send is a warning that never stops the policy from loading.
#[test]
fn closed_vocabularies_suggest_and_vendor_values_never_stop_loading() {
    use hookc::vocab::{Field, Owner};
    let check = |text: &str| {
        let mut sources = hookc::source::SourceMap::default();
        sources.add(hookc::source::SourceFile::new("v.rules", text));
        hookc::check_sources(&sources).map_or_else(|found| found, |checked| checked.warnings)
    };
    let fields = [
        ("pre_tool_use", "kind", Field::Kind),
        ("pre_tool_use", "access", Field::Access),
        ("user_prompt_submit", "agent", Field::Agent),
        ("pre_tool_use", "permission_mode", Field::PermissionMode),
        ("session_start", "source", Field::Source),
        ("session_end", "reason", Field::Reason),
        ("pre_compact", "trigger", Field::Trigger),
    ];
    for (event, name, field) in fields {
        let vocabulary = field.vocabulary().expect(name);
        for value in &vocabulary.values {
            let found = check(&format!("{event} when {name} == \"{value}\" => log \"x\""));
            assert!(found.is_empty(), "{name} == {value}: {found:?}");
            // A typo: the value with its last character doubled.
            let typo = format!("{value}{}", value.chars().last().unwrap());
            let found = check(&format!("{event} when {name} == \"{typo}\" => log \"x\""));
            let code = match vocabulary.owner {
                Owner::Hookc => Code::UnknownValue,
                Owner::Vendor => Code::UnknownVendorValue,
            };
            assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), [code], "{name} == {typo}");
            assert!(found[0].help.as_deref().is_some_and(|help| help.contains('`')), "{name} == {typo}");
        }
    }
    let every_agent = hookc::vocab::agents::AGENTS.iter().map(|agent| agent.id);
    assert!(every_agent.clone().all(|id| Field::Agent.vocabulary().unwrap().values.contains(&id)));
    for agent in hookc::vocab::agents::AGENTS {
        for mode in agent.payload.permission_modes {
            assert!(Field::PermissionMode.vocabulary().unwrap().values.contains(mode), "{} {mode}", agent.id);
        }
    }
    let policy =
        hookc::Policy::from_source("p.rules", "pre_tool_use when permission_mode == brandNewMode => deny \"x\"");
    assert!(policy.is_ok(), "a vendor value no agent is known to send still loads");
}

/// Syntax errors are reported where the mistake is and hide nothing else: in every shipped rule
/// file, deleting the `)` or `]` that closes any one bracket, or the `"` that ends any one
/// string, gives exactly one error, at that item's opening, and every other rule still checks.
#[test]
fn a_syntax_error_is_reported_at_its_opening_and_hides_nothing_else() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut tried = 0;
    for folder in ["rules", "packs", "docs/cookbook"] {
        for entry in walkdir::WalkDir::new(root.join(folder)).sort_by_file_name() {
            let entry = entry.unwrap();
            if entry.path().extension().is_none_or(|ext| ext != "rules") {
                continue;
            }
            let text = std::fs::read_to_string(entry.path()).unwrap();
            // Each closing `)`/`]` outside strings and comments, and each string's closing quote.
            let mut closers = Vec::new();
            for (line_start, line) in text.split_inclusive('\n').scan(0, |at, line| {
                let start = *at;
                *at += line.len();
                Some((start, line))
            }) {
                if line.contains(" /") {
                    continue; // a regex's brackets are its own
                }
                let mut in_string = false;
                let mut escaped = false;
                for (offset, c) in line.char_indices() {
                    match c {
                        _ if escaped => escaped = false,
                        '\\' if in_string => escaped = true,
                        '"' => {
                            if in_string {
                                closers.push(line_start + offset);
                            }
                            in_string = !in_string;
                        }
                        '#' if !in_string => break,
                        ')' | ']' if !in_string => closers.push(line_start + offset),
                        _ => {}
                    }
                }
            }
            // Every 5th, to keep the test fast; still hundreds of cases over every file.
            for &at in closers.iter().step_by(5) {
                let broken = format!("{}{}", &text[..at], &text[at + 1..]);
                let mut sources = hookc::source::SourceMap::default();
                sources.add(hookc::source::SourceFile::new(entry.path(), broken.as_str()));
                let found = hookc::check_sources(&sources).err().unwrap_or_default();
                let codes: Vec<&str> = found.iter().map(|d| d.code.as_str()).collect();
                let where_ = format!("{} without the byte at {at}", entry.path().display());
                assert_eq!(codes, ["E0001"], "{where_}: {found:#?}");
                // A bracket at its opening; a string on the line of its missing quote (which of
                // the line's quotes is left without a partner is the reader's call).
                let opened = found[0].span.start as usize;
                let same_line = !text[at.min(opened)..at.max(opened)].contains('\n');
                assert!(opened <= at || (text.as_bytes()[at] == b'"' && same_line), "{where_}: reported at {opened}");
                let message = &found[0].message;
                assert!(message.starts_with("unclosed") || message.starts_with("unterminated"), "{where_}: {message}");
                tried += 1;
            }
        }
    }
    assert!(tried > 150, "only {tried} cases");
}

/// Rendering survives any mix of tabs, carriage returns and other control characters around a
/// mistake (annotate-snippets' margin arithmetic once overflowed on a line of tabs and `\r`):
/// every diagnostic renders, in plain and colour, without a panic.
#[test]
fn diagnostics_render_on_lines_of_tabs_and_carriage_returns() {
    use proptest::prelude::*;
    let piece = prop_oneof![
        Just("\t".to_string()),
        Just("\r".to_string()),
        Just("\r\n".to_string()),
        Just("\n".to_string()),
        Just(" ".to_string()),
        Just("\u{b}".to_string()),
        Just("\u{c}".to_string()),
        Just("\u{0}".to_string()),
        Just("é".to_string()),
        Just("\u{2028}".to_string()),
        Just("(".to_string()),
        Just("\"".to_string()),
        Just("pre_tool_use".to_string()),
        Just("when".to_string()),
        Just("=>".to_string()),
        Just("deny".to_string()),
        Just("toool == x".to_string()),
        Just("kind == wirte".to_string()),
        // Lines wider than the renderer's 140 columns, of whitespace and text.
        (1usize..200).prop_map(|n| "\t".repeat(n)),
        (1usize..200).prop_map(|n| "\r".repeat(n)),
        (1usize..200).prop_map(|n| " \t\r".repeat(n)),
        (1usize..200).prop_map(|n| "x".repeat(n)),
    ];
    let config = ProptestConfig {
        cases: std::env::var("RENDER_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(2000),
        rng_seed: proptest::test_runner::RngSeed::Fixed(23),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(pieces in proptest::collection::vec(piece, 0..40))| {
        let text = pieces.concat();
        let mut sources = hookc::source::SourceMap::default();
        sources.add(hookc::source::SourceFile::new("t.rules", text.as_str()));
        let found = hookc::check_sources(&sources).map_or_else(|found| found, |checked| checked.warnings);
        for color in [false, true] {
            let rendered = hookc::diagnostic::render(&found, &sources, color);
            prop_assert!(found.is_empty() || !rendered.is_empty());
        }
    });
}

/// Marks far apart in a file are shown as one excerpt each, with their true line numbers (the
/// renderer is given the lines it shows, not the whole file for every diagnostic).
#[test]
fn marks_far_apart_are_two_excerpts_with_their_own_line_numbers() {
    let mut text = String::from("rule first pre_tool_use when tool == Bash => block \"x\" \"y\"\n");
    text.push_str(&"# filler\n".repeat(98));
    text.push_str("rule later pre_tool_use when tool == Bash and command == \"ls\" => deny\n");
    let mut sources = hookc::source::SourceMap::default();
    sources.add(hookc::source::SourceFile::new("far.rules", text));
    let warnings: Vec<_> = hookc::check_sources(&sources)
        .unwrap()
        .warnings
        .into_iter()
        .filter(|w| w.code == Code::UnreachableRule)
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let rendered = hookc::diagnostic::render(&warnings, &sources, false);
    assert!(rendered.contains("--> far.rules:100:6"), "the header points at the primary label: {rendered}");
    assert!(rendered.contains("::: far.rules:1:6"), "{rendered}");
    assert!(rendered.contains("100 | rule later"), "{rendered}");
    assert!(rendered.contains("1 | rule first"), "{rendered}");
    assert!(!rendered.contains("filler"), "no line between the marks is shown: {rendered}");
}
