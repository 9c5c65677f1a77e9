//! JSON text of `meta.citations`, hundreds of entries an answer, written straight into a buffer.
//! serde_json escapes every string it writes, field names included, one byte at a time: that
//! scan was a fifth of an uncached answer's instructions, though nearly every text here (codes,
//! periods, citation ids, URLs) needs no escaping. The output is byte for byte what serde_json
//! writes for the same values: strings escaped as it escapes them (`"`, `\`, control characters;
//! nothing else).

/// Appends `text` as a JSON string, escaped exactly as serde_json escapes it.
pub fn push_str(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    let bytes = text.as_bytes();
    if !needs_escape(bytes) {
        out.extend_from_slice(bytes);
    } else {
        for &b in bytes {
            match b {
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                0x08 => out.extend_from_slice(b"\\b"),
                0x09 => out.extend_from_slice(b"\\t"),
                0x0a => out.extend_from_slice(b"\\n"),
                0x0c => out.extend_from_slice(b"\\f"),
                0x0d => out.extend_from_slice(b"\\r"),
                0x00..=0x1f => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    out.extend_from_slice(b"\\u00");
                    out.push(HEX[usize::from(b >> 4)]);
                    out.push(HEX[usize::from(b & 0xf)]);
                }
                _ => out.push(b),
            }
        }
    }
    out.push(b'"');
}

/// Whether any byte needs escaping; branch-free over each chunk, so the compiler checks many
/// bytes at a time.
fn needs_escape(bytes: &[u8]) -> bool {
    bytes.chunks(16).any(|chunk| {
        chunk.iter().fold(false, |any, &b| {
            any | (b < 0x20) | (b == b'"') | (b == b'\\')
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut every_byte = String::new();
        for c in (0u8..=0x7f)
            .map(char::from)
            .chain(['é', '€', '😀', '\u{2028}'])
        {
            every_byte.push(c);
        }
        for text in [
            "",
            "cit_abcdefghijklmnopqrst",
            "say \"hi\"",
            "a\\b",
            "tab\there, bell\u{7}",
            "a string longer than one chunk of sixteen bytes, \u{1f} at the end",
            &every_byte,
        ] {
            let mut ours = Vec::new();
            push_str(&mut ours, text);
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                serde_json::to_string(text).unwrap(),
                "{text:?}"
            );
        }
    }
}
