//! The solver's tuning: how near the end the table, ETC and the evaluation
//! searches start, and the move-ordering weights, one set for small solves
//! and one per rules for large ones.

use crate::game::bitboard::CORNERS;

/// At or below this many empties the solver searches without the table
/// (in small solves; large ones take [`LARGE_SHALLOW`]).
/// Nodes of 7 empties searched in order but without the table: FFO #45,
/// #48, #49, #51 8.6% more nodes in the same time (the probes' memory
/// latency costs about what the table saves there). A separate small table
/// (1-2 MB, so in cache) for nodes of 7 empties, or of 7 and 8: +3.0% and
/// +5.5% nodes, 2-3% slower (4 paired runs each).
pub(super) const SHALLOW: u32 = 6;

/// [`SHALLOW`] of large solves, whose searches without the table rank the moves
/// of nodes of 6 and 7 empties fastest first
/// ([`Solver::shallow_fastest_first`](super::Solver::shallow_fastest_first)): with that order, the table no longer
/// pays at 7 empties. Against 6 (the table from 7): FFO #45, #48, #49, #51
/// +8.5% nodes, 6.3-6.6% faster (2 of 2 paired runs); #50, #52 +7.0%, 1.9-3.8%
/// faster (2 of 2); #53 -7.3% nodes, 13.6-15.0% faster (2 of 2); FFO #45 under
/// reversed rules +7.5%, 2.6-2.8% faster (2 of 2). 8 against 7: +9.4%, +10.2%
/// and +5.9% nodes on those three sets, the same time on the first two, #53 3%
/// faster (2 paired runs each); fforum-40-59 +7.4% nodes, 1.0% faster (497.0 s
/// against 491.9 s, one paired run). Nodes of 7 empties with the table but
/// without ranking (the hash move, then parity and square classes), before
/// 6-empty nodes were ranked: FFO #45, #48, #49, #51 +16% nodes, 5% slower. At
/// 7 empties, the features of [`Solver::order`](super::Solver::order) added to the ranking (potential
/// mobility; also corner-stable discs and square values): within 0.5% of the
/// nodes on the first two sets. 8 against 7 again on an AMD EPYC (Zen 3) VM,
/// with the faster flips and stability test: FFO #40-42, #44, #47 2.3% fewer
/// instructions (cachegrind), fforum-40-59 +7.5% nodes, and in paired runs
/// 598.2 s against 585.4 s, then 587.2 s against 596.6 s with the cores
/// swapped: no gain.
pub(super) const LARGE_SHALLOW: u32 = 7;

/// At or above this many empties moves are ordered by a shallow search of the
/// evaluation rather than by mobility alone. Checked again in large solves
/// once the table started at 8 empties ([`LARGE_SHALLOW`]): from 13, FFO
/// #45, #48, #49, #51 -3.5% nodes, #53 -3.9%, in the same time (+0.3%,
/// -0.1%; #53 -0.4%, -2.4%: 4 paired runs); from 12, -6.9%, #50, #52 -3.8%,
/// no faster (one run). From 13 again once nodes with a hash move ran the
/// evaluation searches only if it failed to cut
/// ([`Settings::evaluate_after_hash_move`]): FFO #45, #48, #49, #51 -3.5%
/// nodes, 0.8% and 3.4% slower (2 paired runs).
pub(super) const EVAL_ORDER_EMPTIES: u32 = 14;

/// At or above this many empties the children are looked up in the table
/// before any is searched (enhanced transposition cutoff); nearer the end the
/// lookups cost more than they save. From 11, 12, 13: FFO #45, #48, #49, #51
/// +0.7%, +1.8%, +2.5% nodes; from 12, 1.3% less time over 6 paired runs,
/// inside this machine's noise. Only at nodes expected to fail high: +1.9%
/// nodes, no faster (later, in large solves, that paid:
/// [`Settings::etc_where_all_expected`]). Small solves (all of training's)
/// keep this; large ones take [`LARGE_ETC_EMPTIES`].
pub(super) const ETC_EMPTIES: u32 = 10;

/// [`ETC_EMPTIES`] of large solves: once the moves of nodes without ETC were
/// ordered before the table probe, starting ETC one empty later paid: FFO
/// #45, #48, #49, #51 +0.65% nodes, 2.7% faster over 12 paired runs (9 of
/// 12); FFO #56 +0.55% nodes, 2.3% faster (4 of 4). Checked again once the
/// table started at 8 empties ([`LARGE_SHALLOW`]): from 10, 12 or 13, FFO
/// #45, #48, #49, #51 -0.6%, +1.2%, +1.8% nodes, #50, #52 -0.3%, +1.7%,
/// +2.0%, and no clear change in time (one run each). Checked once more
/// with ETC only at nodes expected to cut: from 10 or 12 slower.
pub(super) const LARGE_ETC_EMPTIES: u32 = 11;

/// How the moves of a node are ranked for the null-window solve (fastest
/// first): the key of a move, higher tried first, adds these weights times
/// the features of the position it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OrderWeights {
    /// Per reply of the opponent (subtracted).
    pub(crate) mobility: i32,
    /// Per corner among those replies, on top of `mobility` (subtracted).
    pub(crate) corner_reply: i32,
    /// Per empty square next to the mover's discs, where the opponent may
    /// play later (subtracted).
    pub(crate) potential: i32,
    /// For a move into an odd region.
    pub(crate) parity: i32,
    /// Per disc of the mover made stable by a corner ([`corner_discs`](crate::eval::stability::corner_discs)).
    pub(crate) corner_stable: i32,
    /// Times the [`SQUARE_VALUE`](super::ordering::SQUARE_VALUE) of the move's square.
    pub(crate) square: i32,
    /// Per disc of the evaluation search that orders moves from
    /// [`EVAL_ORDER_EMPTIES`] (from [`FAR_VALUE_EMPTIES`]: [`W_VALUE_FAR`]).
    pub(crate) value: i32,
}

