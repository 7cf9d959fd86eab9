//! The partition DDL: `CREATE TABLE ... PARTITION BY`, `CREATE TABLE ...
//! PARTITION OF`, `ALTER TABLE ... ATTACH PARTITION`, and `DROP TABLE` and
//! `TRUNCATE` of a partition or a partitioned table, as the SQLite
//! statements that make and keep the tree (see `tree`).

use std::sync::Arc;

use sqlparser::ast::{
    AlterTableOperation, Expr, ForValues, FunctionArg, FunctionArgExpr, FunctionArguments,
    SelectItem, SetExpr, Statement as Ast,
};
use sqlparser::dialect::{PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

use super::bounds::{self, before, hashes_overlap, lists_overlap, parse, validate};
use super::stored::{CREATE_TABLE, PARTITIONS_TABLE};
use super::tree::Tree;
use crate::error::{Error, SqlState};
use crate::sql::dialect;
use crate::sql::lexer::TokenKind;
use crate::sql::postgres::{self, Catalog, PartitionNode, PgType};
use crate::sql::quote::{identifier, identifier_as_postgres, literal};
use crate::sql::statement::{Plan, Statement};
use crate::sql::syntax_tree::{folded_ident, folded_last};
use crate::sql::words::Words;

/// What a partition statement runs: a `CREATE TABLE` read as any other first
/// (the root's table), then the tree's statements.
#[derive(Debug)]
struct PartitionDdl {
    create: Option<String>,
    statements: Vec<String>,
}

/// The plan of a partition statement; `None` for any other. `build` reads
/// the root's `CREATE TABLE` as any other.
pub(in crate::sql) fn statement(
    w: &Words,
    catalog: &dyn Catalog,
    build: &dyn Fn(&str) -> Result<Statement, Error>,
) -> Option<Result<Plan, Error>> {
    let ddl = if w.starts_with(&["CREATE"]) && creates_partitioned(w) {
        create(w, catalog)
    } else if catalog.partitions().is_empty() {
        return None;
    } else if w.starts_with(&["DROP", "TABLE"]) {
        drop(w, catalog)?
    } else if w.starts_with(&["TRUNCATE"]) {
        truncate(w, catalog)?
    } else if w.starts_with(&["ALTER", "TABLE"]) {
        attach(w, catalog)?
    } else {
        return None;
    };
    Some(ddl.and_then(|ddl| {
        let mut parts: Vec<Arc<str>> = Vec::new();
        if let Some(create) = &ddl.create {
            let table = build(create)?;
            match &table.plan {
                Plan::Single => parts.push(table.sql.clone()),
                Plan::Script(script) => parts.extend(script.iter().cloned()),
                _ => return Err(Error::not_supported("this form of a partitioned table")),
            }
        }
        parts.extend(ddl.statements.iter().map(|s| Arc::from(s.as_str())));
        Ok(Plan::Script(parts.into()))
    }))
}

/// A `CREATE [TEMP] TABLE` with `PARTITION BY` or `PARTITION OF` at its top level.
fn creates_partitioned(w: &Words) -> bool {
    let mut depth = 0usize;
    for i in 0..w.tokens.len() {
        match w.kind(i) {
            Some(TokenKind::LeftParen) => depth += 1,
            Some(TokenKind::RightParen) => depth = depth.saturating_sub(1),
            _ if depth == 0 && w.is(i, "PARTITION") && (w.is(i + 1, "BY") || w.is(i + 1, "OF")) => {
                return (1..i).any(|j| w.is(j, "TABLE"));
            }
            _ => {}
        }
    }
    false
}

fn create(w: &Words, catalog: &dyn Catalog) -> Result<PartitionDdl, Error> {
    let parsed = Parser::parse_sql(&PostgreSqlDialect {}, w.sql)
        .map_err(|e| Error::state(SqlState::SYNTAX_ERROR, e.to_string()))?;
    let Some(Ast::CreateTable(create)) = parsed.into_iter().next() else {
        return Err(w.syntax_error(0));
    };
    if create.temporary {
        return Err(Error::not_supported("a temporary partitioned table"));
    }
    let name = folded_last(&create.name);
    let key = create
        .partition_by
        .as_deref()
        .map(|by| partition_key(by, &create.columns, create.partition_of.is_none()))
        .transpose()?;
    match &create.partition_of {
        None => {
            let (strategy, key) = key.ok_or_else(|| w.syntax_error(0))?;
            let mut statements = vec![CREATE_TABLE.to_owned()];
            let root = PartitionNode {
                name: name.clone(),
                parent: None,
                strategy: Some(strategy),
                key,
                bound: None,
                shown: None,
            };
            statements.push(node_row(&root));
            // No partition yet: the routing triggers refuse every row.
            statements.extend(Tree { nodes: vec![root] }.made(&|_| Vec::new(), &[]));
            Ok(PartitionDdl {
                create: Some(without_partition_by(w)),
                statements,
            })
        }
        Some(parent) => {
            if !create.columns.is_empty() || !create.constraints.is_empty() {
                return Err(Error::not_supported(
                    "declaring a partition's own columns or constraints",
                ));
            }
            let written = create.for_values.clone().ok_or_else(|| w.syntax_error(0))?;
            let (bound, read, shown) = bound_forms(&written, &folded_last(parent), catalog);
            let node = PartitionNode {
                name,
                parent: Some(folded_last(parent)),
                strategy: key.as_ref().map(|(s, _)| s.clone()),
                key: key.map(|(_, k)| k).unwrap_or_default(),
                bound: Some(read),
                shown: Some(shown),
            };
            add_partition(node, &bound, catalog, create.if_not_exists, None)
        }
    }
}

/// The key of `PARTITION BY strategy (key, ...)` (read by the parser as a
/// call), checked against the table's `columns` where it has them.
fn partition_key(
    by: &Expr,
    columns: &[sqlparser::ast::ColumnDef],
    check_columns: bool,
) -> Result<(String, Vec<String>), Error> {
    let Expr::Function(call) = by else {
        return Err(Error::state(
            SqlState::SYNTAX_ERROR,
            format!("syntax error at or near \"{by}\""),
        ));
    };
    let strategy = call.name.to_string().to_ascii_lowercase();
    if !matches!(strategy.as_str(), "list" | "range" | "hash") {
        return Err(Error::state(
            SqlState::INVALID_PARAMETER_VALUE,
            format!("unrecognized partitioning strategy \"{strategy}\""),
        ));
    }
    let FunctionArguments::List(list) = &call.args else {
        return Err(Error::state(
            SqlState::SYNTAX_ERROR,
            "syntax error at or near \")\"",
        ));
    };
    let mut key = Vec::new();
    for arg in &list.args {
        let FunctionArg::Unnamed(FunctionArgExpr::Expr(expr)) = arg else {
            return Err(Error::state(
                SqlState::SYNTAX_ERROR,
                format!("syntax error at or near \"{arg}\""),
            ));
        };
        if let Expr::Identifier(ident) = expr
            && check_columns
            && !columns
                .iter()
                .any(|c| folded_ident(&c.name) == folded_ident(ident))
        {
            return Err(Error::state(
                SqlState::UNDEFINED_COLUMN,
                format!(
                    "column \"{}\" named in partition key does not exist",
                    folded_ident(ident)
                ),
            ));
        }
        key.push(expr.to_string());
    }
    if strategy == "list" && key.len() != 1 {
        return Err(Error::state(
            SqlState::INVALID_OBJECT_DEFINITION,
            "cannot use \"list\" partition strategy with more than one column",
        ));
    }
    Ok((strategy, key))
}

/// The statement's text less its `PARTITION BY strategy (key)`.
fn without_partition_by(w: &Words) -> String {
    let mut depth = 0usize;
    for i in 0..w.tokens.len() {
        match w.kind(i) {
            Some(TokenKind::LeftParen) => depth += 1,
            Some(TokenKind::RightParen) => depth = depth.saturating_sub(1),
            _ if depth == 0 && w.is(i, "PARTITION") && w.is(i + 1, "BY") => {
                let open =
                    (i + 2..w.tokens.len()).find(|&j| w.kind(j) == Some(TokenKind::LeftParen));
                let end = open
                    .and_then(|o| w.closing(o))
                    .map_or(w.sql.len(), |c| w.tokens[c].end);
                return format!("{}{}", &w.sql[..w.tokens[i].start], &w.sql[end..]);
            }
            _ => {}
        }
    }
    w.sql.to_owned()
}

/// The row of `litewire_partitions` a node is.
fn node_row(node: &PartitionNode) -> String {
    let optional = |v: Option<&str>| v.map_or("NULL".to_owned(), literal);
    let key = match node.key.is_empty() {
        true => "NULL".to_owned(),
        false => literal(&serde_json::to_string(&node.key).unwrap_or_default()),
    };
    format!(
        "INSERT INTO main.{PARTITIONS_TABLE} (name, parent, strategy, key, bound, shown) \
         VALUES ({}, {}, {}, {key}, {}, {})",
        literal(&node.name),
        optional(node.parent.as_deref()),
        optional(node.strategy.as_deref()),
        optional(node.bound.as_deref()),
        optional(node.shown.as_deref())
    )
}

/// The SQLite text of each of `node`'s key expressions, as the translation
/// reads them over the root's columns.
pub(super) fn sqlite_keys(catalog: &dyn Catalog, root: &str, node: &PartitionNode) -> Vec<String> {
    node.key
        .iter()
        .map(|key| translated(catalog, root, key).unwrap_or_else(|| key.clone()))
        .collect()
}

fn translated(catalog: &dyn Catalog, root: &str, expression: &str) -> Option<String> {
    let sql = format!("SELECT {expression} FROM {}", identifier_as_postgres(root));
    let parsed = Parser::parse_sql(&PostgreSqlDialect {}, &sql).ok()?;
    let translation = postgres::translate(parsed.first()?, catalog, &[]).ok()??;
    let mut ast = translation.statement;
    let translated = dialect::translate_parsed(&mut ast, None)?;
    let read = Parser::parse_sql(&SQLiteDialect {}, &translated.sql).ok()?;
    let Some(Ast::Query(query)) = read.into_iter().next() else {
        return None;
    };
    let SetExpr::Select(select) = *query.body else {
        return None;
    };
    match select.projection.into_iter().next()? {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
            Some(e.to_string())
        }
        _ => None,
    }
}

