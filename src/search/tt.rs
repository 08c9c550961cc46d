//! The transposition table: results of earlier searches, found again by hash key.
//!
//! Othello transposes constantly (the same discs arise from many move orders), and
//! iterative deepening re-searches the same tree one ply deeper each time, so the
//! table both saves work and supplies the best move to try first. Entries keep a
//! lower and an upper bound of the value (null-window searches at different
//! windows narrow them in turn), the depth searched, the best move and an age;
//! a bucket of four entries fills one 64-byte cache line.
//!
//! The table is shared by the threads of a parallel search through `&self`,
//! without locks: an entry is two atomic words, its data and its key XOR its
//! data (the lockless hashing of Hyatt and Mann). A reader that sees one word
//! of one store and the other of another finds a key that does not match and
//! takes the entry for absent; a writer racing another may lose an update,
//! never store a wrong one. Relaxed ordering is enough: each word is read and
//! written whole, and the XOR check does the rest.

use std::mem::size_of;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::zeroed::Zeroed;
use crate::game::Square;

/// The move code stored when a node has no best move ([`MoveCode::NONE`]).
pub const NO_MOVE: u8 = MoveCode::NONE.0;

/// A best move as the table holds it: a game's move code
/// ([`Game::move_code`](crate::game::Game::move_code)), or none. One byte,
/// as in an entry.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveCode(u8);

impl MoveCode {
    /// No move: a node without a best move.
    pub const NONE: MoveCode = MoveCode(u8::MAX);

    /// The code of a move (or [`Self::NONE`] for [`NO_MOVE`], as the table's
    /// entries give it).
    #[inline]
    pub const fn new(code: u8) -> MoveCode {
        MoveCode(code)
    }

    /// The code as the table stores it ([`NO_MOVE`] for none).
    #[inline]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// The move's code, if there is a move.
    #[inline]
    pub const fn get(self) -> Option<u8> {
        if self.0 == NO_MOVE {
            None
        } else {
            Some(self.0)
        }
    }

    /// The Othello square of the move: none for no move or a pass.
    #[inline]
    pub const fn square(self) -> Option<Square> {
        Square::new(self.0)
    }
}

/// What is known of a node: its value lies in `lower..=upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The value is at least this (`i16::MIN` when nothing is known).
    pub lower: i32,
    /// The value is at most this (`i16::MAX` when nothing is known).
    pub upper: i32,
    /// Depth of the search that produced it (the empties, for a search to the end).
    pub depth: u8,
    /// The search saw every line to the end of the game: the bounds are exact
    /// knowledge, valid for a request of any depth.
    pub to_end: bool,
    /// What kind of search stored it: [`DEPTH_LIMITED`], a selective search to
    /// the end (`1..EXACT`, higher is surer) or [`EXACT`].
    pub level: u8,
    /// Best move code, or [`NO_MOVE`].
    pub mv: u8,
}

/// The level of a depth-limited (midgame) search's result.
pub const DEPTH_LIMITED: u8 = 0;
/// The level of a search to the end without any probable cutoff: exact bounds.
/// The levels in between belong to selective searches to the end, which cut
/// a subtree when a shallow search says it very probably fails; a higher
/// level cuts less and is surer.
pub const EXACT: u8 = u8::MAX;

/// The smallest storable score: "no lower bound".
pub const NO_LOWER: i32 = i16::MIN as i32;
/// The largest storable score: "no upper bound".
pub const NO_UPPER: i32 = i16::MAX as i32;

impl Hit {
    /// The score to return at once for a search in the window `(alpha, beta)`,
    /// when the stored bounds already decide it.
    #[inline]
    pub fn cutoff(&self, alpha: i32, beta: i32) -> Option<i32> {
        if self.lower >= beta || self.lower == self.upper {
            Some(self.lower)
        } else if self.upper <= alpha {
            Some(self.upper)
        } else {
            None
        }
    }
}

/// The bounds a fail-soft search of window `(alpha, beta)` proved by returning
/// `best`: a lower bound when it failed high, an upper bound when it failed low,
/// the exact value in between.
#[inline]
pub fn bounds(best: i32, alpha: i32, beta: i32) -> (i32, i32) {
    if best >= beta {
        (best, NO_UPPER)
    } else if best > alpha {
        (best, best)
    } else {
        (NO_LOWER, best)
    }
}

