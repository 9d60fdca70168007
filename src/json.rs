//! A minimal JSON writer: the CLI and the C ABI only ever emit flat objects and arrays,
//! so a dependency on a serializer would cost more than these few lines.

use std::fmt::Write;

/// Appends `s` as a JSON string literal (quoted and escaped).
pub fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Builds one JSON object, keys in insertion order.
pub struct Object {
    buf: String,
    first: bool,
}

impl Default for Object {
    fn default() -> Self {
        Self::new()
    }
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object {
            buf: String::from("{"),
            first: true,
        }
    }

    fn key(&mut self, k: &str) {
        if !self.first {
            self.buf.push(',');
        }
        self.first = false;
        string(&mut self.buf, k);
        self.buf.push(':');
    }

    /// Adds a string member.
    pub fn str(mut self, k: &str, v: &str) -> Object {
        self.key(k);
        string(&mut self.buf, v);
        self
    }

    /// Adds a number member.
    pub fn num(mut self, k: &str, v: impl std::fmt::Display) -> Object {
        self.key(k);
        let _ = write!(self.buf, "{v}");
        self
    }

    /// Adds a boolean member.
    pub fn bool(mut self, k: &str, v: bool) -> Object {
        self.key(k);
        self.buf.push_str(if v { "true" } else { "false" });
        self
    }

    /// Adds a `null` member.
    pub fn null(mut self, k: &str) -> Object {
        self.key(k);
        self.buf.push_str("null");
        self
    }

    /// Adds a member whose value is already JSON text.
    pub fn raw(mut self, k: &str, json: &str) -> Object {
        self.key(k);
        self.buf.push_str(json);
        self
    }

    /// The finished object.
    pub fn finish(mut self) -> String {
        self.buf.push('}');
        self.buf
    }
}

/// Joins already-encoded JSON values into an array.
pub fn array<I: IntoIterator<Item = String>>(items: I) -> String {
    let mut out = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&item);
    }
    out.push(']');
    out
}

/// A JSON array of numbers.
pub fn numbers<T: std::fmt::Display>(items: &[T]) -> String {
    array(items.iter().map(|x| x.to_string()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes() {
        let mut s = String::new();
        super::string(&mut s, "a\"b\\c\n\u{1}");
        assert_eq!(s, r#""a\"b\\c\n\u0001""#);
        let o = super::Object::new()
            .str("k", "v")
            .num("n", 3)
            .bool("b", true)
            .null("z");
        assert_eq!(o.finish(), r#"{"k":"v","n":3,"b":true,"z":null}"#);
    }
}
