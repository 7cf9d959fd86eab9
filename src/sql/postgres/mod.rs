//! The PostgreSQL port's reading of a statement: PostgreSQL's dialect over
//! SQLite's storage. A query or a data change is typed and resolved against
//! the catalog as PostgreSQL would resolve it, and rewritten where SQLite
//! would mean something else (see [`translate`]); what it cannot read is left
//! as it is.

mod aggregates;
mod build;
mod bytea;
mod casts;
mod catalog;
mod catalog_relations;
mod columns;
mod compared_subqueries;
mod datetimes;
mod distinct_on;
mod dml;
mod domain_casts;
mod errors;
mod expressions;
mod float_widths;
mod from;
mod function_values;
mod functions;
mod grouping;
mod grouping_sets;
mod intervals;
mod json;
mod json_rows;
mod lateral;
mod multisets;
mod named_arguments;
mod named_calls;
mod names;
mod numeric_scales;
mod object_ids;
mod operators;
mod ordered_sets;
mod ordering;
mod precedence;
mod queries;
mod recursion;
mod row_assignment;
mod scope;
mod series;
mod set_returning;
mod shown;
mod sql_functions;
mod subqueries;
mod subscripts;
mod substrings;
mod table_expressions;
mod translator;
mod types;
mod upsert_rows;
mod variadic;
mod whole_rows;
mod with_changes;

pub(crate) use aggregates::is_aggregate;
pub use casts::bytea_from_text;
pub use catalog::{Catalog, Domain, NoCatalog, PartitionNode, RelColumn, Relation, SqlFunction};
pub use float_widths::{added_float_widths, float_widths};
pub(crate) use queries::is_default;
pub use sql_functions::check_body;
pub use table_expressions::{alter_expressions, table_expressions};
pub use translator::{OutputColumn, Translation, translate, translate_view};
pub use types::{Category, Modifier, PgType};
