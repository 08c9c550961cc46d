//! Which instruction-set extensions the hot code may use, decided at run
//! time, so that one binary runs on any x86-64 CPU of its build floor and at
//! full speed on one with AVX2.
//!
//! The floor is x86-64-v2 (`.cargo/config.toml`: POPCNT, SSE4.2; Intel since
//! Nehalem, AMD since Bulldozer): `count_ones` is one instruction everywhere,
//! which a build for plain x86-64 would replace by a dozen. Above the floor,
//! the move generator and the pattern reader have AVX2/BMI2 kernels, each with
//! a portable twin, and the CPU is asked once ([`fast`], cached in a static).
//! Two ways to reach the kernels:
//!
//! - the plain functions (`flip::flips`, `pattern::pext`, ...) check the
//!   cached answer on each call and call the kernel out of line: for code
//!   that is not hot enough to copy;
//! - the hot searches (perft, the midgame search, the solver's last plies
//!   and move ranking, the evaluation) exist twice ([`isa_versions`]): a
//!   copy compiled with AVX2, BMI1, BMI2, LZCNT and POPCNT and one for the
//!   floor, chosen once where a search starts ([`with_isa`]). The copies
//!   pass the choice down as a zero-sized value ([`Fast`] or [`Portable`])
//!   to the kernels (`flip::flips_with`, ...), which the fast copy inlines
//!   whole, as a build for the CPU would.
//!
//! A build that assumes the features anyway (`-C target-cpu=native` on such a
//! CPU) answers at compile time. `main` first checks that the CPU has what the
//! build assumes ([`missing_build_features`]).

use std::sync::atomic::{AtomicU8, Ordering};

/// [`LEVEL`] before the CPU was asked.
const UNKNOWN: u8 = 0;
/// Only the portable code runs.
const PORTABLE: u8 = 1;
/// The AVX2/BMI2 kernels run.
const FAST: u8 = 2;
/// The AVX2/BMI2 kernels run, and the AVX-512 copies where there are some.
const AVX512: u8 = 3;

/// Whether the build itself assumes the fast kernels' features (`-C
/// target-cpu=native` on such a CPU): then there is nothing to ask.
const BUILT_FAST: bool = cfg!(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "bmi1",
    target_feature = "bmi2",
    target_feature = "lzcnt",
    target_feature = "popcnt"
));

/// Whether the build itself assumes AVX-512 (F and VL) too.
const BUILT_AVX512: bool =
    BUILT_FAST && cfg!(all(target_feature = "avx512f", target_feature = "avx512vl"));

/// The cached answer of [`fast`] and [`avx512`].
static LEVEL: AtomicU8 = AtomicU8::new(UNKNOWN);

/// The environment variable that, set to anything but `0` or empty, keeps
/// Orca on its portable code even on a CPU with AVX2 (to compare the two
/// paths, or to rule the kernels out when hunting a fault).
pub const PORTABLE_VAR: &str = "ORCA_PORTABLE";

/// Whether the AVX2/BMI2 kernels may run (x86-64 with AVX2, BMI1, BMI2,
/// LZCNT and POPCNT, and not turned off with [`PORTABLE_VAR`]). Cheap: one
/// cached load.
#[inline(always)]
pub fn fast() -> bool {
    #[cfg(test)]
    if PORTABLE_ONLY.get() {
        return false;
    }
    BUILT_FAST || level() >= FAST
}

/// Whether the AVX-512 copies may run: [`fast`], and AVX-512 F and VL.
#[inline(always)]
pub fn avx512() -> bool {
    #[cfg(test)]
    if PORTABLE_ONLY.get() {
        return false;
    }
    BUILT_AVX512 || level() == AVX512
}

/// The cached level, the CPU asked on the first call.
#[inline(always)]
fn level() -> u8 {
    match LEVEL.load(Ordering::Relaxed) {
        UNKNOWN => detect(),
        level => level,
    }
}

