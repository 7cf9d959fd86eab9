//! SQL functions PostgreSQL has and SQLite lacks, registered on every connection.
//!
//! The dialect translation turns PostgreSQL syntax into calls of these: `~` into
//! `regexp()`, arrays into PostgreSQL's array text (`{a,b}`) built and read by the
//! `litewire_array*` functions, `format_type()` for the catalog. Each is a plain
//! Rust function over [`Arg`]s; one trampoline adapts them to SQLite's C API and
//! turns a panic into an SQL error instead of unwinding into C. The sequence
//! functions (`nextval()`, ... see `sequences`) and the settings ones
//! (`set_config()`, ... see `config_functions`) also get the connection they run
//! on, and are never treated as deterministic: SQLite calls them once per row.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{CString, c_int, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

use libsqlite3_sys as ffi;
use regex::Regex;

use super::catalog::format_type;
use super::{config_functions, sequences};
use crate::sql::quote::parse_bool;

/// One argument as SQLite passed it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Arg<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a str),
    Blob(&'a [u8]),
}

impl Arg<'_> {
    /// The value as PostgreSQL would print it inside an array.
    pub(super) fn text(&self) -> Option<String> {
        match self {
            Arg::Null => None,
            Arg::Int(i) => Some(i.to_string()),
            Arg::Real(f) => Some(f.to_string()),
            Arg::Text(s) => Some((*s).to_owned()),
            Arg::Blob(b) => Some(String::from_utf8_lossy(b).into_owned()),
        }
    }

    fn int(&self) -> Option<i64> {
        match self {
            Arg::Int(i) => Some(*i),
            Arg::Real(f) => Some(*f as i64),
            Arg::Text(s) => s.trim().parse().ok(),
            _ => None,
        }
    }
}

/// What a function returns.
#[derive(Debug, PartialEq)]
pub(super) enum Out {
    Null,
    Int(i64),
    Text(String),
    Error(String),
}

type Scalar = fn(&[Arg]) -> Out;

/// Name, argument count (-1: any) and body of every scalar function.
const SCALARS: &[(&str, c_int, Scalar)] = &[
    ("regexp", 2, regexp),
    ("format_type", 2, format_type_fn),
    ("array_to_string", 2, array_to_string),
    ("array_to_string", 3, array_to_string),
    ("litewire_array", -1, array),
    ("litewire_array_bool", 1, array_bool),
    ("litewire_array_contains", 2, array_contains),
    ("litewire_array_json", 1, array_json),
    ("litewire_array_length", 1, array_length),
    ("litewire_array_element", 2, array_element),
    ("litewire_record_field", 2, record_field),
    ("pg_size_pretty", 1, size_pretty),
    ("gen_random_uuid", 0, random_uuid),
];

/// A function that reads or writes through the connection it runs on.
type OnConnection = fn(*mut ffi::sqlite3, &[Arg]) -> Out;

/// Name, argument count and body of every function that needs its connection.
const ON_CONNECTION: &[(&str, c_int, OnConnection)] = &[
    ("nextval", 1, sequences::nextval),
    ("currval", 1, sequences::currval),
    ("setval", 2, sequences::setval),
    ("setval", 3, sequences::setval),
    ("lastval", 0, sequences::lastval),
    ("pg_get_serial_sequence", 2, sequences::serial_sequence),
    ("litewire_error", 1, sequences::raise),
    ("current_setting", 1, config_functions::current_setting),
    ("current_setting", 2, config_functions::current_setting),
    ("set_config", 3, config_functions::set_config),
];

