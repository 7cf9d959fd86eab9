//! Parameter types, inferred from where each parameter is used.
//!
//! SQLite does not type parameters, but PostgreSQL drivers ask for them
//! (Describe answers with ParameterDescription) and then encode values to match:
//! tokio-postgres refuses to send an `i32` for a parameter described as text, and
//! asyncpg refuses an `int` for one described as text. PostgreSQL gives an
//! untyped parameter the type its use implies, and so does this module, over
//! the statement as the client wrote it (where casts such as `$1::date` still
//! say their type) and, when that does not parse as PostgreSQL, over its SQLite
//! translation:
//!
//! - a value stored into a column (INSERT with or without a column list, each
//!   row of VALUES, the select list of INSERT ... SELECT, UPDATE's and ON
//!   CONFLICT's SET) takes the column's declared type;
//! - an operand of a comparison, arithmetic, BETWEEN or IN takes the type of
//!   the other operand (a column, a literal, a cast, a function's result, a
//!   scalar subquery's column); `x = ANY($1)` takes an array of `x`'s type;
//! - `||`, LIKE and regular expressions take text, AND/OR/NOT and WHERE boolean;
//! - the arguments of `coalesce`, `nullif`, `greatest`, `least` and the results
//!   of a CASE take the type of whichever of them has one;
//! - arguments of functions whose signature PostgreSQL fixes (`length` text,
//!   `substr` text and integers, ...) take that type;
//! - `LIMIT`/`OFFSET`/`FETCH` counts take bigint; a cast takes the cast's type.
//!
//! Columns resolve against the tables of the innermost query first, then of
//! the queries around it (a correlated subquery sees its outer query's
//! tables). The engine turns the hints into declared types against the schema;
//! a parameter nothing types is text, as in PostgreSQL.

use std::ops::ControlFlow;

use sqlparser::ast::{
    ArrayElemTypeDef, AssignmentTarget, BinaryOperator, DataType, Expr, FromTable, Function,
    FunctionArg, FunctionArgExpr, FunctionArguments, InTarget, LimitClause, ObjectName,
    ObjectNamePart, OnConflictAction, OnInsert, Query, Select, SelectItem, SetExpr,
    Statement as Ast, TableAliasColumnDef, TableFactor, TableObject, TableWithJoins, UnaryOperator,
    UpdateTableFromKind, Value, Visit, Visitor,
};
use sqlparser::dialect::{Dialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

/// What a parameter's type should be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamHint {
    /// The declared type of `column` in the first of `tables` that has it.
    Column { tables: Vec<String>, column: String },
    /// The declared type of the `index`th (0-based) column that an INSERT without
    /// a column list fills in `table`: its columns in order, less generated ones.
    Position { table: String, index: usize },
    /// A type named in the statement (a cast) or implied by an operator or a
    /// function, as SQLite would declare it (`bigint`, `text`, `date`, `int[]`).
    Declared(String),
    /// An array whose elements have the hinted type (`x = ANY($1)`).
    ArrayOf(Box<ParamHint>),
    /// Beside a value of the hinted type in an operator (a comparison,
    /// arithmetic, BETWEEN, IN): that type, except that varchar has no operators
    /// of its own (PostgreSQL compares it as text), so beside a varchar a
    /// parameter is text.
    Operand(Box<ParamHint>),
}

/// A hint for each of the `count` parameters of a statement: `source` is the
/// statement as the client sent it (`$N` parameters), `sqlite` its translation
/// (`?N`), read when `source` is not PostgreSQL that sqlparser understands.
pub fn param_hints(source: &str, sqlite: &str, count: usize) -> Vec<Option<ParamHint>> {
    let mut hints = vec![None; count];
    if count == 0 {
        return hints;
    }
    let parsed = parse(&PostgreSqlDialect {}, source).or_else(|| parse(&SQLiteDialect {}, sqlite));
    if let Some(ast) = parsed {
        let mut inference = Inference {
            frames: Vec::new(),
            hints: &mut hints,
        };
        let _ = ast.visit(&mut inference);
    }
    hints
}

fn parse(dialect: &dyn Dialect, sql: &str) -> Option<Ast> {
    Parser::parse_sql(dialect, sql).ok()?.into_iter().next()
}

/// The relations one query (or statement) reads, by the name its columns are
/// qualified with (an alias, else the relation's own name), and the WITH
/// queries it defines.
#[derive(Default)]
struct Frame {
    /// (lower-case qualifier, where its columns come from).
    entries: Vec<(String, Source)>,
    /// (lower-case name, output columns) of each WITH query.
    ctes: Vec<(String, Columns)>,
}

/// Where a relation's columns come from.
enum Source {
    /// A table of the schema: its columns' declared types.
    Table(String),
    /// A derived table or WITH query: each column's type, as inferred from
    /// its select list.
    Derived(Columns),
}

/// Output columns by name (lower-case), with the type each was inferred to have.
type Columns = Vec<(String, Option<ParamHint>)>;

impl Frame {
    fn add(&mut self, qualifier: &str, source: Source) {
        self.entries.push((qualifier.to_ascii_lowercase(), source));
    }
}

/// Walks a statement, giving each parameter the first type its uses imply.
struct Inference<'a> {
    /// The relations in scope, outermost first.
    frames: Vec<Frame>,
    hints: &'a mut Vec<Option<ParamHint>>,
}

