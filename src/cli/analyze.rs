//! `orca analyze GAME`: every move of a game valued by the engine — the best
//! move's value and the played move's, the loss in discs, mistakes marked —
//! with a summary per player and, with `--svg`, a plot of the value through
//! the game.
//!
//! Each position before a move is searched (to `--depth`, or exactly from
//! `--exact` empties): that is the best move's value. When the played move is
//! another, the position after it is searched one ply shallower (exact on the
//! same terms), which values the played move on the same horizon. A played
//! move found better than the search's choice counts as the best.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use orca::engine::{BestMove, Engine, GoLimits, GoRequest};
use orca::eval::{DISC, Evaluators};
use orca::game::{AnyMove, AnyPosition, Color, Variant};
use orca::ggf::GgfGame;
use orca::protocol::search_blocking;
use orca::score::Score;
use orca::search::Selectivity;

/// Arguments of `orca analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The game: a GGF file, a WTHOR file (with --game), or a move list such
    /// as f5d6c3d3c4f4 (after `startpos` or a position string, or alone).
    #[arg(allow_hyphen_values = true)]
    game: String,
    /// Which game of a WTHOR or multi-game GGF file (1 = the first).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    number: u32,
    /// Depth of the midgame searches.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Solve exactly from this many empty squares (or sooner, where the
    /// depth comes within 7 plies of the end).
    #[arg(long, value_name = "EMPTIES", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(0..=60))]
    exact: u32,
    /// The rules of a move list: othello or reversed (GGF files say theirs).
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Write a plot of the value (black's view) after each move to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Transposition table size in megabytes.
    #[arg(long, value_name = "MB", default_value_t = orca::engine::DEFAULT_HASH_MB,
          value_parser = super::hash_mb())]
    hash: usize,
    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::threads())]
    threads: usize,
    /// Selectivity of the midgame searches (100: full width).
    #[arg(long, value_name = "PERCENT", default_value = "73", value_parser = super::parse_selectivity)]
    selectivity: Selectivity,
    #[command(flatten)]
    pub(super) eval: super::EvalArgs,
}

/// A game to analyse: where it starts, its moves, who played.
#[derive(Clone, Debug)]
pub struct AnalyzedGame {
    start: AnyPosition,
    moves: Vec<AnyMove>,
    black: String,
    white: String,
}

/// One analysed move (passes are not choices and get no row).
#[derive(Clone, Debug)]
struct Row {
    /// 1-based number of the move in the game, passes counted.
    number: usize,
    color: Color,
    played: AnyMove,
    best: AnyMove,
    /// Values for the side that moved.
    played_value: Score,
    best_value: Score,
    exact: bool,
}

impl Row {
    fn loss(&self) -> Score {
        (self.best_value - self.played_value).max(Score::ZERO)
    }

    fn mark(&self) -> &'static str {
        orca::score::loss_mark(self.loss())
    }

    /// The value after the move from black's view.
    fn black_value(&self) -> Score {
        match self.color {
            Color::Black => self.played_value,
            Color::White => -self.played_value,
        }
    }
}

/// Reads a game written out: a position string or `startpos`, then the
/// moves (`moves` before them is optional), or the moves alone from the
/// start; moves with or without separators (`f5d6`, `f5 d6`, `f5,d6`),
/// `pa`, `ps` or `--` for a pass.
fn parse_move_list(text: &str, variant: Variant) -> Result<(AnyPosition, Vec<AnyMove>), String> {
    let arg = orca::game::GameLine::parse(variant, text)?;
    if arg.moves.is_empty() {
        return Err("the move list is empty".into());
    }
    Ok((arg.start, arg.parsed_moves()?))
}