#[cfg(test)]
thread_local! {
    /// Set by [`portable_only`]: this thread runs the portable code.
    static PORTABLE_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` on the portable code only, whatever the CPU (tests compare the
/// two paths in one process; other threads are unaffected).
#[cfg(test)]
pub fn portable_only<R>(f: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            PORTABLE_ONLY.set(false);
        }
    }
    PORTABLE_ONLY.set(true);
    let _reset = Reset;
    f()
}

/// Asks the CPU (and the environment) once and caches the answer.
#[cold]
#[inline(never)]
fn detect() -> u8 {
    let forced_portable = std::env::var_os(PORTABLE_VAR).is_some_and(|v| !v.is_empty() && v != "0");
    let level = if forced_portable || !cpu_has_fast_features() {
        PORTABLE
    } else if cpu_has_avx512() {
        AVX512
    } else {
        FAST
    };
    LEVEL.store(level, Ordering::Relaxed);
    level
}

/// Whether this CPU has every extension the fast kernels are compiled with.
pub fn cpu_has_fast_features() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU has AVX-512 F and VL (the AVX-512 copies' features
/// beyond the fast ones).
pub fn cpu_has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The instruction-set extensions this build assumes everywhere (the floor
/// of `.cargo/config.toml`, or whatever `-C target-cpu` it was made with) but
/// this CPU lacks; `main` checks first, so such a CPU gets a message rather
/// than "Illegal instruction" later. The CPU is asked directly:
/// `is_x86_feature_detected!` answers yes, without asking, for the features
/// a build assumes.
pub fn missing_build_features() -> Vec<&'static str> {
    #[cfg(not(target_arch = "x86_64"))]
    return Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__cpuid, __cpuid_count};
        let mut missing = Vec::new();
        let leaf1 = Some(__cpuid(1).ecx);
        let leaf7 = (__cpuid(0).eax >= 7).then(|| __cpuid_count(7, 0).ebx);
        let ext = (__cpuid(0x8000_0000).eax >= 0x8000_0001).then(|| __cpuid(0x8000_0001).ecx);
        // Each feature the build assumes: the CPUID register and bit that
        // report it.
        macro_rules! check {
            ($($feature:tt: $register:ident $bit:literal),* $(,)?) => {
                $(
                    if cfg!(target_feature = $feature)
                        && !$register.is_some_and(|r| r >> $bit & 1 == 1)
                    {
                        missing.push($feature);
                    }
                )*
            };
        }
        check!(
            "sse3": leaf1 0, "ssse3": leaf1 9, "fma": leaf1 12, "cmpxchg16b": leaf1 13,
            "sse4.1": leaf1 19, "sse4.2": leaf1 20, "popcnt": leaf1 23, "avx": leaf1 28,
            "bmi1": leaf7 3, "avx2": leaf7 5, "bmi2": leaf7 8, "avx512f": leaf7 16,
            "avx512bw": leaf7 30, "avx512vl": leaf7 31, "lzcnt": ext 5,
        );
        missing
    }
}

/// The instruction set a hot function runs with, chosen once where a search
/// starts ([`Fast::detect`]) and passed down as a zero-sized value: a search
/// written generically over it exists twice ([`isa_versions`]), and the fast
/// copy, compiled with the features, inlines the AVX2 kernels as a build for
/// the CPU would.
pub trait Isa: Copy {
    /// The proof that the fast kernels may run, if this is a fast set.
    fn fast(self) -> Option<Fast>;

    /// The proof that AVX-512 may run too, if this is that set.
    #[inline(always)]
    fn avx512(self) -> Option<Avx512> {
        None
    }
}

/// The build floor: no feature beyond it.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl Isa for Portable {
    #[inline(always)]
    fn fast(self) -> Option<Fast> {
        None
    }
}

/// AVX2, BMI1, BMI2, LZCNT and POPCNT: a value of this type exists only on
/// a CPU that has them ([`Fast::detect`]), so holding one makes calling the
/// fast kernels sound.
#[derive(Clone, Copy, Debug)]
pub struct Fast(());

impl Fast {
    /// `Some` when the fast kernels may run ([`fast`]).
    #[inline(always)]
    pub fn detect() -> Option<Fast> {
        fast().then_some(Fast(()))
    }
}

impl Isa for Fast {
    #[inline(always)]
    fn fast(self) -> Option<Fast> {
        Some(self)
    }
}

/// [`Fast`] and AVX-512 F and VL: a value exists only on a CPU that has them
/// ([`Avx512::detect`]). Perft and the midgame search (with the evaluation
/// it calls) have copies for it; the solver measured no gain from them
/// (`docs/tuning.md`).
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

impl Avx512 {
    /// `Some` when the AVX-512 copies may run ([`avx512`]).
    #[inline(always)]
    pub fn detect() -> Option<Avx512> {
        avx512().then_some(Avx512(()))
    }
}

impl Isa for Avx512 {
    #[inline(always)]
    fn fast(self) -> Option<Fast> {
        Some(Fast(()))
    }

    #[inline(always)]
    fn avx512(self) -> Option<Avx512> {
        Some(self)
    }
}

/// `$call` with `$isa` bound to the instruction set this CPU allows ([`Fast`]
/// or [`Portable`]): the one check where a search starts. `avx512 isa =>`
/// binds [`Avx512`] too where the CPU has it, for searches with AVX-512
/// copies.
macro_rules! with_isa {
    (avx512 $isa:ident => $call:expr) => {
        match $crate::cpu::Avx512::detect() {
            Some($isa) => $call,
            None => $crate::cpu::with_isa!($isa => $call),
        }
    };
    ($isa:ident => $call:expr) => {
        match $crate::cpu::Fast::detect() {
            Some($isa) => $call,
            None => {
                let $isa = $crate::cpu::Portable;
                $call
            }
        }
    };
}
pub(crate) use with_isa;

/// A method of a hot search compiled twice: `$name(isa, args)` calls `$fast`,
/// the body compiled with AVX2, BMI1, BMI2, LZCNT and POPCNT, when `isa` is
/// [`Fast`], else `$portable`, the body compiled for the build floor. The
/// body names the instruction set `$isa` and passes it on to the methods and
/// kernels it calls (`flips_with`, ...), so each copy calls its own kind;
/// anything it leaves out of line runs without the features. `$copy`
/// attributes (`inline`) go on every copy; the selector is always inlined.
///
/// A fourth name, `fn name / fast / portable / avx512`, adds a third copy
/// compiled with AVX-512 F and VL too, which `isa` = [`Avx512`] selects (the
/// same kernels, their logic merged three operations at a time); without it
/// an [`Avx512`] runs the fast copy.
macro_rules! isa_versions {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident / $fast:ident / $portable:ident $(/ $wide:ident)?
        $(#[$copy:meta])*
        (&mut $self:ident, $isa:ident $(, $arg:ident: $ty:ty)* $(,)?) $(-> $ret:ty)?
        $body:block
    ) => {
        $crate::cpu::isa_versions!(@copies [$(#[$attr])*] $vis [&mut $self] $self
            $name $fast $portable [$($wide)?] [$(#[$copy])*] $isa [$($arg: $ty),*]
            [$(-> $ret)?] $body);
    };
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident / $fast:ident / $portable:ident $(/ $wide:ident)?
        $(#[$copy:meta])*
        (&$self:ident, $isa:ident $(, $arg:ident: $ty:ty)* $(,)?) $(-> $ret:ty)?
        $body:block
    ) => {
        $crate::cpu::isa_versions!(@copies [$(#[$attr])*] $vis [&$self] $self
            $name $fast $portable [$($wide)?] [$(#[$copy])*] $isa [$($arg: $ty),*]
            [$(-> $ret)?] $body);
    };
    (
        @copies [$($attr:tt)*] $vis:vis [$($recv:tt)*] $self:ident
        $name:ident $fast:ident $portable:ident [$($wide:ident)?] [$($copy:tt)*]
        $isa:ident [$($arg:ident: $ty:ty),*] [$($ret:tt)*] $body:block
    ) => {
        $($attr)*
        #[inline(always)]
        $vis fn $name<I: $crate::cpu::Isa>($($recv)*, $isa: I, $($arg: $ty),*) $($ret)* {
            $crate::cpu::isa_versions!(@call_wide [$($wide)?] $self $isa [$($arg),*]);
            #[cfg(target_arch = "x86_64")]
            if let Some(fast) = $crate::cpu::Isa::fast($isa) {
                // SAFETY: a `Fast` exists only on a CPU with these features.
                return unsafe { $self.$fast(fast, $($arg),*) };
            }
            #[cfg(not(target_arch = "x86_64"))]
            let _ = $isa;
            $self.$portable($($arg),*)
        }

        $crate::cpu::isa_versions!(@wide_copy [$($wide)?] [$($recv)*] [$($copy)*] $isa
            [$($arg: $ty),*] [$($ret)*] $body);

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        $($copy)*
        fn $fast($($recv)*, $isa: $crate::cpu::Fast, $($arg: $ty),*) $($ret)* $body

        $($copy)*
        fn $portable($($recv)*, $($arg: $ty),*) $($ret)* {
            let $isa = $crate::cpu::Portable;
            $body
        }
    };
    (@call_wide [] $self:ident $isa:ident [$($arg:ident),*]) => {};
    (@call_wide [$wide:ident] $self:ident $isa:ident [$($arg:ident),*]) => {
        #[cfg(target_arch = "x86_64")]
        if let Some(wide) = $crate::cpu::Isa::avx512($isa) {
            // SAFETY: an `Avx512` exists only on a CPU with these features.
            return unsafe { $self.$wide(wide, $($arg),*) };
        }
    };
    (@wide_copy [] $($rest:tt)*) => {};
    (
        @wide_copy [$wide:ident] [$($recv:tt)*] [$($copy:tt)*] $isa:ident
        [$($arg:ident: $ty:ty),*] [$($ret:tt)*] $body:block
    ) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl")]
        $($copy)*
        fn $wide($($recv)*, $isa: $crate::cpu::Avx512, $($arg: $ty),*) $($ret)* $body
    };
}
pub(crate) use isa_versions;

/// The kernels in use, for reports: `"avx512"` (AVX2 and the AVX-512
/// copies), `"avx2"` or `"portable"`.
pub fn kernels() -> &'static str {
    if avx512() {
        "avx512"
    } else if fast() {
        "avx2"
    } else {
        "portable"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dispatch picks the fast kernels exactly when the CPU has them (the
    /// test process does not set `ORCA_PORTABLE`), asks only once, and
    /// `portable_only` turns them off for its thread alone.
    #[test]
    fn dispatch_follows_the_cpu() {
        let forced = std::env::var_os(PORTABLE_VAR).is_some_and(|v| !v.is_empty() && v != "0");
        let expected = BUILT_FAST || (cpu_has_fast_features() && !forced);
        let expected_avx512 = BUILT_AVX512 || (expected && !forced && cpu_has_avx512());
        assert_eq!(fast(), expected);
        assert_eq!(fast(), expected);
        assert_eq!(avx512(), expected_avx512);
        assert!(BUILT_AVX512 || LEVEL.load(Ordering::Relaxed) != UNKNOWN);
        assert_eq!(Fast::detect().is_some(), expected);
        assert_eq!(Avx512::detect().is_some(), expected_avx512);
        assert_eq!(kernels() != "portable", expected);
        assert_eq!(kernels() == "avx512", expected_avx512);
        assert_eq!(missing_build_features(), Vec::<&str>::new());
        portable_only(|| {
            assert!(!fast());
            assert!(!avx512());
            assert!(Fast::detect().is_none());
            assert!(Avx512::detect().is_none());
            assert_eq!(kernels(), "portable");
            let other = std::thread::spawn(fast).join().unwrap();
            assert_eq!(other, expected);
        });
        assert_eq!(fast(), expected);
    }

    /// `with_isa` binds the instruction set the CPU allows.
    #[test]
    fn with_isa_selects() {
        let fast_chosen = with_isa!(isa => isa.fast().is_some());
        assert_eq!(fast_chosen, fast());
        let chosen = portable_only(|| with_isa!(isa => isa.fast().is_some()));
        assert!(!chosen);
    }
}
