//! A small JSON reader and writer (RFC 8259), enough for Botzone's requests
//! and the web server's API: one value read from text into a tree, and a
//! tree written back as compact text. Read with `nom` like the other
//! grammars; nesting is capped so that hostile input cannot exhaust the
//! stack.

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, digit1, multispace0, one_of};
use nom::combinator::{opt, recognize, value};
use nom::error::{Error, ErrorKind};
use nom::{IResult, Parser};

/// Deepest nesting of arrays and objects accepted.
pub const MAX_DEPTH: usize = 64;

/// A JSON value. Objects keep their members in order (a repeated key is
/// kept twice; [`Json::get`] finds the first).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string, its escapes decoded.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object's members in order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The elements of an array.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// A number that is a whole number within `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Json::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Some(n as i64),
            _ => None,
        }
    }
}

impl Json {
    /// A string value.
    pub fn str(text: impl Into<String>) -> Json {
        Json::String(text.into())
    }

    /// An object of these members, in order.
    pub fn object<const N: usize>(members: [(&str, Json); N]) -> Json {
        Json::Object(
            members
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    /// A string's text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// A string member of an object.
    pub fn get_str(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Json::as_str)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

impl From<i64> for Json {
    fn from(n: i64) -> Json {
        Json::Number(n as f64)
    }
}

impl From<f64> for Json {
    fn from(n: f64) -> Json {
        Json::Number(n)
    }
}

impl<T: Into<Json>> From<Option<T>> for Json {
    fn from(value: Option<T>) -> Json {
        value.map_or(Json::Null, Into::into)
    }
}

/// Compact JSON text: no spaces, strings escaped as RFC 8259 asks, whole
/// numbers without a fraction, and `null` for a number that is not finite.
impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Number(n) if !n.is_finite() => f.write_str("null"),
            Json::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => write!(f, "{}", *n as i64),
            Json::Number(n) => write!(f, "{n}"),
            Json::String(s) => write_string(f, s),
            Json::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Json::Object(members) => {
                f.write_str("{")?;
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_string(f, key)?;
                    write!(f, ":{value}")?;
                }
                f.write_str("}")
            }
        }
    }
}

fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            // Other controls, and the separators JavaScript once refused.
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(f, "\\u{unit:04x}")?;
                }
            }
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

/// Why a text is not one JSON value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// Byte offset of the first character that could not be read.
    pub offset: usize,
    /// The input ended before the value did (more lines may complete it).
    pub incomplete: bool,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.incomplete {
            write!(f, "the JSON value is incomplete")
        } else {
            write!(f, "bad JSON at byte {}", self.offset)
        }
    }
}

impl std::error::Error for JsonError {}

/// Reads `text` as exactly one JSON value (whitespace around it allowed).
///
/// # Errors
/// A [`JsonError`] with the offset of the first character that does not fit.
pub fn parse(text: &str) -> Result<Json, JsonError> {
    let error_at = |rest: &str| JsonError {
        offset: text.len() - rest.len(),
        incomplete: rest.is_empty(),
    };
    match element(text, 0) {
        Ok(("", json)) => Ok(json),
        Ok((rest, _)) => Err(error_at(rest)),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(error_at(e.input)),
        Err(nom::Err::Incomplete(_)) => Err(error_at("")),
    }
}

fn fail<T>(input: &str, kind: ErrorKind) -> IResult<&str, T> {
    Err(nom::Err::Failure(Error::new(input, kind)))
}

/// A value with the whitespace around it.
fn element(input: &str, depth: usize) -> IResult<&str, Json> {
    let (input, _) = multispace0(input)?;
    let (input, json) = json_value(input, depth)?;
    let (input, _) = multispace0(input)?;
    Ok((input, json))
}

