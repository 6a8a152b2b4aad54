//! The CLI's allocator (mimalloc) and the settings that keep a run's peak resident set close to
//! its live heap (docs/performance.md, "Whole processes, beside upstream"): both measured with
//! `benches/whole_process.rs`.
//!
//! - No transparent huge pages: mimalloc asks for them on its arenas, and each 2 MiB page is then
//!   resident as a whole when a byte of it is touched (community-v4.20 peaked at 68 MB with them,
//!   43 MB without; a trivial catalog at 12.5 MB, 7 MB without).
//! - Freed memory given back at once (`purge_delay` 0; mimalloc v3's default, a second, is longer
//!   than most runs, so freed pages stayed resident to the end): 43 MB → 38 MB on
//!   community-v4.20, 37 → 32 MB on community-v4.16, for some CPU time in `madvise` and in the
//!   page faults of memory used again. `MIMALLOC_PURGE_DELAY` in the environment (mimalloc's
//!   own variable) is left to decide instead.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (its `mimalloc.h`, `mi_option_e`; the `mimalloc` crate does
/// not name it): how long freed memory waits before it is given back, in milliseconds.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

unsafe extern "C" {
    /// mimalloc's option setter (linked by the `mimalloc` crate).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    /// mimalloc's option getter.
    #[cfg(test)]
    fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
}

/// Apply the settings above; first thing in `main`.
pub fn configure() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes no pointer; it only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: setting an option is thread-safe in mimalloc and takes plain integers.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_purge_delay_option_is_the_one_mimalloc_numbers_15() {
        // mimalloc v3's default purge delay is 1000 ms (v2's 10; the tests do not `configure`):
        // an option renumbered by an update of mimalloc would read something else.
        // SAFETY: reading an option takes a plain integer.
        let delay = unsafe { super::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        assert_eq!(delay, 1000, "option {} is not mimalloc v3's purge_delay", super::MI_OPTION_PURGE_DELAY);
    }
}
