//! Bounded fuzzing inside `cargo test`: the decoders that read what clients send
//! (PostgreSQL frames and pgwire's message decoder behind them, the HTTP body, the
//! SQL translation, COPY data) get many inputs built from valid ones, mutated, and
//! must answer every one without panicking. The generator is seeded, so a failure
//! names the case that reproduces it; each crasher found is kept below as a
//! regression test.

use std::panic::{AssertUnwindSafe, catch_unwind};

use bytes::BytesMut;
use pgwire::messages::{DecodeContext, PgWireFrontendMessage, ProtocolVersion};

use crate::pg::frames::{Phase, check};

/// Cases per decoder: enough to reach the corners, few enough for every run.
const CASES: u64 = 3000;

/// xorshift64*: small, seeded, and good enough to pick bytes.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn bytes(&mut self, max: usize) -> Vec<u8> {
        (0..self.below(max + 1))
            .map(|_| self.next() as u8)
            .collect()
    }

    /// Damages `data` a few times: flipped, inserted, removed bytes, a cut.
    fn mutate(&mut self, data: &mut Vec<u8>) {
        for _ in 0..self.below(4) {
            match self.below(5) {
                0 if !data.is_empty() => {
                    let at = self.below(data.len());
                    data[at] = self.next() as u8;
                }
                1 => {
                    let at = self.below(data.len() + 1);
                    data.insert(at, self.next() as u8);
                }
                2 if !data.is_empty() => {
                    let at = self.below(data.len());
                    data.remove(at);
                }
                3 => {
                    let at = self.below(data.len() + 1);
                    data.truncate(at);
                }
                _ => {}
            }
        }
    }
}

/// Runs `body` on each case, naming the case that panicked.
fn each_case(name: &str, mut body: impl FnMut(&mut Rng)) {
    for case in 0..CASES {
        let mut rng = Rng::new(case + 1);
        if catch_unwind(AssertUnwindSafe(|| body(&mut rng))).is_err() {
            panic!("{name}: case {case} panicked");
        }
    }
}

fn frame(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    out.extend_from_slice(&(body.len() as i32 + 4).to_be_bytes());
    out.extend_from_slice(body);
    out
}

fn cstring(rng: &mut Rng, out: &mut Vec<u8>) {
    out.extend(rng.bytes(12).into_iter().map(|b| b.max(1)));
    out.push(0);
}

/// A well-formed frontend message of a random kind.
fn valid_message(rng: &mut Rng) -> Vec<u8> {
    let mut body = Vec::new();
    let tag = *rng.pick(b"QPBEDCSHdcfX");
    match tag {
        b'Q' | b'f' => cstring(rng, &mut body),
        b'P' => {
            cstring(rng, &mut body);
            cstring(rng, &mut body);
            let n = rng.below(4) as i16;
            body.extend_from_slice(&n.to_be_bytes());
            for _ in 0..n {
                body.extend_from_slice(&(rng.next() as i32).to_be_bytes());
            }
        }
        b'B' => {
            cstring(rng, &mut body);
            cstring(rng, &mut body);
            for _ in 0..2 {
                let n = rng.below(4) as i16;
                body.extend_from_slice(&n.to_be_bytes());
                for _ in 0..n {
                    body.extend_from_slice(&(rng.below(3) as i16).to_be_bytes());
                }
                if body.len() > 100 {
                    break;
                }
                let values = rng.below(4) as i16;
                body.extend_from_slice(&values.to_be_bytes());
                for _ in 0..values {
                    if rng.below(4) == 0 {
                        body.extend_from_slice(&(-1_i32).to_be_bytes());
                    } else {
                        let value = rng.bytes(8);
                        body.extend_from_slice(&(value.len() as i32).to_be_bytes());
                        body.extend_from_slice(&value);
                    }
                }
            }
        }
        b'E' => {
            cstring(rng, &mut body);
            body.extend_from_slice(&(rng.next() as i32).to_be_bytes());
        }
        b'D' | b'C' => {
            body.push(*rng.pick(b"SP"));
            cstring(rng, &mut body);
        }
        b'd' => body = rng.bytes(20),
        _ => {}
    }
    frame(tag, &body)
}

