//! CEL rules of `olm.constraint`.
