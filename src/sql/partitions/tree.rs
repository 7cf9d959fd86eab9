//! One partitioned table's tree: its nodes, the condition each node's rows
//! meet (over the root's columns), and the SQLite objects that make it: a
//! view per partition and the root's routing triggers.

use sqlparser::ast::ForValues;

use super::bounds::{self, parse};
use crate::sql::postgres::PartitionNode;
use crate::sql::quote::{identifier, literal};

/// A node's key expressions in the language wanted (PostgreSQL's as
/// written, or SQLite's as translated).
pub(super) type Keys<'a> = &'a dyn Fn(&PartitionNode) -> Vec<String>;

/// The nodes of one partitioned table, its root first.
#[derive(Debug, Clone)]
pub(super) struct Tree {
    pub nodes: Vec<PartitionNode>,
}

impl Tree {
    /// The tree `name` (any of its nodes) belongs to.
    pub fn of(all: &[PartitionNode], name: &str) -> Option<Tree> {
        let mut root = all.iter().find(|n| n.name.eq_ignore_ascii_case(name))?;
        while let Some(parent) = &root.parent {
            root = all.iter().find(|n| n.name.eq_ignore_ascii_case(parent))?;
        }
        let mut nodes = vec![root.clone()];
        let mut i = 0;
        while i < nodes.len() {
            let parent = nodes[i].name.clone();
            nodes.extend(
                all.iter()
                    .filter(|n| {
                        n.parent
                            .as_deref()
                            .is_some_and(|p| p.eq_ignore_ascii_case(&parent))
                    })
                    .cloned(),
            );
            i += 1;
        }
        Some(Tree { nodes })
    }

    pub fn root(&self) -> &PartitionNode {
        &self.nodes[0]
    }

    pub fn node(&self, name: &str) -> Option<&PartitionNode> {
        self.nodes
            .iter()
            .find(|n| n.name.eq_ignore_ascii_case(name))
    }

    pub fn children(&self, name: &str) -> impl Iterator<Item = &PartitionNode> {
        self.nodes.iter().filter(move |n| {
            n.parent
                .as_deref()
                .is_some_and(|p| p.eq_ignore_ascii_case(name))
        })
    }

    /// `name` and every partition below it.
    pub fn subtree(&self, name: &str) -> Vec<String> {
        let mut names = vec![name.to_owned()];
        let mut i = 0;
        while i < names.len() {
            let below: Vec<String> = self.children(&names[i]).map(|n| n.name.clone()).collect();
            names.extend(below);
            i += 1;
        }
        names
    }

    /// The partitions that hold rows (partitioned tables hold none of their own).
    fn leaves(&self) -> impl Iterator<Item = &PartitionNode> {
        self.nodes
            .iter()
            .filter(|n| n.parent.is_some() && n.strategy.is_none())
    }

    /// The condition `node`'s own bound sets on its parent's key.
    fn own_condition(&self, node: &PartitionNode, keys: Keys) -> String {
        let (Some(parent), Some(bound)) = (
            node.parent.as_deref().and_then(|p| self.node(p)),
            node.bound.as_deref().and_then(parse),
        ) else {
            return "true".into();
        };
        let siblings: Vec<ForValues> = match bound {
            ForValues::Default => self
                .children(&parent.name)
                .filter(|n| !n.name.eq_ignore_ascii_case(&node.name))
                .filter_map(|n| n.bound.as_deref().and_then(parse))
                .collect(),
            _ => Vec::new(),
        };
        bounds::condition(&bound, &keys(parent), &siblings)
    }

    /// The condition the rows of `name` meet: its bound and its ancestors'.
    pub fn condition(&self, name: &str, keys: Keys) -> String {
        let mut parts = Vec::new();
        let mut current = self.node(name);
        while let Some(node) = current.filter(|n| n.parent.is_some()) {
            parts.push(self.own_condition(node, keys));
            current = node.parent.as_deref().and_then(|p| self.node(p));
        }
        parts.reverse();
        match parts.is_empty() {
            true => "true".into(),
            false => parts.join(" AND "),
        }
    }

    /// The condition a row some partition takes meets.
    fn routable(&self, keys: Keys) -> String {
        let leaves: Vec<String> = self
            .leaves()
            .map(|leaf| format!("({})", self.condition(&leaf.name, keys)))
            .collect();
        match leaves.is_empty() {
            true => "false".into(),
            false => leaves.join(" OR "),
        }
    }

    /// The statements that drop the SQLite objects of the tree (not the
    /// root's table).
    pub fn dropped(&self) -> Vec<String> {
        let root = &self.root().name;
        let mut statements: Vec<String> = ["insert", "update"]
            .iter()
            .map(|event| {
                format!(
                    "DROP TRIGGER IF EXISTS main.{}",
                    identifier(&trigger(event, root))
                )
            })
            .collect();
        statements.extend(
            self.nodes
                .iter()
                .skip(1)
                .map(|n| format!("DROP VIEW IF EXISTS main.{}", identifier(&n.name))),
        );
        statements
    }

    /// The statements that (re)make the tree's SQLite objects: a view per
    /// partition and the root's routing triggers. `columns` are the root's.
    pub fn made(&self, keys: Keys, columns: &[String]) -> Vec<String> {
        let root = &self.root().name;
        let mut statements = self.dropped();
        for node in self.nodes.iter().skip(1) {
            statements.push(format!(
                "CREATE VIEW main.{} AS SELECT * FROM main.{} WHERE {}",
                identifier(&node.name),
                identifier(root),
                self.condition(&node.name, keys)
            ));
        }
        let refused = format!(
            "SELECT litewire_error('23514', {})",
            literal(&format!(
                "no partition of relation \"{}\" found for row",
                root
            ))
        );
        let new_row = columns
            .iter()
            .map(|c| format!("NEW.{} AS {}", identifier(c), identifier(c)))
            .collect::<Vec<_>>()
            .join(", ");
        let when = match (self.leaves().next(), new_row.is_empty()) {
            (Some(_), false) => format!(
                " WHEN NOT EXISTS (SELECT 1 FROM (SELECT {new_row}) AS {} WHERE {})",
                identifier(root),
                self.routable(keys)
            ),
            _ => String::new(),
        };
        for event in ["insert", "update"] {
            statements.push(format!(
                "CREATE TRIGGER main.{} BEFORE {} ON {}{when} BEGIN {refused}; END",
                identifier(&trigger(event, root)),
                event.to_ascii_uppercase(),
                identifier(root),
            ));
        }
        statements
    }
}

/// The name of the routing trigger on `root` for `event`.
fn trigger(event: &str, root: &str) -> String {
    format!("litewire_partition_{event}:{root}")
}
