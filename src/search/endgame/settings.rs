//! The solver's tuning: how near the end the table, ETC and the evaluation
//! searches start, and the move-ordering weights, one set for small solves
//! and one per rules for large ones.

use crate::game::bitboard::CORNERS;

/// At or below this many empties small solves search without the table (large
/// ones take [`LARGE_SHALLOW`]): that near the end a probe's memory wait costs
/// about what the table saves. Measurements: `docs/tuning.md`, "The table".
pub(super) const SHALLOW: u32 = 6;

/// [`SHALLOW`] of large solves: their searches without the table rank the
/// moves of nodes of 6 and 7 empties fastest first
/// ([`Solver::shallow_fastest_first`](super::Solver::shallow_fastest_first)),
/// and with that order the table no longer pays at 7 empties.
pub(super) const LARGE_SHALLOW: u32 = 7;

/// At or above this many empties moves are ordered by a shallow search of the
/// evaluation rather than by their features alone; nearer the end those
/// searches save nodes but not time (`docs/tuning.md`, "Move ordering").
pub(super) const EVAL_ORDER_EMPTIES: u32 = 14;

/// At or above this many empties the children are looked up in the table
/// before any is searched (enhanced transposition cutoff); nearer the end the
/// lookups cost more than they save. Small solves; large ones take
/// [`LARGE_ETC_EMPTIES`].
pub(super) const ETC_EMPTIES: u32 = 10;

/// [`ETC_EMPTIES`] of large solves, one later: their nodes below it order
/// their moves while the table line arrives, which pays more there
/// (`docs/tuning.md`, "Enhanced transposition cutoff").
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
    /// Per disc of the mover made stable by a corner
    /// ([`corner_discs`](crate::eval::stability::corner_discs)).
    pub(crate) corner_stable: i32,
    /// Times the [`SQUARE_VALUE`](super::ordering::SQUARE_VALUE) of the move's
    /// square.
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

/// The order of large solves under standard rules (from
/// [`LARGE_SOLVE_EMPTIES`](super::LARGE_SOLVE_EMPTIES)): a move that gives the
/// mover corner-stable discs ranks higher, as in Edax, and so does a good
/// square. Tuned one weight at a time (`docs/tuning.md`, "Move ordering").
/// Under reversed rules corner-stable discs are a burden for their owner:
/// those solves take [`REVERSED_LARGE_ORDER`].
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
/// which count against it) ranks lower.
pub(super) const REVERSED_LARGE_ORDER: OrderWeights = OrderWeights {
    corner_stable: -120,
    ..SMALL_ORDER
};

/// How a solve orders its moves and how near the end it uses the table: one
/// set for small solves (training names its own, frozen), and one per rules for
/// large solves (from [`LARGE_SOLVE_EMPTIES`](super::LARGE_SOLVE_EMPTIES)),
/// which a solve takes at its root
/// ([`Solver::settings_for_root`](super::Solver::settings_for_root)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SolverSettings {
    /// The weights of the fastest-first ranking.
    pub(crate) order: OrderWeights,
    /// Whether the shallow search that ranks no moves (at 5 empties in large
    /// solves) tries, within each parity group, corners first and X-squares last:
    /// large solves under standard rules (under reversed rules it costs nodes).
    pub(crate) square_classes: bool,
    /// From this many empties a node looks its children up in the table
    /// before it searches them (ETC).
    pub(crate) etc_empties: u32,
    /// Whether ETC runs at nodes expected to search all their moves too. There
    /// it almost never cuts, but it waits for every child's table line at once,
    /// so large solves skip it.
    pub(crate) etc_where_all_expected: bool,
    /// Whether the searches without the table rank the moves of nodes of 6
    /// empties or more fastest first
    /// ([`Solver::shallow_fastest_first`](super::Solver::shallow_fastest_first))
    /// rather than by parity and square class alone.
    pub(crate) fastest_first_at_shallow: bool,
    /// The most empties searched without the table.
    pub(crate) shallow_empties: u32,
    /// Whether a null-window node far enough from the end to rank its moves by
    /// evaluation searches ([`EVAL_ORDER_EMPTIES`]) first tries its hash move,
    /// and runs those searches only if that move fails to cut: the same tree,
    /// fewer ordering nodes.
    pub(crate) evaluate_after_hash_move: bool,
}

/// The settings of small solves (under
/// [`LARGE_SOLVE_EMPTIES`](super::LARGE_SOLVE_EMPTIES)). They equal training's
/// frozen [`crate::train::selfplay::SOLVER_SETTINGS`], but only training needs
/// those to stay as they are.
pub(super) const SMALL_SETTINGS: SolverSettings = SolverSettings {
    order: SMALL_ORDER,
    square_classes: false,
    etc_empties: ETC_EMPTIES,
    etc_where_all_expected: true,
    fastest_first_at_shallow: false,
    shallow_empties: SHALLOW,
    evaluate_after_hash_move: false,
};

/// The settings of large solves under standard rules.
pub(super) const LARGE_SETTINGS: SolverSettings = SolverSettings {
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
pub(super) const REVERSED_LARGE_SETTINGS: SolverSettings = SolverSettings {
    order: REVERSED_LARGE_ORDER,
    square_classes: false,
    ..LARGE_SETTINGS
};

/// From this many empties the evaluation search's value counts
/// [`W_VALUE_FAR`] per disc, whatever the order: half the small order's 64, as
/// this far from the end the evaluation errs by 7-9 discs. Only large solves
/// have nodes this far from the end.
pub(super) const FAR_VALUE_EMPTIES: u32 = 17;
pub(super) const W_VALUE_FAR: i32 = 32;
