//! PostgreSQL's types, as the PostgreSQL port reads a statement: what each
//! value is, so that operators, functions and casts mean what they mean in
//! PostgreSQL and result columns are announced with PostgreSQL's types.
//!
//! Values keep SQLite's storage: booleans are 0 and 1, integers and floats are
//! SQLite's, numerics are SQLite numbers, dates and times ISO text, arrays
//! PostgreSQL's array text. The type says how to read them.

use crate::sql::interval_fields::IntervalFields;

/// A PostgreSQL type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgType {
    /// An untyped literal (`'abc'`) or NULL: it takes its type from where it is
    /// used, as in PostgreSQL.
    Unknown,
    Bool,
    Int2,
    Int4,
    Int8,
    Numeric,
    Float4,
    Float8,
    Text,
    Varchar,
    Bpchar,
    Name,
    Bytea,
    Date,
    Time,
    Timestamp,
    Timestamptz,
    Interval,
    Uuid,
    Json,
    Jsonb,
    /// An SQL/JSON path, kept as PostgreSQL prints it (see `sql::json_path`).
    Jsonpath,
    /// A network address, kept as its canonical text (see `sql::inet`).
    Inet,
    Cidr,
    Oid,
    /// An object identifier that reads and shows as the object's name
    /// (`regclass`, `regtype`, ...): an oid everywhere else.
    Reg(ObjectKind),
    Void,
    Array(Box<PgType>),
    /// A row of a relation, read whole (`t` in `SELECT t FROM t`): its
    /// columns' names and types.
    Record(Vec<(String, PgType)>),
    /// A type litewire has no rules for (an enum type, ...), by name.
    Other(String),
    /// What litewire cannot tell: a column declared with no type or one of
    /// SQLite's own, a function it does not know. Operators on it keep SQLite's
    /// meaning, and its result column is typed as SQLite types it.
    Opaque,
}

/// What a `reg*` type names: the catalog relation its oids are rows of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectKind {
    Class,
    Type,
    Proc,
    Namespace,
    Role,
}

impl ObjectKind {
    /// The type's name (`regclass`).
    pub fn type_name(self) -> &'static str {
        match self {
            ObjectKind::Class => "regclass",
            ObjectKind::Type => "regtype",
            ObjectKind::Proc => "regproc",
            ObjectKind::Namespace => "regnamespace",
            ObjectKind::Role => "regrole",
        }
    }

    /// The kind a `reg*` type name names.
    fn named(name: &str) -> Option<ObjectKind> {
        Some(match name {
            "regclass" => ObjectKind::Class,
            "regtype" => ObjectKind::Type,
            "regproc" => ObjectKind::Proc,
            "regnamespace" => ObjectKind::Namespace,
            "regrole" => ObjectKind::Role,
            _ => return None,
        })
    }
}

/// PostgreSQL's type categories (`pg_type.typcategory`), which decide implicit
/// casts and the resolution of operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    Boolean,
    Numeric,
    String,
    DateTime,
    Timespan,
    Array,
    Unknown,
    Other,
}