/// Whatever the frame check lets through, pgwire decodes without panicking.
fn decode_checked(stream: &[u8], mut phase: Phase) {
    let mut offset = 0;
    while let Ok(Some(length)) = check(&stream[offset..], &mut phase, 1 << 20) {
        let mut context = DecodeContext::new(ProtocolVersion::default());
        let mut buf = BytesMut::from(&stream[offset..offset + length]);
        if phase != Phase::Messages || offset > 0 {
            context.awaiting_frontend_ssl = false;
            context.awaiting_frontend_startup = phase != Phase::Messages;
        }
        let _ = PgWireFrontendMessage::decode(&mut buf, &context);
        offset += length;
    }
}

#[test]
fn frames_that_pass_the_check_never_panic_the_decoder() {
    each_case("frames", |rng| {
        let mut stream = Vec::new();
        for _ in 0..=rng.below(3) {
            stream.extend(valid_message(rng));
        }
        rng.mutate(&mut stream);
        decode_checked(&stream, Phase::Messages);
    });
}

#[test]
fn startup_packets_that_pass_the_check_never_panic_the_decoder() {
    each_case("startup", |rng| {
        let mut body = match rng.below(3) {
            0 => 80_877_102_i32.to_be_bytes().to_vec(),
            1 => 80_877_103_i32.to_be_bytes().to_vec(),
            _ => 196_608_i32.to_be_bytes().to_vec(),
        };
        for _ in 0..rng.below(4) {
            cstring(rng, &mut body);
        }
        body.push(0);
        let mut packet = (body.len() as i32 + 4).to_be_bytes().to_vec();
        packet.extend(body);
        rng.mutate(&mut packet);
        let mut phase = Phase::Startup;
        if let Ok(Some(length)) = check(&packet, &mut phase, 1 << 20) {
            let mut context = DecodeContext::new(ProtocolVersion::default());
            context.awaiting_frontend_ssl = false;
            let _ = PgWireFrontendMessage::decode(&mut BytesMut::from(&packet[..length]), &context);
        }
    });
}

const SQL_WORDS: &[&str] = &[
    "SELECT",
    "INSERT",
    "INTO",
    "VALUES",
    "UPDATE",
    "SET",
    "DELETE",
    "FROM",
    "WHERE",
    "CREATE",
    "TABLE",
    "serial",
    "int",
    "text",
    "::",
    "CAST",
    "(",
    ")",
    ",",
    ";",
    "'a''b'",
    "E'\\n'",
    "$$x$$",
    "$1",
    "$2",
    "?",
    ":name",
    "ILIKE",
    "~",
    "ARRAY[",
    "]",
    "= ANY(",
    "now()",
    "COPY",
    "TO",
    "STDIN",
    "STDOUT",
    "WITH",
    "(FORMAT csv",
    "HEADER",
    "BEGIN",
    "COMMIT",
    "SHOW",
    "RESET",
    "DISCARD",
    "ALL",
    "t",
    "\"q\"\"x\"",
    "1",
    "1.5e3",
    "NULL",
    "--",
    "/*",
    "*/",
    "public.",
    "pg_catalog.",
    "RETURNING",
    "*",
    "ON CONFLICT",
    "DO",
    "NOTHING",
    "\\",
    "'",
    "\"",
    "$",
    "GENERATED",
    "ALWAYS",
    "AS",
    "IDENTITY",
    "set_config(",
    "current_setting(",
    "CASE",
    "WHEN",
    "THEN",
    "END",
    "coalesce(",
    "||",
    "=",
    "+",
    "IN (",
    "BETWEEN",
    "AND",
    "LIMIT",
    "[]",
    "(SELECT",
    "$99999",
];

