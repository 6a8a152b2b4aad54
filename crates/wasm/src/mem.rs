//! `memcmp` (and `bcmp`) for the WebAssembly build, eight bytes at a time (Node's module also has
//! its own `memcpy`, `memmove` and `memset`: copy.rs). The toolchain's own (compiler-builtins,
//! linked weakly, so this definition replaces it) compares one byte per iteration, which made
//! string comparisons and equality (name indexes, sorting, a session's check that a document is
//! unchanged) several times slower than natively, where the C library's is vectorized:
//! docs/performance.md, "WebAssembly against native".

use core::ffi::c_void;

/// # Safety
/// `a` and `b` are valid for reads of `n` bytes (the C contract).
#[no_mangle]
pub unsafe extern "C" fn memcmp(a: *const c_void, b: *const c_void, n: usize) -> i32 {
    let (a, b) = (a.cast::<u8>(), b.cast::<u8>());
    let mut i = 0;
    // SAFETY: every read is below `n`, which the caller guarantees readable; unaligned reads
    // are allowed in WebAssembly and done with `read_unaligned`.
    unsafe {
        while i + 8 <= n && a.add(i).cast::<u64>().read_unaligned() == b.add(i).cast::<u64>().read_unaligned() {
            i += 8;
        }
        while i < n {
            let (x, y) = (*a.add(i), *b.add(i));
            if x != y {
                return i32::from(x) - i32::from(y);
            }
            i += 1;
        }
    }
    0
}

/// # Safety
/// As [`memcmp`].
#[no_mangle]
pub unsafe extern "C" fn bcmp(a: *const c_void, b: *const c_void, n: usize) -> i32 {
    // SAFETY: the same contract.
    unsafe { memcmp(a, b, n) }
}
