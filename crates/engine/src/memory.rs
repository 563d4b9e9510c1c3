//! Huge pages for the engine's large tables.
//!
//! The transposition table and the proof search's table are probed at
//! random places across hundreds of megabytes to gigabytes. With the usual
//! 4 KiB pages nearly every probe also misses the processor's address
//! translation cache; with 2 MiB pages far fewer do. Linux gives huge pages
//! to memory that asks for them (`madvise`, where transparent huge pages
//! are set to `madvise`, as on many distributions) and that is aligned to
//! them. [`advise_huge_pages`] asks for one allocation the engine makes
//! itself; [`HugePageAllocator`], installed as a program's global
//! allocator, does it for every allocation of [`HugePageAllocator::LARGE`]
//! bytes or more, such as the proof search's hash map, whose memory the
//! engine cannot reach otherwise.

use std::alloc::{GlobalAlloc, Layout, System};

/// The size of a huge page on x86-64 and most ARM64 Linux systems.
pub const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back the memory at `start` (`len` bytes, not yet
/// touched) with huge pages where it can: a hint, without effect where
/// transparent huge pages are off or on other systems. Only the whole huge
/// pages inside the range are advised.
pub fn advise_huge_pages<T>(start: *const T, len: usize) {
    #[cfg(target_os = "linux")]
    {
        let (start, end) = (start as usize, start as usize + len);
        let (from, to) = (
            start.next_multiple_of(HUGE_PAGE),
            end / HUGE_PAGE * HUGE_PAGE,
        );
        if to > from {
            // SAFETY: madvise with MADV_HUGEPAGE only changes how the kernel
            // backs these pages, which lie inside the caller's allocation;
            // their contents and validity do not change. Failure is harmless.
            unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

/// Starts loading `value`'s cache line, so that reading it soon after does
/// not wait for memory: a hint (a no-op off x86-64), for the tables' slots.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let at: *const T = value;
        // SAFETY: a prefetch is only a hint; it reads nothing and cannot
        // fault, and `at` points to a live value anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(at.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// The system allocator, except that allocations of [`Self::LARGE`] bytes
/// or more are aligned to huge pages and advised to use them. Install it
/// with `#[global_allocator]` in a program that builds large tables.
#[derive(Clone, Copy, Debug, Default)]
pub struct HugePageAllocator;

impl HugePageAllocator {
    /// The smallest allocation given huge pages: 32 MiB, where aligning to
    /// 2 MiB wastes little and the table is far larger than the address
    /// translation cache covers with small pages.
    pub const LARGE: usize = 32 << 20;

    /// A block from `allocate` with the layout [`Self::actual`] gives,
    /// advised to use huge pages when that layout is the huge-page one.
    fn advised(layout: Layout, allocate: impl FnOnce(Layout) -> *mut u8) -> *mut u8 {
        let actual = Self::actual(layout);
        let block = allocate(actual);
        if actual != layout && !block.is_null() {
            advise_huge_pages(block, actual.size());
        }
        block
    }

    /// The layout an allocation is made with: huge-page aligned when large.
    fn actual(layout: Layout) -> Layout {
        if layout.size() >= Self::LARGE && layout.align() < HUGE_PAGE {
            // A power of two, and the size is far below isize::MAX.
            Layout::from_size_align(layout.size(), HUGE_PAGE).unwrap_or(layout)
        } else {
            layout
        }
    }
}

// SAFETY: every method forwards to `System` with the layout `actual` gives,
// the same for an allocation's allocation and deallocation (it depends on
// the size and alignment alone), so `System` always sees matching layouts;
// realloc across the threshold moves the block itself.
unsafe impl GlobalAlloc for HugePageAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout has a non-zero size; `actual` too.
        Self::advised(layout, |actual| unsafe { System.alloc(actual) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        Self::advised(layout, |actual| unsafe { System.alloc_zeroed(actual) })
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` was allocated by `System` with `actual(layout)`.
        unsafe { System.dealloc(block, Self::actual(layout)) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = Layout::from_size_align(new_size, layout.align());
        match new_layout {
            Ok(new_layout)
                if Self::actual(layout) == layout && Self::actual(new_layout) == new_layout =>
            {
                // SAFETY: small before and after: the system's own realloc,
                // with the layout the block was allocated with.
                unsafe { System.realloc(block, layout, new_size) }
            }
            Ok(new_layout) => {
                // SAFETY: a fresh block of the new layout, the old contents
                // copied (the smaller of the two sizes), the old block freed
                // with the layout it was allocated with.
                unsafe {
                    let moved = self.alloc(new_layout);
                    if !moved.is_null() {
                        std::ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                        self.dealloc(block, layout);
                    }
                    moved
                }
            }
            Err(_) => std::ptr::null_mut(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_blocks_are_huge_page_aligned_and_keep_their_contents_when_moved() {
        let allocator = HugePageAllocator;
        for (size, grown) in [
            (100, 5_000),                                             // small to small
            (4096, HugePageAllocator::LARGE + 7),                     // small to large
            (HugePageAllocator::LARGE, 3 * HugePageAllocator::LARGE), // large to larger
            (HugePageAllocator::LARGE + 1, 64),                       // large to small
        ] {
            let layout = Layout::from_size_align(size, 8).unwrap();
            // SAFETY: each block is written within its size, moved with the
            // layout it has, and freed once with its latest layout.
            unsafe {
                let block = allocator.alloc(layout);
                assert!(!block.is_null());
                if size >= HugePageAllocator::LARGE {
                    assert_eq!(block as usize % HUGE_PAGE, 0, "{size}");
                }
                for i in 0..size.min(grown) {
                    *block.add(i) = (i % 251) as u8;
                }
                let moved = allocator.realloc(block, layout, grown);
                assert!(!moved.is_null());
                if grown >= HugePageAllocator::LARGE {
                    assert_eq!(moved as usize % HUGE_PAGE, 0, "{grown}");
                }
                for i in 0..size.min(grown) {
                    assert_eq!(
                        *moved.add(i),
                        (i % 251) as u8,
                        "byte {i} of {size} -> {grown}"
                    );
                }
                allocator.dealloc(moved, Layout::from_size_align(grown, 8).unwrap());
            }
        }
        // Zeroed and large.
        let layout = Layout::from_size_align(HugePageAllocator::LARGE, 64).unwrap();
        // SAFETY: read within the block's size, freed once with its layout.
        unsafe {
            let block = allocator.alloc_zeroed(layout);
            assert!(!block.is_null());
            assert_eq!(*block.add(HugePageAllocator::LARGE - 1), 0);
            allocator.dealloc(block, layout);
        }
    }
}
