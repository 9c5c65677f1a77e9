//! Text from outside (a request's path, query and JSON body, an uploaded file's cells) is checked
//! for control characters before it reaches a query: PostgreSQL cannot store NUL in text at all
//! (SQLite can, so the two backends would answer differently), and the others have no place in
//! a code, a name or a title, where they hide what a log line or a page shows.

/// The first control character of `text` (Unicode's general category Cc: U+0000 to U+001F,
/// U+007F to U+009F), if it has one: for codes, ids and names.
pub fn control_char(text: &str) -> Option<char> {
    text.chars().find(|c| c.is_control())
}

/// [`control_char`] for prose that may run over lines: tab, line feed and carriage return are
/// allowed.
pub fn control_char_in_prose(text: &str) -> Option<char> {
    text.chars()
        .find(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}

/// A character as an error message names it: `U+0000`.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// Why `text` is refused, naming the first control character in it (prose: see
/// [`control_char_in_prose`]).
pub fn refusal(text: &str, prose: bool) -> Option<String> {
    let found = match prose {
        true => control_char_in_prose(text),
        false => control_char(text),
    };
    found.map(|c| format!("holds the control character {}", code_point(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_found_and_named() {
        assert_eq!(control_char("DE21"), None);
        assert_eq!(control_char("M\u{fc}nchen"), None);
        for c in [
            '\0', '\u{1}', '\t', '\n', '\u{1b}', '\u{7f}', '\u{85}', '\u{9f}',
        ] {
            assert_eq!(control_char(&format!("tgs{c}00")), Some(c), "{c:?}");
        }
        assert_eq!(control_char_in_prose("two\nlines\r\n\tindented"), None);
        assert_eq!(control_char_in_prose("nul\0"), Some('\0'));
        assert_eq!(control_char_in_prose("del\u{7f}"), Some('\u{7f}'));
        assert_eq!(code_point('\0'), "U+0000");
        assert_eq!(code_point('\u{85}'), "U+0085");
        assert_eq!(
            refusal("x\u{0}", false).unwrap(),
            "holds the control character U+0000"
        );
        assert_eq!(refusal("a\nb", true), None);
        assert!(refusal("a\nb", false).is_some());
    }
}