/// A partition's bound with each number for a numeric key unquoted (as
/// PostgreSQL reads `'10'` for a `bigint` key), that bound's text, and its
/// text as PostgreSQL shows it, by the types of its parent's key.
fn bound_forms(
    bound: &ForValues,
    parent: &str,
    catalog: &dyn Catalog,
) -> (ForValues, String, String) {
    let all = catalog.partitions();
    let types: Vec<Option<PgType>> = match Tree::of(all, parent) {
        Some(tree) => {
            let columns = catalog
                .relation(&tree.root().name)
                .map(|r| r.columns)
                .unwrap_or_default();
            let key = tree.node(parent).map(|n| n.key.clone()).unwrap_or_default();
            key.iter()
                .map(|k| {
                    let column = columns.iter().find(|c| c.name.eq_ignore_ascii_case(k));
                    column.map(|c| c.ty.clone())
                })
                .collect()
        }
        None => Vec::new(),
    };
    let read = bounds::numbers_unquoted(bound, &types);
    let text = read.to_string();
    let shown = bounds::shown(&read, &types);
    (read, text, shown)
}

/// The root's columns, in order.
fn columns(catalog: &dyn Catalog, root: &str) -> Vec<String> {
    catalog
        .relation(root)
        .map(|r| r.columns.into_iter().map(|c| c.name).collect())
        .unwrap_or_default()
}

