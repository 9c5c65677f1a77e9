//! JSON text as serde_json writes it, byte for byte, at a fraction of the instructions.
//! serde_json escapes every string it writes, field names included, one byte at a time: that
//! scan was the largest cost of an uncached answer, though nearly every text of one (field
//! names, codes, periods, citation ids, URLs) needs no escaping. Here a string is checked many
//! bytes at a time (for `"`, `\` and control characters, all serde_json escapes) and copied
//! whole when it needs no escape; texts that do, numbers, and anything else this writer does not
//! know ([`append`] says what) are written by serde_json itself. Hot types write their own text
//! with the pieces here ([`push_str`], [`push_int`], [`push_f64`]) and leave the rest to [`append`].

use serde::Serialize;
use serde::ser;

/// `value` as compact JSON text, exactly what `serde_json::to_vec` returns for every value whose
/// `Serialize` writes as many elements as the length it announces (every derived one).
///
/// The text is written into this thread's scratch buffer and copied out at its exact size: a
/// buffer grown from empty would be reallocated (and copied) a dozen times for a 20 KB answer,
/// and a cached answer keeps its buffer's whole capacity, not just the bytes it holds.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    written(|out| append(out, value))
}

/// A value's JSON text, made the first time it is asked for and then kept: rows that many
/// answers show (a region's summary, a snapshot) are serialised once, not once per answer.
#[derive(Debug, Default, Clone)]
pub struct Kept(std::sync::OnceLock<Box<serde_json::value::RawValue>>);

impl Kept {
    /// The kept text, made from `value()` if there is none yet.
    pub fn get_or_make<T: Serialize>(
        &self,
        value: impl FnOnce() -> T,
    ) -> &serde_json::value::RawValue {
        self.0.get_or_init(|| {
            serde_json::value::to_raw_value(&value()).expect("text and numbers are written")
        })
    }
}

/// The text `write` appends to an empty buffer: written into this thread's scratch buffer and
/// copied out at its exact size (see [`to_vec`]).
pub fn written<E>(write: impl FnOnce(&mut Vec<u8>) -> Result<(), E>) -> Result<Vec<u8>, E> {
    // Taken rather than borrowed, so a writer that itself calls `written` gets a buffer too.
    let mut out = SCRATCH.take();
    out.clear();
    let text = write(&mut out).map(|()| out.to_vec());
    if out.capacity() <= SCRATCH_KEPT {
        SCRATCH.set(out);
    }
    text
}

/// [`written`] by a writer that cannot fail.
pub fn written_by(write: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let Ok(text) = written(|out| {
        write(out);
        Ok::<(), std::convert::Infallible>(())
    });
    text
}

/// Appends `value`'s JSON text to `out`, as [`to_vec`] writes it.
pub fn append<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> serde_json::Result<()> {
    let start = out.len();
    match value.serialize(Writer(out)) {
        Ok(()) => Ok(()),
        // Byte strings, map keys other than text, and errors a type raises itself: serde_json
        // writes them, or reports the error in its words.
        Err(Unsupported) => {
            out.truncate(start);
            serde_json::to_writer(out, value)
        }
    }
}

/// Appends `text` as a JSON string, or `null`.
pub fn push_opt_str(out: &mut Vec<u8>, text: Option<&str>) {
    match text {
        Some(text) => push_str(out, text),
        None => out.extend_from_slice(b"null"),
    }
}

