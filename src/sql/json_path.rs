//! The SQL/JSON path language (`jsonpath`) as PostgreSQL 15 reads and prints
//! it: `lax`/`strict`, `$`, `@`, `$var`, member, wildcard, subscript (`last`,
//! `to`) and recursive (`.**{1 to last}`) accessors, filters `?(...)`, the
//! item methods, arithmetic, comparisons, `&&`, `||`, `!`, `exists`,
//! `like_regex`, `starts with` and `is unknown`. A path is text to SQLite;
//! it is read here whenever it is used, and printed as PostgreSQL prints it
//! (`$."a"[*]?(@ > 1)`). Evaluating it is the engine's (`json_path`).

use std::fmt;

/// A whole path: its mode and its expression.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonPath {
    pub strict: bool,
    pub expr: Node,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Root,
    Current,
    Last,
    Variable(String),
    Null,
    Bool(bool),
    /// A number as written (PostgreSQL keeps its digits).
    Number(String),
    String(String),
    Binary(Op, Box<Node>, Box<Node>),
    /// Unary `+` (`true`) or `-`.
    Sign(bool, Box<Node>),
    Not(Box<Node>),
    IsUnknown(Box<Node>),
    Exists(Box<Node>),
    LikeRegex(Box<Node>, String, String),
    StartsWith(Box<Node>, Box<Node>),
    /// A primary followed by accessors, filters and methods.
    Chain(Box<Node>, Vec<Step>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Or,
    And,
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
}

impl Op {
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Or => "||",
            Op::And => "&&",
            Op::Equal => "==",
            Op::NotEqual => "!=",
            Op::Less => "<",
            Op::LessEqual => "<=",
            Op::Greater => ">",
            Op::GreaterEqual => ">=",
            Op::Add => "+",
            Op::Subtract => "-",
            Op::Multiply => "*",
            Op::Divide => "/",
            Op::Modulo => "%",
        }
    }

    /// How tightly it binds (PostgreSQL's `operationPriority`).
    pub(super) fn priority(self) -> u8 {
        match self {
            Op::Or => 0,
            Op::And => 1,
            Op::Equal
            | Op::NotEqual
            | Op::Less
            | Op::LessEqual
            | Op::Greater
            | Op::GreaterEqual => 2,
            Op::Add | Op::Subtract => 3,
            Op::Multiply | Op::Divide | Op::Modulo => 4,
        }
    }

    pub fn is_comparison(self) -> bool {
        self.priority() == 2
    }

    pub fn is_arithmetic(self) -> bool {
        self.priority() >= 3
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Key(String),
    AnyKey,
    AnyIndex,
    /// Subscripts, each an index or a range (`1 to last`).
    Indexes(Vec<(Node, Option<Node>)>),
    /// `.**{first to last}`; `u32::MAX` is `last`.
    Descent(u32, u32),
    Filter(Node),
    Method(Method),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Method {
    Type,
    Size,
    Double,
    Ceiling,
    Floor,
    Abs,
    KeyValue,
    Datetime(Option<String>),
}

impl Method {
    pub fn name(&self) -> &'static str {
        match self {
            Method::Type => "type",
            Method::Size => "size",
            Method::Double => "double",
            Method::Ceiling => "ceiling",
            Method::Floor => "floor",
            Method::Abs => "abs",
            Method::KeyValue => "keyvalue",
            Method::Datetime(_) => "datetime",
        }
    }
}

impl Node {
    pub(super) fn priority(&self) -> u8 {
        match self {
            Node::Binary(op, ..) => op.priority(),
            Node::Sign(..) => 5,
            _ => 6,
        }
    }

    /// Whether it is a predicate (its value true, false or unknown).
    pub fn is_predicate(&self) -> bool {
        match self {
            Node::Binary(op, ..) => op.priority() <= 2,
            Node::Not(_)
            | Node::IsUnknown(_)
            | Node::Exists(_)
            | Node::LikeRegex(..)
            | Node::StartsWith(..) => true,
            _ => false,
        }
    }
}

/// Why a path does not read: PostgreSQL's message (SQLSTATE 42601).
pub type Error = String;

/// Reads a `jsonpath`.
pub fn parse(text: &str) -> Result<JsonPath, Error> {
    let tokens = tokens(text)?;
    let mut parser = Parser {
        tokens,
        at: 0,
        in_filter: 0,
        in_subscript: 0,
    };
    let strict = match parser.peek() {
        Some(Token::Word(w)) if w == "strict" => {
            parser.at += 1;
            true
        }
        Some(Token::Word(w)) if w == "lax" => {
            parser.at += 1;
            false
        }
        _ => false,
    };
    let expr = parser.expr(0)?;
    match parser.peek() {
        None => Ok(JsonPath { strict, expr }),
        Some(token) => Err(syntax_error(&token.to_string())),
    }
}

