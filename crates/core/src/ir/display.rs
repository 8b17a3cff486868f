//! Checked tests rendered back as rule source, for traces (`explain`) and messages.

use super::{Pred, Subject, Test, Value};
use std::fmt::{self, Display, Formatter};

impl Display for Subject {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Field(field) => f.write_str(&field.name()),
            Subject::Len(field) => write!(f, "len({})", field.name()),
        }
    }
}

impl Display for Value {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(value) => write!(f, "{value}"),
            Value::Num(number) => f.write_str(&super::holds::format_number(*number)),
            Value::Str(text) => quoted(f, text),
        }
    }
}

/// `"text"` with the language's escapes.
fn quoted(f: &mut Formatter<'_>, text: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in text.chars() {
        match c {
            '"' | '\\' => write!(f, "\\{c}")?,
            '\n' => f.write_str("\\n")?,
            '\t' => f.write_str("\\t")?,
            '\r' => f.write_str("\\r")?,
            other => write!(f, "{other}")?,
        }
    }
    f.write_str("\"")
}

fn list<T>(f: &mut Formatter<'_>, items: &[T], item: impl Fn(&mut Formatter<'_>, &T) -> fmt::Result) -> fmt::Result {
    f.write_str("[")?;
    for (index, value) in items.iter().enumerate() {
        if index > 0 {
            f.write_str(", ")?;
        }
        item(f, value)?;
    }
    f.write_str("]")
}

impl Display for Test {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.subject)?;
        let values = |f: &mut Formatter<'_>, values: &[Value]| list(f, values, |f, value| write!(f, "{value}"));
        match &self.pred {
            Pred::Truthy => Ok(()),
            Pred::Eq(value) => write!(f, " == {value}"),
            Pred::Ne(value) => write!(f, " != {value}"),
            Pred::Lt(limit) => write!(f, " < {}", Value::Num(*limit)),
            Pred::Le(limit) => write!(f, " <= {}", Value::Num(*limit)),
            Pred::Gt(limit) => write!(f, " > {}", Value::Num(*limit)),
            Pred::Ge(limit) => write!(f, " >= {}", Value::Num(*limit)),
            Pred::In(items) => {
                f.write_str(" in ")?;
                values(f, items)
            }
            Pred::NotIn(items) => {
                f.write_str(" not in ")?;
                values(f, items)
            }
            Pred::InHosts(hosts) => {
                f.write_str(" in ")?;
                list(f, hosts.entries(), |f, entry| quoted(f, entry))
            }
            Pred::NotInHosts(hosts) => {
                f.write_str(" not in ")?;
                list(f, hosts.entries(), |f, entry| quoted(f, entry))
            }
            Pred::Matches(regex) => write!(f, " matches /{}/{}", regex.pattern.replace('/', "\\/"), regex.flags),
            Pred::Like(globs) => match globs.patterns.as_slice() {
                [one] => {
                    f.write_str(" like ")?;
                    quoted(f, one)
                }
                many => {
                    f.write_str(" like ")?;
                    list(f, many, |f, glob| quoted(f, glob))
                }
            },
            Pred::Contains(text) => {
                f.write_str(" contains ")?;
                quoted(f, text)
            }
            Pred::StartsWith(text) => {
                f.write_str(" starts_with ")?;
                quoted(f, text)
            }
            Pred::EndsWith(text) => {
                f.write_str(" ends_with ")?;
                quoted(f, text)
            }
        }
    }
}

/// `runs PROGRAMS [SUBCOMMAND]`, without its condition (whose tests are shown one by one).
impl Display for super::Runs {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("runs")?;
        match self.programs.as_slice() {
            [] => {}
            [one] => {
                f.write_str(" ")?;
                word(f, one)?;
            }
            many => {
                f.write_str(" ")?;
                list(f, many, |f, program| word(f, program))?;
            }
        }
        if let Some(subcommand) = &self.subcommand {
            f.write_str(" ")?;
            word(f, subcommand)?;
        }
        Ok(())
    }
}

/// A program or subcommand as rule source: bare when it is a plain word, quoted otherwise.
fn word(f: &mut Formatter<'_>, text: &str) -> fmt::Result {
    let bare = text.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if bare {
        f.write_str(text)
    } else {
        quoted(f, text)
    }
}

#[cfg(test)]
mod tests {
    use crate::Policy;

    #[test]
    fn tests_render_as_source_that_checks_again() {
        let source = r#"pre_tool_use when tool in ["a", "b"] and path like "**/.env*" and not command matches /rm\/x/i and len(command) > 2 and args.n != 1.5 and command starts_with "a\"b" => log "x""#;
        let policy = Policy::from_source("a.rules", source).unwrap();
        let mut rendered = Vec::new();
        collect(&policy.rules().unwrap()[0].condition, &mut rendered);
        assert_eq!(
            rendered,
            [
                r#"tool in ["a", "b"]"#,
                r#"path like "**/.env*""#,
                r#"command matches /rm\/x/i"#,
                "len(command) > 2",
                "args.n != 1.5",
                r#"command starts_with "a\"b""#,
            ]
        );
        let again = format!("pre_tool_use when {} => log \"x\"", rendered.join(" and "));
        assert!(Policy::from_source("b.rules", &again).is_ok(), "{again}");
    }

    fn collect(cond: &crate::ir::Cond, out: &mut Vec<String>) {
        match cond {
            crate::ir::Cond::All(children) | crate::ir::Cond::Any(children) => {
                children.iter().for_each(|child| collect(child, out))
            }
            crate::ir::Cond::Not(child) => collect(child, out),
            crate::ir::Cond::Test(test) => out.push(test.to_string()),
            crate::ir::Cond::Runs(runs) => collect(&runs.condition, out),
            crate::ir::Cond::Always => {}
        }
    }
}
