//! Query strings: percent-decoded `name=value` pairs, taken one by one by the handler and then
//! checked for leftovers, so a misspelt parameter is an error rather than silently ignored. A
//! control character in a name or value is refused here, before any handler or query sees it.

use std::collections::BTreeMap;

use crate::error_text::shown;
use crate::http::error::ApiError;
use crate::store::as_of::AsOf;

#[derive(Debug, Default)]
pub struct Query {
    params: BTreeMap<String, String>,
}

impl Query {
    pub fn parse(raw: Option<&str>) -> Result<Query, ApiError> {
        let mut params = BTreeMap::new();
        for pair in raw.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = decode(name)
                .ok_or_else(|| ApiError::invalid(name, "malformed percent-encoding"))?;
            let value = decode(value)
                .ok_or_else(|| ApiError::invalid(&name, "malformed percent-encoding"))?;
            if let Some(why) = crate::text::refusal(&name, false) {
                return Err(ApiError::invalid(
                    &name,
                    format!("a parameter's name {why}"),
                ));
            }
            if let Some(why) = crate::text::refusal(&value, false) {
                return Err(ApiError::invalid(
                    &name,
                    format!("parameter {} {why}", shown(&name)),
                ));
            }
            if params.insert(name.clone(), value).is_some() {
                return Err(ApiError::invalid(
                    &name,
                    format!("parameter {} is given twice", shown(&name)),
                ));
            }
        }
        Ok(Query { params })
    }

    /// Canonical form for cache keys: sorted, each name and value percent-encoded, re-joined.
    /// Encoding keeps it unambiguous: `after=DE21%26country%3DDE` and `after=DE21&country=DE`
    /// are different requests and must not share a cached answer.
    pub fn canonical(&self) -> String {
        let mut out = String::new();
        for (i, (k, v)) in self.params.iter().enumerate() {
            if i > 0 {
                out.push('&');
            }
            encode_into(&mut out, k);
            out.push('=');
            encode_into(&mut out, v);
        }
        out
    }

    /// Whether the query names `name`.
    pub fn has(&self, name: &str) -> bool {
        self.params.contains_key(name)
    }

    /// The value of `name`, left for the handler to take.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }

    pub fn take(&mut self, name: &str) -> Option<String> {
        self.params.remove(name)
    }

    /// A required parameter.
    pub fn require(&mut self, name: &str) -> Result<String, ApiError> {
        self.take(name)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| ApiError::invalid(name, format!("parameter {name} is required")))
    }

    pub fn take_int(&mut self, name: &str, min: i64, max: i64) -> Result<Option<i64>, ApiError> {
        match self.take(name) {
            None => Ok(None),
            Some(v) => match v.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
                _ => Err(ApiError::invalid(
                    name,
                    format!(
                        "{name} must be a whole number from {min} to {max}, not \"{}\"",
                        shown(&v)
                    ),
                )),
            },
        }
    }

    /// `true` or `false`.
    pub fn take_bool(&mut self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.take(name).as_deref() {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(other) => Err(ApiError::invalid(
                name,
                format!("{name} must be true or false, not \"{}\"", shown(other)),
            )),
        }
    }

    /// A two-letter country code as Eurostat writes it (EL for Greece), in upper case.
    pub fn take_country(&mut self, name: &str) -> Result<Option<String>, ApiError> {
        match self.take(name) {
            Some(c) if c.len() == 2 && c.bytes().all(|b| b.is_ascii_alphabetic()) => {
                Ok(Some(c.to_ascii_uppercase()))
            }
            Some(_) => Err(ApiError::invalid(
                name,
                format!("{name} must be a two-letter code such as DE or EL"),
            )),
            None => Ok(None),
        }
    }

    /// A period (`2021`, `2021-Q3` or `2021Q3`, `2021-S1`, `2021-07` or `2021M07`), in the form
    /// periods are stored in.
    pub fn take_period(&mut self, name: &str) -> Result<Option<String>, ApiError> {
        self.take(name)
            .map(|p| crate::period::canonical(&p).map_err(|why| ApiError::invalid(name, why)))
            .transpose()
    }

    /// `as_of` and `as_of_basis` (see [`AsOf::parse`]).
    pub fn take_as_of(&mut self, now_ms: i64) -> Result<Option<AsOf>, ApiError> {
        let basis = self.take("as_of_basis");
        let as_of = self.take("as_of");
        AsOf::parse(as_of.as_deref(), basis.as_deref(), now_ms)
            .map_err(|(parameter, message)| ApiError::invalid(parameter, message))
    }

    /// Everything not taken yet; for endpoints whose parameters depend on the data (dimensions).
    pub fn take_rest(&mut self) -> BTreeMap<String, String> {
        std::mem::take(&mut self.params)
    }

    /// Fails on the first parameter the handler did not take.
    pub fn finish(self) -> Result<(), ApiError> {
        match self.params.into_keys().next() {
            None => Ok(()),
            Some(name) => Err(ApiError::invalid(
                &name,
                format!("unknown parameter {}", shown(&name)),
            )),
        }
    }
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
pub fn encode_into(out: &mut String, text: &str) {
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
}

