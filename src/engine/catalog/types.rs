//! PostgreSQL's types as litewire presents them: the type table (`pg_type`'s
//! rows), the type a SQLite declaration names (`type_oid`), its modifier
//! (`atttypmod`) and `format_type`. The PostgreSQL front end encodes values by
//! these types; the catalog lists them.

use crate::sql::interval_fields::IntervalFields;

/// A PostgreSQL type: oid, `typname`, the name `format_type` prints, length,
/// category, array type.
pub(super) struct PgType {
    pub(super) oid: i64,
    pub(super) name: &'static str,
    pub(super) display: &'static str,
    pub(super) len: i64,
    pub(super) category: &'static str,
    pub(super) array: i64,
}

const fn ty(
    oid: i64,
    name: &'static str,
    display: &'static str,
    len: i64,
    category: &'static str,
    array: i64,
) -> PgType {
    PgType {
        oid,
        name,
        display,
        len,
        category,
        array,
    }
}

pub(super) const TYPES: &[PgType] = &[
    ty(16, "bool", "boolean", 1, "B", 1000),
    ty(17, "bytea", "bytea", -1, "U", 1001),
    ty(18, "char", "\"char\"", 1, "Z", 1002),
    ty(19, "name", "name", 64, "S", 1003),
    ty(20, "int8", "bigint", 8, "N", 1016),
    ty(21, "int2", "smallint", 2, "N", 1005),
    ty(23, "int4", "integer", 4, "N", 1007),
    ty(25, "text", "text", -1, "S", 1009),
    ty(26, "oid", "oid", 4, "N", 1028),
    ty(24, "regproc", "regproc", 4, "N", 1008),
    ty(2205, "regclass", "regclass", 4, "N", 2210),
    ty(2206, "regtype", "regtype", 4, "N", 2211),
    ty(4089, "regnamespace", "regnamespace", 4, "N", 4090),
    ty(4096, "regrole", "regrole", 4, "N", 4097),
    ty(28, "xid", "xid", 4, "U", 1011),
    ty(114, "json", "json", -1, "U", 199),
    ty(700, "float4", "real", 4, "N", 1021),
    ty(701, "float8", "double precision", 8, "N", 1022),
    ty(869, "inet", "inet", -1, "I", 1041),
    ty(1042, "bpchar", "character", -1, "S", 1014),
    ty(1043, "varchar", "character varying", -1, "S", 1015),
    ty(1082, "date", "date", 4, "D", 1182),
    ty(1083, "time", "time without time zone", 8, "D", 1183),
    ty(
        1114,
        "timestamp",
        "timestamp without time zone",
        8,
        "D",
        1115,
    ),
    ty(
        1184,
        "timestamptz",
        "timestamp with time zone",
        8,
        "D",
        1185,
    ),
    ty(1186, "interval", "interval", 16, "T", 1187),
    ty(1700, "numeric", "numeric", -1, "N", 1231),
    ty(2950, "uuid", "uuid", 16, "U", 2951),
    ty(3802, "jsonb", "jsonb", -1, "U", 3807),
    ty(4072, "jsonpath", "jsonpath", -1, "U", 4073),
    // Kept as the text they are written as (no arithmetic or operators here),
    // typed as PostgreSQL types them, not by SQLite's affinity (`point`
    // holds "int").
    ty(1266, "timetz", "time with time zone", 12, "D", 1270),
    ty(600, "point", "point", 16, "G", 1017),
    ty(601, "lseg", "lseg", 32, "G", 1018),
    ty(602, "path", "path", -1, "G", 1019),
    ty(603, "box", "box", 32, "G", 1020),
    ty(604, "polygon", "polygon", -1, "G", 1027),
    ty(628, "line", "line", 24, "G", 629),
    ty(718, "circle", "circle", 24, "G", 719),
    ty(650, "cidr", "cidr", -1, "I", 651),
    ty(829, "macaddr", "macaddr", 6, "U", 1040),
    ty(774, "macaddr8", "macaddr8", 8, "U", 775),
    ty(1560, "bit", "bit", -1, "V", 1561),
    ty(1562, "varbit", "bit varying", -1, "V", 1563),
    ty(3614, "tsvector", "tsvector", -1, "U", 3643),
    ty(3615, "tsquery", "tsquery", -1, "U", 3645),
    ty(142, "xml", "xml", -1, "U", 143),
    ty(3220, "pg_lsn", "pg_lsn", 8, "U", 3221),
];

