//! PostgreSQL's function library, family by family, and the query forms
//! SQLite lacks (`DISTINCT ON`, grouping sets, set-returning functions and
//! `LATERAL` subqueries over the row beside them): each case is a statement
//! and PostgreSQL 15's answer to it (made on PostgreSQL 15 and checked against
//! it: `LITEWIRE_TEST_POSTGRES=... cargo test --test postgres_functions --
//! --ignored`), read back in text (simple protocol) and in binary (extended
//! protocol), where the binary value must be the one the text names.

mod common;

use chrono::{NaiveTime, Timelike};
use common::target::Target;
use litewire::sql::interval::Interval;
use tokio_postgres::types::{FromSql, Type};
use tokio_postgres::{Client, Row, SimpleQueryMessage};

against_litewire_and_postgres!(
    range_constructors_are_refused_as_not_implemented,
    statistics_aggregates,
    computed_numerics_compare_and_sort_as_numbers,
    string_functions,
    string_spellings_and_patterns,
    casts_named_as_calls_and_numeric_specials,
    date_time_functions,
    date_time_input_follows_date_style,
    intervals,
    interval_types_keep_their_fields_and_digits,
    ordered_set_aggregates,
    hypothetical_set_aggregates,
    variadic_arguments,
    json_operators_and_functions,
    json_path_queries,
    arguments_by_name_take_their_places,
    text_kept_types_keep_their_names_and_bits_their_zeros,
    network_addresses_read_order_and_contain,
    trigonometry_and_float_input,
    divisors_and_buckets,
    distinct_on_and_grouping_sets,
    set_operations_keep_duplicates_and_parentheses,
    set_returning_functions_read_the_row_beside_them,
    lateral_subqueries_read_the_row_beside_them,
    table_aliases_rename_columns,
    text_reads_as_bytea_and_timestamps_as_json,
    sort_operators_order_as_directions,
    numbers_formatted_by_template,
    built_in_functions_listed_as_postgres_lists_them,
    numerics_show_the_digits_their_scale_fixes,
    times_of_day_move_by_intervals,
    dates_read_by_template,
    random_values_repeat_for_a_seed,
    values_compared_with_subqueries,
    recursive_queries_as_postgres_allows_them,
    arrays_join_with_concatenation,
    bytea_functions_count_bytes,
    sleeping_waits_until_told_otherwise,
    rows_read_whole_as_records_and_json,
    arrays_measured_searched_and_compared,
    nulls_counted_text_converted_and_clocks_read,
    json_objects_built_pretty_printed_and_inserted_into,
    time_zones_show_and_read_local_times,
);

/// One case: a statement and its answer, rows joined by `\n`, columns by `|`,
/// NULL as `NULL`; or `ERROR <sqlstate>`.
type Case = (&'static str, &'static str);

/// Runs every case in both protocols and reports all the differences at once.
async fn check(client: &Client, setup: &str, cases: &[Case]) {
    client.batch_execute(setup).await.unwrap();
    let mut wrong = Vec::new();
    for (sql, expected) in cases {
        let text = text_answer(client, sql).await;
        if text != *expected {
            wrong.push(format!("{sql}\n  text:   {text}\n  wanted: {expected}"));
        }
        let binary = binary_answer(client, sql).await;
        if !same_answer(&binary, expected) {
            wrong.push(format!("{sql}\n  binary: {binary}\n  wanted: {expected}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

async fn text_answer(client: &Client, sql: &str) -> String {
    match client.simple_query(sql).await {
        Ok(messages) => messages
            .into_iter()
            .filter_map(|message| match message {
                SimpleQueryMessage::Row(row) => Some(
                    (0..row.len())
                        .map(|i| row.get(i).unwrap_or("NULL").to_owned())
                        .collect::<Vec<_>>()
                        .join("|"),
                ),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Err(e) => error_answer(&e),
    }
}

fn error_answer(e: &tokio_postgres::Error) -> String {
    match e.code() {
        Some(code) => format!("ERROR {}", code.code()),
        None => format!("ERROR {e:?}"),
    }
}

async fn binary_answer(client: &Client, sql: &str) -> String {
    match client.query(sql, &[]).await {
        Ok(rows) => rows
            .iter()
            .map(|row| {
                (0..row.len())
                    .map(|i| binary_value(row, i))
                    .collect::<Vec<_>>()
                    .join("|")
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Err(e) => error_answer(&e),
    }
}

/// A binary value as text: floats in Rust's shortest form (compared by value
/// in [`same_answer`]), numerics decoded from base 10000, arrays of plain
/// elements in braces.
fn binary_value(row: &Row, i: usize) -> String {
    let ty = row.columns()[i].type_().clone();
    let shown = match ty {
        Type::BOOL => row
            .get::<_, Option<bool>>(i)
            .map(|b| if b { "t" } else { "f" }.into()),
        Type::INT2 => row.get::<_, Option<i16>>(i).map(|v| v.to_string()),
        Type::INT4 => row.get::<_, Option<i32>>(i).map(|v| v.to_string()),
        Type::INT8 => row.get::<_, Option<i64>>(i).map(|v| v.to_string()),
        Type::FLOAT4 => row.get::<_, Option<f32>>(i).map(|v| v.to_string()),
        Type::FLOAT8 => row.get::<_, Option<f64>>(i).map(|v| v.to_string()),
        Type::NUMERIC => row.get::<_, Option<Numeric>>(i).map(|v| v.0),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => row.get::<_, Option<String>>(i),
        Type::DATE => row.get::<_, Option<Days>>(i).map(|d| d.shown()),
        Type::TIME => row.get::<_, Option<NaiveTime>>(i).map(shown_time),
        Type::TIMESTAMP | Type::TIMESTAMPTZ => row
            .get::<_, Option<Micros>>(i)
            .map(|t| t.shown(ty == Type::TIMESTAMPTZ)),
        Type::JSON | Type::JSONB | Type::JSONPATH => row.get::<_, Option<JsonText>>(i).map(|j| j.0),
        Type::INTERVAL => row.get::<_, Option<IntervalValue>>(i).map(|v| v.0.format()),
        Type::INET | Type::CIDR => row.get::<_, Option<InetValue>>(i).map(|v| v.0),
        Type::TEXT_ARRAY => row.get::<_, Option<Vec<Option<String>>>>(i).map(|items| {
            let items: Vec<String> = items
                .into_iter()
                .map(|item| item.unwrap_or_else(|| "NULL".into()))
                .collect();
            format!("{{{}}}", items.join(","))
        }),
        Type::BYTEA => row.get::<_, Option<Vec<u8>>>(i).map(|b| {
            let hex: String = b.iter().map(|b| format!("{b:02x}")).collect();
            format!("\\x{hex}")
        }),
        other => Some(format!("<{other}>")),
    };
    shown.unwrap_or_else(|| "NULL".into())
}

/// A `date` in binary: days since 2000-01-01, over the whole of PostgreSQL's
/// range (wider than chrono's).
struct Days(i64);

impl Days {
    /// As PostgreSQL shows it (the usual era/day-of-era conversion).
    fn shown(&self) -> String {
        let z = self.0 + 10_957 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = (mp + 2) % 12 + 1;
        let year = yoe + era * 400 + i64::from(month <= 2);
        match year {
            y if y <= 0 => format!("{:04}-{month:02}-{day:02} BC", 1 - y),
            y => format!("{y:04}-{month:02}-{day:02}"),
        }
    }
}

impl<'a> FromSql<'a> for Days {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Days(i64::from(i32::from_be_bytes(raw.try_into()?))))
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::DATE
    }
}

/// `json` (its text) or `jsonb` (a version byte, then its text) in binary.
struct JsonText(String);

impl<'a> FromSql<'a> for JsonText {
    fn from_sql(
        ty: &Type,
        raw: &'a [u8],
    ) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        let text = match *ty == Type::JSONB || *ty == Type::JSONPATH {
            true => raw.get(1..).unwrap_or_default(),
            false => raw,
        };
        Ok(JsonText(String::from_utf8(text.to_vec())?))
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::JSON || *ty == Type::JSONB || *ty == Type::JSONPATH
    }
}

/// An `inet` or `cidr` in binary: family, mask length, whether a `cidr`,
/// the address's length and bytes; shown as PostgreSQL shows it.
struct InetValue(String);

impl<'a> FromSql<'a> for InetValue {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        let (bits, cidr, bytes) = (raw[1], raw[2] == 1, &raw[4..]);
        let address: std::net::IpAddr = match bytes.len() {
            4 => <[u8; 4]>::try_from(bytes)?.into(),
            _ => <[u8; 16]>::try_from(bytes)?.into(),
        };
        let full = bits as usize == bytes.len() * 8;
        Ok(InetValue(match cidr || !full {
            true => format!("{address}/{bits}"),
            false => address.to_string(),
        }))
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::INET || *ty == Type::CIDR
    }
}

/// An `interval` in binary: microseconds, days, months.
struct IntervalValue(Interval);

impl<'a> FromSql<'a> for IntervalValue {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        let raw: [u8; 16] = raw.try_into()?;
        Ok(IntervalValue(Interval {
            usecs: i64::from_be_bytes(raw[..8].try_into()?),
            days: i32::from_be_bytes(raw[8..12].try_into()?),
            months: i32::from_be_bytes(raw[12..].try_into()?),
        }))
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::INTERVAL
    }
}

/// A `timestamp` or `timestamptz` in binary: microseconds since 2000-01-01,
/// the extremes standing for the infinities.
struct Micros(i64);

impl Micros {
    fn shown(&self, with_tz: bool) -> String {
        match self.0 {
            i64::MAX => return "infinity".into(),
            i64::MIN => return "-infinity".into(),
            _ => {}
        }
        const DAY: i64 = 86_400_000_000;
        let date = Days(self.0.div_euclid(DAY)).shown();
        let time = NaiveTime::from_num_seconds_from_midnight_opt(
            (self.0.rem_euclid(DAY) / 1_000_000) as u32,
            (self.0.rem_euclid(1_000_000) * 1000) as u32,
        )
        .map(shown_time)
        .unwrap_or_default();
        let zone = if with_tz { "+00" } else { "" };
        bc_last(format!("{date} {time}{zone}"))
    }
}

impl<'a> FromSql<'a> for Micros {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Micros(i64::from_be_bytes(raw.try_into()?)))
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::TIMESTAMP || *ty == Type::TIMESTAMPTZ
    }
}

/// A time as PostgreSQL shows it: a fraction only when nonzero, trailing
/// zeros dropped.
fn shown_time(t: NaiveTime) -> String {
    let mut shown = t.format("%H:%M:%S").to_string();
    let micros = t.nanosecond() / 1000;
    if micros != 0 {
        shown.push_str(format!(".{micros:06}").trim_end_matches('0'));
    }
    shown
}

/// ` BC` moved from the date to the end, where PostgreSQL puts it.
fn bc_last(shown: String) -> String {
    match shown.split_once(" BC") {
        Some((date, rest)) => format!("{date}{rest} BC"),
        None => shown,
    }
}

/// Whether a binary answer is the text one: equal, or every value equal with
/// floats compared as numbers (`1e+308` and `1e308`, `Infinity` and `inf`).
fn same_answer(binary: &str, text: &str) -> bool {
    if binary == text {
        return true;
    }
    let float = |s: &str| match s {
        "Infinity" | "inf" => Some(f64::INFINITY),
        "-Infinity" | "-inf" => Some(f64::NEG_INFINITY),
        _ => s.parse::<f64>().ok(),
    };
    let (b, t): (Vec<&str>, Vec<&str>) = (
        binary.split(['|', '\n']).collect(),
        text.split(['|', '\n']).collect(),
    );
    b.len() == t.len()
        && b.iter().zip(&t).all(|(b, t)| {
            b == t || matches!((float(b), float(t)), (Some(x), Some(y)) if x == y || (x.is_nan() && y.is_nan()))
        })
}

/// A `numeric` in binary: base-10000 digits, weight, sign and display scale.
struct Numeric(String);

impl<'a> FromSql<'a> for Numeric {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        let word = |i: usize| i16::from_be_bytes([raw[2 * i], raw[2 * i + 1]]);
        let (count, weight, sign, scale) =
            (word(0) as usize, word(1), word(2) as u16, word(3) as usize);
        match sign {
            0xC000 => return Ok(Numeric("NaN".into())),
            0xD000 => return Ok(Numeric("Infinity".into())),
            0xF000 => return Ok(Numeric("-Infinity".into())),
            _ => {}
        }
        let digits: Vec<i16> = (0..count).map(|i| word(4 + i)).collect();
        let mut integer = String::new();
        for w in 0..=weight.max(0) {
            let d = digits.get(w as usize).copied().unwrap_or(0);
            if integer.is_empty() {
                if d != 0 || w == weight.max(0) {
                    integer = d.to_string();
                }
            } else {
                integer.push_str(&format!("{d:04}"));
            }
        }
        if weight < 0 {
            integer = "0".into();
        }
        let mut fraction = String::new();
        let mut position = weight + 1;
        while fraction.len() < scale {
            let d = if position < 0 {
                0
            } else {
                digits.get(position as usize).copied().unwrap_or(0)
            };
            fraction.push_str(&format!("{d:04}"));
            position += 1;
        }
        fraction.truncate(scale);
        let sign = if sign == 0x4000 { "-" } else { "" };
        let point = if scale > 0 { "." } else { "" };
        Ok(Numeric(format!("{sign}{integer}{point}{fraction}")))
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::NUMERIC
    }
}

async fn statistics_aggregates(target: &Target) {
    let client = target.connect().await;
    let setup = "DROP TABLE IF EXISTS stats; CREATE TABLE stats (a int2, b float4, c float8); \
        INSERT INTO stats VALUES (56, 7.8, 1.5), (100, 99.097, NULL), (0, 0.09561, -2), (42, 324.78, 10)";
    check(
        &client,
        setup,
        &[
            (
                "SELECT stddev_pop(b), stddev_samp(b), var_pop(b), var_samp(b) FROM stats",
                "131.10703231895047|151.38936080399804|17189.053923482326|22918.738564643103",
            ),
            (
                "SELECT var_pop(c), var_samp(c), stddev(c), variance(c) FROM stats",
                "25.38888888888889|38.083333333333336|6.171169527191206|38.083333333333336",
            ),
            ("SELECT var_pop(1.0::float8), var_samp(2.0::float8)", "0|NULL"),
            (
                "SELECT var_pop('inf'::float8), var_samp('inf'::float8), stddev_pop('nan'::float8)",
                "NaN|NULL|NaN",
            ),
            ("SELECT var_pop(c) FROM stats WHERE false", "NULL"),
            (
                "SELECT var_pop(x) FROM (VALUES (1e308::float8), (-1e308::float8)) v(x)",
                "ERROR 22003",
            ),
            (
                "SELECT regr_count(b, a), regr_sxx(b, a), regr_syy(b, a), regr_sxy(b, a) FROM stats",
                "4|5099|68756.21569392929|2614.5158215500414",
            ),
            (
                "SELECT regr_avgx(b, a), regr_avgy(b, a), regr_r2(b, a) FROM stats",
                "49.5|107.94315227307379|0.019497798203180264",
            ),
            (
                "SELECT regr_slope(b, a), regr_intercept(b, a) FROM stats",
                "0.5127507004412711|82.56199260123087",
            ),
            (
                "SELECT covar_pop(b, a), covar_samp(b, a), corr(c, a) FROM stats",
                "653.6289553875104|871.5052738500139|0.5384164503689884",
            ),
            ("SELECT regr_count(c, a), corr(a, a * 0) FROM stats", "3|NULL"),
            ("SELECT var_pop('a'::text)", "ERROR 42883"),
            ("SELECT sum(x::float8), avg(x::float8) FROM (VALUES ('-infinity'), ('infinity')) v(x)", "NaN|NaN"),
            ("SELECT sum(x::float8), avg(x::float8) FROM (VALUES ('1'), ('infinity')) v(x)", "Infinity|Infinity"),
            ("SELECT sum(x::float8), avg(x::float8) FROM (VALUES ('1'), ('nan')) v(x)", "NaN|NaN"),
            ("SELECT sum(0.1::float8), avg(0.1::float8) FROM generate_series(1, 10)", "0.9999999999999999|0.09999999999999999"),
            ("SELECT sum(x), avg(x) FROM (VALUES (1e308::float8), (1e308::float8)) v(x)", "ERROR 22003"),
            ("SELECT avg(b), sum(b) FROM (VALUES (7.8::float4), (99.097::float4), (0.09561::float4)) v(b)", "35.664203437666096|106.992615"),
            ("SELECT avg(x), sum(x) FROM (VALUES (1), (2)) v(x)", "1.5000000000000000|3"),
            ("SELECT sum(x::float8) FROM (VALUES (NULL)) v(x)", "NULL"),
            ("SELECT var_pop(b) FROM stats GROUP BY a > 50 ORDER BY 1", "2083.785549115566\n26354.98807921505"),
            ("SELECT bit_and(a), bit_or(a), BIT_XOR(a), pg_typeof(bit_and(a))::text FROM stats", "0|126|118|smallint"),
            ("SELECT bit_and(x), bit_or(x::int8), bit_xor(x) FROM (VALUES (7), (NULL), (3)) v(x)", "3|7|4"),
            ("SELECT bit_and(a) FROM stats WHERE false", "NULL"),
            // Of integers and numeric: numeric, exact, to PostgreSQL's digits.
            (
                "SELECT var_pop(a), var_samp(a), stddev_pop(a), stddev(a) FROM stats",
                "1274.7500000000000000|1699.6666666666666667|35.7036412708844026|41.2270137975898840",
            ),
            (
                "SELECT var_samp(x), stddev_samp(x), var_pop(x) FROM (VALUES (1.5), (2.5), (3.25)) v(x)",
                "0.77083333333333333333|0.87797114607106157070|0.51388888888888888889",
            ),
            (
                "SELECT variance(x), stddev_pop(x) FROM (VALUES (0.0001), (0.0002), (0.00035)) v(x)",
                "0.000000015833333333333333|0.0001027402333828162741710528",
            ),
            ("SELECT var_samp(x), var_pop(x), stddev(x) FROM (VALUES (5), (5)) v(x)", "0|0|0"),
            ("SELECT var_samp(x), var_pop(x) FROM (VALUES (5::int8)) v(x)", "NULL|0"),
            ("SELECT var_pop(x) FROM (VALUES ('NaN'::numeric), (1)) v(x)", "NaN"),
            (
                "SELECT pg_typeof(var_pop(a))::text, pg_typeof(stddev(c))::text FROM stats",
                "numeric|double precision",
            ),
            ("SELECT avg(x) FROM (VALUES (1.5), (2.5), (3.25)) v(x)", "2.4166666666666667"),
            ("SELECT avg(x) FROM (VALUES (100.5), (200.25)) v(x)", "150.3750000000000000"),
        ],
    )
    .await;
}

/// A computed `numeric` (`avg` of integers, `extract`, a spread) keeps its
/// digits, and still compares and sorts as the number it is.
async fn computed_numerics_compare_and_sort_as_numbers(target: &Target) {
    let client = target.connect().await;
    let setup = "DROP TABLE IF EXISTS scores; CREATE TABLE scores (g int, v int); \
        INSERT INTO scores VALUES (1, 10), (1, 11), (2, 9), (2, 10), (3, 100), (3, 101)";
    check(
        &client,
        setup,
        &[
            ("SELECT avg(v) > 100000, avg(v) < 11 FROM scores WHERE g = 1", "f|t"),
            ("SELECT g FROM scores GROUP BY g HAVING avg(v) > 10.2 ORDER BY g", "1\n3"),
            ("SELECT g FROM scores GROUP BY g HAVING avg(v) BETWEEN 9 AND 10 ORDER BY g", "2"),
            (
                "SELECT g, avg(v) AS a FROM scores GROUP BY g ORDER BY a",
                "2|9.5000000000000000\n1|10.5000000000000000\n3|100.5000000000000000",
            ),
            ("SELECT g, avg(v) FROM scores GROUP BY g ORDER BY 2 DESC", "3|100.5000000000000000\n1|10.5000000000000000\n2|9.5000000000000000"),
            ("SELECT g FROM scores GROUP BY g ORDER BY stddev(v) * 0 + avg(v)", "2\n1\n3"),
            ("SELECT g FROM scores GROUP BY g ORDER BY avg(v) DESC", "3\n1\n2"),
            (
                "SELECT * FROM (SELECT g, avg(v) a FROM scores GROUP BY g) s WHERE a > 10 ORDER BY a",
                "1|10.5000000000000000\n3|100.5000000000000000",
            ),
            ("SELECT g, v FROM scores WHERE v > (SELECT avg(v) FROM scores) ORDER BY v", "3|100\n3|101"),
            (
                "SELECT extract(epoch FROM x) AS e FROM (VALUES (interval '10.5 sec'), (interval '9.5 sec')) v(x) ORDER BY e",
                "9.500000\n10.500000",
            ),
            ("SELECT extract(epoch FROM interval '10.5 sec') > 1e12", "f"),
        ],
    )
    .await;
}

/// SQL/JSON paths: `jsonpath` read and printed as PostgreSQL does, lax and
/// strict evaluation, filters, variables, `silent`, the set-returning
/// `jsonb_path_query` (in FROM and in a select list) and `@?`/`@@`.
async fn json_path_queries(target: &Target) {
    let client = target.connect().await;
    let setup = "DROP TABLE IF EXISTS docs; CREATE TABLE docs (id int, doc jsonb); \
        INSERT INTO docs VALUES (1, '{\"tags\": [\"x\", \"y\"], \"n\": 5}'), \
        (2, '{\"tags\": [\"z\"], \"n\": 1}'), (3, '{\"n\": \"q\"}')";
    check(
        &client,
        setup,
        &[
            (
                "SELECT '$.a[*] ? (@ > 1 && @ < 5).type()'::jsonpath, '- $.a + 2 * 3'::jsonpath",
                "$.\"a\"[*]?(@ > 1 && @ < 5).type()|(-$.\"a\" + 2 * 3)",
            ),
            ("SELECT pg_typeof('$'::jsonpath)::text", "jsonpath"),
            ("SELECT 'strict $.a.'::jsonpath", "ERROR 42601"),
            ("SELECT '@ == 1'::jsonpath", "ERROR 42601"),
            (
                "SELECT jsonb_path_exists('{\"a\": [1, 2, 3]}', '$.a[*] ? (@ > 2)'), \
                 jsonb_path_exists('{\"a\": [1, 2, 3]}', '$.a[*] ? (@ > 5)')",
                "t|f",
            ),
            (
                "SELECT jsonb_path_match('{\"a\": [1, 2, 3]}', 'exists($.a[*] ? (@ > 2))'), \
                 jsonb_path_match('{\"a\": 1}', '$.a == 1')",
                "t|t",
            ),
            (
                "SELECT jsonb_path_query_array('{\"a\": [1, 2, 3, 4]}', '$.a[*] ? (@ >= $min && @ <= $max)', \
                 '{\"min\": 2, \"max\": 3}')",
                "[2, 3]",
            ),
            (
                "SELECT jsonb_path_query_first('{\"a\": [{\"b\": 1}, {\"b\": 2}]}', '$.a[*].b'), \
                 jsonb_path_query_first('{\"a\": []}', '$.a[*]')",
                "1|NULL",
            ),
            ("SELECT jsonb_path_exists('{\"a\": 1}', 'strict $.b')", "ERROR 2203A"),
            ("SELECT jsonb_path_exists('{\"a\": 1}', 'strict $.b', '{}', true)", "NULL"),
            ("SELECT jsonb_path_query_array('{\"a\": 1}', '$.a + $x')", "ERROR 42704"),
            ("SELECT jsonb_path_query_array('{\"a\": 1}', '$.a', '[]')", "ERROR 22023"),
            ("SELECT jsonb_path_match('{\"a\": [1, 2]}', '$.a[*]')", "ERROR 22038"),
            ("SELECT jsonb_path_match('{\"a\": [1, 2]}', '$.a[*]', '{}', true)", "NULL"),
            ("SELECT jsonb_path_query_array('[1, 2]', '$[0] / 0')", "ERROR 22012"),
            (
                "SELECT jsonb_path_query_array('[1, \"2\", null, true, {\"a\": 3}]', '$[*].type()')",
                "[\"number\", \"string\", \"null\", \"boolean\", \"object\"]",
            ),
            (
                "SELECT jsonb_path_query_array('{\"x\": \"abc\"}', '$.x ? (@ like_regex \"B\" flag \"i\")')",
                "[\"abc\"]",
            ),
            (
                "SELECT jsonb_path_query_array('[1, 2, 3]', '$[last]'), jsonb_path_query_array('[]', '$[last]'), \
                 jsonb_path_query_array('[1, 2, 3, 4]', '$[1 to last]')",
                "[3]|[]|[2, 3, 4]",
            ),
            (
                "SELECT jsonb_path_query_array('{\"a\": {\"b\": {\"c\": 1}}}', '$.**{2}'), \
                 jsonb_path_query_array('{\"a\": [1, {\"b\": 4}]}', '$.**.b'), \
                 jsonb_path_query_array('{\"a\": [1, {\"b\": 4}]}', 'strict $.**.b')",
                "[{\"c\": 1}]|[4, 4]|[4]",
            ),
            (
                "SELECT jsonb_path_query_array('[1, \"a\", null]', '$[*] ? ((@ > 0) is unknown)'), \
                 jsonb_path_query_array('[1, \"a\", null]', '$[*] ? (@ != 1)')",
                "[\"a\"]|[null]",
            ),
            (
                "SELECT jsonb_path_query_array('{\"a\": 1, \"b\": [2]}', '$.keyvalue()')",
                "[{\"id\": 0, \"key\": \"a\", \"value\": 1}, {\"id\": 0, \"key\": \"b\", \"value\": [2]}]",
            ),
            ("SELECT jsonb_path_query('{\"a\": [1, 2, 3]}', '$.a[*] ? (@ > 1)')", "2\n3"),
            (
                "SELECT * FROM jsonb_path_query('{\"a\": [1, 2, 3]}', '$.a[*]') WITH ORDINALITY AS t(v, n)",
                "1|1\n2|2\n3|3",
            ),
            ("SELECT id, jsonb_path_query(doc, '$.tags[*]') FROM docs ORDER BY 1, 2", "1|\"x\"\n1|\"y\"\n2|\"z\""),
            ("SELECT id, t FROM docs, jsonb_path_query(doc, '$.tags[*]') t ORDER BY 1, 2", "1|\"x\"\n1|\"y\"\n2|\"z\""),
            ("SELECT id FROM docs WHERE doc @? '$ ? (@.n > 2)' ORDER BY id", "1"),
            ("SELECT id FROM docs WHERE doc @@ '$.n > 2' ORDER BY id", "1"),
            ("SELECT id FROM docs WHERE doc @? 'strict $.tags' ORDER BY id", "1\n2"),
            ("SELECT count(*) FROM docs, jsonb_path_query(doc, 'strict $.tags[*]', '{}', true)", "3"),
        ],
    )
    .await;
}

/// Arguments by name (`=>`, `:=`) in their parameters' places, defaults
/// for those left out.
async fn arguments_by_name_take_their_places(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "",
        &[
            (
                "SELECT make_interval(days => 3), make_interval(1, 2), make_interval(), \
                 make_interval(secs => 1.5, hours => 2)",
                "3 days|1 year 2 mons|00:00:00|02:00:01.5",
            ),
            (
                "SELECT make_interval(1, 2, 3, 4, 5, 6, 7.25), make_interval(days := 10), \
                 pg_typeof(make_interval(weeks => 1))::text",
                "1 year 2 mons 25 days 05:06:07.25|10 days|interval",
            ),
            ("SELECT make_interval(days => 1, days => 2)", "ERROR 42601"),
            ("SELECT make_interval(day => 1)", "ERROR 42883"),
            ("SELECT make_interval(years => 1, 2)", "ERROR 42601"),
            ("SELECT make_interval(hours => NULL)", "NULL"),
            ("SELECT make_interval(secs => 'infinity')", "ERROR 22008"),
            (
                "SELECT make_date(day => 1, month => 3, year => 2020), \
                 make_timestamp(2024, 1, 2, 3, 4, sec => 5.5)",
                "2020-03-01|2024-01-02 03:04:05.5",
            ),
            (
                "SELECT jsonb_path_query_array('[1, 2]', '$[*] ? (@ > $x)', vars => '{\"x\": 1}'), \
                 jsonb_path_exists('{\"a\": 1}', 'strict $.b', silent => true)",
                "[2]|NULL",
            ),
            (
                "SELECT * FROM jsonb_path_query('{\"a\": [1, 2]}', '$.a[*] ? (@ > $m)', vars => '{\"m\": 1}')",
                "2",
            ),
            (
                "SELECT jsonb_set('{\"a\": 1}', '{b}', '2', create_if_missing => false), \
                 jsonb_insert('[1]', '{0}', '0', insert_after => true)",
                "{\"a\": 1}|[1, 0]",
            ),
        ],
    )
    .await;
}