/// The tree's objects made again, with its keys as SQLite reads them.
fn remade(tree: &Tree, catalog: &dyn Catalog) -> Vec<String> {
    let root = tree.root().name.clone();
    let keys = |node: &PartitionNode| sqlite_keys(catalog, &root, node);
    tree.made(&keys, &columns(catalog, &root))
}

fn exists_error(name: &str) -> Error {
    Error::state(
        SqlState::DUPLICATE_TABLE,
        format!("relation \"{name}\" already exists"),
    )
}

/// A new partition `node` of its parent with `bound`: checked as PostgreSQL
/// checks it, recorded, and the tree's objects made again. `moved` is the
/// table an ATTACH brings in, whose rows join the root's, with its own
/// partitions where it is partitioned.
fn add_partition(
    node: PartitionNode,
    bound: &ForValues,
    catalog: &dyn Catalog,
    if_not_exists: bool,
    moved: Option<(&str, Option<Tree>)>,
) -> Result<PartitionDdl, Error> {
    let parent_name = node.parent.clone().unwrap_or_default();
    if moved.is_none() && catalog.relation(&node.name).is_some() {
        return match if_not_exists {
            true => Ok(PartitionDdl {
                create: None,
                statements: Vec::new(),
            }),
            false => Err(exists_error(&node.name)),
        };
    }
    let Some(mut tree) = Tree::of(catalog.partitions(), &parent_name) else {
        return Err(match catalog.relation(&parent_name) {
            Some(_) => Error::state(
                SqlState::INVALID_OBJECT_DEFINITION,
                format!("table \"{parent_name}\" is not partitioned"),
            ),
            None => Error::state(
                SqlState::UNDEFINED_TABLE,
                format!("relation \"{parent_name}\" does not exist"),
            ),
        });
    };
    let parent = tree
        .node(&parent_name)
        .cloned()
        .unwrap_or_else(|| tree.root().clone());
    let Some(strategy) = parent.strategy.clone() else {
        return Err(Error::state(
            SqlState::WRONG_OBJECT_TYPE,
            format!("\"{parent_name}\" is not partitioned"),
        ));
    };
    validate(bound, &strategy, parent.key.len())?;
    let root = tree.root().name.clone();
    let keys = |n: &PartitionNode| sqlite_keys(catalog, &root, n);
    let mut statements = vec![CREATE_TABLE.to_owned()];
    let overlap = |other: &str| {
        Error::state(
            SqlState::INVALID_OBJECT_DEFINITION,
            format!(
                "partition \"{}\" would overlap partition \"{other}\"",
                node.name
            ),
        )
    };
    let siblings: Vec<(String, ForValues)> = tree
        .children(&parent.name)
        .filter_map(|n| Some((n.name.clone(), parse(n.bound.as_deref()?)?)))
        .collect();
    let default = siblings
        .iter()
        .find(|(_, b)| matches!(b, ForValues::Default));
    if let (ForValues::Default, Some((other, _))) = (bound, default) {
        return Err(Error::state(
            SqlState::INVALID_OBJECT_DEFINITION,
            format!(
                "partition \"{}\" conflicts with existing default partition \"{other}\"",
                node.name
            ),
        ));
    }
    for (other, theirs) in &siblings {
        if lists_overlap(bound, theirs) || hashes_overlap(bound, theirs) {
            return Err(overlap(other));
        }
        if let (ForValues::From { from, to }, ForValues::From { from: f2, to: t2 }) =
            (bound, theirs)
        {
            statements.push(failing(
                "42P17",
                &format!(
                    "partition \"{}\" would overlap partition \"{other}\"",
                    node.name
                ),
                &format!("{} AND {}", before(from, t2), before(f2, to)),
            ));
        }
    }
    if let ForValues::From { from, to } = bound {
        statements.push(failing(
            "42P17",
            &format!(
                "empty range bound specified for partition \"{}\"",
                node.name
            ),
            &format!("NOT {}", before(from, to)),
        ));
    }
    // A default partition's rows that the new one would take stay where
    // they are: PostgreSQL refuses the partition.
    if let Some((other, _)) = default {
        let taken = bounds::condition(bound, &keys(&parent), &[]);
        statements.push(failing(
            "23514",
            &format!("updated partition constraint for default partition \"{other}\" would be violated by some row"),
            &format!(
                "EXISTS (SELECT 1 FROM main.{} AS {} WHERE {taken})",
                identifier(other),
                identifier(&root)
            ),
        ));
    }
    let mut below = Vec::new();
    if let Some((table, own)) = &moved {
        let table = *table;
        let columns = columns(catalog, &root);
        let quoted: Vec<String> = columns.iter().map(|c| identifier(c)).collect();
        let mut probe = tree.clone();
        probe.nodes.push(node.clone());
        statements.push(failing(
            "23514",
            &format!("partition constraint of relation \"{table}\" is violated by some row"),
            &format!(
                "EXISTS (SELECT 1 FROM main.{} AS {} WHERE NOT ({}))",
                identifier(table),
                identifier(&root),
                probe.condition(&node.name, &keys)
            ),
        ));
        // The rows move in before the tree knows the partition: the routing
        // triggers would refuse them otherwise.
        statements.extend(tree.dropped());
        statements.push(format!(
            "INSERT INTO main.{} ({}) SELECT {} FROM main.{}",
            identifier(&root),
            quoted.join(", "),
            quoted.join(", "),
            identifier(table)
        ));
        if let Some(own) = own {
            statements.extend(own.dropped());
            below.extend(own.nodes.iter().skip(1).cloned());
        }
        statements.push(format!("DROP TABLE main.{}", identifier(table)));
    }
    statements.push(match &moved {
        Some((_, Some(_))) => format!(
            "UPDATE main.{PARTITIONS_TABLE} SET parent = {}, bound = {}, shown = {} WHERE name = {}",
            literal(&parent.name),
            literal(node.bound.as_deref().unwrap_or_default()),
            literal(node.shown.as_deref().unwrap_or_default()),
            literal(&node.name)
        ),
        _ => node_row(&node),
    });
    tree.nodes.push(node);
    tree.nodes.extend(below);
    statements.extend(remade(&tree, catalog));
    Ok(PartitionDdl {
        create: None,
        statements,
    })
}