impl PgType {
    /// The type a name spells, in any of PostgreSQL's spellings (`integer`,
    /// `int4`, `character varying`, `timestamp with time zone`, `text[]`).
    pub fn from_name(name: &str) -> Option<PgType> {
        let lower = name.trim().to_ascii_lowercase();
        // `int[]`, and `timestamp[](0)` (the modifier last, as SQLite keeps
        // a declared `timestamp(0)[]`).
        if let Some(at) = lower.find('[')
            && lower[at..].starts_with("[]")
        {
            let element = format!("{}{}", &lower[..at], &lower[at + 2..]);
            return PgType::from_name(&element).map(|e| PgType::Array(Box::new(e)));
        }
        if let Some(element) = lower.strip_prefix('_') {
            return PgType::from_name(element).map(|e| PgType::Array(Box::new(e)));
        }
        let base = lower
            .split('(')
            .next()
            .unwrap_or("")
            .trim()
            .trim_start_matches("pg_catalog.");
        // `interval day to second(2)`, and its declared `interval day_to_second(2)`.
        if base.starts_with("interval ") && IntervalFields::parse(&lower).is_some() {
            return Some(PgType::Interval);
        }
        Some(match base {
            "bool" | "boolean" => PgType::Bool,
            "int2" | "smallint" | "smallserial" | "serial2" => PgType::Int2,
            "int4" | "int" | "integer" | "serial" | "serial4" => PgType::Int4,
            "int8" | "bigint" | "bigserial" | "serial8" => PgType::Int8,
            "numeric" | "decimal" => PgType::Numeric,
            "float4" | "real" => PgType::Float4,
            "float8" | "double precision" | "float" => PgType::Float8,
            "text" => PgType::Text,
            "varchar" | "character varying" => PgType::Varchar,
            "bpchar" | "char" | "character" => PgType::Bpchar,
            "name" => PgType::Name,
            "bytea" => PgType::Bytea,
            "date" => PgType::Date,
            "time" | "time without time zone" => PgType::Time,
            "timestamp" | "timestamp without time zone" => PgType::Timestamp,
            "timestamptz" | "timestamp with time zone" => PgType::Timestamptz,
            "interval" => PgType::Interval,
            "uuid" => PgType::Uuid,
            "json" => PgType::Json,
            "jsonb" => PgType::Jsonb,
            "jsonpath" => PgType::Jsonpath,
            "inet" => PgType::Inet,
            "cidr" => PgType::Cidr,
            "oid" => PgType::Oid,
            "void" => PgType::Void,
            other => PgType::Reg(ObjectKind::named(other)?),
        })
    }

    /// The type of a column SQLite declared `decl`, read as the server's
    /// catalog reads it: PostgreSQL's names first, then the names SQLite's own
    /// documentation uses (`TINYINT`, `NVARCHAR(100)`, `CLOB`, `DOUBLE`);
    /// anything else (no type, `BLOB`, `DATETIME`, `point`) is
    /// [`PgType::Opaque`].
    pub fn from_declared(decl: &str) -> PgType {
        if let Some(ty) = PgType::from_name(decl) {
            return ty;
        }
        let lower = decl.to_ascii_lowercase();
        let base = lower.split('(').next().unwrap_or("").trim();
        match base {
            "tinyint" | "mediumint" | "unsigned big int" => PgType::Int8,
            "nchar" | "nvarchar" | "native character" | "varying character" | "clob" => {
                PgType::Text
            }
            "double" => PgType::Float8,
            _ => PgType::Opaque,
        }
    }

    /// `boolean[]`, whose elements an array's text holds as stored, 1 and 0.
    pub fn bool_array() -> PgType {
        PgType::Array(Box::new(PgType::Bool))
    }

