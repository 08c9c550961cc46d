//! The exact endgame solver for Othello (standard and reversed rules): the final
//! disc difference under perfect play, in discs.
//!
//! Built after the field's solvers (Edax, Zebra): null-window searches around
//! the score, principal-variation search where the exact value is needed,
//! and work arranged by the number of empty squares left:
//!
//! - **1 empty**: no move list; the flips of the one square decide the score.
//! - **2 and 3 empties**: dedicated code, parity order, no move list.
//! - **4 to `SHALLOW` empties**: no table; empty squares are tried directly
//!   (a square whose flips are empty is not a move), odd quadrants first
//!   (parity: playing last in a region is an advantage). In large solves
//!   the table starts one empty later (`LARGE_SHALLOW`), and nodes of 6 and
//!   7 empties rank their moves fastest first.
//! - **deeper**: transposition table (bounds and best move), enhanced
//!   transposition cutoff, stability cutoff, moves ordered fastest first (fewest
//!   opponent replies, corners weighted), with a shallow evaluation search
//!   ordering the moves far from the end.
//!
//! A solve far from the end starts with selective passes (probable cutoffs,
//! as Edax and Egaroucid do): cheap, they leave best moves in the table and
//! a close guess at the score, and each search starts with a narrow
//! (aspiration) window around its guess. The last pass is exact.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::tt::{DEPTH_LIMITED, EXACT, NO_LOWER, NO_MOVE, NO_UPPER, TranspositionTable, bounds};
use crate::eval::pattern::{Direct, Indices};
use crate::eval::stability::{corner_discs, stable_discs_at_least};
use crate::eval::{DISC, Evaluator};
use crate::game::bitboard::{Bits, CORNERS};
use crate::game::flip::{flips, last_flip_count, legal_moves};
use crate::game::{Board, Move, Othello, Square};

/// At or below this many empties the solver searches without the table
/// (in small solves; large ones take [`LARGE_SHALLOW`]).
/// Nodes of 7 empties searched in order but without the table: FFO #45,
/// #48, #49, #51 8.6% more nodes in the same time (the probes' memory
/// latency costs about what the table saves there). A separate small table
/// (1-2 MB, so in cache) for nodes of 7 empties, or of 7 and 8: +3.0% and
/// +5.5% nodes, 2-3% slower (4 paired runs each).
const SHALLOW: u32 = 6;

/// [`SHALLOW`] of large solves, whose searches without the table rank the moves
/// of nodes of 6 and 7 empties fastest first
/// ([`Solver::shallow_fastest_first`]): with that order, the table no longer
/// pays at 7 empties. Against 6 (the table from 7): FFO #45, #48, #49, #51
/// +8.5% nodes, 6.3-6.6% faster (2 of 2 paired runs); #50, #52 +7.0%, 1.9-3.8%
/// faster (2 of 2); #53 -7.3% nodes, 13.6-15.0% faster (2 of 2); FFO #45 under
/// reversed rules +7.5%, 2.6-2.8% faster (2 of 2). 8 against 7: +9.4%, +10.2%
/// and +5.9% nodes on those three sets, the same time on the first two, #53 3%
/// faster (2 paired runs each); fforum-40-59 +7.4% nodes, 1.0% faster (497.0 s
/// against 491.9 s, one paired run). Nodes of 7 empties with the table but
/// without ranking (the hash move, then parity and square classes), before
/// 6-empty nodes were ranked: FFO #45, #48, #49, #51 +16% nodes, 5% slower. At
/// 7 empties, the features of [`Solver::order`] added to the ranking (potential
/// mobility; also corner-stable discs and square values): within 0.5% of the
/// nodes on the first two sets. 8 against 7 again on an AMD EPYC (Zen 3) VM,
/// with the faster flips and stability test: FFO #40-42, #44, #47 2.3% fewer
/// instructions (cachegrind), fforum-40-59 +7.5% nodes, and in paired runs
/// 598.2 s against 585.4 s, then 587.2 s against 596.6 s with the cores
/// swapped: no gain.
const LARGE_SHALLOW: u32 = 7;

/// At or above this many empties moves are ordered by a shallow search of the
/// evaluation rather than by mobility alone. Checked again in large solves
/// once the table started at 8 empties ([`LARGE_SHALLOW`]): from 13, FFO
/// #45, #48, #49, #51 -3.5% nodes, #53 -3.9%, in the same time (+0.3%,
/// -0.1%; #53 -0.4%, -2.4%: 4 paired runs); from 12, -6.9%, #50, #52 -3.8%,
/// no faster (one run). From 13 again once nodes with a hash move ran the
/// evaluation searches only if it failed to cut
/// ([`Settings::evaluate_after_hash_move`]): FFO #45, #48, #49, #51 -3.5%
/// nodes, 0.8% and 3.4% slower (2 paired runs).
const EVAL_ORDER_EMPTIES: u32 = 14;

/// At or above this many empties the children are looked up in the table
/// before any is searched (enhanced transposition cutoff); nearer the end the
/// lookups cost more than they save. From 11, 12, 13: FFO #45, #48, #49, #51
/// +0.7%, +1.8%, +2.5% nodes; from 12, 1.3% less time over 6 paired runs,
/// inside this machine's noise. Only at nodes expected to fail high: +1.9%
/// nodes, no faster (later, in large solves, that paid:
/// [`Settings::etc_where_all_expected`]). Small solves (all of training's)
/// keep this; large ones take [`LARGE_ETC_EMPTIES`].
const ETC_EMPTIES: u32 = 10;

/// [`ETC_EMPTIES`] of large solves: once the moves of nodes without ETC were
/// ordered before the table probe, starting ETC one empty later paid: FFO
/// #45, #48, #49, #51 +0.65% nodes, 2.7% faster over 12 paired runs (9 of
/// 12); FFO #56 +0.55% nodes, 2.3% faster (4 of 4). Checked again once the
/// table started at 8 empties ([`LARGE_SHALLOW`]): from 10, 12 or 13, FFO
/// #45, #48, #49, #51 -0.6%, +1.2%, +1.8% nodes, #50, #52 -0.3%, +1.7%,
/// +2.0%, and no clear change in time (one run each). Checked once more
/// with ETC only at nodes expected to cut: from 10 or 12 slower.
const LARGE_ETC_EMPTIES: u32 = 11;

/// How the moves of a node are ranked for the null-window solve (fastest
/// first): the key of a move, higher tried first, adds these weights times
/// the features of the position it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OrderWeights {
    /// Per reply of the opponent (subtracted).
    mobility: i32,
    /// Per corner among those replies, on top of `mobility` (subtracted).
    corner_reply: i32,
    /// Per empty square next to the mover's discs, where the opponent may
    /// play later (subtracted).
    potential: i32,
    /// For a move into an odd region.
    parity: i32,
    /// Per disc of the mover made stable by a corner ([`corner_discs`]).
    corner_stable: i32,
    /// Times the [`SQUARE_VALUE`] of the move's square.
    square: i32,
    /// Per disc of the evaluation search that orders moves from
    /// [`EVAL_ORDER_EMPTIES`] (from [`FAR_VALUE_EMPTIES`]: [`W_VALUE_FAR`]).
    value: i32,
}

impl OrderWeights {
    /// The part of a move's key that every fastest-first ranking shares:
    /// the replies it leaves (corners weighted) and whether its square lies
    /// in an odd region (`odd`).
    #[inline(always)]
    fn replies_and_parity(&self, replies: u64, square: u8, odd: u64) -> i32 {
        let mut key = -(replies.count_ones() as i32) * self.mobility
            - ((replies & CORNERS).count_ones() as i32) * self.corner_reply;
        if (1u64 << square) & odd != 0 {
            key += self.parity;
        }
        key
    }
}

/// How good a square is to take, by its place alone: corners and the edges
/// away from them high, the squares next to corners (X and C) low, the centre
/// (taken long ago) nothing. A tie-breaker between moves alike otherwise.
const SQUARE_VALUE: [i32; 64] = {
    // a1-d4, rank by rank; the other quarters mirror it.
    const QUARTER: [[i32; 4]; 4] = [[18, 3, 15, 12], [3, 0, 6, 9], [15, 6, 15, 9], [12, 9, 9, 0]];
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (rank, file) = (sq / 8, sq % 8);
        let r = if rank < 4 { rank } else { 7 - rank };
        let f = if file < 4 { file } else { 7 - file };
        table[sq] = QUARTER[r][f];
        sq += 1;
    }
    table
};

/// The squares diagonally next to the corners.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The order of small solves, measured on FFO #40-44 (nodes searched), kept
/// as it is for every solve of training (16 empties or fewer): their move
/// choices decide the self-play lines, so the committed weights stay what
/// `orca train` makes.
const SMALL_ORDER: OrderWeights = OrderWeights {
    mobility: 64,
    corner_reply: 64,
    potential: 24,
    parity: 16,
    corner_stable: 0,
    square: 0,
    value: 64,
};

/// The order of large solves (from [`LARGE_SOLVE_EMPTIES`]), at every node
/// of them: a move that gives the mover corner-stable discs ranks higher, as
/// in Edax. Nodes against [`SMALL_ORDER`]: FFO #45, #48, #49, #51 -15%, 12
/// WTHOR positions of 26 empties -13%, FFO #53 -7.4%, #54 -4.6%, #55 -12%;
/// the stability term alone did most of it (-13%, -11%, -6.9%), corner
/// replies at 1.5 times mobility and parity 24 the rest. The square values
/// and the evaluation at 48 rather than 64 per disc took another 4.1%,
/// 3.6%, 3.0% and 2.2% (#54) off; 24 or 48 per disc from 17 empties (for
/// [`W_VALUE_FAR`]), the evaluation from 13 empties, or edge runs counted
/// as stable did not help. Re-tuned later, on the solver as it had grown
/// since (one weight at a time on FFO #45, #48-52, then the best
/// together): stability 16 (was 40), the evaluation
/// at 14-16 empties 24 per disc (was 48), potential mobility 32 and parity
/// 16 (were 24 and 24): nodes of those six -8.0%, #53 -2.2%, #54 -5.0%,
/// #55 -3.6%, #56 +1.1%, fforum-20-39 -1.3%. On the six, from the old
/// weights or near the new: stability 8, evaluation 0 or 8, potential 40,
/// corner replies 80 or 112, square values 0 or 2 did less; evaluation 16
/// 0.3% better there, but #53 +0.9% and #54 the same.
///
/// Standard rules only: under reversed rules corner-stable discs are a
/// burden for their owner, and these terms doubled the nodes of FFO #45,
/// #48, #49, #51 solved under reversed rules (5.64 G -> 11.35 G); those
/// solves take [`REVERSED_LARGE_ORDER`].
const LARGE_ORDER: OrderWeights = OrderWeights {
    mobility: 64,
    corner_reply: 96,
    potential: 32,
    parity: 16,
    corner_stable: 16,
    square: 1,
    value: 24,
};

/// The order of large solves under reversed rules: [`SMALL_ORDER`], but a
/// move that gives the mover corner-stable discs (which it cannot lose, and
/// which count against it) ranks lower. Nodes of FFO #45, #48, #49, #51
/// solved under reversed rules: 5,644,278,401 -> 3,218,573,273 (-43%); FFO
/// #40-44, #46, #47, #52: 5,213,645,921 -> 3,124,972,453 (-40%). -40, -80 and
/// -160 per disc did less on the first set (-34%, -43%, -40%); corner replies
/// at 96 or parity 24 did not help.
const REVERSED_LARGE_ORDER: OrderWeights = OrderWeights {
    corner_stable: -120,
    ..SMALL_ORDER
};

