//! The WebAssembly modules' global allocator: the standard one (dlmalloc) with a *region* in front
//! of it for the length of one call that builds a large, short-lived heap (`validate`, which
//! reads a whole catalog into value trees, blobs and a model, and drops all of it before it
//! returns; a resolution; a channel graph, an upgrade path or a drawing of them).
//!
//! While a [`Region`] guard is alive, small allocations (up to [`SMALL`] bytes, alignment up to
//! 16) are cut from 64 KB pages by bumping a pointer, and each page counts its live allocations:
//! a free only decrements its page's count, and a page whose count falls to zero is reused (in
//! place when it is the page being cut from, otherwise from a list of free pages). dlmalloc
//! spends a tenth of a validation in WebAssembly on freeing the catalog's trees (coalescing each
//! freed block with its neighbours and moving it between its size bins); here that is one
//! subtraction. Larger allocations, and every allocation outside a region, go to dlmalloc, and a
//! free or a `realloc` finds where a block came from by its page.
//!
//! Memory: a page is reused only once every block on it is freed, so while a catalog is being
//! validated the trees dropped after decoding are reclaimed page by page, not block by block. A
//! region may take at most the pages its guard allows ([`Region::enter`]); beyond that, small
//! allocations go to dlmalloc too. When the region ends, every run of pages (taken from dlmalloc
//! 1 MB at a time) whose blocks are all freed is handed back to dlmalloc. A block that outlives
//! its region (a lazily built table, a cache) keeps its page until it is freed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;

#[cfg(target_feature = "atomics")]
compile_error!("the region allocator assumes a WebAssembly instance without threads");

/// A WebAssembly page, the region's unit.
const PAGE: usize = 64 * 1024;
/// Pages taken from dlmalloc at a time.
const GROW: usize = 16;
/// Largest allocation (bytes) a region serves; larger ones go to dlmalloc.
pub const SMALL: usize = 2048;
/// Largest alignment a region serves.
const ALIGN: usize = 16;
/// Pages of the 4 GiB address space of wasm32.
const PAGES: usize = 1 << 16;

/// The allocator (see the module's documentation).
pub struct Allocator {
    state: UnsafeCell<State>,
}

// SAFETY: wasm32 without the `atomics` feature has one thread (checked above), so the state is
// never accessed concurrently.
unsafe impl Sync for Allocator {}

struct State {
    /// Whether small allocations go to the region.
    active: bool,
    /// Pages the region may still take from dlmalloc.
    budget: usize,
    /// The page being cut from (its address; 0: none) and the bump pointer inside it.
    page: usize,
    cur: usize,
    /// Unused pages taken from dlmalloc but not yet cut from (a run of `fresh_len` bytes).
    fresh: usize,
    fresh_len: usize,
    /// Head of the list of free pages (each holds the address of the next in its first word).
    free: usize,
    /// Per page of the address space: 0 for a page the region does not own, else 1 + its live
    /// blocks. Allocated from dlmalloc on first use.
    live: *mut u32,
    /// The first page of each run taken from dlmalloc, one bit per page of the address space.
    runs: [u64; PAGES / 64],
}

impl Allocator {
    /// An allocator with no region active.
    pub const fn new() -> Allocator {
        Allocator {
            state: UnsafeCell::new(State {
                active: false,
                budget: 0,
                page: 0,
                cur: 0,
                fresh: 0,
                fresh_len: 0,
                free: 0,
                live: std::ptr::null_mut(),
                runs: [0; PAGES / 64],
            }),
        }
    }

    #[allow(clippy::mut_from_ref)]
    fn state(&self) -> &mut State {
        // SAFETY: one thread, and no method of `State` calls back into the allocator while it
        // holds this reference (dlmalloc is called through `System`, not through `self`).
        unsafe { &mut *self.state.get() }
    }
}

impl Default for Allocator {
    fn default() -> Allocator {
        Allocator::new()
    }
}

