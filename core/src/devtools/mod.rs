//! Tools for module designers, above the engine: the module tests that `chancery test`
//! runs (Lua test files and recorded games) and the generated Lua API reference.

mod docs;
pub mod impact;
mod outline;
pub mod recording;
pub mod testing;

pub use docs::{api_reference_markdown, luals_stubs};
pub use outline::outline_text;