/// Percent-decoding with `+` as space (HTML forms); None for malformed escapes or non-UTF-8.
pub fn decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    // Most texts (codes, ids, numbers) have nothing to decode: copied at once, not a byte at a
    // time.
    if memchr::memchr2(b'%', b'+', bytes).is_none() {
        return Some(s.to_owned());
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_rejects() {
        assert_eq!(decode("a%20b+c").unwrap(), "a b c");
        assert_eq!(
            decode("cit_oqrh2d7jvc5jqlzuutgd").unwrap(),
            "cit_oqrh2d7jvc5jqlzuutgd"
        );
        assert_eq!(decode("M\u{fc}nchen").unwrap(), "M\u{fc}nchen");
        assert_eq!(decode("").unwrap(), "");
        assert_eq!(decode("+").unwrap(), " ");
        assert_eq!(decode("M%C3%BCnchen").unwrap(), "München");
        assert!(decode("%zz").is_none());
        assert!(decode("%4").is_none());
        assert!(decode("%ff").is_none());
    }

    #[test]
    fn canonical_form_keeps_names_and_values_apart() {
        let smuggled = Query::parse(Some("after=DE21%26country%3DDE")).unwrap();
        let two = Query::parse(Some("country=DE&after=DE21")).unwrap();
        assert_ne!(smuggled.canonical(), two.canonical());
        assert_eq!(smuggled.canonical(), "after=DE21%26country%3DDE");
        assert_eq!(two.canonical(), "after=DE21&country=DE");
        let spaced = Query::parse(Some("q=a+b&z=%C3%BC")).unwrap();
        assert_eq!(spaced.canonical(), "q=a%20b&z=%C3%BC");
    }

    #[test]
    fn parameters_are_taken_once_and_leftovers_rejected() {
        let mut q = Query::parse(Some("level=2&country=DE")).unwrap();
        assert_eq!(q.take_int("level", 0, 3).unwrap(), Some(2));
        assert_eq!(q.canonical(), "country=DE");
        let err = q.finish().unwrap_err();
        assert_eq!(err.code(), "invalid_parameter");
        assert!(Query::parse(Some("a=1&a=2")).is_err());
        let mut q = Query::parse(Some("level=9")).unwrap();
        assert!(q.take_int("level", 0, 3).is_err());
        for raw in ["dataset=tgs%00", "q=a%0Ab", "x%1B=1", "q=%C2%85"] {
            let err = Query::parse(Some(raw)).unwrap_err();
            assert_eq!(err.code(), "invalid_parameter", "{raw}");
            assert!(err.to_string().contains("control character U+"), "{raw}");
        }
    }
}
