//! `hookc doctor`: read an agent's real hook settings (project and user), run every hookc
//! command found there with a synthetic payload for its event, and say what would happen.

use super::folder_trust;
use super::report::exit;
use super::wiring::{self, codex_trust, WiredHook};
use hookc_core::vocab::agents::schema::{Call, Trust};
use hookc_core::vocab::agents::{self, Agent};
use hookc_core::vocab::EventKind;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Check that the hooks wired into an agent work: every hookc command in its project and user
/// settings is run once per event with a synthetic payload; exit 1 on any problem.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  hookc doctor            every agent wired in this project and for this user\n  hookc doctor claude     Claude Code only"
)]
pub(super) struct Args {
    /// The agent to check (default: every agent).
    #[arg(value_parser = super::input::agent_arg, value_name = "AGENT")]
    agent: Option<&'static Agent>,
    /// The project root (default: the current directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
}

/// What doctor found about one agent.
#[derive(Default)]
struct Findings {
    lines: Vec<String>,
    problems: usize,
}

impl Findings {
    fn ok(&mut self, line: String) {
        self.lines.push(format!("  ok: {line}"));
    }

    fn note(&mut self, line: String) {
        self.lines.push(format!("  note: {line}"));
    }

    fn problem(&mut self, line: String) {
        self.problems += 1;
        self.lines.push(format!("  problem: {line}"));
    }
}

/// Runs `hookc doctor`.
pub(super) fn run(args: &Args) -> u8 {
    let project = match args.project.clone().map_or_else(std::env::current_dir, Ok) {
        Ok(project) => project,
        Err(error) => {
            super::report::error(format!("cannot read the current directory: {error}"));
            return exit::USAGE;
        }
    };
    let agents = match args.agent {
        Some(agent) => vec![agent],
        None => agents::AGENTS.to_vec(),
    };
    let mut problems = 0;
    for agent in agents {
        let findings = check_agent(agent, &project, args.agent.is_some());
        println!("{}:", agent.name);
        for line in &findings.lines {
            println!("{line}");
        }
        problems += findings.problems;
    }
    problems += report_cache();
    match problems {
        0 => {
            println!("no problems found");
            exit::OK
        }
        n => {
            println!("{n} problem(s) found");
            exit::FAILED
        }
    }
}

/// The compiled-rules cache `--rules` hooks keep (`crate::cache`): whether it is safely this
/// user's; the number of problems.
fn report_cache() -> usize {
    let Some(dir) = crate::cache::dir().filter(|dir| std::fs::symlink_metadata(dir).is_ok()) else { return 0 };
    let mut findings = Findings::default();
    match crate::cache::problem(&dir) {
        Some(problem) => findings.problem(format!(
            "`{}`: {problem} — hook calls compile the rules every time instead of using it",
            dir.display()
        )),
        None => {
            let (entries, bytes) = crate::cache::usage(&dir);
            findings.ok(format!(
                "`{}`: {entries} compiled polic{} ({} KB), owned by this user, mode 700; an agent running as this user could forge an entry, so the policy must refuse writes to it (the baseline does, and so does the hook itself)",
                dir.display(),
                if entries == 1 { "y" } else { "ies" },
                bytes.div_ceil(1024)
            ))
        }
    }
    println!("compiled-rules cache:");
    for line in &findings.lines {
        println!("{line}");
    }
    findings.problems
}