#[test]
fn sql_translation_never_panics() {
    each_case("sql", |rng| {
        let mut sql = String::new();
        for _ in 0..rng.below(24) {
            let word: &&str = rng.pick(SQL_WORDS);
            sql.push_str(word);
            sql.push(*rng.pick(&[' ', ' ', '\n', '\t']));
        }
        let mut bytes = sql.into_bytes();
        rng.mutate(&mut bytes);
        let sql = String::from_utf8_lossy(&bytes);
        if let Ok(statements) = crate::sql::parse_batch(&sql) {
            // What Describe infers parameter types from.
            for statement in statements {
                let _ = crate::sql::param_hints(&sql, &statement.sql, statement.param_count);
            }
        }
        let _ = crate::sql::parse_single(&sql);
    });
}

const JSON_PARTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"statements\"",
    "\"q\"",
    "\"params\"",
    "\"SELECT 1\"",
    "\"SELECT ?\"",
    "\"SELECT :a\"",
    "\"a\"",
    "\":a\"",
    "1",
    "-1.5",
    "1e400",
    "null",
    "true",
    "{\"base64\": \"AAE=\"}",
    "{\"base64\": \"!\"}",
    "\"\\u0000\"",
    "\"\"",
    "\"COPY t TO STDOUT\"",
];

#[test]
fn http_bodies_never_panic_the_decoder() {
    each_case("http", |rng| {
        let mut body = String::from("{\"statements\": [");
        for _ in 0..rng.below(12) {
            let part: &&str = rng.pick(JSON_PARTS);
            body.push_str(part);
        }
        let mut bytes = body.into_bytes();
        rng.mutate(&mut bytes);
        let _ = crate::http::request::parse(&bytes);
    });
}

#[test]
fn copy_data_never_panics_the_decoder() {
    let types = [
        "integer",
        "text",
        "boolean",
        "numeric(10,2)",
        "bytea",
        "timestamptz",
        "uuid",
    ];
    let columns: Vec<crate::engine::Column> = types
        .iter()
        .enumerate()
        .map(|(i, decltype)| crate::engine::Column {
            name: format!("c{i}"),
            decltype: Some(std::sync::Arc::from(*decltype)),
            storage: None,
        })
        .collect();
    let specs: Vec<std::sync::Arc<crate::sql::CopyFrom>> = [
        "COPY t FROM STDIN",
        "COPY t FROM STDIN WITH (FORMAT csv, HEADER)",
        "COPY t FROM STDIN WITH (FORMAT csv, DELIMITER ';', QUOTE '''', ESCAPE '\\', NULL 'x')",
        "COPY t FROM STDIN WITH (FORMAT text, NULL '')",
    ]
    .iter()
    .map(|sql| match crate::sql::parse_single(sql) {
        Ok(Some(crate::sql::Statement {
            plan: crate::sql::Plan::CopyFrom(spec),
            ..
        })) => spec,
        other => panic!("{sql}: {other:?}"),
    })
    .collect();
    const PIECES: &[&[u8]] = &[
        b"1",
        b"\t",
        b",",
        b";",
        b"\n",
        b"\r\n",
        b"\\N",
        b"\\.",
        b"\\",
        b"\"",
        b"'",
        b"abc",
        b"t",
        b"f",
        b"12.5",
        b"\\x00ff",
        b"2024-01-02 03:04:05+00",
        b"\xff\xfe",
        b"",
        b"0e0d1f9c-0000-4000-8000-000000000000",
    ];
    each_case("copy", |rng| {
        let spec = rng.pick(&specs);
        let mut data = Vec::new();
        for _ in 0..rng.below(40) {
            let piece: &&[u8] = rng.pick(PIECES);
            data.extend_from_slice(piece);
        }
        rng.mutate(&mut data);
        let mut decoder = crate::pg::copy_decoder::CopyDecoder::new(spec, &columns);
        let mut rest = &data[..];
        while !rest.is_empty() {
            let (chunk, tail) = rest.split_at(rng.below(rest.len()) + 1);
            let _ = decoder.push(chunk);
            rest = tail;
        }
        let _ = decoder.finish();
    });
}
