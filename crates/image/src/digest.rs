//! Content digests (`sha256:…`, `sha512:…`): parsing, computing, and a reader that hashes what
//! passes through it so a streamed blob is checked once it has been read to the end.

use std::fmt;
use std::io::{self, Read};

use sha2::{Digest as _, Sha256, Sha512};

use crate::Error;

/// A digest's algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Algorithm {
    Sha256,
    Sha512,
}

impl Algorithm {
    /// Its name in a digest string.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Sha256 => "sha256",
            Algorithm::Sha512 => "sha512",
        }
    }

    fn hex_len(self) -> usize {
        match self {
            Algorithm::Sha256 => 64,
            Algorithm::Sha512 => 128,
        }
    }
}

/// A content digest: an algorithm and the lowercase hex of the hash.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest {
    algorithm: Algorithm,
    hex: String,
}

impl Digest {
    /// Parse `sha256:<64 hex>` or `sha512:<128 hex>` (lowercase, as the OCI spec registers them).
    pub fn parse(s: &str) -> Result<Digest, Error> {
        let bad = || Error::BadDigest { digest: s.to_string() };
        let (alg, hex) = s.split_once(':').ok_or_else(bad)?;
        let algorithm = match alg {
            "sha256" => Algorithm::Sha256,
            "sha512" => Algorithm::Sha512,
            _ => return Err(bad()),
        };
        let ok =
            hex.len() == algorithm.hex_len() && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if !ok {
            return Err(bad());
        }
        Ok(Digest { algorithm, hex: hex.to_string() })
    }

    /// The sha256 digest of `bytes`.
    pub fn sha256_of(bytes: &[u8]) -> Digest {
        let mut h = Hasher::new(Algorithm::Sha256);
        h.update(bytes);
        h.finish()
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The hex part (a blob's file name in an OCI layout).
    pub fn hex(&self) -> &str {
        &self.hex
    }

    /// `Ok` when `bytes` have this digest, else the mismatch naming both digests.
    pub fn verify(&self, what: &str, bytes: &[u8]) -> Result<(), Error> {
        let mut h = Hasher::new(self.algorithm);
        h.update(bytes);
        self.check(what, h.finish())
    }

    /// `Ok` when `actual` is this digest, else the mismatch naming both.
    pub fn check(&self, what: &str, actual: Digest) -> Result<(), Error> {
        if actual == *self {
            Ok(())
        } else {
            Err(Error::DigestMismatch {
                what: what.to_string(),
                expected: self.to_string(),
                actual: actual.to_string(),
            })
        }
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.algorithm.name(), self.hex)
    }
}

/// An incremental hash of one algorithm.
pub enum Hasher {
    Sha256(Sha256),
    Sha512(Sha512),
}

impl Hasher {
    pub fn new(algorithm: Algorithm) -> Hasher {
        match algorithm {
            Algorithm::Sha256 => Hasher::Sha256(Sha256::new()),
            Algorithm::Sha512 => Hasher::Sha512(Sha512::new()),
        }
    }

    pub fn update(&mut self, bytes: &[u8]) {
        match self {
            Hasher::Sha256(h) => h.update(bytes),
            Hasher::Sha512(h) => h.update(bytes),
        }
    }

    pub fn finish(self) -> Digest {
        let (algorithm, bytes) = match self {
            Hasher::Sha256(h) => (Algorithm::Sha256, h.finalize().to_vec()),
            Hasher::Sha512(h) => (Algorithm::Sha512, h.finalize().to_vec()),
        };
        let hex = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Digest { algorithm, hex }
    }
}

/// A reader that hashes every byte read through it.
pub struct HashingReader<R> {
    inner: R,
    hasher: Hasher,
}

impl<R: Read> HashingReader<R> {
    pub fn new(inner: R, algorithm: Algorithm) -> Self {
        HashingReader { inner, hasher: Hasher::new(algorithm) }
    }

    /// Read what is left to the end (so the whole blob is hashed) and return the digest.
    pub fn finish(mut self) -> io::Result<Digest> {
        io::copy(&mut self, &mut io::sink())?;
        Ok(self.hasher.finish())
    }
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMPTY: &str = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    #[test]
    fn a_digest_is_an_algorithm_and_lowercase_hex_of_its_length() {
        assert_eq!(Digest::parse(EMPTY).unwrap().to_string(), EMPTY);
        for bad in ["sha256:abc", "md5:e3b0", "e3b0c442", &EMPTY.to_uppercase(), &format!("{EMPTY}0")] {
            assert!(matches!(Digest::parse(bad), Err(Error::BadDigest { .. })), "{bad}");
        }
    }

    #[test]
    fn verification_names_both_digests_on_a_mismatch() {
        let d = Digest::parse(EMPTY).unwrap();
        assert!(d.verify("blob", b"").is_ok());
        let e = d.verify("blob", b"x").unwrap_err().to_string();
        assert!(e.contains(EMPTY) && e.contains(&Digest::sha256_of(b"x").to_string()), "{e}");
    }

    #[test]
    fn a_hashing_reader_hashes_the_whole_stream_even_when_read_in_part() {
        let mut r = HashingReader::new(&b"hello world"[..], Algorithm::Sha256);
        let mut first = [0u8; 5];
        r.read_exact(&mut first).unwrap();
        assert_eq!(r.finish().unwrap(), Digest::sha256_of(b"hello world"));
    }
}