impl Inference<'_> {
    fn set(&mut self, n: usize, hint: ParamHint) {
        if let Some(slot) = n.checked_sub(1).and_then(|i| self.hints.get_mut(i))
            && slot.is_none()
        {
            *slot = Some(hint);
        }
    }

    /// The type of a column reference: a derived relation's column's, or the
    /// declared type of the column in the first of the tables in scope that has
    /// it (the innermost query's first).
    fn column(&self, qualifier: Option<&str>, column: &str) -> Option<ParamHint> {
        let named = |columns: &Columns| {
            columns
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(column))
                .map(|(_, hint)| hint.clone())
        };
        let mut tables: Vec<String> = Vec::new();
        for frame in self.frames.iter().rev() {
            if let Some(qualifier) = qualifier {
                let found = frame
                    .entries
                    .iter()
                    .find(|(name, _)| name.eq_ignore_ascii_case(qualifier));
                match found {
                    Some((_, Source::Table(table))) => tables.push(table.clone()),
                    Some((_, Source::Derived(columns))) => return named(columns).flatten(),
                    None => continue,
                }
                break;
            }
            let derived = frame.entries.iter().find_map(|(_, source)| match source {
                Source::Derived(columns) => named(columns),
                Source::Table(_) => None,
            });
            if let Some(hint) = derived {
                // A table of a nearer query may have the column too.
                if tables.is_empty() {
                    return hint;
                }
                break;
            }
            for (_, source) in &frame.entries {
                if let Source::Table(table) = source
                    && !tables.contains(table)
                {
                    tables.push(table.clone());
                }
            }
        }
        if tables.is_empty() {
            // A qualifier not in scope may still name a table.
            tables.extend(qualifier.map(str::to_owned));
        }
        (!tables.is_empty()).then(|| ParamHint::Column {
            tables,
            column: column.to_owned(),
        })
    }

    /// The relations a query's own SELECTs read (not those of queries nested in
    /// them), after the WITH queries it defines.
    fn frame_of_query(&mut self, query: &Query) -> Frame {
        // The WITH queries first, in a frame of their own while the rest is
        // read: each sees the ones before it, and the FROM lists see them all.
        self.frames.push(Frame::default());
        for cte in query.with.iter().flat_map(|with| &with.cte_tables) {
            let columns = self.output_columns(&cte.query, &cte.alias.columns);
            if let Some(frame) = self.frames.last_mut() {
                frame
                    .ctes
                    .push((cte.alias.name.value.to_ascii_lowercase(), columns));
            }
        }
        let mut frame = Frame::default();
        self.add_body(&mut frame, &query.body);
        frame.ctes = self.frames.pop().map(|f| f.ctes).unwrap_or_default();
        frame
    }

    fn add_body(&mut self, frame: &mut Frame, body: &SetExpr) {
        match body {
            SetExpr::Select(select) => self.add_from(frame, &select.from),
            SetExpr::SetOperation { left, right, .. } => {
                self.add_body(frame, left);
                self.add_body(frame, right);
            }
            SetExpr::Query(query) => self.add_body(frame, &query.body),
            _ => {}
        }
    }

    /// The relations an INSERT, UPDATE or DELETE names itself.
    fn frame_of_statement(&mut self, statement: &Ast) -> Frame {
        let mut frame = Frame::default();
        match statement {
            Ast::Insert(insert) => {
                if let TableObject::TableName(name) = &insert.table
                    && let Some(table) = last(name)
                {
                    if let Some(alias) = &insert.table_alias {
                        frame.add(&alias.alias.value, Source::Table(table.clone()));
                    }
                    frame.add(&table, Source::Table(table.clone()));
                    // ON CONFLICT ... DO UPDATE reads the proposed row as `excluded`.
                    frame.add("excluded", Source::Table(table));
                }
            }
            Ast::Update(update) => {
                self.add_from(&mut frame, std::slice::from_ref(&update.table));
                if let Some(
                    UpdateTableFromKind::BeforeSet(from) | UpdateTableFromKind::AfterSet(from),
                ) = &update.from
                {
                    self.add_from(&mut frame, from);
                }
            }
            Ast::Delete(delete) => {
                let (FromTable::WithFromKeyword(from) | FromTable::WithoutKeyword(from)) =
                    &delete.from;
                self.add_from(&mut frame, from);
                if let Some(using) = &delete.using {
                    self.add_from(&mut frame, using);
                }
            }
            _ => {}
        }
        frame
    }

    fn add_from(&mut self, frame: &mut Frame, from: &[TableWithJoins]) {
        for table in from {
            self.add_factor(frame, &table.relation);
            for join in &table.joins {
                self.add_factor(frame, &join.relation);
            }
        }
    }

    fn add_factor(&mut self, frame: &mut Frame, factor: &TableFactor) {
        match factor {
            TableFactor::Table { name, alias, .. } => {
                let Some(table) = last(name) else { return };
                let source = match self.cte(frame, &table) {
                    Some(columns) => Source::Derived(columns),
                    None => Source::Table(table.clone()),
                };
                frame.add(alias.as_ref().map_or(&table, |a| &a.name.value), source);
            }
            TableFactor::Derived {
                subquery, alias, ..
            } => {
                let renames = alias.as_ref().map_or(&[][..], |a| &a.columns);
                let columns = self.output_columns(subquery, renames);
                if let Some(alias) = alias {
                    frame.add(&alias.name.value, Source::Derived(columns));
                }
            }
            TableFactor::NestedJoin {
                table_with_joins, ..
            } => self.add_from(frame, std::slice::from_ref(table_with_joins.as_ref())),
            _ => {}
        }
    }

    /// The output columns of the WITH query `name` in scope, nearest first.
    fn cte(&self, frame: &Frame, name: &str) -> Option<Columns> {
        std::iter::once(frame)
            .chain(self.frames.iter().rev())
            .flat_map(|f| f.ctes.iter())
            .find(|(cte, _)| cte.eq_ignore_ascii_case(name))
            .map(|(_, columns)| columns.clone())
    }

    /// A subquery's output columns, named as its select list (or `renames`)
    /// names them, each with its type inferred in the subquery's own scope.
    fn output_columns(&mut self, query: &Query, renames: &[TableAliasColumnDef]) -> Columns {
        let Some(select) = first_select(query) else {
            return Vec::new();
        };
        let frame = self.frame_of_query(query);
        self.frames.push(frame);
        let mut columns: Columns = Vec::new();
        for item in &select.projection {
            let (name, expr) = match item {
                SelectItem::UnnamedExpr(expr) => (output_name(expr), expr),
                SelectItem::ExprWithAlias { expr, alias } => (alias.value.clone(), expr),
                // Whose columns a wildcard stands for is not known here.
                _ => break,
            };
            let hint = self.infer(expr);
            columns.push((name.to_ascii_lowercase(), hint));
        }
        self.frames.pop();
        for ((name, _), rename) in columns.iter_mut().zip(renames) {
            *name = rename.name.value.to_ascii_lowercase();
        }
        columns
    }

    /// The type an expression has, as far as the statement shows it.
    fn infer(&mut self, expr: &Expr) -> Option<ParamHint> {
        match expr {
            Expr::Identifier(ident) => self.column(None, &ident.value),
            Expr::CompoundIdentifier(parts) => match parts.as_slice() {
                [.., qualifier, column] => self.column(Some(&qualifier.value), &column.value),
                _ => None,
            },
            Expr::Nested(inner) => self.infer(inner),
            Expr::Cast { data_type, .. } => cast_type(data_type).map(ParamHint::Declared),
            Expr::TypedString(typed) => cast_type(&typed.data_type).map(ParamHint::Declared),
            Expr::Value(value) => literal_type(&value.value).map(declared),
            Expr::BinaryOp { left, op, right } => match op {
                op if is_arithmetic(op) => match self.infer(left) {
                    Some(hint) => Some(hint),
                    None => self.infer(right),
                },
                BinaryOperator::StringConcat | BinaryOperator::LongArrow => Some(declared("text")),
                op if is_comparison(op) || is_text_match(op) => Some(declared("boolean")),
                BinaryOperator::And | BinaryOperator::Or => Some(declared("boolean")),
                _ => None,
            },
            Expr::UnaryOp { op, expr } => match op {
                UnaryOperator::Minus | UnaryOperator::Plus => self.infer(expr),
                UnaryOperator::Not => Some(declared("boolean")),
                _ => None,
            },
            Expr::IsNull(_)
            | Expr::IsNotNull(_)
            | Expr::IsTrue(_)
            | Expr::IsFalse(_)
            | Expr::IsDistinctFrom(..)
            | Expr::IsNotDistinctFrom(..)
            | Expr::In { .. }
            | Expr::Between { .. }
            | Expr::Like { .. }
            | Expr::ILike { .. }
            | Expr::SimilarTo { .. }
            | Expr::Exists { .. }
            | Expr::AnyOp { .. }
            | Expr::AllOp { .. } => Some(declared("boolean")),
            Expr::Trim { .. } | Expr::Substring { .. } | Expr::Overlay { .. } => {
                Some(declared("text"))
            }
            Expr::Position { .. } => Some(declared("integer")),
            Expr::Ceil { expr, .. } | Expr::Floor { expr, .. } => self.infer(expr),
            Expr::Case {
                conditions,
                else_result,
                ..
            } => {
                let results: Vec<&Expr> = conditions
                    .iter()
                    .map(|when| &when.result)
                    .chain(else_result.as_deref())
                    .collect();
                self.first_known(results)
            }
            Expr::Function(function) => self.function_result(function),
            Expr::Subquery(query) => self.query_column(query),
            _ => None,
        }
    }

    fn first_known<'e>(&mut self, exprs: impl IntoIterator<Item = &'e Expr>) -> Option<ParamHint> {
        exprs.into_iter().find_map(|e| self.infer(e))
    }

    /// The type of a scalar subquery: its first column's, in its own scope.
    fn query_column(&mut self, query: &Query) -> Option<ParamHint> {
        let select = first_select(query)?;
        let expr = match select.projection.first()? {
            SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. } => expr,
            _ => return None,
        };
        let frame = self.frame_of_query(query);
        self.frames.push(frame);
        let hint = self.infer(expr);
        self.frames.pop();
        hint
    }

    fn function_result(&mut self, function: &Function) -> Option<ParamHint> {
        let name = function_name(function)?;
        let args = arguments(function);
        match name.as_str() {
            "count" => Some(declared("bigint")),
            "avg" => Some(declared("numeric")),
            "now"
            | "current_timestamp"
            | "transaction_timestamp"
            | "statement_timestamp"
            | "clock_timestamp" => Some(declared("timestamptz")),
            "current_date" => Some(declared("date")),
            "random" => Some(declared("double precision")),
            "gen_random_uuid" => Some(declared("uuid")),
            "abs" | "min" | "max" | "coalesce" | "nullif" | "greatest" | "least" => {
                self.first_known(args)
            }
            _ => match signature(&name, args.len()) {
                Some(Signature { result, .. }) => result.map(declared),
                None => None,
            },
        }
    }

    /// Gives `expr` the type `hint` where it is a parameter, or a parameter that
    /// decides its value (a CASE result, an argument of `coalesce`).
    fn expect(&mut self, expr: &Expr, hint: &ParamHint) {
        match expr {
            Expr::Nested(inner) => self.expect(inner, hint),
            Expr::Case {
                conditions,
                else_result,
                ..
            } => {
                for when in conditions {
                    self.expect(&when.result, hint);
                }
                if let Some(result) = else_result {
                    self.expect(result, hint);
                }
            }
            Expr::Function(function)
                if function_name(function).is_some_and(|name| is_unifying(&name)) =>
            {
                for arg in arguments(function) {
                    self.expect(arg, hint);
                }
            }
            _ => {
                if let Some(n) = placeholder(expr) {
                    self.set(n, hint.clone());
                }
            }
        }
    }

    /// Each side of a comparison (or arithmetic) takes the other's type; row
    /// values (`(a, b) = ($1, $2)`) element by element.
    fn compared(&mut self, a: &Expr, b: &Expr) {
        if let (Expr::Tuple(left), Expr::Tuple(right)) = (a, b) {
            for (a, b) in left.iter().zip(right) {
                self.compared(a, b);
            }
            return;
        }
        if let Some(hint) = self.infer(a) {
            self.expect(b, &operand(hint));
        }
        if let Some(hint) = self.infer(b) {
            self.expect(a, &operand(hint));
        }
    }

    /// Values that meet in one result (CASE branches, `coalesce` arguments): the
    /// untyped ones take the type of the first that has one.
    fn unified<'e>(&mut self, exprs: impl IntoIterator<Item = &'e Expr> + Clone) {
        if let Some(hint) = self.first_known(exprs.clone()) {
            for expr in exprs {
                self.expect(expr, &hint);
            }
        }
    }

    fn fixed(&mut self, expr: &Expr, type_name: &str) {
        self.expect(expr, &declared(type_name));
    }

    /// Values an INSERT, UPDATE or ON CONFLICT stores into columns.
    fn stored_values(&mut self, statement: &Ast) {
        match statement {
            Ast::Insert(insert) => {
                let TableObject::TableName(name) = &insert.table else {
                    return;
                };
                let Some(table) = last(name) else { return };
                let target = |index: usize| -> Option<ParamHint> {
                    if insert.columns.is_empty() {
                        return Some(ParamHint::Position {
                            table: table.clone(),
                            index,
                        });
                    }
                    Some(ParamHint::Column {
                        tables: vec![table.clone()],
                        column: insert.columns.get(index).and_then(last)?,
                    })
                };
                if let Some(source) = &insert.source {
                    for row in stored_rows(&source.body) {
                        for (index, expr) in row.into_iter().enumerate() {
                            if let Some(hint) = target(index) {
                                self.expect(expr, &hint);
                            }
                        }
                    }
                }
                if let Some(OnInsert::OnConflict(conflict)) = &insert.on
                    && let OnConflictAction::DoUpdate(update) = &conflict.action
                {
                    for assignment in &update.assignments {
                        self.assigned(&table, &assignment.target, &assignment.value);
                    }
                }
            }
            Ast::Update(update) => {
                let TableFactor::Table { name, .. } = &update.table.relation else {
                    return;
                };
                let Some(table) = last(name) else { return };
                for assignment in &update.assignments {
                    self.assigned(&table, &assignment.target, &assignment.value);
                }
            }
            _ => {}
        }
    }

    /// `SET col = value`, and `SET (a, b) = ($1, $2)` element by element.
    fn assigned(&mut self, table: &str, target: &AssignmentTarget, value: &Expr) {
        let hint = |name: &ObjectName| {
            Some(ParamHint::Column {
                tables: vec![table.to_owned()],
                column: last(name)?,
            })
        };
        match (target, value) {
            (AssignmentTarget::ColumnName(name), value) => {
                if let Some(hint) = hint(name) {
                    self.expect(value, &hint);
                }
            }
            (AssignmentTarget::Tuple(names), Expr::Tuple(values)) => {
                for (name, value) in names.iter().zip(values) {
                    if let Some(hint) = hint(name) {
                        self.expect(value, &hint);
                    }
                }
            }
            _ => {}
        }
    }

    fn function_arguments(&mut self, function: &Function) {
        let Some(name) = function_name(function) else {
            return;
        };
        let args = arguments(function);
        if is_unifying(&name) {
            self.unified(args.iter().copied());
            return;
        }
        if let Some(signature) = signature(&name, args.len()) {
            for (i, arg) in args.into_iter().enumerate() {
                let type_name = signature
                    .args
                    .get(i)
                    .or_else(|| signature.args.last().filter(|_| signature.variadic));
                if let Some(type_name) = type_name {
                    self.fixed(arg, type_name);
                }
            }
        }
    }

    fn limit_count(&mut self, expr: &Expr) {
        self.fixed(expr, "bigint");
    }
}

