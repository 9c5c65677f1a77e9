//! The text of a JSON body, checked before any handler reads it: what it holds must be text a
//! database can store and a page can show as it was sent.

use super::error::ApiError;

/// A JSON body whose text could not be stored or shown as it was sent is refused (400 naming
/// where) before any handler or query reads it: invalid UTF-8 and lone surrogates (`\ud800`),
/// and control characters, in a name anywhere and in a value but for tab, line feed and carriage
/// return. A body that is no JSON at all is left to the handler, which says why.
pub(super) fn refuse_unstorable(body: &[u8]) -> Result<(), ApiError> {
    fn walk(value: &serde_json::Value, pointer: &mut String) -> Result<(), ApiError> {
        let refused = |pointer: &str, why: String| {
            Err(ApiError::invalid(
                &format!("#{pointer}"),
                format!("the body's #{} {why}", crate::error_text::shown(pointer)),
            ))
        };
        match value {
            serde_json::Value::String(text) => match crate::text::refusal(text, true) {
                Some(why) => refused(pointer, why),
                None => Ok(()),
            },
            serde_json::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = pointer.len();
                    pointer.push_str(&format!("/{i}"));
                    walk(item, pointer)?;
                    pointer.truncate(len);
                }
                Ok(())
            }
            serde_json::Value::Object(members) => {
                for (name, member) in members {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&name.replace('~', "~0").replace('/', "~1"));
                    if let Some(why) = crate::text::refusal(name, false) {
                        return refused(pointer, format!("is a name that {why}"));
                    }
                    walk(member, pointer)?;
                    pointer.truncate(len);
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
    if std::str::from_utf8(body).is_err() {
        return Err(ApiError::invalid("#", "the body is not UTF-8 text"));
    }
    match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(value) => walk(&value, &mut String::new()),
        // serde_json names a lone surrogate as a broken escape ("unexpected end of hex escape",
        // "lone leading surrogate in hex escape").
        Err(e)
            if ["surrogate", "escape"]
                .iter()
                .any(|w| e.to_string().contains(w)) =>
        {
            Err(ApiError::invalid(
                "#",
                format!(
                    "the body holds an escape that is no character: {}",
                    crate::error_text::shorten_quotes(&e.to_string())
                ),
            ))
        }
        Err(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_text_that_cannot_be_stored_is_refused_naming_where() {
        let refused = |body: &[u8]| refuse_unstorable(body).unwrap_err().to_string();
        assert!(
            refused(br#"{"title": "a\u0000b"}"#)
                .contains("#/title holds the control character U+0000")
        );
        assert!(refused(br#"{"email": "a\u0000"}"#).contains("U+0000"));
        assert!(refused(br#"{"a": [{"b": "\u001b[31m"}]}"#).contains("#/a/0/b"));
        assert!(refused(br#"{"x\u0007": 1}"#).contains("is a name that holds"));
        assert!(refused(br#"{"t": "\ud800"}"#).contains("an escape that is no character"));
        assert!(refused(br#"{"t": "\ud800x"}"#).contains("an escape that is no character"));
        assert!(refused(br#"{"t": "\udc00"}"#).contains("an escape that is no character"));
        assert!(refused(b"{\"t\": \"\xff\"}").contains("not UTF-8"));
        assert!(refused(br#"{"t": "\u0085"}"#).contains("U+0085"));
        for fine in [
            &br#"{"description": "two\nlines\tand a tab", "n": 1}"#[..],
            br#"{"title": "M\u00fcnchen \ud83d\ude00"}"#,
            b"not json at all",
            b"",
        ] {
            assert!(refuse_unstorable(fine).is_ok());
        }
        let err = refuse_unstorable(br#"{"t": "\u0000"}"#).unwrap_err();
        assert_eq!((err.status(), err.code()), (400, "invalid_parameter"));
    }
}
