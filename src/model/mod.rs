//! The data model every stage shares: the [`Event`] an agent hands hookc at a hook point and the
//! [`HookResult`] it gets back, with the seed's merge rules. It sits below every stage: syntax,
//! check, compile, eval and the adapters all read it, and it reads none of them.

pub mod event;
pub mod result;

pub use event::{Event, EventData};
pub use result::{BlockingError, HookResult, Permission, ToolOutput};