/// The game an argument names.
fn load(args: &AnalyzeArgs) -> Result<AnalyzedGame, String> {
    if args.variant == Variant::TicTacToe {
        return Err("analyze plays othello or reversed".into());
    }
    let path = Path::new(&args.game);
    if !path.is_file() {
        let (start, moves) = parse_move_list(&args.game, args.variant)
            .map_err(|e| format!("'{}' is no file, and as a move list: {e}", args.game))?;
        return Ok(AnalyzedGame {
            start,
            moves,
            black: "black".into(),
            white: "white".into(),
        });
    }
    let index = args.number as usize - 1;
    let is_wthor = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
    if is_wthor {
        let file = orca::wthor::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let count = file.games.len();
        let game = file
            .games
            .get(index)
            .ok_or_else(|| format!("{}: no game {} ({count} games)", path.display(), index + 1))?;
        let replay = game
            .replay()
            .map_err(|e| format!("{} game {}: {e}", path.display(), index + 1))?;
        return Ok(AnalyzedGame {
            start: AnyPosition::start(Variant::Othello),
            moves: replay.moves.into_iter().map(AnyMove::Othello).collect(),
            black: format!("player #{}", game.black_player),
            white: format!("player #{}", game.white_player),
        });
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !text.contains("(;") {
        let (start, moves) = parse_move_list(&text, args.variant)
            .map_err(|e| format!("{}: neither GGF nor a move list: {e}", path.display()))?;
        return Ok(AnalyzedGame {
            start,
            moves,
            black: "black".into(),
            white: "white".into(),
        });
    }
    let records: Vec<&str> = text
        .split("(;")
        .skip(1)
        .filter_map(|r| r.find(";)").map(|end| &r[..end]))
        .collect();
    let record = records.get(index).ok_or_else(|| {
        format!(
            "{}: no game {} ({} games)",
            path.display(),
            index + 1,
            records.len()
        )
    })?;
    let ggf: GgfGame = format!("(;{record};)")
        .parse()
        .map_err(|e| format!("{} game {}: {e}", path.display(), index + 1))?;
    ggf.position()
        .map_err(|e| format!("{} game {}: {e}", path.display(), index + 1))?;
    Ok(AnalyzedGame {
        start: ggf.start,
        moves: ggf.moves.iter().map(|m| AnyMove::Othello(m.mv)).collect(),
        black: ggf.property("PB").unwrap_or("black").to_string(),
        white: ggf.property("PW").unwrap_or("white").to_string(),
    })
}

/// Runs `orca analyze`.
pub fn run(args: &AnalyzeArgs, evaluators: Arc<Evaluators>) -> i32 {
    let started = Instant::now();
    let game = match load(args) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("orca analyze: {e}");
            return 1;
        }
    };
    let rows = match analyze(&game, args, evaluators) {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("orca analyze: {e}");
            return 1;
        }
    };
    print!("{}", report(&game, &rows, args, started.elapsed()));
    if let Some(path) = &args.svg {
        let title = format!("{} (black) vs {} (white)", game.black, game.white);
        if let Err(e) = std::fs::write(path, svg(&rows, &title)) {
            eprintln!("orca analyze: {}: {e}", path.display());
            return 1;
        }
    }
    0
}

/// The value of `position` for its side to move, searched as `args` say:
/// (value, best move, exact). The game must not be over.
struct Searcher {
    engine: orca::engine::Engine,
    reports: crossbeam_channel::Receiver<orca::engine::Report>,
    exact: u32,
    selectivity: Selectivity,
    threads: usize,
}

impl Searcher {
    fn value(&self, position: AnyPosition, depth: u32) -> Result<(Score, BestMove, bool), String> {
        if let Some(black) = position.black_score() {
            let score = Score::from_discs(if position.to_move() == Color::Black {
                black
            } else {
                -black
            });
            return Ok((score, BestMove::None, true));
        }
        // No choice to make: value the position after the pass.
        if position.must_pass() {
            let after = position.play(AnyMove::PASS).ok_or("a pass does not play")?;
            let (value, _, exact) = self.value(after, depth)?;
            return Ok((-value, BestMove::Pass, exact));
        }
        let depth = if position.empties() <= self.exact {
            60
        } else {
            depth.max(1)
        };
        let request = GoRequest {
            position,
            limits: GoLimits {
                depth: Some(depth),
                selectivity: self.selectivity,
                threads: self.threads,
                ..GoLimits::default()
            },
            received: Instant::now(),
            overhead: Duration::ZERO,
        };
        let done =
            search_blocking(&self.engine, &self.reports, request).ok_or("the engine stopped")?;
        let info = done.info.ok_or("the search found no value")?;
        Ok((info.score, done.best, info.exact))
    }
}

