//! A table's `CREATE TABLE` text, as SQLite keeps it, read into its columns and
//! constraints and edited: what an `ALTER TABLE` that SQLite cannot run itself
//! changes before the engine rebuilds the table under the new definition (see
//! `engine::rebuild`).
//!
//! The text is cut at its top-level commas and each part at the keywords that
//! start a column constraint; everything is kept as written except the parts an
//! edit touches, so SQLite syntax this module does not model (collations,
//! conflict clauses, `AUTOINCREMENT`, `WITHOUT ROWID`, ...) survives a rebuild.
//!
//! Constraints are known by the names PostgreSQL gives them (`t_pkey`,
//! `t_c_key`, `t_c_fkey`, `t_c_check`), the names the emulated catalog shows.

use super::lexer::{Token, TokenKind, tokenize};
use super::quote::{identifier, same_columns, unquote_identifier, unquote_literal};
use crate::error::{Error, ErrorKind};

/// What a constraint is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstraintKind {
    PrimaryKey,
    Unique,
    Check,
    ForeignKey,
    NotNull,
    Null,
    Default,
    /// `COLLATE`, `GENERATED ... AS`, anything else a column may carry.
    Other,
}

/// One constraint of a column or of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    /// The name it was declared with (`CONSTRAINT name`), unquoted.
    pub name: Option<String>,
    pub kind: ConstraintKind,
    /// Its text from the keyword that says what it is (`FOREIGN KEY (a) ...`).
    pub body: String,
    /// The columns a table constraint lists (PRIMARY KEY, UNIQUE, FOREIGN KEY).
    pub columns: Vec<String>,
}

impl Constraint {
    /// Reads a constraint's text (`[CONSTRAINT name] kind ...`).
    pub fn parse(text: &str) -> Result<Constraint, Error> {
        let tokens = tokenize(text);
        let mut at = 0;
        let mut name = None;
        if is(text, &tokens, 0, "CONSTRAINT") {
            name = Some(ident(text, &tokens, 1).ok_or_else(|| malformed(text))?);
            at = 2;
        }
        let first = tokens.get(at).ok_or_else(|| malformed(text))?;
        let body = text[first.start..].trim().to_owned();
        let kind = kind_of(text, &tokens, at);
        let columns = match kind {
            ConstraintKind::PrimaryKey | ConstraintKind::Unique | ConstraintKind::ForeignKey => {
                first_group_names(text, &tokens, at)
            }
            _ => Vec::new(),
        };
        Ok(Constraint {
            name,
            kind,
            body,
            columns,
        })
    }

    fn sql(&self) -> String {
        match &self.name {
            Some(name) => format!("CONSTRAINT {} {}", identifier(name), self.body),
            None => self.body.clone(),
        }
    }

    /// A CHECK's expression (what its parentheses hold).
    fn check_expression(&self) -> &str {
        let body = self.body.trim();
        match (body.find('('), body.rfind(')')) {
            (Some(open), Some(close)) if open < close => &body[open + 1..close],
            _ => body,
        }
    }
}

/// One column: its name, its declared type and its constraints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub name: String,
    /// The declared type as written (may be empty).
    pub type_sql: String,
    pub constraints: Vec<Constraint>,
    /// What fills it when the table is rebuilt, as an expression over the old
    /// table's columns: the column itself, a `USING` expression, or nothing for
    /// a new column (its default then applies).
    pub source: Option<String>,
}

impl Column {
    /// Reads a column definition (`name [type] [constraints]`).
    pub fn parse(text: &str) -> Result<Column, Error> {
        let tokens = tokenize(text);
        let name = ident(text, &tokens, 0).ok_or_else(|| malformed(text))?;
        let mut at = 1;
        while at < tokens.len() && !starts_constraint(text, &tokens, at) {
            at = skip_group(&tokens, at);
        }
        let type_sql = match (tokens.get(1), at.checked_sub(1).and_then(|i| tokens.get(i))) {
            (Some(first), Some(last)) if at > 1 => text[first.start..last.end].to_owned(),
            _ => String::new(),
        };
        let mut constraints = Vec::new();
        while at < tokens.len() {
            let start = at;
            let mut kind_at = at;
            if is(text, &tokens, at, "CONSTRAINT") {
                kind_at = at + 2;
            }
            let mut end = kind_at + 1;
            if is(text, &tokens, kind_at, "DEFAULT") {
                // DEFAULT takes one term: a literal, a signed number, a word or a
                // parenthesized expression.
                if matches!(tokens.get(end).map(|t| t.text(text)), Some("+" | "-")) {
                    end += 1;
                }
                end = skip_group(&tokens, end);
            } else {
                while end < tokens.len() && !starts_constraint(text, &tokens, end) {
                    end = skip_group(&tokens, end);
                }
            }
            let end = end.min(tokens.len());
            let last = &tokens[end - 1];
            constraints.push(Constraint::parse(&text[tokens[start].start..last.end])?);
            at = end;
        }
        Ok(Column {
            source: Some(identifier(&name)),
            name,
            type_sql,
            constraints,
        })
    }