fn check_agent(agent: &'static Agent, project: &Path, asked: bool) -> Findings {
    let mut findings = Findings::default();
    let mut wired = 0;
    let mut seen = std::collections::HashSet::new();
    for file in wiring::settings_files(agent, project) {
        // The user's settings are the project's when the project is the home directory.
        if !seen.insert(std::fs::canonicalize(&file.path).unwrap_or_else(|_| file.path.clone())) {
            continue;
        }
        let shown = file.path.display().to_string();
        let found = match wiring::read(agent, &file.path) {
            Ok(Some(found)) => found,
            Ok(None) => continue,
            Err(error) => {
                findings.problem(format!("{} `{shown}`: {error}", file.scope));
                continue;
            }
        };
        // A switch that turns every hook off counts in any layer, hookc's hooks or not.
        for (pointer, value) in agent.settings.off_switches {
            if found.settings.pointer(pointer).and_then(Value::as_bool) == Some(*value) {
                let name = pointer.trim_start_matches('/').replace('/', ".");
                findings.problem(format!("{} `{shown}` sets `{name}: {value}`: no hook runs", file.scope));
            }
        }
        for problem in found.problems {
            findings.problem(problem);
        }
        let hooks = found.hooks;
        if hooks.is_empty() {
            continue;
        }
        wired += hooks.len();
        findings.ok(format!("{} `{shown}`: {} hookc hook(s)", file.scope, hooks.len()));
        for hook in &hooks {
            if hook.background {
                findings.problem(format!(
                    "{}: `async: true` — the agent does not wait for the answer, so it enforces nothing",
                    hook.event
                ));
            }
            if hook.once {
                findings.problem(format!(
                    "{}: `once: true` — it runs once per session; later calls are not governed",
                    hook.event
                ));
            }
        }
        match agent.settings.trust {
            Trust::CodexHooks => codex_trust_findings(&file.path, project, &hooks, &mut findings),
            Trust::Folders(spec) if !file.user && !file.managed => {
                folder_trust_findings(agent, folder_trust::read(agent, &spec, project), project, &mut findings)
            }
            _ => {}
        }
        for hook in &hooks {
            run_hook(agent, project, hook, &mut findings);
        }
        // Each policy the hooks load, once.
        let mut policies: Vec<(Vec<(String, PathBuf)>, &str)> = Vec::new();
        for hook in &hooks {
            let args = policy_args(agent, &hook.command, project);
            if !policies.iter().any(|(seen, _)| *seen == args) {
                policies.push((args, &hook.command));
            }
        }
        for (_, command) in policies {
            policy_findings(agent, command, project, &mut findings);
        }
        for hook in
            hooks.iter().filter(|hook| agent.event(&hook.event).is_some_and(|spec| spec.kind == EventKind::PreToolUse))
        {
            let mut guarded = policy_files(agent, &hook.command, project);
            // The committed launchers the settings run.
            guarded.extend(
                [super::launcher::PATH, super::launcher::POWERSHELL_PATH]
                    .map(|launcher| project.join(launcher))
                    .into_iter()
                    .filter(|launcher| launcher.exists()),
            );
            guarded.extend(
                wiring::settings_files(agent, project).into_iter().map(|file| file.path).filter(|path| path.exists()),
            );
            guarded.sort();
            guarded.dedup();
            self_protection(agent, project, hook, &guarded, &mut findings);
        }
        let logs: std::collections::BTreeSet<PathBuf> =
            hooks.iter().filter_map(|hook| audit_log(&hook.command)).collect();
        for log in logs {
            unknown_tools(agent, &log, &mut findings);
        }
    }
    if wired == 0 {
        let line = format!("hookc is not wired into {} here (`hookc init {} --write`)", agent.name, agent.id);
        match asked {
            true => findings.problem(line),
            false => findings.lines.push(format!("  {line}")),
        }
    }
    findings
}

/// The audit log a hookc command line writes (`--audit-log FILE`), if any.
fn audit_log(command: &str) -> Option<PathBuf> {
    let words = shlex::split(command)?;
    let mut words = words.iter();
    while let Some(word) = words.next() {
        if word == "--audit-log" {
            return words.next().map(PathBuf::from);
        }
        if let Some(path) = word.strip_prefix("--audit-log=") {
            return Some(PathBuf::from(path));
        }
    }
    None
}

