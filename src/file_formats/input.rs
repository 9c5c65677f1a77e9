//! The bytes of a file as the parsers read them: gunzipped when they are gzip (whatever the
//! file's name), without a byte-order mark, in lines of bounded length, and with the first line
//! available before the rest so the format can be recognised from it. Everything streams: no
//! file is ever held whole, whatever its size.

use std::io::{self, BufRead, BufReader, Read};

use super::parsing::FormatError;

/// First two bytes of every gzip member (RFC 1952).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Longest line (or CSV record) read. Real lines are a few kilobytes (a TSV series over sixty
/// years); a file without line breaks must not make one line hold all of it.
pub const MAX_LINE_BYTES: usize = 1 << 20;

const BUFFER_BYTES: usize = 64 * 1024;

/// A file opened for parsing: its first line (for recognising the format) and the stream that
/// reads it again from the start.
pub(super) struct Opened<'r> {
    pub first_line: String,
    pub stream: Box<dyn BufRead + 'r>,
}

/// Opens `input`: when `inflate`, inflates every gzip member (`cat a.gz b.gz` is valid gzip and
/// must not lose its second half); drops a UTF-8 byte-order mark, which spreadsheet tools like to
/// prepend.
pub(super) fn open<'r>(
    file: &str,
    input: impl Read + 'r,
    inflate: bool,
) -> Result<Opened<'r>, FormatError> {
    let mut raw = BufReader::with_capacity(BUFFER_BYTES, input);
    let head = raw.fill_buf().map_err(|e| read_error(file, &e))?;
    let mut stream: Box<dyn BufRead + 'r> = if inflate && head.starts_with(&GZIP_MAGIC) {
        Box::new(BufReader::with_capacity(
            BUFFER_BYTES,
            Gunzip(flate2::bufread::MultiGzDecoder::new(raw)),
        ))
    } else {
        Box::new(raw)
    };
    if stream
        .fill_buf()
        .map_err(|e| read_error(file, &e))?
        .starts_with(b"\xEF\xBB\xBF")
    {
        stream.consume(3);
    }
    let mut first = Vec::new();
    (&mut stream)
        .take(MAX_LINE_BYTES as u64)
        .read_until(b'\n', &mut first)
        .map_err(|e| read_error(file, &e))?;
    let first_line = String::from_utf8_lossy(&first)
        .trim_end_matches(['\r', '\n'])
        .to_owned();
    Ok(Opened {
        first_line,
        stream: Box::new(BufReader::with_capacity(
            BUFFER_BYTES,
            io::Cursor::new(first).chain(stream),
        )),
    })
}

/// A stream that cannot be read on: corrupt gzip data, or the file's own read error.
pub(super) fn read_error(file: &str, error: &io::Error) -> FormatError {
    FormatError::new(file, 0, error.to_string())
}

/// Says which data is corrupt when inflating fails.
struct Gunzip<R>(flate2::bufread::MultiGzDecoder<R>);

impl<R: BufRead> Read for Gunzip<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0
            .read(buf)
            .map_err(|e| io::Error::new(e.kind(), format!("corrupt gzip data: {e}")))
    }
}

/// The lines of a stream, numbered from 1, without their line break, each checked to be UTF-8
/// without control characters (tabs aside) and at most [`MAX_LINE_BYTES`] long.
pub(super) struct Lines<'r> {
    file: &'r str,
    stream: Box<dyn BufRead + 'r>,
    buffer: Vec<u8>,
    line: u64,
}

impl<'r> Lines<'r> {
    pub(super) fn new(file: &'r str, stream: Box<dyn BufRead + 'r>) -> Self {
        Lines {
            file,
            stream,
            buffer: Vec::new(),
            line: 0,
        }
    }

    /// The next line and its number; `None` at the end.
    pub(super) fn next_line(&mut self) -> Result<Option<(u64, &str)>, FormatError> {
        self.buffer.clear();
        let read = (&mut self.stream)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut self.buffer)
            .map_err(|e| read_error(self.file, &e))?;
        if read == 0 {
            return Ok(None);
        }
        self.line += 1;
        if self.buffer.len() > MAX_LINE_BYTES {
            return Err(FormatError::new(
                self.file,
                self.line,
                format!("the line is longer than {MAX_LINE_BYTES} bytes"),
            ));
        }
        let text = self.buffer.strip_suffix(b"\n").unwrap_or(&self.buffer);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        let text = std::str::from_utf8(text)
            .map_err(|_| FormatError::new(self.file, self.line, "not valid UTF-8"))?;
        // Tabs part the columns of a TSV line; no other control character belongs in one.
        if let Some(c) = text.chars().find(|&c| c.is_control() && c != '\t') {
            return Err(FormatError::new(
                self.file,
                self.line,
                format!(
                    "the line holds the control character {}",
                    crate::text::code_point(c)
                ),
            ));
        }
        Ok(Some((self.line, text)))
    }
}

