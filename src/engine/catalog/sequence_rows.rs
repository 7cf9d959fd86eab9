//! Sequences as the catalog knows them: `pg_class` rows of kind `S`,
//! `pg_sequence`, `pg_sequences` (with the last value handed out), the
//! identity columns of `pg_attribute` (which, as in PostgreSQL, have no
//! default of their own in `pg_attrdef`), and in `pg_depend` which column owns a
//! sequence (`a`, an identity's `i`) and which default uses it (`n`):
//! `pg_dump` then makes the sequence after its table and sets the default
//! after both), read from `litewire_sequences`
//! (see `sql::dialect::sequences`, which writes it).

use crate::engine::sequences::SEQUENCE_OID;

/// For the catalog: the SQL that fills the sequence relations (`pg_class` rows of
/// kind `S`, `pg_sequence`, identity columns in `pg_attribute`) from the table of
/// sequences. Sequences whose owning table is gone are left out.
pub(super) fn catalog_rows() -> String {
    let visible = "(s.owned_table IS NULL OR EXISTS (SELECT 1 FROM main.sqlite_schema m \
                   WHERE m.type = 'table' AND m.name = s.owned_table COLLATE NOCASE))";
    format!(
        "DELETE FROM temp.pg_class WHERE relkind = 'S';\n\
         DELETE FROM temp.pg_sequence;\n\
         DELETE FROM temp.pg_sequences;\n\
         INSERT INTO temp.pg_class SELECT {SEQUENCE_OID} + s.oid, s.name, 2200, 0, 0, 10, 0, {SEQUENCE_OID} + s.oid, 0, 1, -1, 0, 0, \
         false, false, 'p', 'S', 3, 0, false, false, false, false, false, true, 'n', false, 0, 0, 0, NULL, NULL, NULL \
         FROM main.litewire_sequences s WHERE {visible};\n\
         INSERT INTO temp.pg_sequence SELECT {SEQUENCE_OID} + s.oid, CASE s.type WHEN 'smallint' THEN 21 WHEN 'integer' THEN 23 ELSE 20 END, \
         s.start_value, s.increment, s.max_value, s.min_value, 1, s.cycle FROM main.litewire_sequences s WHERE {visible};\n\
         INSERT INTO temp.pg_sequences SELECT 'public', s.name, (SELECT user_name FROM temp.litewire_session), \
         CASE s.type WHEN 'smallint' THEN 21 WHEN 'integer' THEN 23 ELSE 20 END, \
         s.start_value, s.min_value, s.max_value, s.increment, s.cycle, 1, CASE WHEN s.is_called THEN s.last_value END \
         FROM main.litewire_sequences s WHERE {visible} ORDER BY s.name;\n\
         UPDATE temp.pg_attribute SET attidentity = s.identity FROM main.litewire_sequences s \
         JOIN temp.pg_class c ON c.relname = s.owned_table COLLATE NOCASE AND c.relkind = 'r' \
         WHERE s.identity IS NOT NULL AND pg_attribute.attrelid = c.oid AND pg_attribute.attname = s.owned_column;\n\
         DELETE FROM temp.pg_attrdef WHERE EXISTS (SELECT 1 FROM temp.pg_attribute a \
         WHERE a.attrelid = pg_attrdef.adrelid AND a.attnum = pg_attrdef.adnum AND a.attidentity <> '');\n\
         UPDATE temp.pg_attribute SET atthasdef = false WHERE attidentity <> '';\n\
         DELETE FROM temp.pg_depend WHERE (classid = 1259 AND deptype IN ('a', 'i')) OR classid = 2604;\n\
         INSERT INTO temp.pg_depend SELECT 1259, {SEQUENCE_OID} + s.oid, 0, 1259, c.oid, a.attnum, \
         CASE WHEN s.identity IS NOT NULL THEN 'i' ELSE 'a' END FROM main.litewire_sequences s \
         JOIN temp.pg_class c ON c.relname = s.owned_table COLLATE NOCASE AND c.relkind = 'r' \
         JOIN temp.pg_attribute a ON a.attrelid = c.oid AND a.attname = s.owned_column COLLATE NOCASE;\n\
         INSERT INTO temp.pg_depend SELECT 2604, d.oid, 0, 1259, {SEQUENCE_OID} + s.oid, 0, 'n' \
         FROM temp.pg_attrdef d JOIN temp.pg_class c ON c.oid = d.adrelid \
         JOIN temp.pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum \
         JOIN main.litewire_sequences s ON s.owned_table = c.relname COLLATE NOCASE \
         AND s.owned_column = a.attname COLLATE NOCASE;\n"
    )
}