/// Appends `n` as serde_json writes an integer.
pub fn push_int(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends `v` as serde_json writes an `f64`: its shortest form, `null` when not finite.
pub fn push_f64(out: &mut Vec<u8>, v: f64) {
    use serde_json::ser::Formatter;
    if v.is_finite() {
        serde_json::ser::CompactFormatter
            .write_f64(out, v)
            .expect("a Vec takes every byte");
    } else {
        out.extend_from_slice(b"null");
    }
}

/// The largest scratch buffer a thread keeps between answers: every answer but a rare large
/// one fits, and the threads that serialise answers (the runtime's and the blocking pool's,
/// under their permits) hold at most this much each while idle.
const SCRATCH_KEPT: usize = 256 * 1024;

thread_local! {
    static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Appends `text` as a JSON string, escaped exactly as serde_json escapes it: the few texts
/// that need escaping are escaped by serde_json itself.
pub fn push_str(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    if needs_escape(bytes) {
        serde_json::to_writer(out, text).expect("a Vec takes every byte");
        return;
    }
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    out.extend_from_slice(bytes);
    out.push(b'"');
}

/// Whether any byte needs escaping, checked eight bytes at a time: most texts are short (field
/// names, codes, periods), where a vector loop would not start. A text's last bytes are read
/// again with earlier ones rather than copied out, which costs a call for so few bytes.
pub fn needs_escape(bytes: &[u8]) -> bool {
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| {
        u64::from(u32::from_le_bytes(
            bytes[at..at + 4].try_into().expect("4 bytes"),
        ))
    };
    let len = bytes.len();
    let found = match len {
        0 => 0,
        1..4 => escapes_in(u64::from_le_bytes([
            bytes[0],
            bytes[len / 2],
            bytes[len - 1],
            b'a',
            b'a',
            b'a',
            b'a',
            b'a',
        ])),
        4..8 => escapes_in(half(0) | half(len - 4) << 32),
        _ => {
            let mut found = escapes_in(word(len - 8));
            for at in (0..len - 8).step_by(8) {
                found |= escapes_in(word(at));
            }
            found
        }
    };
    found != 0
}

/// Non-zero when a byte of `word` is a control character, `"` or `\`. After subtracting `n` from
/// every byte, a byte's high bit is set only if the byte was below `n` or a borrow reached it,
/// and every chain of borrows starts at a byte below `n`; `!word` drops bytes of 0x80 and above.
/// So the result is non-zero exactly when some byte matched (which byte is not needed).
fn escapes_in(word: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let below = |w: u64, n: u8| w.wrapping_sub(ONES * u64::from(n)) & !w;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    (below(word, 0x20) | below(quote, 1) | below(backslash, 1)) & HIGH
}

/// A number as serde_json writes it (`null` for a non-finite float).
fn push_number<N: Serialize>(out: &mut Vec<u8>, n: N) -> Result<(), Unsupported> {
    serde_json::to_writer(out, &n).map_err(|_| Unsupported)
}

/// What this writer leaves to serde_json.
#[derive(Debug)]
struct Unsupported;

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("left to serde_json")
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Unsupported
    }
}

/// The name serde_json's `RawValue` (JSON text, written as it is) gives the struct it writes
/// itself as, with its text as the one field: text made once and shown in many answers (a
/// source's, in every citation of its datasets) is kept as a raw value.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// A raw value's one field: its text, appended as it is (a `RawValue` holds valid JSON).
struct RawText<'a>(&'a mut Vec<u8>);

/// Anything but text in a raw value's field: left to serde_json.
macro_rules! not_raw_text {
    ($($method:ident($($arg:ty),*)),* $(,)?) => {$(
        fn $method(self, $(_: $arg),*) -> Result<(), Unsupported> {
            Err(Unsupported)
        }
    )*};
}

impl ser::Serializer for RawText<'_> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = ser::Impossible<(), Unsupported>;
    type SerializeTuple = ser::Impossible<(), Unsupported>;
    type SerializeTupleStruct = ser::Impossible<(), Unsupported>;
    type SerializeTupleVariant = ser::Impossible<(), Unsupported>;
    type SerializeMap = ser::Impossible<(), Unsupported>;
    type SerializeStruct = ser::Impossible<(), Unsupported>;
    type SerializeStructVariant = ser::Impossible<(), Unsupported>;

    fn serialize_str(self, text: &str) -> Result<(), Unsupported> {
        self.0.extend_from_slice(text.as_bytes());
        Ok(())
    }
    not_raw_text!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Unsupported> {
        Err(Unsupported)
    }
}

