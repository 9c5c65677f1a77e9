//! What every error message is made of: input quoted short ([`shown`]) and the problems of a
//! request body ([`FieldError`]).

/// Input characters a message repeats at most: a 5,000-character code or cell does not come
/// back whole in a 10 KB error.
pub const SHOWN_CHARS: usize = 64;

/// `text` as a message quotes it: at most [`SHOWN_CHARS`] characters, then `…`.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    shown_up_to(text, SHOWN_CHARS)
}

pub fn shown_up_to(text: &str, chars: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(chars) {
        None => text.into(),
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
    }
}

/// Longest message [`shorten_quotes`] gives back: input can hold the quote characters itself
/// (a key named ``x`AAAA…``), so the quoted parts are not the only ones that can be long.
const LIBRARY_MESSAGE_CHARS: usize = 4 * SHOWN_CHARS;

/// A message from a library (serde_json) that quotes input between backticks or double quotes,
/// with every quoted part cut to [`SHOWN_CHARS`] characters and the whole to four times that.
pub fn shorten_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(512));
    let mut quoted: Option<(char, usize)> = None;
    for c in message.chars() {
        match quoted {
            Some((close, _)) if c == close => {
                quoted = None;
                out.push(c);
            }
            Some((close, n)) => {
                if n < SHOWN_CHARS {
                    out.push(c);
                } else if n == SHOWN_CHARS {
                    out.push('…');
                }
                quoted = Some((close, n + 1));
            }
            None => {
                if c == '`' || c == '"' {
                    quoted = Some((c, 0));
                }
                out.push(c);
            }
        }
    }
    shown_up_to(&out, LIBRARY_MESSAGE_CHARS).into_owned()
}

/// One problem in a request body (RFC 9457 `errors[]`): where, and what is wrong.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FieldError {
    /// JSON Pointer into the body (`#/name`), or `line N` for CSV bodies.
    pub pointer: String,
    pub detail: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_quoted_short() {
        assert_eq!(shown("DE21"), "DE21");
        let long = "é".repeat(100);
        assert_eq!(shown(&long).chars().count(), SHOWN_CHARS + 1);
        let serde = format!(
            "unknown field `{}`, expected `email` or \"x{}\"",
            "a".repeat(500),
            "b".repeat(70)
        );
        let short = shorten_quotes(&serde);
        assert!(short.len() < 200, "{short}");
        assert!(short.contains("expected `email` or"), "{short}");
        assert!(short.ends_with("…\""), "{short}");
        // Input holding a quote character ends the quote early; the whole is bounded anyway.
        let key_with_backtick = format!(
            "unknown field `x`{}`, expected `email`",
            "A".repeat(100_000)
        );
        let short = shorten_quotes(&key_with_backtick);
        assert!(
            short.chars().count() <= LIBRARY_MESSAGE_CHARS + 1,
            "{short}"
        );
    }
}