fn syntax_error(near: &str) -> Error {
    match near {
        "" => "syntax error at end of jsonpath input".to_owned(),
        _ => format!("syntax error at or near \"{near}\" of jsonpath input"),
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Str(String),
    Number(String),
    Variable(String),
    Symbol(&'static str),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Word(w) | Token::Number(w) => f.write_str(w),
            Token::Str(s) => write!(f, "\"{s}\""),
            Token::Variable(v) => write!(f, "${v}"),
            Token::Symbol(s) => f.write_str(s),
        }
    }
}

const SYMBOLS: &[&str] = &[
    "==", "!=", "<>", "<=", ">=", "&&", "||", "**", "<", ">", "!", "$", "@", ".", ",", "[", "]",
    "(", ")", "{", "}", "?", "+", "-", "*", "/", "%",
];

fn tokens(text: &str) -> Result<Vec<Token>, Error> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '"' {
            let (s, next) = string(&chars, i + 1)?;
            out.push(Token::Str(s));
            i = next;
        } else if c.is_ascii_digit()
            || (c == '.'
                && chars.get(i + 1).is_some_and(char::is_ascii_digit)
                && !after_accessor(&out))
        {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if chars.get(i) == Some(&'.') && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if matches!(chars.get(i), Some('e' | 'E')) {
                let mut j = i + 1;
                if matches!(chars.get(j), Some('+' | '-')) {
                    j += 1;
                }
                if chars.get(j).is_some_and(char::is_ascii_digit) {
                    i = j;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            if chars.get(i).is_some_and(|c| c.is_alphabetic() || *c == '_') {
                let end = (i + 1).min(chars.len());
                return Err(format!(
                    "trailing junk after numeric literal at or near \"{}\" of jsonpath input",
                    chars[start..end].iter().collect::<String>()
                ));
            }
            out.push(Token::Number(plain_number(
                &chars[start..i].iter().collect::<String>(),
            )));
        } else if c == '$' && chars.get(i + 1) == Some(&'"') {
            let (s, next) = string(&chars, i + 2)?;
            out.push(Token::Variable(s));
            i = next;
        } else if c == '$' && chars.get(i + 1).is_some_and(|c| is_word_char(*c)) {
            let start = i + 1;
            i += 1;
            while i < chars.len() && is_word_char(chars[i]) {
                i += 1;
            }
            out.push(Token::Variable(chars[start..i].iter().collect()));
        } else if is_word_char(c) {
            let start = i;
            while i < chars.len() && is_word_char(chars[i]) {
                i += 1;
            }
            out.push(Token::Word(chars[start..i].iter().collect()));
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let symbol = SYMBOLS
                .iter()
                .find(|s| rest.starts_with(**s))
                .ok_or_else(|| syntax_error(&c.to_string()))?;
            out.push(Token::Symbol(symbol));
            i += symbol.chars().count();
        }
    }
    Ok(out)
}

/// A number as PostgreSQL's numeric prints it: `.5` is `0.5`, `1e3` is
/// `1000`, `1.50` keeps its digits.
fn plain_number(text: &str) -> String {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], text[at + 1..].parse::<i64>().unwrap_or(0)),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    // The point's place among the digits, and the digits shown after it.
    let point = whole.len() as i64 + exponent;
    let scale = (fraction.len() as i64 - exponent).max(0) as usize;
    let mut integer: String = match point {
        p if p <= 0 => String::new(),
        p if p as usize >= digits.len() => {
            format!("{digits}{}", "0".repeat(p as usize - digits.len()))
        }
        p => digits[..p as usize].to_owned(),
    };
    let mut after: String = match point {
        p if p < 0 => format!("{}{digits}", "0".repeat((-p) as usize)),
        p if (p as usize) < digits.len() => digits[p as usize..].to_owned(),
        _ => String::new(),
    };
    after.truncate(scale);
    while after.len() < scale {
        after.push('0');
    }
    integer = integer.trim_start_matches('0').to_owned();
    if integer.is_empty() {
        integer.push('0');
    }
    match after.is_empty() {
        true => integer,
        false => format!("{integer}.{after}"),
    }
}