/// The PostgreSQL type oid a SQLite declared type names, by PostgreSQL's names
/// first and SQLite's affinity rules for everything else. An empty declaration
/// (SQLite's "any") is text; `_int4` (PostgreSQL's internal name of an array
/// type, which the dialect translation declares for the arrays it builds) is
/// the array of `int4`.
pub fn type_oid(decl: &str) -> i64 {
    if let Some(element) = decl.strip_prefix('_')
        && let Some(t) = TYPES.iter().find(|t| t.name == element)
    {
        return t.array;
    }
    if let Some(element) = array_element(decl) {
        let element = type_oid(element);
        return TYPES
            .iter()
            .find(|t| t.oid == element)
            .map_or(1009, |t| t.array);
    }
    // Every result column's type goes through here on every execution: lower-case
    // the name on the stack, not in a new String.
    let name = decl.split('(').next().unwrap_or("").trim();
    let mut buf = [0u8; 32];
    let Some(bytes) = buf.get_mut(..name.len()) else {
        return affinity_oid(&name.to_ascii_lowercase());
    };
    bytes.copy_from_slice(name.as_bytes());
    bytes.make_ascii_lowercase();
    match std::str::from_utf8(bytes) {
        Ok(base) => affinity_oid(base),
        Err(_) => affinity_oid(&name.to_ascii_lowercase()),
    }
}

/// The element type of an array declaration as PostgreSQL writes one
/// (`int[]`, `varchar(20)[]`, `text[][]`, `integer ARRAY`); `None` for any other.
fn array_element(decl: &str) -> Option<&str> {
    // `timestamp[](0)`: the modifier last, as SQLite keeps `timestamp(0)[]`
    // (found by a byte search: every result column's type comes here).
    if let Some(at) = decl.find('[')
        && decl[at..].starts_with("[](")
    {
        return Some(&decl[..at]);
    }
    let mut element = decl.trim_end();
    if element.ends_with(']') {
        // One `[n]` group per dimension, the size optional.
        while let Some(inner) = element.strip_suffix(']') {
            let inner = inner.trim_end_matches(|c: char| c.is_ascii_digit() || c == ' ');
            element = inner.strip_suffix('[')?.trim_end();
        }
        return Some(element);
    }
    let (element, word) = decl.rsplit_once(' ')?;
    word.eq_ignore_ascii_case("array").then_some(element)
}

/// The oid for a lower-case type name without modifiers.
fn affinity_oid(base: &str) -> i64 {
    match base {
        "int" | "integer" | "int4" | "mediumint" | "serial" | "serial4" => 23,
        "bigint" | "int8" | "bigserial" | "serial8" => 20,
        "smallint" | "int2" | "tinyint" | "smallserial" | "serial2" => 21,
        "real" | "double" | "double precision" | "float" | "float8" => 701,
        "float4" => 700,
        "bool" | "boolean" => 16,
        "text" | "clob" | "" => 25,
        "varchar" | "character varying" | "nvarchar" | "varying character" | "native character" => {
            1043
        }
        "char" | "character" | "bpchar" | "nchar" => 1042,
        "blob" | "bytea" => 17,
        "numeric" | "decimal" => 1700,
        "date" => 1082,
        "time" | "time without time zone" => 1083,
        "timestamp" | "datetime" | "timestamp without time zone" => 1114,
        "timestamptz" | "timestamp with time zone" => 1184,
        "interval" => 1186,
        // `interval day`, `interval day_to_second` (see `IntervalFields`).
        fields if fields.starts_with("interval ") => 1186,
        "uuid" => 2950,
        "json" => 114,
        "jsonb" => 3802,
        "jsonpath" => 4072,
        "oid" => 26,
        "xid" => 28,
        "inet" => 869,
        "timetz" | "time with time zone" => 1266,
        "point" => 600,
        "lseg" => 601,
        "path" => 602,
        "box" => 603,
        "polygon" => 604,
        "line" => 628,
        "circle" => 718,
        "cidr" => 650,
        "macaddr" => 829,
        "macaddr8" => 774,
        // The declared `bit_text(n)` is a `bit(n)` column made on the
        // PostgreSQL port (text, so that its zeros stay; see `type_names`).
        "bit" | "bit_text" => 1560,
        "varbit" | "bit varying" | "varbit_text" => 1562,
        "tsvector" => 3614,
        "tsquery" => 3615,
        "xml" => 142,
        "pg_lsn" => 3220,
        "name" => 19,
        "regproc" => 24,
        "regclass" => 2205,
        "regtype" => 2206,
        "regnamespace" => 4089,
        "regrole" => 4096,
        // The result of a function that returns nothing (`pg_advisory_lock`).
        "void" => 2278,
        // A row read whole (`SELECT t FROM t`), shown as `record_out` shows it.
        "record" => 2249,
        _ if base.contains("int") => 20,
        _ if base.contains("char") || base.contains("clob") || base.contains("text") => 25,
        _ if base.contains("real") || base.contains("floa") || base.contains("doub") => 701,
        _ if base.contains("blob") => 17,
        // An enum type's values are its labels' text.
        _ if is_enum(base) => 25,
        _ => 1700,
    }
}

