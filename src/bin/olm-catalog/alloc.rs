//! The CLI's memory settings. The allocator is the system's (glibc's malloc on Linux): measured
//! with `benches/whole_process.rs`, its peak resident set is nearer the live heap than
//! mimalloc's, for the same CPU time (docs/performance.md, "Whole processes, beside upstream").
//!
//! - No transparent huge pages: where the system gives them to every mapping (`always`), each
//!   2 MiB page of the heap is resident as a whole when a byte of it is touched.
//! - Each worker's malloc arena made writable in large steps. The catalog's files are parsed on
//!   rayon's workers, and glibc makes a thread's arena writable one `mprotect` call per growth,
//!   page by page (the main arena grows with a margin): 3,300 calls on community-v4.20, about
//!   10 % of the run's CPU time. Each worker first allocates its share of [`RESERVED`] in pieces
//!   below the mmap threshold and frees them: glibc hands the pages back (`MADV_DONTNEED`) but keeps
//!   them writable, so the arena then grows without a system call. Nothing else of malloc's
//!   behaviour changes, nor the peak: pages are resident only once used.

/// How much of the workers' arenas is made writable up front, shared among them: about a large
/// catalog's trees (community-v4.20's are 21 MB).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const RESERVED: usize = 32 << 20;

/// Apply the settings above; first thing in `main`, before any other thread starts.
pub fn configure() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes no pointer; it only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    reserve_worker_arenas();
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn reserve_worker_arenas() {
    let reserve = |_| {
        // Pieces below glibc's mmap threshold (128 KiB), so that they come from the arena.
        const PIECE: usize = 120 << 10;
        let count = RESERVED / rayon::current_num_threads() / PIECE;
        // SAFETY: plain allocations, each freed once; `black_box` keeps the pairs from being
        // optimised away.
        unsafe {
            let pieces: Vec<_> = (0..count).map(|_| std::hint::black_box(libc::malloc(PIECE))).collect();
            pieces.into_iter().for_each(|p| libc::free(p));
        }
    };
    // Only fails when the global pool exists already, which then keeps its own settings.
    let _ = rayon::ThreadPoolBuilder::new().start_handler(reserve).build_global();
}