/// Whether the last token is a `.` (so `.5` there is a key, not a number).
fn after_accessor(tokens: &[Token]) -> bool {
    matches!(tokens.last(), Some(Token::Symbol(".")))
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A double-quoted string from just past its opening quote: its text and
/// where it ends.
fn string(chars: &[char], mut i: usize) -> Result<(String, usize), Error> {
    let mut out = String::new();
    while let Some(&c) = chars.get(i) {
        i += 1;
        match c {
            '"' => return Ok((out, i)),
            '\\' => {
                let escaped = chars.get(i).copied().ok_or_else(|| syntax_error(""))?;
                i += 1;
                match escaped {
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'v' => out.push('\u{b}'),
                    'x' | 'u' => {
                        let width = if escaped == 'x' { 2 } else { 4 };
                        let hex: String = chars.get(i..i + width).unwrap_or(&[]).iter().collect();
                        let code = u32::from_str_radix(&hex, 16)
                            .ok()
                            .filter(|_| hex.len() == width)
                            .and_then(char::from_u32)
                            .ok_or_else(|| {
                                format!("invalid Unicode escape sequence at or near \"\\{escaped}{hex}\" of jsonpath input")
                            })?;
                        out.push(code);
                        i += width;
                    }
                    other => out.push(other),
                }
            }
            other => out.push(other),
        }
    }
    Err("unterminated quoted string of jsonpath input".to_owned())
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    in_filter: u32,
    in_subscript: u32,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Result<Token, Error> {
        let token = self
            .tokens
            .get(self.at)
            .cloned()
            .ok_or_else(|| syntax_error(""))?;
        self.at += 1;
        Ok(token)
    }

    fn eat(&mut self, symbol: &str) -> bool {
        if matches!(self.peek(), Some(Token::Symbol(s)) if *s == symbol) {
            self.at += 1;
            return true;
        }
        false
    }

    fn eat_word(&mut self, word: &str) -> bool {
        if matches!(self.peek(), Some(Token::Word(w)) if w == word) {
            self.at += 1;
            return true;
        }
        false
    }

    fn expect(&mut self, symbol: &str) -> Result<(), Error> {
        match self.eat(symbol) {
            true => Ok(()),
            false => Err(syntax_error(
                &self.peek().map(Token::to_string).unwrap_or_default(),
            )),
        }
    }

    /// An expression of operators binding at least as tightly as `min`.
    fn expr(&mut self, min: u8) -> Result<Node, Error> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Token::Symbol(s)) => match *s {
                    "||" => Op::Or,
                    "&&" => Op::And,
                    "==" => Op::Equal,
                    "!=" | "<>" => Op::NotEqual,
                    "<" => Op::Less,
                    "<=" => Op::LessEqual,
                    ">" => Op::Greater,
                    ">=" => Op::GreaterEqual,
                    "+" => Op::Add,
                    "-" => Op::Subtract,
                    "*" => Op::Multiply,
                    "/" => Op::Divide,
                    "%" => Op::Modulo,
                    _ => break,
                },
                Some(Token::Word(w)) if min <= 2 => match w.as_str() {
                    "like_regex" => {
                        self.at += 1;
                        let Token::Str(pattern) = self.next()? else {
                            return Err(syntax_error(&self.tokens[self.at - 1].to_string()));
                        };
                        let mut flags = String::new();
                        if self.eat_word("flag") {
                            let Token::Str(given) = self.next()? else {
                                return Err(syntax_error(&self.tokens[self.at - 1].to_string()));
                            };
                            flags = regex_flags(&given)?;
                        }
                        left = Node::LikeRegex(Box::new(left), pattern, flags);
                        continue;
                    }
                    "starts" => {
                        self.at += 1;
                        if !self.eat_word("with") {
                            return Err(syntax_error(
                                &self.peek().map(Token::to_string).unwrap_or_default(),
                            ));
                        }
                        let prefix = match self.next()? {
                            Token::Str(s) => Node::String(s),
                            Token::Variable(v) => Node::Variable(v),
                            other => return Err(syntax_error(&other.to_string())),
                        };
                        left = Node::StartsWith(Box::new(left), Box::new(prefix));
                        continue;
                    }
                    "is" => {
                        self.at += 1;
                        if !self.eat_word("unknown") {
                            return Err(syntax_error(
                                &self.peek().map(Token::to_string).unwrap_or_default(),
                            ));
                        }
                        left = Node::IsUnknown(Box::new(left));
                        continue;
                    }
                    _ => break,
                },
                _ => break,
            };
            if op.priority() < min {
                break;
            }
            self.at += 1;
            // Comparisons do not chain; the others bind to the left.
            let right = self.expr(op.priority() + 1)?;
            if op.is_comparison()
                && left.is_predicate()
                && matches!(&left, Node::Binary(o, ..) if o.is_comparison())
            {
                return Err(syntax_error(op.symbol()));
            }
            left = Node::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Node, Error> {
        if self.eat("!") {
            let operand = self.unary()?;
            return Ok(Node::Not(Box::new(operand)));
        }
        for (symbol, plus) in [("-", false), ("+", true)] {
            if self.eat(symbol) {
                // A sign before a number is part of it, as PostgreSQL folds it.
                return Ok(match (self.unary()?, plus) {
                    (Node::Number(n), true) => Node::Number(n),
                    (Node::Number(n), false) => Node::Number(match n.strip_prefix('-') {
                        Some(positive) => positive.to_owned(),
                        None => format!("-{n}"),
                    }),
                    (operand, plus) => Node::Sign(plus, Box::new(operand)),
                });
            }
        }
        let primary = self.primary()?;
        let steps = self.steps()?;
        Ok(match steps.is_empty() {
            true => primary,
            false => Node::Chain(Box::new(primary), steps),
        })
    }

    fn primary(&mut self) -> Result<Node, Error> {
        match self.next()? {
            Token::Symbol("$") => Ok(Node::Root),
            Token::Symbol("@") if self.in_filter > 0 => Ok(Node::Current),
            Token::Symbol("@") => Err("@ is not allowed in root expressions".to_owned()),
            Token::Symbol("(") => {
                let inner = self.expr(0)?;
                self.expect(")")?;
                Ok(inner)
            }
            Token::Variable(name) => Ok(Node::Variable(name)),
            Token::Str(s) => Ok(Node::String(s)),
            Token::Number(n) => Ok(Node::Number(n)),
            Token::Word(w) => match w.as_str() {
                "true" => Ok(Node::Bool(true)),
                "false" => Ok(Node::Bool(false)),
                "null" => Ok(Node::Null),
                "last" if self.in_subscript > 0 => Ok(Node::Last),
                "last" => Err("LAST is allowed only in array subscripts".to_owned()),
                "exists" => {
                    self.expect("(")?;
                    let inner = self.expr(0)?;
                    self.expect(")")?;
                    Ok(Node::Exists(Box::new(inner)))
                }
                _ => Err(syntax_error(&w)),
            },
            other => Err(syntax_error(&other.to_string())),
        }
    }

    fn steps(&mut self) -> Result<Vec<Step>, Error> {
        let mut steps = Vec::new();
        loop {
            if self.eat(".") {
                steps.push(self.member()?);
            } else if self.eat("[") {
                steps.push(self.subscripts()?);
            } else if self.eat("?") {
                self.expect("(")?;
                self.in_filter += 1;
                let predicate = self.expr(0)?;
                self.in_filter -= 1;
                // A filter holds a predicate, never a bare path.
                if !predicate.is_predicate() {
                    return Err(syntax_error(")"));
                }
                self.expect(")")?;
                steps.push(Step::Filter(predicate));
            } else {
                return Ok(steps);
            }
        }
    }

    /// What follows a `.`: a key, `*`, `**{...}` or a method.
    fn member(&mut self) -> Result<Step, Error> {
        match self.next()? {
            Token::Symbol("*") => Ok(Step::AnyKey),
            Token::Symbol("**") => {
                if !self.eat("{") {
                    return Ok(Step::Descent(0, u32::MAX));
                }
                let first = self.level()?;
                let last = match self.eat_word("to") {
                    true => self.level()?,
                    false => first,
                };
                self.expect("}")?;
                Ok(Step::Descent(first, last))
            }
            Token::Str(key) => Ok(Step::Key(key)),
            Token::Word(word) if matches!(self.peek(), Some(Token::Symbol("("))) => {
                self.at += 1;
                let method = match word.as_str() {
                    "type" => Method::Type,
                    "size" => Method::Size,
                    "double" => Method::Double,
                    "ceiling" => Method::Ceiling,
                    "floor" => Method::Floor,
                    "abs" => Method::Abs,
                    "keyvalue" => Method::KeyValue,
                    "datetime" => match self.peek() {
                        Some(Token::Str(s)) => {
                            let format = s.clone();
                            self.at += 1;
                            Method::Datetime(Some(format))
                        }
                        _ => Method::Datetime(None),
                    },
                    _ => return Err(syntax_error("(")),
                };
                self.expect(")")?;
                Ok(Step::Method(method))
            }
            Token::Word(word) | Token::Number(word) => Ok(Step::Key(word)),
            Token::Variable(name) => Ok(Step::Key(format!("${name}"))),
            other => Err(syntax_error(&other.to_string())),
        }
    }

    fn level(&mut self) -> Result<u32, Error> {
        match self.next()? {
            Token::Word(w) if w == "last" => Ok(u32::MAX),
            Token::Number(n) => n.parse().map_err(|_| syntax_error(&n)),
            other => Err(syntax_error(&other.to_string())),
        }
    }

    fn subscripts(&mut self) -> Result<Step, Error> {
        if self.eat("*") {
            self.expect("]")?;
            return Ok(Step::AnyIndex);
        }
        self.in_subscript += 1;
        let mut list = Vec::new();
        loop {
            let from = self.expr(0)?;
            let to = match self.eat_word("to") {
                true => Some(self.expr(0)?),
                false => None,
            };
            list.push((from, to));
            if !self.eat(",") {
                break;
            }
        }
        self.in_subscript -= 1;
        self.expect("]")?;
        Ok(Step::Indexes(list))
    }
}

