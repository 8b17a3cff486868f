//! One line of documentation for each name a rule can use — events, fields, actions, kinds —
//! for editors (`hookc lsp` hover and completion). A test keeps every name documented.

use super::{ActionKind, EventKind, Kind};

/// What an event is.
pub fn event(event: EventKind) -> &'static str {
    match event {
        EventKind::UserPromptSubmit => {
            "The user submitted a prompt; the model has not seen it yet. Rules can add context."
        }
        EventKind::PreToolUse => "A tool call is about to run: rules block, deny, ask, allow or rewrite its arguments.",
        EventKind::PostToolUse => {
            "A tool ran; its output is not yet in the history. Rules rewrite (replace, truncate, redact) or stop."
        }
        EventKind::Stop => {
            "The model answered without tool calls and the turn is about to end. `continue` forces one more turn."
        }
        EventKind::SessionStart => "A session started or resumed (`source`). Rules can add context.",
        EventKind::SessionEnd => "A session ended (`reason`). Observe only.",
        EventKind::SubagentStop => "A subagent finished; like `stop`, for the subagent's own turn.",
        EventKind::PostToolUseFailure => "A tool call failed (`error`). Rules can add context.",
        EventKind::PreCompact => {
            "The history is about to be compacted (`trigger`); `block` refuses it where the agent allows."
        }
        EventKind::Notification => "The agent sent a notification (`message`). Observe only.",
        EventKind::PermissionRequest => "The agent is about to ask its user to approve a tool call: rules deny it, or ask (leave it to the person); `allow` approves on the person's behalf.",
    }
}

/// What an action does.
pub fn action(action: ActionKind) -> &'static str {
    match action {
        ActionKind::Block => {
            "Refuse the call with a stable error code; the model reads `Error [CODE]: MESSAGE`. Ends evaluation."
        }
        ActionKind::Deny => {
            "Recommend denying the call, with the reason the model reads. The strongest recommendation wins."
        }
        ActionKind::Ask => "Recommend asking the user before the call runs.",
        ActionKind::Allow => "Recommend allowing the call. Never authorises by itself: any system deny wins.",
        ActionKind::Set => {
            "Rewrite one argument of the call (`set path = \"sandbox/{path}\"`); later rules see the rewrite."
        }
        ActionKind::Replace => "Replace the tool's output the model reads.",
        ActionKind::Truncate => "Cut the tool's output to N characters, marked `[truncated]`.",
        ActionKind::Redact => "Replace every match of the regular expression in the output (default `[redacted]`).",
        ActionKind::Stop => "End the turn after this tool result.",
        ActionKind::Continue => "Force one more model turn with this message (at most once per turn).",
        ActionKind::Context => "Add a system message for the model.",
        ActionKind::Log => "Write an audit record (`--audit-log`, and stderr); never changes the result.",
    }
}

/// What a kind of tool is.
pub fn kind(kind: Kind) -> &'static str {
    match kind {
        Kind::Shell => {
            "Runs a command line: Claude Code `Bash`, Codex `shell`/`exec_command`, Gemini CLI `run_shell_command`."
        }
        Kind::Read => "Reads files: `Read`, `read_file`, `view_image`, ….",
        Kind::Write => "Writes or edits files: `Write`, `Edit`, `write_file`, `replace`, `apply_patch`, ….",
        Kind::Search => "Searches files: `Grep`, `Glob`, `grep_search`, `glob`.",
        Kind::Fetch => "Reaches the network: `WebFetch`, `WebSearch`, `web_fetch`, `web_search`.",
        Kind::Mcp => "An MCP server's tool that is none of the other kinds.",
        Kind::Agent => "Starts a subagent: `Task`, `Agent`.",
        Kind::Other => "Anything else: plans, to-do lists, memory.",
    }
}

