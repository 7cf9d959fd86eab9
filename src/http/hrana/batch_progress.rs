//! Batch step conditions: which steps of a batch ran and how, so that each
//! later step's condition (`ok`, `error`, `not`, `and`, `or`,
//! `is_autocommit`) can be told. Pipelines' batches (`exec`) and cursors
//! (`cursor`) run their steps by it.

use super::proto::BatchCond;

/// Which steps of a batch ran and how, for the conditions of the steps after.
#[derive(Default)]
pub struct BatchProgress {
    /// Per step: `None` not run, `Some(true)` succeeded, `Some(false)` failed.
    outcomes: Vec<Option<bool>>,
}

impl BatchProgress {
    pub fn should_run(&self, condition: Option<&BatchCond>, autocommit: bool) -> bool {
        condition.is_none_or(|c| self.holds(c, autocommit))
    }

    pub fn skipped(&mut self) {
        self.outcomes.push(None);
    }

    pub fn ran(&mut self, ok: bool) {
        self.outcomes.push(Some(ok));
    }

    fn holds(&self, condition: &BatchCond, autocommit: bool) -> bool {
        let outcome = |step: u32| {
            usize::try_from(step)
                .ok()
                .and_then(|i| self.outcomes.get(i).copied().flatten())
        };
        match condition {
            BatchCond::Ok { step } => outcome(*step) == Some(true),
            BatchCond::Error { step } => outcome(*step) == Some(false),
            BatchCond::Not { cond } => !self.holds(cond, autocommit),
            BatchCond::And { conds } => conds.iter().all(|c| self.holds(c, autocommit)),
            BatchCond::Or { conds } => conds.iter().any(|c| self.holds(c, autocommit)),
            BatchCond::IsAutocommit => autocommit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_follow_earlier_steps() {
        let mut progress = BatchProgress::default();
        progress.ran(true);
        progress.ran(false);
        progress.skipped();
        let ok = |step| BatchCond::Ok { step };
        let error = |step| BatchCond::Error { step };
        assert!(progress.should_run(None, false));
        assert!(progress.should_run(Some(&ok(0)), false));
        assert!(!progress.should_run(Some(&ok(1)), false));
        assert!(progress.should_run(Some(&error(1)), false));
        // A skipped step (or one not run yet) is neither ok nor an error.
        assert!(!progress.should_run(Some(&ok(2)), false));
        assert!(!progress.should_run(Some(&error(2)), false));
        assert!(!progress.should_run(Some(&error(9)), false));
        let both = BatchCond::And {
            conds: vec![ok(0), error(1)],
        };
        assert!(progress.should_run(Some(&both), false));
        let either = BatchCond::Or {
            conds: vec![ok(1), BatchCond::IsAutocommit],
        };
        assert!(progress.should_run(Some(&either), true));
        assert!(!progress.should_run(Some(&either), false));
        let not = BatchCond::Not {
            cond: Box::new(ok(1)),
        };
        assert!(progress.should_run(Some(&not), false));
    }
}
