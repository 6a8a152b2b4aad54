//! Go-compatible text: how opm and OLM, written in Go, print the values their messages hold.
//!
//! Every layer that must reproduce an upstream message uses these, so there is one copy of each
//! rule: [`quote`] (`%q`, `strconv.Quote`), [`string_slice`] (`%v` of a `[]string`),
//! [`format_g`] (`%v` of a float: `strconv.FormatFloat(f, 'g', -1, bits)`, exponent form from
//! 1e6 on), [`json_number`] (`encoding/json` of a float64, exponent form from 1e21 on) and
//! [`decode_base64`] (`base64.StdEncoding` as `encoding/json` and go-yaml decode `[]byte`).
//!
//! ```
//! use olm_catalog::gotext::{format_g, json_number, quote};
//!
//! assert_eq!(quote("a\"b"), r#""a\"b""#);
//! assert_eq!(format_g(1_000_000.0, 64), "1e+06");
//! assert_eq!(json_number(1_000_000.0).unwrap(), "1000000");
//! ```

mod base64;
mod float;
mod quote;

pub use self::base64::decode_base64;
pub use float::{format_g, json_number};
pub use quote::{quote, string_slice};
