//! The `hookc` command: parse arguments, run the verb, exit with its code.

fn main() -> std::process::ExitCode {
    hookc::cli::run()
}