    fn sql(&self) -> String {
        let mut out = identifier(&self.name);
        if !self.type_sql.is_empty() {
            out.push(' ');
            out.push_str(&self.type_sql);
        }
        for constraint in &self.constraints {
            out.push(' ');
            out.push_str(&constraint.sql());
        }
        out
    }

    fn has(&self, kind: ConstraintKind) -> bool {
        self.constraints.iter().any(|c| c.kind == kind)
    }

    /// `SET NOT NULL` (`true`) or `DROP NOT NULL`.
    pub fn set_not_null(&mut self, not_null: bool) {
        if not_null {
            if !self.has(ConstraintKind::NotNull) {
                self.constraints.retain(|c| c.kind != ConstraintKind::Null);
                self.constraints.push(Constraint {
                    name: None,
                    kind: ConstraintKind::NotNull,
                    body: "NOT NULL".into(),
                    columns: Vec::new(),
                });
            }
        } else {
            self.constraints
                .retain(|c| c.kind != ConstraintKind::NotNull);
        }
    }

    /// `SET DEFAULT expr` (SQLite SQL) or `DROP DEFAULT` (`None`).
    pub fn set_default(&mut self, expr: Option<&str>) {
        self.constraints
            .retain(|c| c.kind != ConstraintKind::Default);
        if let Some(expr) = expr {
            self.constraints.push(Constraint {
                name: None,
                kind: ConstraintKind::Default,
                body: format!("DEFAULT {}", default_term(expr)),
                columns: Vec::new(),
            });
        }
    }

    /// The default's expression, if it has one.
    pub fn default(&self) -> Option<&str> {
        self.constraints
            .iter()
            .find(|c| c.kind == ConstraintKind::Default)
            .map(|c| c.body["DEFAULT".len()..].trim())
    }

    /// Whether SQLite's own `ADD COLUMN` can add this column (it cannot add a
    /// key, a non-constant default, or NOT NULL without a default).
    pub fn addable_in_place(&self) -> bool {
        let default = self.default();
        let constant_default = default
            .is_none_or(|d| !d.starts_with('(') && !d.to_ascii_uppercase().starts_with("CURRENT_"));
        !self.has(ConstraintKind::PrimaryKey)
            && !self.has(ConstraintKind::Unique)
            && constant_default
            && (!self.has(ConstraintKind::NotNull) || default.is_some_and(|d| d != "NULL"))
    }
}

/// A default as SQLite's `DEFAULT` takes it: a literal or signed number as it
/// is, anything else in parentheses.
fn default_term(expr: &str) -> String {
    let tokens = tokenize(expr);
    let single = match tokens.as_slice() {
        [t] => matches!(
            t.kind,
            TokenKind::String | TokenKind::Number | TokenKind::Word
        ),
        [sign, n] => matches!(sign.text(expr), "+" | "-") && n.kind == TokenKind::Number,
        [open, ..] => open.kind == TokenKind::LeftParen && skip_group(&tokens, 0) == tokens.len(),
        [] => false,
    };
    if single {
        expr.trim().to_owned()
    } else {
        format!("({})", expr.trim())
    }
}

/// One part of the table's definition.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Element {
    Column(Column),
    Constraint(Constraint),
}

/// A table's definition, read from its `CREATE TABLE` text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDefinition {
    /// The table's name, unquoted.
    pub table: String,
    /// The statement as written up to its opening parenthesis.
    head: String,
    elements: Vec<Element>,
    /// What follows the closing parenthesis (`WITHOUT ROWID`, `STRICT`).
    tail: String,
}

