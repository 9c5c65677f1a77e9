//! Service API keys: `sk_service_` + 8-char key id + 32-char secret + 6-char checksum, all base62,
//! after GitHub's token format (<https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/>). The checksum lets us (and secret scanners) reject typos and random
//! strings offline, before any database work; the key id is the public lookup handle.

use std::fmt;

use crate::ids::fill_random;

pub const PREFIX: &str = "sk_service_";
pub const LEN: usize = 57;

/// The order matters: the checksum digits are indices into this alphabet.
const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ID_LEN: usize = 8;
const SECRET_LEN: usize = 32;
const CHECKSUM_LEN: usize = 6;
/// Everything after the prefix: key id, secret and checksum.
const TAIL_LEN: usize = ID_LEN + SECRET_LEN + CHECKSUM_LEN;

/// A freshly generated key. The plaintext is shown to its owner once and never stored.
pub struct GeneratedKey {
    pub key_id: String,
    pub plaintext: String,
}

/// Keeps the plaintext out of logs and panic messages.
impl fmt::Debug for GeneratedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GeneratedKey")
            .field("key_id", &self.key_id)
            .finish_non_exhaustive()
    }
}

/// A new key with a random key id and a ≈190-bit random secret.
pub fn generate() -> GeneratedKey {
    let key_id = random_base62(ID_LEN);
    let body = format!("{PREFIX}{key_id}{}", random_base62(SECRET_LEN));
    let plaintext = format!("{body}{}", checksum(&body));
    GeneratedKey { key_id, plaintext }
}

/// The key id of `presented` if it has exactly the key format and a valid checksum. Anything
/// else (other tokens, typos, non-ASCII) gives `None`, so it can be answered 401 without a lookup.
pub fn parse(presented: &str) -> Option<&str> {
    let tail = presented.strip_prefix(PREFIX)?;
    if tail.len() != TAIL_LEN || !tail.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    // All ASCII from here on, so byte offsets are character boundaries.
    let (body, sum) = presented.split_at(LEN - CHECKSUM_LEN);
    (checksum(body) == sum).then(|| &tail[..ID_LEN])
}

/// CRC-32/ISO-HDLC of `body` as 6 base62 digits, big-endian, left-padded with `0`.
pub fn checksum(body: &str) -> String {
    let mut value = crc32(body.as_bytes());
    let mut digits = [b'0'; CHECKSUM_LEN];
    for digit in digits.iter_mut().rev() {
        *digit = ALPHABET[(value % 62) as usize];
        value /= 62;
    }
    digits.iter().map(|&d| char::from(d)).collect()
}

/// `text` with every `sk_service_` followed by more letters and digits than a key id replaced by
/// `sk_service_<key_id>…[redacted]`: a whole key, a key cut short (without its checksum, or
/// half of its secret) and one run on into other characters are all scrubbed, so no part of a
/// secret reaches a log line or an error. Text without the prefix (nearly every log line and
/// path) is returned as it is, unallocated.
pub fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(PREFIX) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(PREFIX) {
        let after = &rest[at + PREFIX.len()..];
        let run = after.bytes().take_while(u8::is_ascii_alphanumeric).count();
        if run > ID_LEN {
            out.push_str(&rest[..at]);
            out.push_str(PREFIX);
            out.push_str(&after[..ID_LEN]);
            out.push_str("…[redacted]");
            rest = &after[run..];
        } else {
            out.push_str(&rest[..at + PREFIX.len()]);
            rest = after;
        }
    }
    out.push_str(rest);
    out.into()
}

/// `n` characters drawn uniformly from the base62 alphabet with the OS CSPRNG, by rejection
/// sampling.
pub(crate) fn random_base62(n: usize) -> String {
    let mut out = String::with_capacity(n);
    let mut buf = [0u8; 64];
    while out.len() < n {
        fill_random(&mut buf);
        let missing = n - out.len();
        out.extend(buf.iter().filter_map(|&b| base62_char(b)).take(missing));
    }
    out
}

/// The base62 character for a random byte, or `None` for bytes at or above 248 (= 4 × 62):
/// rejecting them gives every character exactly the same probability.
fn base62_char(byte: u8) -> Option<char> {
    (byte < 248).then(|| char::from(ALPHABET[usize::from(byte % 62)]))
}

