//! The `orca` command: the engine itself (no arguments) and the tools around it.

mod cli;

use clap::Parser;

fn main() {
    let missing = orca::cpu::missing_build_features();
    if !missing.is_empty() {
        eprintln!(
            "orca: this build needs CPU features this CPU lacks ({}); see README.md",
            missing.join(", ")
        );
        std::process::exit(1);
    }
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    log::info!("CPU kernels: {}", orca::cpu::kernels());
    let args = cli::Cli::parse();
    let code = cli::run(args);
    std::process::exit(code);
}
