//! `fmt`: property tests over generated rule files (proptest, seeded and shrinking: the
//! generator's every choice is read from a tape proptest draws, so a failing file shrinks with
//! its tape), plus the CLI.

use crate::support::{hookc, stderr, stdout};
use hookc::source::{SourceFile, SourceMap};

use crate::support::Tape as Rng;

/// The generator's choices, as methods of the tape.
trait Choices {
    fn chance(&mut self, percent: u64) -> bool;
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str;
}

impl Choices for Rng {
    fn chance(&mut self, percent: u64) -> bool {
        (self.below(100) as u64) < percent
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Generates a random, valid rule file with random layout and comments.
struct Generator {
    rng: Rng,
    lists: Vec<String>,
    /// The `let` regexes defined so far.
    regexes: Vec<String>,
    comments: usize,
}

impl Generator {
    fn ws(&mut self) -> String {
        let mut text = self.rng.pick(&[" ", " ", "  ", "\n", " \n   ", "\t"]).to_string();
        if text.contains('\n') && self.rng.chance(20) {
            self.comments += 1;
            text = format!(" # note {} with \"quotes\" and /slashes/\n", self.comments);
        }
        text
    }

    fn string(&mut self) -> String {
        self.rng.pick(&["\"a\"", "\"b c\"", "\"x#y\"", "\"q\\\"q\"", "sym", "\"./p/../q\"", "\"**/*.rs\""]).to_string()
    }

    fn test(&mut self, event: &str) -> String {
        let ws = self.ws();
        match (event, self.rng.below(6)) {
            ("stop", 0) => format!("tool_calls{ws}<{}", self.rng.pick(&[" 3", " 1", "2"])),
            ("stop", 1) => "stop_hook_active".to_string(),
            ("stop", _) => format!("last_message contains {}", self.string()),
            ("user_prompt_submit", _) => format!("prompt{ws}starts_with {}", self.string()),
            ("post_tool_use", 0) => "is_error".to_string(),
            ("post_tool_use", 1) => format!("len(output) >= {}", self.rng.below(100)),
            _ => {
                let field = self.rng.pick(&["tool", "command", "path", "args.mode", "url"]);
                match self.rng.below(9) {
                    0 => format!("{field} == {}", self.string()),
                    1 => format!("{field}{ws}!={ws}{}", self.string()),
                    2 => format!("{field} in [{}, {}]", self.string(), self.string()),
                    3 if !self.lists.is_empty() => {
                        let list = self.lists[self.rng.below(self.lists.len())].clone();
                        format!("{field} not in {list}")
                    }
                    4 if !self.regexes.is_empty() && self.rng.chance(50) => {
                        let regex = self.regexes[self.rng.below(self.regexes.len())].clone();
                        format!("{field}{ws}matches{ws}{regex}")
                    }
                    4 => format!("{field} matches /a+\\/b#c/i"),
                    5 => format!("{field} like {}", self.rng.pick(&["\"*.rs\"", "[\"a/**\", \"b\"]"])),
                    6 => format!("{field} ends_with {}", self.string()),
                    _ => format!("{field} contains {}", self.string()),
                }
            }
        }
    }

    fn condition(&mut self, event: &str, depth: usize) -> String {
        if depth == 0 {
            return self.test(event);
        }
        let ws = self.ws();
        match self.rng.below(5) {
            0 => format!("not {}", self.condition(event, depth - 1)),
            1 => format!("({ws}{}{ws})", self.condition(event, depth - 1)),
            2 => format!("{}{ws}and{ws}({})", self.condition(event, depth - 1), self.condition(event, depth - 1)),
            3 => format!("{} or {}", self.condition(event, depth - 1), self.condition(event, depth - 1)),
            _ => self.test(event),
        }
    }

    fn actions(&mut self, event: &str) -> String {
        let options: &[&str] = match event {
            "pre_tool_use" => &[
                "deny \"no\"",
                "ask",
                "allow \"ok\"",
                "block \"hook_blocked\" \"m\"",
                "context \"c {tool}\"",
                "log \"l\"",
                "set args.y = \"v\"",
            ],
            "post_tool_use" => &["replace \"x\"", "truncate 5", "redact /a/ \"b\"", "stop", "context \"c\""],
            "stop" => &["continue \"more\"", "context \"c\"", "log \"l\""],
            _ => &["context \"c\"", "log \"l\""],
        };
        let count = 1 + self.rng.below(3);
        (0..count).map(|_| self.rng.pick(options).to_string()).collect::<Vec<_>>().join(if self.rng.chance(50) {
            ", "
        } else {
            " ,\n  "
        })
    }

    fn file(&mut self) -> String {
        let mut text = String::new();
        if self.rng.chance(50) {
            text.push_str("# header\n\n");
        }
        for index in 0..1 + self.rng.below(7) {
            if self.rng.chance(10) {
                let name = format!("regex{index}");
                text.push_str(&format!("let {name}{}={}/x#[a]+\\/y/i\n", self.ws(), self.ws()));
                self.regexes.push(name);
                continue;
            }
            if self.rng.chance(25) {
                let name = format!("list{index}");
                text.push_str(&format!("let {name} ={}[{}, {}]\n", self.ws(), self.string(), self.string()));
                self.lists.push(name);
                continue;
            }
            let event = self.rng.pick(&["pre_tool_use", "pre_tool_use", "post_tool_use", "stop", "user_prompt_submit"]);
            if self.rng.chance(70) {
                text.push_str(&format!("rule r{index}{}", self.ws()));
            }
            text.push_str(event);
            if self.rng.chance(85) {
                let depth = self.rng.below(5);
                text.push_str(&format!(" when{}{}", self.ws(), self.condition(event, depth)));
            }
            text.push_str(&format!("{}=> {}", self.ws(), self.actions(event)));
            text.push_str(if self.rng.chance(30) { "  # trailing\n" } else { "\n" });
            if self.rng.chance(40) {
                text.push('\n');
            }
        }
        if self.rng.chance(30) {
            text.push_str("\n# the end\n");
        }
        text
    }
}

fn format(text: &str) -> Result<String, String> {
    let file = SourceFile::new("gen.rules", text);
    hookc::format(0, &file).map_err(|errors| format!("{errors:?}"))
}

/// The checked rules as JSON, without what formatting legitimately changes (line numbers in
/// origins and in the names of unnamed rules).
fn meaning(text: &str) -> Result<serde_json::Value, String> {
    let mut sources = SourceMap::default();
    sources.add(SourceFile::new("gen.rules", text));
    let checked = hookc::check_sources(&sources).map_err(|errors| format!("{errors:?}"))?;
    let mut rules = serde_json::to_value(&checked.rules).unwrap();
    for rule in rules.as_array_mut().unwrap() {
        rule.as_object_mut().unwrap().remove("origin");
        if rule["name"].as_str().unwrap().starts_with("gen.rules:") {
            rule["name"] = "unnamed".into();
        }
    }
    Ok(rules)
}

fn comment_lines(text: &str) -> Vec<String> {
    let mut comments: Vec<String> =
        text.lines().filter_map(|line| line.find("# ").map(|at| line[at..].trim_end().to_string())).collect();
    comments.retain(|comment| {
        comment.starts_with("# note") || comment == "# header" || comment == "# trailing" || comment == "# the end"
    });
    comments.sort();
    comments
}

#[test]
fn formatting_is_idempotent_keeps_comments_and_keeps_the_rules() {
    use proptest::prelude::*;
    let config = ProptestConfig {
        cases: 400,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x9E37),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let wrapped = std::cell::Cell::new(0);
    proptest!(config, |(tape in proptest::collection::vec(any::<u32>(), 0..600))| {
        let mut generator = Generator { rng: crate::support::Tape::new(tape), lists: Vec::new(), regexes: Vec::new(), comments: 0 };
        let source = generator.file();
        let original = meaning(&source)
            .unwrap_or_else(|error| panic!("the generator made an invalid file:\n{source}\n{error}"));
        let once = format(&source).unwrap_or_else(|error| panic!("{error}\n{source}"));
        let twice = format(&once).unwrap();
        prop_assert_eq!(&once, &twice, "not idempotent\n--- source\n{}\n--- once\n{}", source, once);
        prop_assert_eq!(
            meaning(&once).unwrap(),
            original,
            "the rules changed\n--- source\n{}\n--- formatted\n{}", source, once
        );
        prop_assert_eq!(
            comment_lines(&once),
            comment_lines(&source),
            "comments changed\n--- source\n{}\n--- formatted\n{}", source, once
        );
        wrapped.set(wrapped.get() + usize::from(once.contains("\n  and ") || once.contains("\n  or ")));
    });
    assert!(
        wrapped.get() > 20,
        "long conditions were wrapped in only {} files: the property misses them",
        wrapped.get()
    );
}

#[test]
fn fmt_reads_standard_input_and_shows_a_diff() {
    let dir = tempfile::tempdir().unwrap();
    let long = "pre_tool_use when tool == Bash and command matches /rm -rf/ and not command contains \"node_modules\" and cwd starts_with \"/home\" => deny \"no\"\n";
    let wrapped = "pre_tool_use when tool == Bash\n  and command matches /rm -rf/\n  and not command contains \"node_modules\"\n  and cwd starts_with \"/home\"\n  => deny \"no\"\n";
    let piped = hookc(dir.path(), &["fmt", "-"], long.as_bytes());
    assert_eq!(piped.status.code(), Some(0), "{}", stderr(&piped));
    assert_eq!(stdout(&piped), wrapped);
    let check = hookc(dir.path(), &["fmt", "-", "--check"], long.as_bytes());
    assert_eq!((check.status.code(), stdout(&check).trim()), (Some(1), "would reformat <stdin>"));
    assert_eq!(hookc(dir.path(), &["fmt", "-", "--check"], wrapped.as_bytes()).status.code(), Some(0));
    let broken = hookc(dir.path(), &["fmt", "-"], b"pre_tool_use when => deny\n");
    assert_eq!(broken.status.code(), Some(1));
    assert!(stderr(&broken).contains("<stdin>:1:19"), "{}", stderr(&broken));

    std::fs::write(dir.path().join("long.rules"), long).unwrap();
    let diff = hookc(dir.path(), &["fmt", "--diff", "long.rules"], b"");
    assert_eq!(diff.status.code(), Some(1));
    assert!(
        stdout(&diff).starts_with("--- long.rules\n+++ long.rules\n@@ -1 +1,5 @@\n-pre_tool_use"),
        "{}",
        stdout(&diff)
    );
    assert!(stdout(&diff).contains("\n+  and cwd starts_with \"/home\"\n"), "{}", stdout(&diff));
    assert_eq!(std::fs::read_to_string(dir.path().join("long.rules")).unwrap(), long, "--diff changes nothing");
}

#[test]
fn fmt_rewrites_files_and_check_lists_what_would_change() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    std::fs::write(dir.path().join("rules/messy.rules"), "rule   a pre_tool_use when tool==bash=>deny \"x\" # why\n")
        .unwrap();
    std::fs::write(dir.path().join("rules/tidy.rules"), "rule b\nstop\n  => log \"x\"\n").unwrap();
    std::fs::write(dir.path().join("rules/broken.rules"), "rule c pre_tool_use =>\n").unwrap();

    let check = hookc(dir.path(), &["fmt", "--check"], b"");
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(stdout(&check).trim(), "would reformat rules/messy.rules");
    assert!(
        stderr(&check).contains("`rules/broken.rules` was not formatted: it has syntax errors"),
        "{}",
        stderr(&check)
    );
    assert!(
        std::fs::read_to_string(dir.path().join("rules/messy.rules")).unwrap().contains("tool==bash"),
        "--check changes nothing"
    );

    std::fs::remove_file(dir.path().join("rules/broken.rules")).unwrap();
    let fmt = hookc(dir.path(), &["fmt"], b"");
    assert_eq!(fmt.status.code(), Some(0), "{}", stderr(&fmt));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("rules/messy.rules")).unwrap(),
        "rule a\npre_tool_use when tool == bash\n  => deny \"x\"  # why\n"
    );
    assert_eq!(hookc(dir.path(), &["fmt", "--check"], b"").status.code(), Some(0));
}