/// The zlib/IEEE CRC-32 (reflected polynomial 0xEDB88320), bit by bit: keys are short.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    const VECTOR: &str = "sk_service_Ab3dE5gHk7Q2mZp9LwX4vB8nR1tY6cJ3hF0sD5gA1GYRVj";

    #[test]
    fn the_documented_checksum_test_vector() {
        let body = "sk_service_Ab3dE5gHk7Q2mZp9LwX4vB8nR1tY6cJ3hF0sD5gA";
        assert_eq!(crc32(body.as_bytes()), 0x452f_d6eb);
        assert_eq!(checksum(body), "1GYRVj");
        assert_eq!(format!("{body}{}", checksum(body)), VECTOR);
        assert_eq!(VECTOR.len(), LEN);
        assert_eq!(parse(VECTOR), Some("Ab3dE5gH"));
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        // The CRC catalogue's check value for CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(checksum(""), "000000");
    }

    #[test]
    fn generated_keys_parse_to_their_id() {
        for _ in 0..200 {
            let key = generate();
            assert_eq!(key.plaintext.len(), LEN);
            assert!(key.plaintext.starts_with(PREFIX));
            assert_eq!(parse(&key.plaintext), Some(key.key_id.as_str()));
        }
        assert_ne!(generate().plaintext, generate().plaintext);
    }

    #[test]
    fn any_single_changed_character_fails() {
        for i in PREFIX.len()..LEN {
            let mut bytes = VECTOR.as_bytes().to_vec();
            bytes[i] = if bytes[i] == b'x' { b'y' } else { b'x' };
            let changed = String::from_utf8(bytes).unwrap();
            assert_eq!(parse(&changed), None, "position {i}: {changed}");
        }
    }

    #[test]
    fn wrong_prefix_length_or_alphabet_fails() {
        let tail = &VECTOR[PREFIX.len()..];
        assert_eq!(parse(&format!("sk_servic_{tail}")), None);
        assert_eq!(parse(&format!("SK_SERVICE_{tail}")), None);
        assert_eq!(parse(&format!("rk_service_{tail}")), None);
        assert_eq!(parse(tail), None);
        assert_eq!(parse(&VECTOR[..LEN - 1]), None);
        assert_eq!(parse(&format!("{VECTOR}0")), None);
        assert_eq!(parse(&format!("{VECTOR} ")), None);
        assert_eq!(parse(&VECTOR.replace('k', "-")), None);
        assert_eq!(parse(&VECTOR.replace('k', "_")), None);
        assert_eq!(parse(""), None);
        assert_eq!(parse(PREFIX), None);
    }

    #[test]
    fn non_ascii_input_does_not_panic() {
        // Same byte length as a key, with multibyte characters where the checksum would start.
        let tricky = format!("{}é€", &VECTOR[..LEN - 5]);
        assert_eq!(tricky.len(), LEN);
        assert_eq!(parse(&tricky), None);
        let tricky = format!("{PREFIX}{}", "ü".repeat(TAIL_LEN / 2));
        assert_eq!(tricky.len(), LEN);
        assert_eq!(parse(&tricky), None);
        assert_eq!(parse("sk_service_ÄÖÜ"), None);
        assert_eq!(
            redact("sk_service_ÄÖÜ sk_service_"),
            "sk_service_ÄÖÜ sk_service_"
        );
    }

    #[test]
    fn a_valid_checksum_does_not_excuse_other_characters() {
        for body in [
            "sk_service_Ab3dE5gH-7Q2mZp9LwX4vB8nR1tY6cJ3hF0sD5gA",
            "sk_service_Ab3dE5g_k7Q2mZp9LwX4vB8nR1tY6cJ3hF0sD5gA",
            "sk_service_Ab3dE5gHk7Q2mZp9LwX4vB8nR1tY6cJ3hF0sD5 A",
            "sk_service_Ab3dE5gé7Q2mZp9LwX4vB8nR1tY6cJ3hF0sD5gA",
        ] {
            assert_eq!(body.len(), LEN - CHECKSUM_LEN, "{body}");
            assert_eq!(parse(&format!("{body}{}", checksum(body))), None, "{body}");
        }
    }

    #[test]
    fn rejection_sampling_is_unbiased() {
        let mut counts = [0usize; 62];
        for byte in 0..=u8::MAX {
            if let Some(c) = base62_char(byte) {
                let index = ALPHABET.iter().position(|&a| char::from(a) == c).unwrap();
                counts[index] += 1;
            }
        }
        assert_eq!(counts, [4; 62], "each character from exactly 4 byte values");
        assert!((248..=u8::MAX).all(|byte| base62_char(byte).is_none()));
    }

    #[test]
    fn random_base62_uses_the_whole_alphabet() {
        let sample = random_base62(5000);
        assert_eq!(sample.len(), 5000);
        assert!(sample.bytes().all(|b| ALPHABET.contains(&b)));
        assert!(ALPHABET.iter().all(|c| sample.as_bytes().contains(c)));
        assert_eq!(random_base62(0), "");
    }

    #[test]
    fn redact_keeps_the_key_id_only() {
        let line = format!("auth failed key={VECTOR}, retry with {VECTOR}");
        let redacted = redact(&line);
        assert_eq!(
            redacted,
            "auth failed key=sk_service_Ab3dE5gH…[redacted], retry with \
             sk_service_Ab3dE5gH…[redacted]"
        );
        assert!(!redacted.contains("k7Q2mZp9"));
        // The pattern ignores the checksum, so mistyped keys are scrubbed too.
        let typo = VECTOR.replace("1GYRVj", "000000");
        assert_eq!(redact(&typo), "sk_service_Ab3dE5gH…[redacted]");
        // A longer run is scrubbed whole; so is a key cut short, down to a key id and one more
        // character. A key id alone is public.
        assert_eq!(
            redact(&format!("{VECTOR}zz")),
            "sk_service_Ab3dE5gH…[redacted]"
        );
        for cut in [LEN - 1, LEN - CHECKSUM_LEN, PREFIX.len() + ID_LEN + 1] {
            assert_eq!(
                redact(&VECTOR[..cut]),
                "sk_service_Ab3dE5gH…[redacted]",
                "{cut}"
            );
        }
        let key_id_only = &VECTOR[..PREFIX.len() + ID_LEN];
        assert_eq!(redact(key_id_only), key_id_only);
        assert_eq!(
            redact(&format!("sk_service_{VECTOR}")),
            "sk_service_sk_service_Ab3dE5gH…[redacted]"
        );
        assert_eq!(redact("no keys here"), "no keys here");
    }

    #[test]
    fn debug_hides_the_plaintext() {
        let key = generate();
        let shown = format!("{key:?}");
        assert!(shown.contains(&key.key_id), "{shown}");
        assert!(
            !shown.contains(&key.plaintext[PREFIX.len() + ID_LEN..]),
            "{shown}"
        );
    }
}
