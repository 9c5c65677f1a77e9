//! Identifiers: request ids (`req_<ULID>`), snapshot ids (`snp_<ULID>`) and the lowercase base32
//! used by citation ids. ULIDs sort by creation time, which keeps logs and snapshot lists readable.

use std::time::{SystemTime, UNIX_EPOCH};

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const BASE32_LOWER: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// A new ULID: 48 bits of unix milliseconds then 80 random bits, Crockford base32 (26 chars).
pub fn ulid() -> String {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let mut random = [0u8; 10];
    fill_random(&mut random);
    let mut value: u128 = (ms as u128 & 0xFFFF_FFFF_FFFF) << 80;
    for (i, byte) in random.iter().enumerate() {
        value |= (*byte as u128) << (8 * (9 - i));
    }
    (0..26)
        .rev()
        .map(|i| CROCKFORD[((value >> (5 * i)) & 31) as usize] as char)
        .collect()
}

/// Fills `buf` from the operating system's CSPRNG. Failure means the OS cannot give randomness,
/// which no part of regintel can work without.
pub fn fill_random(buf: &mut [u8]) {
    getrandom::fill(buf).expect("the operating system's random number generator failed");
}

pub fn request_id() -> String {
    format!("req_{}", ulid())
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
    assert!(chars * 5 <= bytes.len() * 8, "not enough input bits");
    let mut out = String::with_capacity(chars);
    let (mut acc, mut bits, mut input) = (0u32, 0u32, bytes.iter());
    while out.len() < chars {
        if bits < 5 {
            acc = (acc << 8) | *input.next().expect("checked above") as u32;
            bits += 8;
        }
        bits -= 5;
        out.push(BASE32_LOWER[((acc >> bits) & 31) as usize] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base32_matches_rfc4648_vectors() {
        // RFC 4648 §10: BASE32("foobar") = "MZXW6YTBOI======"
        assert_eq!(base32_lower(b"foobar", 9), "mzxw6ytbo");
        assert_eq!(base32_lower(b"f", 1), "m");
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

    #[test]
    fn inbound_request_ids_are_validated() {
        assert!(accept_request_id("abc-123_x.y"));
        assert!(!accept_request_id(""));
        assert!(!accept_request_id("has space"));
        assert!(!accept_request_id("new\nline"));
        assert!(!accept_request_id(&"a".repeat(65)));
    }
}
