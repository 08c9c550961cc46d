//! How much memory the machine can still give, so that a table too large for
//! it is refused when it is asked for. Linux grants nearly any mapping (it
//! overcommits) and fails only when the pages are touched, by killing the
//! process; the table is touched as it is made, so its size is checked first.
//!
//! The limit is the smaller of the system's available memory (`MemAvailable`
//! of `/proc/meminfo`) and what the process's control group may still use
//! (cgroup v2 `memory.max` less `memory.current`). Elsewhere, or when neither
//! can be read, nothing is known and the allocator alone decides.

/// Whether `bytes` more can be had, as far as the system tells.
pub fn fits(bytes: usize) -> bool {
    available().is_none_or(|free| bytes as u64 <= free)
}

/// The bytes the machine can still give this process, if it says.
pub fn available() -> Option<u64> {
    let system = read("/proc/meminfo").and_then(|text| mem_available(&text));
    let group = cgroup_room();
    match (system, group) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => value.checked_mul(1024),
        None => Some(value),
        Some(_) => None,
    }
}

/// The room left under the process's cgroup v2 memory limit, if it has one.
fn cgroup_room() -> Option<u64> {
    let own = read("/proc/self/cgroup")?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = format!("/sys/fs/cgroup{}", path.trim_end_matches('/'));
    room(
        &read(&format!("{dir}/memory.max"))?,
        &read(&format!("{dir}/memory.current"))?,
    )
}

/// The room a cgroup's `memory.max` and `memory.current` texts leave
/// (`None` for no limit: "max").
fn room(max: &str, current: &str) -> Option<u64> {
    let max: u64 = max.trim().parse().ok()?;
    let current: u64 = current.trim().parse().ok()?;
    Some(max.saturating_sub(current))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_meminfo_and_cgroup_texts() {
        let meminfo =
            "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n";
        assert_eq!(mem_available(meminfo), Some(20_000_000 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: lots kB\n"), None);
        assert_eq!(room("max\n", "1000\n"), None);
        assert_eq!(room("4096\n", "1000\n"), Some(3096));
        assert_eq!(room("1000\n", "4096\n"), Some(0));
    }

    /// On Linux the machine says something, and it is less than everything.
    #[cfg(target_os = "linux")]
    #[test]
    fn linux_tells_its_available_memory() {
        let free = available().expect("MemAvailable");
        assert!(free > 0);
        assert!(fits(1));
        assert!(!fits(usize::MAX));
    }
}
