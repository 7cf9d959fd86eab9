//! A `jsonpath` printed as PostgreSQL prints it (`jsonpath_out`): keys
//! quoted, `?(...)` for filters, an operator's expression in parentheses where
//! PostgreSQL puts them (`($."a" + 2 * 3)`, `((1 - 2) - 3)`), `lax` left out.

use std::fmt::{self, Write as _};

use super::json_path::{JsonPath, Method, Node, Step};

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        if self.strict {
            out.push_str("strict ");
        }
        print(&self.expr, true, &mut out);
        f.write_str(&out)
    }
}

/// PostgreSQL's `printJsonPathItem`: `brackets` puts an operator's
/// expression in parentheses.
fn print(node: &Node, brackets: bool, out: &mut String) {
    let operand = |inner: &Node, outer: u8, out: &mut String| {
        print(inner, inner.priority() <= outer, out);
    };
    match node {
        Node::Root => out.push('$'),
        Node::Current => out.push('@'),
        Node::Last => out.push_str("last"),
        Node::Variable(name) => {
            out.push('$');
            quoted(name, out);
        }
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Number(n) => out.push_str(n),
        Node::String(s) => quoted(s, out),
        Node::Binary(op, left, right) => {
            if brackets {
                out.push('(');
            }
            operand(left, op.priority(), out);
            let _ = write!(out, " {} ", op.symbol());
            operand(right, op.priority(), out);
            if brackets {
                out.push(')');
            }
        }
        Node::Sign(plus, inner) => {
            if brackets {
                out.push('(');
            }
            out.push(if *plus { '+' } else { '-' });
            operand(inner, 5, out);
            if brackets {
                out.push(')');
            }
        }
        Node::Not(inner) => {
            out.push_str("!(");
            print(inner, false, out);
            out.push(')');
        }
        Node::IsUnknown(inner) => {
            out.push('(');
            print(inner, false, out);
            out.push_str(") is unknown");
        }
        Node::Exists(inner) => {
            out.push_str("exists (");
            print(inner, false, out);
            out.push(')');
        }
        Node::LikeRegex(inner, pattern, flags) => {
            if brackets {
                out.push('(');
            }
            operand(inner, 2, out);
            out.push_str(" like_regex ");
            quoted(pattern, out);
            if !flags.is_empty() {
                out.push_str(" flag ");
                quoted(flags, out);
            }
            if brackets {
                out.push(')');
            }
        }
        Node::StartsWith(inner, prefix) => {
            if brackets {
                out.push('(');
            }
            operand(inner, 2, out);
            out.push_str(" starts with ");
            print(prefix, false, out);
            if brackets {
                out.push(')');
            }
        }
        Node::Chain(primary, steps) => {
            match primary.priority() < 6 || primary.is_predicate() {
                true => {
                    out.push('(');
                    print(primary, false, out);
                    out.push(')');
                }
                false => print(primary, false, out),
            }
            for step in steps {
                print_step(step, out);
            }
        }
    }
}

fn print_step(step: &Step, out: &mut String) {
    match step {
        Step::Key(key) => {
            out.push('.');
            quoted(key, out);
        }
        Step::AnyKey => out.push_str(".*"),
        Step::AnyIndex => out.push_str("[*]"),
        Step::Indexes(list) => {
            out.push('[');
            for (i, (from, to)) in list.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                print(from, false, out);
                if let Some(to) = to {
                    out.push_str(" to ");
                    print(to, false, out);
                }
            }
            out.push(']');
        }
        Step::Descent(first, last) => {
            let level = |l: u32| match l {
                u32::MAX => "last".to_owned(),
                l => l.to_string(),
            };
            out.push_str(".**");
            match (*first, *last) {
                (0, u32::MAX) => {}
                (a, b) if a == b => {
                    let _ = write!(out, "{{{}}}", level(a));
                }
                (a, b) => {
                    let _ = write!(out, "{{{} to {}}}", level(a), level(b));
                }
            }
        }
        Step::Filter(predicate) => {
            out.push_str("?(");
            print(predicate, false, out);
            out.push(')');
        }
        Step::Method(method) => {
            let _ = write!(out, ".{}(", method.name());
            if let Method::Datetime(Some(format)) = method {
                quoted(format, out);
            }
            out.push(')');
        }
    }
}

/// A string as JSON writes it.
fn quoted(text: &str, out: &mut String) {
    out.push_str(&serde_json::Value::String(text.to_owned()).to_string());
}
