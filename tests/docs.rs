//! The tutorial and the cookbook are run, not only read: every command of `docs/tutorial.md`
//! with its output, every recipe of `docs/cookbook.md` checked and tested.

use crate::support::{hookc, stderr, stdout};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One `$ ` command of a console block (with its heredoc, if any) and the output shown.
struct Step {
    command: String,
    output: String,
}

fn console_steps(markdown: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for block in markdown.split("```console\n").skip(1) {
        let block = block.split("```").next().unwrap_or_default();
        let mut lines = block.lines();
        while let Some(line) = lines.next() {
            if let Some(command) = line.strip_prefix("$ ") {
                let mut command = command.to_string();
                if let Some(marker) = command.split("<<'").nth(1).map(|rest| rest.trim_end_matches('\'').to_string()) {
                    for body in lines.by_ref() {
                        command.push('\n');
                        command.push_str(body);
                        if body == marker {
                            break;
                        }
                    }
                }
                steps.push(Step { command, output: String::new() });
            } else if let Some(step) = steps.last_mut() {
                step.output.push_str(line);
                step.output.push('\n');
            }
        }
    }
    steps
}

#[test]
fn every_tutorial_command_prints_what_the_tutorial_shows() {
    let tutorial = std::fs::read_to_string(root().join("docs/tutorial.md")).unwrap();
    let steps = console_steps(&tutorial);
    assert!(steps.len() >= 15, "the tutorial runs {} commands", steps.len());
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_hookc"), bin.path().join("hookc")).unwrap();
    let path = format!("{}:{}", bin.path().display(), std::env::var("PATH").unwrap_or_default());
    for step in &steps {
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(&step.command)
            .current_dir(project.path())
            .env("HOME", home.path())
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("CLICOLOR_FORCE")
            .output()
            .unwrap();
        let printed = format!("{}{}", stdout(&output), stderr(&output));
        assert!(output.status.success(), "`{}` failed:\n{printed}", step.command);
        assert_eq!(printed, step.output, "`{}` printed otherwise than docs/tutorial.md shows", step.command);
    }
}

#[test]
fn the_cookbook_recipes_check_clean_and_pass_their_tests() {
    let check = hookc(root(), &["check", "docs/cookbook", "--deny-warnings"], b"");
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    let test = hookc(root(), &["test", "docs/cookbook", "--min-coverage", "100"], b"");
    assert_eq!(test.status.code(), Some(0), "{}", stdout(&test));
    let fmt = hookc(root(), &["fmt", "--check", "docs/cookbook"], b"");
    assert_eq!(fmt.status.code(), Some(0), "{}", stdout(&fmt));

    // The page shows each recipe as it is, and every recipe has its tests.
    let page = std::fs::read_to_string(root().join("docs/cookbook.md")).unwrap();
    let mut shown = 0;
    for block in page.split("```hookc\n").skip(1) {
        let block = block.split("```").next().unwrap();
        let name = block.lines().next().unwrap().strip_prefix("# docs/cookbook/").expect("the block names its file");
        let file = std::fs::read_to_string(root().join("docs/cookbook").join(name)).unwrap();
        assert!(
            block == file
                || block.strip_prefix(&format!("# docs/cookbook/{name}\n\n")) == Some(file.as_str())
                || block == format!("# docs/cookbook/{name}\n{file}"),
            "docs/cookbook.md shows {name} otherwise than the file is"
        );
        let tests = name.replace(".rules", ".test.yaml");
        assert!(root().join("docs/cookbook").join(&tests).is_file(), "{name} has no {tests}");
        shown += 1;
    }
    assert!(shown >= 15, "the cookbook has {shown} recipes");
}