impl OrderWeights {
    /// The part of a move's key that every fastest-first ranking shares:
    /// the replies it leaves (corners weighted) and whether its square lies
    /// in an odd region (`odd`).
    #[inline(always)]
    pub(super) fn replies_and_parity(&self, replies: u64, square: u8, odd: u64) -> i32 {
        let mut key = -(replies.count_ones() as i32) * self.mobility
            - ((replies & CORNERS).count_ones() as i32) * self.corner_reply;
        if (1u64 << square) & odd != 0 {
            key += self.parity;
        }
        key
    }
}

/// The order of small solves, measured on FFO #40-44 (nodes searched). The
/// same as training's frozen order ([`crate::train::selfplay::SOLVER_SETTINGS`]).
pub(super) const SMALL_ORDER: OrderWeights = OrderWeights {
    mobility: 64,
    corner_reply: 64,
    potential: 24,
    parity: 16,
    corner_stable: 0,
    square: 0,
    value: 64,
};

/// The order of large solves (from [`LARGE_SOLVE_EMPTIES`](super::LARGE_SOLVE_EMPTIES)), at every node
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
pub(super) const LARGE_ORDER: OrderWeights = OrderWeights {
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
pub(super) const REVERSED_LARGE_ORDER: OrderWeights = OrderWeights {
    corner_stable: -120,
    ..SMALL_ORDER
};

/// How a solve orders its moves and how near the end it uses the table: one
/// set for small solves (training names its own, frozen), and one
/// per rules for large solves (from [`LARGE_SOLVE_EMPTIES`](super::LARGE_SOLVE_EMPTIES)), which a solve
/// takes at its root ([`Solver::settings_for_root`](super::Solver::settings_for_root)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// The weights of the fastest-first ranking.
    pub(crate) order: OrderWeights,
    /// Whether the shallow search that ranks no moves (at 5 empties in
    /// large solves) tries, within each parity group, corners first and
    /// X-squares last: large solves under standard rules. FFO #45, #48, #49, #51: 3.8% fewer nodes, 1.4% faster
    /// (6 paired runs); FFO #53 1.8% fewer nodes; also at 4 empties: 4.3%
    /// fewer nodes but slower per node; every class of square apart
    /// ([`SQUARE_VALUE`](super::ordering::SQUARE_VALUE)'s seven): 3.8%; under reversed rules +0.5% nodes.
    pub(crate) square_classes: bool,
    /// From this many empties a node looks its children up in the table
    /// before it searches them (ETC).
    pub(crate) etc_empties: u32,
    /// Whether ETC runs at nodes expected to search all their moves too.
    /// There it almost never cuts (FFO #45, #48, #49, #51, at 11 empties:
    /// 0.2% of them, against 10% of the nodes expected to cut), but it waits
    /// for every child's table line at once. Large solves skip it there: 0.2%
    /// more nodes, 0.6-3.4% faster (FFO #45, #48, #49, #51 4 of 4 paired
    /// runs, #53 2 of 2, #50 and #52 1 of 2); with ETC then from 10 empties,
    /// 1.8% slower, from 12 +1.2% nodes and 1.5% slower (2 paired runs each).
    pub(crate) etc_where_all_expected: bool,
    /// Whether the searches without the table rank the moves of nodes of 6
    /// empties or more fastest first ([`Solver::shallow_fastest_first`](super::Solver::shallow_fastest_first))
    /// rather than by parity and square class alone.
    pub(crate) fastest_first_at_shallow: bool,
    /// The most empties searched without the table.
    pub(crate) shallow_empties: u32,
    /// Whether a null-window node far enough from the end to rank its moves
    /// by evaluation searches ([`EVAL_ORDER_EMPTIES`]) first tries its hash
    /// move, and runs those searches only if that move fails to cut. The
    /// same tree, fewer ordering nodes: fforum-40-59 -0.85% nodes, 2.0% and
    /// 1.3% faster (2 paired runs, 489.0 s -> 479.3 s, 488.0 s -> 481.7 s).
    /// Nodes expected to search every move then ranking by features alone
    /// (no evaluation searches): FFO #45, #48, #49, #51 +0.1% nodes, 1.0%
    /// faster; #50, #52 +0.6%, 0-1.7% faster; #53 +3.0%, 1.8-2.4% slower
    /// (2 paired runs each); not taken.
    pub(crate) evaluate_after_hash_move: bool,
}

/// The settings of small solves (under [`LARGE_SOLVE_EMPTIES`](super::LARGE_SOLVE_EMPTIES)). They equal
/// training's frozen [`crate::train::selfplay::SOLVER_SETTINGS`], but only
/// training needs those to stay as they are.
pub(super) const SMALL_SETTINGS: Settings = Settings {
    order: SMALL_ORDER,
    square_classes: false,
    etc_empties: ETC_EMPTIES,
    etc_where_all_expected: true,
    fastest_first_at_shallow: false,
    shallow_empties: SHALLOW,
    evaluate_after_hash_move: false,
};

/// The settings of large solves under standard rules.
pub(super) const LARGE_SETTINGS: Settings = Settings {
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
pub(super) const REVERSED_LARGE_SETTINGS: Settings = Settings {
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
pub(super) const FAR_VALUE_EMPTIES: u32 = 17;
pub(super) const W_VALUE_FAR: i32 = 32;