/// Types kept as the text they are written as are typed as PostgreSQL types
/// them (not by SQLite's affinity: `point` holds "int"), and a bit string
/// keeps its zeros.
async fn text_kept_types_keep_their_names_and_bits_their_zeros(target: &Target) {
    let client = target.connect().await;
    let setup = "DROP TABLE IF EXISTS kept; \
        CREATE TABLE kept (p point, t time with time zone, c cidr, a bit(3), b bit varying(5), d bit); \
        INSERT INTO kept VALUES ('(1,2)', '12:34:56+02', '10.0.0.0/8', B'010', B'00101', B'1'), \
        (NULL, NULL, NULL, B'001', B'0', B'0')";
    check(
        &client,
        setup,
        &[
            (
                "SELECT format_type(atttypid, atttypmod) FROM pg_attribute \
                 WHERE attrelid = 'kept'::regclass AND attnum > 0 ORDER BY attnum",
                "point\ntime with time zone\ncidr\nbit(3)\nbit varying(5)\nbit(1)",
            ),
            (
                "SELECT p::text, t::text, c::text, a::text, b::text, d::text FROM kept ORDER BY a",
                "NULL|NULL|NULL|001|0|0\n(1,2)|12:34:56+02|10.0.0.0/8|010|00101|1",
            ),
        ],
    )
    .await;
}

/// `inet` and `cidr`: read into their canonical text, ordered and compared
/// as PostgreSQL orders them (not as text), their functions and `<<`, `>>`,
/// `&&`.
async fn network_addresses_read_order_and_contain(target: &Target) {
    let client = target.connect().await;
    let setup = "DROP TABLE IF EXISTS hosts; CREATE TABLE hosts (ip inet, net cidr); \
        INSERT INTO hosts VALUES ('10.0.0.2', '10.0.0.0/8'), ('9.0.0.1', '9.0.0.0/8'), \
        ('192.168.1.5/32', '192.168.1.0/24'), ('::1', '::/0')";
    check(
        &client,
        setup,
        &[
            (
                "SELECT inet '192.168.1.5/32', '192.168.1.5/24'::inet, '10.1'::cidr, \
                 pg_typeof(inet '1.2.3.4')::text, pg_typeof('10/8'::cidr)::text, '2001:DB8:0:0:1:0:0:1'::inet",
                "192.168.1.5|192.168.1.5/24|10.1.0.0/16|inet|cidr|2001:db8::1:0:0:1",
            ),
            (
                "SELECT '10.0.0.2'::inet < '9.0.0.1'::inet, inet '1.2.3.4' = '1.2.3.4/32', \
                 '10.0.0.0/8'::inet < '10.0.0.0/16'::inet",
                "f|t|t",
            ),
            ("SELECT '192.168.1.5/24'::cidr", "ERROR 22P02"),
            ("SELECT 'banana'::inet", "ERROR 22P02"),
            (
                "SELECT host('192.168.1.5/24'), masklen('10.0.0.0/8'::cidr), family('::1'), \
                 network('192.168.1.5/24')::text, broadcast('192.168.1.5/24'), netmask('192.168.1.5/24'), \
                 hostmask('192.168.1.5/24')",
                "192.168.1.5|8|6|192.168.1.0/24|192.168.1.255/24|255.255.255.0|0.0.0.255",
            ),
            (
                "SELECT abbrev('10.1.0.0/16'::cidr), abbrev('10.1.0.0/16'::inet), \
                 set_masklen('192.168.1.5/24', 16), text(inet '1.2.3.4'), inet '1.2.3.4'::text",
                "10.1/16|10.1.0.0/16|192.168.1.5/16|1.2.3.4/32|1.2.3.4/32",
            ),
            (
                "SELECT inet '192.168.1.5' << inet '192.168.1.0/24', inet '192.168.1.0/24' >> inet '192.168.1.5', \
                 inet '192.168.1.0/24' << inet '192.168.1.0/24', inet '10.0.0.0/8' && inet '10.1.0.0/16'",
                "t|t|f|t",
            ),
            ("SELECT ip FROM hosts ORDER BY ip", "9.0.0.1\n10.0.0.2\n192.168.1.5\n::1"),
            ("SELECT ip, net FROM hosts ORDER BY 2 DESC", "::1|::/0\n192.168.1.5|192.168.1.0/24\n10.0.0.2|10.0.0.0/8\n9.0.0.1|9.0.0.0/8"),
            ("SELECT ip FROM hosts WHERE ip < '11.0.0.0' ORDER BY 1", "9.0.0.1\n10.0.0.2"),
            ("SELECT ip FROM hosts WHERE ip << '10.0.0.0/8'", "10.0.0.2"),
        ],
    )
    .await;
}

async fn string_functions(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "SET standard_conforming_strings = on",
        &[
            ("SELECT encode('\\x1234567890abcdef00', 'hex'), encode('abc'::bytea, 'base64')", "1234567890abcdef00|YWJj"),
            ("SELECT encode('abc'::text, 'hex')", "ERROR 42883"),
            ("SELECT repeat('ab', 3), repeat('x', -1), repeat('', 5)", "ababab||"),
            ("SELECT split_part('a,b,,c', ',', 2), split_part('a,b,c', ',', -1), split_part('a,b', ',', 5), split_part('abc', '', 1), split_part('abc', '', 2)", "b|c||abc|"),
            ("SELECT split_part('a', ',', 0)", "ERROR 22023"),
            ("SELECT lpad('hi', 5), lpad('hi', 5, 'xy'), lpad('hello', 3), rpad('hi', 5, 'xy'), rpad('hi', -1), lpad('hi', 5, '')", "   hi|xyxhi|hel|hixyx||hi"),
            ("SELECT translate('12345', '143', 'ax'), ascii('x'), ascii(''), chr(65), chr(233), reverse('abc')", "a2x5|120|0|A|é|cba"),
            ("SELECT chr(0)", "ERROR 54000"),
            ("SELECT chr(-1)", "ERROR 22023"),
            ("SELECT unistr('d\\0061t\\+000061 \\D83D\\DE00 \\U0001F600 \\u00e9 \\\\')", "data 😀 😀 é \\"),
            ("SELECT unistr('\\110000'), unistr(NULL)", "ᄀ00|NULL"),
            ("SELECT OVERLAY('abcdef' PLACING '45' FROM 4), OVERLAY('yabadoo' PLACING 'daba' FROM 5 FOR 0), OVERLAY('babosa' PLACING 'ubb' FROM 2 FOR 4), OVERLAY('héllo' PLACING 'É' FROM 2), OVERLAY('abc' PLACING 'x' FROM 2 FOR -1)", "abc45f|yabadabadoo|bubba|hÉllo|axabc"),
            ("SELECT OVERLAY('abcdef' PLACING '45' FROM 0)", "ERROR 22011"),
            ("SELECT unistr('\\d800x')", "ERROR 42601"),
            ("SELECT unistr('\\dc00')", "ERROR 42601"),
            ("SELECT unistr('\\q')", "ERROR 42601"),
            ("SELECT unistr('a\\')", "ERROR 42601"),
            ("SELECT unistr('\\+2FFFFF')", "ERROR 22023"),
            ("SELECT unistr('\\0000')", "ERROR 22023"),
            ("SELECT left('abcde', 2), left('abcde', -2), right('abcde', 2), right('abcde', -2), left('ab', 10)", "ab|abc|de|cde|ab"),
            ("SELECT starts_with('alphabet', 'alph'), starts_with('alphabet', 'b')", "t|f"),
            ("SELECT concat('a', 1, NULL, true, 2.5), concat_ws(',', 'a', NULL, false, 3)", "a1t2.5|a,f,3"),
            ("SELECT regexp_replace('Thomas', '.[mN]a.', 'M'), regexp_replace('abcabc', 'b', 'X', 'g'), regexp_replace('ABC', 'b', 'x', 'i')", "ThM|aXcaXc|AxC"),
            ("SELECT regexp_replace('abcabc', '(b)(c)', '[\\2\\1\\&]', 'g')", "a[cbbc]a[cbbc]"),
            ("SELECT regexp_replace('abcabcabc', 'b', 'X', 2), regexp_replace('abcabcabc', 'b', 'X', 1, 2), regexp_replace('abcabcabc', 'b', 'X', 1, 0, 'i')", "aXcabcabc|abcaXcabc|aXcaXcaXc"),
            ("SELECT regexp_replace('a', 'a', 'b', 'z')", "ERROR 22023"),
            ("SELECT regexp_match('foobarbequebaz', 'bar.*que'), regexp_match('foobarbequebaz', '(bar)(beque)'), regexp_match('abc', 'x')", "{barbeque}|{bar,beque}|NULL"),
            ("SELECT regexp_like('Hello World', 'world'), regexp_like('Hello World', 'world', 'i')", "f|t"),
            ("SELECT regexp_count('ABCABCAXYaxy', 'A.'), regexp_count('ABCABCAXYaxy', 'A.', 1, 'i'), regexp_count('ABCABC', 'A', 4)", "3|4|1"),
            ("SELECT regexp_instr('ABCDEF', 'c(.)(..)', 1, 1, 0, 'i'), regexp_instr('ABCDEF', 'c(.)(..)', 1, 1, 1, 'i', 2), regexp_instr('abcabc', 'b', 1, 2)", "3|7|5"),
            ("SELECT regexp_substr('ABCDEF', 'c(.)(..)', 1, 1, 'i'), regexp_substr('ABCDEF', 'c(.)(..)', 1, 1, 'i', 2), regexp_substr('abc', 'z')", "CDEF|EF|NULL"),
            ("SELECT regexp_split_to_array('hello world', '\\s+'), regexp_split_to_array('hello', ''), regexp_split_to_array('the quick', '\\s*')", "{hello,world}|{h,e,l,l,o}|{t,h,e,q,u,i,c,k}"),
            ("SELECT 'abcdefg' SIMILAR TO '_bcd%', 'abcdefg' SIMILAR TO 'bcd%', 'abcdefg' SIMILAR TO '_bcd#%' ESCAPE '#', 'abcd%' SIMILAR TO '_bcd#%' ESCAPE '#'", "t|f|f|t"),
            ("SELECT 'abc' SIMILAR TO 'a(b|c)+', 'a.c' SIMILAR TO 'a.c', 'abc' SIMILAR TO 'a.c', 'ab' NOT SIMILAR TO 'a[bc]', 'x' SIMILAR TO NULL", "t|t|f|f|NULL"),
            ("SELECT 'a' SIMILAR TO 'a' ESCAPE 'xy'", "ERROR 22025"),
            ("SELECT 'abcd\\efg' SIMILAR TO '_bcd\\%' ESCAPE ''", "t"),
            ("SELECT regexp_instr('abc', 'b', 0)", "ERROR 22023"),
            ("SELECT regexp_count('abc', 'b', 1, 'g')", "ERROR 22023"),
            ("SELECT md5('abc'), md5(''::bytea), sha256('abc'), encode('abc'::bytea, 'hex'), encode('\\x00ff'::bytea, 'escape'), encode('abc'::bytea, 'base64')", "900150983cd24fb0d6963f7d28e17f72|d41d8cd98f00b204e9800998ecf8427e|\\xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad|616263|\\000\\377|YWJj"),
            ("SELECT decode('616263', 'hex'), decode('YWJj', 'base64'), decode('a\\\\b\\001', 'escape')", "\\x616263|\\x616263|\\x615c6201"),
            ("SELECT decode('abc', 'hex')", "ERROR 22023"),
            ("SELECT encode('a', 'foo')", "ERROR 22023"),
            ("SELECT to_hex(255), to_hex(-1), to_hex(-1::bigint), to_hex(2147483648)", "ff|ffffffff|ffffffffffffffff|80000000"),
            ("SELECT pg_typeof(regexp_match('a','a'))::text, pg_typeof(sha256('a'))::text, pg_typeof(1)::text, pg_typeof('a')::text, pg_typeof(1.5)::text", "text[]|bytea|integer|unknown|numeric"),
            ("SELECT 'foo bar' ~ '\\mbar\\M', 'x' ~ '[[:alpha:]]', E'a\\nb' ~ 'a.b', E'a\\nb' ~ '^b'", "t|t|t|f"),
        ],
    )
    .await;
}

