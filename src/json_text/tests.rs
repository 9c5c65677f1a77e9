use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::*;

fn same_as_serde_json<T: Serialize + ?Sized>(value: &T) {
    assert_eq!(
        String::from_utf8(to_vec(value).unwrap()).unwrap(),
        serde_json::to_string(value).unwrap()
    );
}

/// A cached answer is weighed by its length: its buffer holds that many bytes and no more,
/// and a value that does not fit the kept scratch buffer is written whole all the same.
#[test]
fn text_comes_back_at_its_exact_size() {
    for n in [0, 1, 10_000, SCRATCH_KEPT] {
        let value = vec!["cit_abcdefghijklmnopqrst"; n];
        let text = to_vec(&value).unwrap();
        assert_eq!(text.capacity(), text.len());
        assert_eq!(text, serde_json::to_vec(&value).unwrap());
    }
}

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

/// Every byte that may need escaping, alone or with a second one, at every place of texts up
/// to eight words long, among bytes that come close to them: below (a NUL's borrow reaching
/// them) and above the limits, 0x7f, and bytes of several-byte characters.
#[test]
fn each_escaped_byte_is_found_wherever_it_stands() {
    let check = |text: &str| {
        let mut ours = Vec::new();
        push_str(&mut ours, text);
        assert_eq!(
            String::from_utf8(ours).unwrap(),
            serde_json::to_string(text).unwrap(),
            "{text:?}"
        );
    };
    for filler in ["!", " ", "!!\u{0}", "#", "[", "]", "\u{7f}", "é"] {
        for len in 0..=64 {
            let plain = filler.repeat(len);
            check(&plain);
            for at in 0..len {
                for special in ['\u{0}', '\u{1f}', '"', '\\', '\n'] {
                    let mut chars: Vec<char> = plain.chars().collect();
                    if at >= chars.len() {
                        continue;
                    }
                    chars[at] = special;
                    check(&chars.iter().collect::<String>());
                    if let Some(last) = chars.last_mut() {
                        *last = '"';
                    }
                    check(&chars.iter().collect::<String>());
                }
            }
        }
    }
}

#[derive(Serialize)]
enum Shape {
    Unit,
    Newtype(u8),
    Tuple(i32, f64),
    Struct { side: f32, name: &'static str },
}

#[derive(Serialize)]
struct Unit;

#[derive(Serialize)]
struct Wrapper(&'static str);

#[derive(Serialize)]
struct Pair(u8, Option<i8>);

#[derive(Serialize)]
struct Everything {
    #[serde(rename = "odd \"name\"")]
    odd: bool,
    numbers: (i8, i16, i32, i64, i128, u8, u16, u32, u64, u128),
    floats: Vec<f64>,
    single: f32,
    letter: char,
    missing: Option<String>,
    unit: (),
    unit_struct: Unit,
    wrapper: Wrapper,
    pair: Pair,
    shapes: Vec<Shape>,
    by_name: BTreeMap<String, Vec<u8>>,
    by_variant: BTreeMap<&'static str, Shape>,
    empty: Vec<u8>,
    #[serde(flatten)]
    extra: BTreeMap<String, serde_json::Value>,
}

#[test]
fn values_of_every_kind_are_written_as_serde_json_writes_them() {
    let value = Everything {
        odd: true,
        numbers: (
            -8,
            -16,
            -32,
            i64::MIN,
            i128::MAX,
            8,
            16,
            32,
            u64::MAX,
            u128::MAX,
        ),
        floats: vec![
            0.0,
            -0.0,
            1.5,
            1e300,
            4729243.0,
            f64::NAN,
            f64::INFINITY,
            0.1 + 0.2,
        ],
        single: 0.1,
        letter: '"',
        missing: None,
        unit: (),
        unit_struct: Unit,
        wrapper: Wrapper("DE\t21"),
        pair: Pair(1, Some(-1)),
        shapes: vec![
            Shape::Unit,
            Shape::Newtype(7),
            Shape::Tuple(-1, 2.5),
            Shape::Struct {
                side: 1.25,
                name: "sq\\uare",
            },
        ],
        by_name: BTreeMap::from([("a\u{1}".into(), vec![1, 2]), ("b".into(), vec![])]),
        by_variant: BTreeMap::from([("x", Shape::Unit)]),
        empty: vec![],
        extra: BTreeMap::from([(
            "json".into(),
            serde_json::json!({"nested": [1, "two", null, {"three": 3.0}]}),
        )]),
    };
    same_as_serde_json(&value);
    same_as_serde_json("plain");
    same_as_serde_json(&Shape::Struct {
        side: f32::NAN,
        name: "",
    });
}

/// What this writer does not write itself comes out of serde_json unchanged.
#[test]
fn the_rest_is_left_to_serde_json() {
    same_as_serde_json(&HashMap::from([(1u8, "numeric key")]));
    same_as_serde_json(&BTreeMap::from([(true, 1), (false, 0)]));
    same_as_serde_json(&BTreeMap::from([(Some("text"), 1)]));
    assert!(to_vec(&BTreeMap::from([(None::<&str>, 1)])).is_err());
    same_as_serde_json(&serde_bytes_like());
    assert!(to_vec(&BTreeMap::from([(vec![1u8], 1)])).is_err());
}

/// serde_json's raw values are written here (not left to serde_json), as they are.
#[test]
fn raw_values_are_written_as_they_are() {
    let text = r#"{ "kept" : [1, "\u00e9"] }"#;
    let raw = serde_json::value::RawValue::from_string(text.into()).unwrap();
    let mut out = Vec::new();
    assert!(raw.serialize(Writer(&mut out)).is_ok());
    assert_eq!(out, text.as_bytes());
    same_as_serde_json(&raw);
    same_as_serde_json(&BTreeMap::from([("raw", raw)]));
}

/// A type that writes itself as bytes.
fn serde_bytes_like() -> impl Serialize {
    struct Bytes;
    impl Serialize for Bytes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(b"\x00\xff")
        }
    }
    Bytes
}
