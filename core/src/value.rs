//! Plain data: the values that module rules keep in the table (`ctx.vars`, state locals,
//! action arguments). They serialise to RON and JSON and hash deterministically.

use std::collections::BTreeMap;
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A plain data value: no functions, no references, no cycles.
///
/// Maps have string keys and iterate in key order, so a value always serialises to the same
/// bytes. Floats are allowed but never NaN or infinite (the Lua bridge refuses them).
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    /// No value (Lua `nil`, RON `()`).
    #[default]
    Nil,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A finite float.
    Float(f64),
    /// A string.
    Str(String),
    /// An ordered list.
    List(Vec<Value>),
    /// A map from string keys to values.
    Map(BTreeMap<String, Value>),
}

impl Value {
    /// An empty map.
    pub fn map() -> Self {
        Value::Map(BTreeMap::new())
    }

    /// The string inside, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The integer inside, if this is an integer.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The entry `key` of a map, or `None` for a missing key or a non-map.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(m) => m.get(key),
            _ => None,
        }
    }

    /// Whether this is `Nil`.
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// A short name of the value's type, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "number",
            Value::Str(_) => "string",
            Value::List(_) => "list",
            Value::Map(_) => "map",
        }
    }

    /// Converts to a JSON value (maps keep their key order).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Nil => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Int(i) => serde_json::Value::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null),
            Value::Str(s) => serde_json::Value::String(s.clone()),
            Value::List(items) => {
                serde_json::Value::Array(items.iter().map(Value::to_json).collect())
            }
            Value::Map(m) => {
                serde_json::Value::Object(m.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
            }
        }
    }

    /// Converts from JSON; `None` for numbers that are neither integers nor finite floats.
    pub fn from_json(json: &serde_json::Value) -> Option<Value> {
        Some(match json {
            serde_json::Value::Null => Value::Nil,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().filter(|f| f.is_finite())?),
            },
            serde_json::Value::String(s) => Value::Str(s.clone()),
            serde_json::Value::Array(items) => {
                Value::List(items.iter().map(Value::from_json).collect::<Option<_>>()?)
            }
            serde_json::Value::Object(m) => Value::Map(
                m.iter()
                    .map(|(k, v)| Some((k.clone(), Value::from_json(v)?)))
                    .collect::<Option<_>>()?,
            ),
        })
    }

    /// The value as a person types it at a value prompt: a number, `true` or a word as it
    /// is, a list or a map as JSON (`{"FR": 3, "AU": 2}`).
    pub fn to_typed(&self) -> String {
        match self {
            Value::List(_) | Value::Map(_) => {
                serde_json::to_string(&self.to_json()).unwrap_or_default()
            }
            other => other.to_string(),
        }
    }

    /// Parses a command-line argument: written the way the engine prints values
    /// (`{country: poland, power: AU}`, `[a, b]`), as JSON (`{"power": "AU"}`), an integer,
    /// `true`/`false`, or else a string.
    pub fn parse_arg(text: &str) -> Value {
        let trimmed = text.trim();
        if trimmed.starts_with('{') || trimmed.starts_with('[') {
            if let Some(value) = serde_json::from_str(trimmed)
                .ok()
                .and_then(|json| Value::from_json(&json))
            {
                return value;
            }
            let mut printed = Printed {
                text: trimmed,
                at: 0,
                depth: 0,
            };
            if let Some(value) = printed.value()
                && printed.rest().is_empty()
            {
                return value;
            }
        }
        Value::atom(text)
    }

    /// A word as a value: an integer, `true`/`false`, `nil`, or else the text.
    fn atom(text: &str) -> Value {
        if let Ok(i) = text.parse::<i64>() {
            Value::Int(i)
        } else if text == "true" {
            Value::Bool(true)
        } else if text == "false" {
            Value::Bool(false)
        } else if text == "nil" {
            Value::Nil
        } else if let Ok(x) = text.parse::<f64>()
            && x.is_finite()
            && text.contains('.')
        {
            Value::Float(x)
        } else {
            Value::Str(text.to_owned())
        }
    }
}

/// How deeply lists and maps typed by a person may nest (as deep as the rules' plain data):
/// deeper text is read as a word, never parsed (so no typed answer can exhaust the stack).
pub const MAX_TYPED_DEPTH: usize = 64;

/// Reads a value written the way [`Value`]'s `Display` writes it.
struct Printed<'a> {
    text: &'a str,
    at: usize,
    /// Lists and maps open around the value being read.
    depth: usize,
}