/// PostgreSQL's spellings of constants (`U&`, `UESCAPE`, `E'\u...'`, a
/// constant continued on the next line), `SUBSTRING`'s pattern forms, and the
/// prefix operators and `^` with PostgreSQL's grouping.
async fn string_spellings_and_patterns(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "SET standard_conforming_strings = on",
        &[
            // Bit-string literals: their digits (shown through text, which
            // both servers send alike).
            ("SELECT B'101'::text, b'0'::text, (B'10' || B'01')::text", "101|0|1001"),
            ("SELECT B'102'", "ERROR 22P02"),
            ("SELECT U&'d\\0061t\\+000061' AS U&\"d\\0061t\\+000061\"", "data"),
            ("SELECT U&'d!0061t\\+000061' UESCAPE '!', U&' \\' UESCAPE '!', U&'\\0027'", "dat\\+000061| \\|'"),
            ("SELECT U&'wrong: \\061'", "ERROR 42601"),
            ("SELECT U&'wrong: \\db99xy'", "ERROR 42601"),
            ("SELECT U&'wrong: +0061' UESCAPE '+'", "ERROR 42601"),
            ("SELECT E'd\\u0061t\\U00000061', E'\\ud83d\\ude00'", "data|😀"),
            ("SELECT E'wrong: \\u061'", "ERROR 22025"),
            ("SELECT E'wrong: \\udb99\\u0061'", "ERROR 42601"),
            ("SELECT 'first'\n' second'\n  ' third' AS joined", "first second third"),
            ("SELECT SUBSTRING('abcdefg' SIMILAR 'a#\"(b_d)#\"%' ESCAPE '#'), SUBSTRING('abcdefg' SIMILAR 'a*#\"%#\"g*' ESCAPE '#'), SUBSTRING('abcdefg' SIMILAR 'a|b#\"%#\"g' ESCAPE '#'), SUBSTRING('abcdefg' SIMILAR 'a#\"%g' ESCAPE '#'), SUBSTRING('abcdefg' SIMILAR 'a%g' ESCAPE '#')", "bcd|abcdefg|bcdef|bcdefg|abcdefg"),
            ("SELECT SUBSTRING('abcdefg' SIMILAR '#\"(b_d)#\"%' ESCAPE '#'), SUBSTRING('abcdefg' SIMILAR '%' ESCAPE NULL), SUBSTRING('abcdefg' FROM 'a#\"(b_d)#\"%' FOR '#')", "NULL|NULL|bcd"),
            ("SELECT SUBSTRING('abcdefg' SIMILAR 'a*#\"%#\"g*#\"x' ESCAPE '#')", "ERROR 2200C"),
            ("SELECT substring('abcdefg' FROM 'b.d'), substring('abcdefg' FROM '(b)(c)'), substring('abc' FROM 'x'), substring('abc' FROM 2), substring('abc' FROM 2 FOR 1), substring('abc' FROM NULL FOR 2)", "bcd|b|NULL|bc|b|NULL"),
            ("SELECT |/ 16.0::float8, ||/ 8::float8, @ -5, |/ 25 + 11, @ -2 + 5, -2 ^ 2, 2 ^ 3 ^ 2, |/ 16 = 4, |/ 16 || 'x'", "4|2|5|6|3|4|64|t|4x"),
            ("SELECT pg_typeof(2 ^ 2)::text, pg_typeof(2.0 ^ 2)::text, pg_typeof(sqrt(4))::text, pg_typeof(round(4))::text, pg_typeof(round(4, 1))::text, pg_typeof(power(2, 2.0))::text", "double precision|numeric|double precision|double precision|numeric|numeric"),
        ],
    )
    .await;
}

/// `float8(x)` and the other type-named calls are casts; a numeric NaN or
/// infinity has no integer.
async fn casts_named_as_calls_and_numeric_specials(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS cn; CREATE TABLE cn (a int); INSERT INTO cn VALUES (1), (2)",
        &[
            ("SELECT float8(count(*)) / 4, int8(2.5), text(12), bool('yes'), pg_typeof(float8(1))::text, int4(2.5::float8) FROM cn", "0.5|3|12|t|double precision|2"),
            ("SELECT int4('x')", "ERROR 22P02"),
            ("SELECT 'NaN'::numeric::int4", "ERROR 0A000"),
            ("SELECT '-Infinity'::numeric::int8", "ERROR 0A000"),
            ("SELECT 'Infinity'::numeric::int2", "ERROR 0A000"),
            ("SELECT 2.5::numeric::int4, (-2.5)::numeric::int4, 'NaN'::numeric, 'Infinity'::float8::numeric", "3|-3|NaN|Infinity"),
            ("SELECT booleq(true, 't'), boolne(false, true), int4lt(1, 2), texteq('a', 'b'), float8ge(2, 1.5)", "t|t|t|f|t"),
            ("SELECT 'nan'::float8 / '0'::float8, 'nan'::numeric / 0", "NaN|NaN"),
            ("SELECT 1.0::float8 / 0", "ERROR 22012"),
        ],
    )
    .await;
}

async fn date_time_functions(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "SET TimeZone = 'UTC'; DROP TABLE IF EXISTS dts; CREATE TABLE dts (d date, ts timestamp); \
         INSERT INTO dts VALUES ('2020-01-05', '2020-01-05 10:00'), (NULL, NULL)",
        &[
            ("SELECT EXTRACT(EPOCH FROM DATE '1970-01-02'), EXTRACT(CENTURY FROM DATE '0101-12-31 BC'), EXTRACT(MILLENNIUM FROM DATE '2001-01-01')", "86400|-2|3"),
            ("SELECT isfinite('infinity'::date), isfinite('-infinity'::timestamp), isfinite(d), isfinite(ts), isfinite(interval '1 day'), pg_typeof(isfinite(d))::text FROM dts ORDER BY d", "f|f|t|t|t|boolean\nf|f|NULL|NULL|t|boolean"),
            ("SELECT EXTRACT(DECADE FROM DATE '1994-12-25'), EXTRACT(DECADE FROM DATE '0001-01-01 BC'), EXTRACT(YEAR FROM DATE '0002-12-31 BC')", "199|0|-2"),
            ("SELECT EXTRACT(julian FROM DATE '2020-08-11'), EXTRACT(week FROM DATE '2021-01-01'), EXTRACT(isoyear FROM DATE '2021-01-01'), EXTRACT(dow FROM DATE '2020-08-16'), EXTRACT(isodow FROM DATE '2020-08-16'), EXTRACT(doy FROM DATE '2020-08-11'), EXTRACT(quarter FROM DATE '2020-08-11')", "2459073|53|2020|0|7|224|3"),
            ("SELECT date '2040-04-10 BC' - date '2000-01-01', date '2040-04-10 BC' - 1, isfinite(date 'infinity' + 1), 7 + date '2024-02-28', date '2024-03-01' - date '2024-02-01'", "-1475115|2040-04-09 BC|f|2024-03-06|29"),
            ("SELECT date 'infinity' - date '2000-01-01'", "ERROR 22008"),
            ("SELECT date '2024-01-01' + 2147483647", "ERROR 22008"),
            ("SELECT EXTRACT(hour FROM DATE '2020-08-11')", "ERROR 0A000"),
            ("SELECT EXTRACT(foo FROM DATE '2020-08-11')", "ERROR 22023"),
            ("SELECT EXTRACT(second FROM timestamp '2020-01-01 12:34:56.5'), EXTRACT(milliseconds FROM timestamp '2020-01-01 12:34:56.5'), EXTRACT(microseconds FROM timestamp '2020-01-01 12:34:56.5'), EXTRACT(epoch FROM timestamp '2020-01-01 12:34:56.5')", "56.500000|56500.000|56500000|1577882096.500000"),
            ("SELECT EXTRACT(julian FROM timestamp '2020-01-01 12:00'), EXTRACT(julian FROM timestamp '2020-01-01 00:00'), EXTRACT(julian FROM timestamp '2020-01-01 06:00:00.123')", "2458850.50000000000000000000|2458850.0000000000000000000000000000|2458850.25000142361111111111"),
            ("SELECT EXTRACT(timezone FROM timestamp '2020-01-01')", "ERROR 0A000"),
            ("SELECT EXTRACT(timezone FROM timestamptz '2020-01-01 00:00+00'), EXTRACT(hour FROM timestamptz '2020-01-01 05:00+00')", "0|5"),
            ("SELECT EXTRACT(hour FROM time '10:30:15.25'), EXTRACT(second FROM time '10:30:15.25'), EXTRACT(epoch FROM time '10:30:15.25')", "10|15.250000|37815.250000"),
            ("SELECT EXTRACT(day FROM date 'infinity'), EXTRACT(year FROM date 'infinity'), EXTRACT(epoch FROM timestamp '-infinity')", "NULL|Infinity|-Infinity"),
            ("SELECT date_part('year', date '2020-05-01'), date_part('epoch', timestamp '2020-01-01 12:34:56.5'), date_part('second', time '10:00:01.5')", "2020|1577882096.5|1.5"),
            ("SELECT date_trunc('month', timestamp '2020-05-17 10:11:12'), date_trunc('week', timestamp '2020-05-17 10:11:12'), date_trunc('hour', timestamptz '2020-05-17 10:11:12+00'), date_trunc('year', date '2020-05-17')", "2020-05-01 00:00:00|2020-05-11 00:00:00|2020-05-17 10:00:00+00|2020-01-01 00:00:00+00"),
            ("SELECT date_trunc('century', timestamp '2001-05-17'), date_trunc('millennium', timestamp '2000-05-17'), date_trunc('decade', timestamp '1999-05-17'), date_trunc('quarter', timestamp '1999-05-17'), date_trunc('milliseconds', timestamp '1999-05-17 01:02:03.456789')", "2001-01-01 00:00:00|1001-01-01 00:00:00|1990-01-01 00:00:00|1999-04-01 00:00:00|1999-05-17 01:02:03.456"),
            ("SELECT date_trunc('century', date '0055-08-10 BC'), date_trunc('decade', date '0002-12-31 BC')", "0100-01-01 00:00:00+00 BC|0011-01-01 00:00:00+00 BC"),
            ("SELECT date_trunc('foo', timestamp '2020-01-01')", "ERROR 22023"),
            ("SELECT date_trunc('year', '2020-01-01')", "ERROR 42725"),
            ("SELECT extract(year from '2020-01-01')", "ERROR 42725"),
            ("SELECT extract(year from 5)", "ERROR 42883"),
            ("SELECT make_date(2013, 7, 15), make_date(-44, 3, 15), make_time(8, 15, 23.5), make_timestamp(2014, 12, 28, 6, 30, 45.887)", "2013-07-15|0044-03-15 BC|08:15:23.5|2014-12-28 06:30:45.887"),
            ("SELECT to_char(timestamp '2024-03-05 14:07:09.123456', 'YYYY-MM-DD HH24:MI:SS.US'), to_char(timestamp '2024-03-05 14:07:09', 'FMMonth DDth, YYYY'), to_char(timestamp '2024-03-05 14:07:09', 'Day Mon HH12:MI AM')", "2024-03-05 14:07:09.123456|March 05th, 2024|Tuesday   Mar 02:07 PM"),
            ("SELECT to_char(date '2024-01-01', 'IYYY-IW ID DDD WW W Q CC J RM'), to_char(date '2024-12-30', 'IYYY IW'), to_char(timestamptz '2024-06-01 10:00+00', 'YYYY-MM-DD\"T\"HH24:MI:SSOF TZ')", "2024-01 1 001 01 1 1 21 2460311 I   |2025 01|2024-06-01T10:00:00+00 UTC"),
            ("SELECT to_char(timestamp '2024-03-05 00:00', 'yyyy/mm/dd hh24:mi:ss am'), to_char(timestamp '2024-03-05 12:30', 'HH12 PM p.m. SSSS'), to_char(timestamp '2024-03-21 00:00', 'DDTH Ddth MONTH month Mon DY dy')", "2024/03/05 00:00:00 am|12 PM p.m. 45000|21ST 55th MARCH     march     Mar THU thu"),
            ("SELECT to_char(date '0044-03-15 BC', 'YYYY BC Y,YYY'), to_char(timestamp '2024-03-05 14:07:09.5', 'MS FF3 FF1'), to_char(NULL::timestamp, 'YYYY'), to_char(timestamp 'infinity', 'YYYY')", "0044 BC 0,044|500 500 5|NULL|NULL"),
            ("SELECT to_char(timestamp '2024-03-05', '\\\"YYYY\\\" \"quoted \\\"x\\\"\" YYYY')", "\"2024\" quoted \"x\" 2024"),
            ("SELECT to_timestamp(1700000000.5), pg_typeof(to_timestamp(0))::text, to_timestamp('infinity'::float8)", "2023-11-14 22:13:20.5+00|timestamp with time zone|infinity"),
            ("SELECT to_timestamp('nan'::float8)", "ERROR 22008"),
            ("SELECT timestamptz '2024-01-01 10:00+00' at time zone 'UTC', timestamp '2024-01-01 10:00' at time zone 'utc', timestamptz '2024-01-01 10:00+00' at time zone interval '02:00'", "2024-01-01 10:00:00|2024-01-01 10:00:00+00|2024-01-01 12:00:00"),
            ("SELECT timestamp '2024-01-01 10:00' at time zone 'Mars'", "ERROR 22023"),
            ("SELECT timestamp '2024-01-01 10:00' at time zone interval '-03:30', date '2024-01-01' at time zone 'UTC'", "2024-01-01 13:30:00+00|2024-01-01 00:00:00"),
            ("SELECT make_date(2013, 2, 30)", "ERROR 22008"),
            ("SELECT make_date(0, 7, 15)", "ERROR 22008"),
            ("SELECT make_time(24, 0, 2.1)", "ERROR 22008"),
            ("SELECT extract(year from d) AS y, date_part('month', ts), date_trunc('day', ts) FROM dts ORDER BY d", "2020|1|2020-01-05 00:00:00\nNULL|NULL|NULL"),
        ],
    )
    .await;
}

/// Every input form PostgreSQL documents, in each `DateStyle` field order:
/// the same statement text means another date when the order changes.
async fn date_time_input_follows_date_style(target: &Target) {
    let client = target.connect().await;
    client.batch_execute("SET TimeZone = 'UTC'").await.unwrap();
    check(
        &client,
        "SET DateStyle = 'ISO, MDY'",
        &[
            ("SELECT date 'January 8, 1999', date '19990108', date '990108', date '1999.008', date 'J2451187', date '1999 Jan 08', date '08-Jan-1999'", "1999-01-08|1999-01-08|1999-01-08|1999-01-08|1999-01-08|1999-01-08|1999-01-08"),
            ("SELECT date '01/02/03', date '08-Jan-99', date 'Jan-08-99', date '99 Jan 08'", "ERROR 22007"),
            ("SELECT date 'January 8, 99 BC'", "0099-01-08 BC"),
            ("SELECT date '1/18/1999'", "1999-01-18"),
            ("SELECT date '1999-02-30'", "ERROR 22008"),
            ("SELECT date '99 08 Jan'", "ERROR 22007"),
            ("SELECT date '4714-11-23 BC'", "ERROR 22008"),
            ("SELECT date '4714-11-24 BC', date '5874897-12-31'", "4714-11-24 BC|5874897-12-31"),
            ("SELECT date '5874898-01-01'", "ERROR 22008"),
            ("SELECT timestamp 'January 8, 1999 10:30 pm', timestamptz '1/8/1999 04:05:06 +02', timestamp 'Jan 08 1999 12:00 am'", "1999-01-08 22:30:00|1999-01-08 02:05:06+00|1999-01-08 00:00:00"),
            ("SELECT time 'January 8, 1999 10:30 pm'", "ERROR 22007"),
            ("SELECT date 'yesterday' = current_date - 1", "t"),
        ],
    )
    .await;
    check(
        &client,
        "SET DateStyle = 'ISO, DMY'",
        &[
            ("SELECT date 'January 8, 1999', date '19990108', date '990108', date '1999.008', date 'J2451187', date '1999 Jan 08', date '08-Jan-1999'", "1999-01-08|1999-01-08|1999-01-08|1999-01-08|1999-01-08|1999-01-08|1999-01-08"),
            ("SELECT date '01/02/03', date '08-Jan-99', date 'Jan-08-99', date '99 Jan 08'", "ERROR 22008"),
            ("SELECT date 'January 8, 99 BC'", "0099-01-08 BC"),
            ("SELECT date '1/18/1999'", "ERROR 22008"),
            ("SELECT date '1999-02-30'", "ERROR 22008"),
            ("SELECT date '99 08 Jan'", "ERROR 22007"),
            ("SELECT date '4714-11-23 BC'", "ERROR 22008"),
            ("SELECT date '4714-11-24 BC', date '5874897-12-31'", "4714-11-24 BC|5874897-12-31"),
            ("SELECT date '5874898-01-01'", "ERROR 22008"),
            ("SELECT timestamp 'January 8, 1999 10:30 pm', timestamptz '1/8/1999 04:05:06 +02', timestamp 'Jan 08 1999 12:00 am'", "1999-01-08 22:30:00|1999-08-01 02:05:06+00|1999-01-08 00:00:00"),
            ("SELECT time 'January 8, 1999 10:30 pm'", "ERROR 22007"),
            ("SELECT date 'yesterday' = current_date - 1", "t"),
        ],
    )
    .await;
    check(
        &client,
        "SET DateStyle = 'ISO, YMD'",
        &[
            ("SELECT date 'January 8, 1999', date '19990108', date '990108', date '1999.008', date 'J2451187', date '1999 Jan 08', date '08-Jan-1999'", "1999-01-08|1999-01-08|1999-01-08|1999-01-08|1999-01-08|1999-01-08|1999-01-08"),
            ("SELECT date '01/02/03', date '08-Jan-99', date 'Jan-08-99', date '99 Jan 08'", "ERROR 22008"),
            ("SELECT date 'January 8, 99 BC'", "ERROR 22008"),
            ("SELECT date '1/18/1999'", "ERROR 22008"),
            ("SELECT date '1999-02-30'", "ERROR 22008"),
            ("SELECT date '99 08 Jan'", "1999-01-08"),
            ("SELECT date '4714-11-23 BC'", "ERROR 22008"),
            ("SELECT date '4714-11-24 BC', date '5874897-12-31'", "4714-11-24 BC|5874897-12-31"),
            ("SELECT date '5874898-01-01'", "ERROR 22008"),
            ("SELECT timestamp 'January 8, 1999 10:30 pm', timestamptz '1/8/1999 04:05:06 +02', timestamp 'Jan 08 1999 12:00 am'", "ERROR 22008"),
            ("SELECT time 'January 8, 1999 10:30 pm'", "ERROR 22007"),
            ("SELECT date 'yesterday' = current_date - 1", "t"),
        ],
    )
    .await;
}

