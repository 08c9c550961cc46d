//! `orca match`: the command-line side of the referee in [`orca::referee`] —
//! the arguments, Ctrl-C, the progress lines on stderr, the GGF file written
//! game by game, and the closing summary on stdout.

use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use clap::Args;
use orca::duration::parse_movetime;
use orca::game::{Color, Variant};
use orca::ggf::date as ggf_date;
use orca::referee::game::{Forfeit, Termination};
use orca::referee::openings;
use orca::referee::stats::Sprt;
use orca::referee::{
    Ending, EngineSpec, GameResult, MatchConfig, Tally, TimeControl, check_variant,
    run as run_match,
};

/// Exit status of a match stopped by Ctrl-C (128 + SIGINT, as shells report it).
const INTERRUPTED_STATUS: i32 = 130;

/// Arguments of `orca match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine, twice: "name=A cmd=./engine arg... proto=ugi|gtp|nboard",
    /// UGI engines also "option.NAME=VALUE". Results are from the first one's side.
    #[arg(long = "engine", value_name = "SPEC", required = true, num_args = 1)]
    engines: Vec<EngineSpec>,
    /// Which game: othello or reversed (fewest discs wins).
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Openings file: move lists (f5d6c3...) or OBF positions, one a line,
    /// each played twice with colours swapped [default: the built-in
    /// data/openings/balanced-8.txt, for reversed data/openings/reversed-6.txt].
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Games to play (pairs of games share an opening).
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Time control: movetime=TIME for a fixed time a move (movetime=100 is
    /// 100 ms), or MAIN+INC for a clock, bare numbers in seconds (60+0.5).
    #[arg(long, default_value = "movetime=100", allow_hyphen_values = true)]
    tc: TimeControl,
    /// How far past its time a move may come before it loses on time.
    #[arg(long, value_name = "TIME", default_value = "50ms", value_parser = parse_movetime)]
    margin: Duration,
    /// How long an engine may take to answer anything but a move (start-up,
    /// isready, ping, GTP commands) before it is declared silent.
    #[arg(long, value_name = "TIME", default_value = "10s", value_parser = parse_movetime)]
    timeout: Duration,
    /// Games played at once, each with its own pair of engine processes.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write every game here as GGF, one record a line [default:
    /// match-<UTC date and time>.ggf].
    #[arg(long, value_name = "FILE")]
    ggf: Option<PathBuf>,
    /// Stop once the sequential probability ratio test decides:
    /// elo0=0,elo1=10,alpha=0.05,beta=0.05.
    #[arg(long, value_name = "SPEC")]
    sprt: Option<Sprt>,
}

/// Runs the match; returns the exit status.
pub fn run(args: &MatchArgs) -> i32 {
    let Ok(engines) = <[EngineSpec; 2]>::try_from(args.engines.clone()) else {
        eprintln!(
            "orca match: give exactly two --engine options ({} given)",
            args.engines.len()
        );
        return 2;
    };
    if let Err(e) = check_variant(args.variant) {
        eprintln!("orca match: {e}");
        return 2;
    }
    let (openings_text, openings_name) = match &args.openings {
        None => {
            let (text, name) = openings::builtin(args.variant);
            (text.to_string(), name.to_string())
        }
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => (text, path.display().to_string()),
            Err(e) => {
                eprintln!("orca match: {}: {e}", path.display());
                return 2;
            }
        },
    };
    let openings = match openings::parse(&openings_text, args.variant) {
        Ok(o) => o,
        // Line 0: the file as a whole (it holds no opening).
        Err(e) if e.line == 0 => {
            eprintln!("orca match: {openings_name}: {}", e.problem);
            return 2;
        }
        Err(e) => {
            eprintln!("orca match: {openings_name}: {e}");
            return 2;
        }
    };
    let config = MatchConfig {
        engines,
        variant: args.variant,
        openings,
        games: args.games,
        time: args.tc,
        margin: args.margin,
        silence: args.timeout,
        concurrency: args.concurrency,
        sprt: args.sprt,
    };
    if let Err(e) = config.validate() {
        eprintln!("orca match: {e}");
        return 2;
    }
    let now = SystemTime::now();
    let date = ggf_date(now);
    let ggf_path = args.ggf.clone().unwrap_or_else(|| default_ggf_name(&date));
    let mut ggf = match File::create(&ggf_path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("orca match: {}: {e}", ggf_path.display());
            return 2;
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed)) {
        log::warn!("Ctrl-C will not stop the match cleanly: {e}");
    }
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    eprintln!(
        "Match {} vs {}: {} games of {}, {}, openings {} ({}), games to {}",
        names[0],
        names[1],
        config.games,
        config.variant,
        config.time,
        openings_name,
        config.openings.len(),
        ggf_path.display()
    );
    let mut write_failed = false;
    let outcome = run_match(&config, stop, |result, tally| {
        eprintln!("{}", progress_line(&config, &names, result, tally));
        let (black, white) = (&names[result.by_colour[0]], &names[result.by_colour[1]]);
        let record = result.played.ggf(black, white, &config.time, &date);
        if let Err(e) = writeln!(ggf, "{record}").and_then(|()| ggf.flush())
            && !write_failed
        {
            write_failed = true;
            eprintln!("orca match: {}: {e}", ggf_path.display());
        }
    });
    let (tally, ending) = match outcome {
        Ok(outcome) => outcome,
        Err(e) => {
            eprintln!("orca match: {e}");
            return 1;
        }
    };
    let summary = summary(&config, &names, &tally, ending, &ggf_path);
    let mut out = io::stdout().lock();
    if writeln!(out, "{summary}").is_err() {
        log::debug!("stdout closed before the summary");
    }
    match ending {
        Ending::Interrupted => INTERRUPTED_STATUS,
        _ if write_failed => 1,
        _ => 0,
    }
}

