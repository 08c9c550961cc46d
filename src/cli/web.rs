//! `orca web`: the command that serves the page (the server is the
//! library's `orca::web`).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use orca::eval::Evaluators;
use orca::web::{Web, WebConfig};

/// Arguments of `orca web`.
#[derive(Args, Debug)]
pub struct WebArgs {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. Anything but loopback lets other machines
    /// play on this one's engine.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Games open at once (each holds an engine and its 16 MB table).
    #[arg(long, value_name = "N", default_value_t = WebConfig::default().max_games,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    max_games: usize,
    /// Seconds after which a game nobody looks at is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    idle: u64,
    #[command(flatten)]
    pub(super) eval: super::EvalArgs,
}

/// Serves until the process is ended; returns the exit status (1 when the
/// address cannot be had).
pub fn run(args: &WebArgs, evaluators: Arc<Evaluators>) -> i32 {
    let server = match tiny_http::Server::http((args.host, args.port)) {
        Ok(server) => server,
        Err(e) => {
            eprintln!(
                "orca web: cannot listen on {}:{}: {e}",
                args.host, args.port
            );
            return 1;
        }
    };
    let address = match server.server_addr().to_ip() {
        Some(address) => address,
        None => {
            eprintln!("orca web: the server has no IP address");
            return 1;
        }
    };
    if !args.host.is_loopback() {
        eprintln!(
            "orca web: warning: listening on {}: other machines can reach this engine",
            args.host
        );
    }
    let url = format!("http://{address}/");
    println!("Orca web: {url}");
    if args.open {
        open_browser(&url);
    }
    let config = WebConfig {
        max_games: args.max_games,
        idle: Duration::from_secs(args.idle),
    };
    orca::web::serve(server, Arc::new(Web::new(config, evaluators)));
    0
}

/// Asks the system to open `url` in the default browser; a failure is said
/// on stderr and changes nothing else.
fn open_browser(url: &str) {
    let (program, args): (&str, &[&str]) = if cfg!(target_os = "macos") {
        ("open", &[])
    } else if cfg!(windows) {
        ("cmd", &["/C", "start", ""])
    } else {
        ("xdg-open", &[])
    };
    let spawned = std::process::Command::new(program)
        .args(args)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        eprintln!("orca web: cannot open a browser ({program}: {e}); open {url}");
    }
}