impl TableDefinition {
    /// Reads `create_table` (a `CREATE TABLE name (...) [options]` statement).
    pub fn parse(create_table: &str) -> Result<TableDefinition, Error> {
        let sql = create_table;
        let tokens = tokenize(sql);
        let open = tokens
            .iter()
            .position(|t| t.kind == TokenKind::LeftParen)
            .ok_or_else(|| malformed(sql))?;
        let close = skip_group(&tokens, open) - 1;
        if tokens.get(close).map(|t| t.kind) != Some(TokenKind::RightParen) || open == 0 {
            return Err(malformed(sql));
        }
        let table = ident(sql, &tokens, open - 1).ok_or_else(|| malformed(sql))?;
        let mut elements = Vec::new();
        let mut start = open + 1;
        let mut at = start;
        while at <= close {
            if at == close || tokens[at].text(sql) == "," {
                if at > start {
                    let text = &sql[tokens[start].start..tokens[at - 1].end];
                    elements.push(if starts_table_constraint(sql, &tokens, start) {
                        Element::Constraint(Constraint::parse(text)?)
                    } else {
                        Element::Column(Column::parse(text)?)
                    });
                }
                start = at + 1;
                at += 1;
            } else {
                at = skip_group(&tokens, at);
            }
        }
        Ok(TableDefinition {
            table,
            head: sql[..tokens[open].start].trim().to_owned(),
            elements,
            tail: sql[tokens[close].end..].trim().to_owned(),
        })
    }

    /// The `CREATE TABLE` statement for this definition under `name`.
    pub fn create_sql(&self, name: &str) -> String {
        self.statement(&format!("CREATE TABLE {}", identifier(name)))
    }

    /// The statement for this definition, with its head (`CREATE TABLE IF NOT
    /// EXISTS t`) as it was written.
    pub fn sql_as_written(&self) -> String {
        self.statement(&self.head)
    }

    fn statement(&self, head: &str) -> String {
        let parts: Vec<String> = self
            .elements
            .iter()
            .map(|e| match e {
                Element::Column(c) => c.sql(),
                Element::Constraint(c) => c.sql(),
            })
            .collect();
        let mut sql = format!("{head} ({})", parts.join(", "));
        if !self.tail.is_empty() {
            sql.push(' ');
            sql.push_str(&self.tail);
        }
        sql
    }

    /// Whether the table has no rowid.
    pub fn without_rowid(&self) -> bool {
        let upper = self.tail.to_ascii_uppercase();
        upper.contains("WITHOUT") && upper.contains("ROWID")
    }

    pub fn columns(&self) -> impl Iterator<Item = &Column> {
        self.elements.iter().filter_map(|e| match e {
            Element::Column(c) => Some(c),
            Element::Constraint(_) => None,
        })
    }

    /// The column `name`, to edit.
    pub fn column_mut(&mut self, name: &str) -> Result<&mut Column, Error> {
        let table = self.table.clone();
        self.elements
            .iter_mut()
            .find_map(|e| match e {
                Element::Column(c) if c.name.eq_ignore_ascii_case(name) => Some(c),
                _ => None,
            })
            .ok_or_else(|| no_such_column(name, &table))
    }

    /// Adds a column (already in SQLite's dialect); `42701` if the name is taken.
    pub fn add_column(&mut self, column: Column) -> Result<(), Error> {
        if self
            .columns()
            .any(|c| c.name.eq_ignore_ascii_case(&column.name))
        {
            return Err(Error::new(
                ErrorKind::Sqlite {
                    code: libsqlite3_sys::SQLITE_ERROR,
                },
                format!(
                    "duplicate column name: column \"{}\" of relation \"{}\" already exists",
                    column.name, self.table
                ),
            ));
        }
        // Columns come before the table's constraints.
        let at = self
            .elements
            .iter()
            .rposition(|e| matches!(e, Element::Column(_)))
            .map_or(0, |i| i + 1);
        self.elements.insert(at, Element::Column(column));
        Ok(())
    }

    /// Drops column `name` and the table constraints that use it (keys listing
    /// it, CHECKs naming it); `false` if there is no such column.
    pub fn drop_column(&mut self, name: &str) -> bool {
        let before = self.elements.len();
        self.elements
            .retain(|e| !matches!(e, Element::Column(c) if c.name.eq_ignore_ascii_case(name)));
        if self.elements.len() == before {
            return false;
        }
        self.elements.retain(|e| match e {
            Element::Constraint(c) => {
                let lists = c.columns.iter().any(|col| col.eq_ignore_ascii_case(name));
                let checks =
                    c.kind == ConstraintKind::Check && mentions(c.check_expression(), name);
                !(lists || checks)
            }
            Element::Column(_) => true,
        });
        true
    }