fn analyze(
    game: &AnalyzedGame,
    args: &AnalyzeArgs,
    evaluators: Arc<Evaluators>,
) -> Result<Vec<Row>, String> {
    let (engine, reports) =
        Engine::with_channel(args.hash, evaluators).map_err(|e| e.to_string())?;
    let searcher = Searcher {
        engine,
        reports,
        exact: args.exact,
        selectivity: args.selectivity,
        threads: args.threads,
    };
    let mut rows = Vec::new();
    let mut position = game.start;
    let mut number = 0;
    for (i, &mv) in game.moves.iter().enumerate() {
        if !mv.is_pass() && position.must_pass() {
            // A pass the record left out.
            position = position.play(AnyMove::PASS).ok_or("a pass does not play")?;
            number += 1;
        }
        number += 1;
        let after = position
            .play(mv)
            .ok_or_else(|| format!("move {} ({mv}) is illegal", i + 1))?;
        if mv.is_pass() {
            position = after;
            continue;
        }
        let (mut best_value, best, exact) = searcher.value(position, args.depth)?;
        let mut best = match best {
            BestMove::Move(m) => m,
            _ => mv,
        };
        let played_value = if best == mv {
            best_value
        } else {
            let (value, _, _) = searcher.value(after, args.depth.saturating_sub(1))?;
            -value
        };
        if played_value > best_value {
            best_value = played_value;
            best = mv;
        }
        rows.push(Row {
            number,
            color: position.to_move(),
            played: mv,
            best,
            played_value,
            best_value,
            exact,
        });
        position = after;
    }
    Ok(rows)
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The table of moves and the summary per player.
fn report(game: &AnalyzedGame, rows: &[Row], args: &AnalyzeArgs, elapsed: Duration) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "black: {}   white: {}", game.black, game.white);
    let _ = writeln!(
        out,
        "values in discs for the side that moves: depth {}, exact from {} empties",
        args.depth, args.exact
    );
    let _ = writeln!(
        out,
        "{:>3}  {:<5}  {:<4}  {:>6}  {:<4}  {:>6}  {:>5}  {:<5}",
        "#", "side", "move", "value", "best", "value", "loss", ""
    );
    for row in rows {
        // Losses that round to 0.0 are left blank.
        let loss = if row.loss() >= Score::from_centi(5) {
            format!("{:.1}", row.loss())
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{:>3}  {:<5}  {:<4}  {:>6}  {:<4}  {:>6}  {:>5}  {:<2}{}",
            row.number,
            color_name(row.color),
            row.played.to_string(),
            format!("{:+.1}", row.played_value),
            row.best.to_string(),
            format!("{:+.1}", row.best_value),
            loss,
            row.mark(),
            if row.exact { " exact" } else { "" }
        );
    }
    let _ = writeln!(out);
    for color in [Color::Black, Color::White] {
        let own: Vec<&Row> = rows.iter().filter(|r| r.color == color).collect();
        let total = own.iter().fold(Score::ZERO, |sum, r| sum + r.loss());
        let mistakes = own.iter().filter(|r| r.mark() == "?").count();
        let blunders = own.iter().filter(|r| r.mark() == "??").count();
        let name = match color {
            Color::Black => &game.black,
            Color::White => &game.white,
        };
        let largest = own
            .iter()
            .max_by_key(|r| (r.loss(), std::cmp::Reverse(r.number)))
            .filter(|r| r.loss() > Score::ZERO)
            .map_or("none".to_string(), |r| {
                format!("{:.1} at move {} ({})", r.loss(), r.number, r.played)
            });
        let _ = writeln!(
            out,
            "{} ({name}): {} moves, total loss {:.1} discs, {mistakes} ? and {blunders} ??, largest loss {largest}",
            color_name(color),
            own.len(),
            total,
        );
    }
    let _ = writeln!(out, "analysed in {:.1} s", elapsed.as_secs_f64());
    out
}

