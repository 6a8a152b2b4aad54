//! The bytes that property values checked without their trees keep their text in
//! ([`PropertyValue`](super::PropertyValue)): a file mapped from disk, shared by every value
//! checked in it (native, the large files [`load_dir`](super::load_dir) reads), or a copy of
//! one value's text.

use std::ops::Deref;

/// Bytes that values keep spans of.
pub(crate) enum FileBytes {
    /// One value's text, copied.
    Copied(Box<[u8]>),
    /// A whole file, mapped read-only.
    #[cfg(not(target_arch = "wasm32"))]
    Mapped(memmap2::Mmap),
}

impl Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Copied(bytes) => bytes,
            #[cfg(not(target_arch = "wasm32"))]
            FileBytes::Mapped(map) => map,
        }
    }
}