impl Visitor for Inference<'_> {
    type Break = ();

    fn pre_visit_statement(&mut self, statement: &Ast) -> ControlFlow<()> {
        let frame = self.frame_of_statement(statement);
        self.frames.push(frame);
        self.stored_values(statement);
        let condition = match statement {
            Ast::Update(update) => update.selection.as_ref(),
            Ast::Delete(delete) => delete.selection.as_ref(),
            _ => None,
        };
        if let Some(condition) = condition {
            self.fixed(condition, "boolean");
        }
        ControlFlow::Continue(())
    }

    fn post_visit_statement(&mut self, _: &Ast) -> ControlFlow<()> {
        self.frames.pop();
        ControlFlow::Continue(())
    }

    fn pre_visit_query(&mut self, query: &Query) -> ControlFlow<()> {
        let frame = self.frame_of_query(query);
        self.frames.push(frame);
        match &query.limit_clause {
            Some(LimitClause::LimitOffset { limit, offset, .. }) => {
                if let Some(limit) = limit {
                    self.limit_count(limit);
                }
                if let Some(offset) = offset {
                    self.limit_count(&offset.value);
                }
            }
            Some(LimitClause::OffsetCommaLimit { offset, limit }) => {
                self.limit_count(offset);
                self.limit_count(limit);
            }
            None => {}
        }
        if let Some(quantity) = query.fetch.as_ref().and_then(|f| f.quantity.as_ref()) {
            self.limit_count(quantity);
        }
        if let SetExpr::Select(select) = query.body.as_ref() {
            for condition in select.selection.iter().chain(&select.having) {
                self.fixed(condition, "boolean");
            }
        }
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
        self.frames.pop();
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<()> {
        match expr {
            Expr::BinaryOp { left, op, right } => match op {
                op if is_comparison(op) || is_arithmetic(op) => self.compared(left, right),
                op if is_text_match(op) || *op == BinaryOperator::StringConcat => {
                    self.fixed(left, "text");
                    self.fixed(right, "text");
                }
                BinaryOperator::And | BinaryOperator::Or => {
                    self.fixed(left, "boolean");
                    self.fixed(right, "boolean");
                }
                // A JSON key or index: of json's (text) and (integer) forms,
                // PostgreSQL picks text for an untyped one.
                BinaryOperator::Arrow | BinaryOperator::LongArrow => self.fixed(right, "text"),
                _ => {}
            },
            Expr::UnaryOp {
                op: UnaryOperator::Not,
                expr,
            } => self.fixed(expr, "boolean"),
            Expr::IsDistinctFrom(a, b) | Expr::IsNotDistinctFrom(a, b) => self.compared(a, b),
            Expr::Like { expr, pattern, .. }
            | Expr::ILike { expr, pattern, .. }
            | Expr::SimilarTo { expr, pattern, .. } => {
                self.fixed(expr, "text");
                self.fixed(pattern, "text");
            }
            Expr::In {
                expr,
                target: InTarget::List(list),
                ..
            } => {
                for item in list {
                    self.compared(expr, item);
                }
            }
            Expr::In {
                expr,
                target: InTarget::Subquery(query),
                ..
            } => {
                if let Some(hint) = self.query_column(query) {
                    self.expect(expr, &operand(hint));
                }
            }
            Expr::Between {
                expr, low, high, ..
            } => {
                self.compared(expr, low);
                self.compared(expr, high);
            }
            Expr::AnyOp { left, right, .. } | Expr::AllOp { left, right, .. } => {
                if let Some(element) = self.infer(left) {
                    self.array_of(right, operand(element));
                }
            }
            Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                if let Some(operand) = operand {
                    for when in conditions {
                        self.compared(operand, &when.condition);
                    }
                } else {
                    for when in conditions {
                        self.fixed(&when.condition, "boolean");
                    }
                }
                let results = conditions
                    .iter()
                    .map(|when| &when.result)
                    .chain(else_result.as_deref());
                self.unified(results);
            }
            Expr::Cast {
                expr, data_type, ..
            } => {
                if let Some(name) = cast_type(data_type) {
                    self.fixed(expr, &name);
                }
            }
            Expr::Function(function) => self.function_arguments(function),
            // `substring(x FROM $1 FOR $2)`: of its (text, integer, integer) and
            // regular expression (text, text, text) forms, PostgreSQL picks the
            // text one for untyped arguments; `substr` has only the first.
            Expr::Substring {
                expr,
                substring_from,
                substring_for,
                shorthand,
                ..
            } => {
                self.fixed(expr, "text");
                let bound = if *shorthand { "integer" } else { "text" };
                for bound_expr in [substring_from, substring_for].into_iter().flatten() {
                    self.fixed(bound_expr, bound);
                }
            }
            Expr::Ceil { expr, .. } | Expr::Floor { expr, .. } => {
                self.fixed(expr, "double precision")
            }
            Expr::Trim {
                expr, trim_what, ..
            } => {
                self.fixed(expr, "text");
                if let Some(what) = trim_what {
                    self.fixed(what, "text");
                }
            }
            Expr::Position { expr, r#in } => {
                self.fixed(expr, "text");
                self.fixed(r#in, "text");
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Inference<'_> {
    /// `x = ANY($1)`: `$1` is an array of `x`'s type; `x = ANY(ARRAY[$1, $2])`:
    /// each element is of `x`'s type.
    fn array_of(&mut self, expr: &Expr, element: ParamHint) {
        match expr {
            Expr::Nested(inner) => self.array_of(inner, element),
            Expr::Array(array) => {
                for item in &array.elem {
                    self.expect(item, &element);
                }
            }
            _ => self.expect(expr, &ParamHint::ArrayOf(Box::new(element))),
        }
    }
}

/// A query's first SELECT (the left of a UNION), which names its columns.
fn first_select(query: &Query) -> Option<&Select> {
    let mut body = query.body.as_ref();
    loop {
        match body {
            SetExpr::Select(select) => return Some(select),
            SetExpr::SetOperation { left, .. } => body = left.as_ref(),
            SetExpr::Query(inner) => body = inner.body.as_ref(),
            _ => return None,
        }
    }
}

/// The name PostgreSQL gives an unaliased output column: a column reference's
/// column, a function's name, else `?column?`.
fn output_name(expr: &Expr) -> String {
    match expr {
        Expr::Identifier(ident) => ident.value.clone(),
        Expr::CompoundIdentifier(parts) => parts
            .last()
            .map_or_else(|| "?column?".to_owned(), |p| p.value.clone()),
        Expr::Function(function) => {
            function_name(function).unwrap_or_else(|| "?column?".to_owned())
        }
        Expr::Cast { expr, .. } | Expr::Nested(expr) => output_name(expr),
        _ => "?column?".to_owned(),
    }
}

/// The rows of values an INSERT's source produces: each VALUES row, or each
/// SELECT's list (both sides of a UNION).
fn stored_rows(body: &SetExpr) -> Vec<Vec<&Expr>> {
    match body {
        SetExpr::Values(values) => values.rows.iter().map(|row| row.iter().collect()).collect(),
        SetExpr::Select(select) => vec![
            select
                .projection
                .iter()
                .map_while(|item| match item {
                    SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. } => {
                        Some(expr)
                    }
                    _ => None,
                })
                .collect(),
        ],
        SetExpr::SetOperation { left, right, .. } => {
            let mut rows = stored_rows(left);
            rows.extend(stored_rows(right));
            rows
        }
        SetExpr::Query(query) => stored_rows(&query.body),
        _ => Vec::new(),
    }
}

/// What PostgreSQL's signature of a function fixes: the type of each argument
/// (the last repeats for a variadic one) and, where it is one type, the result's.
struct Signature {
    args: &'static [&'static str],
    variadic: bool,
    result: Option<&'static str>,
}

fn signature(name: &str, argc: usize) -> Option<Signature> {
    const TEXT: &[&str] = &["text"];
    const FLOAT: &[&str] = &["double precision"];
    fn fixed(args: &'static [&'static str], result: Option<&'static str>) -> Option<Signature> {
        Some(Signature::new(args, false, result))
    }
    match (name, argc) {
        ("length" | "char_length" | "character_length" | "octet_length" | "bit_length", _)
        | ("ascii", _) => fixed(TEXT, Some("integer")),
        (
            "lower" | "upper" | "initcap" | "reverse" | "md5" | "quote_ident" | "quote_literal",
            _,
        ) => fixed(TEXT, Some("text")),
        ("btrim" | "ltrim" | "rtrim", _) => fixed(&["text", "text"], Some("text")),
        ("strpos", _) => fixed(&["text", "text"], Some("integer")),
        ("starts_with", _) => fixed(&["text", "text"], Some("boolean")),
        ("replace" | "translate" | "regexp_replace", _) => {
            fixed(&["text", "text", "text"], Some("text"))
        }
        ("substr", _) => fixed(&["text", "integer", "integer"], Some("text")),
        ("left" | "right" | "repeat", _) => fixed(&["text", "integer"], Some("text")),
        ("lpad" | "rpad", _) => fixed(&["text", "integer", "text"], Some("text")),
        ("split_part", _) => fixed(&["text", "text", "integer"], Some("text")),
        ("concat" | "concat_ws", _) => Some(Signature::new(TEXT, true, Some("text"))),
        ("chr", _) => fixed(&["integer"], Some("text")),
        ("date_trunc" | "date_part", _) => fixed(TEXT, None),
        // Of the numeric overloads, PostgreSQL picks the one of its preferred
        // numeric type for an untyped argument; the result follows the argument.
        ("abs" | "sqrt" | "cbrt" | "exp" | "ln" | "sign" | "round", 1) => fixed(FLOAT, None),
        ("power" | "pow", 2) => fixed(&["double precision", "double precision"], None),
        ("round", 2) => fixed(&["numeric", "integer"], Some("numeric")),
        ("to_timestamp", 1) => fixed(FLOAT, Some("timestamptz")),
        ("to_timestamp", 2) => fixed(&["text", "text"], Some("timestamptz")),
        _ => None,
    }
}