/// How a solve orders its moves and how near the end it uses the table: one
/// set for small solves, kept as it is for every solve of training, and one
/// per rules for large solves (from [`LARGE_SOLVE_EMPTIES`]), which a solve
/// takes at its root ([`Solver::settings_for_root`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Settings {
    /// The weights of the fastest-first ranking.
    order: OrderWeights,
    /// Whether the shallow search that ranks no moves (at 5 empties in
    /// large solves) tries, within each parity group, corners first and
    /// X-squares last: large solves under standard rules. FFO #45, #48, #49, #51: 3.8% fewer nodes, 1.4% faster
    /// (6 paired runs); FFO #53 1.8% fewer nodes; also at 4 empties: 4.3%
    /// fewer nodes but slower per node; every class of square apart
    /// ([`SQUARE_VALUE`]'s seven): 3.8%; under reversed rules +0.5% nodes.
    square_classes: bool,
    /// From this many empties a node looks its children up in the table
    /// before it searches them (ETC).
    etc_empties: u32,
    /// Whether ETC runs at nodes expected to search all their moves too.
    /// There it almost never cuts (FFO #45, #48, #49, #51, at 11 empties:
    /// 0.2% of them, against 10% of the nodes expected to cut), but it waits
    /// for every child's table line at once. Large solves skip it there: 0.2%
    /// more nodes, 0.6-3.4% faster (FFO #45, #48, #49, #51 4 of 4 paired
    /// runs, #53 2 of 2, #50 and #52 1 of 2); with ETC then from 10 empties,
    /// 1.8% slower, from 12 +1.2% nodes and 1.5% slower (2 paired runs each).
    etc_where_all_expected: bool,
    /// Whether the searches without the table rank the moves of nodes of 6
    /// empties or more fastest first ([`Solver::shallow_fastest_first`])
    /// rather than by parity and square class alone.
    fastest_first_at_shallow: bool,
    /// The most empties searched without the table.
    shallow_empties: u32,
    /// Whether a null-window node far enough from the end to rank its moves
    /// by evaluation searches ([`EVAL_ORDER_EMPTIES`]) first tries its hash
    /// move, and runs those searches only if that move fails to cut. The
    /// same tree, fewer ordering nodes: fforum-40-59 -0.85% nodes, 2.0% and
    /// 1.3% faster (2 paired runs, 489.0 s -> 479.3 s, 488.0 s -> 481.7 s).
    /// Nodes expected to search every move then ranking by features alone
    /// (no evaluation searches): FFO #45, #48, #49, #51 +0.1% nodes, 1.0%
    /// faster; #50, #52 +0.6%, 0-1.7% faster; #53 +3.0%, 1.8-2.4% slower
    /// (2 paired runs each); not taken.
    evaluate_after_hash_move: bool,
}

/// The settings of small solves: the order and depths training's solves
/// made the committed weights with.
const SMALL_SETTINGS: Settings = Settings {
    order: SMALL_ORDER,
    square_classes: false,
    etc_empties: ETC_EMPTIES,
    etc_where_all_expected: true,
    fastest_first_at_shallow: false,
    shallow_empties: SHALLOW,
    evaluate_after_hash_move: false,
};

/// The settings of large solves under standard rules.
const LARGE_SETTINGS: Settings = Settings {
    order: LARGE_ORDER,
    square_classes: true,
    etc_empties: LARGE_ETC_EMPTIES,
    etc_where_all_expected: false,
    fastest_first_at_shallow: true,
    shallow_empties: LARGE_SHALLOW,
    evaluate_after_hash_move: true,
};

/// The settings of large solves under reversed rules: their own order, and
/// no square classes (they cost nodes there).
const REVERSED_LARGE_SETTINGS: Settings = Settings {
    order: REVERSED_LARGE_ORDER,
    square_classes: false,
    ..LARGE_SETTINGS
};

/// From this many empties the evaluation search's disc counts
/// [`W_VALUE_FAR`], whatever the order: set at half the small order's 64
/// per disc, as this far from the end the evaluation errs by 7-9 discs (FFO
/// #45, #48, #49, #51: 8% fewer nodes; #50, #52, #56: 10%). Checked again
/// with orders near the re-tuned [`LARGE_ORDER`] on FFO #45, #48-52: 24 the
/// same, 28, 36 and 40 0.3-0.9% more nodes. Only large solves have nodes
/// this far from the end (training's have 16 empties or fewer).
const FAR_VALUE_EMPTIES: u32 = 17;
const W_VALUE_FAR: i32 = 32;

/// From this many empties a solve is "large": its windows are clamped to
/// +-64, it starts with a window of `ASPIRATION_WINDOW` discs either side of
/// a guess, and from `SELECTIVE_EMPTIES` it runs selective passes first.
/// Smaller solves -- all of training's, 16 empties or fewer -- keep the plain
/// search, which costs them little and keeps them move for move as before, so
/// that the committed weights stay what `orca train` makes.
const LARGE_SOLVE_EMPTIES: u32 = 18;

/// Half the first window of a large solve (FFO #45, #48, #49, #51: 20% fewer
/// nodes than one wide window; fforum-20-39: 9%; 3 and 8 discs did less).
/// The exact pass after the selective ones searched the same tree with half
/// windows of 1, 2, 3 and 5 on those four: its guess is right, and each
/// principal-variation node tries the best move first.
const ASPIRATION_WINDOW: i32 = 5;

/// Depth of the evaluation search that guesses the score when the table has none.
const GUESS_DEPTH: u32 = 4;

/// From this many empties a solve runs selective passes first.
const SELECTIVE_EMPTIES: u32 = 22;

/// The confidence of each selective pass, in standard errors of the shallow
/// search (from about 79% to 99% of cuts right). Many cheap, bold passes
/// leave the table full of good moves and near bounds for the surer ones:
/// against two passes (1.5, 2.5), 12 WTHOR positions of 26 empties need 6%
/// fewer nodes, 8 of 28 empties 10%, FFO #53 29%; three (1.1, 1.5, 2.0) or
/// four (1.0, 1.5, 2.0, 2.5) passes did less. The passes take 29% of FFO
/// #55's nodes, 35% of #54's, 52% of #53's (the 1.8 pass the most), yet
/// each pays for itself: #55 without the 2.2 pass +0.5% nodes, without the
/// 1.8 pass +1.7%. Checked again with the re-tuned [`LARGE_ORDER`] (nodes,
/// FFO #53 and #54): every z times 0.9 +5.8% and -4.2%, times 1.1 +19% and
/// +2.7%; passes at 1.65 and 2.0 added, #53 +2.5%; the 1.8 pass left out,
/// #53 +4.4%. Later, on FFO #45, #48, #49, #51 (nodes): (1.1, 1.5, 2.2)
/// +2.6%, (0.8, 1.5, 2.2) +1.3%, (1.5, 2.2) +6.6%, a 2.6 pass added or
/// (0.6, 1.0, 1.4, 1.8, 2.2) -0.0% and -0.1%; none clearly faster (one run
/// each).
const SELECTIVE_Z: [f64; 5] = [0.8, 1.1, 1.5, 1.8, 2.2];

/// Nodes with at least this many empties try a probable cutoff: every node
/// that uses the table (FFO #45, #48, #49, #51: 18% fewer nodes than from
/// 12 empties; 8, 9, 10 and 14 empties lie on the same slope). Selective
/// passes run in large solves only, where the table, and so the probable
/// cutoffs, start at 8 empties ([`LARGE_SHALLOW`]); from 9 or 10 there, FFO
/// #45, #48, #49, #51 +2.8% and +7.2% nodes, #53 +0.2% and +7.5%.
const PROBCUT_EMPTIES: u32 = SHALLOW + 1;

/// The shallow search of a probable cutoff at `empties` empties: its depth
/// and its standard error in discs against the exact score, under reversed
/// rules if `REVERSED` (`calibrate_probcut` below: 80 WTHOR positions for
/// each even count of empties, 8 to 24). Deeper searches err less but cost
/// more; two moves deep from 24 empties too: FFO #53 +2.7% nodes. Two
/// moves deep from 16 empties (error as at 18): FFO #53 -1.5%, #54 the
/// same, #50 -0.4%, #52 +3.2%, #45, #48, #49, #51 +1.0%; from 14: #53 +7.4%.
/// Measured again with the committed weights (trained after these errors
/// were measured): 8.5-10.0 at 8-10 empties and 8.7-8.9 at 12-16 as here,
/// 7.1-7.7 at 18-22 (two moves deep) and 6.0 at 24 (four deep). With 7.4
/// and 6.0 in place of 7.7 and 7.2: FFO #45, #48, #49, #51 +1.1% nodes,
/// #53 +1.2%; the errors here stay.
#[inline]
fn probcut_search<const REVERSED: bool>(empties: u32) -> (u32, f64) {
    let (depth, standard, reversed) = match empties {
        0..12 => (0, 9.3, 7.1),
        12..18 => (0, 8.9, 5.5),
        18..24 => (2, 7.7, 4.2),
        _ => (4, 7.2, 3.4),
    };
    (depth, if REVERSED { reversed } else { standard })
}

/// Where [`probcut_search`] gives the evaluation's own error near the
/// deeper probable-cutoff searches (from 18 empties), which run only when the
/// evaluation is within that error of cutting.
const PROBCUT_SLACK_EMPTIES: u32 = 16;

/// How often (in nodes) the clock is read.
const CLOCK_CHECK_INTERVAL: u64 = 4096;

/// The four 4x4 quadrants, for parity ordering.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// A score beyond every final score (in discs).
const INF: i32 = 65;

/// The squares around each square: a move must touch an opponent disc.
const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < 8 && nc >= 0 && nc < 8 {
                    table[sq] |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    table
};

/// The quadrant (one of [`QUADRANTS`]) each square lies in.
const QUADRANT_OF: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut q = 0;
        while q < 4 {
            if QUADRANTS[q] & (1u64 << sq) != 0 {
                table[sq] = QUADRANTS[q];
            }
            q += 1;
        }
        sq += 1;
    }
    table
};

/// `PARITY_ORDER_4[odd]`: the order in which [`parity_order_4`] tries four
/// empty squares, as indices into them lowest first, when bit `i` of `odd`
/// says that the `i`-th lies in an odd quadrant: those first, then the
/// others, each group lowest square first (the order of [`Solver::shallow`]).
const PARITY_ORDER_4: [[u8; 4]; 16] = {
    let mut table = [[0u8; 4]; 16];
    let mut odd = 0;
    while odd < 16 {
        let mut k = 0;
        let mut group = 0;
        while group < 2 {
            let mut i = 0;
            while i < 4 {
                if ((odd >> i) & 1 == 1) == (group == 0) {
                    table[odd][k] = i as u8;
                    k += 1;
                }
                i += 1;
            }
            group += 1;
        }
        odd += 1;
    }
    table
};

/// The four empty squares of `empty` in parity order, without the shallow
/// search's loops over quadrants and classes of squares.
#[inline]
fn parity_order_4(empty: u64) -> [u8; 4] {
    let mut rest = empty;
    let mut squares = [0u8; 4];
    let mut odd = 0;
    for (i, x) in squares.iter_mut().enumerate() {
        *x = rest.trailing_zeros() as u8;
        rest &= rest.wrapping_sub(1);
        odd |= (((empty & QUADRANT_OF[usize::from(*x)]).count_ones() & 1) as usize) << i;
    }
    PARITY_ORDER_4[odd].map(|i| squares[usize::from(i)])
}