/// The tools no table knows, and the MCP servers `vocab::mcp` does not know, that the audit
/// log recorded for this agent (its last MiB): rules on `kind`, `path` and the like do not see
/// such a tool's calls, nor the service such a server sends to.
fn unknown_tools(agent: &Agent, log: &Path, findings: &mut Findings) {
    const TAIL: u64 = 1024 * 1024;
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(log) else { return };
    let start = file.metadata().map_or(0, |meta| meta.len().saturating_sub(TAIL));
    let mut text = String::new();
    if file.seek(SeekFrom::Start(start)).is_err() || file.take(TAIL).read_to_string(&mut text).is_err() {
        return;
    }
    let mut tools = std::collections::BTreeSet::new();
    let mut servers = std::collections::BTreeSet::new();
    for line in text.lines() {
        let Ok(record) = serde_json::from_str::<Value>(line) else { continue };
        let field = |name: &str| record.get(name).cloned().unwrap_or(Value::Null);
        if field("agent") != agent.id {
            continue;
        }
        let Some(tool) = field("tool").as_str().map(str::to_string) else { continue };
        if field("unknown_tool") == true {
            tools.insert(tool.clone());
        }
        if field("unknown_server") == true {
            if let Some((server, _)) = hookc_core::vocab::tools::mcp_parts(&tool) {
                servers.insert(server.to_string());
            }
        }
    }
    let listed = |names: &std::collections::BTreeSet<String>| {
        names.iter().take(20).map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ")
    };
    if !tools.is_empty() {
        findings.problem(format!(
            "the audit log `{}` records calls of tools no table knows on {}: {} — their kind is `other`, and rules on `path`, `command` and the like do not see them (match them by `tool`, or add them to the agent's file)",
            log.display(),
            agent.name,
            listed(&tools)
        ));
    }
    if !servers.is_empty() {
        findings.problem(format!(
            "the audit log `{}` records calls to MCP servers hookc does not know on {}: {} — their tools are `mcp`, read for paths and URLs in every argument, but not for the service they send to or what else they do (match them by `mcp_server`, or add a row to crates/core/src/vocab/mcp.rs)",
            log.display(),
            agent.name,
            listed(&servers)
        ));
    }
}

/// An agent that runs a project's hooks only in a trusted folder (Copilot CLI), and runs none,
/// silently, elsewhere.
fn folder_trust_findings(
    agent: &Agent,
    state: Result<folder_trust::State, String>,
    project: &Path,
    findings: &mut Findings,
) {
    match state {
        Ok(folder_trust::State { off_in: Some(settings), .. }) => findings.ok(format!(
            "{}: folder trust is turned off in `{}`: its project hooks run in any folder",
            agent.name,
            settings.display()
        )),
        Ok(state) if state.trusted => {
            findings.ok(format!("{}: `{}` is a trusted folder ({})", agent.name, project.display(), state.file.display()))
        }
        Ok(state) => findings.problem(format!(
            "{}: `{}` is not a trusted folder in `{}` — {} runs none of its project hooks, and says nothing (`hookc init {} --write --trust`, trust the folder when {} asks, or as its docs say)",
            agent.name,
            project.display(),
            state.file.display(),
            agent.name,
            agent.id,
            agent.name
        )),
        Err(error) => findings.problem(format!("{}: {error}: cannot tell whether its project hooks run", agent.name)),
    }
}

/// Codex runs only hooks its user trusted, from a project's `.codex/hooks.json` only in a
/// trusted project.
fn codex_trust_findings(hooks_json: &Path, project: &Path, hooks: &[WiredHook], findings: &mut Findings) {
    let state = match codex_trust::read(hooks_json, project, hooks) {
        Ok(state) => state,
        Err(error) => return findings.problem(format!("{error}: Codex will not start")),
    };
    let events = |hooks: Vec<&WiredHook>| hooks.iter().map(|hook| hook.event.as_str()).collect::<Vec<_>>().join(", ");
    if state.untrusted.is_empty() {
        findings.ok(format!("Codex: all {} hookc hook(s) are trusted", hooks.len()));
    } else {
        findings.problem(format!(
            "Codex: {} hook(s) untrusted or changed since trusted ({}) — they will not run (`hookc init codex --write --trust`, or `/hooks` in Codex)",
            state.untrusted.len(),
            events(state.untrusted.iter().map(|(hook, ..)| *hook).collect())
        ));
    }
    if !state.disabled.is_empty() {
        findings.problem(format!(
            "Codex: {} hook(s) turned off with `enabled = false` ({}) — they will not run",
            state.disabled.len(),
            events(state.disabled.clone())
        ));
    }
    if state.project_unread {
        findings.problem(format!(
            "Codex: `{}` is not a trusted project — Codex does not read its `.codex/hooks.json`",
            project.display()
        ));
    }
}

