//! `orca book`: builds, shows, measures and widens opening books
//! ([`orca::book`]).

use std::collections::BTreeMap;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use orca::book::build::{
    BuildConfig, BuildLog, Lines, Progress, add_lines, build, progress_line, wthor_lines,
};
use orca::book::{Book, edax, format};
use orca::eval::Evaluators;
use orca::game::{AnyPosition, Board, Move, Variant};
use orca::ggf::GgfGame;

use super::EvalArgs;

/// Arguments of `orca book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
    #[command(flatten)]
    eval: EvalArgs,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    /// Build a book from the opening lines of games, valued by deep searches.
    Build(BuildArgs),
    /// Every book move of a position (a position string or moves from the start).
    Show(ShowArgs),
    /// Positions of a book by ply and by depth; with --games, when games
    /// leave it.
    Stats(StatsArgs),
    /// Add games (GGF or WTHOR files, or move lists) to a book.
    Add(AddArgs),
    /// Write a book (standard Othello) in Edax's binary format.
    ExportEdax(ExportArgs),
    /// Read an Edax book into an Orca book.
    ImportEdax(ImportArgs),
}

#[derive(Args, Debug)]
struct StatsArgs {
    #[command(flatten)]
    book: BookFile,
    /// Also count when these games (GGF or WTHOR files, or move lists)
    /// first reach a position the book does not hold.
    #[arg(long, value_name = "GAMES")]
    games: Vec<String>,
}

#[derive(Args, Debug)]
struct ExportArgs {
    #[command(flatten)]
    book: BookFile,
    /// The Edax book to write.
    out: PathBuf,
}

#[derive(Args, Debug)]
struct ImportArgs {
    /// The Edax book to read.
    edax: PathBuf,
    /// The Orca book to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// Which book to read.
#[derive(Args, Debug)]
struct BookFile {
    /// The game whose built-in book is read [default: othello]; with
    /// --book, the game the file must be for.
    #[arg(long)]
    variant: Option<Variant>,
    /// Read this book file instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
}

impl BookFile {
    fn load(&self) -> Result<Book, String> {
        match &self.book {
            Some(path) => {
                format::load(path, self.variant).map_err(|e| format!("{}: {e}", path.display()))
            }
            None => {
                let variant = self.variant.unwrap_or_default();
                Book::builtin(variant)
                    .ok_or_else(|| format!("{variant} has no book"))?
                    .map_err(|e| format!("built-in book: {e}"))
            }
            .map_err(|e| format!("built-in book: {e}")),
        }
    }
}

#[derive(Args, Debug)]
struct BuildArgs {
    /// The game.
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Write the book here.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Keep every valuation here, so that a build started again resumes
    /// (default: the book's name with .work added).
    #[arg(long, value_name = "FILE")]
    work: Option<PathBuf>,
    /// Depth of the search that values each position.
    #[arg(long, default_value_t = 14)]
    depth: u32,
    /// Positions up to this many plies from the start come from the games.
    #[arg(long, default_value_t = 12)]
    plies: u32,
    /// Fewest games through a position for it to be taken.
    #[arg(long, default_value_t = 30)]
    min_games: u32,
    /// WTHOR files or directories (default: data/wthor for othello, none
    /// for reversed).
    #[arg(long, value_name = "PATH")]
    wthor: Vec<PathBuf>,
    /// Self-play lines from the start (default: 0 for othello, 300 for reversed).
    #[arg(long)]
    selfplay: Option<u32>,
    /// Self-play draws among moves within this many discs of the best.
    #[arg(long, default_value_t = 3)]
    spread: i32,
    /// Deviation rounds.
    #[arg(long, default_value_t = 2)]
    rounds: u32,
    /// Deviations within this many discs of their position's value.
    #[arg(long, default_value_t = 3)]
    window: i32,
    /// Deviations from positions at most this many plies from the start.
    #[arg(long, default_value_t = 14)]
    deviation_plies: u32,
    /// Most positions added per deviation round.
    #[arg(long, default_value_t = 300)]
    per_round: usize,
    /// Seed of the self-play.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args, Debug)]
struct ShowArgs {
    #[command(flatten)]
    book: BookFile,
    /// The position: a position string (64 squares and the side to move)
    /// or `startpos`, then moves (`moves` before them is optional); or moves
    /// alone, from the start (`f5 d6 c3` or `f5d6c3`).
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    position: Vec<String>,
}

#[derive(Args, Debug)]
struct AddArgs {
    #[command(flatten)]
    book: BookFile,
    /// Write the widened book here.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Keep every valuation here (resumable).
    #[arg(long, value_name = "FILE")]
    work: Option<PathBuf>,
    /// Moves of each game taken.
    #[arg(long, default_value_t = 20)]
    plies: u32,
    /// Depth of the searches (default: the book's most common depth).
    #[arg(long)]
    depth: Option<u32>,
    /// GGF files, WTHOR files or directories, or move lists from the start.
    #[arg(required = true, num_args = 1..)]
    games: Vec<String>,
}

/// Runs `orca book`; returns the exit status.
pub fn run(args: &BookArgs) -> i32 {
    let result = match &args.command {
        BookCommand::Build(b) => args.eval.evaluators().and_then(|e| run_build(b, &e)),
        BookCommand::Show(s) => show(s),
        BookCommand::Stats(f) => stats(f),
        BookCommand::Add(a) => args.eval.evaluators().and_then(|e| run_add(a, &e)),
        BookCommand::ExportEdax(x) => export_edax(x),
        BookCommand::ImportEdax(i) => import_edax(i),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("orca book: {e}");
            1
        }
    }
}

/// Where `build` and `add` tell how they go, on stderr: a progress bar on
/// a terminal, lines now and then otherwise (logs, pipes, tests).
fn reporter() -> Box<dyn BuildLog> {
    if std::io::stderr().is_terminal() {
        Box::new(Bar::new())
    } else {
        Box::new(Lines::new(|line: &str| eprintln!("{line}")))
    }
}

/// A progress bar of the positions valued in the current pass; the notes,
/// and a line at the end of each pass, are printed above it.
struct Bar {
    bar: ProgressBar,
    pass: u32,
}

impl Bar {
    fn new() -> Self {
        let bar = ProgressBar::new(0);
        let style = ProgressStyle::with_template(
            "{msg} {wide_bar} {pos}/{len} positions, {elapsed} elapsed, about {eta} left",
        );
        if let Ok(style) = style {
            bar.set_style(style);
        }
        Bar { bar, pass: 0 }
    }
}

impl BuildLog for Bar {
    fn note(&mut self, line: &str) {
        self.bar.println(line);
    }