/// Intervals: input forms, PostgreSQL's output, calendar arithmetic with
/// timestamps, comparison and order by span, aggregates.
/// An interval type with fields or digits (`interval day to second(2)`,
/// `interval hour`, `interval(2)`): casts and columns cut values below the
/// last field and round their seconds; the catalog spells the type back.
async fn interval_types_keep_their_fields_and_digits(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS ivf, ivf2; \
         CREATE TABLE ivf (a interval day to second(2), b interval(2), c interval day, \
         d interval, e interval hour to minute[]); \
         INSERT INTO ivf VALUES ('1 day 02:03:04.567', '1.2345 seconds', '1 day 2 hours', \
         '1 day 2 hours', '{\"01:02:03\"}'); \
         CREATE TABLE ivf2 AS SELECT a, c FROM ivf; \
         DROP TABLE IF EXISTS ivh; CREATE TABLE ivh (h interval hour, m interval minute to second(1)); \
         INSERT INTO ivh VALUES ('5', '7.25')",
        &[
            ("SELECT '1 year 5 mons 3 days 04:05:06'::interval year, '1 year 5 mons 3 days'::interval month, '1 day 2 hours'::interval day", "1 year|1 year 5 mons|1 day"),
            ("SELECT '3 days 04:05:06'::interval hour, '-04:05:06'::interval minute, '3 days 04:05:06'::interval day to hour, '1 day 02:03:04'::interval hour to minute", "3 days 04:00:00|-04:05:00|3 days 04:00:00|1 day 02:03:00"),
            ("SELECT '1 day 02:03:04.567'::interval day to second(2), '1.2345 seconds'::interval(2), '-1.5 seconds'::interval(0), CAST('1 mon 00:00:00.25' AS interval second(1))", "1 day 02:03:04.57|00:00:01.23|-00:00:02|1 mon 00:00:00.3"),
            ("SELECT a, b, c, d, pg_typeof(a)::text, pg_typeof(c)::text, a + interval '1 hour' FROM ivf", "1 day 02:03:04.57|00:00:01.23|1 day|1 day 02:00:00|interval|interval|1 day 03:03:04.57"),
            ("SELECT attname, atttypmod, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'ivf'::regclass AND attnum > 0 ORDER BY attnum", "a|470286338|interval day to second(2)\nb|2147418114|interval(2)\nc|589823|interval day\nd|-1|interval\ne|201392127|interval hour to minute[]"),
            ("SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'ivf2'::regclass AND attnum > 0 ORDER BY attnum", "interval day to second(2)\ninterval day"),
            ("UPDATE ivf SET c = c + interval '5 hours', b = interval '1.2345 seconds' * 3 RETURNING c, b", "1 day|00:00:03.7"),
            // Text given to the type is read in its fields: a bare number
            // counts the last field's units.
            ("SELECT '5'::interval hour, '5'::interval day to hour, '5'::interval minute to second, '14'::interval year to month, '2.5'::interval day", "05:00:00|05:00:00|00:00:05|1 year 2 mons|2 days"),
            ("SELECT INTERVAL '1 day 02:03:04' HOUR TO MINUTE, INTERVAL '5' HOUR, INTERVAL '1 year 2 months' YEAR, INTERVAL '1.234567' SECOND(2)", "1 day 02:03:00|05:00:00|1 year|00:00:01.23"),
            ("SELECT h, m FROM ivh", "05:00:00|00:00:07.3"),
            ("INSERT INTO ivh VALUES ('banana', '1')", "ERROR 22007"),
            // Bare numbers right to left: the last field's units, then days
            // left of hours or of a time; a field given twice is refused.
            ("SELECT INTERVAL '1 2' DAY TO HOUR, INTERVAL '1 2:03' DAY TO MINUTE, '1 2:03'::interval, '1 2 hours'::interval, '1 2'::interval hour", "1 day 02:00:00|1 day 02:03:00|1 day 02:03:00|1 day 02:00:00|1 day 02:00:00"),
            ("SELECT INTERVAL '1 2' DAY TO SECOND", "ERROR 22007"),
            ("SELECT '1 2'::interval", "ERROR 22007"),
            ("SELECT '2 1 day'::interval", "ERROR 22007"),
            ("SELECT '1 day 1 day'::interval", "ERROR 22007"),
        ],
    )
    .await;
    // A parameter stored into such a column is the column's type to a client.
    let insert = client
        .prepare("INSERT INTO ivh VALUES ($1, $2)")
        .await
        .unwrap();
    assert_eq!(insert.params(), [Type::INTERVAL, Type::INTERVAL]);
}

async fn intervals(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "SET TimeZone = 'UTC'; DROP TABLE IF EXISTS iv; CREATE TABLE iv (i interval); \
         INSERT INTO iv VALUES ('1 day'), ('25 hours'), ('1 mon'), (NULL), ('-2 hours')",
        &[
            ("SELECT interval '1 day 02:30:00', interval '1 year 2 months 3 days', interval '-1 days +02:00', interval '1.5 months', '@ 1 hour ago'::interval, interval 'P1Y2M3DT4H5M6S', interval '10'", "1 day 02:30:00|1 year 2 mons 3 days|-1 days +02:00:00|1 mon 15 days|-01:00:00|1 year 2 mons 3 days 04:05:06|00:00:10"),
            ("SELECT interval '1' day, interval '2' hour, INTERVAL '1 week'", "1 day|02:00:00|7 days"),
            ("SELECT timestamp '2024-01-31 10:00' + interval '1 month', timestamp '2024-01-31' - interval '1 day 1 hour', date '2024-02-28' + interval '1 day', interval '2 hours' + timestamp '2024-01-01'", "2024-02-29 10:00:00|2024-01-29 23:00:00|2024-02-29 00:00:00|2024-01-01 02:00:00"),
            ("SELECT timestamptz '2024-03-01 00:00+00' - interval '1 mon', timestamp '2024-03-01' - timestamp '2024-01-01 12:00', timestamptz '2024-03-01 00:00+00' - timestamptz '2024-03-02 01:00+00'", "2024-02-01 00:00:00+00|59 days 12:00:00|-1 days -01:00:00"),
            ("SELECT interval '1 day' + interval '2 hours', interval '1 day' - interval '36 hours', interval '1 mon' * 1.5, interval '1 day' / 4, 2 * interval '3 hours', -interval '1 day 02:00'", "1 day 02:00:00|1 day -36:00:00|1 mon 15 days|06:00:00|06:00:00|-1 days -02:00:00"),
            ("SELECT interval '1 day' = interval '24 hours', interval '1 mon' > interval '29 days', interval '1 mon' < interval '31 days', interval '1 year' <> interval '360 days'", "t|t|t|f"),
            ("SELECT extract(epoch from interval '1 year 2 mons 3 days 04:05:06.5'), extract(hour from interval '30 hours'), extract(second from interval '-1 min -2.5 sec'), extract(month from interval '14 mons'), extract(year from interval '-14 mons'), extract(quarter from interval '4 mons')", "37015506.500000|30|-2.500000|2|-1|2"),
            ("SELECT date_part('epoch', interval '1 day'), date_part('millennium', interval '2500 years'), extract(millisecond from interval '1.5 sec'), extract(microseconds from interval '1.5 sec')", "86400|2|1500.000|1500000"),
            ("SELECT extract(dow from interval '1 day')", "ERROR 0A000"),
            ("SELECT extract(foo from interval '1 day')", "ERROR 22023"),
            ("SELECT * FROM generate_series(timestamp '2024-01-30', timestamp '2024-05-01', interval '1 month')", "2024-01-30 00:00:00\n2024-02-29 00:00:00\n2024-03-29 00:00:00\n2024-04-29 00:00:00"),
            ("SELECT g FROM generate_series(timestamptz '2024-01-01 00:00+00', '2024-01-01 03:00+00', '1 hour') g", "2024-01-01 00:00:00+00\n2024-01-01 01:00:00+00\n2024-01-01 02:00:00+00\n2024-01-01 03:00:00+00"),
            ("SELECT d::date FROM generate_series(date '2024-02-27', date '2024-03-02', interval '1 day') AS s(d)", "2024-02-27\n2024-02-28\n2024-02-29\n2024-03-01\n2024-03-02"),
            ("SELECT * FROM generate_series(timestamp '2024-01-03', timestamp '2024-01-01', interval '-1 day')", "2024-01-03 00:00:00\n2024-01-02 00:00:00\n2024-01-01 00:00:00"),
            ("SELECT * FROM generate_series(timestamp '2024-01-03', timestamp '2024-01-01', interval '0')", "ERROR 22023"),
            ("SELECT n, pg_typeof(n)::text FROM generate_series(1, 3) AS g(n)", "1|integer\n2|integer\n3|integer"),
            ("SELECT g + 1 FROM generate_series(1::int8, 2) g", "2\n3"),
            ("SELECT generate_series.generate_series FROM generate_series(5, 1, -2)", "5\n3\n1"),
            ("SELECT count(*) FROM generate_series(1, 10) x WHERE x % 2 = 0", "5"),
            ("SELECT x.g, y.g FROM generate_series(1, 2) x(g), generate_series(1, 2) y(g) ORDER BY 1, 2", "1|1\n1|2\n2|1\n2|2"),
            ("SELECT interval '1 day' / 0", "ERROR 22012"),
            ("SELECT interval 'banana'", "ERROR 22007"),
            ("SELECT justify_days(interval '35 days'), justify_hours(interval '27 hours'), justify_interval(interval '1 mon -1 hour')", "1 mon 5 days|1 day 03:00:00|29 days 23:00:00"),
            ("SELECT age(timestamp '2024-03-15', timestamp '2023-01-31 12:00'), age(timestamp '2023-01-31', timestamp '2024-03-15')", "1 year 1 mon 14 days 12:00:00|-1 years -1 mons -15 days"),
            ("SELECT sum(i), avg(i), min(i), max(i), count(i) FROM iv", "1 mon 1 day 23:00:00|7 days 23:45:00|-02:00:00|1 mon|4"),
            ("SELECT i FROM iv WHERE i > '1 day' ORDER BY i", "25:00:00\n1 mon"),
            ("SELECT '1 day'::text::interval, (interval '1 day')::text, pg_typeof(interval '1 day')::text", "1 day|1 day|interval"),
            ("SELECT timestamp '2024-01-01' + '1 day'", "2024-01-02 00:00:00"),
            (
                "SELECT i FROM iv WHERE i < '2 days' UNION SELECT i FROM iv WHERE i < '2 days' ORDER BY i",
                "-02:00:00\n1 day\n25:00:00",
            ),
            ("SELECT i FROM iv ORDER BY i DESC", "NULL\n1 mon\n25:00:00\n1 day\n-02:00:00"),
            ("SELECT i * 2 AS twice FROM iv ORDER BY i * 2 NULLS FIRST", "NULL\n-04:00:00\n2 days\n50:00:00\n2 mons"),
        ],
    )
    .await;
}

/// `WITHIN GROUP`: percentiles (continuous and discrete) and `mode`.
async fn ordered_set_aggregates(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS pt; CREATE TABLE pt (x float8, t text, g int); \
         INSERT INTO pt VALUES (1, 'b', 1), (2, 'a', 1), (3, 'b', 1), (4, 'c', 2), (NULL, NULL, 2), (10, 'a', 2)",
        &[
            ("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), percentile_disc(0.5) WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP (ORDER BY t) FROM pt", "3|3|a"),
            ("SELECT g, percentile_cont(0.25) WITHIN GROUP (ORDER BY x), percentile_disc(0.9) WITHIN GROUP (ORDER BY t DESC) FROM pt GROUP BY g ORDER BY g", "1|1.5|a\n2|5.5|a"),
            ("SELECT percentile_cont(0) WITHIN GROUP (ORDER BY x), percentile_cont(1) WITHIN GROUP (ORDER BY x DESC) FROM pt", "1|1"),
            ("SELECT percentile_cont(0.5 ORDER BY 1) WITHIN GROUP (ORDER BY x) FROM pt", "ERROR 42601"),
            ("SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY x) FROM pt", "ERROR 22003"),
            ("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM pt WHERE false", "NULL"),
            ("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t) FROM pt", "ERROR 42883"),
            ("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x::float4) FROM (VALUES (53.4485)) v(x)", "53.44850158691406"),
            ("SELECT sum() WITHIN GROUP (ORDER BY x) FROM pt", "ERROR 42809"),
            ("SELECT sum(x) WITHIN GROUP (ORDER BY x) FROM pt", "ERROR 42883"),
            ("SELECT percentile_cont(x, x) FROM pt", "ERROR 42809"),
            ("SELECT percentile_cont(1, 2) WITHIN GROUP (ORDER BY x) FROM pt", "ERROR 42883"),
            ("SELECT mode() WITHIN GROUP (ORDER BY g) FILTER (WHERE x > 1), pg_typeof(mode() WITHIN GROUP (ORDER BY g))::text FROM pt", "1|integer"),
        ],
    )
    .await;
}

/// `rank(args) WITHIN GROUP (ORDER BY keys)` and its kin: where a
/// hypothetical row would sort, with the keys' directions and NULL places;
/// percentiles of an array of fractions.
async fn hypothetical_set_aggregates(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS pt; CREATE TABLE pt (x float8, t text, g int); \
         INSERT INTO pt VALUES (1, 'b', 1), (2, 'a', 1), (3, 'b', 1), (4, 'c', 2), (NULL, NULL, 2), (10, 'a', 2)",
        &[
            ("SELECT rank(3) WITHIN GROUP (ORDER BY x), dense_rank(3) WITHIN GROUP (ORDER BY x), percent_rank(3) WITHIN GROUP (ORDER BY x), cume_dist(3) WITHIN GROUP (ORDER BY x) FROM pt", "3|3|0.3333333333333333|0.5714285714285714"),
            ("SELECT rank('b', 3) WITHIN GROUP (ORDER BY t DESC, x NULLS FIRST), dense_rank('b', 3) WITHIN GROUP (ORDER BY t DESC, x NULLS FIRST), rank(NULL, NULL) WITHIN GROUP (ORDER BY t, x) FROM pt", "4|4|6"),
            ("SELECT g, rank(2) WITHIN GROUP (ORDER BY x DESC), cume_dist('a') WITHIN GROUP (ORDER BY t) FILTER (WHERE x < 10) FROM pt GROUP BY g ORDER BY g", "1|2|0.5\n2|4|0.5"),
            ("SELECT rank('3') WITHIN GROUP (ORDER BY g), pg_typeof(rank(1) WITHIN GROUP (ORDER BY g))::text, pg_typeof(cume_dist(1) WITHIN GROUP (ORDER BY g))::text FROM pt", "7|bigint|double precision"),
            ("SELECT percent_rank(1) WITHIN GROUP (ORDER BY x), rank(1) WITHIN GROUP (ORDER BY x) FROM pt WHERE false", "0|1"),
            ("SELECT rank(1, 2) WITHIN GROUP (ORDER BY x) FROM pt", "ERROR 42883"),
            ("SELECT rank(3) WITHIN GROUP (ORDER BY t) FROM pt", "ERROR 42804"),
            ("SELECT rank('fred') WITHIN GROUP (ORDER BY g) FROM pt", "ERROR 22P02"),
            ("SELECT rank(x) WITHIN GROUP (ORDER BY x) FROM pt", "ERROR 42803"),
            ("SELECT rank(1) WITHIN GROUP (ORDER BY x) OVER () FROM pt", "ERROR 0A000"),
            ("SELECT (percentile_cont(array[0, 0.25, NULL, 1]) WITHIN GROUP (ORDER BY x))::text, percentile_disc(array[0.5, 0]) WITHIN GROUP (ORDER BY t) FROM pt", "{1,2,NULL,10}|{b,a}"),
            ("SELECT g, (percentile_disc(array[0.5]) WITHIN GROUP (ORDER BY x))::text FROM pt GROUP BY g ORDER BY g", "1|{2}\n2|{4}"),
            ("SELECT percentile_cont(array[0.5, 2]) WITHIN GROUP (ORDER BY x) FROM pt", "ERROR 22003"),
            ("SELECT (percentile_cont('{}'::float8[]) WITHIN GROUP (ORDER BY x))::text FROM pt", "{}"),
            ("SELECT (percentile_cont(array[0.5]) WITHIN GROUP (ORDER BY x))::text FROM pt WHERE false", "NULL"),
        ],
    )
    .await;
}

/// `VARIADIC`: an array passed as a variadic parameter's values.
async fn variadic_arguments(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "",
        &[
            ("SELECT concat(variadic array[1, 2, 3]), concat_ws(',', variadic array['a', NULL, 'c']), format('%s, %s', variadic array['a', 'b'])", "123|a,c|a, b"),
            ("SELECT concat(variadic NULL::int[]), concat_ws(',', variadic '{}'::int[]), concat_ws(NULL, variadic array[1])", "NULL||NULL"),
            ("SELECT concat_ws(',', variadic 10)", "ERROR 42804"),
            ("SELECT concat(variadic '{a,b}')", "ERROR 42804"),
            ("SELECT format('%s', variadic NULL::text[])", "ERROR 22023"),
            ("SELECT lower(variadic array['a'])", "ERROR 42883"),
            ("SELECT concat(variadic array[1], 2)", "ERROR 42601"),
            ("SELECT format('%s, %s', variadic array[true, false]::text[]), array[true, NULL]::text[]", "true, false|{true,NULL}"),
        ],
    )
    .await;
}

