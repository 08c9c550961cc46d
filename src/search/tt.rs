//! The transposition table: results of earlier searches, found again by hash key.
//!
//! Othello transposes constantly (the same discs arise from many move orders), and
//! iterative deepening re-searches the same tree one ply deeper each time, so the
//! table both saves work and supplies the best move to try first. Entries keep a
//! bound (exact, lower, upper), the depth searched, the best move and an age; a
//! bucket of four entries fills one 64-byte cache line.

use std::mem::size_of;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (the search failed low).
    Upper,
}

/// The move code stored when a node has no best move.
pub const NO_MOVE: u8 = u8::MAX;

/// What a probe returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Score in the search's units.
    pub score: i32,
    /// Depth of the search that produced it (the empties, for a search to the end).
    pub depth: u8,
    /// The search saw every line to the end of the game: the bound is exact
    /// knowledge, valid for a request of any depth.
    pub to_end: bool,
    /// Meaning of the score.
    pub bound: Bound,
    /// Best move code, or [`NO_MOVE`].
    pub mv: u8,
}

#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    score: i16,
    depth: u8,
    mv: u8,
    /// Bound in the low two bits (0 = empty slot), age in the rest.
    bound_age: u8,
    /// 1 when the result was searched to the end of the game.
    to_end: u8,
    _pad: [u8; 2],
}

const BUCKET: usize = 4;

#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; BUCKET]);

/// A fixed-size table of [`Hit`]s, sized in megabytes.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: u8,
}

impl TranspositionTable {
    /// A table of at most `megabytes` MB (rounded down to a power of two of
    /// buckets, at least one bucket).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let count = (bytes / size_of::<Bucket>()).max(1);
        let count = 1usize << (usize::BITS - 1 - count.leading_zeros());
        TranspositionTable {
            buckets: vec![Bucket::default(); count],
            age: 0,
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.age = 0;
    }

    /// Marks the start of a new search, so that older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 0x3F;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // High bits pick the bucket; the whole key is kept for verification.
        ((key >> 32) as usize ^ key as usize) & (self.buckets.len() - 1)
    }

    /// The stored result for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let bucket = &self.buckets[self.bucket(key)];
        bucket
            .0
            .iter()
            .find(|e| e.key == key && e.bound_age & 3 != 0)
            .map(|e| Hit {
                score: i32::from(e.score),
                depth: e.depth,
                to_end: e.to_end != 0,
                bound: match e.bound_age & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
                mv: e.mv,
            })
    }

    /// Stores a result, replacing the same key, else an empty slot, else the
    /// least valuable entry (oldest, then shallowest). Searches to the end count
    /// their `depth` as the empties they covered.
    #[inline]
    pub fn store(&mut self, key: u64, depth: u8, to_end: bool, bound: Bound, score: i32, mv: u8) {
        let age = self.age;
        let index = self.bucket(key);
        let bucket = &mut self.buckets[index];
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, e) in bucket.0.iter().enumerate() {
            if e.key == key || e.bound_age & 3 == 0 {
                victim = i;
                break;
            }
            let stale = i32::from((age.wrapping_sub(e.bound_age >> 2)) & 0x3F);
            let value = i32::from(e.depth) - 8 * stale;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let e = &mut bucket.0[victim];
        // Keep a known best move when the new result has none.
        let mv = if mv == NO_MOVE && e.key == key {
            e.mv
        } else {
            mv
        };
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *e = Entry {
            key,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth,
            mv,
            bound_age: bound_bits | (age << 2),
            to_end: u8::from(to_end),
            _pad: [0; 2],
        };
    }

    /// Permille of the sampled entries used by the current search, as UCI's hashfull.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                b.0.iter()
                    .filter(|e| e.bound_age & 3 != 0 && e.bound_age >> 2 == self.age)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * BUCKET)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(size_of::<Entry>(), 16);
        assert_eq!(size_of::<Bucket>(), 64);
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.bytes(), 1024 * 1024);
        assert_eq!(TranspositionTable::new(3).bytes(), 2 * 1024 * 1024);
    }

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(42), None);
        tt.store(42, 5, false, Bound::Lower, -123, 7);
        let hit = tt.probe(42).unwrap();
        assert_eq!(
            (hit.depth, hit.bound, hit.score, hit.mv),
            (5, Bound::Lower, -123, 7)
        );
        tt.store(42, 6, true, Bound::Exact, 10, NO_MOVE);
        assert!(tt.probe(42).unwrap().to_end);
        assert_eq!(tt.probe(42).unwrap().mv, 7, "best move kept");
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn replaces_shallow_and_old_entries_first() {
        let mut tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u64;
        // Keys that share a bucket: same low bits, high half zero.
        let keys: Vec<u64> = (1..=5).map(|i| i * n).collect();
        for (i, &k) in keys.iter().take(4).enumerate() {
            tt.store(k, 10 + i as u8, false, Bound::Exact, 0, 0);
        }
        tt.store(keys[4], 20, false, Bound::Exact, 0, 0);
        assert!(tt.probe(keys[0]).is_none(), "shallowest replaced");
        assert!(tt.probe(keys[4]).is_some());
        tt.new_search();
        tt.new_search();
        tt.store(keys[0], 1, false, Bound::Exact, 0, 0);
        assert!(tt.probe(keys[0]).is_some());
        assert!(tt.hashfull() > 0);
    }
}