fn json_value(input: &str, depth: usize) -> IResult<&str, Json> {
    match input.chars().next() {
        Some('{') => object(input, depth + 1),
        Some('[') => array(input, depth + 1),
        Some('"') => string(input).map(|(rest, s)| (rest, Json::String(s))),
        Some('-' | '0'..='9') => number(input),
        _ => alt((
            value(Json::Null, tag("null")),
            value(Json::Bool(true), tag("true")),
            value(Json::Bool(false), tag("false")),
        ))
        .parse(input)
        .or_else(|_: nom::Err<Error<&str>>| fail(input, ErrorKind::Alt)),
    }
}

fn number(input: &str) -> IResult<&str, Json> {
    let (rest, text) = recognize((
        opt(char('-')),
        alt((tag("0"), digit1)),
        opt((char('.'), digit1)),
        opt((one_of("eE"), opt(one_of("+-")), digit1)),
    ))
    .parse(input)?;
    match text.parse::<f64>() {
        Ok(n) if n.is_finite() => Ok((rest, Json::Number(n))),
        _ => fail(input, ErrorKind::Float),
    }
}

/// A string literal, escapes decoded; raw control characters are refused.
fn string(input: &str) -> IResult<&str, String> {
    let (mut rest, _) = char('"').parse(input)?;
    let mut out = String::new();
    loop {
        let mut chars = rest.chars();
        let Some(c) = chars.next() else {
            return fail(rest, ErrorKind::Char);
        };
        match c {
            '"' => return Ok((chars.as_str(), out)),
            '\\' => {
                let Some(e) = chars.next() else {
                    return fail(rest, ErrorKind::Escaped);
                };
                let decoded = match e {
                    '"' => '"',
                    '\\' => '\\',
                    '/' => '/',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    'u' => {
                        let (after, c) = unicode_escape(chars.as_str(), rest)?;
                        out.push(c);
                        rest = after;
                        continue;
                    }
                    _ => return fail(rest, ErrorKind::Escaped),
                };
                out.push(decoded);
            }
            c if u32::from(c) < 0x20 => return fail(rest, ErrorKind::Char),
            c => out.push(c),
        }
        rest = chars.as_str();
    }
}

/// The four hex digits after `\u` (and a low surrogate's after a high one).
fn unicode_escape<'a>(after_u: &'a str, at: &'a str) -> IResult<&'a str, char> {
    let hex = |s: &'a str| -> Option<(u32, &'a str)> {
        let digits = s.get(..4)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        Some((u32::from_str_radix(digits, 16).ok()?, &s[4..]))
    };
    let Some((first, rest)) = hex(after_u) else {
        return fail(at, ErrorKind::HexDigit);
    };
    if (0xD800..0xDC00).contains(&first)
        && let Some(low) = rest.strip_prefix("\\u")
        && let Some((second, after)) = hex(low)
        && (0xDC00..0xE000).contains(&second)
    {
        let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
        if let Some(c) = char::from_u32(code) {
            return Ok((after, c));
        }
    }
    match char::from_u32(first) {
        Some(c) => Ok((rest, c)),
        // A lone surrogate names no character.
        None => Ok((rest, char::REPLACEMENT_CHARACTER)),
    }
}

fn array(input: &str, depth: usize) -> IResult<&str, Json> {
    if depth > MAX_DEPTH {
        return fail(input, ErrorKind::TooLarge);
    }
    let (input, _) = (char('['), multispace0).parse(input)?;
    if let Some(rest) = input.strip_prefix(']') {
        return Ok((rest, Json::Array(Vec::new())));
    }
    let mut items = Vec::new();
    let mut input = input;
    loop {
        let (rest, item) = element(input, depth)?;
        items.push(item);
        match rest.chars().next() {
            Some(',') => input = &rest[1..],
            Some(']') => return Ok((&rest[1..], Json::Array(items))),
            _ => return fail(rest, ErrorKind::Char),
        }
    }
}