/// The three empty squares of `empty`, those alone (or three together) in
/// their quadrant first: parity ordering without a loop over the quadrants.
#[inline]
fn parity_order_3(empty: u64) -> [u8; 3] {
    let x1 = empty.trailing_zeros() as u8;
    let x3 = (63 - empty.leading_zeros()) as u8;
    let x2 = (empty & !(1u64 << x1) & !(1u64 << x3)).trailing_zeros() as u8;
    let odd = |x: u8| (empty & QUADRANT_OF[x as usize]).count_ones() & 1 == 1;
    match (odd(x1), odd(x2)) {
        // Two squares share a quadrant: the one alone goes first.
        (false, false) => [x3, x1, x2],
        (false, true) => [x2, x1, x3],
        (true, false) => [x1, x2, x3],
        // Three quadrants of one square each, or all three in one.
        (true, true) => [x1, x2, x3],
    }
}

/// The discs a move on the empty square `x` flips, 0 when it is not a move:
/// a square touching none of the opponent's discs is rejected before the
/// flips are computed.
#[inline]
fn move_flips(player: u64, opponent: u64, x: u8) -> u64 {
    if NEIGHBOURS[x as usize] & opponent == 0 {
        0
    } else {
        flips(player, opponent, x)
    }
}

/// Empty squares next to `discs`: where the other side may one day play.
/// The discs smeared one file either way, then that one rank either way:
/// the eight neighbours in ten operations rather than eight masked shifts.
#[inline]
fn potential_moves(discs: u64, empty: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let row = discs | ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H);
    (row | (row << 8) | (row >> 8)) & empty
}

/// Depth of the evaluation search that orders moves at `empties` empties.
#[inline]
fn sort_depth(empties: u32) -> u32 {
    match empties {
        0..SORT_DEPTH_1 => 0,
        SORT_DEPTH_1..SORT_DEPTH_2 => 1,
        SORT_DEPTH_2..SORT_DEPTH_4 => 2,
        _ => 4,
    }
}

/// From this many empties the ordering search looks one move ahead...
/// (17, not lower: training's solves, 16 empties or fewer, keep their order.)
const SORT_DEPTH_1: u32 = 17;
/// ...from this many, two (17 and 20 rather than 18 and 22 since the
/// evaluation became twice as fast: FFO #45, #48, #49, #51 8.4% fewer nodes
/// and 5.5% less time; 12 WTHOR positions of 26 empties 4.4% fewer nodes,
/// FFO #53 7.4%; two moves ahead from 19 saved 1-2% more nodes but cost more
/// time)...
const SORT_DEPTH_2: u32 = 20;
/// ...and from this many, four: the few nodes this far from the end root the
/// largest subtrees. Against two moves ahead: 12 WTHOR positions of 26
/// empties 12% fewer nodes, FFO #53 2.7%, #54 1.6%, FFO #45, #48, #49, #51
/// 0.6%. From 23 or 24 empties, or from 27, did less overall. With one and
/// two moves ahead from 17 and 20, three moves ahead at 23-24 empties cost
/// nodes: FFO #45, #48, #49, #51 +1.7%, FFO #53 +2.4%, the 26-empty set +4.9%.
const SORT_DEPTH_4: u32 = 25;

/// The standard-rule final score of a finished game (empties to the winner).
#[inline]
fn standard_final(player: u64, opponent: u64) -> i32 {
    Board::new(player, opponent).final_score()
}

/// The quadrants holding an odd number of empty squares, as one mask. Each
/// quadrant's parity is folded onto one bit (the four files of a half-row,
/// then its four ranks: bits 0, 4, 32 and 36 end up holding the parities of
/// a1-d4, e1-h4, a5-d8 and e5-h8), and one multiplication spreads each bit
/// over its quadrant.
#[inline]
fn odd_quadrants(empty: u64) -> u64 {
    let mut x = empty ^ (empty >> 1);
    x ^= x >> 2;
    x ^= x >> 8;
    x ^= x >> 16;
    (x & 0x0000_0011_0000_0011).wrapping_mul(0x0F0F_0F0F)
}

/// An exact solver over a transposition table shared with the midgame search.
pub struct Solver<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> {
    tt: &'a mut TranspositionTable,
    eval: &'a E,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: u64,
    salt: u64,
    /// The node count at which the clock is read next.
    next_clock_check: u64,
    /// Nodes visited.
    pub nodes: u64,
    /// The part of `nodes` visited by the evaluation searches that rank
    /// moves far from the end: the rest is the solve's own tree, which a
    /// change to when those searches run must leave alone.
    ordering_nodes: u64,
    /// A limit or the stop flag ended the search; the results are void.
    pub aborted: bool,
    /// The selectivity of the current pass: [`EXACT`], or a selective level
    /// (an index into [`SELECTIVE_Z`] plus one) whose probable cutoffs make
    /// the pass fast and fill the table with good moves for the next.
    level: u8,
    /// One move list per node on the current path, at [`list_slot`]: built in
    /// place rather than on the stack, where each new list cost a 1.5 KB copy.
    /// Grown to the highest slot the search uses, so that the many small
    /// solves of training pay for no more lists than they need.
    lists: Vec<MoveList>,
    /// Move lists of the shallow searches, at [`list_slot`] of their depth.
    mid_lists: Vec<MoveList>,
    /// How many results so far leaned on a probable cutoff or on a selective
    /// table entry: a subtree searched while it stays the same is exact,
    /// whatever the level of the pass, and is stored as exact.
    approximations: u64,
    /// The evaluation's pattern readers, for the indices the ordering
    /// searches keep up to date move by move.
    direct: &'static Direct,
    /// Whether the evaluation reads those indices (else none are kept).
    indexed: bool,
    /// [`SMALL_SETTINGS`], or the large settings of these rules once a large
    /// solve started ([`Self::settings_for_root`]).
    settings: Settings,
}

/// Where a node's move list lives: a path from the root visits each (empties,
/// just passed) pair at most once, so no two live nodes share a slot.
#[inline]
fn list_slot(empties: u32, passed: bool) -> usize {
    2 * empties as usize + passed as usize
}

impl<'a, const REVERSED: bool, E: Evaluator<Othello<REVERSED>>> Solver<'a, REVERSED, E> {
    /// A solver using `tt` (keys compatible with the midgame search), stopping on
    /// `stop`, at `deadline` or after `node_limit` nodes.
    pub fn new(
        tt: &'a mut TranspositionTable,
        eval: &'a E,
        stop: &'a AtomicBool,
        deadline: Option<Instant>,
        node_limit: Option<u64>,
        salt: u64,
    ) -> Self {
        Solver {
            tt,
            eval,
            stop,
            deadline,
            node_limit: node_limit.unwrap_or(u64::MAX),
            lists: Vec::new(),
            mid_lists: Vec::new(),
            approximations: 0,
            direct: crate::eval::trained::Layout::get().direct(),
            indexed: eval.uses_indices(),
            settings: SMALL_SETTINGS,
            salt,
            next_clock_check: CLOCK_CHECK_INTERVAL,
            nodes: 0,
            ordering_nodes: 0,
            aborted: false,
            level: EXACT,
        }
    }

    /// The final score under these rules of a finished game.
    #[inline]
    fn final_score(player: u64, opponent: u64) -> i32 {
        let s = standard_final(player, opponent);
        if REVERSED { -s } else { s }
    }

    /// Takes the settings of a large solve under these rules when `board`,
    /// the root of a solve, is large; otherwise leaves them as they are.
    fn settings_for_root(&mut self, board: &Board) {
        if board.empties() >= LARGE_SOLVE_EMPTIES {
            self.take_large_settings();
        }
    }

    /// The settings of large solves under these rules.
    fn take_large_settings(&mut self) {
        self.settings = if REVERSED {
            REVERSED_LARGE_SETTINGS
        } else {
            LARGE_SETTINGS
        };
    }

    /// Whether the children of a node with `empties` empties search with the
    /// table (so their parent computes their keys and loads their buckets).
    #[inline]
    fn children_use_table(&self, empties: u32) -> bool {
        empties > self.settings.shallow_empties + 1
    }