/// Runs one hook as the agent would, with a synthetic payload for its event.
fn run_hook(agent: &'static Agent, project: &Path, hook: &WiredHook, findings: &mut Findings) {
    // Without a timeout the agent's default applies; doctor waits 60 s at most.
    let timeout = hook.timeout.map_or(Duration::from_secs(60), |written| wiring::timeout(agent, written));
    let deadline = hookc_deadline(&hook.command);
    if timeout <= deadline {
        findings.problem(format!(
            "{}: the agent's timeout ({} s) is not above hookc's deadline ({} s): a slow call is cut off by the agent, which then runs it",
            hook.event,
            timeout.as_secs_f64(),
            deadline.as_secs_f64()
        ));
    }
    let payload = payload(agent, &hook.event, project);
    let started = Instant::now();
    let outcome = run_command(agent, &hook.command, project, &payload, timeout.min(Duration::from_secs(60)));
    let took = started.elapsed();
    let event = &hook.event;
    match outcome {
        Err(error) => findings.problem(format!("{event}: cannot run `{}`: {error}", hook.command)),
        Ok(None) => findings.problem(format!(
            "{event}: no answer within the agent's timeout ({} s) — the agent gives up and runs the call",
            timeout.as_secs_f64()
        )),
        Ok(Some((code, stdout, stderr))) => {
            let said = stderr.lines().last().unwrap_or("").trim().to_string();
            match code {
                Some(0) if !stdout.trim().is_empty() && serde_json::from_str::<Value>(stdout.trim()).is_err() => {
                    findings.problem(format!("{event}: exit 0 but stdout is not JSON: the agent ignores the answer"));
                }
                Some(0) => findings.ok(format!("{event}: answered in {} ms", took.as_millis())),
                Some(2) => findings.problem(format!("{event}: exit 2: {said} — {}", blocked(agent, event))),
                other => findings.problem(format!(
                    "{event}: exit {}: {said} — the agent treats this as a broken hook and goes on without the policy",
                    other.map_or_else(|| "by a signal".to_string(), |code| code.to_string())
                )),
            }
        }
    }
}

/// The policy arguments of a hook command: each `--rules` and `--bundle` with its value (the
/// agent's project variable expanded as the shell would), built-in rule sets left out.
fn policy_args(agent: &Agent, command: &str, project: &Path) -> Vec<(String, PathBuf)> {
    // The project variable the agent sets (`$CLAUDE_PROJECT_DIR/rules`), as the shell expands it.
    let mut command = command.to_string();
    if let Some(var) = agent.settings.project_var {
        let root = project.to_string_lossy();
        command = command.replace(&format!("${{{var}}}"), &root).replace(&format!("${var}"), &root);
    }
    let words = shlex::split(&command).unwrap_or_default();
    let mut found = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        let (flag, value) = match word.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
            _ => (word.as_str(), None),
        };
        let value = match flag {
            "--rules" | "--bundle" => value.or_else(|| words.next().cloned()),
            _ => continue,
        };
        let Some(value) = value.filter(|value| !value.starts_with(hookc_core::builtin::PREFIX)) else { continue };
        found.push((flag.to_string(), project.join(&value)));
    }
    found
}

/// The files a hook command's policy is made of: its rule files (`--rules`, a directory's
/// `.rules` files, at most 64), its bundle and the bundle's signature (`--bundle`).
fn policy_files(agent: &Agent, command: &str, project: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for (flag, path) in policy_args(agent, command, project) {
        if flag == "--bundle" {
            files.push(path.with_file_name(format!(
                "{}.minisig",
                path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
            )));
            files.push(path);
        } else if path.is_dir() {
            let found = hookc_core::source::find_files(std::slice::from_ref(&path), |file| {
                file.extension().is_some_and(|ext| ext == "rules")
            })
            .unwrap_or_default();
            files.extend(found.into_iter().take(64));
            files.push(path);
        } else {
            files.push(path);
        }
    }
    files
}

/// How many days before its last day a waiver is listed.
const WAIVER_NOTICE_DAYS: i64 = 7;