/// PostgreSQL's `atttypmod` for a declared type: `varchar(n)` is n + 4,
/// `numeric(p, s)` is ((p << 16) | (s & 0x7ff)) + 4 (the scale signed in 11
/// bits: PostgreSQL 15 allows -1000 to 1000), anything else, or a modifier
/// PostgreSQL would refuse, -1.
pub fn type_modifier(decl: &str) -> i64 {
    // An array keeps its elements' modifier (`interval hour_to_minute[]`).
    if matches!(type_oid(decl), 1186 | 1187) {
        return interval_modifier(&decl.replacen("[]", "", 1));
    }
    let Some((_, args)) = decl.split_once('(') else {
        return -1;
    };
    let numbers: Option<Vec<i64>> = args
        .split(')')
        .next()
        .unwrap_or("")
        .split(',')
        .map(|n| n.trim().parse().ok())
        .collect();
    // An array keeps its elements' modifier.
    match (type_oid(decl), numbers.as_deref()) {
        (1043 | 1042 | 1015 | 1014, Some(&[n])) if (1..=10_485_760).contains(&n) => n + 4,
        // A bit string's length, as it is.
        (1560..=1563, Some(&[n])) if n >= 1 => n,
        (1700 | 1231, Some(&[p])) => numeric_typmod(p, 0),
        (1700 | 1231, Some(&[p, s])) => numeric_typmod(p, s),
        // Fractional digits of seconds, kept as they are (no 4 added).
        (1083 | 1114 | 1184 | 1266 | 1183 | 1115 | 1185 | 1270, Some(&[p]))
            if (0..=6).contains(&p) =>
        {
            p
        }
        _ => -1,
    }
}

/// An interval type's `atttypmod`: its fields and digits (`interval hour`
/// has no parentheses); -1 for plain `interval`.
fn interval_modifier(decl: &str) -> i64 {
    IntervalFields::parse(decl).map_or(-1, IntervalFields::typmod)
}

/// `numeric(precision, scale)`'s type modifier; -1 outside PostgreSQL's
/// ranges (precision 1 to 1000, scale -1000 to 1000).
fn numeric_typmod(precision: i64, scale: i64) -> i64 {
    if !(1..=1000).contains(&precision) || !(-1000..=1000).contains(&scale) {
        return -1;
    }
    ((precision << 16) | (scale & 0x7ff)) + 4
}

/// The precision and signed scale a `numeric` type modifier (less its 4)
/// carries.
pub fn numeric_modifier(packed: i64) -> (i64, i64) {
    (packed >> 16, ((packed & 0x7ff) ^ 0x400) - 0x400)
}

/// The enum types the catalog last saw, by oid: `format_type` names them.
static ENUMS: std::sync::RwLock<Vec<(i64, String)>> = std::sync::RwLock::new(Vec::new());

/// Whether `name` (lower case, perhaps `public.`-qualified) is an enum type.
fn is_enum(name: &str) -> bool {
    let name = name.strip_prefix("public.").unwrap_or(name);
    ENUMS
        .read()
        .is_ok_and(|known| known.iter().any(|(_, n)| n.eq_ignore_ascii_case(name)))
}

