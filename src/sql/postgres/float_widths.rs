//! Floating-point column types as PostgreSQL reads them: `real`, `float4`
//! and `float(p)` with p up to 24 are 4 bytes, any other `float` is `double
//! precision`. SQLite's own `REAL` (as the HTTP port's tables declare it) is
//! 8 bytes, and the catalog reads it so; a table made on the PostgreSQL port
//! declares `FLOAT4` or `FLOAT8` instead, which SQLite stores the same way
//! and the catalog tells apart.

use sqlparser::ast::{
    AlterTable, AlterTableOperation, CreateTable, DataType, ExactNumberInfo, Ident, ObjectName,
};

/// Declares the table's floating-point columns by their width; whether any
/// changed.
pub fn float_widths(create: &mut CreateTable) -> bool {
    let mut changed = false;
    for column in &mut create.columns {
        changed |= float_width(&mut column.data_type);
    }
    changed
}

/// The same for the columns an `ALTER TABLE` adds.
pub fn added_float_widths(alter: &mut AlterTable) -> bool {
    let mut changed = false;
    for operation in &mut alter.operations {
        if let AlterTableOperation::AddColumn { column_def, .. } = operation {
            changed |= float_width(&mut column_def.data_type);
        }
    }
    changed
}

fn float_width(data_type: &mut DataType) -> bool {
    let width = match data_type {
        DataType::Real => "FLOAT4",
        DataType::Float(ExactNumberInfo::Precision(p)) if *p <= 24 => "FLOAT4",
        DataType::Float(ExactNumberInfo::Precision(_)) => "FLOAT8",
        _ => return false,
    };
    *data_type = DataType::Custom(ObjectName::from(vec![Ident::new(width)]), vec![]);
    true
}

#[cfg(test)]
mod tests {
    use sqlparser::dialect::PostgreSqlDialect;
    use sqlparser::parser::Parser;

    use super::*;

    #[test]
    fn real_and_narrow_floats_are_four_bytes() {
        let sql = "CREATE TABLE t (a real, b float(10), c float(40), d float, e double precision)";
        let mut parsed = Parser::parse_sql(&PostgreSqlDialect {}, sql).unwrap();
        let sqlparser::ast::Statement::CreateTable(create) = &mut parsed[0] else {
            panic!("not a CREATE TABLE");
        };
        assert!(float_widths(create));
        assert_eq!(
            create.to_string(),
            "CREATE TABLE t (a FLOAT4, b FLOAT4, c FLOAT8, d FLOAT, e DOUBLE PRECISION)"
        );
    }
}