/// The policy a hook command loads, read whole: a bundle's every block verified, and the
/// waivers that expire within [`WAIVER_NOTICE_DAYS`] (or have expired) listed.
fn policy_findings(agent: &Agent, command: &str, project: &Path, findings: &mut Findings) {
    let args = policy_args(agent, command, project);
    let bundle = args.iter().find(|(flag, _)| flag == "--bundle").map(|(_, path)| path.clone());
    let rules: Vec<PathBuf> = args.into_iter().filter(|(flag, _)| flag == "--rules").map(|(_, path)| path).collect();
    let loaded = match &bundle {
        Some(bundle) => hookc_core::Policy::load_bundle(bundle),
        None if rules.is_empty() => return,
        None => hookc_core::Policy::from_paths(&rules),
    };
    let policy = match loaded {
        Ok(policy) => policy,
        // A policy that does not load is reported by the hook runs above.
        Err(_) => return,
    };
    if let Some(bundle) = &bundle {
        match policy.verify() {
            Ok(()) => findings.ok(format!("`{}`: every rule and every block verified", bundle.display())),
            Err(error) => findings.problem(format!("`{}`: {error}", bundle.display())),
        }
    }
    let today = hookc_core::today();
    let mut audits: Vec<(&str, usize)> = Vec::new();
    for waiver in policy.waivers() {
        let what = match waiver.mode {
            hookc_core::Lift::Audit => {
                match audits.iter_mut().find(|(origin, _)| *origin == waiver.origin) {
                    Some((_, count)) => *count += 1,
                    None => audits.push((&waiver.origin, 1)),
                }
                "audit"
            }
            _ => "waiver",
        };
        let Some(until) = &waiver.until else { continue };
        let Some(last) = hookc_core::day_of(until) else { continue };
        let left = last - today;
        let reason = waiver.reason.as_deref().map(|reason| format!(" ({reason})")).unwrap_or_default();
        match left {
            ..0 => findings.note(format!(
                "the {what} of `{}` at {} expired after {until}: the rule applies again{reason}",
                waiver.rule, waiver.origin
            )),
            0..=WAIVER_NOTICE_DAYS => findings.note(format!(
                "the {what} of `{}` at {} expires after {until} ({} day{} left){reason}",
                waiver.rule,
                waiver.origin,
                left,
                if left == 1 { "" } else { "s" }
            )),
            _ => {}
        }
    }
    for (origin, count) in audits {
        findings.note(format!(
            "{count} rule{} in audit mode (the audit at {origin}): {} the audit log, not the agent; `hookc stats LOG` counts what {}",
            if count == 1 { "" } else { "s" },
            if count == 1 { "it decides for" } else { "they decide for" },
            if count == 1 { "it would have decided" } else { "they would have decided" },
        ));
    }
}

