//! A small JSON writer for the page's state: objects built field by field, strings escaped so
//! that the text is safe inside an HTML `<script>` too (`<`, `>` and `&` as `\u00XX`), and
//! never a raw newline, so that one state is one Server-Sent Events `data:` line.

use std::fmt::Write as _;

/// A JSON string literal.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A number; JSON has no NaN or infinity, which become `null`.
pub fn number(x: f64) -> String {
    if !x.is_finite() {
        return "null".to_string();
    }
    if x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A JSON array of values already written.
pub fn array<I: IntoIterator<Item = String>>(items: I) -> String {
    let items: Vec<String> = items.into_iter().collect();
    format!("[{}]", items.join(","))
}

/// An object, field by field.
#[derive(Default)]
pub struct Object {
    text: String,
}

impl Object {
    pub fn new() -> Object {
        Object::default()
    }

    /// A value already written as JSON.
    pub fn raw(mut self, key: &str, json: &str) -> Object {
        if !self.text.is_empty() {
            self.text.push(',');
        }
        self.text.push_str(&string(key));
        self.text.push(':');
        self.text.push_str(json);
        self
    }

    pub fn str(self, key: &str, value: &str) -> Object {
        self.raw(key, &string(value))
    }

    pub fn num(self, key: &str, value: f64) -> Object {
        self.raw(key, &number(value))
    }

    pub fn int(self, key: &str, value: i64) -> Object {
        self.raw(key, &value.to_string())
    }

    pub fn bool(self, key: &str, value: bool) -> Object {
        self.raw(key, if value { "true" } else { "false" })
    }

    /// `null` when absent.
    pub fn opt_int(self, key: &str, value: Option<i64>) -> Object {
        match value {
            Some(v) => self.int(key, v),
            None => self.raw(key, "null"),
        }
    }

    pub fn opt_num(self, key: &str, value: Option<f64>) -> Object {
        match value {
            Some(v) => self.num(key, v),
            None => self.raw(key, "null"),
        }
    }

    pub fn finish(self) -> String {
        format!("{{{}}}", self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_safe_in_a_script_and_on_one_line() {
        let s = string("a \"b\" \\ </script>\n\u{1}\u{2028}é ×");
        assert_eq!(
            s,
            "\"a \\\"b\\\" \\\\ \\u003c/script\\u003e\\n\\u0001\\u2028é ×\""
        );
        assert!(!s.contains('\n') && !s.contains('<'));
    }

    #[test]
    fn numbers_and_objects() {
        assert_eq!(number(3.0), "3");
        assert_eq!(number(-0.25), "-0.25");
        assert_eq!(number(1.0 / 3.0), "0.333");
        assert_eq!(number(f64::NAN), "null");
        let o = Object::new()
            .str("a", "x")
            .int("b", -2)
            .bool("c", true)
            .opt_int("d", None)
            .raw("e", &array(vec!["1".to_string(), "2".to_string()]))
            .finish();
        assert_eq!(o, r#"{"a":"x","b":-2,"c":true,"d":null,"e":[1,2]}"#);
        assert_eq!(Object::new().finish(), "{}");
    }
}
