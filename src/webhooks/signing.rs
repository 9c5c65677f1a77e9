//! Standard Webhooks 1.0 signatures (<https://www.standardwebhooks.com/>): the HMAC-SHA256 of
//! `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret, sent as
//! `webhook-signature: v1,<base64>`; several space-separated when a rotated secret is still in its
//! grace period, so a receiver holding either secret accepts the delivery.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The prefix of a secret as shown to its owner.
const PREFIX: &str = "whsec_";
/// Random bytes of a new secret (the specification asks for 24 to 64).
const SECRET_BYTES: usize = 32;

/// An endpoint's signing secret: the bytes after `whsec_`, base64-decoded.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Vec<u8>);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

impl Secret {
    /// A new random secret.
    pub fn generate() -> Secret {
        let mut bytes = vec![0u8; SECRET_BYTES];
        crate::ids::fill_random(&mut bytes);
        Secret(bytes)
    }

    /// A secret from its shown form, `whsec_<base64>`; None when it is not one.
    pub fn parse(shown: &str) -> Option<Secret> {
        let bytes = STANDARD.decode(shown.strip_prefix(PREFIX)?).ok()?;
        (!bytes.is_empty()).then_some(Secret(bytes))
    }

    /// The secret as its owner sees it once, and as it is kept: `whsec_<base64>`.
    pub fn shown(&self) -> String {
        format!("{PREFIX}{}", STANDARD.encode(&self.0))
    }

    /// The `v1,<base64>` signature of one message.
    pub fn sign(&self, message_id: &str, timestamp: i64, body: &[u8]) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC accepts any key");
        mac.update(message_id.as_bytes());
        mac.update(b".");
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
    }
}

/// The `webhook-signature` header of one attempt: one signature per secret, newest first.
pub fn signature_header(
    secrets: &[Secret],
    message_id: &str,
    timestamp: i64,
    body: &[u8],
) -> String {
    secrets
        .iter()
        .map(|s| s.sign(message_id, timestamp, body))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The specification's published test vector.
    #[test]
    fn signs_the_standard_webhooks_test_vector() {
        let secret = Secret::parse("whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD").unwrap();
        let body = br#"{"email":"test@example.com","username":"test_user"}"#;
        assert_eq!(
            secret.sign("msg_27UH4WbU6Z5A5EzD8u03UvzRbpk", 1649367553, body),
            "v1,tZ1I4/hDygAJgO5TYxiSd6Sd0kDW6hPenDe+bTa3Kkw="
        );
    }

    #[test]
    fn secrets_round_trip_and_are_never_printed() {
        let secret = Secret::generate();
        let shown = secret.shown();
        assert!(shown.starts_with("whsec_"));
        assert_eq!(STANDARD.decode(&shown[6..]).unwrap().len(), 32);
        assert_eq!(Secret::parse(&shown), Some(secret.clone()));
        assert_ne!(Secret::generate(), secret);
        assert_eq!(format!("{secret:?}"), "Secret(..)");
        for bad in [
            "",
            "whsec_",
            "whsec_not base64!",
            "sk_abc",
            "C2FVsBQIhrscChlQIMV+b5sSYspob7oD",
        ] {
            assert_eq!(Secret::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_rotated_secret_signs_beside_the_new_one() {
        let (new, old) = (Secret::generate(), Secret::generate());
        let header = signature_header(&[new.clone(), old.clone()], "msg_1", 1_700_000_000, b"{}");
        let parts: Vec<&str> = header.split(' ').collect();
        assert_eq!(
            parts,
            [
                new.sign("msg_1", 1_700_000_000, b"{}"),
                old.sign("msg_1", 1_700_000_000, b"{}")
            ]
        );
        // The timestamp and the id are signed: another of either is another signature.
        assert_ne!(new.sign("msg_1", 1_700_000_001, b"{}"), parts[0]);
        assert_ne!(new.sign("msg_2", 1_700_000_000, b"{}"), parts[0]);
    }
}