impl State {
    /// The live count of the page holding `addr`, when the region owns it.
    fn page_of(&mut self, addr: usize) -> Option<&mut u32> {
        if self.live.is_null() {
            return None;
        }
        // SAFETY: `live` has PAGES entries and `addr >> 16` < PAGES for any wasm32 address.
        let count = unsafe { &mut *self.live.add(addr / PAGE) };
        (*count != 0).then_some(count)
    }

    /// A small block from the region, or `None` (no room left in the budget, or no memory).
    fn alloc(&mut self, layout: Layout) -> Option<*mut u8> {
        // Alignments are powers of two.
        let start = (self.cur + layout.align() - 1) & !(layout.align() - 1);
        let start = if self.page != 0 && start + layout.size() <= self.page + PAGE {
            start
        } else {
            self.next_page()?;
            self.cur
        };
        self.cur = start + layout.size();
        *self.page_of(start)? += 1;
        Some(start as *mut u8)
    }

    /// Move the bump pointer to an empty page: the current one when all its blocks are freed,
    /// else a free one, else a fresh one.
    fn next_page(&mut self) -> Option<()> {
        if self.page != 0 && self.page_of(self.page).is_some_and(|c| *c == 1) {
            self.cur = self.page;
            return Some(());
        }
        let page = if self.free != 0 {
            let page = self.free;
            // SAFETY: a free page's first word holds the next free page (written by `dealloc`).
            self.free = unsafe { *(page as *const usize) };
            page
        } else {
            self.fresh_page()?
        };
        self.page = page;
        self.cur = page;
        Some(())
    }

    /// A page never used yet, taking `GROW` pages from dlmalloc when none is left.
    fn fresh_page(&mut self) -> Option<usize> {
        if self.fresh_len == 0 {
            if self.budget < GROW {
                return None;
            }
            if self.live.is_null() {
                let table = Layout::array::<u32>(PAGES).ok()?;
                // SAFETY: a non-zero size.
                self.live = unsafe { System.alloc_zeroed(table) }.cast();
                if self.live.is_null() {
                    return None;
                }
            }
            let run = Layout::from_size_align(GROW * PAGE, PAGE).ok()?;
            // SAFETY: a non-zero size.
            let base = unsafe { System.alloc(run) } as usize;
            if base == 0 {
                return None;
            }
            self.budget -= GROW;
            self.runs[base / PAGE / 64] |= 1 << (base / PAGE % 64);
            for k in 0..GROW {
                // SAFETY: `live` has an entry for every page of the address space.
                unsafe { *self.live.add(base / PAGE + k) = 1 };
            }
            self.fresh = base;
            self.fresh_len = GROW * PAGE;
        }
        let page = self.fresh;
        self.fresh += PAGE;
        self.fresh_len -= PAGE;
        Some(page)
    }

    /// Free a region block.
    fn release(&mut self, addr: usize) {
        let page = addr / PAGE * PAGE;
        let Some(count) = self.page_of(page) else { return };
        *count -= 1;
        if *count != 1 {
            return;
        }
        if page == self.page {
            // The page being cut from: start it over.
            self.cur = page;
        } else {
            // SAFETY: every block of the page is freed, so its first word is ours to write.
            unsafe { *(page as *mut usize) = self.free };
            self.free = page;
        }
    }
}

/// Whether a region may serve `layout`.
fn small(layout: Layout) -> bool {
    layout.size() <= SMALL && layout.align() <= ALIGN
}