/// Whether `oid` is one of the enum types: the user's own, in `public`.
pub fn is_user_type(oid: i64) -> bool {
    ENUMS
        .read()
        .is_ok_and(|known| known.iter().any(|(o, _)| *o == oid))
}

/// The domains of the catalog last filled: oid and name.
static DOMAINS: std::sync::RwLock<Vec<(i64, String)>> = std::sync::RwLock::new(Vec::new());

/// Whether `oid` is one of the domains: the user's own, in `public`.
pub fn is_domain(oid: i64) -> bool {
    DOMAINS
        .read()
        .is_ok_and(|known| known.iter().any(|(o, _)| *o == oid))
}

/// Records the domains of the catalog just filled.
pub(super) fn remember_domains(domains: Vec<(i64, String)>) {
    if let Ok(mut known) = DOMAINS.write() {
        *known = domains;
    }
}

/// A built-in type's `typcategory` (`U` for one litewire does not list).
pub(super) fn category_of(oid: i64) -> &'static str {
    TYPES
        .iter()
        .find(|t| t.oid == oid)
        .map_or("U", |t| t.category)
}

/// A type's `typlen` and `typstorage`, as PostgreSQL 15 has them (and so a
/// column's `attlen` and `attstorage`, which `pg_dump` compares with its
/// type's): fixed-length types plain, `numeric` main, other variable-length
/// types extended; an enum is four bytes, plain.
pub(super) fn storage_of(oid: i64) -> (i64, &'static str) {
    if is_user_type(oid) {
        return (4, "p");
    }
    match TYPES.iter().find(|t| t.oid == oid) {
        Some(t) if t.len > 0 => (t.len, "p"),
        Some(t) if t.oid == 1700 => (t.len, "m"),
        Some(t) => (t.len, "x"),
        None => (-1, "x"),
    }
}

/// Records the enum types of the catalog just filled.
pub(super) fn remember_enums(enums: Vec<(i64, String)>) {
    if let Ok(mut known) = ENUMS.write() {
        *known = enums;
    }
}

/// PostgreSQL 15's default B-tree operator classes (`pg_opclass`): oid,
/// name, the type they order. An index column's `indclass` names its type's.
pub(super) const BTREE_OPCLASSES: &[(i64, &str, i64)] = &[
    (10003, "bool_ops", 16),
    (10006, "bytea_ops", 17),
    (10007, "char_ops", 18),
    (10028, "name_ops", 19),
    (3124, "int8_ops", 20),
    (1979, "int2_ops", 21),
    (1978, "int4_ops", 23),
    (3126, "text_ops", 25),
    (1981, "oid_ops", 26),
    (10012, "float4_ops", 700),
    (3123, "float8_ops", 701),
    (10004, "bpchar_ops", 1042),
    (3122, "date_ops", 1082),
    (10038, "time_ops", 1083),
    (3128, "timestamp_ops", 1114),
    (3127, "timestamptz_ops", 1184),
    (10022, "interval_ops", 1186),
    (10041, "timetz_ops", 1266),
    (3125, "numeric_ops", 1700),
    (10000, "array_ops", 2277),
    (10065, "uuid_ops", 2950),
    (10069, "enum_ops", 3500),
    (10088, "jsonb_ops", 3802),
];

/// The default B-tree operator class of type `oid` (`varchar` is ordered
/// by `text_ops`, an array by `array_ops`); 0 for none.
pub(super) fn default_opclass(oid: i64) -> i64 {
    let ordered_as = match oid {
        1043 => 25,
        _ if TYPES.iter().any(|t| t.array == oid) => 2277,
        _ if is_user_type(oid) => 3500,
        _ => oid,
    };
    BTREE_OPCLASSES
        .iter()
        .find(|(_, _, ty)| *ty == ordered_as)
        .map_or(0, |(class, _, _)| *class)
}

/// PostgreSQL's types that only its own catalog's columns have (see
/// `system_relations`), and the pseudo-types functions take and return:
/// named by `format_type`, never a value's type here.
const CATALOG_ONLY_TYPES: &[(i64, &str)] = &[
    (22, "int2vector"),
    (30, "oidvector"),
    (194, "pg_node_tree"),
    (1033, "aclitem"),
    (1034, "aclitem[]"),
    (2249, "record"),
    (2276, "\"any\""),
    (2277, "anyarray"),
    (2278, "void"),
    (2283, "anyelement"),
    (3361, "pg_ndistinct"),
    (3402, "pg_dependencies"),
    (5017, "pg_mcv_list"),
    (10028, "pg_statistic[]"),
];