/// A statement that fails with `state` and `message` where `condition` holds.
fn failing(state: &str, message: &str, condition: &str) -> String {
    format!(
        "SELECT litewire_error('{state}', {}) WHERE {condition}",
        literal(message)
    )
}

/// `DROP TABLE [IF EXISTS] a, b [CASCADE | RESTRICT]` naming a partitioned
/// table or a partition.
fn drop(w: &Words, catalog: &dyn Catalog) -> Option<Result<PartitionDdl, Error>> {
    let (if_exists, start) = match w.is(2, "IF") && w.is(3, "EXISTS") {
        true => (true, 4),
        false => (false, 2),
    };
    let (names, _) = w.name_list(start, &["CASCADE", "RESTRICT"]);
    let names: Vec<String> = names
        .iter()
        .map(|n| crate::sql::schema_names::stored_written(n))
        .collect();
    let mut all = catalog.partitions().to_vec();
    if !names.iter().any(|n| Tree::of(&all, n).is_some()) {
        return None;
    }
    let mut statements = Vec::new();
    for name in &names {
        let Some(mut tree) = Tree::of(&all, name) else {
            let guard = if if_exists { "IF EXISTS " } else { "" };
            statements.push(format!("DROP TABLE {guard}main.{}", identifier(name)));
            continue;
        };
        let root = tree.root().name.clone();
        let gone = tree.subtree(name);
        if root.eq_ignore_ascii_case(name) {
            statements.extend(tree.dropped());
            statements.push(format!("DROP TABLE main.{}", identifier(&root)));
        } else {
            let keys = |n: &PartitionNode| sqlite_keys(catalog, &root, n);
            statements.push(format!(
                "DELETE FROM main.{} WHERE {}",
                identifier(&root),
                tree.condition(name, &keys)
            ));
            statements.extend(tree.dropped());
            tree.nodes
                .retain(|n| !gone.iter().any(|g| g.eq_ignore_ascii_case(&n.name)));
            statements.extend(tree.made(&keys, &columns(catalog, &root)));
        }
        statements.push(format!(
            "DELETE FROM main.{PARTITIONS_TABLE} WHERE name IN ({})",
            gone.iter()
                .map(|g| literal(g))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        all.retain(|n| !gone.iter().any(|g| g.eq_ignore_ascii_case(&n.name)));
    }
    Some(Ok(PartitionDdl {
        create: None,
        statements,
    }))
}

/// `TRUNCATE [TABLE] [ONLY] a, b ...` naming a partition: its rows are the
/// root's that meet its condition.
fn truncate(w: &Words, catalog: &dyn Catalog) -> Option<Result<PartitionDdl, Error>> {
    let mut i = 1;
    while w.is(i, "TABLE") || w.is(i, "ONLY") {
        i += 1;
    }
    let (names, end) = w.name_list(i, &["RESTART", "CONTINUE", "CASCADE", "RESTRICT"]);
    let names: Vec<String> = names
        .iter()
        .map(|n| crate::sql::schema_names::stored_written(n))
        .collect();
    let all = catalog.partitions();
    if !names
        .iter()
        .any(|n| Tree::of(all, n).is_some_and(|t| !t.root().name.eq_ignore_ascii_case(n)))
    {
        return None;
    }
    let mut statements: Vec<String> = names
        .iter()
        .map(|name| match Tree::of(all, name) {
            Some(tree) => {
                let root = tree.root().name.clone();
                let keys = |n: &PartitionNode| sqlite_keys(catalog, &root, n);
                format!(
                    "DELETE FROM main.{} WHERE {}",
                    identifier(&root),
                    tree.condition(name, &keys)
                )
            }
            None => format!("DELETE FROM main.{}", identifier(name)),
        })
        .collect();
    if w.is(end, "RESTART") && w.is(end + 1, "IDENTITY") {
        statements.extend(dialect::restart_owned_sequences(&names));
    }
    Some(Ok(PartitionDdl {
        create: None,
        statements,
    }))
}

/// `ALTER TABLE [IF EXISTS] [ONLY] parent ATTACH PARTITION t {FOR VALUES ...
/// | DEFAULT}`: `t`'s rows join the root's, and `t` is a view of them.
fn attach(w: &Words, catalog: &dyn Catalog) -> Option<Result<PartitionDdl, Error>> {
    if !(0..w.tokens.len()).any(|i| w.is(i, "ATTACH") && w.is(i + 1, "PARTITION")) {
        return None;
    }
    let parsed = Parser::parse_sql(&PostgreSqlDialect {}, w.sql).ok()?;
    let Some(Ast::AlterTable(alter)) = parsed.into_iter().next() else {
        return None;
    };
    let [
        AlterTableOperation::AttachPartitionOf {
            partition,
            for_values,
        },
    ] = alter.operations.as_slice()
    else {
        return None;
    };
    let parent = folded_last(&alter.name);
    Tree::of(catalog.partitions(), &parent)?;
    let (for_values, read, shown) = bound_forms(for_values, &parent, catalog);
    let for_values = &for_values;
    let table = folded_last(partition);
    Some(match catalog.relation(&table) {
        None => Err(Error::state(
            SqlState::UNDEFINED_TABLE,
            format!("relation \"{table}\" does not exist"),
        )),
        // A partitioned table brings its partitions along.
        Some(_) if let Some(own) = Tree::of(catalog.partitions(), &table) => {
            match own.root().name.eq_ignore_ascii_case(&table) {
                true => {
                    let node = PartitionNode {
                        parent: Some(parent),
                        bound: Some(read),
                        shown: Some(shown),
                        ..own.root().clone()
                    };
                    add_partition(node, for_values, catalog, false, Some((&table, Some(own))))
                }
                false => Err(Error::state(
                    SqlState::INVALID_OBJECT_DEFINITION,
                    format!("\"{table}\" is already a partition"),
                )),
            }
        }
        Some(relation) if relation.view => Err(Error::state(
            SqlState::WRONG_OBJECT_TYPE,
            format!("\"{table}\" is not a table"),
        )),
        Some(_) => {
            let node = PartitionNode {
                name: table.clone(),
                parent: Some(parent),
                strategy: None,
                key: Vec::new(),
                bound: Some(read),
                shown: Some(shown),
            };
            add_partition(node, for_values, catalog, false, Some((&table, None)))
        }
    })
}
