//! The CLI's memory settings. The allocator is the system's (glibc's malloc on Linux): measured
//! with `benches/whole_process.rs`, a run is as fast as with mimalloc and its peak resident set
//! is nearer its live heap (docs/performance.md, "Whole processes, beside upstream").
//!
//! - No transparent huge pages: where the system gives them to every mapping (`always`), each
//!   2 MiB page of the heap is resident as a whole when a byte of it is touched.

/// Apply the setting above; first thing in `main`.
pub fn configure() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes no pointer; it only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
