//! `memcpy`, `memmove` and `memset` for Node's WebAssembly module, which is built without bulk
//! memory (`-Ctarget-cpu=mvp` and the other default features, scripts/build-pkg.sh): there LLVM
//! calls these for copies and fills whose length is known only at run time, where it would
//! otherwise emit `memory.copy` and `memory.fill`, which V8 runs as calls out of WebAssembly into
//! C (docs/performance.md, "WebAssembly against native"). They replace
//! compiler-builtins' loops, which move four bytes per iteration. Up to 64 bytes are moved with a
//! few overlapping loads and stores, every load before the first store; longer runs 64 bytes per
//! iteration, forward or backward so that overlapping ranges come out as `memmove` requires. On
//! WebAssembly a block of 16 bytes is a SIMD `v128`; elsewhere (the unit tests below, run
//! natively) a `[u8; 16]`, so that the same code is tested on every platform.
//!
//! [`copy_bytes`] and [`fill_bytes`] are `#[inline(always)]`: inlined into `memmove` and
//! `memset`, whose names keep LLVM from turning their loops back into calls to themselves (it
//! recognizes copy and fill loops in any other function).

#[cfg(target_arch = "wasm32")]
use core::arch::wasm32::{u8x16_splat as splat, v128 as Block, v128_load as load, v128_store as store};

/// Sixteen bytes, as the native tests move them.
#[cfg(not(target_arch = "wasm32"))]
type Block = [u8; 16];

/// # Safety
/// `p` is valid for reads of 16 bytes.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
unsafe fn load(p: *const Block) -> Block {
    // SAFETY: the caller's contract.
    unsafe { p.read_unaligned() }
}

/// # Safety
/// `p` is valid for writes of 16 bytes.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
unsafe fn store(p: *mut Block, v: Block) {
    // SAFETY: the caller's contract.
    unsafe { p.write_unaligned(v) }
}

#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn splat(b: u8) -> Block {
    [b; 16]
}

/// Copies `n` bytes from `s` to `d`; the ranges may overlap.
///
/// # Safety
/// `s` is valid for reads and `d` for writes of `n` bytes.
#[inline(always)]
pub unsafe fn copy_bytes(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: every access lies within the `n` bytes of both ranges. A 64-byte block loads
    // before it stores; copying forward when the destination starts first (backward otherwise)
    // never overwrites a byte not yet read, and the short copy at the end loads all it copies
    // before storing.
    unsafe {
        if n <= 64 {
            short(d, s, n);
        } else if (d as usize) <= (s as usize) || (d as usize) >= (s as usize) + n {
            let mut i = 0;
            while i + 64 <= n {
                block(d, s, i);
                i += 64;
            }
            short(d.add(i), s.add(i), n - i);
        } else {
            let mut j = n;
            while j >= 64 {
                j -= 64;
                block(d, s, j);
            }
            short(d, s, j);
        }
    }
}

/// Sets the `n` bytes at `d` to `byte`.
///
/// # Safety
/// `d` is valid for writes of `n` bytes.
#[inline(always)]
pub unsafe fn fill_bytes(d: *mut u8, byte: u8, n: usize) {
    // SAFETY: every store lies within the `n` bytes: whole 16-byte blocks, then the last 16
    // (overlapping the one before), or for short fills the first and last 4 or 8.
    unsafe {
        if n >= 16 {
            let v = splat(byte);
            let mut i = 0;
            while i + 16 <= n {
                store(d.add(i).cast::<Block>(), v);
                i += 16;
            }
            store(d.add(n - 16).cast::<Block>(), v);
        } else if n >= 8 {
            let w = u64::from_ne_bytes([byte; 8]);
            d.cast::<u64>().write_unaligned(w);
            d.add(n - 8).cast::<u64>().write_unaligned(w);
        } else if n >= 4 {
            let w = u32::from_ne_bytes([byte; 4]);
            d.cast::<u32>().write_unaligned(w);
            d.add(n - 4).cast::<u32>().write_unaligned(w);
        } else if n > 0 {
            *d = byte;
            *d.add(n / 2) = byte;
            *d.add(n - 1) = byte;
        }
    }
}

/// Copies `n ≤ 64` bytes, every load before the first store.
///
/// # Safety
/// `s` is valid for reads and `d` for writes of `n` bytes.
#[inline(always)]
unsafe fn short(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: each access lies within the first or last 4, 8, 16 or 32 bytes of the `n` the
    // caller vouches for; the accesses are unaligned ones.
    unsafe {
        if n >= 32 {
            let (a, b) = (load(s.cast::<Block>()), load(s.add(16).cast::<Block>()));
            let (c, e) = (load(s.add(n - 32).cast::<Block>()), load(s.add(n - 16).cast::<Block>()));
            store(d.cast::<Block>(), a);
            store(d.add(16).cast::<Block>(), b);
            store(d.add(n - 32).cast::<Block>(), c);
            store(d.add(n - 16).cast::<Block>(), e);
        } else if n >= 16 {
            let (a, b) = (load(s.cast::<Block>()), load(s.add(n - 16).cast::<Block>()));
            store(d.cast::<Block>(), a);
            store(d.add(n - 16).cast::<Block>(), b);
        } else if n >= 8 {
            let (a, b) = (s.cast::<u64>().read_unaligned(), s.add(n - 8).cast::<u64>().read_unaligned());
            d.cast::<u64>().write_unaligned(a);
            d.add(n - 8).cast::<u64>().write_unaligned(b);
        } else if n >= 4 {
            let (a, b) = (s.cast::<u32>().read_unaligned(), s.add(n - 4).cast::<u32>().read_unaligned());
            d.cast::<u32>().write_unaligned(a);
            d.add(n - 4).cast::<u32>().write_unaligned(b);
        } else if n > 0 {
            let (a, b, c) = (*s, *s.add(n / 2), *s.add(n - 1));
            *d = a;
            *d.add(n / 2) = b;
            *d.add(n - 1) = c;
        }
    }
}

