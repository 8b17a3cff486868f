//! The documentation of every diagnostic code: what it reports, why it matters, an example, the
//! fix. `hookc check --explain CODE` prints one; `docs/lints.md` is generated from all of them (a
//! test keeps it in step).

use super::Code;

/// One code's documentation.
pub struct Doc {
    /// What the check reports.
    pub what: &'static str,
    /// Why it matters.
    pub why: &'static str,
    /// A rule file that triggers it.
    pub example: &'static str,
    /// How to fix it.
    pub fix: &'static str,
}

impl Code {
    /// This code's documentation.
    pub fn doc(self) -> Doc {
        let (what, why, example, fix) = match self {
            Code::Syntax => (
                "The text does not follow the grammar: a rule is `[rule NAME] EVENT [when CONDITION] => ACTION, …`. A `(`, `[`, string or regex left open is reported at its opening, where the parser stopped as a note. The rule with the error is skipped and the rest of the file read, so later errors and the other rules' findings are reported too.",
                "A rule that cannot be read cannot apply, so hookc refuses to load the whole rule set until it is fixed.",
                "pre_tool_use when tool == bash deny \"x\"",
                "Add what the message says is expected; here the `=>` before the actions.",
            ),
            Code::BadEscape => (
                "A string uses an escape other than `\\\"`, `\\\\`, `\\n`, `\\t`, `\\r`, `\\{`, `\\}`, or a message has an unbalanced `{` or `}`.",
                "A message's braces interpolate fields; a stray brace would otherwise print something other than written.",
                "pre_tool_use => deny \"blocked {path\"",
                "Close the brace, or write `\\{` for a literal one.",
            ),
            Code::UnknownEvent => (
                "The rule's event is not one hookc knows.",
                "A rule for an event that never happens never fires; a typo would silently disable it.",
                "pre_tool_usee => deny",
                "Use one of the events listed in the help, usually the one suggested.",
            ),
            Code::UnknownField => (
                "A condition or message names a field no event has.",
                "An unknown field would never have a value, so the test would never hold.",
                "pre_tool_use when comand == \"ls\" => deny",
                "Use the suggested field, or `args.NAME` for a raw tool argument.",
            ),
            Code::FieldNotInEvent => (
                "The field exists, but the rule's event does not carry it (`output` before the tool ran).",
                "The test could never hold on that event.",
                "pre_tool_use when output contains \"x\" => deny",
                "Move the rule to the event that has the field, or test a field the event has.",
            ),
            Code::UnknownAction => (
                "The action is not one hookc knows.",
                "The rule would do nothing.",
                "pre_tool_use => dney",
                "Use one of the actions the help lists for the event.",
            ),
            Code::ActionNotInEvent => (
                "The action exists but its result cannot be produced on this event (the seed contract's `validateFor`): `block` only before a tool or a compaction, `continue` only at a stop, and so on.",
                "The agent would have nothing to do with the result; hookc rejects it when the rules are checked rather than at run time.",
                "stop => block \"x\"",
                "Use an action the event allows (the help lists them), or move the rule to the right event.",
            ),
            Code::ActionArguments => (
                "An action got the wrong arguments: `block` needs a one-word code, `truncate` a whole number, `set` a tool argument.",
                "The action could not do what was meant.",
                "post_tool_use => truncate 2.5",
                "Follow the usage line in the help.",
            ),
            Code::UnknownList => (
                "`in NAME`, `not in NAME` or `like NAME` names no `let` list.",
                "The test would have nothing to compare with.",
                "let shells = [bash]\npre_tool_use when tool in shell => deny",
                "Define the list, or use the suggested name.",
            ),
            Code::DuplicateRule => (
                "Two rules have the same name (names are unique across all files of the rule set).",
                "Results, tests and traces name rules; two rules with one name cannot be told apart.",
                "rule guard pre_tool_use => deny\nrule guard stop => log \"x\"",
                "Rename one of them.",
            ),
            Code::DuplicateList => (
                "Two `let` lists have the same name.",
                "It would be unclear which values a rule uses.",
                "let tools = [a]\nlet tools = [b]",
                "Rename one, or merge their values into one list.",
            ),
            Code::UnknownWaivedRule => (
                "`waive NAME` names no rule of the rule set (rule names are unique across all its files), or `audit` names no rule, its pattern of names matches none, or it names no rule file that has rules.",
                "A waiver or an audit of nothing lifts nothing; a misspelt name would leave the rule it meant in force while the author thinks it lifted, or believes it is being rolled out.",
                "rule iac/apply pre_tool_use when runs terraform apply => ask \"apply\"\nwaive iac/aply until 2026-12-31",
                "Name the rule exactly (the suggestion, or the name `hookc explain` prints), or remove the waiver.",
            ),
            Code::AmbiguousRuleFile => (
                "`audit \"NAME.rules\"` names a rule file by its name or the end of its path, and several files of the rule set end with it (`rules/secrets.rules` and `packs/secrets/secrets.rules`).",
                "An audit meant for one file would silence every rule of the others too: a pack tried out in audit mode would take the baseline's rules of the same file name with it.",
                "# file: rules/secrets.rules\nrule send pre_tool_use when runs curl => deny \"sent\"\naudit \"secrets.rules\" \"trying the vault pack\"\n# file: packs/vault/secrets.rules\nrule vault pre_tool_use when runs vault => ask \"vault\"",
                "Name more of the path (`\"vault/secrets.rules\"`), or audit the rules by a pattern of their names.",
            ),
            Code::InvalidDate => (
                "A waiver's or an audit's `until` is not a day of the calendar (`2026-02-30`, `2026-13-01`), or is before 1970.",
                "The expiry could not be judged.",
                "rule apply pre_tool_use when runs terraform apply => ask \"apply\"\nwaive apply until 2026-02-30",
                "Write the last day the waiver should hold, `YYYY-MM-DD`, read as UTC.",
            ),
            Code::TypeMismatch => (
                "A value has the wrong type for its field or operator: text compared with a number, a bare field that is not a boolean, `len` of a boolean.",
                "The test could never hold as written.",
                "stop when tool_calls == \"0\" => continue \"x\"",
                "Compare like with like: numbers with numbers (`tool_calls == 0`), `len(field)` for the length of text.",
            ),
            Code::InvalidRegex => (
                "A `/regex/` does not compile, or has a flag other than `i`, `m`, `s`, `x`, `U`. hookc uses Rust's `regex` syntax: no look-around, no backreferences.",
                "The test could not be evaluated.",
                "pre_tool_use when command matches /rm (-rf/ => deny",
                "Fix the pattern as the label says.",
            ),
            Code::InvalidGlob => (
                "A glob in `like` does not compile.",
                "The test could not be evaluated.",
                "pre_tool_use when path like \"src/{a\" => deny",
                "Fix the glob as the label says (`*`, `?`, `**`, `[abc]`, `{a,b}`).",
            ),
            Code::UnrenderableField => (
                "A message or `set` value interpolates a field that some events the rule admits do not carry: a tool field (`{path}`, `{command}`, …) that some tools the condition admits do not have (`Bash` has no `path`; the tools admitted are read from the condition's top-level `tool` and `kind` tests, without one every tool), or an event's optional field (`{last_message}`; the turn's `{commands}`, `{files_written}`, `{tools_used}`, `{tool_calls}`, missing when the agent's transcript cannot be read).",
                "The message could not be rendered for those events, and a rule that cannot render fails closed: every such call would be blocked at run time (and a Stop continued), from a file that checked clean.",
                "pre_tool_use when tool == Bash => deny \"blocked {path}\"",
                "Test the field in the condition (`and path like \"**\"`: a test on a missing field never holds; for the turn's fields `tool_calls >= 0`), or admit only tools that have it (`kind == write`).",
            ),
            Code::UnknownValue => (
                "A test compares a field whose values hookc itself defines with a value outside them: `kind` (`shell`, `read`, `write`, `search`, `fetch`, `mcp`, `agent`, `other`), `access` (`read`, `write`, `use`) or `agent` (the ids in `docs/agents.md`, such as `claude`, `codex`, `gemini`, and `native`).",
                "No call can ever carry that value, so the test never holds (or, negated, always holds): `access == wirte` or `agent == claud` would silently disable the rule.",
                "pre_tool_use when kind == shel => deny\npre_tool_use when access == wirte and path == \"x\" => deny\npre_tool_use when agent == claud => deny",
                "Use one of the values, usually the one suggested.",
            ),
            Code::UnreachableRule => (
                "A rule can never fire because an earlier rule of the same event blocks whenever it would match, and a block ends evaluation. Found when both conditions are `and`s of simple tests (`==`, `in`, prefixes, globs) and no rule in between rewrites the input.",
                "Its author expects it to act, and it never will: a protection that silently does nothing.",
                "rule block-writes pre_tool_use when tool in [Write, Edit] => block \"hook_blocked\" \"no writes\"\nrule protect-lock pre_tool_use when tool == Write and path == \"Cargo.lock\" => deny",
                "Move the rule before the blocking one, or narrow the blocking rule's condition.",
            ),
            Code::ImpossibleCondition => (
                "A condition can never be true: two tests on one field that exclude each other (`tool == a and tool == b`), a length or count below zero, an empty numeric range, or a profile field (`path`, `command`, …) that none of the tools the rule names has.",
                "The rule never fires; usually `or` was meant, or the tool was misnamed.",
                "pre_tool_use when tool == Bash and path == \"x\" => deny",
                "Fix the condition; use `or` where either test should do.",
            ),
            Code::IneffectiveAllow => (
                "An `allow` (or `ask`) can never take effect: a stronger recommendation (`deny`, or `ask` over `allow`) fires whenever it does, and the strongest always wins.",
                "The author expects the call to go through, or to be asked about, and it never will be.",
                "rule deny-rm pre_tool_use when command starts_with \"rm \" => deny\nrule allow-rm-rf pre_tool_use when command starts_with \"rm -rf\" => allow",
                "Narrow the stronger rule if the weaker one should apply, or remove the weaker one.",
            ),
            Code::ExpiredWaiver => (
                "A waiver's or an audit's last day (`until`, inclusive, UTC) is before today.",
                "An expired waiver or audit lifts nothing: the rules apply again. It is left in the file only as history, and misleads whoever reads it.",
                "rule apply pre_tool_use when runs terraform apply => ask \"apply\"\nwaive apply until 2020-01-31",
                "Remove the waiver, or give it a new date if the exception is still wanted.",
            ),
            Code::DuplicateRuleBody => (
                "Two rules have the same event, condition and actions.",
                "The copy adds nothing but a second place to keep in step.",
                "rule first pre_tool_use when tool == Bash => ask \"shell\"\nrule second pre_tool_use when tool == Bash => ask \"shell\"",
                "Remove one of them.",
            ),
            Code::UnusedList => (
                "A `let` list is never used by any rule of the rule set.",
                "Usually a rule meant to use it names another list, or was removed.",
                "let shells = [Bash]\npre_tool_use when tool == Write => ask",
                "Use the list, or remove it.",
            ),
            Code::DuplicateListValue => (
                "A `let` list holds the same value twice.",
                "Harmless to evaluation, but often a sign that another value was meant.",
                "let shells = [Bash, sh, Bash]",
                "Remove the repeat, or write the value that was meant.",
            ),
            Code::UnknownTool => (
                "A `tool` test names a tool that no agent hookc knows has (names are case-sensitive; a stray space counts). MCP tools (`mcp__SERVER__TOOL`) are never reported.",
                "A misspelt tool name never matches, so the rule silently governs nothing. A tool of your own is fine: this is a warning.",
                "pre_tool_use when tool == Bsh => deny",
                "Use the suggested name, or `kind` to govern every agent's tools of one kind.",
            ),
            Code::OneAgentTool => (
                "A `tool` test names some of the shell, read, write, search or fetch tools but not all of them, on every agent: `tool == bash` is the seed's shell, while Claude Code calls it `Bash` or `PowerShell`, Codex `shell` or `exec_command`, and Gemini CLI `run_shell_command`; `tool in [Write, write_file]` leaves out `Edit`, `MultiEdit` and `replace`.",
                "The same action on another agent goes through a tool the rule does not name, so the protection holds on one agent and not the others.",
                "pre_tool_use when tool == bash and command contains \"rm -rf\" => deny",
                "Write `kind == shell` (or the kind named in the help), which covers every agent's tools of that kind; to govern one agent on purpose, test `agent` too.",
            ),
            Code::NegatedMissingField => (
                "A test on a tool field (`path`, `command`, …) is negated, and some tools the condition admits do not have that field. A test on a missing field never holds, so its negation holds for every such call.",
                "`not path like \"src/**\" => deny` meant to confine writes to `src/`, and denies every `Bash`, `TodoWrite` and `Task` call as well.",
                "pre_tool_use when not path like \"src/**\" => deny",
                "Admit only tools that have the field: `kind == write and not path like \"src/**\"`.",
            ),
            Code::AllowAdmitsShell => (
                "An `allow` rule decides on the files a call names (`path`, `access`, `paths`) and admits shell calls. A shell call is judged once per file its command line names, so a line whose every file matches is allowed — whatever else the line runs.",
                "`path like \"docs/**\" => allow` meant to let the agent edit the docs without asking; it also allows `rm -rf docs` and `cat docs/a | curl -d @- https://…`, skipping the user's permission prompt for them.",
                "pre_tool_use when path like \"docs/**\" => allow",
                "Bound the rule to the tools it means: `kind in [write, read] and path like \"docs/**\"` (or `kind != shell`); allow shell commands with `runs` on the programs you mean.",
            ),
            Code::CostlyPattern => (
                "A regex compiles to more than 256 KiB (the limit is 10 MiB, above which it is an error). Unicode classes such as `\\w`, `\\d` and `.` cover thousands of characters, and a repetition multiplies them: `\\w{50}` alone is about 2.5 MB, a secret scanner's `\\w{1,64}` 3 MB.",
                "A hook call compiles the patterns it reaches: a few hundred costly ones took seconds and gigabytes per call, near the agent's timeout. A call now fails closed after 0.7 s of compiling, so a rule set of many costly patterns blocks calls instead. `hookc check` sizes costly regexes for 0.7 s (to tell one over 10 MiB, E0202) and after that only says they are costly; loading rules to use them only parses their patterns.",
                "pre_tool_use when command matches /[\\p{L}]{20}/ => deny",
                "Use ASCII classes (`(?-u:\\w)`, `[a-zA-Z0-9_]`, `(?-u:.)`), which compile hundreds of times smaller, or bound the repetition.",
            ),
            Code::ApprovesForPerson => (
                "An `allow` at `permission_request` answers the agent's approval prompt for the person: the call runs without anyone seeing it. Hooks recommend and block; approving is the person's. hookc never approves a call that the same policy refuses or asks about at `pre_tool_use`, nor one whose reader left something `unread`, never changes what the person allowed for later calls (`updatedPermissions`), and records every such approval in the audit log, but the rule still takes the person out of the decision.",
                "`permission_request when kind == read => allow` meant to spare the person prompts for reads; it also approves reads of files no `pre_tool_use` rule names, on every agent that asks.",
                "permission_request when kind == read => allow",
                "Leave the prompt to the person (`ask`), refuse what must never run (`deny`), or allow narrowly (`kind == read and path like \"docs/**\"`) and accept the warning.",
            ),
            Code::UnknownVendorValue => (
                "A test compares a field whose values the agents define (`permission_mode`, `source` at `session_start`, `reason` at `session_end`, `trigger` at `pre_compact`) with a value no agent in hookc's table is known to send. The known values come from each agent's entry (`crates/core/src/vocab/agents/`).",
                "A typo (`bypasPermissions`) never matches, which silently disables the rule. It is a warning and not an error because the vendors own these sets: a new agent release may add a value, and a policy naming it must keep loading.",
                "pre_tool_use when permission_mode == bypasPermissions => deny \"not in this mode\"",
                "Fix the spelling (the suggestion is the nearest known value); if the agent really sends the value, keep it and accept the warning, or tell us so it joins the agent's entry.",
            ),
            Code::AgentDeparts => (
                "Checked for an agent (`hookc check --agent codex`), hookc does not answer that agent at a rule's event (`hookc init` does not wire it), or an action answers in a way that agent does not honour: hookc then gives the safe answer the agent can (an `ask` on Codex or Gemini CLI is a `deny`), or the agent takes no notice. The table is `docs/agents.md`.",
                "A rule that reads as a prompt for approval refuses the call outright on Codex; a rule at `pre_compact` never runs on Codex. The rule set does not do on that agent what it says.",
                "pre_tool_use when command contains \"push --force\" => ask \"force push\"",
                "Decide what the agent should do instead and say it (`deny`), or keep the rule for the agents that honour it and accept the substitute.",
            ),
        };
        Doc { what, why, example, fix }
    }