/// jsonb's form (keys ordered and unique), its operators, builders,
/// aggregates and path functions.
async fn json_operators_and_functions(target: &Target) {
    let client = target.connect().await;
    // A jsonb parameter, in binary and in text, is stored in jsonb's form too.
    client
        .batch_execute("DROP TABLE IF EXISTS jp; CREATE TABLE jp (doc jsonb)")
        .await
        .unwrap();
    let value: serde_json::Value = serde_json::from_str(r#"{"bb": [1,2], "a": null}"#).unwrap();
    client
        .execute("INSERT INTO jp VALUES ($1)", &[&value])
        .await
        .unwrap();
    client
        .execute(
            "INSERT INTO jp VALUES ($1::text::jsonb)",
            &[&r#"{"z":1,  "y":2}"#],
        )
        .await
        .unwrap();
    assert_eq!(
        text_answer(&client, "SELECT doc FROM jp").await,
        "{\"a\": null, \"bb\": [1, 2]}\n{\"y\": 2, \"z\": 1}"
    );
    check(
        &client,
        "DROP TABLE IF EXISTS jt; CREATE TABLE jt (id int, doc jsonb, tag text); \
         INSERT INTO jt VALUES (1, '{\"k\": \"v1\", \"n\": 1}', 'a'), \
         (2, '{\"n\": 2, \"k\": \"v2\"}', 'b'), (3, NULL, 'a')",
        &[
            ("SELECT '{\"a\":1,  \"b\":[1,2]}'::json -> 'b', '{\"a\":1,  \"b\":{\"c\": \"x\"}}'::json ->> 'b', '[1, [2,3]]'::json -> -1, '{\"a\":{\"b\":[1, 2]}}'::json #>> '{a}', '{\"a\": 1.50, \"a\": 2}'::json -> 'a', json_extract_path('{\"f2\":{\"f3\":1}}', 'f2')", "[1,2]|{\"c\": \"x\"}|[2,3]|{\"b\":[1, 2]}|2|{\"f3\":1}"),
            ("SELECT key, value FROM json_each('{\"f1\":[1,2,3],\"f2\":{\"f3\":1},\"f4\":null}') ORDER BY key", "f1|[1,2,3]\nf2|{\"f3\":1}\nf4|null"),
            ("SELECT value FROM json_array_elements_text('[1,[1,[2,3]],\"x\",null]')", "1\n[1,[2,3]]\nx\nNULL"),
            ("select '{\"a\": {\"b\": [1, 2]}}'::jsonb -> 'a', '{\"a\": {\"b\": [1, 2]}}'::json -> 'a'", "{\"b\": [1, 2]}|{\"b\": [1, 2]}"),
            ("select '{\"a\": {\"b\": [1, 2]}}'::jsonb ->> 'a', '{\"a\":1}'::jsonb -> 'x'", "{\"b\": [1, 2]}|NULL"),
            ("select '{\"a\": {\"b\": [1, 2]}}'::jsonb #> '{a,b}', '{\"a\": {\"b\": [1, 2]}}'::jsonb #>> '{a,b,1}'", "[1, 2]|2"),
            ("select '{\"a\":1, \"b\":2}'::jsonb @> '{\"a\":1}', '{\"a\":1}'::jsonb ? 'a'", "t|t"),
            ("select jsonb_typeof('[1]'), jsonb_build_object('a', 1, 'b', 'x'), to_jsonb('x'::text)", "array|{\"a\": 1, \"b\": \"x\"}|\"x\""),
            ("select to_json(array[1,2]), to_json(array['a','b']), to_jsonb(array[1,2]), to_json(array[true,false]), to_json('{{1,5},{99,100}}'::int[]), to_json(array[1.5,null]), jsonb_build_object('a', array[1,2])", "[1,2]|[\"a\",\"b\"]|[1, 2]|[true,false]|[[1,5],[99,100]]|[1.5,null]|{\"a\": [1, 2]}"),
            ("select array_to_json(array_agg(id ORDER BY id)), array_to_json('{{1,5},{99,100}}'::int[], false), array_to_json(array['2024-01-01 10:00'::timestamp]) FROM jt", "[1,2,3]|[[1,5],[99,100]]|[\"2024-01-01T10:00:00\"]"),
            ("select '[1,2]'::jsonb || '[3]'::jsonb", "[1, 2, 3]"),
            ("select '{\"a\":1, \"b\":2}'::jsonb - 'a', '[1,2,3]'::jsonb - 1, '{\"a\":1}'::jsonb ?| array['x','a'], '{\"a\":1}'::jsonb ?& array['x','a']", "{\"b\": 2}|[1, 3]|t|f"),
            ("select jsonb_set('{\"a\":{\"b\":1}}', '{a,c}', '5'), jsonb_set('[1,2]', '{0}', '\"x\"'), jsonb_extract_path('{\"a\":{\"b\":[1,2]}}', 'a', 'b'), jsonb_extract_path_text('{\"a\":{\"b\":\"s\"}}', 'a', 'b')", "{\"a\": {\"b\": 1, \"c\": 5}}|[\"x\", 2]|[1, 2]|s"),
            ("select json_build_object('a', true, 'n', NULL, 'x', 1.5), jsonb_build_array(1, 'two', false), to_jsonb(3), to_json('a\"b'::text), jsonb_strip_nulls('{\"a\":null,\"b\":{\"c\":null,\"d\":1}}')", "{\"a\" : true, \"n\" : null, \"x\" : 1.5}|[1, \"two\", false]|3|\"a\\\"b\"|{\"b\": {\"d\": 1}}"),
            ("select '{\"b\":1, \"a\": 2}'::jsonb, '{\"b\":1,  \"a\": 2}'::json", "{\"a\": 2, \"b\": 1}|{\"b\":1,  \"a\": 2}"),
            ("select jsonb_agg(doc), json_agg(tag), jsonb_object_agg(tag, id) from jt", "[{\"k\": \"v1\", \"n\": 1}, {\"k\": \"v2\", \"n\": 2}, null]|[\"a\", \"b\", \"a\"]|{\"a\": 3, \"b\": 2}"),
            ("select id, doc->>'k', doc->'n' from jt where doc @> '{\"n\": 2}' or doc ? 'k' order by id", "1|v1|1\n2|v2|2"),
            ("select jsonb_array_length('[1,2,3]'), json_array_length('[1]'), jsonb_typeof(doc->'n') from jt where id = 1", "3|1|number"),
            ("select '{\"a\":1}'::jsonb -> 'a' = '1'::jsonb, doc from jt order by id", "t|{\"k\": \"v1\", \"n\": 1}\nt|{\"k\": \"v2\", \"n\": 2}\nt|NULL"),
            ("SELECT * FROM jsonb_array_elements('[1, \"two\", {\"b\":1, \"a\":[true, null]}, null]')", "1\n\"two\"\n{\"a\": [true, null], \"b\": 1}\nnull"),
            ("SELECT value FROM jsonb_array_elements_text('[1, \"two\", {\"a\":2}, null, false]') AS e", "1\ntwo\n{\"a\": 2}\nNULL\nfalse"),
            ("SELECT key, value FROM jsonb_each('{\"b\": 2, \"a\": {\"x\": \"y\"}}') ORDER BY key", "a|{\"x\": \"y\"}\nb|2"),
            ("SELECT * FROM jsonb_each_text('{\"b\": 2, \"a\": \"s\", \"c\": null}') AS t(k, v) ORDER BY k", "a|s\nb|2\nc|NULL"),
            ("SELECT * FROM jsonb_object_keys('{\"b\": 2, \"aa\": 1}')", "b\naa"),
            ("SELECT * FROM jsonb_array_elements('{\"a\":1}')", "ERROR 22023"),
            ("SELECT * FROM jsonb_each('[1]')", "ERROR 22023"),
            ("select jsonb_array_length('{}')", "ERROR 22023"),
            ("select 'nope'::jsonb", "ERROR 22P02"),
        ],
    )
    .await;
}

/// Radians, degrees (exact at the usual angles), hyperbolic functions, their
/// domains and NaN; float input read to the nearest double however far its
/// exponent.
async fn trigonometry_and_float_input(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "",
        &[
            ("SELECT sind(30), sind(150), sind(-90), sind(390), cosd(60), cosd(120), cosd(270)", "0.5|0.5|-1|0.5|0.5|-0.5|0"),
            ("SELECT tand(45), tand(135), tand(90), tand(180), cotd(45), cotd(0)", "1|-1|Infinity|0|1|Infinity"),
            ("SELECT asind(0.5), acosd(-0.5), atand(1), atan2d(1, -1), asind(-1)", "30|120|45|135|-90"),
            ("SELECT sin(1), cos(1), tan(1), cot(1), asin(0.5), acos(0.5), atan(1), atan2(1, 2)", "0.8414709848078965|0.5403023058681398|1.5574077246549023|0.6420926159343306|0.5235987755982989|1.0471975511965979|0.7853981633974483|0.4636476090008061"),
            ("SELECT sinh(1), cosh(1), tanh(1), asinh(1), acosh(2), atanh(0.5), cbrt(1000), cbrt(-8)", "1.1752011936438014|1.5430806348152437|0.7615941559557649|0.881373587019543|1.3169578969248166|0.5493061443340548|10|-2"),
            ("SELECT degrees(1), radians(180), degrees(float8 'infinity')", "57.29577951308232|3.141592653589793|Infinity"),
            ("SELECT sinh(float8 'nan'), acosh(float8 'nan'), sind(float8 'nan'), atan2(float8 'nan', 1)", "NaN|NaN|NaN|NaN"),
            ("SELECT atanh(1), atanh(-1), sinh(float8 '-infinity'), cosh(1000)", "Infinity|-Infinity|-Infinity|Infinity"),
            ("SELECT acosh(0.5)", "ERROR 22003"),
            ("SELECT atanh(2)", "ERROR 22003"),
            ("SELECT sin(float8 'infinity')", "ERROR 22003"),
            ("SELECT asin(2)", "ERROR 22003"),
            ("SELECT sind(float8 '-infinity')", "ERROR 22003"),
            ("SELECT acosd(1.5)", "ERROR 22003"),
            ("SELECT pg_typeof(sind(30))::text, pg_typeof(atan2(1, 1))::text", "double precision|double precision"),
            ("SELECT float8 '1.2345678901234e-200', '1.2345678901234e+200'::float8, 1.2345678901234e-200::float8", "1.2345678901234e-200|1.2345678901234e+200|1.2345678901234e-200"),
            ("SELECT '-1.2345678901234e-200'::float8 * 10, float4 '1.2345678e-30', 0.1234567890123456789::float8", "-1.2345678901234e-199|1.2345678e-30|0.12345678901234568"),
        ],
    )
    .await;
}

/// `DISTINCT ON` keeps the first row of each key by the query's order (42P10
/// when the order does not begin with the keys); `ROLLUP`, `CUBE` and
/// `GROUPING SETS` group one select several ways, with `grouping()`.
async fn distinct_on_and_grouping_sets(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS qf; CREATE TABLE qf (g int, v int, t text); \
         INSERT INTO qf VALUES (1, 5, 'a'), (1, 3, 'b'), (2, 7, 'c'), (2, 9, 'd'), (3, NULL, 'e'), (NULL, 1, 'f')",
        &[
            ("SELECT DISTINCT ON (g) g, v, t FROM qf ORDER BY g, v", "1|3|b\n2|7|c\n3|NULL|e\nNULL|1|f"),
            ("SELECT DISTINCT ON (g) * FROM qf ORDER BY g, v DESC", "1|5|a\n2|9|d\n3|NULL|e\nNULL|1|f"),
            ("SELECT DISTINCT ON (g) t FROM qf ORDER BY g, v DESC NULLS LAST", "a\nd\ne\nf"),
            ("SELECT DISTINCT ON (1) g AS k, t FROM qf ORDER BY 1, t DESC", "1|b\n2|d\n3|e\nNULL|f"),
            ("SELECT DISTINCT ON (k) g AS k, t FROM qf ORDER BY k, t", "1|a\n2|c\n3|e\nNULL|f"),
            ("SELECT DISTINCT ON (g, v > 4) g, t FROM qf ORDER BY g, v > 4, t LIMIT 3", "1|b\n1|a\n2|c"),
            ("SELECT DISTINCT ON (g % 2) g, v FROM qf WHERE g IS NOT NULL ORDER BY g % 2, v DESC", "2|9\n3|NULL"),
            ("SELECT DISTINCT ON (g) g, t FROM qf ORDER BY v", "ERROR 42P10"),
            ("SELECT count(*) FROM (SELECT DISTINCT ON (g) g FROM qf) s", "4"),
            ("SELECT DISTINCT g FROM qf ORDER BY g", "1\n2\n3\nNULL"),
            ("SELECT count(*) FROM (SELECT DISTINCT g FROM qf) s", "4"),
            ("SELECT * FROM (SELECT DISTINCT g FROM qf) s WHERE g < 3 ORDER BY 1", "1\n2"),
            ("SELECT DISTINCT x FROM (VALUES (1), (1), (2)) v(x) ORDER BY x", "1\n2"),
            ("SELECT DISTINCT g > 1 AS big FROM qf ORDER BY big", "f\nt\nNULL"),
            ("SELECT g, t, sum(v), grouping(g, t) FROM qf GROUP BY ROLLUP (g, t) ORDER BY g NULLS FIRST, t NULLS FIRST, 3", "NULL|NULL|1|1\nNULL|NULL|25|3\nNULL|f|1|0\n1|NULL|8|1\n1|a|5|0\n1|b|3|0\n2|NULL|16|1\n2|c|7|0\n2|d|9|0\n3|NULL|NULL|1\n3|e|NULL|0"),
            ("SELECT g, t, sum(v) FROM qf WHERE g IS NOT NULL GROUP BY CUBE (g, t) ORDER BY 1, 2", "1|a|5\n1|b|3\n1|NULL|8\n2|c|7\n2|d|9\n2|NULL|16\n3|e|NULL\n3|NULL|NULL\nNULL|a|5\nNULL|b|3\nNULL|c|7\nNULL|d|9\nNULL|e|NULL\nNULL|NULL|24"),
            ("SELECT g, sum(v) AS total FROM qf WHERE g IS NOT NULL GROUP BY GROUPING SETS ((g), ()) ORDER BY g", "1|8\n2|16\n3|NULL\nNULL|24"),
            ("SELECT t, count(*) FROM qf GROUP BY GROUPING SETS (t, ()) HAVING count(*) > 1 ORDER BY t", "NULL|6"),
            ("SELECT g, t, count(*) FROM qf WHERE g = 1 GROUP BY g, ROLLUP (t) ORDER BY g, t", "1|a|1\n1|b|1\n1|NULL|2"),
            ("SELECT sum(v) FROM qf WHERE false GROUP BY ROLLUP (g)", "NULL"),
            ("SELECT g + 1 AS k, sum(v) FROM qf WHERE g IS NOT NULL GROUP BY ROLLUP (g + 1) ORDER BY k", "2|8\n3|16\n4|NULL\nNULL|24"),
        ],
    )
    .await;
}

/// Range types are not there: their constructors are refused as not
/// implemented (0A000), not as unknown functions (PostgreSQL has them).
async fn range_constructors_are_refused_as_not_implemented(target: &Target) {
    let client = target.connect().await;
    for sql in [
        "SELECT int4range(1, 5)",
        "SELECT numrange(1.5, x) FROM (VALUES (2)) v(x)",
        "SELECT daterange('2024-01-01', '2024-02-01', '[]')",
    ] {
        let answer = client.simple_query(sql).await;
        match target.is_litewire() {
            true => {
                let error = answer.expect_err(sql);
                assert_eq!(error.code().map(|c| c.code()), Some("0A000"), "{sql}");
                let message = error.as_db_error().map(|e| e.message().to_owned());
                assert!(
                    message
                        .as_deref()
                        .is_some_and(|m| m.contains("range types are not supported")),
                    "{message:?}"
                );
            }
            false => assert!(answer.is_ok(), "{sql}: {answer:?}"),
        }
    }
}

/// Set-returning functions in FROM that read the items before them
/// (implicitly or with LATERAL, numbered WITH ORDINALITY), and in a select
/// list, where each value makes a row.
async fn set_returning_functions_read_the_row_beside_them(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS sr; \
         CREATE TABLE sr (id int, doc jsonb, meta jsonb, tags int[], words text[], n int); \
         INSERT INTO sr VALUES (1, '[1, \"a\", {\"b\": 2}]', '{\"x\": 1, \"y\": [2]}', '{3,1}', '{p,\"q r\"}', 2), \
         (2, '[]', '{}', '{}', '{}', 0), (3, '[true]', '{\"z\": null}', NULL, '{s}', 3)",
        &[
            ("SELECT id, e FROM sr, jsonb_array_elements(sr.doc) e ORDER BY id, e::text", "1|\"a\"\n1|1\n1|{\"b\": 2}\n3|true"),
            ("SELECT id, e.value FROM sr CROSS JOIN LATERAL jsonb_array_elements(doc) AS e ORDER BY id, 2", "1|\"a\"\n1|1\n1|{\"b\": 2}\n3|true"),
            ("SELECT id, k, v FROM sr, jsonb_each(meta) AS e(k, v) ORDER BY 1, 2", "1|x|1\n1|y|[2]\n3|z|null"),
            ("SELECT id, x FROM sr, unnest(tags) AS x ORDER BY id, x", "1|1\n1|3"),
            ("SELECT id, t, i FROM sr, unnest(words) WITH ORDINALITY AS u(t, i) ORDER BY 1, 3", "1|p|1\n1|q r|2\n3|s|1"),
            ("SELECT id, x FROM sr LEFT JOIN LATERAL unnest(tags) x ON true ORDER BY 1, 2", "1|1\n1|3\n2|NULL\n3|NULL"),
            ("SELECT id, g FROM sr, generate_series(1, sr.n) g ORDER BY id, g", "1|1\n1|2\n3|1\n3|2\n3|3"),
            ("SELECT id, g FROM sr, generate_series(n, 1, -1) g ORDER BY 1, 2", "1|1\n1|2\n3|1\n3|2\n3|3"),
            ("SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(v, o)", "1|1\n2|2\n3|3"),
            ("SELECT generate_series(1, 3)", "1\n2\n3"),
            ("SELECT id, generate_series(1, n) FROM sr ORDER BY 1, 2", "1|1\n1|2\n3|1\n3|2\n3|3"),
            ("SELECT id, unnest(tags) FROM sr ORDER BY 1, 2", "1|1\n1|3"),
            ("SELECT unnest(tags) + 1 AS p FROM sr ORDER BY 1", "2\n4"),
            // Arrays of other lengths: as many rows as the longest, NULL
            // where a shorter one has ended.
            ("SELECT id, unnest(tags), unnest(words) FROM sr ORDER BY 1, 2, 3", "1|1|q r\n1|3|p\n3|NULL|s"),
            ("SELECT unnest(ARRAY[1, 2]) AS x, unnest(ARRAY['a', 'b', 'c']) || '!' AS y", "1|a!\n2|b!\nNULL|c!"),
            // Calls of other lengths: the longest's rows, the others NULL
            // once they end, per row of the items beside them.
            ("SELECT generate_series(1, 2) AS a, generate_series(1, 3) AS b", "1|1\n2|2\nNULL|3"),
            ("SELECT id, generate_series(1, n), generate_series(n, 1, -1) * 10 FROM sr ORDER BY 1, 2", "1|1|20\n1|2|10\n3|1|30\n3|2|20\n3|3|10"),
            ("SELECT unnest(ARRAY[1, 2]), generate_series(1, 3), 'k' AS k", "1|1|k\n2|2|k\nNULL|3|k"),
            ("SELECT id, unnest(tags), generate_series(1, 1) FROM sr ORDER BY 1, 2", "1|1|NULL\n1|3|1\n2|NULL|1\n3|NULL|1"),
            ("SELECT count(*) FROM (SELECT generate_series(1, 0), generate_series(1, 0)) s", "0"),
            ("SELECT jsonb_array_elements('[1, 2, 3]'::jsonb), jsonb_object_keys('{\"a\": 1}')", "1|a\n2|NULL\n3|NULL"),
            // An object's rows numbered by their place among its keys.
            ("SELECT * FROM jsonb_object_keys('{\"b\": 1, \"a\": 2, \"ccc\": 3}') WITH ORDINALITY AS t(k, n)", "a|1\nb|2\nccc|3"),
            ("SELECT id, k, o FROM sr, jsonb_each(meta) WITH ORDINALITY AS e(k, v, o) ORDER BY 1, 3", "1|x|1\n1|y|2\n3|z|1"),
            ("SELECT count(*), count(b) FROM (SELECT generate_series(1, 300) AS a, generate_series(1, 200) AS b) s", "300|200"),
            ("SELECT id, jsonb_array_elements(doc) FROM sr ORDER BY 1, 2::text", "1|1\n1|\"a\"\n1|{\"b\": 2}\n3|true"),
            ("SELECT id, jsonb_object_keys(meta) FROM sr ORDER BY 1, 2", "1|x\n1|y\n3|z"),
            ("SELECT id, jsonb_array_elements_text(doc) AS t FROM sr WHERE id = 1 ORDER BY 2", "1|1\n1|a\n1|{\"b\": 2}"),
            ("SELECT generate_series(1, n, 0) FROM sr", "ERROR 22023"),
            ("SELECT pg_typeof(x)::text FROM sr, unnest(tags) x LIMIT 1", "integer"),
            ("SELECT id, e FROM (SELECT 7 AS id, '[1, 2]'::jsonb AS value) t, jsonb_array_elements(value) e ORDER BY 2::text", "7|1\n7|2"),
            ("SELECT key, x FROM (SELECT 'k' AS key, ARRAY[3, 4] AS path) t, unnest(path) x ORDER BY 2", "k|3\nk|4"),
            ("SELECT id, g FROM sr RIGHT JOIN LATERAL generate_series(1, sr.n) g ON true", "ERROR 42P10"),
            ("SELECT count(*) FROM sr a FULL JOIN LATERAL unnest(a.tags) x ON true", "ERROR 42P10"),
            ("SELECT regexp_matches('foobarbequebaz', '(bar)(beque)')", "{bar,beque}"),
            ("WITH q AS (SELECT 'foo' AS x) SELECT x, pg_typeof(x)::text FROM q", "foo|text"),
            ("SELECT f1, pg_typeof(f1)::text FROM (SELECT 'foo' AS f1) ss", "foo|text"),
            ("SELECT regexp_matches('foobarbequebazilbarfbonk', '(b[^b]+)(b[^b]+)', 'g')", "{bar,beque}\n{bazil,barf}"),
            ("SELECT count(*) FROM (SELECT regexp_matches('abc', 'x')) s", "0"),
            // An empty match right after a longer one is a match of its own.
            ("SELECT (regexp_matches(E'\\n1\\n2', '.?$', 'mg'))[1]", "\n1\n\n2\n"),
            ("SELECT regexp_count('ab', 'x*'), regexp_count(E'a\\nb', '.?$', 1, 'm')", "3|4"),
            ("SELECT regexp_matches('foo', '(f)(x)?')", "{f,NULL}"),
            ("SELECT * FROM regexp_matches('abcabc', 'b', 'g') AS m", "{b}\n{b}"),
            ("SELECT regexp_split_to_table('the quick  brown', '\\s+')", "the\nquick\nbrown"),
            ("SELECT * FROM regexp_split_to_table('a,b,,c', ',') WITH ORDINALITY AS t(part, n)", "a|1\nb|2\n|3\nc|4"),
            ("SELECT regexp_matches('ab', 'a', 'gz')", "ERROR 22023"),
            ("SELECT (regexp_matches('foo bar', '(\\w+)', 'g'))[1]", "foo\nbar"),
        ],
    )
    .await;
}