/// Registers the functions on a connection.
///
/// # Safety
/// `db` must be a valid, open connection handle that nobody else uses meanwhile.
pub(super) unsafe fn register(db: *mut ffi::sqlite3) -> Result<(), String> {
    for (name, args, body) in SCALARS {
        let deterministic = if *name == "gen_random_uuid" {
            0
        } else {
            ffi::SQLITE_DETERMINISTIC
        };
        let c_name = CString::new(*name).map_err(|e| e.to_string())?;
        // SAFETY: the caller guarantees `db`; the name is copied by SQLite and the
        // user data is a plain function pointer, valid for the program's life.
        let rc = unsafe {
            ffi::sqlite3_create_function_v2(
                db,
                c_name.as_ptr(),
                *args,
                ffi::SQLITE_UTF8 | deterministic,
                *body as *mut c_void,
                Some(call_scalar),
                None,
                None,
                None,
            )
        };
        if rc != ffi::SQLITE_OK {
            return Err(format!("registering {name}: SQLite error {rc}"));
        }
    }
    for (name, args, body) in ON_CONNECTION {
        let c_name = CString::new(*name).map_err(|e| e.to_string())?;
        // SAFETY: as above.
        let rc = unsafe {
            ffi::sqlite3_create_function_v2(
                db,
                c_name.as_ptr(),
                *args,
                ffi::SQLITE_UTF8,
                *body as *mut c_void,
                Some(call_on_connection),
                None,
                None,
                None,
            )
        };
        if rc != ffi::SQLITE_OK {
            return Err(format!("registering {name}: SQLite error {rc}"));
        }
    }
    let c_name = CString::new("litewire_array_agg").map_err(|e| e.to_string())?;
    // SAFETY: as above; the aggregate keeps its state in SQLite's aggregate context.
    let rc = unsafe {
        ffi::sqlite3_create_function_v2(
            db,
            c_name.as_ptr(),
            1,
            ffi::SQLITE_UTF8,
            std::ptr::null_mut(),
            None,
            Some(array_agg_step),
            Some(array_agg_final),
            None,
        )
    };
    if rc != ffi::SQLITE_OK {
        return Err(format!("registering litewire_array_agg: SQLite error {rc}"));
    }
    Ok(())
}

/// Reads SQLite's arguments into [`Arg`]s borrowing SQLite's buffers.
///
/// # Safety
/// `argv` must hold `argc` valid values, alive for the duration of the call.
unsafe fn read_args<'a>(argc: c_int, argv: *mut *mut ffi::sqlite3_value) -> Vec<Arg<'a>> {
    let count = usize::try_from(argc).unwrap_or(0);
    (0..count)
        .map(|i| {
            // SAFETY: i < argc, per the caller.
            let value = unsafe { *argv.add(i) };
            // SAFETY: `value` is a valid protected value for this call.
            unsafe { read_arg(value) }
        })
        .collect()
}

/// # Safety
/// `value` must be valid for the duration of the call.
unsafe fn read_arg<'a>(value: *mut ffi::sqlite3_value) -> Arg<'a> {
    // SAFETY: per the caller; the text/blob pointers stay valid until the call
    // returns, which bounds 'a in practice.
    unsafe {
        match ffi::sqlite3_value_type(value) {
            ffi::SQLITE_INTEGER => Arg::Int(ffi::sqlite3_value_int64(value)),
            ffi::SQLITE_FLOAT => Arg::Real(ffi::sqlite3_value_double(value)),
            ffi::SQLITE_TEXT => {
                let ptr = ffi::sqlite3_value_text(value);
                let len = usize::try_from(ffi::sqlite3_value_bytes(value)).unwrap_or(0);
                if ptr.is_null() {
                    return Arg::Text("");
                }
                let bytes = std::slice::from_raw_parts(ptr, len);
                std::str::from_utf8(bytes).map_or(Arg::Blob(bytes), Arg::Text)
            }
            ffi::SQLITE_BLOB => {
                let ptr = ffi::sqlite3_value_blob(value).cast::<u8>();
                let len = usize::try_from(ffi::sqlite3_value_bytes(value)).unwrap_or(0);
                if ptr.is_null() {
                    return Arg::Blob(&[]);
                }
                Arg::Blob(std::slice::from_raw_parts(ptr, len))
            }
            _ => Arg::Null,
        }
    }
}