    /// Every named constraint (by the name PostgreSQL gives it) with its kind.
    pub fn constraint_names(&self) -> Vec<(String, ConstraintKind)> {
        let mut names = Vec::new();
        let mut unnamed_checks = 0;
        for element in &self.elements {
            let (column, constraints) = match element {
                Element::Column(c) => (Some(c.name.as_str()), c.constraints.as_slice()),
                Element::Constraint(c) => (None, std::slice::from_ref(c)),
            };
            for constraint in constraints {
                if let Some(name) = self.postgres_name(column, constraint, &mut unnamed_checks) {
                    names.push((name, constraint.kind));
                }
            }
        }
        names
    }

    /// The name PostgreSQL gives `constraint` (of `column`, for a column
    /// constraint); `None` for those it does not name (NOT NULL, DEFAULT, ...).
    fn postgres_name(
        &self,
        column: Option<&str>,
        constraint: &Constraint,
        unnamed_checks: &mut usize,
    ) -> Option<String> {
        if let Some(name) = &constraint.name
            && !matches!(
                constraint.kind,
                ConstraintKind::NotNull | ConstraintKind::Null | ConstraintKind::Default
            )
        {
            return Some(name.clone());
        }
        let table = &self.table;
        let columns = match column {
            Some(c) => c.to_owned(),
            None => constraint.columns.join("_"),
        };
        Some(match constraint.kind {
            ConstraintKind::PrimaryKey => format!("{table}_pkey"),
            ConstraintKind::Unique => format!("{table}_{columns}_key"),
            ConstraintKind::ForeignKey => format!("{table}_{columns}_fkey"),
            ConstraintKind::Check => {
                let mentioned = column
                    .map(str::to_owned)
                    .or_else(|| self.first_column(constraint.check_expression()));
                match mentioned {
                    Some(c) => format!("{table}_{c}_check"),
                    None => {
                        *unnamed_checks += 1;
                        match *unnamed_checks {
                            1 => format!("{table}_check"),
                            n => format!("{table}_check{}", n - 1),
                        }
                    }
                }
            }
            _ => return None,
        })
    }

    /// The first of the table's columns that `expr` names.
    fn first_column(&self, expr: &str) -> Option<String> {
        expr.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .find_map(|word| self.columns().find(|c| c.name.eq_ignore_ascii_case(word)))
            .map(|c| c.name.clone())
    }

    /// Where the constraint PostgreSQL calls `name` is: (element, constraint
    /// within a column).
    fn find_constraint(&self, name: &str) -> Option<(usize, Option<usize>)> {
        let mut unnamed_checks = 0;
        for (i, element) in self.elements.iter().enumerate() {
            match element {
                Element::Column(c) => {
                    for (j, constraint) in c.constraints.iter().enumerate() {
                        let pg = self.postgres_name(Some(&c.name), constraint, &mut unnamed_checks);
                        if pg.is_some_and(|n| n.eq_ignore_ascii_case(name)) {
                            return Some((i, Some(j)));
                        }
                    }
                }
                Element::Constraint(c) => {
                    let pg = self.postgres_name(None, c, &mut unnamed_checks);
                    if pg.is_some_and(|n| n.eq_ignore_ascii_case(name)) {
                        return Some((i, None));
                    }
                }
            }
        }
        None
    }

    /// Whether the definition has a constraint PostgreSQL calls `name`.
    pub fn has_constraint(&self, name: &str) -> bool {
        self.find_constraint(name).is_some()
    }