/// `LATERAL` subqueries (a select, a set operation, VALUES) read the row
/// beside them, joined inner or left; every type's values come through
/// whole (bytea, NULL, a float's last digit, NaN, jsonb).
async fn lateral_subqueries_read_the_row_beside_them(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS lt; CREATE TABLE lt (id int, n int, b bytea, name text); \
         INSERT INTO lt VALUES (1, 10, '\\x01ff', 'a'), (2, 20, NULL, 'b'), (3, 30, '\\x', 'c')",
        &[
            ("SELECT id, t.* FROM lt, LATERAL (SELECT count(*) AS c FROM lt s2 WHERE s2.id <= lt.id) t ORDER BY 1", "1|1\n2|2\n3|3"),
            ("SELECT lt.id, x.v FROM lt CROSS JOIN LATERAL (VALUES (lt.n), (lt.n + 1)) AS x(v) ORDER BY 1, 2", "1|10\n1|11\n2|20\n2|21\n3|30\n3|31"),
            ("SELECT lt.id, s.* FROM lt LEFT JOIN LATERAL (SELECT s2.name, s2.n * 2 AS dbl FROM lt s2 WHERE s2.id > lt.id ORDER BY s2.id LIMIT 1) s ON true ORDER BY 1", "1|b|40\n2|c|60\n3|NULL|NULL"),
            ("SELECT id, q.bb, q.nn FROM lt, LATERAL (SELECT lt.b AS bb, lt.name || '!' AS nn) q ORDER BY id", "1|\\x01ff|a!\n2|NULL|b!\n3|\\x|c!"),
            ("SELECT l.id, m.mx FROM lt l, LATERAL (SELECT max(n) AS mx FROM lt WHERE n < l.n) m ORDER BY 1", "1|NULL\n2|10\n3|20"),
            ("SELECT l.id, m.* FROM lt l, LATERAL (SELECT id FROM lt WHERE id < l.id UNION ALL SELECT 0) m ORDER BY 1, 2", "1|0\n2|0\n2|1\n3|0\n3|1\n3|2"),
            ("SELECT count(*), sum(s.n) FROM lt, LATERAL (SELECT n FROM lt) s", "9|180"),
            ("SELECT id, (SELECT r FROM (SELECT n AS id) x, LATERAL (SELECT id AS r) y) FROM lt ORDER BY 1", "1|10\n2|20\n3|30"),
            ("SELECT q.* FROM (SELECT 1) o, LATERAL (SELECT 0.1::float8 + 0.2::float8 AS f, 9007199254740993::int8 AS i, 'null'::text AS t, '{\"a\": 1}'::jsonb AS j, true AS b, interval '1 day' AS iv, date '2024-01-02' AS d, 'nan'::float8 AS n, 1e-300::float8 AS tiny) q", "0.30000000000000004|9007199254740993|null|{\"a\": 1}|t|1 day|2024-01-02|NaN|1e-300"),
        ],
    )
    .await;
}

/// `gcd`, `lcm` and `div` (of integers and of numerics, in decimal) and
/// `width_bucket`, with PostgreSQL's result types and errors.
async fn divisors_and_buckets(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "",
        &[
            ("SELECT gcd(12, 18), gcd(-12, 18), gcd(0, 0), lcm(4, 6), lcm(-4, 6), lcm(0, 5), gcd(12::int8, 18::int8)", "6|6|0|12|12|0|6"),
            ("SELECT pg_typeof(gcd(1, 2))::text, pg_typeof(gcd(1::int8, 2::int8))::text, pg_typeof(div(9, 4))::text, pg_typeof(width_bucket(5.0, 0, 10, 5))::text", "integer|bigint|numeric|integer"),
            ("SELECT div(9, 4), div(-9, 4), div(9.5, 2), gcd(1.5, 2.25), lcm(1.5, 2.25)::float8", "2|-2|4|0.75|4.5"),
            ("SELECT trunc(1.57, 1), round(155, -1), trunc(-1.57, 1), round(-2.5, 0), round(1234.5678, -2), trunc(1234.5678, -2), round(1.23456789, 4)", "1.5|160|-1.5|-3|1200|1200|1.2346"),
            ("SELECT width_bucket(5.35, 0.024, 10.06, 5), width_bucket(0, 1, 10, 5), width_bucket(10, 1, 10, 5), width_bucket(5, 10, 1, 3), width_bucket(5::float8, 1, 10, 3)", "3|0|6|2|2"),
            ("SELECT gcd((-2147483648)::int4, 0)", "ERROR 22003"),
            ("SELECT lcm(2147483647, 2147483646)", "ERROR 22003"),
            ("SELECT div(1, 0)", "ERROR 22012"),
            ("SELECT width_bucket(5, 1, 1, 3)", "ERROR 2201G"),
            ("SELECT width_bucket(5, 1, 10, 0)", "ERROR 2201G"),
            ("SELECT width_bucket('nan'::float8, 1, 10, 3)", "ERROR 2201G"),
        ],
    )
    .await;
}

/// `INTERSECT ALL` and `EXCEPT ALL` count duplicates (NULLs equal); a side
/// in parentheses keeps its own meaning; `TABLE t`, and `VALUES` ordered and
/// limited, are queries.
async fn set_operations_keep_duplicates_and_parentheses(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS ma, mb; CREATE TABLE ma (x int, y text); CREATE TABLE mb (x int, y text); \
         INSERT INTO ma VALUES (1, 'a'), (1, 'a'), (1, 'a'), (2, 'b'), (NULL, NULL), (NULL, NULL); \
         INSERT INTO mb VALUES (1, 'a'), (1, 'a'), (3, 'c'), (NULL, NULL)",
        &[
            ("SELECT * FROM ma INTERSECT ALL SELECT * FROM mb ORDER BY 1, 2", "1|a\n1|a\nNULL|NULL"),
            ("SELECT * FROM ma EXCEPT ALL SELECT * FROM mb ORDER BY 1, 2", "1|a\n2|b\nNULL|NULL"),
            ("SELECT x FROM ma EXCEPT ALL SELECT x FROM mb EXCEPT ALL SELECT 1 ORDER BY 1", "2\nNULL"),
            ("SELECT x AS k FROM ma INTERSECT ALL SELECT x FROM mb ORDER BY k", "1\n1\nNULL"),
            ("(SELECT x FROM ma EXCEPT ALL SELECT x FROM mb) UNION ALL SELECT 9 ORDER BY 1", "1\n2\n9\nNULL"),
            ("(SELECT 1) UNION ALL SELECT 2", "1\n2"),
            ("SELECT 5 EXCEPT (SELECT 5 UNION SELECT 6)", ""),
            ("(SELECT x FROM ma ORDER BY x LIMIT 1) UNION ALL SELECT 7 ORDER BY 1", "1\n7"),
            ("TABLE mb ORDER BY x NULLS FIRST", "NULL|NULL\n1|a\n1|a\n3|c"),
            ("VALUES (2), (1) ORDER BY 1 LIMIT 1", "1"),
            ("VALUES (2, 'b'), (1, 'a') ORDER BY column2 DESC", "2|b\n1|a"),
            ("SELECT 1 UNION ALL TABLE mb ORDER BY 1", "ERROR 42601"),
        ],
    )
    .await;
}

/// `t AS a (x, y)` renames the table's columns, in joins by `USING` and
/// `NATURAL` too.
async fn table_aliases_rename_columns(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS rj1, rj2; CREATE TABLE rj1 (i integer, j integer, t text); \
         CREATE TABLE rj2 (i integer, k integer); \
         INSERT INTO rj1 VALUES (1, 4, 'one'), (2, 3, 'two'), (3, 2, 'three'), (0, NULL, 'zero'); \
         INSERT INTO rj2 VALUES (1, -1), (2, 2), (3, -3), (2, 4), (5, -5), (NULL, 0)",
        &[
            ("SELECT * FROM rj1 AS t1 (a, b, c) ORDER BY a", "0|NULL|zero\n1|4|one\n2|3|two\n3|2|three"),
            ("SELECT t1.a, t2.e FROM rj1 t1 (a, b, c), rj2 t2 (d, e) WHERE t1.a = t2.d ORDER BY 1, 2", "1|-1\n2|2\n2|4\n3|-3"),
            ("SELECT * FROM rj1 t1 (a, b, c) JOIN rj2 t2 (a, d) USING (a) ORDER BY a, d", "1|4|one|-1\n2|3|two|2\n2|3|two|4\n3|2|three|-3"),
            // A parenthesized join, then a table of it again under other names.
            ("SELECT * FROM (rj1 LEFT JOIN rj2 ON (j = k)) LEFT JOIN rj1 r (a, b, c) ON (j = a) WHERE t <> 'zero' ORDER BY 1", "1|4|one|2|4|NULL|NULL|NULL\n2|3|two|NULL|NULL|3|2|three\n3|2|three|2|2|2|3|two"),
            // A join under an alias: its columns by the one name, its tables hidden.
            ("SELECT * FROM (rj1 JOIN rj2 USING (i)) AS x WHERE x.t = 'one'", "1|4|one|-1"),
            ("SELECT * FROM (rj1 JOIN rj2 USING (i)) AS x (a, b, c) WHERE c = 'one'", "1|4|one|-1"),
            ("SELECT x.k FROM (rj1 FULL JOIN rj2 USING (i)) AS x WHERE x.i = 5", "-5"),
            ("SELECT count(*) FROM (rj1 JOIN rj2 ON rj1.i = rj2.i) AS x WHERE x.j > 2", "3"),
            ("SELECT * FROM (rj1 JOIN rj2 USING (i)) AS x WHERE rj1.t = 'one'", "ERROR 42P01"),
            ("SELECT * FROM (rj1 JOIN rj2 USING (i)) AS x (a, b, c, d, e)", "ERROR 42P10"),
            ("SELECT x.i FROM (rj1 JOIN rj2 ON rj1.i = rj2.i) AS x", "ERROR 42702"),
            ("SELECT * FROM rj2 z JOIN (rj1 x CROSS JOIN rj1 y) j ON z.i = y.i", "ERROR 42P01"),
            ("SELECT a FROM (SELECT 1 AS a, 2 AS a) s", "ERROR 42702"),
            ("SELECT * FROM rj1 t1 (a, b, c) NATURAL JOIN rj2 t2 (d, a) ORDER BY a", "0|NULL|zero|NULL\n2|3|two|2"),
            ("SELECT * FROM rj1 t1 (a, b, c) FULL JOIN rj2 t2 (a, d) USING (a) ORDER BY a, d", "0|NULL|zero|NULL\n1|4|one|-1\n2|3|two|2\n2|3|two|4\n3|2|three|-3\n5|NULL|NULL|-5\nNULL|NULL|NULL|0"),
            ("SELECT * FROM rj1 t1 (a, b, c) RIGHT JOIN rj2 t2 (a, d) USING (a) ORDER BY a, d", "1|4|one|-1\n2|3|two|2\n2|3|two|4\n3|2|three|-3\n5|NULL|NULL|-5\nNULL|NULL|NULL|0"),
            ("SELECT b, count(*) FROM rj1 t1 (a, b) GROUP BY b ORDER BY b", "2|1\n3|1\n4|1\nNULL|1"),
            ("SELECT a FROM rj1 t1 (a, b, c, d)", "ERROR 42P10"),
            ("SELECT t1.i FROM rj1 t1 (a)", "ERROR 42703"),
        ],
    )
    .await;
}

/// A text cast to bytea is read as bytea's input; a timestamp in JSON is
/// ISO 8601's.
async fn text_reads_as_bytea_and_timestamps_as_json(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "",
        &[
            ("SELECT ('\\x' || '0102')::bytea, ('ab' || 'c')::bytea, ('a\\\\b\\001' || '')::bytea", "\\x0102|\\x616263|\\x615c6201"),
            ("SELECT ('\\x' || 'zz')::bytea", "ERROR 22023"),
            ("SELECT ('\\x' || '0')::bytea", "ERROR 22023"),
            ("SELECT ('\\q' || '')::bytea", "ERROR 22P02"),
            ("SELECT encode(('\\x' || repeat('00ff', 3))::bytea, 'base64')", "AP8A/wD/"),
            ("SELECT to_json(timestamp '2014-05-28 12:22:35.614298'), to_jsonb(timestamp '2014-05-28 12:22:35')", "\"2014-05-28T12:22:35.614298\"|\"2014-05-28T12:22:35\""),
            ("SELECT jsonb_build_object('t', timestamp '2020-01-01 00:00:00', 'd', date '2020-01-02')", "{\"d\": \"2020-01-02\", \"t\": \"2020-01-01T00:00:00\"}"),
            ("SELECT to_json(timestamptz '2014-05-28 12:22:35+00'), to_json(timestamp 'infinity')", "\"2014-05-28T12:22:35+00:00\"|\"infinity\""),
        ],
    )
    .await;
}

/// `ORDER BY x USING >` sorts by the type's greater-than: `DESC`.
async fn sort_operators_order_as_directions(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS so2; CREATE TABLE so2 (a int, b text); \
         INSERT INTO so2 VALUES (1, 'x'), (2, 'x'), (NULL, 'z')",
        &[
            (
                "SELECT a, b FROM so2 ORDER BY a USING >",
                "NULL|z\n2|x\n1|x",
            ),
            // With a literal elsewhere in the statement too.
            ("SELECT a FROM so2 WHERE a < 20 ORDER BY a USING >", "2\n1"),
            (
                "SELECT a, b FROM so2 ORDER BY b USING <, a USING >",
                "2|x\n1|x\nNULL|z",
            ),
            (
                "SELECT a FROM so2 ORDER BY a USING < NULLS FIRST",
                "NULL\n1\n2",
            ),
        ],
    )
    .await;
}

/// `to_char(number, format)`: PostgreSQL's numeric template patterns.
async fn numbers_formatted_by_template(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "",
        &[
            ("SELECT to_char(5, '999'), to_char(-5, 'FM999'), to_char(5, '099'), to_char(-5, '999S'), to_char(-5, '999PR')", "   5|-5| 005|  5-|  <5>"),
            ("SELECT to_char(0.5, '9.99'), to_char(-0.5, '0.99'), to_char(5, 'FM9.99'), to_char(0, 'FM9.99'), to_char(12, '9.99')", "  .50|-0.50|5.|0.| #.##"),
            ("SELECT to_char(1234.567, '9G999D99'), to_char(1234.567, 'FM9,999.00'), to_char(-1234.567, 'L9,999.99MI')", " 1,234.57|1,234.57| 1,234.57-"),
            ("SELECT to_char(12, '999th'), to_char(1, 'FM999TH'), to_char(5, '9V99'), to_char(1234, 'RN'), to_char(14, 'FMrn')", "  12th|1ST| 500|       MCCXXXIV|xiv"),
            ("SELECT to_char(1234.567, '9.99EEEE'), to_char(-0.001, '9.9EEEE'), to_char(4567890123456789::int8, 'SG9999999999999999th')", " 1.23e+03|-1.0e-03|+4567890123456789th"),
            ("SELECT to_char(0.125::float8, '9.99'), to_char(0.125::numeric, '9.99'), to_char(2.5::float4, '9')", "  .12|  .13| 2"),
            ("SELECT to_char(456::int8, E'99999 \"text\" 9999 \"\\\\\"q\\\\\"\" 9999'), to_char(-456, 'S 9 9 9 . 9')", "      text      \"q\"   456| -4 5 6 . 0"),
            ("SELECT to_char(12345, '999'), to_char(-12.5, 'FM999999990.00PR')", " ###|<12.50>"),
        ],
    )
    .await;
}

/// `to_date(text, format)` and `to_timestamp(text, format)`: the text read by
/// `to_char`'s template patterns.
async fn dates_read_by_template(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "SET TimeZone = 'UTC'",
        &[
            ("SELECT to_date('20100309', 'YYYYMMDD'), to_date('05 Dec 2000', 'DD Mon YYYY'), to_date('2024-1-5', 'YYYY-MM-DD')", "2010-03-09|2000-12-05|2024-01-05"),
            ("SELECT to_date('15/03/99', 'DD/MM/YY'), to_date('December 25, 2023', 'Month DD, YYYY'), to_date('2023 032', 'YYYY DDD')", "1999-03-15|2023-12-25|2023-02-01"),
            ("SELECT to_timestamp('2011-12-18 11:38 PM', 'YYYY-MM-DD HH12:MI PM'), to_timestamp('2011-12-18 23:38:15.25', 'YYYY-MM-DD HH24:MI:SS.MS')", "2011-12-18 23:38:00+00|2011-12-18 23:38:15.25+00"),
            ("SELECT to_timestamp('05 Dec 2000 08:00:00 +02', 'DD Mon YYYY HH24:MI:SS TZH'), to_timestamp('2000-01-01 12:00:00.123456', 'YYYY-MM-DD HH24:MI:SS.US')", "2000-12-05 06:00:00+00|2000-01-01 12:00:00.123456+00"),
            ("SELECT to_date('2024-02-30', 'YYYY-MM-DD')", "ERROR 22008"),
            ("SELECT to_date('2024-13-01', 'YYYY-MM-DD')", "ERROR 22008"),
            ("SELECT to_date('xx', 'YYYY')", "ERROR 22007"),
            ("SELECT to_timestamp('13:00 PM', 'HH12:MI PM')", "ERROR 22007"),
            ("SELECT to_date('2000JUN', 'YYYYMON'), to_date('1 1 1', 'D M Y')", "2000-06-01|2001-01-01"),
            (
                "SELECT concat(1, to_date('20100309','YYYYMMDD')), to_timestamp('2020', 'YYYY')",
                "12010-03-09|2020-01-01 00:00:00+00"
            ),
        ],
    )
    .await;
}

/// `random()` is a float8 in [0, 1), and after `setseed` the values are
/// PostgreSQL's own for that seed.
async fn random_values_repeat_for_a_seed(target: &Target) {
    let client = target.connect().await;
    let mut answers = Vec::new();
    for sql in [
        "SELECT setseed(0.5)",
        "SELECT random()",
        "SELECT random()",
        "SELECT setseed(-0.25)",
        "SELECT round(random()::numeric, 6)",
        "SELECT count(*) FROM generate_series(1, 1000) WHERE random() >= 0 AND random() < 1",
        "SELECT pg_typeof(random())",
        "SELECT setseed(2)",
    ] {
        answers.push(text_answer(&client, sql).await);
    }
    assert_eq!(
        answers,
        [
            "",
            "0.9851677175347999",
            "0.825301858027981",
            "",
            "0.555321",
            "1000",
            "double precision",
            "ERROR 22023"
        ]
    );
}