    #[inline]
    fn key(&self, board: &Board) -> u64 {
        crate::game::mix_key(board.player, board.opponent) ^ self.salt
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        } else if self.nodes >= self.next_clock_check
            && let Some(deadline) = self.deadline
        {
            self.next_clock_check = self.nodes + CLOCK_CHECK_INTERVAL;
            self.aborted = Instant::now() >= deadline;
        }
        self.aborted
    }

    /// The score with one empty square `x` left. Always inlined: left to the
    /// compiler it stayed a call inside `solve_2`, which then saved and
    /// restored its vector registers around it (FFO #45, #48, #49, #51: 0.9%
    /// faster over 12 paired runs).
    #[inline(always)]
    fn solve_1(&mut self, player: u64, opponent: u64, x: u8) -> i32 {
        self.nodes += 1;
        let diff = player.count_ones() as i32 - opponent.count_ones() as i32;
        let n = last_flip_count(player, x) as i32;
        let standard = if n > 0 {
            diff + 2 * n + 1
        } else {
            let m = last_flip_count(opponent, x) as i32;
            if m > 0 {
                diff - 2 * m - 1
            } else if diff > 0 {
                diff + 1
            } else {
                diff - 1 // 63 discs: the difference is odd, never zero
            }
        };
        if REVERSED { -standard } else { standard }
    }

    /// The score with two empty squares `x1`, `x2` left (null window above `alpha`).
    #[inline]
    fn solve_2(&mut self, player: u64, opponent: u64, alpha: i32, x1: u8, x2: u8) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let f = move_flips(player, opponent, x1);
        if f != 0 {
            best = -self.solve_1(opponent ^ f, player ^ f ^ (1u64 << x1), x2);
            if best > alpha {
                return best;
            }
        }
        let f = move_flips(player, opponent, x2);
        if f != 0 {
            return best.max(-self.solve_1(opponent ^ f, player ^ f ^ (1u64 << x2), x1));
        }
        if best > -INF {
            return best;
        }
        // The side to move must pass; the opponent tries the same two squares.
        let mut best = INF;
        for (x, other) in [(x1, x2), (x2, x1)] {
            let f = move_flips(opponent, player, x);
            if f != 0 {
                best = best.min(self.solve_1(player ^ f, opponent ^ f ^ (1u64 << x), other));
                if best <= alpha {
                    return best;
                }
            }
        }
        if best < INF {
            best
        } else {
            Self::final_score(player, opponent)
        }
    }

    /// The score with three empty squares left (null window above `alpha`):
    /// parity order, no table, no stability check (it costs more than it saves
    /// this near the end).
    #[inline]
    fn solve_3(&mut self, player: u64, opponent: u64, alpha: i32, empty: u64, passed: bool) -> i32 {
        self.nodes += 1;
        let [x1, x2, x3] = parity_order_3(empty);
        let mut best = -INF;
        for (x, a, b) in [(x1, x2, x3), (x2, x1, x3), (x3, x1, x2)] {
            let f = move_flips(player, opponent, x);
            if f != 0 {
                let score = -self.solve_2(opponent ^ f, player ^ f ^ (1u64 << x), -alpha - 1, a, b);
                if score > best {
                    best = score;
                    if score > alpha {
                        return best;
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        if passed {
            // Neither side can move: the game is over.
            return Self::final_score(player, opponent);
        }
        -self.solve_3(opponent, player, -alpha - 1, empty, true)
    }

    /// The score with four empty squares left (null window above `alpha`):
    /// the shallow search unrolled, same order and same stability check, so
    /// the same tree (FFO #45, #48, #49, #51: 2.3% faster, 6 paired runs).
    /// Never inlined: the shallow search stays small (0.9% faster over 12
    /// paired runs than leaving it to the compiler).
    #[inline(never)]
    fn solve_4(&mut self, player: u64, opponent: u64, alpha: i32, empty: u64, passed: bool) -> i32 {
        self.nodes += 1;
        if let Some(upper) = self.stability_bound(&Board::new(player, opponent), alpha)
            && upper <= alpha
        {
            return upper;
        }
        let mut best = -INF;
        for x in parity_order_4(empty) {
            let f = move_flips(player, opponent, x);
            if f != 0 {
                let bit = 1u64 << x;
                let score = -self.solve_3(
                    opponent ^ f,
                    player ^ f ^ bit,
                    -alpha - 1,
                    empty ^ bit,
                    false,
                );
                if score > best {
                    best = score;
                    if score > alpha {
                        return best;
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        if passed {
            // Neither side can move: the game is over.
            return Self::final_score(player, opponent);
        }
        -self.solve_4(opponent, player, -alpha - 1, empty, true)
    }

    /// Null-window search of a position with few empties: no table, no move
    /// list, the moves tried square by square, those of odd quadrants first
    /// (parity), in large solves corners first and X-squares last within
    /// each group ([`Settings::square_classes`]). Fail-soft.
    fn shallow(&mut self, player: u64, opponent: u64, alpha: i32, passed: bool) -> i32 {
        let empty = !(player | opponent);
        match empty.count_ones() {
            0 => return Self::final_score(player, opponent),
            1 => return self.solve_1(player, opponent, empty.trailing_zeros() as u8),
            2 => {
                let x1 = empty.trailing_zeros() as u8;
                let x2 = (63 - empty.leading_zeros()) as u8;
                return self.solve_2(player, opponent, alpha, x1, x2);
            }
            3 => return self.solve_3(player, opponent, alpha, empty, passed),
            4 => return self.solve_4(player, opponent, alpha, empty, passed),
            _ => {}
        }
        // The legal moves first (one vector fill), so that no flips are
        // computed for squares that are no move: FFO #45, #48, #49, #51 1.6%
        // faster (6 paired runs), same tree. At 4 empties or fewer the
        // squares are tried directly (no faster there).
        self.shallow_known_moves(
            player,
            opponent,
            legal_moves(player, opponent),
            alpha,
            passed,
        )
    }

    /// [`Self::shallow`] of a node whose legal moves `moves` are known (a
    /// parent that ranked its moves by their replies found them): the one
    /// place that says which shallow search a node of so many empties takes.
    #[inline(always)]
    fn shallow_known_moves(
        &mut self,
        player: u64,
        opponent: u64,
        moves: u64,
        alpha: i32,
        passed: bool,
    ) -> i32 {
        match (!(player | opponent)).count_ones() {
            0..=4 => self.shallow(player, opponent, alpha, passed),
            SHALLOW.. if self.settings.fastest_first_at_shallow => {
                self.shallow_fastest_first(player, opponent, moves, alpha, passed)
            }
            _ => self.shallow_with_moves(player, opponent, moves, alpha, passed),
        }
    }

    /// What a node of the shallow search does before its moves, `moves`
    /// being its legal moves: it counts itself, tries the stability cutoff,
    /// and with no move passes or ends the game. `Some(score)` when that
    /// settles the node.
    #[inline(always)]
    fn shallow_settled(
        &mut self,
        player: u64,
        opponent: u64,
        moves: u64,
        alpha: i32,
        passed: bool,
    ) -> Option<i32> {
        self.nodes += 1;
        if let Some(upper) = self.stability_bound(&Board::new(player, opponent), alpha)
            && upper <= alpha
        {
            return Some(upper);
        }
        if moves == 0 {
            if passed {
                // Neither side can move: the game is over.
                return Some(Self::final_score(player, opponent));
            }
            return Some(-self.shallow(opponent, player, -alpha - 1, true));
        }
        None
    }

    /// [`Self::shallow`] at 5 or 6 empties, with `moves` the legal moves
    /// (a parent that ranked its moves by their replies found them already).
    fn shallow_with_moves(
        &mut self,
        player: u64,
        opponent: u64,
        moves: u64,
        alpha: i32,
        passed: bool,
    ) -> i32 {
        if let Some(score) = self.shallow_settled(player, opponent, moves, alpha, passed) {
            return score;
        }
        let odd = odd_quadrants(!(player | opponent));
        let classes = if self.settings.square_classes {
            [
                moves & odd & CORNERS,
                moves & odd & !CORNERS & !X_SQUARES,
                moves & odd & X_SQUARES,
                moves & !odd & CORNERS,
                moves & !odd & !CORNERS & !X_SQUARES,
                moves & !odd & X_SQUARES,
            ]
        } else {
            [moves & odd, moves & !odd, 0, 0, 0, 0]
        };
        let mut best = -INF;
        for class in classes {
            for x in Bits(class) {
                let f = flips(player, opponent, x);
                let score =
                    -self.shallow(opponent ^ f, player ^ f ^ (1u64 << x), -alpha - 1, false);
                if score > best {
                    best = score;
                    if score > alpha {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// [`Self::shallow`] at 6 and 7 empties ([`LARGE_SHALLOW`]) in large
    /// solves, `moves` being the legal moves: the moves ranked fastest first
    /// by the replies they leave (corner replies weighted) and parity, the
    /// weights of [`Settings::order`], without the table. The replies,
    /// once found, are passed on to the child's search. At 6 empties,
    /// against parity and square classes (the table still from 7): FFO #45,
    /// #48, #49, #51 6.9% fewer nodes, 0.6-1.8% faster (4 of 4 paired runs);
    /// #50, #52 5.4% fewer, 0.1-1.9% faster (2 of 2); #53 13.9% fewer,
    /// 2.1-4.7% faster (2 of 2); FFO #45 under reversed rules
    /// 0.9% fewer, 0.4-3.0% faster (2 of 2). Ranking by potential mobility
    /// instead of replies (no move generation): 3.1% fewer nodes, no faster;
    /// with every feature of [`Self::order`] (potential mobility,
    /// corner-stable discs, square values) 7.4% fewer, less faster (0.6%,
    /// 0.8%). Searching 6-empty nodes through the table code, unprobed: as
    /// many nodes saved, no faster. Corner replies at 0, 48 or 192 (for 96),
    /// parity at 0, 8 or 32 (for 16): within 0.5% of the nodes. The same
    /// order at 5 empties too: 0.2% fewer nodes, no faster.
    #[inline(never)]
    fn shallow_fastest_first(
        &mut self,
        player: u64,
        opponent: u64,
        moves: u64,
        alpha: i32,
        passed: bool,
    ) -> i32 {
        if let Some(score) = self.shallow_settled(player, opponent, moves, alpha, passed) {
            return score;
        }
        let empty = !(player | opponent);
        let odd = odd_quadrants(empty);
        let w = self.settings.order;
        // At most one move per empty square; each with its ordering key and
        // its child (mover, opponent, the mover's moves).
        let mut keys = [0i32; LARGE_SHALLOW as usize];
        let mut children = [(0u64, 0u64, 0u64); LARGE_SHALLOW as usize];
        let mut n = 0;
        for x in Bits(moves) {
            let f = flips(player, opponent, x);
            let (p, o) = (opponent ^ f, player ^ f ^ (1u64 << x));
            let replies = legal_moves(p, o);
            keys[n] = w.replies_and_parity(replies, x, odd);
            children[n] = (p, o, replies);
            n += 1;
        }
        let mut best = -INF;
        while n > 0 {
            // The best-ranked move left (on ties the first found).
            let mut b = 0;
            for i in 1..n {
                if keys[i] > keys[b] {
                    b = i;
                }
            }
            let (p, o, replies) = children[b];
            n -= 1;
            keys[b] = keys[n];
            children[b] = children[n];
            let score = -self.shallow_known_moves(p, o, replies, -alpha - 1, false);
            if score > best {
                best = score;
                if score > alpha {
                    return best;
                }
            }
        }
        best
    }

    /// Null-window search: is the score above `alpha`? Fail-soft.
    /// `expect_cut`: whether the node is expected to fail high, on its first
    /// move (a guess that only decides which table lines are loaded early).
    #[inline]
    fn nws(&mut self, board: Board, alpha: i32, passed: bool, expect_cut: bool) -> i32 {
        if board.empties() <= self.settings.shallow_empties {
            return self.shallow(board.player, board.opponent, alpha, passed);
        }
        self.nws_table(
            board,
            self.key(&board),
            board.moves(),
            alpha,
            passed,
            expect_cut,
        )
    }

    /// [`Self::nws`] of the move `item` of a node with `empties` empties: the
    /// child's hash key was computed when the moves were ordered.
    #[inline]
    fn nws_child(&mut self, item: &Item, empties: u32, alpha: i32, expect_cut: bool) -> i32 {
        if !self.children_use_table(empties) {
            let child = &item.child;
            return self.shallow_known_moves(
                child.player,
                child.opponent,
                item.replies,
                alpha,
                false,
            );
        }
        self.nws_table(
            item.child,
            item.child_key,
            item.replies,
            alpha,
            false,
            expect_cut,
        )
    }

    /// [`Self::nws`] far enough from the end to use the table; `key` is
    /// `board`'s hash key and `moves` its moves (a parent computes both when
    /// it orders its moves, so that the child does not again).
    fn nws_table(
        &mut self,
        board: Board,
        key: u64,
        moves: u64,
        alpha: i32,
        passed: bool,
        expect_cut: bool,
    ) -> i32 {
        let empties = board.empties();
        // Where no evaluation search ranks the moves, they are ranked before
        // the table is asked (see below).
        let ordered_early = empties < EVAL_ORDER_EMPTIES && moves != 0;
        if ordered_early {
            // The parent loaded this node's bucket while ranking its moves,
            // but the subtrees of the siblings searched since may have pushed
            // it out again (a non-temporal prefetch fills the first cache
            // level only). Asked again here, it costs next to nothing if it
            // is still there and otherwise arrives during the ordering below:
            // FFO #45, #48, #49, #51 1.0% faster (6 of 6 paired runs), same
            // tree. The parent's prefetches still pay with it: leaving them
            // out below the ETC depth 5% slower, only the best-ranked child's
            // at every node 2% slower.
            self.tt.prefetch(key);
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let approximations = self.approximations;

        // Stability cutoff: discs that can never be lost bound the score.
        if let Some(upper) = self.stability_bound(&board, alpha)
            && upper <= alpha
        {
            return upper;
        }

        // Near the end (no evaluation search) the moves are ordered before
        // the table is asked: the probe's wait for memory overlaps the
        // ordering, and a hash move only moves to the front afterwards. Same
        // tree; below the ETC depth FFO #45, #48, #49, #51 1.5% faster over
        // 12 paired runs (8 of 12), though a table cutoff now wastes the
        // ordering; at the ETC nodes of 11-13 empties too, once nodes asked
        // again for their own bucket (above), another 0.7% (6 of 6), FFO
        // #50, #52 0.4% (4 of 4). Probing first and searching a hash move
        // before the other moves are ranked: 1.8% slower (6 of 6).
        let slot = list_slot(empties, passed);
        if ordered_early {
            self.order(&board, moves, NO_MOVE, slot, !expect_cut);
            if self.aborted {
                return 0;
            }
        }
        let mut hash_move = NO_MOVE;
        if let Some(hit) = self.tt.probe(key) {
            // A midgame search's best move is a poor first try for a
            // null-window solve (fastest-first does better); only moves of
            // searches to the end, selective ones too, are trusted here.
            if hit.level != DEPTH_LIMITED {
                hash_move = hit.mv;
            }
            if hit.level >= self.level
                && let Some(score) = hit.cutoff(alpha * DISC, (alpha + 1) * DISC)
            {
                if hit.level != EXACT {
                    self.approximations += 1;
                }
                return score / DISC;
            }
        }

        if self.level != EXACT
            && empties >= PROBCUT_EMPTIES
            && let Some(score) = self.probcut(&board, alpha, empties)
        {
            self.approximations += 1;
            return score;
        }

        if moves == 0 {
            if passed {
                return Self::final_score(board.player, board.opponent);
            }
            // The pass is the only move: its position fails the other way.
            return -self.nws(board.pass(), -alpha - 1, true, !expect_cut);
        }

        // A hash move is tried first whatever the evaluation searches say,
        // and it nearly always cuts: they wait until it has failed to. (With
        // moves to play, a node not ordered early is one those searches rank.)
        let mut evaluate_later = self.settings.evaluate_after_hash_move
            && !ordered_early
            && hash_move != NO_MOVE
            && moves & (1u64 << hash_move) != 0;
        if ordered_early {
            if let Some(child_key) = self.lists[slot].promote(hash_move)
                && self.children_use_table(empties)
            {
                // Ranked first now, so loaded first (see `order`).
                self.tt.prefetch(child_key);
            }
        } else if evaluate_later {
            self.order_by_features(&board, moves, hash_move, slot, !expect_cut);
        } else {
            self.order(&board, moves, hash_move, slot, !expect_cut);
            if self.aborted {
                // The ranking may be unfinished: nothing is stored.
                return 0;
            }
        }
        // Enhanced transposition cutoff: a child already known to be bad enough
        // for the opponent refutes this node without searching (in large
        // solves only at nodes expected to cut: elsewhere it almost never
        // cuts).
        let etc = if empties >= self.settings.etc_empties
            && (expect_cut || self.settings.etc_where_all_expected)
        {
            self.lists[slot].len
        } else {
            0
        };
        for i in 0..etc {
            let item = self.lists[slot].items[i];
            if let Some(hit) = self.tt.probe(item.child_key)
                && hit.level >= self.level
                && hit.upper != NO_UPPER
                && -(hit.upper / DISC) > alpha
            {
                if hit.level != EXACT {
                    self.approximations += 1;
                }
                let score = -(hit.upper / DISC);
                self.store(
                    key,
                    empties,
                    score,
                    alpha,
                    alpha + 1,
                    item.square,
                    approximations,
                );
                return score;
            }
        }

        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut searched = 0;
        while let Some(item) = self.lists[slot].next() {
            if searched == 1 && expect_cut {
                self.prefetch_unsearched(&item, slot, empties);
            }
            // A node that cuts does so on its first move, whose reply then
            // searches all its moves; past that move this node searches them
            // all, and each reply is expected to cut.
            let child_cut = searched > 0 || !expect_cut;
            searched += 1;
            let score = -self.nws_child(&item, empties, -alpha - 1, child_cut);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = item.square;
                if score > alpha {
                    break;
                }
            }
            if evaluate_later {
                evaluate_later = false;
                self.rank_by_evaluation(&board, slot);
                if self.aborted {
                    return 0;
                }
            }
        }
        self.store(
            key,
            empties,
            best,
            alpha,
            alpha + 1,
            best_move,
            approximations,
        );
        best
    }

    /// Principal-variation search: the exact score inside `(alpha, beta)`.
    fn pvs(&mut self, board: Board, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        if beta - alpha <= 1 {
            return self.nws(board, alpha, passed, true);
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let empties = board.empties();
        if empties == 0 {
            return Self::final_score(board.player, board.opponent);
        }
        let moves = board.moves();
        if moves == 0 {
            if passed {
                return Self::final_score(board.player, board.opponent);
            }
            return -self.pvs(board.pass(), -beta, -alpha, true);
        }
        if empties == 1 {
            let x = board.empty().trailing_zeros() as u8;
            return self.solve_1(board.player, board.opponent, x);
        }
        let key = self.key(&board);
        let hash_move = self.tt.probe(key).map_or(NO_MOVE, |h| h.mv);
        let alpha_in = alpha;
        let approximations = self.approximations;
        let slot = list_slot(empties, passed);
        self.order(&board, moves, hash_move, slot, false);
        if self.aborted {
            return 0;
        }
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut searched = 0;
        while let Some(item) = self.lists[slot].next() {
            let first = searched == 0;
            if searched == 1 {
                self.prefetch_unsearched(&item, slot, empties);
            }
            searched += 1;
            let score = if first {
                -self.pvs(item.child, -beta, -alpha, false)
            } else {
                let s = -self.nws(item.child, -alpha - 1, false, true);
                if s > alpha && s < beta && !self.aborted {
                    -self.pvs(item.child, -beta, -alpha, false)
                } else {
                    s
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = item.square;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.store(
            key,
            empties,
            best,
            alpha_in,
            beta,
            best_move,
            approximations,
        );
        best
    }

    /// Probable cutoff: a shallow evaluation search far beyond the null
    /// window `(alpha, alpha + 1)`, by `z` standard errors of such searches
    /// against exact scores, very probably means the solve fails the same way.
    /// Only selective passes use it.
    fn probcut(&mut self, board: &Board, alpha: i32, empties: u32) -> Option<i32> {
        let z = SELECTIVE_Z[usize::from(self.level) - 1];
        let (depth, sigma) = probcut_search::<REVERSED>(empties);
        let margin = (z * sigma * f64::from(DISC)) as i32;
        let high = (alpha + 1) * DISC + margin;
        let low = alpha * DISC - margin;
        let estimate = self.eval.evaluate(&Othello(*board));
        if depth == 0 {
            return if estimate >= high {
                Some(alpha + 1)
            } else if estimate <= low {
                Some(alpha)
            } else {
                None
            };
        }
        // The deeper search costs hundreds of nodes: only where the
        // evaluation alone makes the cut plausible.
        let slack = (probcut_search::<REVERSED>(PROBCUT_SLACK_EMPTIES).1 * f64::from(DISC)) as i32;
        if high <= 64 * DISC
            && estimate >= high - slack
            && self.mid_nws(*board, depth, high - 1, false) >= high
        {
            return Some(alpha + 1);
        }
        if low >= -64 * DISC
            && estimate <= low + slack
            && self.mid_nws(*board, depth, low, false) <= low
        {
            return Some(alpha);
        }
        None
    }

    /// Null-window alpha-beta over the evaluation, `depth` plies deep, with
    /// the table: is the value above `alpha` (in [`DISC`] units)? Fail-soft.
    fn mid_nws(&mut self, board: Board, depth: u32, alpha: i32, passed: bool) -> i32 {
        if depth == 0 {
            return self.eval.evaluate(&Othello(board));
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let moves = board.moves();
        if moves == 0 {
            if passed {
                return Self::final_score(board.player, board.opponent) * DISC;
            }
            return -self.mid_nws(board.pass(), depth, -alpha - 1, true);
        }
        let key = self.key(&board);
        let mut hash_move = NO_MOVE;
        if let Some(hit) = self.tt.probe(key) {
            hash_move = hit.mv;
            if (hit.level != DEPTH_LIMITED || u32::from(hit.depth) >= depth)
                && let Some(score) = hit.cutoff(alpha, alpha + 1)
            {
                return score;
            }
        }
        let slot = list_slot(depth, passed);
        if self.mid_lists.len() <= slot {
            self.mid_lists.resize_with(slot + 1, MoveList::default);
        }
        self.mid_lists[slot].len = 0;
        for x in Bits(moves) {
            let child = board.play_unchecked(Square::new(x).expect("bit index"));
            let key = if x == hash_move {
                i32::MAX
            } else if depth >= 2 {
                -self.eval.evaluate(&Othello(child))
            } else {
                0
            };
            self.mid_lists[slot].push(Item {
                square: x,
                child,
                child_key: 0,
                key,
                replies: 0,
            });
        }
        let mut best = -INF * DISC;
        let mut best_move = NO_MOVE;
        while let Some(item) = self.mid_lists[slot].next() {
            let score = -self.mid_nws(item.child, depth - 1, -alpha - 1, false);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = item.square;
                if score > alpha {
                    break;
                }
            }
        }
        let (lower, upper) = bounds(best, alpha, alpha + 1);
        self.tt
            .store(key, depth as u8, DEPTH_LIMITED, lower, upper, best_move);
        best
    }

    /// Records in the table what a search of window `(alpha, beta)` that
    /// returned `best` proved, in the table's units: as exact when nothing
    /// approximate was used since the count was `approximations`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        key: u64,
        empties: u32,
        best: i32,
        alpha: i32,
        beta: i32,
        mv: u8,
        approximations: u64,
    ) {
        let (lower, upper) = bounds(best * DISC, alpha * DISC, beta * DISC);
        let level = if self.approximations == approximations {
            EXACT
        } else {
            self.level
        };
        self.tt.store(key, empties as u8, level, lower, upper, mv);
    }

    /// An upper bound on the score from the discs that can never change colour,
    /// computed only when it might be low enough to cut. Where it pays
    /// depends on the position: on FFO #48 (+28) it was computed at 8.4 M of
    /// the 65 M nodes and cut at 3.9 M of them, 40% of the nodes of 5 and 7
    /// empties; on FFO #53 (-2) it cut at under 1% of the nodes of 8-13
    /// empties.
    #[inline(always)]
    fn stability_bound(&self, board: &Board, alpha: i32) -> Option<i32> {
        // Standard rules: the opponent keeps its stable discs; reversed rules:
        // the side to move is stuck with its own.
        let (burden_side, other) = if REVERSED {
            (board.player, board.opponent)
        } else {
            (board.opponent, board.player)
        };
        // Without a corner, stable discs are rare (only on full lines): not
        // worth the look. Skipping a cutoff never changes a result. Looking
        // only when alpha >= 0 in large solves (Edax gates the test by
        // alpha too): FFO #45, #48, #49, #51 +0.6% nodes, 0.2% and 2.7%
        // faster in 2 paired runs, within noise.
        if 64 - 2 * (burden_side.count_ones() as i32) > alpha || burden_side & CORNERS == 0 {
            return None;
        }
        // It cuts when 64 - 2 * stable <= alpha.
        let needed = ((65 - alpha) / 2).max(0) as u32;
        Self::stable_bound(burden_side, other, needed)
    }

    /// The bound itself, out of line: the test above, inlined into every
    /// caller, turns most nodes away without a call (FFO #45, #48, #49, #51:
    /// 1.2% faster, 6 paired runs). `None` when fewer than `needed` discs can
    /// be stable, found after one step of the test: it could not cut (same
    /// tree; FFO #45, #48, #49, #51 0.9% faster, 5 of 6 paired runs, then
    /// 0.3%, 4 of 4; FFO #50, #52 0.7%, 3 of 4).
    #[inline(never)]
    fn stable_bound(burden_side: u64, other: u64, needed: u32) -> Option<i32> {
        stable_discs_at_least(burden_side, other, needed).map(|s| 64 - 2 * s.count_ones() as i32)
    }

    /// Fills list `slot` with the moves of `board` and their children, keyed
    /// best first: the hash move, then by a shallow evaluation search far from
    /// the end, else fastest first. If a limit strikes during an evaluation
    /// search ([`Self::aborted`]), some keys lack it: callers check.
    /// `expect_all`: the node is expected to search every move.
    fn order(&mut self, board: &Board, moves: u64, hash_move: u8, slot: usize, expect_all: bool) {
        self.order_by_features(board, moves, hash_move, slot, expect_all);
        if board.empties() >= EVAL_ORDER_EMPTIES {
            self.rank_by_evaluation(board, slot);
        }
    }

    /// [`Self::order`] without the evaluation searches: the moves keyed by
    /// their features alone (the hash move first), for a node that runs
    /// those searches later, if at all ([`Self::rank_by_evaluation`]).
    fn order_by_features(
        &mut self,
        board: &Board,
        moves: u64,
        hash_move: u8,
        slot: usize,
        expect_all: bool,
    ) {
        if self.lists.len() <= slot {
            self.lists.resize_with(slot + 1, MoveList::default);
        }
        self.lists[slot].len = 0;
        let empties = board.empties();
        let odd = odd_quadrants(board.empty());
        let w = self.settings.order;
        // Children that will probe the table have their buckets loaded now:
        // all of them where ETC probes them all at once, or where every move
        // is expected to be searched; nearer the end, at a node expected to
        // cut, only each child that ranks best so far (2.2 a node at 9
        // empties on FFO #45), as such nodes nearly always cut on their
        // first move and this machine keeps only a few misses in flight: a
        // burst of prefetches stalls on the later ones. The rest follow if
        // the first move fails to cut ([`Self::prefetch_unsearched`]). FFO
        // #45, #48, #49, #51, same tree: best so far at every node 1.5%
        // faster over 6 paired runs (6 of 6); all children at nodes expected
        // to search them all another 0.8-1.1% (6 of 6, 9 of 12). Ranking the
        // moves of nodes expected to search them all by their replies alone
        // (corners weighted), as their order rarely matters: +0.3% nodes,
        // the same time (6 paired runs): the features cost little beside
        // the memory waits. On an AMD EPYC VM later, every child's line at
        // every node, or `prefetcht0` rather than `prefetchnta`: within
        // noise (2 paired runs each); where all are loaded, every child's
        // line asked for before any move is ranked (a first pass over the
        // moves): 0.9-1.3% slower (2 paired runs). At nodes of 8 empties
        // in large solves (children without the table), every move ranked
        // by its replies and parity alone, as one empty nearer the end: FFO
        // #45, #48, #49, #51 +0.7% nodes; FFO #40-42, #44, #47 +0.4% nodes
        // and 1.25% fewer instructions; no faster in 3 paired runs.
        let uses_table = self.children_use_table(empties);
        let prefetch_all = empties >= self.settings.etc_empties || expect_all;
        let mut best_key = i32::MIN;
        for x in Bits(moves) {
            let sq = Square::new(x).expect("bit index");
            let child = board.play_unchecked(sq);
            let child_key = if uses_table {
                let key = self.key(&child);
                if prefetch_all {
                    self.tt.prefetch(key);
                }
                key
            } else {
                0
            };
            // The child's search needs its moves too: computed once here.
            let replies = child.moves();
            let key = if x == hash_move {
                i32::MAX
            } else {
                // Fastest first: few replies (corners count more), few
                // squares the opponent may reach later, the odd regions;
                // in large solves also corner-stable discs and good squares.
                w.replies_and_parity(replies, x, odd)
                    - potential_moves(child.opponent, child.empty()).count_ones() as i32
                        * w.potential
                    + corner_discs(child.opponent).count_ones() as i32 * w.corner_stable
                    + SQUARE_VALUE[usize::from(x)] * w.square
            };
            if uses_table && !prefetch_all && key > best_key {
                best_key = key;
                self.tt.prefetch(child_key);
            }
            self.lists[slot].push(Item {
                square: x,
                child,
                child_key,
                key,
                replies,
            });
        }
    }

    /// Far from the end: adds to the key of every move left in list `slot`
    /// (but a hash move's) the value of a shallow evaluation search of its
    /// child. If a limit strikes meanwhile ([`Self::aborted`]), some keys
    /// stay without it: callers check.
    ///
    /// Each search has the full window. Edax's bounded one (a move worse than
    /// the node's alpha by some margin is only known to be that bad) was
    /// measured in large solves, under cachegrind with a 64 MB table: FFO
    /// #40-42, #44, #47 1.2%, 0.9% and 0.6% fewer instructions with margins
    /// of 4, 8 and 12 discs, FFO #48 0.8% more with 4 (3.2% more nodes) and
    /// 0.1% and 0.4% fewer with 8 and 16. Nodes: FFO #45, #48, #49, #51
    /// +0.2% and -0.3% with 4 and 8 (+0.5% with 0), #53 -0.2% with 8 (+1.0%
    /// with 2). The ordering searches are only 1-4% of the nodes (FFO #45,
    /// #50, #53): not taken.
    fn rank_by_evaluation(&mut self, board: &Board, slot: usize) {
        let empties = board.empties();
        let depth = sort_depth(empties);
        let weight = if empties >= FAR_VALUE_EMPTIES {
            W_VALUE_FAR
        } else {
            self.settings.order.value
        };
        let indices = self.indices(board);
        let before = self.nodes;
        for i in 0..self.lists[slot].len {
            let item = self.lists[slot].items[i];
            if item.key == i32::MAX {
                continue;
            }
            let child_indices = self.child_indices(&indices, board, &item.child, item.square);
            let value =
                -self.midgame(item.child, &child_indices, depth, -INF * DISC, INF * DISC) / DISC;
            if self.aborted {
                break;
            }
            self.lists[slot].items[i].key += value * weight;
        }
        self.ordering_nodes += self.nodes - before;
    }

    /// Loads the buckets of the children `order` did not prefetch, once the
    /// first move of a node (`empties` empties, moves in list `slot`) failed
    /// to cut: `item`, taken next, and the moves still in the list.
    #[inline]
    fn prefetch_unsearched(&self, item: &Item, slot: usize, empties: u32) {
        if self.children_use_table(empties) && empties < self.settings.etc_empties {
            self.tt.prefetch(item.child_key);
            let list = &self.lists[slot];
            for rest in &list.items[..list.len] {
                self.tt.prefetch(rest.child_key);
            }
        }
    }

    /// The pattern indices of `board`, read off the board (none when the
    /// evaluation does not read them).
    #[inline]
    fn indices(&self, board: &Board) -> Indices {
        if self.indexed {
            self.direct.indices(board.player, board.opponent)
        } else {
            Indices::ZERO
        }
    }

    /// The pattern indices of `child`, the position after move `x` from
    /// `board`, from those of `board`.
    #[inline]
    fn child_indices(&self, indices: &Indices, board: &Board, child: &Board, x: u8) -> Indices {
        if self.indexed {
            // The mover's discs after the move: the parent's, the new disc
            // and the flipped ones.
            self.direct
                .after_move(indices, x, child.opponent & board.opponent)
        } else {
            Indices::ZERO
        }
    }

    /// A small alpha-beta over the evaluation (no table), for move ordering.
    /// It watches the budget too: far from the end one ordering searches
    /// thousands of nodes (up to 14 ms measured at 25-29 empties).
    /// `indices` are `board`'s pattern indices (when the evaluation reads
    /// them).
    fn midgame(
        &mut self,
        board: Board,
        indices: &Indices,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            return self.eval.evaluate_indexed(&Othello(board), indices);
        }
        if self.out_of_budget() {
            return 0;
        }
        let moves = board.moves();
        if moves == 0 {
            if board.opponent_moves() == 0 {
                return Self::final_score(board.player, board.opponent) * DISC;
            }
            return -self.midgame(board.pass(), &indices.after_pass(), depth, -beta, -alpha);
        }
        let mut best = -INF * DISC;
        for x in Bits(moves) {
            self.nodes += 1;
            let child = board.play_unchecked(Square::new(x).expect("bit index"));
            let child_indices = self.child_indices(indices, &board, &child, x);
            let score = -self.midgame(child, &child_indices, depth - 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The exact score of `board` within `(alpha, beta)` (fail-soft outside).
    pub fn solve(&mut self, board: Board, alpha: i32, beta: i32) -> i32 {
        self.settings_for_root(&board);
        self.solve_with_settings(board, alpha, beta)
    }

    /// [`Self::solve`] under the settings the solver has now.
    fn solve_with_settings(&mut self, board: Board, alpha: i32, beta: i32) -> i32 {
        if board.empties() < LARGE_SOLVE_EMPTIES {
            return self.pvs(board, alpha, beta, false);
        }
        // No score lies beyond +-64: a window reaching past that would make
        // the search prove that every line stays within it, move by move (a
        // won position, 64-0, took 10^4 times the nodes). With the window's
        // edge at 64, a result of 64 fails high and is exact all the same.
        let (alpha, beta) = if alpha.max(-64) < beta.min(64) {
            (alpha.max(-64), beta.min(64))
        } else {
            (alpha, beta)
        };
        if self.level == EXACT && board.empties() >= SELECTIVE_EMPTIES {
            // Selective passes first, each surer than the last: cheap, they
            // leave best moves in the table and a close guess at the score.
            for level in 1..=SELECTIVE_Z.len() as u8 {
                self.level = level;
                self.aspiration(board, -64, 64);
                if self.aborted {
                    self.level = EXACT;
                    return 0;
                }
            }
            self.level = EXACT;
        }
        self.aspiration(board, alpha, beta)
    }

    /// The score of `board` within `(alpha, beta)` at the current level:
    ///
    /// Far from the end the first search has a narrow window around a guess
    /// (aspiration): most scores fall inside it, and a narrow window cuts
    /// more; a score outside it is found again with the window opened on
    /// that side only.
    fn aspiration(&mut self, board: Board, alpha: i32, beta: i32) -> i32 {
        if beta - alpha <= 2 * ASPIRATION_WINDOW {
            return self.pvs(board, alpha, beta, false);
        }
        let guess = self.guess(&board);
        let mut low = (guess - ASPIRATION_WINDOW).max(alpha);
        let mut high = (guess + ASPIRATION_WINDOW).min(beta);
        for attempt in 0.. {
            let score = self.pvs(board, low, high, false);
            log::debug!(
                "solve: level {} window ({low}, {high}): {score}, {} nodes",
                self.level,
                self.nodes
            );
            if self.aborted {
                return 0;
            }
            if attempt == 2 || (score > low || low == alpha) && (score < high || high == beta) {
                return score;
            }
            // Opened on the failing side only; a selective pass can fail on
            // both sides in turn (its cutoffs are not consistent), so the
            // third try takes the whole window.
            (low, high) = match attempt {
                0 if score <= low => (alpha, score + 1),
                0 => (score - 1, beta),
                _ => (alpha, beta),
            };
        }
        unreachable!("the third attempt returns")
    }

    /// A first guess at the score of `board`, for the aspiration window: the
    /// midgame search's score left in the table, else a shallow search.
    fn guess(&mut self, board: &Board) -> i32 {
        if let Some(hit) = self.tt.probe(self.key(board)) {
            let (lower, upper) = (hit.lower, hit.upper);
            let value = match (lower != NO_LOWER, upper != NO_UPPER) {
                (true, true) => Some((lower + upper) / 2),
                (true, false) => Some(lower),
                (false, true) => Some(upper),
                (false, false) => None,
            };
            if let Some(value) = value {
                return (value / DISC).clamp(-64, 64);
            }
        }
        let indices = self.indices(board);
        (self.midgame(*board, &indices, GUESS_DEPTH, -INF * DISC, INF * DISC) / DISC).clamp(-64, 64)
    }

    /// A best move of `board` and its exact score: every move is solved, each
    /// only as far as it must be to show it is not better than the best so far.
    /// `None` when the game is over; a forced pass is `Move::Pass`.
    pub fn best_move(&mut self, board: Board) -> Option<(Move, i32)> {
        let moves = board.moves();
        if moves == 0 {
            if board.opponent_moves() == 0 {
                return None;
            }
            return Some((Move::Pass, -self.solve(board.pass(), -INF, INF)));
        }
        self.settings_for_root(&board);
        let hash_move = self.tt.probe(self.key(&board)).map_or(NO_MOVE, |h| h.mv);
        let slot = list_slot(board.empties(), false);
        self.order(&board, moves, hash_move, slot, false);
        if self.aborted {
            return None;
        }
        let mut best: Option<(Move, i32)> = None;
        while let Some(item) = self.lists[slot].next() {
            let alpha = best.map_or(-INF, |(_, s)| s);
            let score = -self.solve(item.child, -INF, -alpha);
            if self.aborted {
                return best;
            }
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((
                    Move::Play(Square::new(item.square).expect("bit index")),
                    score,
                ));
            }
        }
        best
    }

    /// The principal variation stored in the table from `board`, as far as it goes.
    pub fn pv(&self, board: Board) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut b = board;
        for _ in 0..64 {
            if b.moves() == 0 {
                if b.opponent_moves() == 0 {
                    break;
                }
                pv.push(Move::Pass);
                b = b.pass();
                continue;
            }
            let Some(hit) = self.tt.probe(self.key(&b)) else {
                break;
            };
            let Some(sq) = Square::new(hit.mv) else { break };
            if b.moves() & sq.bit() == 0 {
                break;
            }
            pv.push(Move::Play(sq));
            b = b.play_unchecked(sq);
        }
        pv
    }
}

#[derive(Clone, Copy)]
struct Item {
    square: u8,
    child: Board,
    /// The child's hash key, when it is far enough from the end to use the
    /// table (0 otherwise).
    child_key: u64,
    /// The ordering key: higher is tried first.
    key: i32,
    /// The child's moves (its replies), found when the solver orders the
    /// moves (0 in the lists of the evaluation searches, which do not keep
    /// them).
    replies: u64,
}

/// A fixed-capacity move list (64 holds the moves of any board).
struct MoveList {
    items: [Item; 64],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            items: [Item {
                square: 0,
                child: Board::new(0, 0),
                child_key: 0,
                key: 0,
                replies: 0,
            }; 64],
            len: 0,
        }
    }
}

impl MoveList {
    #[inline]
    fn push(&mut self, item: Item) {
        self.items[self.len] = item;
        self.len += 1;
    }

    /// Puts the move on `square` first, as [`Solver::order`] ranks a hash
    /// move, and gives its child's hash key (no move has [`NO_MOVE`]'s code:
    /// nothing changes then).
    #[inline]
    fn promote(&mut self, square: u8) -> Option<u64> {
        let mut child_key = None;
        for item in &mut self.items[..self.len] {
            if item.square == square {
                item.key = i32::MAX;
                child_key = Some(item.child_key);
            }
        }
        child_key
    }

    /// Takes the remaining item with the highest key.
    #[inline]
    fn next(&mut self) -> Option<Item> {
        if self.len == 0 {
            return None;
        }
        let mut best = 0;
        for i in 1..self.len {
            if self.items[i].key > self.items[best].key {
                best = i;
            }
        }
        let item = self.items[best];
        self.len -= 1;
        self.items[best] = self.items[self.len];
        Some(item)
    }
}

impl<const REVERSED: bool> super::Solvable for Othello<REVERSED> {
    fn solve_exact<E: Evaluator<Self>>(
        state: &Self,
        eval: &E,
        context: &mut super::SolveContext<'_>,
    ) -> Option<(i32, Vec<Move>)> {
        let mut solver = Solver::<REVERSED, E>::new(
            context.tt,
            eval,
            context.stop,
            context.deadline,
            context.node_limit.map(|n| n.saturating_sub(context.nodes)),
            context.salt,
        );
        let score = solver.solve(state.0, -INF, INF);
        context.nodes += solver.nodes;
        context.aborted = solver.aborted;
        let pv = if solver.aborted {
            Vec::new()
        } else {
            solver.pv(state.0)
        };
        Some((score * DISC, pv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::handmade::HandmadeEval;
    use crate::game::Game;
    use crate::obf;
    use crate::rng::Rng;

    fn minimax<const R: bool>(g: &Othello<R>) -> i32 {
        let moves = g.legal_moves();
        if moves.len() == 0 {
            return g.final_score();
        }
        moves.map(|m| -minimax(&g.play_unchecked(m))).max().unwrap()
    }

    fn solve<const R: bool>(board: Board) -> i32
    where
        HandmadeEval<R>: Evaluator<Othello<R>>,
    {
        solve_in_order::<R>(board, false)
    }

    /// [`solve`], with the settings of large solves if `large_order`.
    fn solve_in_order<const R: bool>(board: Board, large_order: bool) -> i32
    where
        HandmadeEval<R>: Evaluator<Othello<R>>,
    {
        let mut tt = TranspositionTable::new(4);
        let stop = AtomicBool::new(false);
        let eval = HandmadeEval::<R>;
        let mut solver = Solver::<R, _>::new(&mut tt, &eval, &stop, None, None, 1);
        if large_order {
            solver.take_large_settings();
        }
        solver.solve(board, -INF, INF)
    }

    /// Every set of three squares comes back whole, squares of odd quadrants
    /// (by the slow count) before the others.
    #[test]
    fn parity_order_of_three_empties() {
        let mut rng = Rng::new(3);
        for _ in 0..2000 {
            let mut empty = 0u64;
            while empty.count_ones() < 3 {
                empty |= 1u64 << (rng.next_u64() % 64);
            }
            let order = parity_order_3(empty);
            let seen = order.iter().fold(0u64, |acc, &x| acc | 1u64 << x);
            assert_eq!(seen, empty, "{empty:#x}");
            let odd = odd_quadrants(empty);
            let is_odd: Vec<bool> = order.iter().map(|&x| odd >> x & 1 == 1).collect();
            assert!(
                is_odd.windows(2).all(|w| w[0] || !w[1]),
                "{empty:#x}: {order:?}"
            );
        }
    }

    /// The folded parities against a count of each quadrant's empty
    /// squares, and the smeared neighbours against a walk of each disc's
    /// eight neighbours, on random sets.
    #[test]
    fn odd_quadrants_and_potential_moves_match_slow_counts() {
        let mut rng = Rng::new(5);
        for _ in 0..20_000 {
            let empty = rng.next_u64() & rng.next_u64();
            let slow = QUADRANTS
                .iter()
                .filter(|&&q| (empty & q).count_ones() % 2 == 1)
                .fold(0, |acc, &q| acc | q);
            assert_eq!(odd_quadrants(empty), slow, "{empty:#x}");
            let discs = rng.next_u64() & !empty;
            let near = Bits(discs).fold(0, |acc, sq| acc | NEIGHBOURS[usize::from(sq)]);
            assert_eq!(potential_moves(discs, empty), near & empty, "{discs:#x}");
        }
    }

    /// Four empties: every square once, odd quadrants first, each group in
    /// ascending order, as the shallow search's loops take them.
    #[test]
    fn parity_order_of_four_empties() {
        let mut rng = Rng::new(4);
        for _ in 0..2000 {
            let mut empty = 0u64;
            while empty.count_ones() < 4 {
                empty |= 1u64 << (rng.next_u64() % 64);
            }
            let odd = odd_quadrants(empty);
            let expected: Vec<u8> = Bits(empty & odd).chain(Bits(empty & !odd)).collect();
            assert_eq!(parity_order_4(empty).to_vec(), expected, "{empty:#x}");
        }
    }

    /// Random endgames with up to 10 empties, both rules, against plain minimax.
    #[test]
    fn matches_minimax_on_small_endgames() {
        let mut rng = Rng::new(2024);
        let mut checked = 0;
        while checked < 120 {
            let mut g = Othello::<false>::start();
            let stop_at = 4 + rng.below(7) as u32;
            while g.empties() > stop_at {
                match rng.legal_move(&g) {
                    Some(m) => g = g.play_unchecked(m),
                    None => break,
                }
            }
            let b = g.0;
            let (standard, reversed) =
                (minimax(&Othello::<false>(b)), minimax(&Othello::<true>(b)));
            assert_eq!(solve::<false>(b), standard, "{b:?}");
            assert_eq!(solve::<true>(b), reversed, "{b:?}");
            // The settings of large solves too (their own search at 6 and 7
            // empties, the table from 8).
            assert_eq!(solve_in_order::<false>(b, true), standard, "{b:?}");
            assert_eq!(solve_in_order::<true>(b, true), reversed, "{b:?}");
            checked += 1;
        }
    }

    /// What a selective pass stores as exact is exact: on random endgames of
    /// 12 to 16 empties, both rules, a selective pass (probable cutoffs from
    /// 7 empties) and then the exact pass on the same table give the score
    /// of an exact solve on a fresh table. A result wrongly stored as exact
    /// would be trusted by the exact pass and could change its answer.
    #[test]
    fn exact_results_of_a_selective_pass_are_exact() {
        fn check<const R: bool, E: Evaluator<Othello<R>>>(eval: &E, b: Board) -> u64 {
            let stop = AtomicBool::new(false);
            let mut tt = TranspositionTable::new(4);
            let exact =
                Solver::<R, E>::new(&mut tt, eval, &stop, None, None, 0).pvs(b, -64, 64, false);
            let mut tt = TranspositionTable::new(4);
            let mut solver = Solver::<R, E>::new(&mut tt, eval, &stop, None, None, 0);
            // Null-window searches at several windows first: later ones
            // lean on the selective entries of earlier ones.
            solver.level = 1;
            for alpha in (-24..24).step_by(3) {
                solver.nws(b, alpha, false, true);
            }
            solver.pvs(b, -64, 64, false);
            let approximations = solver.approximations;
            solver.level = EXACT;
            assert_eq!(solver.pvs(b, -64, 64, false), exact, "reversed {R}: {b:?}");
            approximations
        }
        let evals = crate::eval::Evaluators::default();
        let mut rng = Rng::new(77);
        let mut approximations = 0;
        for _ in 0..60 {
            let mut g = Othello::<false>::start();
            let stop_at = 12 + rng.below(5) as u32;
            while g.empties() > stop_at {
                match rng.legal_move(&g) {
                    Some(m) => g = g.play_unchecked(m),
                    None => break,
                }
            }
            approximations += check::<false, _>(&evals.othello, g.0);
            approximations += check::<true, _>(&evals.reversed, g.0);
        }
        // The test means something only if probable cutoffs happened.
        assert!(approximations > 1000, "{approximations} approximations");
    }

    /// The selective passes before the exact one change the work, never the
    /// score: positions with 22 and 23 empties from real games, both rules,
    /// solved with and without them.
    #[test]
    fn selective_passes_keep_the_exact_score() {
        let file = crate::wthor::read(std::path::Path::new("data/wthor/WTH_2005.wtb")).unwrap();
        let evals = crate::eval::Evaluators::default();
        for (i, game) in file.games.iter().step_by(1000).take(2).enumerate() {
            let Some(b) = calibration::position_of(game, 22 + i as u32) else {
                continue;
            };
            assert!(b.empties() >= SELECTIVE_EMPTIES);
            let (with, without) = with_and_without_selective::<false, _>(&evals.othello, b);
            assert_eq!(with, without, "standard rules {b:?}");
            let (with, without) = with_and_without_selective::<true, _>(&evals.reversed, b);
            assert_eq!(with, without, "reversed rules {b:?}");
        }
    }

    /// Solves of 16 empties or fewer -- every solve of training, whose move
    /// choices make its self-play games -- search as they did when the
    /// committed weights were made: their node counts are pinned here. A
    /// change to them means `orca train` no longer makes those weights, and
    /// they must be made again with it (then the counts here follow).
    #[test]
    fn small_solves_search_as_training_did() {
        let text = include_str!("../../data/obf/fforum-1-19.obf");
        let evals = crate::eval::Evaluators::default();
        let stop = AtomicBool::new(false);
        let mut nodes = Vec::new();
        for problem in obf::parse(text).unwrap().iter().take(4) {
            let b = problem.position.state().0;
            assert!(b.empties() <= 16);
            let mut tt = TranspositionTable::new(4);
            let mut solver = Solver::<false, _>::new(&mut tt, &evals.othello, &stop, None, None, 0);
            solver.best_move(b).unwrap();
            nodes.push(solver.nodes);
            let mut tt = TranspositionTable::new(4);
            let mut solver =
                Solver::<false, _>::new(&mut tt, &HandmadeEval::<false>, &stop, None, None, 0);
            solver.solve(b, -64, 64);
            nodes.push(solver.nodes);
        }
        assert_eq!(
            nodes,
            [42209, 43179, 27723, 32702, 92765, 96854, 101311, 54174]
        );
    }

    /// Large solves take the large settings of their rules, small ones keep
    /// training's.
    #[test]
    fn large_solves_take_the_settings_of_their_rules() {
        let text = include_str!("../../data/obf/fforum-40-59.obf");
        let b = obf::parse(text).unwrap()[0].position.state().0;
        assert!(b.empties() >= LARGE_SOLVE_EMPTIES);
        let stop = AtomicBool::new(false);
        let mut tt = TranspositionTable::new(16);
        let mut solver =
            Solver::<true, _>::new(&mut tt, &HandmadeEval::<true>, &stop, None, None, 0);
        solver.solve(b, -64, 64);
        assert_eq!(solver.settings, REVERSED_LARGE_SETTINGS);
        let mut tt = TranspositionTable::new(16);
        let mut solver =
            Solver::<false, _>::new(&mut tt, &HandmadeEval::<false>, &stop, None, None, 0);
        solver.solve(b, -64, 64);
        assert_eq!(solver.settings, LARGE_SETTINGS);
        // A small solve keeps training's settings.
        let small = obf::parse(include_str!("../../data/obf/fforum-1-19.obf")).unwrap()[0]
            .position
            .state()
            .0;
        assert!(small.empties() < LARGE_SOLVE_EMPTIES);
        let mut tt = TranspositionTable::new(16);
        let mut solver =
            Solver::<false, _>::new(&mut tt, &HandmadeEval::<false>, &stop, None, None, 0);
        solver.solve(small, -64, 64);
        assert_eq!(solver.settings, SMALL_SETTINGS);
    }

    /// Ranking moves by evaluation searches only once a hash move failed to
    /// cut leaves the solve's tree alone and saves ordering nodes.
    #[test]
    fn evaluation_after_the_hash_move_keeps_the_tree() {
        let text = include_str!("../../data/obf/fforum-40-59.obf");
        let evals = crate::eval::Evaluators::default();
        let stop = AtomicBool::new(false);
        // FFO #41-#43: 22 and 23 empties, so the selective passes leave hash
        // moves for the exact one.
        for problem in obf::parse(text).unwrap().iter().skip(1).take(3) {
            let b = problem.position.state().0;
            assert!(b.empties() >= SELECTIVE_EMPTIES);
            let run = |later: bool| {
                let mut tt = TranspositionTable::new(16);
                let mut solver =
                    Solver::<false, _>::new(&mut tt, &evals.othello, &stop, None, None, 0);
                solver.take_large_settings();
                solver.settings.evaluate_after_hash_move = later;
                let score = solver.solve_with_settings(b, -64, 64);
                (
                    score,
                    solver.nodes - solver.ordering_nodes,
                    solver.ordering_nodes,
                )
            };
            let (score, tree, ordering) = run(false);
            let (score_later, tree_later, ordering_later) = run(true);
            assert_eq!(score_later, score);
            assert_eq!(tree_later, tree);
            assert!(ordering_later < ordering, "{ordering_later} {ordering}");
        }
    }

    /// The score of `b` solved with the selective passes, and by the exact
    /// pass alone, each on a fresh table.
    fn with_and_without_selective<const R: bool, E: Evaluator<Othello<R>>>(
        eval: &E,
        b: Board,
    ) -> (i32, i32) {
        let stop = AtomicBool::new(false);
        let mut tt = TranspositionTable::new(16);
        let with = Solver::<R, E>::new(&mut tt, eval, &stop, None, None, 0).solve(b, -64, 64);
        let mut tt = TranspositionTable::new(16);
        let without =
            Solver::<R, E>::new(&mut tt, eval, &stop, None, None, 0).aspiration(b, -64, 64);
        (with, without)
    }

    /// A score of 64 (a wipeout) asked for with a window beyond 64: the
    /// search must not try to prove that no line scores more (which took
    /// over 10^9 nodes before windows were clamped to 64).
    #[test]
    fn windows_beyond_64_cost_nothing_extra() {
        let text = include_str!("../../data/obf/fforum-20-39.obf");
        let problem = &obf::parse(text).unwrap()[19];
        assert_eq!(problem.best_score(), Some(64));
        let b = problem.position.state().0;
        let evals = crate::eval::Evaluators::default();
        let stop = AtomicBool::new(false);
        let mut tt = TranspositionTable::new(16);
        let mut s =
            Solver::<false, _>::new(&mut tt, &evals.othello, &stop, None, Some(20_000_000), 0);
        let score = s.solve(b, -INF, INF);
        assert!(!s.aborted, "over 20 M nodes (5.6 M when measured)");
        assert_eq!(score, 64);
    }

    /// A node limit (as a stop or a deadline) is seen within a few nodes,
    /// even far from the end, where one move ordering alone searches
    /// thousands of nodes: FFO #55, 29 empties, stopped at several limits.
    /// Only the search of the last six empties, which never looks at the
    /// limit, may run on: at most 1 + 6 + 30 + 120 + 360 + 720 + 720 nodes,
    /// twice that with passes.
    #[test]
    fn limits_are_seen_inside_orderings() {
        let text = include_str!("../../data/obf/fforum-40-59.obf");
        let b = obf::parse(text).unwrap()[15].position.state().0;
        assert_eq!(b.empties(), 29);
        let evals = crate::eval::Evaluators::default();
        let stop = AtomicBool::new(false);
        let mut tt = TranspositionTable::new(16);
        for limit in [1, 1_000, 30_000, 1_000_000] {
            tt.clear();
            let mut s =
                Solver::<false, _>::new(&mut tt, &evals.othello, &stop, None, Some(limit), 0);
            s.solve(b, -64, 64);
            assert!(s.aborted);
            assert!(
                s.nodes <= limit + 2 * 1957,
                "{} nodes for a limit of {limit}",
                s.nodes
            );
        }
    }

    /// A search cut short by a limit leaves nothing false in the table, even
    /// when the limit strikes while a node orders its moves: FFO #41 after its
    /// best move H4 (21 empties, exact score 0, moves ordered by two-move
    /// evaluation searches), searched with many small node limits.
    #[test]
    fn aborted_searches_leave_the_table_sound() {
        let text = include_str!("../../data/obf/fforum-40-59.obf");
        let problem = &obf::parse(text).unwrap()[1];
        assert_eq!(problem.best_score(), Some(0));
        let root = problem.position.state().0;
        let b = root.play_unchecked("H4".parse().unwrap());
        assert_eq!(b.empties(), 21);
        let evals = crate::eval::Evaluators::default();
        let stop = AtomicBool::new(false);
        let mut tt = TranspositionTable::new(16);
        for limit in 1..300 {
            tt.clear();
            let mut s =
                Solver::<false, _>::new(&mut tt, &evals.othello, &stop, None, Some(limit), 0);
            for alpha in [-1, 0] {
                s.nws(b, alpha, false, true);
            }
            assert!(s.aborted);
            if let Some(hit) = s.tt.probe(s.key(&b)) {
                assert!(hit.lower <= 0 && 0 <= hit.upper, "limit {limit}: {hit:?}");
            }
        }
    }

    #[test]
    fn ffo_1_to_19_best_scores() {
        let text = include_str!("../../data/obf/fforum-1-19.obf");
        for problem in obf::parse(text).unwrap().iter().take(5) {
            let b = problem.position.state().0;
            assert_eq!(Some(solve::<false>(b)), problem.best_score(), "{problem}");
        }
    }
}

/// The measurement behind the probable-cutoff margins: how far shallow
/// evaluation searches land from the exact score. Run with
/// `cargo test --release calibrate_probcut -- --ignored --nocapture`.
#[cfg(test)]
mod calibration {
    use super::*;
    use crate::eval::Evaluators;

    /// The first position of a recorded game with `empties` empty squares
    /// and a move to play.
    pub(super) fn position_of(game: &crate::wthor::WthorGame, empties: u32) -> Option<Board> {
        game.replay()
            .ok()?
            .positions
            .iter()
            .map(|p| p.state().0)
            .find(|b| b.empties() == empties && b.moves() != 0)
    }

    fn positions(empties: u32, count: usize) -> Vec<Board> {
        let file = crate::wthor::read(std::path::Path::new("data/wthor/WTH_2005.wtb")).unwrap();
        let step = (file.games.len() / count).max(1);
        file.games
            .iter()
            .step_by(step)
            .filter_map(|game| position_of(game, empties))
            .take(count)
            .collect()
    }

    fn measure<const R: bool, E: Evaluator<Othello<R>>>(eval: &E, name: &str) {
        let stop = AtomicBool::new(false);
        for empties in (8..=24).step_by(2) {
            let boards = positions(empties, 80);
            let mut sq = [0.0f64; 7];
            let mut bias = [0.0f64; 7];
            for &board in &boards {
                let mut tt = TranspositionTable::new(64);
                let mut solver = Solver::<R, E>::new(&mut tt, eval, &stop, None, None, 0);
                let exact = f64::from(solver.solve(board, -INF, INF));
                for d in 0..7 {
                    let indices = solver.indices(&board);
                    let v = solver.midgame(board, &indices, d as u32, -INF * DISC, INF * DISC);
                    let err = exact - f64::from(v) / f64::from(DISC);
                    sq[d] += err * err;
                    bias[d] += err;
                }
            }
            let n = boards.len() as f64;
            let sigmas: Vec<String> = (0..7)
                .map(|d| format!("d{d} {:5.2} ({:+.2})", (sq[d] / n).sqrt(), bias[d] / n))
                .collect();
            println!("{name} empties {empties} n {n}: {}", sigmas.join("  "));
        }
    }

    #[test]
    #[ignore = "a measurement, minutes long"]
    fn calibrate_probcut() {
        let evals = Evaluators::default();
        measure::<false, _>(&evals.othello, "othello");
        measure::<true, _>(&evals.reversed, "reversed");
    }
}
