//! [`Zeroed`]: a large slice of all-zero values that costs nothing until it
//! is touched -- the transposition table's memory.
//!
//! Allocators zero memory aligned beyond 16 bytes by writing it (Rust's
//! `alloc_zeroed` on Unix falls back to `memset` for such alignments): for
//! the table (64-byte buckets, tens of megabytes to gigabytes) a pass of
//! writes on one thread. On Unix the slice is an anonymous mapping instead:
//! the kernel hands over zero pages as they are first touched (the table
//! touches them all as it is made, on several threads, so that no search
//! pays for it: `tt.rs`), and on Linux advises 2 MB pages for it. Elsewhere
//! (and as the tested twin of the mapping) it is an ordinary zeroed
//! allocation.

use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use bytemuck::Zeroable;

/// `len` values of `T`, all zero bits, page-aligned when mapped.
pub struct Zeroed<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    /// Whether `ptr` is an anonymous mapping (else a leaked `Box<[T]>`).
    mapped: bool,
}

// SAFETY: `Zeroed<T>` owns its `T`s as a `Box<[T]>` would, and shares them
// only through `&`/`&mut` borrows of itself.
unsafe impl<T: Zeroable + Send> Send for Zeroed<T> {}
// SAFETY: as above; `&Zeroed<T>` gives only `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for Zeroed<T> {}

impl<T: Zeroable> Zeroed<T> {
    /// `len` zero values, mapped where the system allows it; `None` when
    /// the memory is not there.
    pub fn new(len: usize) -> Option<Zeroed<T>> {
        Zeroed::mapped(len).or_else(|| Zeroed::allocated(len))
    }

    /// `len` zero values in an ordinary allocation (written to zero by the
    /// allocator when `T`'s alignment needs it).
    pub fn allocated(len: usize) -> Option<Zeroed<T>> {
        let boxed = bytemuck::allocation::try_zeroed_slice_box::<T>(len).ok()?;
        let len = boxed.len();
        let ptr = NonNull::new(Box::into_raw(boxed).cast::<T>())?;
        Some(Zeroed {
            ptr,
            len,
            mapped: false,
        })
    }

    /// `len` zero values in an anonymous private mapping; `None` for an
    /// empty or impossible size, or when the system refuses.
    #[cfg(unix)]
    pub fn mapped(len: usize) -> Option<Zeroed<T>> {
        let bytes = len.checked_mul(size_of::<T>()).filter(|&b| b > 0)?;
        if align_of::<T>() > 4096 {
            return None;
        }
        // SAFETY: a fresh anonymous private mapping of `bytes` bytes,
        // aliasing nothing; its result is checked before use.
        let start = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if start == libc::MAP_FAILED {
            return None;
        }
        advise_huge_pages(start, bytes);
        Some(Zeroed {
            ptr: NonNull::new(start.cast::<T>())?,
            len,
            mapped: true,
        })
    }

    /// No mapping outside Unix: [`Zeroed::new`] allocates.
    #[cfg(not(unix))]
    pub fn mapped(_len: usize) -> Option<Zeroed<T>> {
        None
    }
}

impl<T: Zeroable> Deref for Zeroed<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised `T`s (all-zero bits,
        // valid for a `Zeroable` type) owned by `self` until it drops.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for Zeroed<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for Zeroed<T> {
    fn drop(&mut self) {
        // SAFETY: drops the `T`s in place (a no-op for the table's atomics,
        // done for form), then returns the memory the way it was obtained.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
        }
        if self.mapped {
            #[cfg(unix)]
            // SAFETY: `ptr`/`len` are the mapping made in `mapped`, unmapped
            // once; nothing borrows it any more.
            unsafe {
                libc::munmap(self.ptr.as_ptr().cast(), self.len * size_of::<T>());
            }
        } else {
            let slice = std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr().cast::<std::mem::ManuallyDrop<T>>(),
                self.len,
            );
            // SAFETY: `ptr`/`len` came from `Box::into_raw` of a `Box<[T]>`
            // in `allocated`; the values were dropped above, so the box is
            // rebuilt over `ManuallyDrop<T>` (same layout) to free only.
            drop(unsafe { Box::from_raw(slice) });
        }
    }
}

/// Asks Linux to back the (not yet touched) mapping with 2 MB pages.
///
/// Every probe of a large table lands on a random page; with 4 kB pages nearly
/// every one also misses the TLB and walks the page tables. The kernel may
/// decline, and nothing but speed depends on it.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut libc::c_void, len: usize) {
    // SAFETY: `start..start + len` is a mapping just made by the caller;
    // MADV_HUGEPAGE changes how the kernel backs its pages, never their
    // contents, and a failure is harmless.
    unsafe {
        libc::madvise(start, len, libc::MADV_HUGEPAGE);
    }
}

/// Other systems keep their default pages.
#[cfg(all(unix, not(target_os = "linux")))]
fn advise_huge_pages(_start: *mut libc::c_void, _len: usize) {}

/// The process's resident memory in MB, for the tests of what is backed.
#[cfg(all(test, target_os = "linux"))]
pub(super) fn resident_mb() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: usize = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    (pages * 4096) >> 20
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// The mapping and its portable twin hold the same zeros, take the same
    /// writes, and free without fault.
    #[test]
    fn mapped_and_allocated_agree() {
        let twins = [
            Zeroed::<AtomicU64>::allocated(100_000),
            Zeroed::mapped(100_000),
        ];
        let mut sums = Vec::new();
        for z in twins.into_iter().flatten() {
            assert_eq!(z.len(), 100_000);
            assert!(z.iter().all(|v| v.load(Ordering::Relaxed) == 0));
            for (i, v) in z.iter().enumerate().step_by(997) {
                v.store(i as u64, Ordering::Relaxed);
            }
            sums.push(z.iter().map(|v| v.load(Ordering::Relaxed)).sum::<u64>());
        }
        #[cfg(unix)]
        assert_eq!(sums.len(), 2);
        assert!(sums.windows(2).all(|w| w[0] == w[1]), "{sums:?}");
        assert!(Zeroed::<AtomicU64>::mapped(0).is_none());
        assert!(Zeroed::<AtomicU64>::new(usize::MAX / 4).is_none());
    }

    /// A mapped slice costs no resident memory until touched.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_untouched_mapping_is_not_resident() {
        let before = resident_mb();
        let z = Zeroed::<[u64; 8]>::new(1 << 24).unwrap(); // 1 GiB
        assert!(z.mapped);
        let after = resident_mb();
        // Other tests of this process allocate meanwhile: a bound far below
        // the mapping's 1024 MB and far above their needs.
        assert!(after < before + 256, "{before} MB -> {after} MB");
    }
}