/// `IN`, `ANY` and `ALL` over a subquery: the values typed against its
/// columns, any operator, PostgreSQL's three-valued verdicts.
async fn values_compared_with_subqueries(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS qs_num; DROP TABLE IF EXISTS qs_text; \
         CREATE TABLE qs_num (q int8); CREATE TABLE qs_text (t text); \
         INSERT INTO qs_num VALUES (1), (2), (NULL); INSERT INTO qs_text VALUES ('1')",
        &[
            ("SELECT q FROM qs_num WHERE q IN (SELECT t FROM qs_text)", "ERROR 42883"),
            ("SELECT q FROM qs_num WHERE q = ANY (SELECT t FROM qs_text)", "ERROR 42883"),
            ("SELECT q FROM qs_num WHERE (q, q) IN (SELECT t, t FROM qs_text)", "ERROR 42883"),
            ("SELECT 1 = ANY (SELECT '1')", "ERROR 42883"),
            ("SELECT 1 IN (SELECT 1, 2)", "ERROR 42601"),
            ("SELECT (1, 2) IN (SELECT 1)", "ERROR 42601"),
            ("SELECT (1, 2) IN (SELECT 1, 2), 1 IN (SELECT '1'::int)", "t|t"),
            ("SELECT 3 > ALL (SELECT q FROM qs_num WHERE q IS NOT NULL), 2 > ALL (SELECT q FROM qs_num WHERE q IS NOT NULL)", "t|f"),
            ("SELECT 3 > ALL (SELECT q FROM qs_num), 0 > ALL (SELECT q FROM qs_num), 0 > ALL (SELECT 1 WHERE false)", "NULL|f|t"),
            ("SELECT 2 > ANY (SELECT q FROM qs_num), 0 > ANY (SELECT q FROM qs_num), 0 > ANY (SELECT 1 WHERE false)", "t|NULL|f"),
            ("SELECT 1 <> ALL (SELECT 2), 1 <> ALL (SELECT 1), 1 = SOME (SELECT 1), 'b' >= ALL (SELECT t FROM qs_text)", "t|f|t|t"),
            ("SELECT x, x < ALL (SELECT q FROM qs_num WHERE q > 0) FROM (VALUES (0), (1), (NULL::int)) v(x) ORDER BY x", "0|t\n1|f\nNULL|NULL"),
            ("SELECT 2 IN (SELECT generate_series(0, 1)), EXISTS (SELECT generate_series(0, 1))", "f|t"),
            ("SELECT 1 WHERE 2 > ALL (SELECT generate_series(0, 1))", "1"),
        ],
    )
    .await;
}

/// A recursive query reads itself only where PostgreSQL lets it, and keeps
/// its columns' types.
async fn recursive_queries_as_postgres_allows_them(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS rq_y; CREATE TABLE rq_y (a int); INSERT INTO rq_y SELECT generate_series(1, 5); \
         DROP VIEW IF EXISTS rq_nums; CREATE RECURSIVE VIEW rq_nums (n) AS VALUES (1) UNION ALL SELECT n + 1 FROM rq_nums WHERE n < 4",
        &[
            ("SELECT n, pg_typeof(n)::text FROM rq_nums ORDER BY n DESC LIMIT 2", "4|integer\n3|integer"),
            ("CREATE RECURSIVE VIEW rq_bad AS SELECT 1", "ERROR 42601"),
            ("WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n + 1 FROM rq_y LEFT JOIN x ON x.n = rq_y.a WHERE n < 5) SELECT * FROM x", "ERROR 42P19"),
            ("WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n + 1 FROM x RIGHT JOIN rq_y ON x.n = rq_y.a WHERE n < 5) SELECT * FROM x", "ERROR 42P19"),
            ("WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n + 1 FROM x FULL JOIN rq_y ON x.n = rq_y.a WHERE n < 5) SELECT * FROM x", "ERROR 42P19"),
            ("WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n + 1 FROM x LEFT JOIN rq_y ON x.n = rq_y.a WHERE n < 3) SELECT * FROM x", "1\n2\n3"),
            ("WITH RECURSIVE f(i) AS (SELECT 1 UNION ALL SELECT (i + 1)::numeric FROM f WHERE i < 3) SELECT * FROM f", "ERROR 42804"),
            ("WITH RECURSIVE f(i) AS (SELECT 1::int8 UNION ALL SELECT i + 1 FROM f WHERE i < 3) SELECT * FROM f", "1\n2\n3"),
            ("WITH RECURSIVE f(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM f ORDER BY 1) SELECT * FROM f", "ERROR 0A000"),
            ("WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n + 1 FROM rq_y JOIN (rq_y y2 LEFT JOIN x ON x.n = y2.a) ON true WHERE n < 3) SELECT count(*) FROM x", "ERROR 42P19"),
            ("WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + (SELECT count(*)::int FROM rq_y) FROM x WHERE n < 10) SELECT * FROM x", "1\n6\n11"),
            ("WITH RECURSIVE x(n) AS (SELECT 1::int8 UNION ALL SELECT count(*) FROM x) SELECT * FROM x", "ERROR 42P19"),
        ],
    )
    .await;
}

/// `||` with arrays: two arrays joined, an element added at either end (made
/// the element's type), and the functions it stands for.
async fn arrays_join_with_concatenation(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "SELECT 1",
        &[
            ("SELECT (array[1, 2] || array[3])::text, (array[1] || '{2,3}')::text, (0 || array[1])::text, (array['a'] || 'b'::text)::text", "{1,2,3}|{1,2,3}|{0,1}|{a,b}"),
            ("SELECT (array[1] || NULL)::text, (NULL::int[] || 1)::text, (array[1.5] || 2)::text, (array[1] || NULL::int)::text", "{1}|{1}|{1.5,2}|{1,NULL}"),
            ("SELECT array_cat(array[1], array[2])::text, array_append(array[1], 2)::text, array_prepend(0, array[1])::text", "{1,2}|{1,2}|{0,1}"),
            ("SELECT pg_typeof(array[1] || 2)::text", "integer[]"),
            ("SELECT array[1] || 'x'::text", "ERROR 42883"),
            ("WITH RECURSIVE t(id, path) AS (VALUES (1, ARRAY[]::integer[]) UNION ALL SELECT id + 1, path || (id + 1) FROM t WHERE id < 3) SELECT id, path::text, path[1] FROM t", "1|{}|NULL\n2|{2}|2\n3|{2,3}|2"),
            // `ARRAY(query)`: the query means what it means anywhere, ordered by its alias too.
            ("SELECT array(SELECT sum(x + y) s FROM generate_series(1, 3) y GROUP BY y ORDER BY s DESC)::text FROM generate_series(1, 2) x", "{4,3,2}\n{5,4,3}"),
            ("SELECT array(SELECT 'Ab' LIKE 'a%')::text, pg_typeof(array(SELECT 1.5::float8))::text", "{f}|double precision[]"),
            ("SELECT array(SELECT 1, 2)", "ERROR 42601"),
            // Booleans in arrays are `t` and `f`, read back as booleans.
            ("SELECT array[true, false]::text, (array[true, false])[1], (array[true, NULL])[2] IS NULL, true = ANY (array[false, true]), false = ANY (array[true])", "{t,f}|t|t|t|f"),
            ("SELECT array_agg(x ORDER BY x)::text, (array_agg(x ORDER BY x))[2] FROM (VALUES (true), (false)) v(x)", "{f,t}|t"),
        ],
    )
    .await;
}

/// `bytea` in the functions and operators that also take text: bytes
/// counted, cut and matched; bits and bytes read and set.
async fn bytea_functions_count_bytes(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS bytes_agg; CREATE TABLE bytes_agg (v bytea); \
         INSERT INTO bytes_agg VALUES ('\\xff'), (NULL), ('\\xaa')",
        &[
            ("SELECT SUBSTRING('1234567890'::bytea FROM 4 FOR 3), substr('string'::bytea, 2), SUBSTRING('string'::bytea FROM -10 FOR 12)", "\\x343536|\\x7472696e67|\\x73"),
            ("SELECT SUBSTRING('string'::bytea FROM 1 FOR -1)", "ERROR 22011"),
            ("SELECT trim('\\x00'::bytea FROM '\\x00546f6d00'::bytea), trim(LEADING '\\x00'::bytea FROM '\\x00546f6d00'::bytea), btrim('\\x0000'::bytea, '\\x00'::bytea), rtrim('\\x0061'::bytea, '\\x61'::bytea)", "\\x546f6d|\\x546f6d00|\\x|\\x00"),
            ("SELECT 'abc'::bytea LIKE '_b_'::bytea, 'abc'::bytea NOT LIKE '_b_', 'a_c'::bytea LIKE 'a$__'::bytea ESCAPE '$'::bytea, '\\xff61'::bytea LIKE '_a'", "t|f|t|t"),
            ("SELECT 'abc'::bytea LIKE 'a%'::text", "ERROR 42883"),
            ("SELECT get_bit('\\x1234567890abcdef00'::bytea, 43), set_bit('\\x1234567890abcdef00'::bytea, 43, 0), get_byte('\\x1234567890abcdef00'::bytea, 3), set_byte('\\x1234567890abcdef00'::bytea, 7, 11), bit_count('\\x1234567890'::bytea)", "1|\\x1234567890a3cdef00|120|\\x1234567890abcd0b00|15"),
            ("SELECT get_bit('\\x12'::bytea, 8)", "ERROR 2202E"),
            ("SELECT get_byte('\\x12'::bytea, 1)", "ERROR 2202E"),
            ("SELECT string_agg(v, '\\xee'), string_agg(v, NULL), string_agg(v, '') FILTER (WHERE false) FROM bytes_agg", "\\xffeeaa|\\xffaa|NULL"),
        ],
    )
    .await;
}

async fn sleeping_waits_until_told_otherwise(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "",
        &[
            ("SELECT pg_sleep(0.05) IS NULL", "f"),
            (
                "SELECT pg_sleep(0) IS NULL, pg_sleep(-1) IS NULL, pg_sleep(NULL) IS NULL",
                "f|f|t",
            ),
            ("SELECT pg_sleep_for('20 milliseconds') IS NULL", "f"),
            ("SELECT pg_sleep_for('nonsense')", "ERROR 22007"),
        ],
    )
    .await;
    // It waits as long as asked, and a timeout ends the wait.
    let started = std::time::Instant::now();
    client
        .simple_query("SELECT pg_sleep(0.2)")
        .await
        .expect("sleep");
    assert!(started.elapsed() >= std::time::Duration::from_millis(200));
    let started = std::time::Instant::now();
    let stopped = client
        .simple_query("SET statement_timeout = 100; SELECT pg_sleep(30)")
        .await
        .expect_err("the timeout ends the sleep");
    assert_eq!(error_answer(&stopped), "ERROR 57014");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

/// A relation's name where a value goes is its row: `record` text, a JSON
/// object (`row_to_json`, `to_json(b)`, `json_agg`), NULL where an outer join
/// found nothing.
async fn rows_read_whole_as_records_and_json(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS wr; CREATE TABLE wr (a int, b text, c bool, d int[], g bytea); \
         INSERT INTO wr VALUES (1, 'x y', true, '{1,2}', '\\x0102'), (2, NULL, false, NULL, NULL)",
        &[
            ("SELECT row(1)::text, row(a, 'b')::text, row_to_json(row(a, b)), row(1, 2) < row(1, 10), row(a, 'b') > row(1, 'a') FROM wr WHERE a = 1", "(1)|(1,b)|{\"f1\":1,\"f2\":\"x y\"}|t|t"),
            // A JSON column goes into the row's JSON as its text is.
            (
                "SELECT row_to_json(q) FROM (SELECT '{\"a\":1,\"b\": [2,3]}'::json AS j, \
                 '{\"b\": [2,3],  \"a\":1}'::jsonb AS k) q",
                "{\"j\":{\"a\":1,\"b\": [2,3]},\"k\":{\"a\": 1, \"b\": [2, 3]}}",
            ),
            // A row in a row is its own object.
            (
                "SELECT row_to_json(row(1, row(2, '{\"a\" :1}'::json))), to_json(row(1, row(2, 3)))",
                "{\"f1\":1,\"f2\":{\"f1\":2,\"f2\":{\"a\" :1}}}|{\"f1\":1,\"f2\":{\"f1\":2,\"f2\":3}}",
            ),
            ("SELECT wr::text FROM wr ORDER BY a", "(1,\"x y\",t,\"{1,2}\",\"\\\\x0102\")\n(2,,f,,)"),
            ("SELECT row_to_json(wr) FROM wr ORDER BY a", "{\"a\":1,\"b\":\"x y\",\"c\":true,\"d\":[1,2],\"g\":\"\\\\x0102\"}\n{\"a\":2,\"b\":null,\"c\":false,\"d\":null,\"g\":null}"),
            ("SELECT row_to_json(wr, true) FROM wr WHERE a = 2", "{\"a\":2,\n \"b\":null,\n \"c\":false,\n \"d\":null,\n \"g\":null}"),
            ("SELECT to_jsonb(w), to_json(w.*) FROM wr w WHERE a = 1", "{\"a\": 1, \"b\": \"x y\", \"c\": true, \"d\": [1, 2], \"g\": \"\\\\x0102\"}|{\"a\":1,\"b\":\"x y\",\"c\":true,\"d\":[1,2],\"g\":\"\\\\x0102\"}"),
            ("SELECT json_agg(q ORDER BY n DESC) FROM (SELECT a AS n, upper(b) AS \"B\" FROM wr) q", "[{\"n\":2,\"B\":null}, \n {\"n\":1,\"B\":\"X Y\"}]"),
            ("SELECT json_agg(v) FROM (VALUES (1, 'a'), (2, 'b')) v(n, s)", "[{\"n\":1,\"s\":\"a\"}, \n {\"n\":2,\"s\":\"b\"}]"),
            ("SELECT json_agg(a ORDER BY a), json_agg(d ORDER BY a), json_agg(d ORDER BY a DESC) FROM wr", "[1, 2]|[[1,2], null]|[null, \n [1,2]]"),
            ("SELECT t1.a, row_to_json(t2) FROM wr t1 LEFT JOIN wr t2 ON t2.a = t1.a + 1 ORDER BY 1", "1|{\"a\":2,\"b\":null,\"c\":false,\"d\":null,\"g\":null}\n2|NULL"),
            ("SELECT count(t2.*), count(*) FROM wr t1 LEFT JOIN wr t2 ON t2.a = t1.a + 1", "1|2"),
            ("SELECT (SELECT row_to_json(wr)) FROM wr ORDER BY a LIMIT 1", "{\"a\":1,\"b\":\"x y\",\"c\":true,\"d\":[1,2],\"g\":\"\\\\x0102\"}"),
            ("SELECT row_to_json(nope) FROM wr", "ERROR 42703"),
        ],
    )
    .await;
}

/// Arrays' shapes (of any dimension), their elements searched and replaced,
/// text split into one, and every comparison over an array's elements.
async fn arrays_measured_searched_and_compared(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "SELECT 1",
        &[
            ("SELECT cardinality(array[1, 2]), cardinality('{}'::int[]), cardinality(array[[1, 2], [3, 4]]), cardinality(NULL::int[])", "2|0|4|NULL"),
            ("SELECT array_ndims(array[[1], [2]]), array_dims(array[[1, 2, 3], [4, 5, 6]]), array_lower(array[1], 1), array_upper(array[[1, 2, 3], [4, 5, 6]], 2), array_length(array[[1, 2, 3], [4, 5, 6]], 1), array_length('{}'::int[], 1)", "2|[1:2][1:3]|1|3|2|NULL"),
            ("SELECT array[[1, 2], [3, 4]]::text, '{{a,b},{c,d}}'::text[]::text, array_fill(7, array[2, 3])::text", "{{1,2},{3,4}}|{{a,b},{c,d}}|{{7,7,7},{7,7,7}}"),
            ("SELECT array_position(array['a', 'b', NULL], NULL), array_position(array[1, 2, 1], 1, 2), array_positions(array[1, 2, 1], 1)::text, array_position(array[true, false], false)", "3|3|{1,3}|2"),
            ("SELECT array_replace(array[1, 2, 1], 1, 9)::text, trim_array(array[1, 2, 3], 1)::text, array_remove(array[true, false], true)::text", "{9,2,9}|{1,2}|{f}"),
            ("SELECT string_to_array('a,b,,c', ',', '')::text, string_to_array('abc', NULL)::text, string_to_array('', ',')::text, string_to_array('a b', '')::text", "{a,b,NULL,c}|{a,b,c}|{}|{\"a b\"}"),
            ("SELECT pg_typeof(cardinality(array[1]))::text, pg_typeof(array_positions(array[1], 1))::text, pg_typeof(string_to_array('a', ','))::text", "integer|integer[]|text[]"),
            ("SELECT trim_array(array[1, 2], 3)", "ERROR 2202E"),
            ("SELECT array[[1, 2], [3]]", "ERROR 2202E"),
            ("SELECT 3 = ALL (array[3, 3]), 3 = ALL (array[3, 4]), 3 < ANY (array[1, 5]), 3 <> ALL (array[1, 2]), 3 = ALL (NULL::int[]), 3 = ALL ('{}'::int[])", "t|f|t|t|NULL|t"),
            ("SELECT 3 = ALL (array[3, NULL]), 2 = ALL (array[3, NULL]), 3 > ANY (array[5, NULL])", "NULL|f|NULL"),
            ("SELECT 'abc' LIKE ANY (array['a%', 'x%']), 'abc' ILIKE ANY (array['A%']), 'abc' NOT LIKE ANY (array['a%'])", "t|t|f"),
            ("SELECT array[true, false]::text, array_to_string(array[true, false], '-'), format('%s %s', VARIADIC array[true, false])", "{t,f}|t-f|t f"),
        ],
    )
    .await;
}

/// `num_nulls`, encodings (`convert_to`, `convert_from`, `bit_length`),
/// `factorial` to any size, and the clock (`timeofday`, `LOCALTIMESTAMP`).
async fn nulls_counted_text_converted_and_clocks_read(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "SELECT 1",
        &[
            ("SELECT num_nulls(1, NULL, 'a', NULL), num_nonnulls(1, NULL), bit_length('é'), bit_length('\\x0102'::bytea)", "2|1|16|16"),
            ("SELECT convert_to('é', 'UTF8'), convert_to('é', 'LATIN1'), convert_from('\\xc3a9'::bytea, 'utf8'), convert_from('\\xe9'::bytea, 'latin1')", "\\xc3a9|\\xe9|é|é"),
            ("SELECT factorial(0), factorial(20), factorial(30)", "1|2432902008176640000|265252859812191058636308480000000"),
            ("SELECT factorial(-1)", "ERROR 22003"),
            ("SELECT convert_from('\\xff'::bytea, 'UTF8')", "ERROR 22021"),
            ("SELECT convert_to('a', 'nope')", "ERROR 22023"),
            ("SELECT timeofday() LIKE '___ ___ __ __:__:__.______ ____ UTC', pg_typeof(timeofday())::text", "t|text"),
            ("SELECT LOCALTIMESTAMP <= now()::timestamp + interval '1 second', LOCALTIMESTAMP > now()::timestamp - interval '1 minute', pg_typeof(LOCALTIMESTAMP)::text, pg_typeof(LOCALTIME)::text", "t|t|timestamp without time zone|time without time zone"),
        ],
    )
    .await;
}