struct Writer<'a>(&'a mut Vec<u8>);

/// An array or object being written: `close` ends it; `first` says no member came yet. A raw
/// value is written as one too, its one field its text (`raw`).
struct Compound<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
    close: &'static [u8],
    raw: bool,
}

impl<'a> Compound<'a> {
    fn open(out: &'a mut Vec<u8>, open: &[u8], close: &'static [u8]) -> Self {
        out.extend_from_slice(open);
        Compound {
            out,
            first: true,
            close,
            raw: false,
        }
    }

    fn separate(&mut self) {
        if !std::mem::replace(&mut self.first, false) {
            self.out.push(b',');
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.separate();
        value.serialize(Writer(self.out))
    }

    fn member<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) -> Result<(), Unsupported> {
        self.separate();
        push_str(self.out, name);
        self.out.push(b':');
        value.serialize(Writer(self.out))
    }

    fn close(self) -> Result<(), Unsupported> {
        self.out.extend_from_slice(self.close);
        Ok(())
    }
}

/// `{"variant":` opened for an enum's variant with contents; `close` ends the contents and
/// the object.
fn open_variant<'a>(
    out: &'a mut Vec<u8>,
    variant: &str,
    open: &[u8],
    close: &'static [u8],
) -> Compound<'a> {
    out.push(b'{');
    push_str(out, variant);
    out.push(b':');
    Compound::open(out, open, close)
}

impl<'a> ser::Serializer for Writer<'a> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Unsupported> {
        self.0.extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_f64(self, v: f64) -> Result<(), Unsupported> {
        push_number(self.0, v)
    }
    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        push_str(self.0, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        push_str(self.0, v);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    fn serialize_none(self) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unsupported> {
        self.0.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Unsupported> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        let mut object = Compound::open(self.0, b"{", b"}");
        object.member(variant, value)?;
        object.close()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::open(self.0, b"[", b"]"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Unsupported> {
        self.serialize_seq(None)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        self.serialize_seq(None)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        Ok(open_variant(self.0, variant, b"[", b"]}"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::open(self.0, b"{", b"}"))
    }
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<'a>, Unsupported> {
        if name == RAW_VALUE {
            let mut raw = Compound::open(self.0, b"", b"");
            raw.raw = true;
            return Ok(raw);
        }
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        Ok(open_variant(self.0, variant, b"{", b"}}"))
    }
}

/// The sequence-like compounds: each element is written as a value.
macro_rules! elements {
    ($($kind:ident :: $method:ident),*) => {$(
        impl ser::$kind for Compound<'_> {
            type Ok = ();
            type Error = Unsupported;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
                self.element(value)
            }
            fn end(self) -> Result<(), Unsupported> {
                self.close()
            }
        }
    )*};
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    /// Keys that are text, written as any text is (serde_json writes them the same way); any
    /// other key is left to serde_json, which quotes numbers and refuses the rest.
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        self.separate();
        let start = self.out.len();
        key.serialize(Writer(self.out))?;
        if self.out.get(start) != Some(&b'"') {
            return Err(Unsupported);
        }
        self.out.push(b':');
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        value.serialize(Writer(self.out))
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

/// The struct-like compounds: each field is a member named by the field.
macro_rules! members {
    ($($kind:ident),*) => {$(
        impl ser::$kind for Compound<'_> {
            type Ok = ();
            type Error = Unsupported;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                name: &'static str,
                value: &T,
            ) -> Result<(), Unsupported> {
                if self.raw {
                    return value.serialize(RawText(self.out));
                }
                self.member(name, value)
            }
            fn end(self) -> Result<(), Unsupported> {
                self.close()
            }
        }
    )*};
}

members!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests;
