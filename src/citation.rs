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
    id.len() == 24
        && id.starts_with(PREFIX)
        && id[4..]
            .bytes()
            .all(|b| b.is_ascii_lowercase() || (b'2'..=b'7').contains(&b))
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
}
