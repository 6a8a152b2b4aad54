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
    #[cfg(not(target_arch = "wasm32"))]
    if let Ok(()) = simd_decode_into(s, out) {
        return Ok(());
    }
    if ENGINE.decode_vec(s, out).is_ok() {
        return Ok(());
    }
    out.clear();
    out.extend_from_slice(&decode_base64(s)?);
    Ok(())
}

/// The SIMD decoder natively: it takes only canonical padded input, a subset of what Go takes,
/// and decodes it to the same bytes; anything else is left to the `base64` crate's Go rules.
#[cfg(not(target_arch = "wasm32"))]
fn simd_decode_into(s: &str, out: &mut Vec<u8>) -> Result<(), ::base64_simd::Error> {
    // Into the buffer's spare capacity: the bytes are not zeroed first.
    ::base64_simd::STANDARD.decode_append(s.as_bytes(), out)
}

/// Decode `s` as Go's `base64.StdEncoding.DecodeString` does.
pub fn decode_base64(s: &str) -> Result<Vec<u8>, Base64Error> {
    #[cfg(not(target_arch = "wasm32"))]
    if let Ok(bytes) = ::base64_simd::STANDARD.decode_to_vec(s) {
        return Ok(bytes);
    }
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

    /// The SIMD decoder only takes what Go takes, and decodes it to the same bytes: checked on
    /// encodings of every length up to 300 and on each of them with one byte changed.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_simd_decoder_accepts_a_subset_of_go_with_the_same_bytes() {
        use ::base64::Engine as _;
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.next();
        for len in 0..300 {
            let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            let text = ::base64::engine::general_purpose::STANDARD.encode(&data);
            let mut inputs = vec![text.clone()];
            for _ in 0..8 {
                let mut bytes = text.clone().into_bytes();
                if let Some(i) = (!bytes.is_empty()).then(|| next() as usize % bytes.len()) {
                    bytes[i] = b"A/+=\n $z9"[next() as usize % 9];
                }
                inputs.push(String::from_utf8(bytes).unwrap());
            }
            for input in inputs {
                let mut simd = Vec::new();
                if super::simd_decode_into(&input, &mut simd).is_ok() {
                    assert_eq!(super::ENGINE.decode(&input).ok(), Some(simd), "{input}");
                }
            }
        }
    }

    #[test]
    fn errors_name_the_first_bad_byte() {
        assert!(decode_base64("aGk").is_err());
        assert_eq!(decode_base64("a$k=").unwrap_err().to_string(), "illegal base64 data at input byte 1");
    }
}
