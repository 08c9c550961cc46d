//! The `orca` command: the engine itself (no arguments) and the tools around it.

mod cli;

use clap::Parser;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args = cli::Cli::parse();
    let code = cli::run(args);
    std::process::exit(code);
}
