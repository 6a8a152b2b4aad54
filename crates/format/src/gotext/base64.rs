//! Standard base64 as Go decodes it (`base64.StdEncoding`, which `encoding/json` uses for
//! `[]byte` fields and go-yaml for `!!binary`): `\r` and `\n` are skipped, padding is required,
//! non-zero trailing bits are tolerated, and an error names the first bad input byte.

use std::fmt;

/// Go's `base64.CorruptInputError`; `Display` gives Go's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Base64Error {
    /// Offset of the first byte Go rejects (in the input without its line breaks).
    pub offset: usize,
}

impl fmt::Display for Base64Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal base64 data at input byte {}", self.offset)
    }
}

impl std::error::Error for Base64Error {}

use ::base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use ::base64::Engine as _;

/// Go's `StdEncoding` rules in the `base64` crate's terms.
const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &::base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
);

/// [`decode_base64`] into `out` (cleared first), reusing its capacity: for callers that decode
/// many payloads only to look at them.
pub fn decode_base64_into(s: &str, out: &mut Vec<u8>) -> Result<(), Base64Error> {
    out.clear();
    if ENGINE.decode_vec(s, out).is_ok() {
        return Ok(());
    }
    out.clear();
    out.extend_from_slice(&decode_base64(s)?);
    Ok(())
}

/// Decode `s` as Go's `base64.StdEncoding.DecodeString` does.
pub fn decode_base64(s: &str) -> Result<Vec<u8>, Base64Error> {
    // Line breaks are rare: decode as is first, and only on failure look for them to strip.
    if let Ok(bytes) = ENGINE.decode(s) {
        return Ok(bytes);
    }
    let owned;
    let input = if s.bytes().any(|b| b == b'\n' || b == b'\r') {
        owned = s.replace(['\n', '\r'], "");
        owned.as_str()
    } else {
        s
    };
    ENGINE.decode(input).map_err(|e| {
        let offset = match e {
            ::base64::DecodeError::InvalidByte(o, _) | ::base64::DecodeError::InvalidLastSymbol(o, _) => o,
            ::base64::DecodeError::InvalidLength(l) => l,
            ::base64::DecodeError::InvalidPadding => input.len(),
        };
        Base64Error { offset }
    })
}

#[cfg(test)]
mod tests {
    use super::{decode_base64, decode_base64_into};

    #[test]
    fn decodes_like_go() {
        assert_eq!(decode_base64("aGk=").unwrap(), b"hi");
        assert_eq!(decode_base64("aG\nk=").unwrap(), b"hi");
        assert_eq!(decode_base64("").unwrap(), b"");
        let mut buf = b"old".to_vec();
        decode_base64_into("aG\nk=", &mut buf).unwrap();
        assert_eq!(buf, b"hi");
        assert!(decode_base64_into("a$k=", &mut buf).is_err());
    }

    #[test]
    fn errors_name_the_first_bad_byte() {
        assert!(decode_base64("aGk").is_err());
        assert_eq!(decode_base64("a$k=").unwrap_err().to_string(), "illegal base64 data at input byte 1");
    }
}