    /// Adds a table constraint, under the name PostgreSQL would give it when it
    /// has none. A primary key makes its columns NOT NULL, as in PostgreSQL.
    pub fn add_constraint(&mut self, mut constraint: Constraint) -> Result<(), Error> {
        let mut unnamed = 0;
        let name = self
            .postgres_name(None, &constraint, &mut unnamed)
            .ok_or_else(|| malformed(&constraint.body))?;
        if constraint.kind == ConstraintKind::PrimaryKey {
            if self
                .constraint_names()
                .iter()
                .any(|(_, kind)| *kind == ConstraintKind::PrimaryKey)
            {
                return Err(Error::new(
                    ErrorKind::Sqlite {
                        code: libsqlite3_sys::SQLITE_ERROR,
                    },
                    format!(
                        "multiple primary keys for table \"{}\" are not allowed",
                        self.table
                    ),
                ));
            }
            for column in constraint.columns.clone() {
                self.column_mut(&column)?.set_not_null(true);
            }
        }
        if self.has_constraint(&name) {
            return Err(Error::new(
                ErrorKind::Sqlite {
                    code: libsqlite3_sys::SQLITE_ERROR,
                },
                format!(
                    "constraint \"{name}\" for relation \"{}\" already exists",
                    self.table
                ),
            ));
        }
        constraint.name = Some(name);
        self.elements.push(Element::Constraint(constraint));
        Ok(())
    }

    /// Drops the constraint PostgreSQL calls `name`; `false` if there is none.
    pub fn drop_constraint(&mut self, name: &str) -> bool {
        match self.find_constraint(name) {
            Some((i, Some(j))) => {
                if let Element::Column(c) = &mut self.elements[i] {
                    c.constraints.remove(j);
                }
                true
            }
            Some((i, None)) => {
                self.elements.remove(i);
                true
            }
            None => false,
        }
    }

    /// Renames the constraint PostgreSQL calls `from`; `false` if there is none.
    pub fn rename_constraint(&mut self, from: &str, to: &str) -> Result<bool, Error> {
        if self.has_constraint(to) {
            return Err(Error::new(
                ErrorKind::Sqlite {
                    code: libsqlite3_sys::SQLITE_ERROR,
                },
                format!(
                    "constraint \"{to}\" for relation \"{}\" already exists",
                    self.table
                ),
            ));
        }
        let constraint = match self.find_constraint(from) {
            Some((i, Some(j))) => match &mut self.elements[i] {
                Element::Column(c) => &mut c.constraints[j],
                Element::Constraint(c) => c,
            },
            Some((i, None)) => match &mut self.elements[i] {
                Element::Constraint(c) => c,
                Element::Column(_) => return Ok(false),
            },
            None => return Ok(false),
        };
        constraint.name = Some(to.to_owned());
        Ok(true)
    }
}

impl TableDefinition {
    /// The name PostgreSQL gives the foreign key over `columns`.
    pub fn foreign_key_name(&self, columns: &[String]) -> Option<String> {
        self.key_name(ConstraintKind::ForeignKey, columns)
    }

    /// The name PostgreSQL gives the constraint of `kind` (a primary key,
    /// unique or foreign key) over `columns`.
    pub fn key_name(&self, kind: ConstraintKind, columns: &[String]) -> Option<String> {
        let (column, constraint) = self.key(kind, columns)?;
        // Unnamed CHECKs are not keys: their counter plays no part here.
        self.postgres_name(column, constraint, &mut 0)
    }

    /// When the foreign key over `columns` is checked: (`DEFERRABLE`,
    /// `INITIALLY DEFERRED`).
    pub fn foreign_key_deferral(&self, columns: &[String]) -> (bool, bool) {
        let Some((_, key)) = self.key(ConstraintKind::ForeignKey, columns) else {
            return (false, false);
        };
        let words: Vec<String> = key
            .body
            .split_whitespace()
            .map(str::to_ascii_uppercase)
            .collect();
        let after =
            |first: &str, second: &str| words.windows(2).any(|w| w[0] == first && w[1] == second);
        let deferrable = words.iter().any(|w| w == "DEFERRABLE") && !after("NOT", "DEFERRABLE");
        (deferrable, deferrable && after("INITIALLY", "DEFERRED"))
    }

    /// The constraint of `kind` over `columns`, with the column it is declared
    /// on for a column constraint.
    fn key(&self, kind: ConstraintKind, columns: &[String]) -> Option<(Option<&str>, &Constraint)> {
        for element in &self.elements {
            let (column, constraints) = match element {
                Element::Column(c) => (Some(c), c.constraints.as_slice()),
                Element::Constraint(c) => (None, std::slice::from_ref(c)),
            };
            for constraint in constraints {
                let over = match column {
                    Some(c) => std::slice::from_ref(&c.name),
                    None => constraint.columns.as_slice(),
                };
                if constraint.kind == kind && same_columns(over, columns) {
                    return Some((column.map(|c| c.name.as_str()), constraint));
                }
            }
        }
        None
    }
}