    fn progress(&mut self, p: &Progress) {
        if p.pass != self.pass {
            self.pass = p.pass;
            self.bar.set_length(p.total as u64);
            self.bar.reset_eta();
            self.bar.set_message(format!("book: pass {}", p.pass));
        }
        self.bar.set_position(p.done as u64);
        if p.done == p.total {
            self.bar.println(progress_line(p));
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

fn run_build(args: &BuildArgs, evaluators: &Arc<Evaluators>) -> Result<(), String> {
    let othello = args.variant == Variant::Othello;
    let config = BuildConfig {
        variant: args.variant,
        depth: args.depth,
        plies: args.plies,
        min_games: args.min_games,
        wthor: if args.wthor.is_empty() && othello {
            vec![PathBuf::from("data/wthor")]
        } else {
            args.wthor.clone()
        },
        selfplay: args.selfplay.unwrap_or(if othello { 0 } else { 300 }),
        selfplay_spread: args.spread,
        rounds: args.rounds,
        window: args.window,
        deviation_plies: args.deviation_plies,
        per_round: args.per_round,
        seed: args.seed,
    };
    let work = args.work.clone().unwrap_or_else(|| {
        let mut name = args.out.as_os_str().to_owned();
        name.push(".work");
        PathBuf::from(name)
    });
    let book = build(&config, evaluators, Some(&work), reporter().as_mut())?;
    format::save(&book, &args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!(
        "orca book: {} positions written to {}",
        book.len(),
        args.out.display()
    );
    Ok(())
}

fn board_of(position: &AnyPosition) -> Option<Board> {
    match position {
        AnyPosition::Othello(p) => Some(p.state().0),
        AnyPosition::Reversed(p) => Some(p.state().0),
        AnyPosition::TicTacToe(_) => None,
    }
}

fn show(args: &ShowArgs) -> Result<(), String> {
    let book = args.book.load()?;
    let text = args.position.join(" ");
    let position = orca::game::GameLine::parse(book.variant(), &text)?
        .position()
        .map_err(|e| format!("'{text}': {e}"))?;
    let board = board_of(&position).ok_or("tic-tac-toe has no book")?;
    println!("{position}");
    let Some(entry) = book.get(&board) else {
        println!("not in the book");
        return Ok(());
    };
    println!(
        "value {:+} depth {} games {}",
        entry.value, entry.depth, entry.games
    );
    for m in book.moves(&board).unwrap_or_default() {
        println!(
            "{} value {:+} depth {} {}",
            m.mv,
            m.value,
            m.depth,
            if m.linked { "book" } else { "leaf" }
        );
    }
    Ok(())
}

fn stats(args: &StatsArgs) -> Result<(), String> {
    let book = args.book.load()?;
    let mut by_ply: BTreeMap<u32, usize> = BTreeMap::new();
    let mut by_depth: BTreeMap<u32, usize> = BTreeMap::new();
    let mut leaves = 0;
    for e in book.entries() {
        *by_ply.entry(60 - e.board.empties()).or_default() += 1;
        *by_depth.entry(u32::from(e.depth)).or_default() += 1;
        if book
            .moves(&e.board)
            .is_some_and(|m| m.iter().all(|m| !m.linked))
        {
            leaves += 1;
        }
    }
    println!("variant {}", book.variant());
    println!(
        "positions {} ({} bytes), {} without a book move after them, {} deviation rounds",
        book.len(),
        format::HEADER_BYTES + book.len() * format::RECORD_BYTES,
        leaves,
        book.rounds()
    );
    let start = book.get(&Board::start());
    if let Some(e) = start {
        println!("start value {:+} (side to move)", e.value);
    }
    let list = |m: &BTreeMap<_, usize>| {
        m.iter()
            .map(|(k, v)| format!("{k}:{v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!("by ply {}", list(&by_ply));
    println!("by depth {}", list(&by_depth));
    if !args.games.is_empty() {
        let mut lines = Vec::new();
        for arg in &args.games {
            lines.extend(read_games(arg, book.variant())?);
        }
        let exits: Vec<usize> = lines.iter().map(|line| book_exit(&book, line)).collect();
        let share = |ply: usize| {
            100.0 * exits.iter().filter(|&&e| e <= ply).count() as f64 / exits.len().max(1) as f64
        };
        println!(
            "games {}: out of the book by move 10 {:.1}%, 15 {:.1}%, 20 {:.1}%",
            exits.len(),
            share(10),
            share(15),
            share(20)
        );
    }
    Ok(())
}

/// The number of the first move (1-based, passes counted) whose position
/// the book does not hold, or the line's length plus one.
fn book_exit(book: &Book, line: &[Move]) -> usize {
    let mut board = Board::start();
    for (ply, &mv) in line.iter().enumerate() {
        if book.get(&board).is_none() {
            return ply + 1;
        }
        board = match mv {
            Move::Pass => board.pass(),
            Move::Play(sq) => match board.play(sq) {
                Some(next) => next,
                None => return ply + 1,
            },
        };
    }
    line.len() + 1
}

/// The games of one `add` argument: a GGF or WTHOR file, a file of move
/// lists (one a line), or a move list.
fn read_games(arg: &str, variant: Variant) -> Result<Vec<Vec<Move>>, String> {
    let path = Path::new(arg);
    if path.is_dir() {
        return wthor_lines(&[path.to_path_buf()]);
    }
    if path.is_file() {
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
        {
            return wthor_lines(&[path.to_path_buf()]);
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{arg}: {e}"))?;
        let mut lines = Vec::new();
        let mut rest = text.as_str();
        while let Some(start) = rest.find("(;") {
            let end = rest[start..]
                .find(";)")
                .map(|i| start + i + 2)
                .ok_or_else(|| format!("{arg}: a record without its end ';)'"))?;
            let game: GgfGame = rest[start..end]
                .parse()
                .map_err(|e| format!("{arg}: {e}"))?;
            if game.variant() == variant && game.start == AnyPosition::start(variant) {
                lines.push(game.moves.iter().map(|m| m.mv).collect());
            }
            rest = &rest[end..];
        }
        // No GGF record: a file of move lists, one a line, as openings files
        // hold them.
        if lines.is_empty() && !text.contains("(;") {
            let openings = orca::referee::openings::parse(&text, variant)
                .map_err(|e| format!("{arg}: {e}"))?;
            lines.extend(
                openings
                    .into_iter()
                    .filter(|o| o.from_start())
                    .map(|o| o.moves),
            );
        }
        return Ok(lines);
    }
    let words: Vec<&str> = arg.split_whitespace().collect();
    let tokens = orca::game::line::split_moves(&words);
    let (_, moves) = orca::game::Position::<orca::game::StandardOthello>::start()
        .play_line(tokens.iter().map(String::as_str))
        .map_err(|e| format!("'{arg}': {e}"))?;
    Ok(vec![moves])
}

fn run_add(args: &AddArgs, evaluators: &Arc<Evaluators>) -> Result<(), String> {
    let book = args.book.load()?;
    let mut lines = Vec::new();
    for arg in &args.games {
        lines.extend(read_games(arg, book.variant())?);
    }
    let depth = args.depth.unwrap_or_else(|| {
        let mut counts: BTreeMap<u8, usize> = BTreeMap::new();
        for e in book.entries() {
            *counts.entry(e.depth).or_default() += 1;
        }
        counts
            .iter()
            .max_by_key(|(_, n)| **n)
            .map_or(14, |(d, _)| u32::from(*d))
    });
    let before = book.len();
    let widened = add_lines(
        &book,
        &lines,
        args.plies,
        depth,
        evaluators,
        args.work.as_deref(),
        reporter().as_mut(),
    )?;
    format::save(&widened, &args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    println!(
        "{} games, {} new positions, {} in all, written to {}",
        lines.len(),
        widened.len() - before,
        widened.len(),
        args.out.display()
    );
    Ok(())
}

fn export_edax(args: &ExportArgs) -> Result<(), String> {
    let book = args.book.load()?;
    let bytes = edax::export(&book).map_err(|e| e.to_string())?;
    std::fs::write(&args.out, bytes).map_err(|e| format!("{}: {e}", args.out.display()))?;
    println!("{} positions written to {}", book.len(), args.out.display());
    Ok(())
}

fn import_edax(args: &ImportArgs) -> Result<(), String> {
    let bytes = std::fs::read(&args.edax).map_err(|e| format!("{}: {e}", args.edax.display()))?;
    let book = edax::import(&bytes).map_err(|e| format!("{}: {e}", args.edax.display()))?;
    format::save(&book, &args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    println!("{} positions written to {}", book.len(), args.out.display());
    Ok(())
}