/// `json_object` of text arrays, `json_object_agg` in `json`'s spacing,
/// `jsonb_pretty` and `jsonb_insert`.
async fn json_objects_built_pretty_printed_and_inserted_into(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "SELECT 1",
        &[
            ("SELECT json_object('{a,1,b,2}'), json_object('{{a,1},{b,NULL}}'), json_object('{a,b}', '{1,2}'), jsonb_object('{b,1,a,2}'), json_object('{}')", "{\"a\" : \"1\", \"b\" : \"2\"}|{\"a\" : \"1\", \"b\" : null}|{\"a\" : \"1\", \"b\" : \"2\"}|{\"a\": \"2\", \"b\": \"1\"}|{}"),
            ("SELECT json_object_agg(k, v ORDER BY k DESC) FROM (VALUES ('a', array[1, 2]), ('b', NULL)) t(k, v)", "{ \"b\" : null, \"a\" : [1,2] }"),
            ("SELECT json_object('{a,1,b}')", "ERROR 2202E"),
            ("SELECT json_object('{NULL,1}')", "ERROR 22004"),
            ("SELECT json_object_agg(k, v) FROM (VALUES (NULL::text, 1)) t(k, v)", "ERROR 22023"),
            ("SELECT jsonb_pretty('{\"b\": [1, {}], \"a\": []}')", "{\n    \"a\": [\n    ],\n    \"b\": [\n        1,\n        {\n        }\n    ]\n}"),
            ("SELECT jsonb_insert('[1,2]', '{1}', '9'), jsonb_insert('[1,2]', '{1}', '9', true), jsonb_insert('{\"a\":[1]}', '{a,0}', '0'), jsonb_insert('{\"a\":1}', '{b}', '2'), jsonb_insert('[1,2]', '{9}', '9')", "[1, 9, 2]|[1, 2, 9]|{\"a\": [0, 1]}|{\"a\": 1, \"b\": 2}|[1, 2, 9]"),
            ("SELECT jsonb_insert('{\"a\":1}', '{a}', '2')", "ERROR 22023"),
            // Records out of JSON, their columns named and typed by a definition list.
            ("SELECT a, b, c, z FROM jsonb_to_record('{\"a\": 1, \"b\": \"x\", \"c\": [1, 2]}') AS x (a int, b text, c jsonb, z text)", "1|x|[1, 2]|NULL"),
            ("SELECT * FROM jsonb_to_recordset('[{\"a\": 1, \"b\": \"x\"}, {\"a\": 2}]') AS x (a int, b text)", "1|x\n2|NULL"),
            ("SELECT v.n, r.k FROM (VALUES (1, '{\"k\": \"one\"}'::jsonb)) v (n, d), json_to_record(v.d::json) r (k text)", "1|one"),
            ("SELECT * FROM jsonb_to_record('{\"a\": \"x\"}') AS x (a int)", "ERROR 22P02"),
        ],
    )
    .await;
}

/// A session's `TimeZone`: a timestamptz shown, split, truncated and
/// converted on its clock, local times (input without an offset, a date or a
/// timestamp cast, `make_timestamptz`) read as the moments they name there,
/// days added across a daylight-saving change; the moment itself, which the
/// binary format sends, unchanged.
async fn time_zones_show_and_read_local_times(target: &Target) {
    let client = target.connect().await;
    let cases: &[Case] = &[
        ("SHOW TimeZone", "America/New_York"),
        ("SELECT timeofday() ~ ' E[DS]T$'", "t"),
        (
            "SELECT timestamptz '2024-05-06 07:08:09+00', timestamptz '2024-01-06 07:08:09'",
            "2024-05-06 03:08:09-04|2024-01-06 07:08:09-05",
        ),
        // A skipped local time reads with the offset before the change, a
        // repeated one with the offset after it.
        (
            "SELECT timestamptz '2024-03-10 02:30', timestamptz '2024-11-03 01:30'",
            "2024-03-10 03:30:00-04|2024-11-03 01:30:00-05",
        ),
        (
            "SELECT t::date, t::time, t::timestamp, t::text, extract(hour from t), extract(timezone from t), date_trunc('day', t), to_char(t, 'HH24:MI TZ OF') FROM (SELECT timestamptz '2024-05-07 01:00+00' AS t) s",
            "2024-05-06|21:00:00|2024-05-06 21:00:00|2024-05-06 21:00:00-04|21|-14400|2024-05-06 00:00:00-04|21:00 EDT -04",
        ),
        (
            "SELECT timestamptz '2024-05-06 07:08:09+00' AT TIME ZONE 'Europe/Paris', timestamp '2024-05-06 07:08:09' AT TIME ZONE 'PST', timestamptz '2024-05-06 07:08:09+00' AT TIME ZONE INTERVAL '05:30'",
            "2024-05-06 09:08:09|2024-05-06 11:08:09-04|2024-05-06 12:38:09",
        ),
        (
            "SELECT z, timestamptz '2024-05-06 07:08:09+00' AT TIME ZONE z FROM (VALUES ('Asia/Tokyo'), ('utc'), ('EST5EDT')) v(z)",
            "Asia/Tokyo|2024-05-06 16:08:09\nutc|2024-05-06 07:08:09\nEST5EDT|2024-05-06 03:08:09",
        ),
        (
            "SELECT timestamptz '2024-03-09 12:00' + interval '1 day', timestamptz '2024-03-09 12:00' + interval '24 hours', timestamptz '2024-01-31 12:00' + interval '1 month'",
            "2024-03-10 12:00:00-04|2024-03-10 13:00:00-04|2024-02-29 12:00:00-05",
        ),
        (
            "SELECT date '2024-05-06'::timestamptz, timestamp '2024-05-06 10:00'::timestamptz, make_timestamptz(2024, 5, 6, 7, 8, 9), make_timestamptz(2024, 5, 6, 7, 8, 9, 'UTC')",
            "2024-05-06 00:00:00-04|2024-05-06 10:00:00-04|2024-05-06 07:08:09-04|2024-05-06 03:08:09-04",
        ),
        (
            "SELECT to_json(timestamptz '2024-05-06 23:00+00'), '2024-05-06 07:08:09 PST'::timestamptz, '2024-05-06 07:08:09 Europe/Paris'::timestamptz",
            "\"2024-05-06T19:00:00-04:00\"|2024-05-06 11:08:09-04|2024-05-06 01:08:09-04",
        ),
        (
            "SELECT to_timestamp('2024-05-06 07:08', 'YYYY-MM-DD HH24:MI'), 'epoch'::timestamptz, 'epoch'::timestamp",
            "2024-05-06 07:08:00-04|1969-12-31 19:00:00-05|1970-01-01 00:00:00",
        ),
        (
            "SELECT current_date = (now() AT TIME ZONE 'America/New_York')::date, localtimestamp - (now() AT TIME ZONE 'America/New_York') < interval '1 second'",
            "t|t",
        ),
        (
            "SELECT timestamptz '2024-05-06 07:08:09+00' = timestamp '2024-05-06 03:08:09', timestamp '2024-05-06 10:00'::date = date '2024-05-06'",
            "t|t",
        ),
        (
            "SELECT timezone('Europe/Paris', timestamptz '2024-05-06 07:08:09+00'), timestamptz '2024-05-06 12:00+00' - date '2024-05-06', date '2024-05-06' + time '10:00', timestamp '2024-05-06 10:00' - timestamptz '2024-05-06 10:00+00'",
            "2024-05-06 09:08:09|08:00:00|2024-05-06 10:00:00|04:00:00",
        ),
        (
            "SELECT name, abbrev, utc_offset, is_dst FROM pg_timezone_names WHERE name IN ('Asia/Kolkata', 'Asia/Kathmandu') ORDER BY name",
            "Asia/Kathmandu|+0545|05:45:00|f\nAsia/Kolkata|IST|05:30:00|f",
        ),
        (
            "SELECT abbrev, utc_offset, is_dst FROM pg_timezone_abbrevs WHERE abbrev IN ('PST', 'CEST', 'NPT') ORDER BY abbrev",
            "CEST|02:00:00|t\nNPT|05:45:00|f\nPST|-08:00:00|f",
        ),
        (
            "SELECT timestamptz '2024-05-06 07:08:09+00' AT TIME ZONE 'Mars/Olympus'",
            "ERROR 22023",
        ),
        ("SET TimeZone = 'Mars/Olympus'", "ERROR 22023"),
    ];
    client
        .batch_execute("SET TimeZone = 'america/new_york'")
        .await
        .unwrap();
    let mut wrong = Vec::new();
    for (sql, expected) in cases {
        let text = text_answer(&client, sql).await;
        if text != *expected {
            wrong.push(format!("{sql}\n  text:   {text}\n  wanted: {expected}"));
        }
    }
    // The binary format sends the moment, whatever the zone.
    let binary = binary_answer(&client, "SELECT timestamptz '2024-05-06 03:08:09-04'").await;
    if binary != "2024-05-06 07:08:09+00" {
        wrong.push(format!("binary: {binary}"));
    }
    for (set, shown, moment) in [
        ("SET TIME ZONE -5", "<-05>+05", "2024-05-06 02:08:09-05"),
        (
            "SET TIME ZONE 5.5",
            "<+05:30>-05:30",
            "2024-05-06 12:38:09+05:30",
        ),
        (
            "SET TIME ZONE INTERVAL '-08:00' HOUR TO MINUTE",
            "<-08>+08",
            "2024-05-05 23:08:09-08",
        ),
        ("SET TimeZone = 'UTC+3'", "UTC+3", "2024-05-06 04:08:09-03"),
        (
            "SET TIME ZONE 'Asia/Kolkata'",
            "Asia/Kolkata",
            "2024-05-06 12:38:09+05:30",
        ),
    ] {
        client.batch_execute(set).await.unwrap();
        let sql = "SHOW TimeZone; SELECT timestamptz '2024-05-06 07:08:09+00'";
        let answer = text_answer(&client, sql).await;
        if answer != format!("{shown}\n{moment}") {
            wrong.push(format!("{set}: {answer}, wanted {shown} {moment}"));
        }
    }
    // A zone asked for at startup; one that names none refuses the connection.
    for (zone, answer) in [("Asia/Tokyo", Ok("Asia/Tokyo")), ("Nowhere", Err("22023"))] {
        let conninfo = format!("{} options='-c TimeZone={zone}'", target.conninfo());
        match tokio_postgres::connect(&conninfo, tokio_postgres::NoTls).await {
            Ok((client, connection)) => {
                tokio::spawn(connection);
                let shown = text_answer(&client, "SHOW TimeZone").await;
                if Ok(shown.as_str()) != answer {
                    wrong.push(format!("startup {zone}: {shown}"));
                }
            }
            Err(e) => {
                let code = e.code().map(|c| c.code().to_owned()).unwrap_or_default();
                if Err(code.as_str()) != answer {
                    wrong.push(format!("startup {zone}: {e}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The built-in functions litewire answers are `pg_proc`'s rows as
/// PostgreSQL has them: oid, kind, types, signature, description, and
/// `pg_aggregate`'s kind for an aggregate; psql's `\\df` and `\\da` show them.
async fn built_in_functions_listed_as_postgres_lists_them(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "",
        &[
            (
                "SELECT p.oid::text, p.proname::text, p.prokind::text, p.proretset, p.provolatile::text, \
                 p.pronargs::int4, p.prorettype::regtype::text, p.proargtypes::text, \
                 pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), \
                 obj_description(p.oid, 'pg_proc') FROM pg_proc p \
                 WHERE p.proname IN ('jsonb_set', 'split_part', 'percentile_cont', 'generate_series') \
                 AND p.proargtypes::text IN ('3802 1009 3802 16', '25 25 23', '701 701', '20 20') ORDER BY p.oid",
                "1069|generate_series|f|t|i|2|bigint|20 20|bigint, bigint|SETOF bigint|non-persistent series generator\n\
                 2088|split_part|f|f|i|3|text|25 25 23|text, text, integer|text|split string by field_sep and return field_num\n\
                 3305|jsonb_set|f|f|i|4|jsonb|3802 1009 3802 16|jsonb_in jsonb, path text[], replacement jsonb, create_if_missing boolean DEFAULT true|jsonb|Set part of a jsonb\n\
                 3974|percentile_cont|a|f|i|2|double precision|701 701|double precision ORDER BY double precision|double precision|continuous distribution percentile",
            ),
            (
                "SELECT p.proname::text, a.aggkind::text, a.aggnumdirectargs::int4 FROM pg_aggregate a \
                 JOIN pg_proc p ON p.oid = a.aggfnoid WHERE p.proname IN ('count', 'mode', 'rank') ORDER BY a.aggfnoid::int4",
                "count|n|0\ncount|n|0\nmode|o|0\nrank|h|1",
            ),
            (
                "SELECT to_regproc('split_part')::int4, to_regproc('no_such_function') IS NULL, \
                 (SELECT count(*) FROM pg_proc WHERE proname = 'lower' AND proargtypes = '25')::int4",
                "2088|t|1",
            ),
            (
                "SELECT obj_description(2200, 'pg_namespace'), obj_description(2088, 'pg_class') IS NULL",
                "standard public schema|t",
            ),
        ],
    )
    .await;
    assert_eq!(
        target.psql("\\df split_part"),
        "                            List of functions
   Schema   |    Name    | Result data type | Argument data types | Type 
------------+------------+------------------+---------------------+------
 pg_catalog | split_part | text             | text, text, integer | func
(1 row)

"
    );
    assert_eq!(
        target.psql("\\da string_agg"),
        "                                         List of aggregate functions
   Schema   |    Name    | Result data type | Argument data types |                Description                
------------+------------+------------------+---------------------+-------------------------------------------
 pg_catalog | string_agg | bytea            | bytea, bytea        | concatenate aggregate input into a bytea
 pg_catalog | string_agg | text             | text, text          | concatenate aggregate input into a string
(2 rows)

"
    );
}

/// A numeric shows the digits PostgreSQL keeps with it where the statement
/// fixes them: a literal's, a `numeric(p, s)` column's or cast's,
/// arithmetic's over those, `round(x, n)`'s, a division's (at least 16
/// significant digits); in text, in `||` and in `RETURNING` too; and what
/// shows them still compares and sorts as a number.
async fn numerics_show_the_digits_their_scale_fixes(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS ns; CREATE TABLE ns (a numeric(8,2), b numeric(8,3), c int); \
         INSERT INTO ns VALUES (1.5, 2.25, 3), (2, 0.5, -1); \
         DROP TABLE IF EXISTS dv; CREATE TABLE dv (a numeric(8,2), c int, d numeric); \
         INSERT INTO dv VALUES (10, 3, 2.5), (1.5, 7, 4)",
        &[
            (
                "SELECT 1.10, 0.1 + 0.2, 2.50 * 2, -1.50, 1.50 - 0.5, 1.5e-3, 5::numeric, \
                 7::numeric(5,1), '1.50'::numeric(6,3)",
                "1.10|0.3|5.00|-1.50|1.00|0.0015|5|7.0|1.500",
            ),
            (
                "SELECT a + b, a * b, a * c, a - c, b % a, -a, a / 4 > 0.3 FROM ns ORDER BY c",
                "2.500|1.00000|-2.00|3.00|0.500|-2.00|t\n3.750|3.37500|4.50|-1.50|0.750|-1.50|t",
            ),
            (
                "SELECT sum(a), max(a * 2), min(b), sum(a * c), avg(a) FROM ns",
                "3.50|4.00|0.500|2.50|1.7500000000000000",
            ),
            (
                "SELECT round(19.995, 2), round(5, 2), round(-0.001, 2), round(155.5, -1), \
                 trunc(2.789, 2), round(2.5), ceil(1.5), floor(-1.5)",
                "20.00|5.00|0.00|160|2.78|3|2|-2",
            ),
            (
                "SELECT a::text, 'x' || a, (a * 2)::varchar(10), length((a * b)::text) FROM ns ORDER BY c",
                "2.00|x2.00|4.00|7\n1.50|x1.50|3.00|7",
            ),
            ("SELECT a * 2 AS d FROM ns ORDER BY d DESC", "4.00\n3.00"),
            (
                "SELECT round(b, 1) AS r FROM ns WHERE round(b, 1) > 0.4 ORDER BY 1",
                "0.5\n2.3",
            ),
            (
                "SELECT CASE WHEN c > 0 THEN a END, coalesce(NULL, a), nullif(a, 2.00), abs(-a) \
                 FROM ns ORDER BY c",
                "NULL|2.00|NULL|2.00\n1.50|1.50|1.50|1.50",
            ),
            (
                "UPDATE ns SET c = c WHERE c = 3 RETURNING a * 2, b + 1",
                "3.00|3.250",
            ),
            (
                "SELECT s.x FROM (SELECT a * 3 AS x FROM ns) s ORDER BY 1",
                "4.50\n6.00",
            ),
            // A division keeps at least 16 significant digits.
            (
                "SELECT 7.0 / 2, 10 / 4.0, 1 / 3.0, 1.0 / 30000, 123456.0 / 7, -7.0 / 2, 0 / 2.5",
                "3.5000000000000000|2.5000000000000000|0.33333333333333333333|\
                 0.000033333333333333333333|17636.571428571429|-3.5000000000000000|0.00000000000000000000",
            ),
            (
                "SELECT a / c, c / a, sum(a) / sum(c) FROM ns GROUP BY a, c ORDER BY c",
                "-2.0000000000000000|-0.50000000000000000000|-2.0000000000000000\n\
                 0.50000000000000000000|2.0000000000000000|0.50000000000000000000",
            ),
            (
                "SELECT 7.0 / 2 > 3.4, round(7.0 / 3, 2), count(*) * 100.0 / 7 FROM ns",
                "t|2.33|28.5714285714285714",
            ),
            (
                "SELECT x / 3.0 AS r FROM (VALUES (1), (10), (2)) v(x) ORDER BY r",
                "0.33333333333333333333\n0.66666666666666666667\n3.3333333333333333",
            ),
            ("SELECT 1.0 / 0", "ERROR 22012"),
            // Arithmetic on a value whose digits it decided keeps them.
            (
                "SELECT (7.0 / 2) * 2, avg(x) * 2, avg(x) + 0.5, round(1.234, 2) + 1, \
                 round(1.234, 2) * 1.5, avg(x) / 2, avg(x) * 2 > 4 FROM (VALUES (1), (2), (4)) v(x)",
                "7.0000000000000000|4.6666666666666666|2.8333333333333333|2.23|1.845|\
                 1.16666666666666665000|t",
            ),
            // Compared with every digit: 6.9999999999999999 is no 7.
            (
                "SELECT 1 BETWEEN 0.5 AND avg(x), 3 NOT BETWEEN avg(x) AND 4, avg(x) * 3 = 7, \
                 avg(x) * 3 < 7 FROM (VALUES (1), (2), (4)) v(x)",
                "t|f|f|t",
            ),
            (
                "SELECT scale(1.50), scale(2), scale(1.5e-3), min_scale(1.500), trim_scale(1.500), \
                 trim_scale(2.0), scale(NULL::numeric), scale(7.0 / 2), min_scale(7.0 / 2), \
                 trim_scale(100.00)",
                "2|0|4|1|1.5|2|NULL|16|1|100",
            ),
            (
                "SELECT scale(a), scale(d), min_scale(a), trim_scale(a) FROM dv ORDER BY c",
                "2|1|0|10\n2|0|1|1.5",
            ),
            // An unconstrained column's value has its own digits.
            (
                "SELECT a / d, c / d FROM dv ORDER BY c",
                "4.0000000000000000|1.2000000000000000\n0.37500000000000000000|1.7500000000000000",
            ),
        ],
    )
    .await;
}

/// `time - time` is the interval between; `time ± interval` moves around the
/// clock by the interval's time part.
async fn times_of_day_move_by_intervals(target: &Target) {
    let client = target.connect().await;
    check(
        &client,
        "DROP TABLE IF EXISTS shifts; CREATE TABLE shifts (s time, e time); \
         INSERT INTO shifts VALUES ('09:00', '17:30'), ('22:00', '06:00'), (NULL, '01:00')",
        &[
            (
                "SELECT time '10:00' - time '08:30', time '08:30' - time '10:00', \
                 time '23:59:59.5' - time '00:00', pg_typeof(time '10:00' - time '08:30')::text",
                "01:30:00|-01:30:00|23:59:59.5|interval",
            ),
            (
                "SELECT time '10:00' + interval '90 minutes', time '10:00' - interval '11 hours', \
                 interval '1 hour' + time '23:30', time '10:00' + interval '1 day 2 hours', \
                 time '10:00:00.25' + interval '0.5 second', time '10:00' - interval '1 month'",
                "11:30:00|23:00:00|00:30:00|12:00:00|10:00:00.75|10:00:00",
            ),
            (
                "SELECT pg_typeof(time '10:00' + interval '1 hour')::text, \
                 time '10:00' + interval '1 hour' > time '10:30'",
                "time without time zone|t",
            ),
            (
                "SELECT e - s, s + interval '8 hours', (e - s) > interval '8 hours' FROM shifts \
                 ORDER BY s NULLS LAST",
                "08:30:00|17:00:00|t\n-16:00:00|06:00:00|f\nNULL|NULL|NULL",
            ),
        ],
    )
    .await;
}
