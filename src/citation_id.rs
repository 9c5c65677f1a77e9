//! Citation ids: `cit_` + 20 lowercase base32 characters (100 bits) of SHA-256 over
//! the canonical row. The same row from the same file always gets the same id, so re-imports are
//! idempotent and a citation, once given, can be resolved forever.

use sha2::{Digest, Sha256};

/// The fields a citation id is computed from. Fields are joined with the ASCII unit separator,
/// which no field may contain (the parsers only accept printable text).
pub struct CanonicalRow<'a> {
    pub dataset: &'a str,
    pub region: &'a str,
    pub period: &'a str,
    /// Dimensions as produced by [`canonical_dims`].
    pub dims: &'a str,
    pub value_text: &'a str,
    pub flags: &'a str,
    pub unit: &'a str,
    /// SHA-256 (hex) of the file the row was first imported from.
    pub file_sha256: &'a str,
    /// SDMX confidentiality status; part of the id only when present, so a row without one hashes
    /// the eight fields above and nothing else.
    pub conf_status: &'a str,
    /// Owner of a private row; part of the id only for private rows, so two accounts importing the
    /// same file never share (and so never learn of each other through) a citation.
    pub owner: Option<i64>,
}

pub const PREFIX: &str = "cit_";

pub fn citation_id(row: &CanonicalRow<'_>) -> String {
    let mut hasher = Sha256::new();
    for field in [
        row.dataset,
        row.region,
        row.period,
        row.dims,
        row.value_text,
        row.flags,
        row.unit,
        row.file_sha256,
    ] {
        hasher.update(field.as_bytes());
        hasher.update([0x1f]);
    }
    if !row.conf_status.is_empty() {
        hasher.update(b"conf_status=");
        hasher.update(row.conf_status.as_bytes());
        hasher.update([0x1f]);
    }
    if let Some(owner) = row.owner {
        hasher.update(format!("owner={owner}").as_bytes());
        hasher.update([0x1f]);
    }
    let digest = hasher.finalize();
    let mut id = String::with_capacity(24);
    id.push_str(PREFIX);
    id.push_str(&crate::ids::base32_lower(&digest, 20));
    id
}

/// The citation id of a row that is no observation: a region's row of the classification file
/// (`kind` "classification": the file's SHA-256, the line, the code) or a dataset's snapshot
/// (`kind` "snapshot": the snapshot's public id and its file's SHA-256). The kind comes first in
/// the hashed text, so no such id can equal an observation's.
pub fn source_citation_id(kind: &str, parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"source=");
    hasher.update(kind.as_bytes());
    hasher.update([0x1f]);
    for part in parts {
        hasher.update(part.as_bytes());
        hasher.update([0x1f]);
    }
    let digest = hasher.finalize();
    let mut id = String::with_capacity(24);
    id.push_str(PREFIX);
    id.push_str(&crate::ids::base32_lower(&digest, 20));
    id
}

/// `name=value` pairs sorted by name and joined with `;`: the same series whatever the column
/// order of the file it came from.
pub fn canonical_dims(names: &[String], values: &[String]) -> String {
    let mut pairs: Vec<(&str, &str)> = names
        .iter()
        .map(String::as_str)
        .zip(values.iter().map(String::as_str))
        .collect();
    pairs.sort_unstable();
    let mut out = String::new();
    for (i, (name, value)) in pairs.into_iter().enumerate() {
        if i > 0 {
            out.push(';');
        }
        out.push_str(name);
        out.push('=');
        out.push_str(value);
    }
    out
}

/// Parses [`canonical_dims`] output back into pairs.
pub fn parse_dims(dims: &str) -> Vec<(&str, &str)> {
    dims.split(';')
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.split_once('='))
        .collect()
}

/// Whether `id` has the shape of a citation id (checked before any database access).
pub fn is_well_formed(id: &str) -> bool {
    id.len() == ID_LEN
        && id.starts_with(PREFIX)
        && id[4..]
            .bytes()
            .all(|b| b.is_ascii_lowercase() || (b'2'..=b'7').contains(&b))
}

