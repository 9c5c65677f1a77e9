//! Identifiers: request ids (`req_<ULID>`), snapshot ids (`snp_<ULID>`) and the lowercase base32
//! used by citation ids. ULIDs sort by creation time, which keeps logs and snapshot lists readable.

use std::time::{SystemTime, UNIX_EPOCH};

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const BASE32_LOWER: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// Lower-case hexadecimal of `bytes` (a digest, a MAC).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new ULID: 48 bits of unix milliseconds then 80 random bits, Crockford base32 (26 chars).
pub fn ulid() -> String {
    let mut random = [0u8; 10];
    fill_random(&mut random);
    let mut out = String::with_capacity(26);
    push_ulid(&mut out, random);
    out
}

/// Appends the ULID of now and `random`.
fn push_ulid(out: &mut String, random: [u8; 10]) {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let mut value: u128 = (ms as u128 & 0xFFFF_FFFF_FFFF) << 80;
    for (i, byte) in random.iter().enumerate() {
        value |= (*byte as u128) << (8 * (9 - i));
    }
    // Into bytes, then appended at once: pushed a char at a time, each was checked for its
    // UTF-8 length and the string's room (every request makes one).
    let mut chars = [0u8; 26];
    for (i, char) in chars.iter_mut().rev().enumerate() {
        *char = CROCKFORD[((value >> (5 * i)) & 31) as usize];
    }
    out.push_str(std::str::from_utf8(&chars).expect("the alphabet is ASCII"));
}

/// Fills `buf` from the operating system's CSPRNG. Failure means the OS cannot give randomness,
/// which no part of regintel can work without.
pub fn fill_random(buf: &mut [u8]) {
    getrandom::fill(buf).expect("the operating system's random number generator failed");
}

/// A new request id, `req_` and a ULID. Its random bits come from the operating system's CSPRNG
/// as a ULID's do, but fetched for 32 ids at a time per thread: a system call per request was 2 %
/// of a small answer's server time.
pub fn request_id() -> String {
    const IDS_PER_FETCH: usize = 32;
    thread_local! {
        static FETCHED: std::cell::RefCell<([u8; 10 * IDS_PER_FETCH], usize)> =
            const { std::cell::RefCell::new(([0; 10 * IDS_PER_FETCH], 10 * IDS_PER_FETCH)) };
    }
    let random = FETCHED.with_borrow_mut(|(bytes, used)| {
        if *used == bytes.len() {
            fill_random(bytes);
            *used = 0;
        }
        let random: [u8; 10] = bytes[*used..*used + 10].try_into().expect("10 bytes");
        *used += 10;
        random
    });
    let mut out = String::with_capacity(30);
    out.push_str("req_");
    push_ulid(&mut out, random);
    out
}

pub fn briefing_id() -> String {
    format!("brf_{}", ulid().to_ascii_lowercase())
}

pub fn snapshot_id() -> String {
    format!("snp_{}", ulid().to_ascii_lowercase())
}