#[test]
fn the_shipped_rules_are_formatted() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let check = hookc(root, &["fmt", "--check", "rules"], b"");
    assert_eq!(check.status.code(), Some(0), "run `hookc fmt rules`: {}", stdout(&check));
}

/// `with_list_values` adds what a `let` list lacks, after a trailing comma or none, to an empty
/// list, and formats; a file without the list is `None`, and one with every value is as it was.
#[test]
fn values_are_added_to_a_list_and_formatted() {
    let add = |text: &str| {
        let file = hookc::source::SourceFile::new("a.rules", text);
        hookc::with_list_values(0, &file, "known_hosts", &["b.example".to_string(), "a.example".to_string()]).unwrap()
    };
    assert_eq!(
        add("let known_hosts = [\"a.example\"]\n").unwrap(),
        "let known_hosts = [\"a.example\", \"b.example\"]\n"
    );
    assert_eq!(
        add("let known_hosts = [\"a.example\",]\n").unwrap(),
        "let known_hosts = [\"a.example\", \"b.example\"]\n"
    );
    assert_eq!(add("let known_hosts = []\n").unwrap(), "let known_hosts = [\"b.example\", \"a.example\"]\n");
    let whole = "let known_hosts = [\"a.example\", \"b.example\"]  # ours\n";
    assert_eq!(add(whole).unwrap(), whole);
    assert_eq!(add("let other = [\"x\"]\n"), None);
    assert!(hookc::with_list_values(
        0,
        &hookc::source::SourceFile::new("a.rules", "let known_hosts = ["),
        "known_hosts",
        &[]
    )
    .is_err());
}