// SAFETY: blocks come either from dlmalloc (`System`), with its contract, or from a region page,
// where each block is `layout.size()` bytes at `layout.align()` inside one page that no other
// live block overlaps (the bump pointer only moves forward until every block of the page is
// freed); a pointer is returned to where it came from by its page's entry in `live`.
unsafe impl GlobalAlloc for Allocator {
    // Out of line: inlined at every allocation site, the region would grow the modules by tens of KB.
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let state = self.state();
        if state.active && small(layout) {
            if let Some(p) = state.alloc(layout) {
                return p;
            }
        }
        // SAFETY: the caller's contract.
        unsafe { System.alloc(layout) }
    }

    // Out of line: inlined at every allocation site, the region would grow the modules by tens of KB.
    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let state = self.state();
        if state.page_of(ptr as usize).is_some() {
            state.release(ptr as usize);
        } else {
            // SAFETY: not a region block, so dlmalloc's.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    // Out of line: inlined at every allocation site, the region would grow the modules by tens of KB.
    #[inline(never)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let state = self.state();
        let addr = ptr as usize;
        if state.page_of(addr).is_none() {
            // SAFETY: dlmalloc's block, the caller's contract.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // A block shrinks in place; the last block cut from the current page also grows in place
        // when it fits.
        if new_size <= layout.size() {
            return ptr;
        }
        if addr >= state.page
            && addr + layout.size() == state.cur
            && addr + new_size <= state.page + PAGE
            && new_size <= SMALL
        {
            state.cur = addr + new_size;
            return ptr;
        }
        // SAFETY: `new_size` is non-zero and, rounded to the alignment, fits (the caller's contract).
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: as `alloc`.
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: both blocks are valid for the smaller size and do not overlap (the old one
            // is still live).
            unsafe { std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size)) };
            // (`state` is not used past `self.alloc`, which takes the state again.)
            self.state().release(addr);
        }
        new
    }
}

/// While alive, small allocations are cut from the region (see the module's documentation).
pub struct Region {
    allocator: &'static Allocator,
    was_active: bool,
}

impl Region {
    /// Start a region that may take up to `max_bytes` of new pages from dlmalloc (pages left by
    /// earlier regions are reused first and not counted). It ends when the guard is dropped.
    pub fn enter(allocator: &'static Allocator, max_bytes: usize) -> Region {
        let state = allocator.state();
        let was_active = state.active;
        state.active = true;
        state.budget = state.budget.max(max_bytes / PAGE);
        Region { allocator, was_active }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        let state = self.allocator.state();
        state.active = self.was_active;
        if !self.was_active {
            state.budget = 0;
            state.give_back();
        }
    }
}

impl State {
    /// Hand every run of pages whose blocks are all freed back to dlmalloc, for the rest of the
    /// program to use; the other free pages go back on the free list.
    fn give_back(&mut self) {
        if self.live.is_null() {
            return;
        }
        // SAFETY: `live` has PAGES entries, this is its only reference while it lives.
        let live = unsafe { std::slice::from_raw_parts_mut(self.live, PAGES) };
        self.free = 0;
        self.fresh = 0;
        self.fresh_len = 0;
        let current = self.page / PAGE;
        // The runs' first pages, found word by word (a call as short as a resolution's would
        // otherwise spend a visible part of its time testing 65,536 bits one by one).
        for word in 0..PAGES / 64 {
            let mut bits = self.runs[word];
            while bits != 0 {
                let run = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.give_back_run(live, run, current);
            }
        }
    }

    /// Hand run `run` back to dlmalloc when none of its pages holds a live block, else put its
    /// empty pages (but the one being cut from, `current`) on the free list.
    fn give_back_run(&mut self, live: &mut [u32], run: usize, current: usize) {
        let pages = &mut live[run..run + GROW];
        if pages.iter().all(|&c| c == 1) {
            pages.iter_mut().for_each(|c| *c = 0);
            self.runs[run / 64] &= !(1 << (run % 64));
            if (run..run + GROW).contains(&current) {
                self.page = 0;
                self.cur = 0;
            }
            // SAFETY: the run was allocated with this layout (`fresh_page`) and holds no live block.
            unsafe { System.dealloc((run * PAGE) as *mut u8, Layout::from_size_align_unchecked(GROW * PAGE, PAGE)) };
            return;
        }
        for (k, &c) in pages.iter().enumerate() {
            if c == 1 && run + k != current {
                let page = (run + k) * PAGE;
                // SAFETY: a page without live blocks: its first word is ours.
                unsafe { *(page as *mut usize) = self.free };
                self.free = page;
            }
        }
    }
}