fn object(input: &str, depth: usize) -> IResult<&str, Json> {
    if depth > MAX_DEPTH {
        return fail(input, ErrorKind::TooLarge);
    }
    let (input, _) = (char('{'), multispace0).parse(input)?;
    if let Some(rest) = input.strip_prefix('}') {
        return Ok((rest, Json::Object(Vec::new())));
    }
    let mut members = Vec::new();
    let mut input = input;
    loop {
        let (rest, _) = multispace0(input)?;
        let (rest, key) =
            string(rest).map_err(|_| nom::Err::Failure(Error::new(rest, ErrorKind::Char)))?;
        let (rest, _) =
            (multispace0, char(':'))
                .parse(rest)
                .map_err(|_: nom::Err<Error<&str>>| {
                    nom::Err::Failure(Error::new(rest, ErrorKind::Char))
                })?;
        let (rest, item) = element(rest, depth)?;
        members.push((key, item));
        match rest.chars().next() {
            Some(',') => input = &rest[1..],
            Some('}') => return Ok((&rest[1..], Json::Object(members))),
            _ => return fail(rest, ErrorKind::Char),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_every_kind() {
        let json = parse(
            r#" {"requests":[{"x":-1,"y":-1},{"x":2,"y":3}],"responses":[{"x":3,"y":2}],
                "data":"a\"b\\c\u00e9\ud83d\ude00\n","ok":true,"no":false,"n":null,"f":-1.5e2} "#,
        )
        .unwrap();
        let requests = json.get("requests").unwrap().as_array().unwrap();
        assert_eq!(requests.len(), 2);
        assert_eq!(requests[1].get("y").unwrap().as_i64(), Some(3));
        assert_eq!(requests[0].get("x").unwrap().as_i64(), Some(-1));
        assert_eq!(json.get("data"), Some(&Json::String("a\"b\\cé😀\n".into())));
        assert_eq!(json.get("ok"), Some(&Json::Bool(true)));
        assert_eq!(json.get("no"), Some(&Json::Bool(false)));
        assert_eq!(json.get("n"), Some(&Json::Null));
        assert_eq!(json.get("f"), Some(&Json::Number(-150.0)));
        assert_eq!(json.get("f").unwrap().as_i64(), Some(-150));
        assert_eq!(Json::Number(1.5).as_i64(), None);
        assert_eq!(parse("[]"), Ok(Json::Array(vec![])));
        assert_eq!(parse("{ }"), Ok(Json::Object(vec![])));
        assert_eq!(parse("0"), Ok(Json::Number(0.0)));
    }

    #[test]
    fn errors_and_their_offsets() {
        let err = |text: &str| parse(text).unwrap_err();
        assert_eq!(err("{\"x\":1,}").offset, 7);
        assert!(err("{\"x\":1").incomplete);
        assert!(err("{\"requests\":[{\"x\":").incomplete);
        assert!(!err("{\"x\":1} 2").incomplete);
        for bad in [
            "",
            "nul",
            "01",
            "1.",
            "-",
            "+1",
            "'a'",
            "\"a\tb\"",
            "\"\\x\"",
            "[1 2]",
            "{1:2}",
            "{\"a\" 1}",
            "\"\\u12g4\"",
            "1e999",
            "[,]",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert!(parse(&deep).is_err());
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(&ok).is_ok());
        assert!(parse(&"[".repeat(100_000)).is_err(), "no stack overflow");
    }

    /// What the writer writes, the reader reads back the same.
    #[test]
    fn written_json_reads_back() {
        let value = Json::object([
            ("s", Json::str("a \"q\" \\ \n \t \u{1} \u{2028} é 😀")),
            ("n", Json::from(-12i64)),
            ("x", Json::from(1.25)),
            ("b", Json::from(true)),
            ("z", Json::from(None::<i64>)),
            ("a", Json::Array(vec![Json::Null, Json::Array(Vec::new())])),
            ("o", Json::Object(Vec::new())),
        ]);
        let text = value.to_string();
        assert!(
            text.starts_with(r#"{"s":"a \"q\" \\ \n \t \u0001 \u2028 é 😀","n":-12,"x":1.25,"#),
            "{text}"
        );
        assert_eq!(parse(&text), Ok(value));
        assert_eq!(Json::from(f64::NAN).to_string(), "null");
    }
}