/// What a field holds, by its name in rules.
pub fn field(name: &str) -> Option<&'static str> {
    Some(match name {
        "tool" => "The tool's name as the agent knows it (`Bash`, `write_file`). Prefer `kind`, which names it across agents.",
        "kind" => "What the tool does, across agents: `shell`, `read`, `write`, `search`, `fetch`, `mcp`, `agent`, `other`.",
        "paths" => "Every file the call touches (a list): a patch's files, a command line's operands and redirections.",
        "programs" => "Every program a shell call's command line runs (a list), through `bash -c`, `sudo`, pipes and substitutions.",
        "egress" => "The hosts the call sends to (a list): the URLs of its command line's HTTP clients (`curl`, `wget`, and code's HTTP calls), `nc`/`socat`/`telnet`'s host, `ssh`/`scp`/`rsync`'s, `git clone`/`fetch`/`push`'s URL, a DNS lookup's name and server, curl's proxy, `--resolve` address and `--connect-to` host, a fetch tool's URL, every argument of an MCP tool that is a URL (not a URL a text mentions). Normalised as an HTTP client reads a URL's host: lower case, punycode, IPv4 in any notation as dotted decimal (`http://2852039166/` is `169.254.169.254`), IPv6 without brackets, no port or credentials; a destination left to run time (`curl \"$URL\"`) is listed as written, and is in no list of hosts. `pre_tool_use when egress in [\"169.254.169.254\"] => deny \"…\"`.",
        "args" => "Every text among the tool's arguments, at any depth, and a shell line's words as the shell unquotes them (a list), for a test that looks anywhere in the call: a token in a URL, a body or a header (`args matches secret_values`). One argument is `args.NAME`.",
        "unread" => "What the reader of the call's command line could not account for, as reasons (a list; empty when it read everything): `callee chosen at run time: python getattr`, `script from a descriptor: python3 /dev/stdin`. `pre_tool_use when len(unread) > 0 => ask \"…\"`.",
        "access" => "How the call uses the file being judged: `read`, `write`, or `use` (a key or certificate a program authenticates with, `ssh -i KEY`, whose contents it does not print).",
        "program" => "Inside `runs (…)`: the command's program.",
        "subcommand" => "Inside `runs (…)`: the command's first operand (`push` in `git push`).",
        "flags" => "Inside `runs (…)`: the command's option names (`-rf` gives `r` and `f`; `--force` gives `force`).",
        "operands" => "Inside `runs (…)`: the command's operands, as paths.",
        "outside" => "Inside `runs (…)`: the command's operands outside the project root, as paths (`rm -rf ../other`).",
        "words" => "Inside `runs (…)`: every word after the program.",
        "via" => "Inside `runs (…)`: the wrappers and shells the command runs through (`sudo`, `bash`).",
        "remote" => "Inside `runs (…)`: the other hosts the command acts on: the host `ssh` runs it on, the hosts whose files `scp`, `rsync` or `sftp` name (`HOST:PATH`). Its paths there are not this machine's.",
        "sources" => "Inside `runs (…)` of a command that moves, copies or links files (`mv`, `cp`, `ln`, `install`, `rsync`, `scp`, `ditto`): the operands it takes from, as paths: all of them with `-t DIR`, else all but the last (`mv ~ /tmp/x` takes `~`).",
        "destination" => "Inside `runs (…)` of such a command: where it puts what it takes (`-t DIR`, else the last operand), as a path; none for any other command.",
        "inputs" => "Inside `runs (…)`: the programs whose output the command reads (`curl` in `curl … | sh`).",
        "ok" => "Inside a `stop` rule's `runs (…)`: whether the command's call succeeded, as the agent's transcript records it (missing where it does not say).",
        "status" => "Inside a `stop` rule's `runs (…)`: the call's exit status, where the transcript records one.",
        "after_writes" => "Inside a `stop` rule's `runs (…)`: whether the call ran after the turn's last write (no later call wrote a file): `stop when not runs make test (ok and after_writes) => continue …`.",
        "mcp_server" => "For an MCP tool (`mcp__SERVER__TOOL`), the server's name.",
        "mcp_tool" => "For an MCP tool, the tool's name on its server.",
        "prompt" => "The submitted prompt.",
        "output" => "The tool's output text (JSON outputs as their strings, in order).",
        "is_error" => "Whether the tool reported an error.",
        "error" => "Why the tool failed.",
        "stop_hook_active" => "Whether a Stop hook already forced a continuation this turn (`continue` is then dropped).",
        "tool_calls" => "How many tool calls the turn made since the user's last prompt; missing when the agent's transcript cannot be read.",
        "commands" => "The shell command lines the turn ran, in order (a list): `not commands matches /make test/`.",
        "files_written" => "The files the turn wrote or edited, with any tool (a list of paths); a call the transcript says failed wrote none.",
        "tools_used" => "The tools the turn used, each once (a list).",
        "last_message" => "The model's last message.",
        "source" => "How the session started: `startup`, `resume`, `clear`, `compact`.",
        "reason" => "Why the session ended.",
        "trigger" => "What triggered compaction: `manual` or `auto`.",
        "message" => "The notification's text.",
        "cwd" => "The agent's working directory.",
        "project_root" => "The project root paths are spelled relative to.",
        "session_id" => "The agent's session id.",
        "permission_mode" => "The agent's permission mode.",
        "agent" => "Which agent sent the event: `claude`, `codex`, `gemini`, `native`.",
        "path" => "The file the call reads or writes, in its canonical spelling (one reading per file the call touches).",
        "command" => "A shell call's command line (Codex's argv as one line).",
        "url" => "The URL a fetch tool reaches.",
        "host" => "The host of `url`.",
        "content" => "What a write tool writes (a patch's text for `apply_patch`).",
        "pattern" => "A search tool's pattern.",
        "query" => "A web search's query.",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Field;

    #[test]
    fn every_name_a_rule_can_use_is_documented() {
        for event in EventKind::ALL {
            assert!(!super::event(event).is_empty());
            for name in Field::names_for(event) {
                assert!(field(name).is_some(), "the field `{name}` has no documentation");
            }
        }
        for action in ActionKind::ALL {
            assert!(!super::action(action).is_empty());
        }
        for kind in Kind::ALL {
            assert!(!super::kind(kind).is_empty());
        }
    }
}