/// Whether the wired agent can change its own policy: for each file the policy is made of, and
/// each settings file that wires hookc, a write of it with the agent's write tool and its
/// deletion with its shell tool are sent through the hook as the agent would send them. What the
/// policy lets through (neither refused nor asked about) is a problem: the agent could switch
/// the policy off.
fn self_protection(
    agent: &'static Agent,
    project: &Path,
    hook: &WiredHook,
    files: &[PathBuf],
    findings: &mut Findings,
) {
    let Some(spec) = agent.event(&hook.event) else { return };
    if !matches!(spec.call, Call::Payload) {
        return;
    }
    let write = agent.tools.iter().find_map(|tool| match (tool.kind, tool.source(hookc_core::vocab::Semantic::Path)) {
        (hookc_core::Kind::Write, Some(hookc_core::vocab::tools::Source::Args(names))) => {
            Some((tool.name, names.first()?))
        }
        _ => None,
    });
    let shell =
        agent.tools.iter().find_map(|tool| match (tool.kind, tool.source(hookc_core::vocab::Semantic::Command)) {
            (hookc_core::Kind::Shell, Some(hookc_core::vocab::tools::Source::Args(names))) if !tool.powershell => {
                Some((tool.name, names.first()?))
            }
            _ => None,
        });
    let Ok(log_dir) = tempfile::tempdir() else { return };
    let log = log_dir.path().join("audit.jsonl");
    let command = format!(
        "{} --audit-log {}",
        hook.command,
        shlex::try_quote(&log.to_string_lossy()).map(|quoted| quoted.into_owned()).unwrap_or_default()
    );
    let fields = &agent.payload;
    let mut open = Vec::new();
    for file in files {
        let shown = file.strip_prefix(project).unwrap_or(file).display().to_string();
        let absolute = file.to_string_lossy().into_owned();
        let mut attempts = Vec::new();
        let directory = file.is_dir();
        if let (Some((tool, arg)), false) = (write, directory) {
            attempts.push((format!("{tool} {shown}"), tool, json!({ *arg: absolute, "content": "" })));
        }
        if let Some((tool, arg)) = shell {
            let quoted = shlex::try_quote(&absolute).map(|quoted| quoted.into_owned()).unwrap_or_default();
            let rm = if directory { "rm -rf" } else { "rm -f" };
            attempts.push((format!("{rm} {shown}"), tool, json!({ *arg: format!("{rm} {quoted}") })));
        }
        for (what, tool, args) in attempts {
            let mut payload = payload(agent, &hook.event, project);
            if let (Some(name), Some(input)) = (fields.tool_name.first(), fields.tool_input.first()) {
                set_pointer(&mut payload, name, json!(tool));
                set_pointer(&mut payload, input, args);
            }
            let _ = std::fs::remove_file(&log);
            let _ = run_command(agent, &command, project, &payload, Duration::from_secs(30));
            let decision = std::fs::read_to_string(&log)
                .ok()
                .and_then(|text| text.lines().last().and_then(|line| serde_json::from_str::<Value>(line).ok()))
                .and_then(|record| record.get("decision").and_then(Value::as_str).map(str::to_string));
            match decision.as_deref() {
                Some("deny" | "ask" | "block" | "error") => {}
                Some(other) => open.push(format!("`{what}` ({other})")),
                None => open.push(format!("`{what}` (no record: the hook did not decide)")),
            }
        }
    }
    match open.len() {
        0 if !files.is_empty() => findings.ok(format!(
            "{}: the policy refuses or asks before the agent changes any of its {} file(s) or the settings that wire it",
            hook.event,
            files.len()
        )),
        0 => {}
        n => findings.problem(format!(
            "{}: the agent can change the policy that governs it — {n} call(s) go through: {}. Protect these files (the baseline's `protect-hook-settings` rules do), or the agent can switch the policy off",
            hook.event,
            open.join(", ")
        )),
    }
}

/// What exit 2 at an event does to the agent.
fn blocked(agent: &Agent, event: &str) -> &'static str {
    match agent.event(event).map(|spec| spec.kind) {
        Some(EventKind::PreToolUse) => "every tool call is blocked",
        Some(EventKind::UserPromptSubmit) => "every prompt is refused",
        Some(EventKind::Stop | EventKind::SubagentStop) => "the agent is made to go on at every stop",
        Some(EventKind::PostToolUse) => "every tool result is reported as blocked",
        _ => "the agent reports the hook as blocking",
    }
}

/// The `--deadline` a hookc command line gives, else the default.
fn hookc_deadline(command: &str) -> Duration {
    let mut words = command.split_whitespace();
    let mut given = None;
    while let Some(word) = words.next() {
        if word == "--deadline" {
            given = words.next();
        } else if let Some(value) = word.strip_prefix("--deadline=") {
            given = Some(value);
        }
    }
    let seconds = given.and_then(|value| value.parse::<f64>().ok()).filter(|seconds| *seconds > 0.0);
    Duration::from_secs_f64(seconds.unwrap_or(super::hook::DEFAULT_DEADLINE))
}