/// `like_regex`'s flags in PostgreSQL's order (`i`, `s`, `m`, `x`, `q`).
fn regex_flags(given: &str) -> Result<String, Error> {
    if let Some(bad) = given.chars().find(|c| !"ismxq".contains(*c)) {
        return Err(format!(
            "invalid input syntax for type jsonpath: unrecognized flag character \"{bad}\" in LIKE_REGEX predicate"
        ));
    }
    Ok("ismxq".chars().filter(|c| given.contains(*c)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> String {
        parse(text).map_or_else(|e| format!("ERROR {e}"), |p| p.to_string())
    }

    #[test]
    fn paths_print_as_postgres_prints_them() {
        for (given, printed) in [
            (
                "$.a[*] ? (@ > 1 && @ < 5).type()",
                "$.\"a\"[*]?(@ > 1 && @ < 5).type()",
            ),
            (
                "strict $.\"a b\".** {2 to last}",
                "strict $.\"a b\".**{2 to last}",
            ),
            ("$.a + 2 * 3", "($.\"a\" + 2 * 3)"),
            ("$[last - 1, 1 to 2]", "$[last - 1,1 to 2]"),
            (
                "$ ? (@ like_regex \"^a\" flag \"ii\")",
                "$?(@ like_regex \"^a\" flag \"i\")",
            ),
            ("$ ? (@ starts with \"x\")", "$?(@ starts with \"x\")"),
            ("- $.a", "(-$.\"a\")"),
            ("$.a ? (exists (@.b))", "$.\"a\"?(exists (@.\"b\"))"),
            ("$ ? ((@ > 1) is unknown)", "$?((@ > 1) is unknown)"),
            ("1.50", "1.50"),
            ("$x", "$\"x\""),
            ("$.a == \"\\u0041\"", "($.\"a\" == \"A\")"),
            ("$ ? (!(@ == 1))", "$?(!(@ == 1))"),
            ("lax $.**", "$.**"),
            ("(1 + 2) * 3", "((1 + 2) * 3)"),
            ("$.a.size()", "$.\"a\".size()"),
            ("-1.5 + .5e1 - 1e-2", "((-1.5 + 5) - 0.01)"),
            ("- $.a + 0.10", "(-$.\"a\" + 0.10)"),
            ("1 - (2 - 3)", "(1 - (2 - 3))"),
            (
                "$ ? ((@ == 1 || @ == 2) && @ == 3)",
                "$?((@ == 1 || @ == 2) && @ == 3)",
            ),
            ("$ ? (@.a == -1)", "$?(@.\"a\" == -1)"),
            ("$ ? (@ == $\"a b\")", "$?(@ == $\"a b\")"),
        ] {
            assert_eq!(shown(given), printed, "{given}");
        }
    }

    #[test]
    fn bad_paths_are_refused() {
        for (given, error) in [
            ("@", "ERROR @ is not allowed in root expressions"),
            ("last", "ERROR LAST is allowed only in array subscripts"),
            ("$.a.", "ERROR syntax error at end of jsonpath input"),
            (
                "$ ? (@ like_regex \"a\" flag \"z\")",
                "ERROR invalid input syntax for type jsonpath: unrecognized flag character \"z\" in LIKE_REGEX predicate",
            ),
            (
                "$.a $",
                "ERROR syntax error at or near \"$\" of jsonpath input",
            ),
        ] {
            assert_eq!(shown(given), error, "{given}");
        }
    }
}