/// An entry as read from, or about to be written to, its slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    key: u64,
    lower: i16,
    upper: i16,
    depth: u8,
    mv: u8,
    /// Search generation plus one (0 = empty slot).
    age: u8,
    /// [`DEPTH_LIMITED`], a selective level, or [`EXACT`].
    level: u8,
}

impl Entry {
    /// Everything but the key, in one word.
    #[inline]
    fn data(&self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.depth) << 32
            | u64::from(self.mv) << 40
            | u64::from(self.age) << 48
            | u64::from(self.level) << 56
    }

    /// The entry of `key` whose other fields are `data`.
    #[inline]
    fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            mv: (data >> 40) as u8,
            age: (data >> 48) as u8,
            level: (data >> 56) as u8,
        }
    }

    /// How much work the entry stands for, for replacement.
    fn worth(&self, age: u8) -> i32 {
        let stale = i32::from(age.wrapping_sub(self.age) & 0x7F);
        i32::from(self.depth) - 8 * stale
    }

    /// Whether a result of (`depth`, `level`) is at least as sure as this entry.
    fn covered_by(&self, depth: u8, level: u8) -> bool {
        match level {
            EXACT => true,
            DEPTH_LIMITED => self.level == DEPTH_LIMITED && depth >= self.depth,
            _ => self.level <= level,
        }
    }
}

/// One entry's storage: its key XOR its data, and its data. All zero is an
/// empty slot (age 0), so a table is memory the system hands over zeroed.
#[derive(Debug, Default, bytemuck::Zeroable)]
#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry held, with the key it was stored under as far as this read
    /// can tell: a torn read yields a key no probe asks for.
    #[inline]
    fn load(&self) -> Entry {
        let data = self.data.load(Relaxed);
        Entry::unpack(self.check.load(Relaxed) ^ data, data)
    }

    #[inline]
    fn save(&self, entry: &Entry) {
        let data = entry.data();
        self.data.store(data, Relaxed);
        self.check.store(entry.key ^ data, Relaxed);
    }
}

const BUCKET: usize = 4;

#[derive(Debug, Default, bytemuck::Zeroable)]
#[repr(C, align(64))]
struct Bucket([Slot; BUCKET]);

/// A fixed-size table of [`Hit`]s, sized in megabytes, shared by the threads
/// of a search through `&self`.
pub struct TranspositionTable {
    buckets: Zeroed<Bucket>,
    /// Current search generation plus one, never 0.
    age: u8,
    /// XORed into every key: [`TranspositionTable::forget`] draws a new
    /// one, so that no entry stored before is ever found again (0 for a
    /// fresh or cleared table, which then hashes as the plain keys do).
    salt: u64,
}

/// Ages [`TranspositionTable::forget`] moves on by, so that the forgotten
/// entries look half the age ring old and are replaced first.
const FORGET_AGES: u8 = 64;

fn clamp16(score: i32) -> i16 {
    score.clamp(NO_LOWER, NO_UPPER) as i16
}

/// The memory for a table of the size asked for is not there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The size asked for, in megabytes.
    pub megabytes: usize,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate a {} MB transposition table (not enough memory)",
            self.megabytes
        )
    }
}

impl std::error::Error for TableError {}

