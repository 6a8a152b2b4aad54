//! Go-compatible text: how opm and OLM, written in Go, print the values their messages hold.
//!
//! Every layer that must reproduce an upstream message uses these, so there is one copy of each
//! rule: [`quote`] (`%q`, `strconv.Quote`), [`string_slice`] (`%v` of a `[]string`),
//! [`format_g`] (`%v` of a float: `strconv.FormatFloat(f, 'g', -1, bits)`, exponent form from
//! 1e6 on), [`json_number`] (`encoding/json` of a float64, exponent form from 1e21 on) and
//! [`decode_base64`] (`base64.StdEncoding` as `encoding/json` and go-yaml decode `[]byte`),
//! [`write_json_string`] (a string as `encoding/json` writes it, HTML escaping on or off);
//! [`parse_decimal`] reads a float written in decimal (`strconv.ParseFloat`).
//! [`join_capped`] and [`string_slice_capped`] cap the lists of names a message holds
//! (`a, b (and 19,990 more)`), for every layer's messages.
//!
//! For example `format_g(1_000_000.0, 64)` is `1e+06` where `json_number(1_000_000.0)` is
//! `1000000`: opm prints the first in a `%v` message and the second in re-encoded JSON.

mod base64;
mod float;
mod json_string;
mod list;
mod quote;

pub use self::base64::{decode_base64, decode_base64_into};
pub use float::{format_g, json_number, parse_decimal};
pub use json_string::write_json_string;
pub use list::{join_capped, join_counted, string_slice_capped, thousands, LIST_CAP, OPM_LIST_CAP};
pub use quote::{is_go_print, quote, string_slice};
