//! SQLite values as they leave and enter the engine.

/// One SQLite value: exactly SQLite's five storage classes.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// A SQLite storage class, as reported for a value or inferred for a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageClass {
    Null,
    Integer,
    Real,
    Text,
    Blob,
}

impl Value {
    pub fn storage_class(&self) -> StorageClass {
        match self {
            Value::Null => StorageClass::Null,
            Value::Integer(_) => StorageClass::Integer,
            Value::Real(_) => StorageClass::Real,
            Value::Text(_) => StorageClass::Text,
            Value::Blob(_) => StorageClass::Blob,
        }
    }
}