/// Escapes text for XML.
fn xml(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '&' => "&amp;".to_string(),
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '"' => "&quot;".to_string(),
            '\'' => "&apos;".to_string(),
            c if c.is_control() => " ".to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// A plot of the value after each move, black's view: move numbers across,
/// discs up, the zero line, black's and white's mistakes marked.
fn svg(rows: &[Row], title: &str) -> String {
    const WIDTH: f64 = 800.0;
    const HEIGHT: f64 = 400.0;
    const LEFT: f64 = 60.0;
    const RIGHT: f64 = 20.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 50.0;
    let last = rows.last().map_or(1, |r| r.number).max(1) as f64;
    let peak = rows
        .iter()
        .map(|r| r.black_value().centi().unsigned_abs())
        .max()
        .unwrap_or(0);
    // The value range: the peak rounded up to a multiple of 10 discs, at
    // least 10 (values never pass 64).
    let tens = peak.div_ceil(10 * DISC.unsigned_abs()).clamp(1, 7);
    let range = f64::from(tens * 10);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |n: f64| LEFT + n / last * plot_w;
    let y = |v: f64| TOP + (range - v.clamp(-range, range)) / (2.0 * range) * plot_h;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"##
    );
    let _ = writeln!(s, r##"<title>{}</title>"##, xml(title));
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>"##,
        WIDTH / 2.0,
        xml(title)
    );
    // Horizontal grid with labels every 10 discs (or 5 when the range is 10).
    let step = if range <= 10.0 { 5.0 } else { 10.0 };
    let mut v = -range;
    while v <= range + 0.01 {
        let color = if v == 0.0 { "#000" } else { "#ddd" };
        let width = if v == 0.0 { 1.5 } else { 1.0 };
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{y0:.1}" x2="{x1:.1}" y2="{y0:.1}" stroke="{color}" stroke-width="{width}"/>"##,
            y0 = y(v),
            x1 = WIDTH - RIGHT
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT - 6.0,
            y(v) + 4.0,
            match v as i32 {
                0 => "0".to_string(),
                n => format!("{n:+}"),
            }
        );
        v += step;
    }
    // Move numbers every 10 moves.
    let mut n = 0.0;
    while n <= last {
        let _ = writeln!(
            s,
            r##"<line x1="{x0:.1}" y1="{TOP}" x2="{x0:.1}" y2="{y1:.1}" stroke="#eee"/><text x="{x0:.1}" y="{ty:.1}" text-anchor="middle">{}</text>"##,
            n as u32,
            x0 = x(n),
            y1 = HEIGHT - BOTTOM,
            ty = HEIGHT - BOTTOM + 16.0
        );
        n += 10.0;
    }
    let _ = writeln!(
        s,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#000"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">move</text>"##,
        LEFT + plot_w / 2.0,
        HEIGHT - 12.0
    );
    let _ = writeln!(
        s,
        r##"<text x="16" y="{:.1}" text-anchor="middle" transform="rotate(-90 16 {:.1})">discs for black</text>"##,
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0
    );
    // The value line, from 0 before the first move.
    let mut points = vec![format!("{:.1},{:.1}", x(0.0), y(0.0))];
    for row in rows {
        points.push(format!(
            "{:.1},{:.1}",
            x(row.number as f64),
            y(row.black_value().discs())
        ));
    }
    let _ = writeln!(
        s,
        r##"<polyline points="{}" fill="none" stroke="#1f5fbf" stroke-width="2"/>"##,
        points.join(" ")
    );
    // Mistakes: a circle at the move, filled with the colour of the mover.
    for row in rows.iter().filter(|r| !r.mark().is_empty()) {
        let (fill, r) = match row.color {
            Color::Black => ("#000", 0.0),
            Color::White => ("#fff", 0.0),
        };
        let radius = if row.mark() == "??" { 6.0 } else { 4.0 } + r;
        let stroke = if row.mark() == "??" { "#d00" } else { "#e80" };
        let _ = writeln!(
            s,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{radius}" fill="{fill}" stroke="{stroke}" stroke-width="2"><title>{} {} {}{} (loss {:.1})</title></circle>"##,
            x(row.number as f64),
            y(row.black_value().discs()),
            row.number,
            color_name(row.color),
            row.played,
            row.mark(),
            row.loss()
        );
    }
    // Legend.
    let _ = writeln!(
        s,
        r##"<g transform="translate({:.1},{:.1})"><circle cx="0" cy="0" r="4" fill="#fff" stroke="#e80" stroke-width="2"/><text x="8" y="4">? loss of 2 or more</text><circle cx="140" cy="0" r="6" fill="#fff" stroke="#d00" stroke-width="2"/><text x="150" y="4">?? loss of 6 or more (filled: black's move)</text></g>"##,
        LEFT + 10.0,
        TOP + 14.0
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lists_with_or_without_separators() {
        let (start, moves) = parse_move_list("f5d6C3 d3,c4 pa", Variant::Othello).unwrap();
        assert_eq!(start, AnyPosition::start(Variant::Othello));
        assert_eq!(moves.len(), 6);
        assert!(moves[5].is_pass());
        assert!(parse_move_list("f5d", Variant::Othello).is_err());
        assert!(parse_move_list("z9", Variant::Othello).is_err());
        assert!(parse_move_list("  ", Variant::Othello).is_err());
    }
}
