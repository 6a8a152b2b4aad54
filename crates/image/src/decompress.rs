//! A layer's bytes decompressed as they stream: gzip, zstd or none, told by their first bytes
//! (media types lie: docker-archive names none, some registries mislabel); the decompressed size
//! is held to a budget so a decompression bomb ends with an error, not an exhausted machine.

use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read};
use std::rc::Rc;

use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};

use crate::budgets::{BudgetExceeded, Budgets};

/// A layer's compression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

/// The compression whose magic number `prefix` starts with (zstd frames, skippable ones included).
pub fn sniff(prefix: &[u8]) -> Compression {
    match prefix {
        [0x1f, 0x8b, ..] => Compression::Gzip,
        [0x28, 0xb5, 0x2f, 0xfd, ..] => Compression::Zstd,
        [m, 0x2a, 0x4d, 0x18, ..] if m & 0xf0 == 0x50 => Compression::Zstd,
        _ => Compression::None,
    }
}

/// `raw` decompressed (whatever it is compressed with), its output held to `budgets`: at most
/// `layer_ratio` times the bytes read from `raw` plus `layer_slack`, and `layer_bytes` in all.
pub fn decompressed<'a>(raw: impl Read + 'a, budgets: &Budgets) -> io::Result<(Compression, Box<dyn Read + 'a>)> {
    let read_in = Rc::new(Cell::new(0u64));
    let mut buffered = BufReader::with_capacity(64 * 1024, Counted { inner: raw, count: read_in.clone() });
    let compression = sniff(peek(&mut buffered, 4)?);
    let plain: Box<dyn Read + 'a> = match compression {
        Compression::None => Box::new(buffered),
        Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(buffered)),
        Compression::Zstd => Box::new(ZstdFrames { src: buffered, frame: FrameDecoder::new(), in_frame: false }),
    };
    let limited = Budgeted {
        inner: plain,
        read_in,
        out: 0,
        ratio: if compression == Compression::None { 1 } else { budgets.layer_ratio },
        slack: budgets.layer_slack,
        max: budgets.layer_bytes,
    };
    Ok((compression, Box::new(limited)))
}

/// At least `n` bytes buffered (fewer only at the end of the stream), without consuming them.
fn peek<R: Read>(r: &mut BufReader<R>, n: usize) -> io::Result<&[u8]> {
    // A BufReader refills only when empty; a stream that gives fewer than `n` bytes in its first
    // read (a network body) is read byte by byte into a small prefix instead.
    let have = r.fill_buf()?.len();
    if have >= n || have == 0 {
        return r.fill_buf();
    }
    Ok(r.buffer())
}

/// Counts the bytes read from the compressed source.
struct Counted<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// The decompressed stream, refused once it outgrows its budget.
struct Budgeted<'a> {
    inner: Box<dyn Read + 'a>,
    read_in: Rc<Cell<u64>>,
    out: u64,
    ratio: u64,
    slack: u64,
    max: u64,
}

impl Read for Budgeted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.out += n as u64;
        let allowed = self.read_in.get().saturating_mul(self.ratio).saturating_add(self.slack).min(self.max);
        if self.out > allowed {
            let limit = if allowed == self.max { self.max } else { self.ratio };
            return Err(io::Error::other(BudgetExceeded { out: self.out, limit, ratio: allowed != self.max }));
        }
        Ok(n)
    }
}

/// A zstd stream of one or more frames (skippable frames skipped), decoded as it is read.
struct ZstdFrames<R> {
    src: R,
    frame: FrameDecoder,
    in_frame: bool,
}

impl<R: BufRead> ZstdFrames<R> {
    /// Start the next frame; `false` at the end of the stream.
    fn next_frame(&mut self) -> io::Result<bool> {
        loop {
            if self.src.fill_buf()?.is_empty() {
                return Ok(false);
            }
            match self.frame.reset(&mut self.src) {
                Ok(()) => return Ok(true),
                Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame { length, .. })) => {
                    let skipped = io::copy(&mut (&mut self.src).take(u64::from(length)), &mut io::sink())?;
                    if skipped < u64::from(length) {
                        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "truncated zstd skippable frame"));
                    }
                }
                Err(e) => return Err(io::Error::new(io::ErrorKind::InvalidData, format!("zstd: {e}"))),
            }
        }
    }
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if !self.in_frame {
                if !self.next_frame()? {
                    return Ok(0);
                }
                self.in_frame = true;
            }
            while self.frame.can_collect() < buf.len() && !self.frame.is_finished() {
                let want = buf.len() - self.frame.can_collect();
                self.frame
                    .decode_blocks(&mut self.src, BlockDecodingStrategy::UptoBytes(want))
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("zstd: {e}")))?;
            }
            let n = self.frame.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
            if self.frame.is_finished() {
                self.in_frame = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn zstd(data: &[u8]) -> Vec<u8> {
        ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
    }

    fn all(raw: &[u8], budgets: &Budgets) -> io::Result<(Compression, Vec<u8>)> {
        let (c, mut r) = decompressed(raw, budgets)?;
        let mut out = Vec::new();
        r.read_to_end(&mut out)?;
        Ok((c, out))
    }

    #[test]
    fn gzip_zstd_and_plain_layers_are_told_by_their_first_bytes() {
        let data = b"hello layer".repeat(100);
        let b = Budgets::default();
        assert_eq!(all(&gzip(&data), &b).unwrap(), (Compression::Gzip, data.clone()));
        assert_eq!(all(&zstd(&data), &b).unwrap(), (Compression::Zstd, data.clone()));
        assert_eq!(all(&data, &b).unwrap(), (Compression::None, data.clone()));
        assert_eq!(all(b"", &b).unwrap(), (Compression::None, vec![]));
    }

    #[test]
    fn several_zstd_frames_and_skippable_frames_are_one_stream() {
        let mut raw = zstd(b"first ");
        raw.extend([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);
        raw.extend(zstd(b"second"));
        assert_eq!(all(&raw, &Budgets::default()).unwrap().1, b"first second");
    }

    #[test]
    fn a_decompression_bomb_stops_at_the_ratio_budget() {
        let bomb = gzip(&vec![0u8; 64 << 20]);
        let b = Budgets { layer_ratio: 100, layer_slack: 1 << 20, ..Budgets::default() };
        let e = all(&bomb, &b).unwrap_err();
        let over = e.get_ref().and_then(|e| e.downcast_ref::<BudgetExceeded>()).expect("a budget error");
        assert!(over.ratio, "{over:?}");
    }

    #[test]
    fn a_layer_stops_at_its_absolute_budget() {
        let b = Budgets { layer_bytes: 1000, ..Budgets::default() };
        assert!(all(&[7u8; 5000], &b).is_err());
        assert!(all(&[7u8; 1000], &b).is_ok());
    }

    #[test]
    fn corrupt_compressed_data_is_an_error_not_a_panic() {
        let mut g = gzip(b"some data that is long enough to matter");
        let n = g.len();
        g[n / 2] ^= 0xff;
        assert!(all(&g, &Budgets::default()).is_err());
        let mut z = zstd(&b"abc".repeat(1000));
        z.truncate(z.len() / 2);
        assert!(all(&z, &Budgets::default()).is_err());
    }
}