impl TranspositionTable {
    /// A table of at most `megabytes` MB (rounded down to a power of two of
    /// buckets, at least one bucket), backed by real memory before this
    /// returns: the size is checked against the memory the machine has
    /// available (an overcommitting kernel would grant any mapping and fail
    /// only when a search touches it), then every page is touched, so that
    /// no search pays for faulting the table in (1 GB: a few tenths of a
    /// second here, spread over the cores).
    ///
    /// # Errors
    /// [`TableError`] when the memory cannot be had: nothing is kept
    /// then, and the process goes on.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, TableError> {
        let error = TableError { megabytes };
        let bytes = megabytes.max(1).checked_mul(1024 * 1024).ok_or(error)?;
        let count = (bytes / size_of::<Bucket>()).max(1);
        let count = 1usize << (usize::BITS - 1 - count.leading_zeros());
        if !super::memory::fits(count * size_of::<Bucket>()) {
            return Err(error);
        }
        let buckets = Zeroed::new(count).ok_or(error)?;
        touch(&buckets);
        Ok(TranspositionTable {
            buckets,
            age: 1,
            salt: 0,
        })
    }

    /// [`TranspositionTable::try_new`] for sizes that cannot fail in
    /// practice (tests, tools' small fixed tables).
    ///
    /// # Panics
    /// When the memory is not there; sizes a user chooses go through
    /// [`TranspositionTable::try_new`].
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::try_new(megabytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }

    /// Forgets everything and is as new: every slot written to zero, so
    /// that what follows is exactly what a fresh table would do (tools and
    /// benchmarks that must be reproducible; a gigabyte takes a tenth of a
    /// second or more). A game's engine uses [`TranspositionTable::forget`].
    pub fn clear(&mut self) {
        for slot in self.buckets.iter_mut().flat_map(|b| b.0.iter_mut()) {
            *slot = Slot::default();
        }
        self.age = 1;
        self.salt = 0;
    }

    /// Forgets everything at once, whatever the size (a new game, whose
    /// first move must not wait for a table to be cleared): a new salt, so
    /// that no stored entry matches a key again (as likely as any other
    /// hash collision), and the age moved on by half its ring, so that the
    /// forgotten entries are the first replaced.
    pub fn forget(&mut self) {
        self.salt = mix(self.salt ^ 0x9E37_79B9_7F4A_7C15) | 1;
        let age = (u32::from(self.age) - 1 + u32::from(FORGET_AGES)) % 0x7F + 1;
        self.age = age as u8;
    }

    /// Marks the start of a new search, so that older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = if self.age >= 0x7F { 1 } else { self.age + 1 };
    }

    /// The key as this table files it (see [`TranspositionTable::salt`]).
    #[inline]
    fn salted(&self, key: u64) -> u64 {
        key ^ self.salt
    }

    /// The bucket of a salted key.
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 32) as usize ^ key as usize) & (self.buckets.len() - 1)
    }

    /// Asks the CPU to start loading the bucket of `key`, so that a probe or
    /// store a little later finds it in cache: a table of hundreds of MB
    /// misses the cache on nearly every probe, and the solver spent most of
    /// its table time waiting for those misses one after another. A hint only:
    /// it never changes what the table holds or returns. Non-temporal: a
    /// bucket is used once or twice, then seldom again, so it should displace
    /// as little as possible of what stays hot (the evaluation's weights, the
    /// move lists).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let bucket: *const Bucket = &self.buckets[self.bucket(self.salted(key))];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching only hints the cache; the address is that of a
        // live bucket and is never dereferenced by the instruction.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_NTA, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_NTA>(bucket.cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket; // No portable prefetch: probes simply wait for memory.
    }

    /// The stored knowledge for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let key = self.salted(key);
        let bucket = &self.buckets[self.bucket(key)];
        bucket
            .0
            .iter()
            .map(Slot::load)
            .find(|e| e.key == key && e.age != 0)
            .map(|e| Hit {
                lower: i32::from(e.lower),
                upper: i32::from(e.upper),
                depth: e.depth,
                to_end: e.level == EXACT,
                level: e.level,
                mv: e.mv,
            })
    }

    /// Stores that the value of `key` lies in `lower..=upper`, found by a search
    /// of `depth` at `level` (a depth-limited, selective or exact search),
    /// with best move `mv`.
    ///
    /// A result as deep as the stored one for the same key narrows the stored
    /// bounds; a deeper one replaces them; a shallower one leaves them alone.
    /// A new key takes an empty slot, else the least valuable entry (oldest, then
    /// shallowest) of its bucket.
    ///
    /// Several threads may store at once: each reads its bucket, decides,
    /// and writes one slot, so a racing store may be lost, never mixed in.
    #[inline]
    pub fn store(&self, key: u64, depth: u8, level: u8, lower: i32, upper: i32, mv: u8) {
        let key = self.salted(key);
        let age = self.age;
        let bucket = &self.buckets[self.bucket(key)];
        let entries: [Entry; BUCKET] = std::array::from_fn(|i| bucket.0[i].load());
        if let Some(i) = entries.iter().position(|e| e.key == key && e.age != 0) {
            let mut e = entries[i];
            let same_depth = e.level == level && e.depth == depth;
            if same_depth {
                let (l, u) = (e.lower.max(clamp16(lower)), e.upper.min(clamp16(upper)));
                if l <= u {
                    (e.lower, e.upper) = (l, u);
                } else {
                    (e.lower, e.upper) = (clamp16(lower), clamp16(upper));
                }
            } else if e.covered_by(depth, level) {
                (e.lower, e.upper) = (clamp16(lower), clamp16(upper));
                e.depth = depth;
                e.level = level;
            }
            // A depth-limited search's move never replaces the move of a
            // search to the end.
            if mv != NO_MOVE && (level != DEPTH_LIMITED || e.level == DEPTH_LIMITED) {
                e.mv = mv;
            }
            e.age = age;
            if e != entries[i] {
                bucket.0[i].save(&e);
            }
            return;
        }
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in entries.iter().enumerate() {
            if e.age == 0 {
                victim = i;
                break;
            }
            let worth = e.worth(age);
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        bucket.0[victim].save(&Entry {
            key,
            lower: clamp16(lower),
            upper: clamp16(upper),
            depth,
            mv,
            age,
            level,
        });
    }

    /// Permille of the sampled entries written by the current search, as UCI's hashfull.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| b.0.iter().filter(|s| s.load().age == self.age).count())
            .sum();
        (used * 1000 / (sample * BUCKET)) as u32
    }
}