    /// PostgreSQL's internal name (`int4`, `_text`), as result columns are
    /// declared to the engine; `None` for a type it has no name for here.
    pub fn name(&self) -> Option<&'static str> {
        Some(match self {
            PgType::Unknown => "text",
            PgType::Bool => "bool",
            PgType::Int2 => "int2",
            PgType::Int4 => "int4",
            PgType::Int8 => "int8",
            PgType::Numeric => "numeric",
            PgType::Float4 => "float4",
            PgType::Float8 => "float8",
            PgType::Text => "text",
            PgType::Varchar => "varchar",
            PgType::Bpchar => "bpchar",
            PgType::Name => "name",
            PgType::Bytea => "bytea",
            PgType::Date => "date",
            PgType::Time => "time",
            PgType::Timestamp => "timestamp",
            PgType::Timestamptz => "timestamptz",
            PgType::Interval => "interval",
            PgType::Uuid => "uuid",
            PgType::Json => "json",
            PgType::Jsonb => "jsonb",
            PgType::Jsonpath => "jsonpath",
            PgType::Inet => "inet",
            PgType::Cidr => "cidr",
            PgType::Oid => "oid",
            PgType::Reg(kind) => kind.type_name(),
            PgType::Void => "void",
            PgType::Record(_) => "record",
            PgType::Array(element) => match **element {
                PgType::Bool => "_bool",
                PgType::Int2 => "_int2",
                PgType::Int4 => "_int4",
                PgType::Int8 => "_int8",
                PgType::Numeric => "_numeric",
                PgType::Float4 => "_float4",
                PgType::Float8 => "_float8",
                PgType::Text | PgType::Unknown => "_text",
                PgType::Varchar => "_varchar",
                PgType::Bpchar => "_bpchar",
                PgType::Name => "_name",
                PgType::Bytea => "_bytea",
                PgType::Date => "_date",
                PgType::Time => "_time",
                PgType::Timestamp => "_timestamp",
                PgType::Timestamptz => "_timestamptz",
                PgType::Interval => "_interval",
                PgType::Uuid => "_uuid",
                PgType::Json => "_json",
                PgType::Jsonb => "_jsonb",
                PgType::Jsonpath => "_jsonpath",
                PgType::Inet => "_inet",
                PgType::Cidr => "_cidr",
                PgType::Oid => "_oid",
                PgType::Reg(ObjectKind::Class) => "_regclass",
                PgType::Reg(ObjectKind::Type) => "_regtype",
                PgType::Reg(ObjectKind::Proc) => "_regproc",
                PgType::Reg(ObjectKind::Namespace) => "_regnamespace",
                PgType::Reg(ObjectKind::Role) => "_regrole",
                _ => return None,
            },
            PgType::Other(_) | PgType::Opaque => return None,
        })
    }

    /// The name PostgreSQL's messages give the type (`integer`, `text`,
    /// `timestamp without time zone`).
    pub fn display(&self) -> String {
        match self {
            PgType::Unknown => "unknown".into(),
            PgType::Bool => "boolean".into(),
            PgType::Int2 => "smallint".into(),
            PgType::Int4 => "integer".into(),
            PgType::Int8 => "bigint".into(),
            PgType::Float4 => "real".into(),
            PgType::Float8 => "double precision".into(),
            PgType::Varchar => "character varying".into(),
            PgType::Bpchar => "character".into(),
            PgType::Time => "time without time zone".into(),
            PgType::Timestamp => "timestamp without time zone".into(),
            PgType::Timestamptz => "timestamp with time zone".into(),
            PgType::Array(element) => format!("{}[]", element.display()),
            PgType::Other(name) => name.clone(),
            PgType::Opaque => "unknown".into(),
            other => other.name().unwrap_or("unknown").to_owned(),
        }
    }

    pub fn category(&self) -> Category {
        match self {
            PgType::Unknown => Category::Unknown,
            PgType::Bool => Category::Boolean,
            PgType::Int2
            | PgType::Int4
            | PgType::Int8
            | PgType::Numeric
            | PgType::Float4
            | PgType::Float8
            | PgType::Oid
            | PgType::Reg(_) => Category::Numeric,
            PgType::Text | PgType::Varchar | PgType::Bpchar | PgType::Name => Category::String,
            PgType::Date | PgType::Time | PgType::Timestamp | PgType::Timestamptz => {
                Category::DateTime
            }
            PgType::Interval => Category::Timespan,
            PgType::Array(_) => Category::Array,
            _ => Category::Other,
        }
    }

    pub fn is_integer(&self) -> bool {
        matches!(self, PgType::Int2 | PgType::Int4 | PgType::Int8)
    }

    pub fn is_numeric(&self) -> bool {
        self.category() == Category::Numeric
    }

    pub fn is_string(&self) -> bool {
        self.category() == Category::String
    }

    /// Whether litewire knows nothing of it (see [`PgType::Opaque`]), or of
    /// the type an array of it holds.
    pub fn is_opaque(&self) -> bool {
        match self {
            PgType::Opaque | PgType::Other(_) => true,
            PgType::Array(element) => element.is_opaque(),
            _ => false,
        }
    }

    /// The rank of a numeric type in PostgreSQL's implicit promotion
    /// (`int2 → int4 → int8 → numeric → float4 → float8`).
    fn numeric_rank(&self) -> Option<u8> {
        Some(match self {
            PgType::Int2 => 1,
            PgType::Int4 => 2,
            PgType::Int8 => 3,
            PgType::Oid | PgType::Reg(_) => 3,
            PgType::Numeric => 4,
            PgType::Float4 => 5,
            PgType::Float8 => 6,
            _ => return None,
        })
    }

    /// The type both of two numeric types are implicitly cast to.
    pub fn wider_numeric(&self, other: &PgType) -> Option<PgType> {
        let (a, b) = (self.numeric_rank()?, other.numeric_rank()?);
        Some(if a >= b { self.clone() } else { other.clone() })
    }

    /// Whether a value of this type may be used where `target` is expected
    /// without a cast being written (PostgreSQL's implicit casts, roughly).
    pub fn casts_implicitly_to(&self, target: &PgType) -> bool {
        if self == target
            || matches!(self, PgType::Unknown | PgType::Opaque)
            || *target == PgType::Opaque
        {
            return true;
        }
        match (self, target) {
            // An oid is any `reg*` type's and back, and an integer may be
            // read as one; nothing else is.
            (PgType::Reg(_), PgType::Oid)
            | (PgType::Oid | PgType::Int2 | PgType::Int4 | PgType::Int8, PgType::Reg(_)) => true,
            (PgType::Reg(_), _) | (_, PgType::Reg(_)) => false,
            (a, b) if a.is_numeric() && b.is_numeric() => {
                a.numeric_rank() <= b.numeric_rank() && *a != PgType::Oid
            }
            (a, b) if a.is_string() && b.is_string() => true,
            (PgType::Date, PgType::Timestamp | PgType::Timestamptz)
            | (PgType::Timestamp, PgType::Timestamptz)
            | (PgType::Json, PgType::Jsonb)
            | (PgType::Cidr, PgType::Inet) => true,
            (PgType::Array(a), PgType::Array(b)) => a.casts_implicitly_to(b),
            _ => false,
        }
    }
}