/// `create_index` (a `CREATE [UNIQUE] INDEX name ON ...` statement) with the
/// index named `name`.
pub fn renamed_index(create_index: &str, name: &str) -> Option<String> {
    let tokens = tokenize(create_index);
    let on = tokens
        .iter()
        .position(|t| t.is_keyword(create_index, "ON"))?;
    let old = tokens.get(on.checked_sub(1)?)?;
    // `IF NOT EXISTS` is not a name.
    if old.is_keyword(create_index, "EXISTS") {
        return None;
    }
    Some(format!(
        "{}{}{}",
        &create_index[..old.start],
        identifier(name),
        &create_index[old.end..]
    ))
}

/// Whether `sql` names `word` (as a word of its own, in any case).
pub fn mentions(sql: &str, word: &str) -> bool {
    tokenize(sql).iter().any(|t| {
        matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent)
            && unquote_identifier(t.text(sql)).eq_ignore_ascii_case(word)
    })
}

/// 42703, as PostgreSQL says it.
pub fn no_such_column(column: &str, table: &str) -> Error {
    Error::new(
        ErrorKind::Sqlite {
            code: libsqlite3_sys::SQLITE_ERROR,
        },
        format!("no such column: column \"{column}\" of relation \"{table}\" does not exist"),
    )
}

fn malformed(sql: &str) -> Error {
    Error::new(
        ErrorKind::Syntax,
        format!("cannot read the table definition: {sql}"),
    )
}

fn is(sql: &str, tokens: &[Token], i: usize, kw: &str) -> bool {
    tokens.get(i).is_some_and(|t| t.is_keyword(sql, kw))
}

fn ident(sql: &str, tokens: &[Token], i: usize) -> Option<String> {
    let token = tokens.get(i)?;
    match token.kind {
        TokenKind::Word | TokenKind::QuotedIdent => Some(unquote_identifier(token.text(sql))),
        // SQLite takes a string where a name is expected.
        TokenKind::String => Some(unquote_literal(token.text(sql))),
        _ => None,
    }
}