/// A 64-bit finaliser (splitmix64's): the salts [`TranspositionTable::forget`]
/// draws one after another.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Smallest page the table's memory may come in: one write in each makes
/// the system back it.
const PAGE: usize = 4096;

/// Writes one zero into every page of `buckets` (zero already: nothing
/// changes but that the memory is then really there), on several threads
/// for a large table.
fn touch(buckets: &[Bucket]) {
    const PER_PAGE: usize = PAGE / size_of::<Bucket>();
    const PER_THREAD: usize = 256 << 20;
    let bytes = size_of_val(buckets);
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(bytes / PER_THREAD)
        .max(1);
    let part = buckets.len().div_ceil(threads);
    let touch_part = |part: &[Bucket]| {
        for bucket in part.iter().step_by(PER_PAGE) {
            bucket.0[0].data.store(0, Relaxed);
        }
    };
    if threads == 1 {
        touch_part(buckets);
        return;
    }
    std::thread::scope(|scope| {
        for chunk in buckets.chunks(part) {
            // A thread the system refuses: that part is touched here.
            if std::thread::Builder::new()
                .spawn_scoped(scope, || touch_part(chunk))
                .is_err()
            {
                touch_part(chunk);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_codes() {
        assert_eq!(size_of::<MoveCode>(), size_of::<u8>());
        assert_eq!(MoveCode::NONE.get(), None);
        assert_eq!(MoveCode::NONE.square(), None);
        assert_eq!(MoveCode::new(NO_MOVE), MoveCode::NONE);
        let d3 = Square::from_coords(3, 2).unwrap();
        let code = MoveCode::new(d3.index());
        assert_eq!((code.get(), code.square()), (Some(d3.index()), Some(d3)));
        assert_eq!(code.raw(), d3.index());
        // Othello's pass (code 64) is a move but no square.
        assert_eq!(MoveCode::new(64).get(), Some(64));
        assert_eq!(MoveCode::new(64).square(), None);
    }

    #[test]
    fn sizes() {
        assert_eq!(size_of::<Slot>(), 16);
        assert_eq!(size_of::<Bucket>(), 64);
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.bytes(), 1024 * 1024);
        assert_eq!(TranspositionTable::new(3).bytes(), 2 * 1024 * 1024);
    }

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        // 2^40 MB is 2^60 bytes: no machine has it, and the size itself is
        // valid, so the allocator is asked and refuses. (`black_box`: a
        // table dropped unused may have its allocation optimised away, and
        // then "succeed".)
        let table = std::hint::black_box(TranspositionTable::try_new(1 << 40));
        assert_eq!(table.err(), Some(TableError { megabytes: 1 << 40 }));
        // So large that the byte count overflows.
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
        let error = TranspositionTable::try_new(usize::MAX / 2)
            .err()
            .expect("too large");
        assert!(error.to_string().contains("not enough memory"), "{error}");
        assert_eq!(TranspositionTable::try_new(2).unwrap().bytes(), 2 << 20);
    }

    #[test]
    fn a_large_table_starts_empty_and_prefetching_changes_nothing() {
        // 8 MB: large enough for whole 2 MB pages to be advised on Linux.
        let tt = TranspositionTable::new(8);
        assert_eq!(tt.bytes(), 8 * 1024 * 1024);
        assert!(
            tt.buckets
                .iter()
                .all(|b| b.0.iter().all(|s| s.load().age == 0))
        );
        let keys: Vec<u64> = (1..=1000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &key in &keys {
            tt.prefetch(key);
            assert_eq!(tt.probe(key), None);
            tt.store(key, 9, EXACT, -4, 6, 12);
        }
        for &key in &keys {
            tt.prefetch(key);
            let hit = tt.probe(key).expect("stored");
            assert_eq!((hit.lower, hit.upper, hit.depth, hit.mv), (-4, 6, 9, 12));
        }
    }

    /// Threads storing and probing the same few buckets at once: every hit
    /// is one whole store of its key, never two stores mixed (the XOR
    /// check), and the lines stored stay findable.
    #[test]
    fn concurrent_stores_never_show_a_torn_entry() {
        let tt = TranspositionTable::new(1);
        let mask = tt.buckets.len() as u64 - 1;
        // 12 keys of bucket 0 (the low bits of the key undo the high half's),
        // 4 slots: stores replace each other all the time.
        let keys: Vec<u64> = (1..=12u64)
            .map(|i| {
                let high = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
                high << 32 | (high & mask)
            })
            .collect();
        assert!(keys.iter().all(|&k| tt.bucket(k) == 0));
        // Each key's value and move follow from it; the depth varies.
        let value = |k: u64| (k >> 32) as i32 % 1000;
        let mv = |k: u64| (k >> 40) as u8 % 64;
        let writers_left = std::sync::atomic::AtomicUsize::new(4);
        let (torn, hits) = std::thread::scope(|scope| {
            for t in 0..4u64 {
                let (tt, keys, writers_left) = (&tt, &keys, &writers_left);
                scope.spawn(move || {
                    let mut x = t + 1;
                    for _ in 0..300_000 {
                        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        let k = keys[(x >> 33) as usize % keys.len()];
                        let v = value(k);
                        tt.store(k, (x >> 50) as u8 % 30, DEPTH_LIMITED, v, v, mv(k));
                    }
                    writers_left.fetch_sub(1, Relaxed);
                });
            }
            let readers: Vec<_> = (0..2)
                .map(|_| {
                    let (tt, keys, writers_left) = (&tt, &keys, &writers_left);
                    scope.spawn(move || {
                        let (mut torn, mut hits) = (0u64, 0u64);
                        while writers_left.load(Relaxed) > 0 {
                            for &k in keys {
                                if let Some(hit) = tt.probe(k) {
                                    hits += 1;
                                    let v = value(k);
                                    if (hit.lower, hit.upper, hit.mv) != (v, v, mv(k)) {
                                        torn += 1;
                                    }
                                }
                            }
                        }
                        (torn, hits)
                    })
                })
                .collect();
            readers
                .into_iter()
                .map(|r| r.join().unwrap())
                .fold((0, 0), |(a, b), (c, d)| (a + c, b + d))
        });
        assert_eq!(torn, 0, "{torn} torn entries among {hits} hits");
        assert!(hits > 0);
        for &k in &keys {
            let v = value(k);
            tt.store(k, 31, DEPTH_LIMITED, v, v, mv(k));
            assert_eq!(tt.probe(k).map(|h| (h.lower, h.mv)), Some((v, mv(k))));
        }
    }

    /// `forget` is a new game in no time: nothing stored before is found
    /// again, the table takes new entries at once (the forgotten ones are
    /// replaced first, however deep), and `clear` after it is as new.
    #[test]
    fn forget_loses_every_entry_at_once() {
        let mut tt = TranspositionTable::new(1);
        let slots = (tt.bytes() / size_of::<Slot>()) as u64;
        let key = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5555;
        for i in 0..slots {
            tt.store(key(i), 60, EXACT, 1, 1, 3);
        }
        let before = (0..slots).filter(|&i| tt.probe(key(i)).is_some()).count();
        assert!(before as u64 > slots / 2, "{before}");
        for round in 0..3 {
            tt.forget();
            assert_eq!(tt.hashfull(), 0, "round {round}");
            assert!(
                (0..slots).all(|i| tt.probe(key(i)).is_none()),
                "round {round}"
            );
            // A shallow new entry displaces a deep forgotten one.
            for i in 0..slots / 8 {
                tt.store(key(i), 1, DEPTH_LIMITED, 7, 7, 4);
            }
            let found = (0..slots / 8)
                .filter(|&i| tt.probe(key(i)).is_some())
                .count();
            assert!(found as u64 > slots / 10, "round {round}: {found}");
            assert!((1..=0x7F).contains(&tt.age), "{}", tt.age);
        }
        tt.clear();
        assert_eq!(tt.salt, 0);
        assert!((0..slots).all(|i| tt.probe(key(i)).is_none()));
    }

    /// The table's memory is there once it is made: all of it resident.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_new_table_is_resident() {
        use super::super::zeroed::resident_mb;
        let before = resident_mb();
        let tt = TranspositionTable::new(512);
        let after = resident_mb();
        // Other tests of this process free memory meanwhile: a bound well
        // under the table's 512 MB.
        assert!(after + 64 > before + 512, "{before} MB -> {after} MB");
        drop(tt);
    }

    #[test]
    fn bounds_from_a_window() {
        assert_eq!(bounds(5, 0, 5), (5, NO_UPPER));
        assert_eq!(bounds(3, 0, 5), (3, 3));
        assert_eq!(bounds(0, 0, 5), (NO_LOWER, 0));
    }

    #[test]
    fn store_probe_and_narrow() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(42), None);
        tt.store(42, 5, DEPTH_LIMITED, -123, NO_UPPER, 7);
        let hit = tt.probe(42).unwrap();
        assert_eq!(
            (hit.depth, hit.lower, hit.upper, hit.mv),
            (5, -123, NO_UPPER, 7)
        );
        assert_eq!(hit.cutoff(-200, -150), Some(-123), "fails high");
        assert_eq!(hit.cutoff(-200, 0), None);
        // The same depth narrows: now -123 <= v <= 10.
        tt.store(42, 5, DEPTH_LIMITED, NO_LOWER, 10, NO_MOVE);
        let hit = tt.probe(42).unwrap();
        assert_eq!(
            (hit.lower, hit.upper, hit.mv),
            (-123, 10, 7),
            "best move kept"
        );
        assert_eq!(hit.cutoff(10, 20), Some(10), "fails low");
        // A shallower result does not replace it; a deeper one does.
        tt.store(42, 3, DEPTH_LIMITED, 50, 50, 1);
        assert_eq!(tt.probe(42).unwrap().lower, -123);
        tt.store(42, 9, EXACT, 4, 4, 2);
        let hit = tt.probe(42).unwrap();
        assert!(hit.to_end);
        assert_eq!(hit.cutoff(-64, 64), Some(4));
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    /// Selective results replace depth-limited ones and each other upward,
    /// never an exact one; their bounds never pass for exact.
    #[test]
    fn selective_levels() {
        let tt = TranspositionTable::new(1);
        tt.store(7, 30, DEPTH_LIMITED, 100, 100, 1);
        tt.store(7, 20, 2, 200, NO_UPPER, 2);
        let hit = tt.probe(7).unwrap();
        assert_eq!(
            (hit.lower, hit.upper, hit.level, hit.to_end),
            (200, NO_UPPER, 2, false)
        );
        tt.store(7, 20, 1, NO_LOWER, 100, 3);
        assert_eq!(
            tt.probe(7).unwrap().lower,
            200,
            "a less sure level keeps the bounds"
        );
        assert_eq!(tt.probe(7).unwrap().mv, 3, "but offers its move");
        tt.store(7, 20, EXACT, 400, 400, 4);
        tt.store(7, 20, 2, NO_LOWER, 0, 5);
        let hit = tt.probe(7).unwrap();
        assert_eq!(
            (hit.lower, hit.upper, hit.level, hit.to_end),
            (400, 400, EXACT, true)
        );
        tt.store(7, 20, DEPTH_LIMITED, 0, 0, 6);
        assert_eq!(tt.probe(7).unwrap().level, EXACT);
    }

    #[test]
    fn replaces_shallow_and_old_entries_first() {
        let mut tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u64;
        // Keys that share a bucket: same low bits, high half zero.
        let keys: Vec<u64> = (1..=5).map(|i| i * n).collect();
        for (i, &k) in keys.iter().take(4).enumerate() {
            tt.store(k, 10 + i as u8, DEPTH_LIMITED, 0, 0, 0);
        }
        tt.store(keys[4], 20, DEPTH_LIMITED, 0, 0, 0);
        assert!(tt.probe(keys[0]).is_none(), "shallowest replaced");
        assert!(tt.probe(keys[4]).is_some());
        tt.new_search();
        tt.new_search();
        tt.store(keys[0], 1, DEPTH_LIMITED, 0, 0, 0);
        assert!(tt.probe(keys[0]).is_some());
        assert!(tt.hashfull() > 0);
    }
}
