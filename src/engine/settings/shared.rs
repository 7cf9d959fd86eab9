//! A session's settings shared with the connections that run its statements
//! (`set_config()` changes them from inside a statement).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::values::Settings;

/// A session's settings, shared with the SQL functions that read and change
/// them (`current_setting()`, `set_config()`) on whichever connection runs the
/// session's statement now (see `config_functions`).
#[derive(Debug, Clone, Default)]
pub struct SharedSettings(Arc<Shared>);

#[derive(Debug, Default)]
pub(super) struct Shared {
    settings: Mutex<Settings>,
    /// The session is describing a statement: SQLx's type inference steps a
    /// query once, which must not change a setting.
    describing: AtomicBool,
}

/// Marks a session's settings as only being described until dropped.
pub struct Describing(Arc<Shared>);

impl Drop for Describing {
    fn drop(&mut self) {
        self.0.describing.store(false, Ordering::Release);
    }
}

impl SharedSettings {
    pub fn new(settings: Settings) -> Self {
        SharedSettings(Arc::new(Shared {
            settings: Mutex::new(settings),
            describing: AtomicBool::new(false),
        }))
    }

    /// The settings, for reading or changing. A panic while they were held
    /// left them as they were at that point: still usable.
    pub fn lock(&self) -> MutexGuard<'_, Settings> {
        self.0
            .settings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// A copy of the settings as they are now.
    pub fn snapshot(&self) -> Settings {
        self.lock().clone()
    }

    /// Replaces the settings (a new client identified itself).
    pub fn replace(&self, settings: Settings) {
        *self.lock() = settings;
    }

    /// Marks the settings as only being described until the result is dropped.
    pub fn describing(&self) -> Describing {
        self.0.describing.store(true, Ordering::Release);
        Describing(self.0.clone())
    }

    /// Whether a statement is only being described (see [`Self::describing`]).
    pub fn is_describing(&self) -> bool {
        self.0.describing.load(Ordering::Acquire)
    }
}