impl Printed<'_> {
    fn rest(&self) -> &str {
        self.text[self.at..].trim_start()
    }

    fn eat(&mut self, c: char) -> bool {
        let skipped = self.text.len() - self.at - self.text[self.at..].trim_start().len();
        self.at += skipped;
        if self.text[self.at..].starts_with(c) {
            self.at += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Text up to the next of `stops` (or the end), trimmed.
    fn word(&mut self, stops: &[char]) -> &str {
        let rest = &self.text[self.at..];
        let end = rest.find(|c| stops.contains(&c)).unwrap_or(rest.len());
        self.at += end;
        rest[..end].trim()
    }

    fn value(&mut self) -> Option<Value> {
        if self.depth >= MAX_TYPED_DEPTH {
            return None;
        }
        self.depth += 1;
        let value = self.nested_or_word();
        self.depth -= 1;
        value
    }

    fn nested_or_word(&mut self) -> Option<Value> {
        if self.eat('{') {
            let mut map = BTreeMap::new();
            if self.eat('}') {
                return Some(Value::Map(map));
            }
            loop {
                let key = self.word(&[':', '}', ',']).to_owned();
                if key.is_empty() || !self.eat(':') {
                    return None;
                }
                map.insert(key, self.value()?);
                if self.eat('}') {
                    return Some(Value::Map(map));
                }
                if !self.eat(',') {
                    return None;
                }
            }
        }
        if self.eat('[') {
            let mut items = Vec::new();
            if self.eat(']') {
                return Some(Value::List(items));
            }
            loop {
                items.push(self.value()?);
                if self.eat(']') {
                    return Some(Value::List(items));
                }
                if !self.eat(',') {
                    return None;
                }
            }
        }
        let word = self.word(&[',', ']', '}']);
        (!word.is_empty()).then(|| Value::atom(word))
    }
}

impl Eq for Value {}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Value::Nil => {}
            Value::Bool(b) => b.hash(state),
            Value::Int(i) => i.hash(state),
            Value::Float(f) => f.to_bits().hash(state),
            Value::Str(s) => s.hash(state),
            Value::List(items) => items.hash(state),
            Value::Map(m) => m.hash(state),
        }
    }
}

impl fmt::Display for Value {
    /// Writes the value the way a player reads it: `3`, `stadion`, `[a, b]`, `{x: 1}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Nil => f.write_str("nil"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => f.write_str(s),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Value::Map(m) => {
                f.write_str("{")?;
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(s)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Int(i)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Nil => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Int(i) => serializer.serialize_i64(*i),
            Value::Float(f) => serializer.serialize_f64(*f),
            Value::Str(s) => serializer.serialize_str(s),
            Value::List(items) => items.serialize(serializer),
            Value::Map(m) => m.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a plain value: (), a boolean, a number, a string, a list or a map")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Int(i))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Value, E> {
        i64::try_from(u)
            .map(Value::Int)
            .map_err(|_| E::custom(format!("integer {u} is too large")))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Value, E> {
        if f.is_finite() {
            Ok(Value::Float(f))
        } else {
            Err(E::custom("numbers must be finite"))
        }
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::Str(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::Str(s))
    }

    fn visit_char<E>(self, c: char) -> Result<Value, E> {
        Ok(Value::Str(c.to_string()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut m = BTreeMap::new();
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            m.insert(k, v);
        }
        Ok(Value::Map(m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ron_round_trip_keeps_every_variant() {
        let mut m = BTreeMap::new();
        m.insert(
            "b".to_owned(),
            Value::List(vec![Value::Int(1), Value::Str("x".into())]),
        );
        m.insert("a".to_owned(), Value::Bool(true));
        m.insert("f".to_owned(), Value::Float(1.5));
        m.insert("n".to_owned(), Value::Nil);
        let value = Value::Map(m);
        let text = ron::to_string(&value).expect("serialises");
        let back: Value = ron::from_str(&text).expect("parses");
        assert_eq!(back, value, "RON text was {text}");
    }

    #[test]
    fn json_conversion_round_trips() {
        let value = Value::List(vec![Value::Int(-3), Value::from("s"), Value::map()]);
        assert_eq!(Value::from_json(&value.to_json()), Some(value));
    }

    #[test]
    fn parse_arg_reads_json_lists_and_maps() {
        let value = Value::parse_arg(r#"{"power": "AU", "n": 2}"#);
        assert_eq!(value.get("power"), Some(&Value::from("AU")));
        assert_eq!(value.get("n"), Some(&Value::Int(2)));
        assert_eq!(
            Value::parse_arg("[1, 2]"),
            Value::List(vec![Value::Int(1), Value::Int(2)])
        );
        assert_eq!(Value::parse_arg("{not json"), Value::from("{not json"));
    }

    #[test]
    fn parse_arg_reads_values_as_they_are_printed() {
        let values = [
            Value::Map(BTreeMap::from([
                ("country".to_owned(), Value::from("poland")),
                ("power".to_owned(), Value::from("AU")),
            ])),
            Value::List(vec![Value::Int(1), Value::from("two"), Value::Float(2.5)]),
            Value::Map(BTreeMap::from([
                (
                    "at".to_owned(),
                    Value::List(vec![Value::from("a"), Value::from("b")]),
                ),
                ("n".to_owned(), Value::Int(-3)),
                ("empty".to_owned(), Value::map()),
                ("flag".to_owned(), Value::Bool(true)),
            ])),
            Value::List(Vec::new()),
        ];
        for value in values {
            let printed = value.to_string();
            assert_eq!(Value::parse_arg(&printed), value, "{printed}");
        }
        assert_eq!(
            Value::parse_arg("{country: poland"),
            Value::from("{country: poland"),
            "an unfinished map stays text"
        );
    }

    #[test]
    fn parse_arg_reads_numbers_and_booleans() {
        assert_eq!(Value::parse_arg("12"), Value::Int(12));
        assert_eq!(Value::parse_arg("false"), Value::Bool(false));
        assert_eq!(Value::parse_arg("stadion"), Value::from("stadion"));
    }
}