/// # Safety
/// `ctx` must be the context of the running call.
unsafe fn set_result(ctx: *mut ffi::sqlite3_context, out: Out) {
    // SAFETY: per the caller; text is copied by SQLite (SQLITE_TRANSIENT).
    unsafe {
        match out {
            Out::Null => ffi::sqlite3_result_null(ctx),
            Out::Int(i) => ffi::sqlite3_result_int64(ctx, i),
            Out::Text(s) => ffi::sqlite3_result_text64(
                ctx,
                s.as_ptr().cast(),
                s.len() as u64,
                ffi::SQLITE_TRANSIENT(),
                ffi::SQLITE_UTF8 as u8,
            ),
            Out::Error(message) => {
                ffi::sqlite3_result_error(ctx, message.as_ptr().cast(), message.len() as c_int)
            }
        }
    }
}

unsafe extern "C" fn call_scalar(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: SQLite calls us with a valid context whose user data is the
    // `Scalar` registered in `register`, and `argc` valid arguments.
    unsafe {
        let body: Scalar = std::mem::transmute::<*mut c_void, Scalar>(ffi::sqlite3_user_data(ctx));
        let args = read_args(argc, argv);
        let out = catch_unwind(AssertUnwindSafe(|| body(&args)))
            .unwrap_or_else(|_| Out::Error("internal error in a litewire SQL function".into()));
        set_result(ctx, out);
    }
}

unsafe extern "C" fn call_on_connection(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: SQLite calls us with a valid context whose user data is the
    // `OnConnection` registered in `register`, and `argc` valid arguments.
    unsafe {
        let body: OnConnection =
            std::mem::transmute::<*mut c_void, OnConnection>(ffi::sqlite3_user_data(ctx));
        let db = ffi::sqlite3_context_db_handle(ctx);
        let args = read_args(argc, argv);
        let out = catch_unwind(AssertUnwindSafe(|| body(db, &args)))
            .unwrap_or_else(|_| Out::Error("internal error in a litewire SQL function".into()));
        set_result(ctx, out);
    }
}

type ArrayState = Vec<Option<String>>;

/// The aggregate's state: a pointer-sized slot in SQLite's aggregate context that
/// owns a boxed vector from the first row on.
///
/// # Safety
/// `ctx` must be the context of a running aggregate call.
unsafe fn array_state(ctx: *mut ffi::sqlite3_context, create: bool) -> *mut *mut ArrayState {
    let size = if create {
        std::mem::size_of::<*mut ArrayState>() as c_int
    } else {
        0
    };
    // SAFETY: per the caller; SQLite zeroes the slot on first allocation.
    unsafe { ffi::sqlite3_aggregate_context(ctx, size).cast() }
}

unsafe extern "C" fn array_agg_step(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: a running aggregate call with `argc` (1) valid arguments.
    unsafe {
        let slot = array_state(ctx, true);
        if slot.is_null() {
            ffi::sqlite3_result_error_nomem(ctx);
            return;
        }
        if (*slot).is_null() {
            *slot = Box::into_raw(Box::default());
        }
        let value = read_args(argc, argv).first().and_then(Arg::text);
        (**slot).push(value);
    }
}

unsafe extern "C" fn array_agg_final(ctx: *mut ffi::sqlite3_context) {
    // SAFETY: the final call of a running aggregate; the box, if any, was made
    // by `array_agg_step` and is taken back exactly once.
    unsafe {
        let slot = array_state(ctx, false);
        let items = if slot.is_null() || (*slot).is_null() {
            Vec::new()
        } else {
            let items = *Box::from_raw(*slot);
            *slot = std::ptr::null_mut();
            items
        };
        set_result(ctx, Out::Text(format_array(&items)));
    }
}

thread_local! {
    /// Compiled patterns by their text: psql sends the same few again and again.
    static PATTERNS: RefCell<HashMap<String, Regex>> = RefCell::new(HashMap::new());
}

/// `regexp(pattern, text)`: PostgreSQL's `text ~ pattern`.
fn regexp(args: &[Arg]) -> Out {
    let (Some(pattern), Some(text)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    PATTERNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if !cache.contains_key(&pattern) {
            match Regex::new(&pattern) {
                Ok(re) => {
                    if cache.len() >= 64 {
                        cache.clear();
                    }
                    cache.insert(pattern.clone(), re);
                }
                Err(e) => return Out::Error(format!("invalid regular expression: {e}")),
            }
        }
        let matched = cache.get(&pattern).is_some_and(|re| re.is_match(&text));
        Out::Int(i64::from(matched))
    })
}