/// A harmless payload for an event, in the agent's shape (built from its file's pointers): a
/// shell call of `true`, a prompt, a stop that continued nothing.
fn payload(agent: &Agent, event: &str, project: &Path) -> Value {
    let fields = &agent.payload;
    let cwd = project.to_string_lossy();
    let shell = agent.tools.iter().find(|tool| tool.kind == hookc_core::Kind::Shell).map_or("Bash", |tool| tool.name);
    let spec = agent.event(event);
    let mut payload = json!({});
    let mut set = |pointers: &[&str], value: Value| {
        if let Some(pointer) = pointers.first() {
            set_pointer(&mut payload, pointer, value);
        }
    };
    set(fields.event, json!(event));
    set(fields.session, json!("hookc-doctor"));
    set(fields.cwd, json!(cwd));
    let Some(spec) = spec else { return payload };
    if spec.kind.has_tool() {
        match spec.call {
            Call::Payload => {
                set(fields.tool_name, json!(shell));
                set(fields.tool_input, json!({"command": "true"}));
            }
            Call::Implied { args, .. } => {
                for (_, pointers) in args {
                    set(pointers, json!("true"));
                }
            }
        }
    }
    match spec.kind {
        EventKind::PostToolUse => {
            set(fields.tool_response, json!({"stdout": "", "stderr": "", "interrupted": false, "llmContent": ""}))
        }
        EventKind::PostToolUseFailure => set(fields.error, json!("exit 1")),
        EventKind::UserPromptSubmit => set(fields.prompt, json!("hello")),
        EventKind::Stop | EventKind::SubagentStop => {
            set(fields.stop_hook_active, json!(false));
            set(fields.last_message, json!(""));
        }
        EventKind::SessionStart => set(fields.source, json!("startup")),
        EventKind::SessionEnd => set(fields.reason, json!("other")),
        EventKind::PreCompact => set(fields.trigger, json!("manual")),
        EventKind::Notification => set(fields.message, json!("hookc doctor")),
        EventKind::PreToolUse | EventKind::PermissionRequest => {}
    }
    payload
}

/// Sets a value at a JSON pointer, making the objects on the way.
fn set_pointer(root: &mut Value, pointer: &str, value: Value) {
    let mut at = root;
    let steps: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    let Some((last, path)) = steps.split_last() else { return };
    for step in path {
        let Some(object) = at.as_object_mut() else { return };
        at = object.entry(step.to_string()).or_insert_with(|| json!({}));
    }
    if let Some(object) = at.as_object_mut() {
        object.insert(last.to_string(), value);
    }
}

/// Runs a hook command through the shell, as the agent does, from the project root with the
/// variables the agent's data says it sets to it; `None` when it did not finish in time (it is
/// killed).
fn run_command(
    agent: &Agent,
    command: &str,
    project: &Path,
    payload: &Value,
    timeout: Duration,
) -> std::io::Result<Option<(Option<i32>, String, String)>> {
    use std::io::Write;
    let mut shell = std::process::Command::new("sh");
    #[cfg(unix)]
    {
        // Its own process group, so a hook that leaves children behind is stopped whole.
        use std::os::unix::process::CommandExt;
        shell.process_group(0);
    }
    // What this agent sets, and no other agent's (doctor may run inside another agent's session).
    fn sets(agent: &Agent) -> impl Iterator<Item = &'static str> + '_ {
        agent.root_vars().chain(agent.settings.project_var)
    }
    for var in agents::AGENTS.iter().flat_map(|other| sets(other)) {
        shell.env_remove(var);
    }
    for var in sets(agent) {
        shell.env(var, project);
    }
    let mut child = shell
        .arg("-c")
        .arg(command)
        .current_dir(project)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        // A hook that exits without reading its stdin is not an error here.
        let _ = stdin.write_all(payload.to_string().as_bytes());
    }
    // Read both pipes as the hook writes, so a chatty hook cannot stall on a full pipe.
    let reader = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut text);
            }
            let _ = sender.send(String::from_utf8_lossy(&text).into_owned());
        });
        receiver
    };
    let stdout = reader(child.stdout.take().map(|pipe| Box::new(pipe) as Box<dyn std::io::Read + Send>));
    let stderr = reader(child.stderr.take().map(|pipe| Box::new(pipe) as Box<dyn std::io::Read + Send>));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > timeout {
            stop_group(&mut child);
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // The agent waits for the hook's output to end, which a background child can hold open.
    let left = timeout.saturating_sub(started.elapsed());
    let (Ok(out), Ok(err)) = (stdout.recv_timeout(left), stderr.recv_timeout(left.max(Duration::from_millis(50))))
    else {
        stop_group(&mut child);
        return Ok(None);
    };
    Ok(Some((status.code(), out, err)))
}

/// Stops a hook and whatever it started.
fn stop_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        // `-s KILL -- -PGID`: procps reads `kill -KILL -PGID` otherwise, and can signal every
        // process the user owns.
        let group = format!("-{}", child.id());
        let _ = std::process::Command::new("kill").args(["-s", "KILL", "--", &group]).status();
    }
    let _ = child.kill();
    let _ = child.wait();
}