/// A column's type as values written to it are made: the type and its modifier.
pub(super) type ColumnType = (PgType, Option<Modifier>);

/// A type's modifier, as a column or a cast declares it: `varchar(n)` and
/// `char(n)` a length, `numeric(p, s)` a precision and a scale. A value
/// assigned or cast to the type is fitted to it (cut, rounded, or refused).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Modifier {
    Length(u32),
    /// PostgreSQL 15 allows a scale from -1000 to 1000: a negative one
    /// rounds to tens, hundreds, ...; one above the precision keeps only a
    /// fraction.
    Numeric {
        precision: u32,
        scale: i32,
    },
    /// `timestamp(p)`, `time(p)`: the fractional digits of seconds kept.
    Precision(u32),
    /// `interval day to second(2)`: the fields and digits kept.
    Interval(IntervalFields),
}

impl Modifier {
    /// A `numeric(p, s)`'s digits after the point (none for a negative `s`).
    pub fn numeric_scale(self) -> Option<u32> {
        match self {
            Modifier::Numeric { scale, .. } => Some(scale.max(0).unsigned_abs()),
            _ => None,
        }
    }

    /// The modifier of type `ty` as `declared` spells it (`varchar(20)`,
    /// `NUMERIC(10, 2)`); `None` for a type without one.
    pub fn of(ty: &PgType, declared: &str) -> Option<Modifier> {
        // Its fields are words before any digits (`interval hour`).
        if *ty == PgType::Interval {
            return IntervalFields::parse(declared).map(Modifier::Interval);
        }
        let (_, args) = declared.split_once('(')?;
        let args = args.split(')').next()?;
        let mut numbers = args.split(',').map(|a| a.trim().parse::<i32>().ok());
        match ty {
            PgType::Varchar | PgType::Bpchar => {
                Some(Modifier::Length(u32::try_from(numbers.next()??).ok()?))
            }
            PgType::Numeric => {
                let precision = numbers.next()??;
                let scale = match numbers.next() {
                    None => 0,
                    Some(scale) => scale?,
                };
                ((1..=1000).contains(&precision) && (-1000..=1000).contains(&scale)).then_some(
                    Modifier::Numeric {
                        precision: precision.unsigned_abs(),
                        scale,
                    },
                )
            }
            PgType::Timestamp | PgType::Timestamptz | PgType::Time => {
                let digits = u32::try_from(numbers.next()??).ok()?;
                (digits <= 6).then_some(Modifier::Precision(digits))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_as_declared() {
        assert_eq!(
            Modifier::of(&PgType::Varchar, "character varying(20)"),
            Some(Modifier::Length(20))
        );
        assert_eq!(
            Modifier::of(&PgType::Numeric, "NUMERIC(10, 2)"),
            Some(Modifier::Numeric {
                precision: 10,
                scale: 2
            })
        );
        assert_eq!(
            Modifier::of(&PgType::Numeric, "numeric(5)"),
            Some(Modifier::Numeric {
                precision: 5,
                scale: 0
            })
        );
        assert_eq!(
            Modifier::of(&PgType::Timestamp, "timestamp(2)"),
            Some(Modifier::Precision(2))
        );
        assert_eq!(Modifier::of(&PgType::Time, "time(7)"), None);
        assert_eq!(Modifier::of(&PgType::Numeric, "numeric"), None);
        assert_eq!(Modifier::of(&PgType::Text, "text(3)"), None);
    }

    #[test]
    fn names_in_every_spelling() {
        assert_eq!(PgType::from_name("INTEGER"), Some(PgType::Int4));
        assert_eq!(
            PgType::from_name("character varying(20)"),
            Some(PgType::Varchar)
        );
        assert_eq!(
            PgType::from_name("timestamp with time zone"),
            Some(PgType::Timestamptz)
        );
        assert_eq!(
            PgType::from_name("text[]"),
            Some(PgType::Array(Box::new(PgType::Text)))
        );
        assert_eq!(
            PgType::from_name("_int4"),
            Some(PgType::Array(Box::new(PgType::Int4)))
        );
        assert_eq!(PgType::from_declared(""), PgType::Opaque);
        assert_eq!(PgType::from_declared("BLOB"), PgType::Opaque);
        assert_eq!(PgType::from_declared("INTEGER"), PgType::Int4);
        assert_eq!(PgType::from_declared("UNSIGNED BIG INT"), PgType::Int8);
        assert_eq!(PgType::from_declared("point"), PgType::Opaque);
        assert_eq!(PgType::from_declared("NVARCHAR(100)"), PgType::Text);
        assert_eq!(PgType::Array(Box::new(PgType::Int8)).name(), Some("_int8"));
        assert_eq!(PgType::Timestamptz.display(), "timestamp with time zone");
    }

    #[test]
    fn implicit_casts_and_promotion() {
        assert!(PgType::Int4.casts_implicitly_to(&PgType::Int8));
        assert!(!PgType::Int8.casts_implicitly_to(&PgType::Int4));
        assert!(PgType::Int8.casts_implicitly_to(&PgType::Numeric));
        assert!(!PgType::Text.casts_implicitly_to(&PgType::Int4));
        assert!(PgType::Date.casts_implicitly_to(&PgType::Timestamptz));
        assert_eq!(
            PgType::Int4.wider_numeric(&PgType::Numeric),
            Some(PgType::Numeric)
        );
    }
}