/// Bytes of a citation id: [`PREFIX`] and 20 base32 characters.
pub const ID_LEN: usize = 24;

/// A citation id as rows hold it and answers show it. Every id this server gives is
/// [`ID_LEN`] ASCII bytes ([`is_well_formed`]); an id read from the database is taken as it is if
/// it fits in as many bytes and has no character JSON escapes, so it is held inline and copied
/// as bytes (an answer copies each of its ids two or three times), and written into JSON as it
/// is, unchecked (each was checked once, when it was made).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CitationId {
    /// The id, then zero bytes: no id has one (a control character), so the bytes order as the
    /// texts do.
    bytes: [u8; ID_LEN],
    len: u8,
}

impl CitationId {
    /// `text` as an id; None if it is longer than [`ID_LEN`] bytes or has a character JSON
    /// escapes.
    pub fn new(text: &str) -> Option<CitationId> {
        if text.len() > ID_LEN || crate::json_text::needs_escape(text.as_bytes()) {
            return None;
        }
        let mut bytes = [0; ID_LEN];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Some(CitationId {
            bytes,
            len: text.len() as u8,
        })
    }

    /// The id whose base32 characters encode `bits` (the first 100 of them).
    pub fn from_bits(bits: &[u8; 13]) -> CitationId {
        let mut bytes = [0; ID_LEN];
        bytes[..PREFIX.len()].copy_from_slice(PREFIX.as_bytes());
        crate::ids::base32_lower_into(bits, &mut bytes[PREFIX.len()..]);
        CitationId {
            bytes,
            len: ID_LEN as u8,
        }
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).expect("made from a str")
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The first 16 bytes as a big-endian number: the numbers of two ids compare as their
    /// first 16 bytes do, and equal numbers leave the order to the rest.
    pub fn leading(&self) -> u128 {
        u128::from_be_bytes(self.bytes[..16].try_into().expect("16 bytes"))
    }

    /// Appends the id as a JSON string.
    pub fn push_json(&self, out: &mut Vec<u8>) {
        let len = usize::from(self.len);
        let mut quoted = [b'"'; ID_LEN + 2];
        quoted[1..=ID_LEN].copy_from_slice(&self.bytes);
        quoted[len + 1] = b'"';
        out.extend_from_slice(&quoted[..len + 2]);
    }
}