/// The line breaks a CSV reader has read past, so a record's line can be told from its byte
/// offset, and a bound on how far the reader may read without completing a record.
pub(super) struct LineBreaks<R> {
    inner: R,
    /// Bytes read so far.
    read: u64,
    /// Offsets of the `\r` and `\n` bytes read and not yet counted, with whether each is `\n`.
    pending: std::collections::VecDeque<(u64, bool)>,
    /// Offset where the record being read began.
    record_start: u64,
}

impl<R: Read> LineBreaks<R> {
    pub(super) fn new(inner: R) -> Self {
        LineBreaks {
            inner,
            read: 0,
            pending: Default::default(),
            record_start: 0,
        }
    }

    /// Where the record being read began.
    pub(super) fn record_start(&self) -> u64 {
        self.record_start
    }

    /// Counts the line breaks before the record at `byte` (skipping breaks at its very start,
    /// where a reader may place a record's offset) onto `line`, and starts that record.
    pub(super) fn line_at(&mut self, byte: u64, line: &mut u64) {
        let mut start = byte;
        while let Some(&(offset, newline)) = self.pending.front() {
            if offset <= start {
                if offset == start {
                    start += 1;
                }
                *line += u64::from(newline);
                self.pending.pop_front();
            } else {
                break;
            }
        }
        self.record_start = start;
    }
}

impl<R: Read> Read for LineBreaks<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.read - self.record_start > MAX_LINE_BYTES as u64 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "more than {MAX_LINE_BYTES} bytes without the end of a row \
                     (a row that long, blank lines, or a quote left open)"
                ),
            ));
        }
        let n = self.inner.read(buf)?;
        for i in memchr::memchr2_iter(b'\r', b'\n', &buf[..n]) {
            self.pending
                .push_back((self.read + i as u64, buf[i] == b'\n'));
        }
        self.read += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8]) -> Vec<Result<(u64, String), FormatError>> {
        let opened = open("f", text, true).unwrap();
        let mut lines = Lines::new("f", opened.stream);
        let mut out = Vec::new();
        loop {
            match lines.next_line() {
                Ok(Some((n, l))) => out.push(Ok((n, l.to_owned()))),
                Ok(None) => return out,
                Err(e) => {
                    out.push(Err(e));
                    return out;
                }
            }
        }
    }

    #[test]
    fn lines_lose_their_breaks_and_the_byte_order_mark() {
        let got = lines(b"\xEF\xBB\xBFa\r\nb\n\nc");
        let want = [(1, "a"), (2, "b"), (3, ""), (4, "c")];
        assert_eq!(
            got.into_iter().map(Result::unwrap).collect::<Vec<_>>(),
            want.map(|(n, l)| (n, l.to_owned()))
        );
        assert_eq!(
            open("f", &b"\xEF\xBB\xBFh,v\n1"[..], true)
                .unwrap()
                .first_line,
            "h,v"
        );
    }

    #[test]
    fn a_line_past_the_bound_is_refused_with_its_number() {
        let mut text = b"header\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 1));
        let e = lines(&text).pop().unwrap().unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.reason.contains("longer than"), "{}", e.reason);
        let e = lines(b"ok\n\xff\n").pop().unwrap().unwrap_err();
        assert_eq!((e.line, e.reason.as_str()), (2, "not valid UTF-8"));
        let e = lines(b"ok\tfine\nDE\x0021\n").pop().unwrap().unwrap_err();
        assert_eq!(
            (e.line, e.reason.as_str()),
            (2, "the line holds the control character U+0000")
        );
    }

    #[test]
    fn line_breaks_are_counted_up_to_a_record() {
        let mut breaks = LineBreaks::new(&b"a\r\nb\n\nc\n"[..]);
        std::io::copy(&mut breaks, &mut std::io::sink()).unwrap();
        let mut line = 1;
        breaks.line_at(3, &mut line);
        assert_eq!(line, 2);
        // A record placed on the break before it still starts on the next line.
        breaks.line_at(5, &mut line);
        assert_eq!(line, 4);
    }
}