impl Signature {
    fn new(args: &'static [&'static str], variadic: bool, result: Option<&'static str>) -> Self {
        Signature {
            args,
            variadic,
            result,
        }
    }
}

/// Functions whose arguments and result share one type.
fn is_unifying(name: &str) -> bool {
    matches!(name, "coalesce" | "nullif" | "greatest" | "least")
}

fn function_name(function: &Function) -> Option<String> {
    match function.name.0.last()? {
        ObjectNamePart::Identifier(ident) => Some(ident.value.to_ascii_lowercase()),
        ObjectNamePart::Function(_) => None,
    }
}

/// The plain argument expressions of a call.
fn arguments(function: &Function) -> Vec<&Expr> {
    match &function.args {
        FunctionArguments::List(list) => list
            .args
            .iter()
            .filter_map(|arg| match arg {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(expr)) => Some(expr),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn operand(hint: ParamHint) -> ParamHint {
    ParamHint::Operand(Box::new(hint))
}

fn declared(name: &str) -> ParamHint {
    ParamHint::Declared(name.to_owned())
}

/// The type of a literal, as PostgreSQL types a constant: an integer that fits
/// is an integer, other numbers numeric, a quoted string (compared with a
/// parameter) text.
fn literal_type(value: &Value) -> Option<&'static str> {
    match value {
        Value::Number(digits, _) if digits.parse::<i32>().is_ok() => Some("integer"),
        Value::Number(digits, _) if digits.parse::<i64>().is_ok() => Some("bigint"),
        Value::Number(..) => Some("numeric"),
        Value::SingleQuotedString(_) | Value::EscapedStringLiteral(_) => Some("text"),
        Value::DollarQuotedString(_) => Some("text"),
        Value::Boolean(_) => Some("boolean"),
        _ => None,
    }
}

/// A cast's type as a declared type name (without a schema), or `None` for a
/// type litewire has no PostgreSQL counterpart for in parameters: those that
/// name catalog objects (`regclass`, ...), intervals and types PostgreSQL does
/// not have built in, which drivers then send as text.
fn cast_type(data_type: &DataType) -> Option<String> {
    let name = match data_type {
        DataType::Array(
            ArrayElemTypeDef::SquareBracket(element, _) | ArrayElemTypeDef::AngleBracket(element),
        ) => return cast_type(element).map(|name| format!("{name}[]")),
        DataType::Custom(name, modifiers) if modifiers.is_empty() => last(name)?,
        DataType::Custom(name, modifiers) => {
            let modifiers: Vec<String> = modifiers.iter().map(ToString::to_string).collect();
            format!("{}({})", last(name)?, modifiers.join(","))
        }
        other => other.to_string(),
    };
    let base = name.split('(').next()?.trim().to_ascii_lowercase();
    BUILT_IN.contains(&base.as_str()).then_some(name)
}

/// The names of the built-in types a parameter can be decoded as.
const BUILT_IN: &[&str] = &[
    "smallint",
    "int2",
    "integer",
    "int",
    "int4",
    "bigint",
    "int8",
    "real",
    "float4",
    "float",
    "float8",
    "double",
    "double precision",
    "numeric",
    "decimal",
    "boolean",
    "bool",
    "text",
    "varchar",
    "character varying",
    "char",
    "character",
    "bpchar",
    "name",
    "bytea",
    "date",
    "time",
    "time without time zone",
    "timestamp",
    "timestamp without time zone",
    "timestamptz",
    "timestamp with time zone",
    "uuid",
    "json",
    "jsonb",
    "oid",
];

/// `=`, `<>`, `<`, `<=`, `>`, `>=`.
pub(crate) fn is_comparison(op: &BinaryOperator) -> bool {
    matches!(
        op,
        BinaryOperator::Eq
            | BinaryOperator::NotEq
            | BinaryOperator::Lt
            | BinaryOperator::LtEq
            | BinaryOperator::Gt
            | BinaryOperator::GtEq
    )
}

fn is_arithmetic(op: &BinaryOperator) -> bool {
    matches!(
        op,
        BinaryOperator::Plus
            | BinaryOperator::Minus
            | BinaryOperator::Multiply
            | BinaryOperator::Divide
            | BinaryOperator::Modulo
    )
}

/// LIKE spelled as an operator and the regular expression matches.
fn is_text_match(op: &BinaryOperator) -> bool {
    matches!(
        op,
        BinaryOperator::PGRegexMatch
            | BinaryOperator::PGRegexIMatch
            | BinaryOperator::PGRegexNotMatch
            | BinaryOperator::PGRegexNotIMatch
            | BinaryOperator::PGLikeMatch
            | BinaryOperator::PGILikeMatch
            | BinaryOperator::PGNotLikeMatch
            | BinaryOperator::PGNotILikeMatch
    )
}

/// `$N` or `?N` (1-based), looking through parentheses.
fn placeholder(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Value(v) => match &v.value {
            Value::Placeholder(p) => p
                .strip_prefix('$')
                .or_else(|| p.strip_prefix('?'))?
                .parse()
                .ok()
                .filter(|n| *n > 0),
            _ => None,
        },
        Expr::Nested(inner) => placeholder(inner),
        _ => None,
    }
}

fn last(name: &ObjectName) -> Option<String> {
    match name.0.last()? {
        ObjectNamePart::Identifier(ident) => Some(ident.value.clone()),
        ObjectNamePart::Function(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(table: &str, column: &str) -> Option<ParamHint> {
        Some(ParamHint::Column {
            tables: vec![table.into()],
            column: column.into(),
        })
    }

    fn hints(sql: &str, count: usize) -> Vec<Option<ParamHint>> {
        param_hints(sql, sql, count)
    }

    fn named(name: &str) -> Option<ParamHint> {
        Some(declared(name))
    }

    fn beside(hint: Option<ParamHint>) -> Option<ParamHint> {
        hint.map(operand)
    }

    #[test]
    fn hints_from_use() {
        assert_eq!(
            hints("INSERT INTO t (a, b) VALUES (?1, ?2)", 2),
            vec![column("t", "a"), column("t", "b")]
        );
        let position = |index| {
            Some(ParamHint::Position {
                table: "t".into(),
                index,
            })
        };
        assert_eq!(
            hints("INSERT INTO t VALUES ($1, 'x', $2), ($3, $4, $5)", 5),
            vec![
                position(0),
                position(2),
                position(0),
                position(1),
                position(2)
            ]
        );
        assert_eq!(
            hints("INSERT INTO t (b, a) VALUES ($1, $2), ($3, $4)", 4),
            vec![
                column("t", "b"),
                column("t", "a"),
                column("t", "b"),
                column("t", "a")
            ]
        );
        assert_eq!(
            hints("UPDATE t SET a = $2 WHERE id = $1", 2),
            vec![beside(column("t", "id")), column("t", "a")]
        );
        assert_eq!(
            hints(
                "SELECT * FROM t AS x JOIN u ON u.k = x.k WHERE x.a > $1 AND u.b IN ($2) LIMIT $3",
                3
            ),
            vec![
                beside(column("t", "a")),
                beside(column("u", "b")),
                named("bigint")
            ]
        );
        assert_eq!(
            hints("SELECT CAST(?1 AS INTEGER)", 1),
            vec![named("INTEGER")]
        );
        assert_eq!(hints("SELECT $1", 1), vec![None]);
        assert_eq!(hints("not sql at all", 1), vec![None]);
    }

    #[test]
    fn the_source_is_read_before_its_translation() {
        // The cast's type survives only in the client's text.
        assert_eq!(
            param_hints("SELECT $1::date", "SELECT CAST(?1 AS TEXT)", 1),
            vec![named("DATE")]
        );
        assert_eq!(
            param_hints("SELECT $1::pg_catalog.int8[]", "SELECT ?1", 1),
            vec![named("int8[]")]
        );
        // Catalog lookups by name stay text.
        assert_eq!(
            param_hints("SELECT $1::regclass", "SELECT ?1", 1),
            vec![None]
        );
        // Not PostgreSQL that sqlparser reads: the translation is.
        assert_eq!(
            param_hints(
                "INSERT OR REPLACE INTO t (a) VALUES ($1) garbage(",
                "INSERT INTO t (a) VALUES (?1)",
                1
            ),
            vec![column("t", "a")]
        );
    }

    #[test]
    fn insert_select_on_conflict_and_returning() {
        assert_eq!(
            hints("INSERT INTO t (a, b) SELECT $1, x FROM u WHERE y = $2", 2),
            vec![
                column("t", "a"),
                beside(Some(ParamHint::Column {
                    tables: vec!["u".into(), "t".into()],
                    column: "y".into()
                }))
            ]
        );
        assert_eq!(
            hints(
                "INSERT INTO t VALUES ($1, $2) ON CONFLICT (a) DO UPDATE SET b = $3, c = excluded.c + $4 RETURNING a + $5",
                5
            ),
            vec![
                Some(ParamHint::Position {
                    table: "t".into(),
                    index: 0
                }),
                Some(ParamHint::Position {
                    table: "t".into(),
                    index: 1
                }),
                column("t", "b"),
                beside(column("t", "c")),
                beside(column("t", "a"))
            ]
        );
    }

    #[test]
    fn operators_functions_and_case() {
        assert_eq!(
            hints(
                "SELECT a + $1, $2 || a, b LIKE $3, coalesce(c, $4), length($5) FROM t WHERE c BETWEEN $6 AND $7",
                7
            ),
            vec![
                beside(column("t", "a")),
                named("text"),
                named("text"),
                column("t", "c"),
                named("text"),
                beside(column("t", "c")),
                beside(column("t", "c"))
            ]
        );
        assert_eq!(
            hints(
                "SELECT CASE WHEN a = $1 THEN $2 ELSE b END, CASE c WHEN $3 THEN 1 END FROM t",
                3
            ),
            vec![
                beside(column("t", "a")),
                column("t", "b"),
                beside(column("t", "c"))
            ]
        );
        assert_eq!(
            hints("SELECT substr($1, $2), $3 = 7, $4 = 'x' OR $5", 5),
            vec![
                named("text"),
                named("integer"),
                beside(named("integer")),
                beside(named("text")),
                named("boolean")
            ]
        );
        assert_eq!(
            hints(
                "SELECT abs($1), round($2, $3), ceil($4), power($5, 2), greatest($6, 1), nullif($7, 2.5), substring($8 FROM $9 FOR $10)",
                10
            ),
            vec![
                named("double precision"),
                named("numeric"),
                named("integer"),
                named("double precision"),
                named("double precision"),
                named("integer"),
                named("numeric"),
                named("text"),
                named("text"),
                named("text")
            ]
        );
        assert_eq!(
            hints(
                "UPDATE t SET (a, b) = ($1, $2) WHERE (c, d) = ($3, $4) AND j ->> $5 = $6",
                6
            ),
            vec![
                column("t", "a"),
                column("t", "b"),
                beside(column("t", "c")),
                beside(column("t", "d")),
                named("text"),
                beside(named("text"))
            ]
        );
        // The other operand's type wins over the surrounding comparison.
        assert_eq!(
            hints("SELECT 1 FROM t WHERE a = length($1) + $2", 2),
            vec![named("text"), beside(named("integer"))]
        );
    }

    #[test]
    fn derived_tables_and_with_queries() {
        assert_eq!(
            hints(
                "WITH big AS (SELECT id, qty * 2 AS twice FROM t) SELECT * FROM big b JOIN (SELECT name AS n FROM u) AS s ON s.n = $1 WHERE b.twice > $2 AND id = $3 AND n LIKE $4",
                4
            ),
            vec![
                beside(column("u", "name")),
                beside(column("t", "qty")),
                beside(column("t", "id")),
                named("text")
            ]
        );
        // Columns renamed by the alias; a later WITH query reads an earlier one.
        assert_eq!(
            hints(
                "WITH a AS (SELECT k FROM t), b AS (SELECT k AS j FROM a) SELECT * FROM (SELECT j FROM b) AS s(x) WHERE x = $1",
                1
            ),
            vec![beside(column("t", "k"))]
        );
    }

    #[test]
    fn arrays_and_subqueries() {
        assert_eq!(
            hints(
                "SELECT * FROM t WHERE a = ANY($1) OR b = ANY(ARRAY[$2, $3])",
                3
            ),
            vec![
                Some(ParamHint::ArrayOf(Box::new(operand(ParamHint::Column {
                    tables: vec!["t".into()],
                    column: "a".into()
                })))),
                beside(column("t", "b")),
                beside(column("t", "b"))
            ]
        );
        // The subquery's own table first, then the outer one.
        assert_eq!(
            hints(
                "SELECT * FROM t WHERE id IN (SELECT tid FROM u WHERE x = $1) AND $2 IN (SELECT y FROM u) AND a > (SELECT max(z) FROM v) + $3",
                3
            ),
            vec![
                beside(Some(ParamHint::Column {
                    tables: vec!["u".into(), "t".into()],
                    column: "x".into()
                })),
                beside(Some(ParamHint::Column {
                    tables: vec!["u".into(), "t".into()],
                    column: "y".into()
                })),
                beside(Some(ParamHint::Column {
                    tables: vec!["v".into(), "t".into()],
                    column: "z".into()
                }))
            ]
        );
        assert_eq!(
            hints("SELECT * FROM t ORDER BY a LIMIT $1 OFFSET $2", 2),
            vec![named("bigint"), named("bigint")]
        );
    }
}
