//! `orca web`: the command that serves the page (the server is the
//! library's `orca::web`).

use std::net::{IpAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use orca::duration::parse_duration;
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
    /// How long a game nobody looks at (no page open, no request) stays
    /// open: 20s, 2m, 500ms (a bare number is milliseconds). A page that is
    /// reloaded within it keeps its game.
    #[arg(long, value_name = "TIME", default_value = "20s", value_parser = parse_idle)]
    idle: Duration,
    #[command(flatten)]
    pub(super) eval: super::EvalArgs,
}

/// Serves until the process is ended; returns the exit status (1 when the
/// address cannot be had).
pub fn run(args: &WebArgs, evaluators: Arc<Evaluators>) -> i32 {
    let listener = match TcpListener::bind((args.host, args.port)) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!(
                "orca web: cannot listen on {}:{}: {e}",
                args.host, args.port
            );
            return 1;
        }
    };
    let address = match listener.local_addr() {
        Ok(address) => address,
        Err(e) => {
            eprintln!("orca web: the server has no address: {e}");
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
        idle: args.idle,
    };
    match orca::web::serve(listener, Arc::new(Web::new(config, evaluators))) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("orca web: {e}");
            1
        }
    }
}

/// `--idle`: 100 ms to a day.
fn parse_idle(text: &str) -> Result<Duration, String> {
    parse_duration(
        text,
        Duration::from_millis(100),
        Duration::from_secs(86_400),
    )
    .map_err(|e| e.to_string())
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