fn format_type_fn(args: &[Arg]) -> Out {
    match args[0].int() {
        Some(oid) => Out::Text(format_type(oid, args[1].int())),
        None => Out::Null,
    }
}

/// `array_to_string(array, separator [, null_string])`.
fn array_to_string(args: &[Arg]) -> Out {
    let (Some(array), Some(sep)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    let null = args.get(2).and_then(Arg::text);
    let Some(items) = parse_array(&array) else {
        return Out::Error(format!("malformed array literal: \"{array}\""));
    };
    let parts: Vec<String> = items
        .into_iter()
        .filter_map(|item| item.or_else(|| null.clone()))
        .collect();
    Out::Text(parts.join(&sep))
}

/// `litewire_array(a, b, ...)`: PostgreSQL's `ARRAY[a, b, ...]`.
fn array(args: &[Arg]) -> Out {
    let items: Vec<Option<String>> = args.iter().map(Arg::text).collect();
    Out::Text(format_array(&items))
}

/// `litewire_array_bool(array)`: `array::boolean[]`, each element as a boolean
/// column stores it (1 or 0), whatever PostgreSQL spelling it had (`t`, `false`).
fn array_bool(args: &[Arg]) -> Out {
    let Some(array) = args[0].text() else {
        return Out::Null;
    };
    let Some(items) = parse_array(&array) else {
        return Out::Error(format!("malformed array literal: \"{array}\""));
    };
    let mut bools = Vec::with_capacity(items.len());
    for item in items {
        bools.push(match item.as_deref().map(parse_bool) {
            None => None,
            Some(Some(b)) => Some(i64::from(b).to_string()),
            Some(None) => {
                return Out::Error(format!(
                    "invalid input syntax for type boolean: \"{}\"",
                    item.unwrap_or_default()
                ));
            }
        });
    }
    Out::Text(format_array(&bools))
}

/// `litewire_array_contains(array, x)`: PostgreSQL's `x = ANY(array)`.
fn array_contains(args: &[Arg]) -> Out {
    let (Some(array), Some(needle)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    match parse_array(&array) {
        Some(items) => Out::Int(i64::from(items.iter().flatten().any(|i| *i == needle))),
        None => Out::Error(format!("malformed array literal: \"{array}\"")),
    }
}

/// `litewire_array_json(array)`: the elements as a JSON array, for `json_each`.
/// A vector (`int2vector`, `oidvector`: `1 2`, as `pg_index.indkey` holds its
/// column numbers) gives numbers.
fn array_json(args: &[Arg]) -> Out {
    let Some(array) = args[0].text() else {
        return Out::Text("[]".into());
    };
    if !array.trim_start().starts_with('{') {
        let numbers: Option<Vec<i64>> = array.split_whitespace().map(|n| n.parse().ok()).collect();
        return match numbers {
            Some(numbers) => Out::Text(serde_json::Value::from(numbers).to_string()),
            None => Out::Error(format!("malformed vector: \"{array}\"")),
        };
    }
    match parse_array(&array) {
        Some(items) => Out::Text(serde_json::Value::from(items).to_string()),
        None => Out::Error(format!("malformed array literal: \"{array}\"")),
    }
}

/// The elements of an array (`{a,b}`) or of a vector (`int2vector`,
/// `oidvector`: `1 2`), and the subscript of the first one.
fn elements(text: &str) -> Option<(Vec<Option<String>>, i64)> {
    if text.trim_start().starts_with('{') {
        return parse_array(text).map(|items| (items, 1));
    }
    Some((
        text.split_whitespace()
            .map(|s| Some(s.to_owned()))
            .collect(),
        0,
    ))
}

/// `litewire_array_element(array, i)`: PostgreSQL's `array[i]` (NULL out of
/// bounds); arrays count from 1, vectors from 0.
fn array_element(args: &[Arg]) -> Out {
    let (Some(array), Some(index)) = (args[0].text(), args[1].int()) else {
        return Out::Null;
    };
    let Some((items, first)) = elements(&array) else {
        return Out::Error(format!("malformed array literal: \"{array}\""));
    };
    let item = usize::try_from(index - first)
        .ok()
        .and_then(|i| items.into_iter().nth(i))
        .flatten();
    match item {
        Some(item) => match item.parse::<i64>() {
            Ok(number) => Out::Int(number),
            Err(_) => Out::Text(item),
        },
        None => Out::Null,
    }
}

/// `litewire_record_field(record, n)`: the `n`th field (from 1) of a record in
/// PostgreSQL's text form, `(a,b)`.
fn record_field(args: &[Arg]) -> Out {
    let (Some(record), Some(position)) = (args[0].text(), args[1].int()) else {
        return Out::Null;
    };
    let Some(inner) = record
        .trim()
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
    else {
        return Out::Error(format!("malformed record literal: \"{record}\""));
    };
    let field = usize::try_from(position - 1)
        .ok()
        .and_then(|i| inner.split(',').nth(i))
        .filter(|f| !f.is_empty());
    match field {
        Some(field) => match field.parse::<i64>() {
            Ok(number) => Out::Int(number),
            Err(_) => Out::Text(field.to_owned()),
        },
        None => Out::Null,
    }
}

/// `litewire_array_length(array)`: NULL for an empty array, as PostgreSQL.
fn array_length(args: &[Arg]) -> Out {
    let Some(array) = args[0].text() else {
        return Out::Null;
    };
    match parse_array(&array).map(|items| items.len()) {
        Some(0) | None => Out::Null,
        Some(n) => Out::Int(n as i64),
    }
}

/// `pg_size_pretty(bytes)`, rounding as PostgreSQL does.
fn size_pretty(args: &[Arg]) -> Out {
    let Some(mut size) = args[0].int() else {
        return Out::Null;
    };
    const LIMIT: i64 = 10 * 1024;
    const LIMIT2: i64 = LIMIT * 2 - 1;
    let half_rounded = |x: i64| (x + if x < 0 { -1 } else { 1 }) / 2;
    if size.abs() < LIMIT {
        return Out::Text(format!("{size} bytes"));
    }
    // One extra bit is kept for rounding.
    size >>= 9;
    for unit in ["kB", "MB", "GB", "TB"] {
        if size.abs() < LIMIT2 || unit == "TB" {
            return Out::Text(format!("{} {unit}", half_rounded(size)));
        }
        size >>= 10;
    }
    Out::Null
}

/// `gen_random_uuid()`: a version 4 UUID from SQLite's randomness source.
fn random_uuid(_args: &[Arg]) -> Out {
    let mut bytes = [0u8; 16];
    // SAFETY: the buffer is 16 writable bytes.
    unsafe { ffi::sqlite3_randomness(16, bytes.as_mut_ptr().cast()) };
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    Out::Text(format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    ))
}

/// PostgreSQL's text form of a one-dimensional array.
pub fn format_array(items: &[Option<String>]) -> String {
    let parts: Vec<String> = items
        .iter()
        .map(|item| match item {
            None => "NULL".to_owned(),
            Some(s) if needs_quotes(s) => {
                format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
            }
            Some(s) => s.clone(),
        })
        .collect();
    format!("{{{}}}", parts.join(","))
}

fn needs_quotes(s: &str) -> bool {
    s.is_empty()
        || s.eq_ignore_ascii_case("null")
        || s.chars()
            .any(|c| matches!(c, '{' | '}' | ',' | '"' | '\\') || c.is_whitespace())
}

/// Reads PostgreSQL's text form of a one-dimensional array; `None` if malformed.
pub fn parse_array(text: &str) -> Option<Vec<Option<String>>> {
    let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?;
    let mut items = Vec::new();
    if inner.trim().is_empty() {
        return Some(items);
    }
    let mut chars = inner.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let item = if chars.peek() == Some(&'"') {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next()? {
                    '\\' => s.push(chars.next()?),
                    '"' => break,
                    c => s.push(c),
                }
            }
            Some(s)
        } else {
            let mut s = String::new();
            while let Some(&c) = chars.peek() {
                if c == ',' {
                    break;
                }
                s.push(c);
                chars.next();
            }
            let s = s.trim().to_owned();
            (!s.eq_ignore_ascii_case("null")).then_some(s)
        };
        items.push(item);
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        match chars.next() {
            Some(',') => continue,
            None => return Some(items),
            Some(_) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(out: Out) -> String {
        match out {
            Out::Text(s) => s,
            other => panic!("expected text, got {other:?}"),
        }
    }

    #[test]
    fn arrays_round_trip() {
        let items = vec![
            Some("a".into()),
            None,
            Some("b c".into()),
            Some("".into()),
            Some("q\"x".into()),
        ];
        let text_form = format_array(&items);
        assert_eq!(text_form, r#"{a,NULL,"b c","","q\"x"}"#);
        assert_eq!(parse_array(&text_form), Some(items));
        assert_eq!(parse_array("{}"), Some(vec![]));
        assert_eq!(
            parse_array("{1, 2}"),
            Some(vec![Some("1".into()), Some("2".into())])
        );
        assert_eq!(parse_array("nope"), None);
    }

    #[test]
    fn array_functions() {
        assert_eq!(
            text(array_to_string(&[Arg::Text("{a,NULL,b}"), Arg::Text(", ")])),
            "a, b"
        );
        assert_eq!(
            array_contains(&[Arg::Text("{1,2}"), Arg::Int(2)]),
            Out::Int(1)
        );
        assert_eq!(array_length(&[Arg::Text("{}")]), Out::Null);
        assert_eq!(text(array_json(&[Arg::Text("{x,NULL}")])), r#"["x",null]"#);
        assert_eq!(text(array_json(&[Arg::Text("2 1")])), "[2,1]");
        assert_eq!(text(array_json(&[Arg::Text("")])), "[]");
        assert!(matches!(array_json(&[Arg::Text("1 x")]), Out::Error(_)));
        assert_eq!(
            text(array(&[Arg::Int(1), Arg::Text("a b")])),
            r#"{1,"a b"}"#
        );
        assert_eq!(
            text(array_bool(&[Arg::Text("{t,false,NULL,1}")])),
            "{1,0,NULL,1}"
        );
        assert!(matches!(array_bool(&[Arg::Text("{maybe}")]), Out::Error(_)));
    }

    #[test]
    fn subscripts_and_record_fields() {
        assert_eq!(
            array_element(&[Arg::Text("{4,5}"), Arg::Int(2)]),
            Out::Int(5)
        );
        assert_eq!(array_element(&[Arg::Text("{4,5}"), Arg::Int(3)]), Out::Null);
        assert_eq!(array_element(&[Arg::Text("{4,5}"), Arg::Int(0)]), Out::Null);
        assert_eq!(array_element(&[Arg::Text("4 5"), Arg::Int(0)]), Out::Int(4));
        assert_eq!(text(array_element(&[Arg::Text("{a,b}"), Arg::Int(1)])), "a");
        assert_eq!(
            record_field(&[Arg::Text("(3,1)"), Arg::Int(2)]),
            Out::Int(1)
        );
        assert!(matches!(
            record_field(&[Arg::Text("3,1"), Arg::Int(1)]),
            Out::Error(_)
        ));
    }

    #[test]
    fn regexp_and_sizes() {
        assert_eq!(regexp(&[Arg::Text("^(t)$"), Arg::Text("t")]), Out::Int(1));
        assert_eq!(
            regexp(&[Arg::Text("^pg_"), Arg::Text("public")]),
            Out::Int(0)
        );
        assert!(matches!(
            regexp(&[Arg::Text("("), Arg::Text("x")]),
            Out::Error(_)
        ));
        assert_eq!(text(size_pretty(&[Arg::Int(8192)])), "8192 bytes");
        assert_eq!(text(size_pretty(&[Arg::Int(16384)])), "16 kB");
        assert_eq!(text(size_pretty(&[Arg::Int(10 * 1024 * 1024)])), "10 MB");
    }

    #[test]
    fn uuids_are_version_4() {
        let uuid = text(random_uuid(&[]));
        assert_eq!(uuid.len(), 36);
        assert_eq!(&uuid[14..15], "4");
    }
}