impl std::fmt::Display for CitationId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for CitationId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl serde::Serialize for CitationId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(value: &'a str, sha: &'a str) -> CanonicalRow<'a> {
        CanonicalRow {
            dataset: "demo_r_pjangrp3",
            region: "DE21",
            period: "2022",
            dims: "age=TOTAL;freq=A;sex=T",
            value_text: value,
            flags: "",
            unit: "NR",
            file_sha256: sha,
            conf_status: "",
            owner: None,
        }
    }

    #[test]
    fn ids_are_stable_and_sensitive_to_every_field() {
        let base = row("4729243", "ab");
        let a = citation_id(&base);
        assert_eq!(a, citation_id(&row("4729243", "ab")));
        assert!(is_well_formed(&a), "{a}");
        // Each field changed on its own gives another id.
        let variants = [
            CanonicalRow {
                dataset: "demo_r_d3dens",
                ..row("4729243", "ab")
            },
            CanonicalRow {
                region: "DE22",
                ..row("4729243", "ab")
            },
            CanonicalRow {
                period: "2021",
                ..row("4729243", "ab")
            },
            CanonicalRow {
                dims: "age=TOTAL;freq=A;sex=F",
                ..row("4729243", "ab")
            },
            row("4729244", "ab"),
            CanonicalRow {
                flags: "p",
                ..row("4729243", "ab")
            },
            CanonicalRow {
                unit: "PC",
                ..row("4729243", "ab")
            },
            row("4729243", "ac"),
            CanonicalRow {
                conf_status: "C",
                ..row("4729243", "ab")
            },
            CanonicalRow {
                owner: Some(7),
                ..row("4729243", "ab")
            },
        ];
        let mut seen = std::collections::BTreeSet::from([a.clone()]);
        for (i, variant) in variants.iter().enumerate() {
            assert!(
                seen.insert(citation_id(variant)),
                "field {i} left the id unchanged"
            );
        }
        // Fields are separated: moving text from one field to the next changes the id.
        let shifted = CanonicalRow {
            region: "DE2",
            period: "12022",
            ..row("4729243", "ab")
        };
        assert_ne!(a, citation_id(&shifted));
    }

    #[test]
    fn dims_are_canonical_whatever_the_column_order() {
        let names = vec!["sex".to_string(), "age".to_string()];
        let values = vec!["T".to_string(), "TOTAL".to_string()];
        let swapped_names = vec!["age".to_string(), "sex".to_string()];
        let swapped_values = vec!["TOTAL".to_string(), "T".to_string()];
        assert_eq!(canonical_dims(&names, &values), "age=TOTAL;sex=T");
        assert_eq!(
            canonical_dims(&names, &values),
            canonical_dims(&swapped_names, &swapped_values)
        );
        assert_eq!(
            parse_dims("age=TOTAL;sex=T"),
            vec![("age", "TOTAL"), ("sex", "T")]
        );
        assert!(parse_dims("").is_empty());
    }

    #[test]
    fn malformed_ids_are_recognised() {
        assert!(!is_well_formed("cit_short"));
        assert!(!is_well_formed("xyz_aaaaaaaaaaaaaaaaaaaa"));
        assert!(!is_well_formed("cit_AAAAAAAAAAAAAAAAAAAA"));
        assert!(!is_well_formed("cit_aaaaaaaaaaaaaaaaaaa1"));
    }

    /// An id holds the text it was made from, orders and writes as that text does, and is made
    /// only from texts that fit and need no escaping in JSON.
    #[test]
    fn citation_ids_are_their_text() {
        let texts = [
            "cit_oqrh2d7jvc5jqlzuutgd",
            "cit_oqrh2d7jvc5jqlzuutga",
            "cit_oqrh2d7jvc5jqlzuut",
            "cit_old",
            "cit_0123456789abZ",
            "cit_0123456789abA",
            "",
        ];
        let ids: Vec<CitationId> = texts.iter().map(|t| CitationId::new(t).unwrap()).collect();
        for (id, text) in ids.iter().zip(texts) {
            assert_eq!(id.as_str(), text);
            assert_eq!(id.to_string(), text);
            assert_eq!(format!("{id:?}"), format!("{text:?}"));
            let mut written = Vec::new();
            id.push_json(&mut written);
            assert_eq!(written, serde_json::to_vec(text).unwrap());
            assert_eq!(serde_json::to_vec(id).unwrap(), written);
        }
        for (a, x) in ids.iter().zip(texts) {
            for (b, y) in ids.iter().zip(texts) {
                assert_eq!(a.cmp(b), x.cmp(y), "{x} {y}");
                if a.leading() != b.leading() {
                    assert_eq!(a.leading().cmp(&b.leading()), x.cmp(y), "{x} {y}");
                }
            }
        }
        for refused in [
            "cit_oqrh2d7jvc5jqlzuutgdx",
            "cit_\"a",
            "cit_\\a",
            "cit_\na",
            "cit_\u{0}",
        ] {
            assert_eq!(CitationId::new(refused), None, "{refused:?}");
        }
        let bits = [0xa5; 13];
        let id = CitationId::from_bits(&bits);
        assert!(is_well_formed(id.as_str()));
        assert_eq!(
            id.as_str()[PREFIX.len()..],
            crate::ids::base32_lower(&bits, 20)
        );
    }
}
