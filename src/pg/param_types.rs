//! Parameter types inferred by statement text, kept per connection.
//!
//! A value whose type the client left unspecified is read as the type inferred
//! for its place (see `extended`), and inferring takes a full parse of the
//! statement and a look at the declared types of the columns it names. Clients
//! that send such values re-send the same unnamed statements over and over
//! (node-postgres, libpq's `PQexecParams`, pgbench's extended mode), so a
//! statement's text is worked out once: its hints (which depend on the text
//! alone) for good, the declared types they lead to until the schema may have
//! changed (the session's schema generation).

use std::collections::HashMap;
use std::sync::Arc;

use crate::sql::{self, ParamHint};

/// How many statements one connection keeps; past that it starts over.
const CAPACITY: usize = 256;

/// The declared type of each parameter (`None`: nothing determines it).
pub(super) type Declared = Vec<Option<Arc<str>>>;

#[derive(Default)]
pub(super) struct ParamTypes {
    by_text: HashMap<Arc<str>, Entry>,
}

struct Entry {
    hints: Arc<[Option<ParamHint>]>,
    /// The declared types, and the schema generation they were read under.
    declared: Option<(u64, Declared)>,
}

impl ParamTypes {
    /// The declared types of `source`'s parameters when they were worked out
    /// under schema `generation`.
    pub(super) fn declared(&self, source: &str, generation: u64) -> Option<Declared> {
        match &self.by_text.get(source)?.declared {
            Some((at, declared)) if *at == generation => Some(declared.clone()),
            _ => None,
        }
    }

    /// The hints of `count` parameters of `source` (`sqlite` is its
    /// translation, which `source` determines).
    pub(super) fn hints(
        &mut self,
        source: &str,
        sqlite: &str,
        count: usize,
    ) -> Vec<Option<ParamHint>> {
        if let Some(entry) = self.by_text.get(source)
            && entry.hints.len() == count
        {
            return entry.hints.to_vec();
        }
        let hints = sql::param_hints(source, sqlite, count);
        if self.by_text.len() >= CAPACITY {
            self.by_text.clear();
        }
        self.by_text.insert(
            Arc::from(source),
            Entry {
                hints: Arc::from(hints.as_slice()),
                declared: None,
            },
        );
        hints
    }

    /// Keeps the declared types `hints` led to under schema `generation`.
    pub(super) fn keep(&mut self, source: &str, generation: u64, declared: &Declared) {
        if let Some(entry) = self.by_text.get_mut(source) {
            entry.declared = Some((generation, declared.clone()));
        }
    }
}
