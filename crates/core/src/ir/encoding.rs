//! The compact JSON encoding of checked rules, as bundles store them.
//!
//! - a test is `[SUBJECT, PREDICATE]`: `["command", {"starts_with": "git "}]`;
//! - a subject is its source: `"path"`, `"args.mode"`, `"len(output)"`;
//! - a value is plain JSON: `true`, `3`, `"bash"`;
//! - a template is one string: `"blocked {path}"`, with `\{`, `\}` and `\\` for literals.
//!
//! Every decoder borrows from the input where it can: loading a large bundle is mostly this.

use super::{Part, Pred, Subject, Template, Test, Value};
use crate::vocab::Field;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

impl Serialize for Test {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (&self.subject, &self.pred).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Test {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (subject, pred) = <(Subject, Pred)>::deserialize(deserializer)?;
        Ok(Test { subject, pred })
    }
}

impl Serialize for Subject {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Subject::Field(field) => serializer.serialize_str(&field.name()),
            Subject::Len(field) => serializer.serialize_str(&format!("len({})", field.name())),
        }
    }
}

/// Decodes a string with a function, borrowing the text when the input allows.
struct StrVisitor<F>(&'static str, F);

impl<'de, T, F: FnOnce(&str) -> Result<T, String>> Visitor<'de> for StrVisitor<F> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.0)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        (self.1)(text).map_err(E::custom)
    }
}

impl<'de> Deserialize<'de> for Subject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(StrVisitor("a field or `len(field)`", |text: &str| {
            let (name, len) = match text.strip_prefix("len(").and_then(|rest| rest.strip_suffix(')')) {
                Some(inner) => (inner, true),
                None => (text, false),
            };
            let field = Field::from_name(name).ok_or_else(|| format!("unknown field `{name}`"))?;
            Ok(if len { Subject::Len(field) } else { Subject::Field(field) })
        }))
    }
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(StrVisitor("a field name", |name: &str| {
            Field::from_name(name).ok_or_else(|| format!("unknown field `{name}`"))
        }))
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Bool(value) => serializer.serialize_bool(*value),
            Value::Num(number) => serializer.serialize_f64(*number),
            Value::Str(text) => serializer.serialize_str(text),
        }
    }
}

struct ValueVisitor;

impl Visitor<'_> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a boolean, a number or a string")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        Ok(Value::Num(value))
    }

    #[expect(clippy::cast_precision_loss, reason = "rule literals are written as decimals; f64 is their type")]
    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Num(value as f64))
    }

    #[expect(clippy::cast_precision_loss, reason = "rule literals are written as decimals; f64 is their type")]
    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Num(value as f64))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Value, E> {
        Ok(Value::Str(text.to_string()))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

impl Serialize for Template {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut text = String::new();
        for part in &self.0 {
            match part {
                Part::Text(literal) => {
                    for c in literal.chars() {
                        if matches!(c, '{' | '}' | '\\') {
                            text.push('\\');
                        }
                        text.push(c);
                    }
                }
                Part::Field(field) => {
                    text.push('{');
                    text.push_str(&field.name());
                    text.push('}');
                }
            }
        }
        serializer.serialize_str(&text)
    }
}

impl<'de> Deserialize<'de> for Template {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(StrVisitor("a template string", parse_template))
    }
}

fn parse_template(text: &str) -> Result<Template, String> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => literal.push(chars.next().ok_or("a template ends with `\\`")?),
            '{' => {
                let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let field = Field::from_name(&name).ok_or_else(|| format!("unknown field `{name}` in template"))?;
                if !literal.is_empty() {
                    parts.push(Part::Text(std::mem::take(&mut literal)));
                }
                parts.push(Part::Field(field));
            }
            other => literal.push(other),
        }
    }
    if !literal.is_empty() || parts.is_empty() {
        parts.push(Part::Text(literal));
    }
    Ok(Template(parts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Semantic;

    #[test]
    fn templates_round_trip_with_escapes() {
        let template = Template(vec![
            Part::Text("a {literal} \\ ".into()),
            Part::Field(Field::Semantic(Semantic::Path)),
            Part::Field(Field::Arg("x.y".into())),
        ]);
        let json = serde_json::to_string(&template).unwrap();
        assert_eq!(json, r#""a \\{literal\\} \\\\ {path}{args.x.y}""#);
        assert_eq!(serde_json::from_str::<Template>(&json).unwrap(), template);
    }

    #[test]
    fn tests_are_compact_tuples() {
        let test = Test { subject: Subject::Len(Field::Output), pred: Pred::Gt(3.0) };
        let json = serde_json::to_string(&test).unwrap();
        assert_eq!(json, r#"["len(output)",{"gt":3.0}]"#);
        let back: Test = serde_json::from_str(&json).unwrap();
        assert!(matches!(back, Test { subject: Subject::Len(Field::Output), pred: Pred::Gt(n) } if n == 3.0));
        assert!(serde_json::from_str::<Test>(r#"["nope",{"gt":3.0}]"#)
            .unwrap_err()
            .to_string()
            .contains("unknown field `nope`"));
    }
}