/// `format_type(oid, typmod)`: the SQL name of a type, with its modifier.
pub fn format_type(oid: i64, typmod: Option<i64>) -> String {
    if oid == 0 {
        // No type (`typelem` of a type that is no array, ...).
        return "-".to_owned();
    }
    let Some(t) = TYPES.iter().find(|t| t.oid == oid) else {
        if let Ok(known) = ENUMS.read()
            && let Some((_, name)) = known.iter().find(|(o, _)| *o == oid)
        {
            return name.clone();
        }
        if let Ok(known) = DOMAINS.read()
            && let Some((_, name)) = known.iter().find(|(o, _)| *o == oid)
        {
            return name.clone();
        }
        return match TYPES.iter().find(|t| t.array == oid) {
            // An array shows its elements' modifier (`varchar(20)[]`).
            Some(element) => format!("{}[]", format_type(element.oid, typmod)),
            None => CATALOG_ONLY_TYPES
                .iter()
                .find(|(o, _)| *o == oid)
                .map_or("???", |(_, name)| name)
                .to_owned(),
        };
    };
    if let (1083 | 1114 | 1184 | 1266, Some(p @ 0..=6)) = (oid, typmod) {
        // `timestamp(3) without time zone`: the precision after the first word.
        let (first, rest) = t.display.split_once(' ').unwrap_or((t.display, ""));
        return format!("{first}({p}) {rest}").trim_end().to_owned();
    }
    if let Some(fields) = typmod
        .filter(|_| oid == 1186)
        .and_then(IntervalFields::from_typmod)
    {
        return fields.spelled();
    }
    match (oid, typmod) {
        (1560 | 1562, Some(n)) if n >= 1 => return format!("{}({n})", t.display),
        _ => {}
    }
    let modifier = typmod.filter(|m| *m >= 4).map(|m| m - 4);
    match (oid, modifier) {
        (1043 | 1042, Some(n)) => format!("{}({n})", t.display),
        (1700, Some(m)) => {
            let (precision, scale) = numeric_modifier(m);
            format!("numeric({precision},{scale})")
        }
        _ => t.display.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_modifiers() {
        assert_eq!(type_oid("varchar(20)"), 1043);
        assert_eq!(type_modifier("varchar(20)"), 24);
        assert_eq!(format_type(1043, Some(24)), "character varying(20)");
        assert_eq!(type_modifier("numeric(10,2)"), ((10 << 16) | 2) + 4);
        assert_eq!(
            format_type(1700, Some(type_modifier("numeric(10, 2)"))),
            "numeric(10,2)"
        );
        assert_eq!(format_type(23, Some(-1)), "integer");
        assert_eq!(format_type(1184, None), "timestamp with time zone");
        assert_eq!(format_type(1007, None), "integer[]");
        assert_eq!(format_type(0, None), "-");
        assert_eq!(type_oid("INTEGER"), 23);
        assert_eq!(type_oid("unsigned big int"), 20);
        assert_eq!(type_oid(" VarChar (20) "), 1043);
        assert_eq!(
            type_oid("a custom type with a name longer than thirty-two bytes"),
            1700
        );
        assert_eq!(
            type_oid("a long type name that mentions its interest in text"),
            20
        );
        assert_eq!(type_oid(""), 25);
        assert_eq!(type_oid("_text"), 1009);
        assert_eq!(type_oid("_int2"), 1005);
        assert_eq!(type_oid("_bool"), 1000);
        assert_eq!(format_type(type_oid("_int8"), None), "bigint[]");
        for (decl, oid) in [
            ("int[]", 1007),
            ("TEXT[]", 1009),
            ("varchar(20)[]", 1015),
            ("bigint[][]", 1016),
            ("integer[3]", 1007),
            ("integer ARRAY", 1007),
            ("timestamp with time zone[]", 1185),
            ("money[]", 1231),
            ("int2[]", 1005),
            ("float8 [4][4]", 1022),
        ] {
            assert_eq!(type_oid(decl), oid, "{decl}");
        }
        assert_eq!(type_oid("_nosuch"), 1700);
    }
}