/// `match-20260102-030405.ggf` from a GGF date `2026.01.02_03:04:05.UTC`.
fn default_ggf_name(date: &str) -> PathBuf {
    let digits: String = date.chars().filter(char::is_ascii_digit).collect();
    PathBuf::from(format!(
        "match-{}-{}.ggf",
        &digits[..8.min(digits.len())],
        &digits[8.min(digits.len())..]
    ))
}

/// One line per finished game: who had which colour, how it ended, and the
/// first engine's running score and Elo.
fn progress_line(
    config: &MatchConfig,
    names: &[String; 2],
    result: &GameResult,
    tally: &Tally,
) -> String {
    let black = &names[result.by_colour[0]];
    let white = &names[result.by_colour[1]];
    let played = &result.played;
    let outcome = match &played.termination {
        Termination::Finished => {
            let (b, w) = played.end.counts();
            let verdict = match played.winner() {
                None => "draw".to_string(),
                Some(c) => format!("{} wins", if c == Color::Black { black } else { white }),
            };
            format!("{b}-{w}, {verdict}")
        }
        Termination::Forfeit { loser, reason } => {
            let name = if *loser == Color::Black { black } else { white };
            format!("{name} {reason}")
        }
    };
    let elo = tally.games.elo().map_or_else(String::new, |e| {
        format!(", Elo {:+.0} ± {:.0}", e.elo, e.margin())
    });
    format!(
        "Game {}/{} (opening {}: {}): {black} (black) vs {white} (white): {outcome}. {} {}/{} (+{} ={} -{}){elo}",
        result.index + 1,
        config.games,
        result.opening + 1,
        config.openings[result.opening],
        names[0],
        tally.games.points(),
        tally.games.games(),
        tally.games.wins,
        tally.games.draws,
        tally.games.losses,
    )
}

/// The closing report.
fn summary(
    config: &MatchConfig,
    names: &[String; 2],
    tally: &Tally,
    ending: Ending,
    ggf_path: &std::path::Path,
) -> String {
    let games = &tally.games;
    let mut lines = vec![format!(
        "Match {} vs {}: {}, {}, {} of {} games played{}",
        names[0],
        names[1],
        config.variant,
        config.time,
        games.games(),
        config.games,
        match ending {
            Ending::Completed => String::new(),
            Ending::Sprt(state, n) => format!(", stopped by the SPRT after {n} ({state})"),
            Ending::Interrupted => ", interrupted".to_string(),
        }
    )];
    lines.push(format!(
        "{}: {} wins, {} draws, {} losses (W/D/L), score {}/{}{}",
        names[0],
        games.wins,
        games.draws,
        games.losses,
        games.points(),
        games.games(),
        games
            .score()
            .map_or_else(String::new, |s| format!(" ({:.1}%)", 100.0 * s))
    ));
    for (i, colour) in ["black", "white"].iter().enumerate() {
        let w = &tally.by_colour[i];
        lines.push(format!(
            "  as {colour}: +{} ={} -{}",
            w.wins, w.draws, w.losses
        ));
    }
    lines.push(match games.elo() {
        Some(e) => format!("Elo difference (games): {e} (95%)"),
        None => "Elo difference: no game played".to_string(),
    });
    let p = tally.pairs;
    lines.push(format!(
        "Pentanomial (pairs where {} scored 0, 0.5, 1, 1.5, 2): [{}] in {} pairs",
        names[0],
        p.0.map(|c| c.to_string()).join(", "),
        p.pairs()
    ));
    if let Some(e) = p.elo() {
        lines.push(format!("Elo difference (pairs): {e} (95%)"));
    }
    lines.push(match tally.mean_disc_difference() {
        Some(d) => format!(
            "Mean disc difference for {}: {d:+.2} over {} games played to the end",
            names[0], tally.disc_games
        ),
        None => "Mean disc difference: no game was played to the end".to_string(),
    });
    let time = Forfeit::TIME;
    lines.push(format!(
        "Losses on time: {} {}, {} {}",
        names[0], tally.forfeits[0][time], names[1], tally.forfeits[1][time]
    ));
    for (engine, name) in names.iter().enumerate() {
        let others: Vec<String> = Forfeit::KINDS
            .iter()
            .zip(tally.forfeits[engine])
            .enumerate()
            .filter(|(kind, (_, n))| *kind != Forfeit::TIME && *n > 0)
            .map(|(_, pair)| pair)
            .map(|(kind, n)| format!("{n} {kind}"))
            .collect();
        if !others.is_empty() {
            lines.push(format!(
                "Other losses by adjudication, {name}: {}",
                others.join(", ")
            ));
        }
    }
    if let Some(sprt) = &config.sprt {
        let llr = tally.llr(sprt);
        let (lower, upper) = sprt.bounds();
        lines.push(format!(
            "SPRT ({sprt}): LLR {llr:.3} [{lower:.3}, {upper:.3}], {}",
            sprt.state(llr)
        ));
    }
    lines.push(format!("Games: {}", ggf_path.display()));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_file_name_from_the_date() {
        assert_eq!(
            default_ggf_name("2026.01.02_03:04:05.UTC"),
            PathBuf::from("match-20260102-030405.ggf")
        );
    }
}