/// Copies the 64 bytes at `s + i` to `d + i`, loads first.
///
/// # Safety
/// The 64 bytes are readable at `s + i` and writable at `d + i`.
#[inline(always)]
unsafe fn block(d: *mut u8, s: *const u8, i: usize) {
    // SAFETY: the caller's contract.
    unsafe {
        let (s, d) = (s.add(i).cast::<Block>(), d.add(i).cast::<Block>());
        let (a, b, c, e) = (load(s), load(s.add(1)), load(s.add(2)), load(s.add(3)));
        store(d, a);
        store(d.add(1), b);
        store(d.add(2), c);
        store(d.add(3), e);
    }
}

/// The C library's entry points, which LLVM calls (compiled for WebAssembly only: natively the
/// C library's are used, and the unit tests below call the functions above).
#[cfg(target_arch = "wasm32")]
mod c {
    use super::{copy_bytes, fill_bytes};
    use core::ffi::c_void;

    /// # Safety
    /// The C contract: `s` valid for reads and `d` for writes of `n` bytes, not overlapping.
    #[no_mangle]
    pub unsafe extern "C" fn memcpy(d: *mut c_void, s: *const c_void, n: usize) -> *mut c_void {
        // SAFETY: the caller's contract, passed on (`copy_bytes` also allows overlap).
        unsafe { copy_bytes(d.cast(), s.cast(), n) };
        d
    }

    /// # Safety
    /// The C contract: `s` valid for reads and `d` for writes of `n` bytes, which may overlap.
    #[no_mangle]
    pub unsafe extern "C" fn memmove(d: *mut c_void, s: *const c_void, n: usize) -> *mut c_void {
        // SAFETY: the caller's contract, passed on.
        unsafe { copy_bytes(d.cast(), s.cast(), n) };
        d
    }

    /// # Safety
    /// The C contract: `d` valid for writes of `n` bytes.
    #[no_mangle]
    pub unsafe extern "C" fn memset(d: *mut c_void, c: i32, n: usize) -> *mut c_void {
        // SAFETY: the caller's contract, passed on; C's `memset` fills with `c as u8`.
        unsafe { fill_bytes(d.cast(), c as u8, n) };
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A buffer of distinct-looking bytes.
    fn buffer(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 + 3) as u8).collect()
    }

    #[test]
    fn copies_every_length_between_separate_buffers() {
        for n in 0..300 {
            let src = buffer(n + 5);
            let mut dst = vec![0u8; n + 5];
            // SAFETY: both buffers hold `n` bytes from offsets 2 and 3.
            unsafe { copy_bytes(dst.as_mut_ptr().add(3), src.as_ptr().add(2), n) };
            assert_eq!(&dst[3..3 + n], &src[2..2 + n], "length {n}");
            assert_eq!(&dst[..3], &[0, 0, 0], "length {n}: bytes before untouched");
            assert!(dst[3 + n..].iter().all(|&b| b == 0), "length {n}: bytes after untouched");
        }
    }

    #[test]
    fn overlapping_ranges_come_out_as_memmove_leaves_them() {
        for n in [0, 1, 3, 7, 15, 16, 31, 33, 63, 64, 65, 127, 128, 200, 257] {
            for shift in [1usize, 2, 15, 16, 17, 63, 64, 65, 100] {
                let original = buffer(n + shift + 8);
                // Destination after the source (backward copy) and before it (forward copy).
                for (from, to) in [(0, shift), (shift, 0)] {
                    let mut ours = original.clone();
                    let mut expected = original.clone();
                    expected.copy_within(from..from + n, to);
                    // SAFETY: both ranges lie within the buffer.
                    unsafe { copy_bytes(ours.as_mut_ptr().add(to), ours.as_ptr().add(from), n) };
                    assert_eq!(ours, expected, "length {n}, from {from} to {to}");
                }
            }
        }
    }

    #[test]
    fn fills_every_length_and_nothing_around() {
        for n in 0..200 {
            let mut buf = vec![1u8; n + 4];
            // SAFETY: the buffer holds `n` bytes from offset 2.
            unsafe { fill_bytes(buf.as_mut_ptr().add(2), 0xab, n) };
            assert!(buf[2..2 + n].iter().all(|&b| b == 0xab), "length {n}");
            assert_eq!((buf[0], buf[1]), (1, 1), "length {n}");
            assert!(buf[2 + n..].iter().all(|&b| b == 1), "length {n}");
        }
    }
}