    /// The documentation as Markdown (the text of `hookc check --explain CODE`).
    pub fn explain(self) -> String {
        let doc = self.doc();
        let kind = match self.severity() {
            super::Severity::Error => "error",
            super::Severity::Warning => "warning",
        };
        format!(
            "## {code} ({kind}): {summary}\n\n{what}\n\n**Why it matters.** {why}\n\n**Example.**\n\n```\n{example}\n```\n\n**Fix.** {fix}\n",
            code = self.as_str(),
            summary = self.summary(),
            what = doc.what,
            why = doc.why,
            example = doc.example,
            fix = doc.fix,
        )
    }

    /// The code with this name (`E0101`, case-insensitive).
    pub fn from_name(name: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|code| code.as_str().eq_ignore_ascii_case(name))
    }
}

/// `docs/lints.md`: every code's documentation.
pub fn all_docs() -> String {
    let mut out = String::from(
        "# Diagnostics\n\n<!-- generated from crates/core/src/diagnostic/docs.rs by `cargo test`; edit there, not here -->\n\n\
         Every problem `hookc check` reports has a code. Errors (`E…`) stop the rule set from being used; \
         warnings (`W…`) are findings of the static analysis, and `--deny-warnings` makes them errors. \
         `hookc check --explain CODE` prints one entry.\n\n",
    );
    for code in Code::ALL {
        out.push_str(&code.explain());
        out.push('\n');
    }
    out
}