/// An inbound `X-Request-Id` is kept only if it is short and plain, so it can go
/// into logs and headers without escaping.
pub fn accept_request_id(value: &str) -> bool {
    (1..=64).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The first `chars` characters of the lowercase RFC 4648 base32 encoding of `bytes`.
pub fn base32_lower(bytes: &[u8], chars: usize) -> String {
    let mut out = vec![0; chars];
    base32_lower_into(bytes, &mut out);
    String::from_utf8(out).expect("the alphabet is ASCII")
}

/// The first `out.len()` characters of the lowercase base32 encoding of `bytes`, into `out`.
/// Whole groups of 5 bytes become 8 characters through one 40-bit number (a citation id is
/// encoded for every row an answer shows, so this runs per row); the last few bits go one
/// character at a time.
pub fn base32_lower_into(bytes: &[u8], out: &mut [u8]) {
    assert!(out.len() * 5 <= bytes.len() * 8, "not enough input bits");
    let whole = out.len() / 8 * 5;
    let mut chunks = out.chunks_exact_mut(8);
    let mut input = bytes.chunks_exact(5);
    for (chars, group) in (&mut chunks).zip(&mut input) {
        let mut word = [0u8; 8];
        word[3..].copy_from_slice(group);
        let word = u64::from_be_bytes(word);
        for (i, char) in chars.iter_mut().enumerate() {
            *char = BASE32_LOWER[((word >> (35 - 5 * i)) & 31) as usize];
        }
    }
    let (mut acc, mut bits, mut input) = (0u32, 0u32, bytes[whole..].iter());
    for char in chunks.into_remainder() {
        if bits < 5 {
            acc = (acc << 8) | *input.next().expect("checked above") as u32;
            bits += 8;
        }
        bits -= 5;
        *char = BASE32_LOWER[((acc >> bits) & 31) as usize];
    }
}

/// The `N` bytes whose [`base32_lower`] encoding begins with `text` (the bits past the text's
/// are zero); None if `text` has a character outside the alphabet or more bits than `N` bytes.
pub fn base32_lower_decode<const N: usize>(text: &[u8]) -> Option<[u8; N]> {
    if text.len() * 5 > N * 8 {
        return None;
    }
    let mut out = [0u8; N];
    let (mut acc, mut bits, mut at) = (0u32, 0u32, 0usize);
    for &char in text {
        let value = match char {
            b'a'..=b'z' => char - b'a',
            b'2'..=b'7' => char - b'2' + 26,
            _ => return None,
        };
        acc = (acc << 5) | u32::from(value);
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out[at] = (acc >> bits) as u8;
            at += 1;
        }
    }
    if bits > 0 {
        out[at] = (acc << (8 - bits)) as u8;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base32_matches_rfc4648_vectors() {
        // RFC 4648 §10, as far as whole characters go (no padded last one): whole groups of 5
        // bytes, the bits after them, and none.
        for (bytes, text) in [
            ("", ""),
            ("f", "m"),
            ("fo", "mzx"),
            ("foo", "mzxw"),
            ("foob", "mzxw6y"),
            ("fooba", "mzxw6ytb"),
            ("foobar", "mzxw6ytbo"),
        ] {
            assert_eq!(base32_lower(bytes.as_bytes(), text.len()), text);
        }
        assert_eq!(base32_lower(b"foobarfoobar", 19), "mzxw6ytbojtg633cmfz");
    }

    /// Decoding gives back the bytes an encoding came from, so the text comes back whole;
    /// characters outside the alphabet and texts too long for the bytes are refused.
    #[test]
    fn base32_decodes_what_it_encodes() {
        let bytes: [u8; 13] = *b"\x00\xffregintel\x7f\x80\xf0";
        let text = base32_lower(&bytes, 20);
        let decoded = base32_lower_decode::<13>(text.as_bytes()).unwrap();
        assert_eq!(base32_lower(&decoded, 20), text);
        // 100 bits of 104: the last four are zero.
        assert_eq!(decoded[..12], bytes[..12]);
        assert_eq!(decoded[12], bytes[12] & 0xf0);
        assert_eq!(base32_lower_decode::<7>(b"mzxw6ytboi"), Some(*b"foobar\0"));
        assert_eq!(base32_lower_decode::<13>(b"abc1"), None);
        assert_eq!(base32_lower_decode::<13>(b"ABC"), None);
        assert_eq!(base32_lower_decode::<2>(b"abcd"), None);
    }

    #[test]
    fn ulids_are_26_crockford_chars_and_increase() {
        let a = ulid();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = ulid();
        assert_eq!(a.len(), 26);
        assert!(a.bytes().all(|c| CROCKFORD.contains(&c)));
        assert!(a < b, "{a} < {b}");
    }

    /// The last 16 characters are the 80 random bits, most significant first.
    #[test]
    fn a_ulid_ends_with_its_random_bits() {
        let random = [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc];
        let mut out = String::from("req_");
        push_ulid(&mut out, random);
        let digit = |c: u8| CROCKFORD.iter().position(|&d| d == c).unwrap() as u128;
        let bits = out[14..].bytes().fold(0, |acc, c| acc << 5 | digit(c));
        let mut expected = [0; 16];
        expected[6..].copy_from_slice(&random);
        assert_eq!(bits, u128::from_be_bytes(expected), "{out}");
        assert_eq!(out.len(), 30);
    }

    /// Request ids take their random bits from a batch fetched per thread: every id of several
    /// batches is well-formed and none repeats.
    #[test]
    fn request_ids_are_ulids_and_never_repeat() {
        let ids: Vec<String> = (0..100).map(|_| request_id()).collect();
        for id in &ids {
            let ulid = id.strip_prefix("req_").expect(id);
            assert_eq!(ulid.len(), 26, "{id}");
            assert!(ulid.bytes().all(|c| CROCKFORD.contains(&c)), "{id}");
        }
        let distinct: std::collections::HashSet<&str> =
            ids.iter().map(|id| &id[id.len() - 16..]).collect();
        assert_eq!(distinct.len(), ids.len(), "random parts repeat");
    }

    #[test]
    fn inbound_request_ids_are_validated() {
        assert!(accept_request_id("abc-123_x.y"));
        assert!(!accept_request_id(""));
        assert!(!accept_request_id("has space"));
        assert!(!accept_request_id("new\nline"));
        assert!(!accept_request_id(&"a".repeat(65)));
    }
}
