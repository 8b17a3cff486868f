//! The example agent: a made-up agent, compiled only with the `example-agent` feature, that
//! shows what adding an agent takes — this folder and one line in the list
//! (`crates/core/src/vocab/agents/mod.rs`). `tests/example-agent.sh` builds hookc with it and
//! runs every test that reads every agent; copy this folder to start a real one
//! (agents/README.md).
//!
//! It speaks Claude Code's protocol from its own settings file, with tools of its own names, so
//! everything below is data the layers already read: nothing else in hookc names it.

use crate::vocab::agents::schema::{event, Agent, Home, RootFrom, Settings};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::EventKind::*;
use crate::vocab::Semantic::{Content, Path};

/// The example agent.
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "example",
    name: "Example Agent",
    aliases: &["example-agent"],
    events: &[event("BeforeTool", PreToolUse), event("AfterTool", PostToolUse), event("Stop", Stop)],
    tools: &[
        tool("run", Kind::Shell, SHELL),
        tool("put", Kind::Write, &[(Path, Source::Args(&["file"])), (Content, Source::Args(&["text"]))]),
        tool("get", Kind::Read, &[(Path, Source::Args(&["file"]))]),
    ],
    settings: Settings {
        project: &[(".example/settings.json", "project settings")],
        user: &[(Home::User, ".example/settings.json", "user settings")],
        ..Settings::BASE
    },
    project_root: &[RootFrom::Env("EXAMPLE_PROJECT_DIR")],
    sources: &["none: a made-up agent that shows what adding one takes (agents/example)"],
    ..Agent::BASE
};