/// The index after the token at `i`, or after the parenthesized group it opens.
fn skip_group(tokens: &[Token], i: usize) -> usize {
    if tokens.get(i).map(|t| t.kind) != Some(TokenKind::LeftParen) {
        return i + 1;
    }
    let mut depth = 0usize;
    for (j, t) in tokens.iter().enumerate().skip(i) {
        match t.kind {
            TokenKind::LeftParen => depth += 1,
            TokenKind::RightParen => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// Whether the part of a definition starting at `i` is a table constraint.
fn starts_table_constraint(sql: &str, tokens: &[Token], i: usize) -> bool {
    ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]
        .iter()
        .any(|kw| is(sql, tokens, i, kw))
}

/// Whether a column constraint starts at `i` (outside parentheses).
fn starts_constraint(sql: &str, tokens: &[Token], i: usize) -> bool {
    let previous = |kw: &str| i > 0 && is(sql, tokens, i - 1, kw);
    if is(sql, tokens, i, "NOT") {
        // `NOT DEFERRABLE` belongs to a foreign key.
        return !is(sql, tokens, i + 1, "DEFERRABLE");
    }
    if is(sql, tokens, i, "NULL") {
        return !previous("NOT") && !previous("SET");
    }
    if is(sql, tokens, i, "DEFAULT") {
        return !previous("SET");
    }
    if is(sql, tokens, i, "AS") {
        return !previous("ALWAYS");
    }
    [
        "CONSTRAINT",
        "PRIMARY",
        "UNIQUE",
        "CHECK",
        "COLLATE",
        "REFERENCES",
        "GENERATED",
    ]
    .iter()
    .any(|kw| is(sql, tokens, i, kw))
}

fn kind_of(sql: &str, tokens: &[Token], i: usize) -> ConstraintKind {
    let kinds = [
        ("PRIMARY", ConstraintKind::PrimaryKey),
        ("UNIQUE", ConstraintKind::Unique),
        ("CHECK", ConstraintKind::Check),
        ("FOREIGN", ConstraintKind::ForeignKey),
        ("REFERENCES", ConstraintKind::ForeignKey),
        ("NOT", ConstraintKind::NotNull),
        ("NULL", ConstraintKind::Null),
        ("DEFAULT", ConstraintKind::Default),
    ];
    kinds
        .iter()
        .find(|(kw, _)| is(sql, tokens, i, kw))
        .map_or(ConstraintKind::Other, |(_, kind)| *kind)
}

/// The column names of the first parenthesized list after `from` (each item's
/// first name: `a COLLATE x DESC` is `a`).
fn first_group_names(sql: &str, tokens: &[Token], from: usize) -> Vec<String> {
    let Some(open) = (from..tokens.len()).find(|&i| tokens[i].kind == TokenKind::LeftParen) else {
        return Vec::new();
    };
    // `REFERENCES p (id)` of a column constraint lists the other table's columns.
    if is(sql, tokens, from, "REFERENCES") {
        return Vec::new();
    }
    let close = skip_group(tokens, open) - 1;
    let mut names = Vec::new();
    let mut expect = true;
    for i in open + 1..close {
        if tokens[i].text(sql) == "," {
            expect = true;
        } else if expect {
            if let Some(name) = ident(sql, tokens, i) {
                names.push(name);
            }
            expect = false;
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQL: &str = "CREATE TABLE \"child\" (id INTEGER PRIMARY KEY, pid int REFERENCES parent(id) ON DELETE SET NULL NOT DEFERRABLE, \
         note text DEFAULT 'x' NOT NULL COLLATE NOCASE, n numeric(10,2) CHECK (n > 0), \
         d TEXT DEFAULT (strftime('%Y', 'now')), CONSTRAINT u UNIQUE (note, n), CHECK (n < 100), CHECK (1 = 1)) WITHOUT ROWID";

    #[test]
    fn reads_columns_and_constraints_as_postgresql_names_them() {
        let def = TableDefinition::parse(SQL).unwrap();
        assert_eq!(def.table, "child");
        let names: Vec<String> = def.constraint_names().into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "child_pkey",
                "child_pid_fkey",
                "child_n_check",
                "u",
                "child_n_check",
                "child_check"
            ]
        );
        let pid = def.columns().nth(1).unwrap();
        assert_eq!(pid.type_sql, "int");
        assert_eq!(pid.constraints.len(), 1);
        let note = def.columns().nth(2).unwrap();
        assert_eq!(note.default(), Some("'x'"));
        assert_eq!(note.constraints.len(), 3);
        assert!(def.without_rowid());
        // Printed back, it reads the same.
        let again = TableDefinition::parse(&def.create_sql("child")).unwrap();
        assert_eq!(again, def);
    }

    #[test]
    fn edits() {
        let mut def = TableDefinition::parse(SQL).unwrap();
        assert!(def.drop_constraint("child_pid_fkey"));
        assert!(!def.drop_constraint("nope"));
        assert!(def.drop_constraint("u"));
        def.column_mut("NOTE").unwrap().set_not_null(false);
        def.column_mut("note")
            .unwrap()
            .set_default(Some("lower('A')"));
        def.column_mut("n").unwrap().set_default(Some("-1"));
        def.add_constraint(Constraint::parse("UNIQUE (pid)").unwrap())
            .unwrap();
        assert!(
            def.add_constraint(Constraint::parse("PRIMARY KEY (n)").unwrap())
                .is_err()
        );
        assert!(
            def.add_constraint(Constraint::parse("UNIQUE (pid)").unwrap())
                .is_err()
        );
        assert!(def.rename_constraint("child_pid_key", "k").unwrap());
        assert_eq!(
            def.create_sql("t"),
            "CREATE TABLE \"t\" (\"id\" INTEGER PRIMARY KEY, \"pid\" int, \"note\" text COLLATE NOCASE DEFAULT (lower('A')), \
             \"n\" numeric(10,2) CHECK (n > 0) DEFAULT -1, \"d\" TEXT DEFAULT (strftime('%Y', 'now')), CHECK (n < 100), CHECK (1 = 1), \
             CONSTRAINT \"k\" UNIQUE (pid)) WITHOUT ROWID"
        );
        assert!(def.column_mut("zz").is_err());
    }

    #[test]
    fn columns_sqlite_can_add_in_place() {
        for (sql, addable) in [
            ("a int", true),
            ("a int DEFAULT 3 NOT NULL", true),
            ("a int NOT NULL", false),
            ("a int UNIQUE", false),
            ("a text DEFAULT (lower('x'))", false),
            ("a text DEFAULT CURRENT_TIMESTAMP", false),
        ] {
            assert_eq!(
                Column::parse(sql).unwrap().addable_in_place(),
                addable,
                "{sql}"
            );
        }
    }
}
