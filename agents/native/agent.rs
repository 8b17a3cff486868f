//! The seed's reference loop (native events, `hookc eval`, the embedded runtime): its tools are
//! what a native event without `agent` calls. It is not reached over a hook protocol.

use crate::vocab::agents::schema::{Agent, Settings};
use crate::vocab::tools::{tool, Kind, Source, SHELL};
use crate::vocab::Semantic::{Content, Path};

/// The seed's tools (`read_file`, `write_file`, `edit_file`, `bash`).
pub(in crate::vocab::agents) static AGENT: Agent = Agent {
    id: "native",
    name: "the seed",
    tools: &[
        tool("read_file", Kind::Read, &[(Path, Source::Args(&["path", "file_path", "absolute_path"]))]),
        tool(
            "write_file",
            Kind::Write,
            &[(Path, Source::Args(&["path", "file_path"])), (Content, Source::Args(&["content"]))],
        ),
        tool(
            "edit_file",
            Kind::Write,
            &[(Path, Source::Args(&["path", "file_path"])), (Content, Source::Args(&["new_string", "content"]))],
        ),
        tool("bash", Kind::Shell, SHELL),
    ],
    settings: Settings { ..Settings::BASE },
    sources: &["the seed's contract (`shared/seeds/000_*`)"],
    ..Agent::BASE
};
