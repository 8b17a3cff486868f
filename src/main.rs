//! The `hookc` command: parse arguments, run the verb (`hookc-cli`), exit with its code.
//!
//! The verb runs on a thread with a large stack, and a panic there exits 2: for an agent's
//! hook, any exit but 0 or 2 lets the action run, so nothing may end the process otherwise.

// The binary keeps the system's allocator. With mimalloc (as Ruff's binary has), reading a 1 KB
// Python one-liner took a fifth less in process, but a whole hook call, which is mostly the
// process's start, took longer: 8% on a 1,000-rule bundle, 3% on that very one-liner through
// the shipped rules (farm-bench, 80 pairs), and its arenas added to the resident size.

/// Deeply nested input (a shell line, a rule) must exhaust neither the default 8 MiB stack nor
/// the agent's patience; hookc bounds nesting itself, and this is the margin behind it.
const STACK: usize = 256 * 1024 * 1024;

fn main() -> std::process::ExitCode {
    let verb = std::thread::Builder::new().stack_size(STACK).spawn(hookc_cli::run);
    match verb.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        _ => {
            // Not `eprintln!`: with stderr closed it would panic here, and exit 101 lets the
            // agent's action run.
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "hookc: internal error (see above); the action is blocked");
            std::process::ExitCode::from(2)
        }
    }
}
