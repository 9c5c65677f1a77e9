//! A value derived from public data that every request reads alike (the region index, the public
//! catalogue), held once per public data generation instead of read again by every request.

use std::sync::{Arc, RwLock};

use super::error::StoreResult;

/// What is held for the public data generation most recently asked for (the region index, the
/// public catalogue): made once per generation, shared by every request connection.
pub struct PerGeneration<T> {
    current: RwLock<Option<(i64, Arc<T>)>>,
}

impl<T> Default for PerGeneration<T> {
    fn default() -> Self {
        PerGeneration {
            current: RwLock::new(None),
        }
    }
}

impl<T> PerGeneration<T> {
    /// The value of data generation `generation`, made with `load` when it is not the one held.
    pub fn at(
        &self,
        generation: i64,
        load: impl FnOnce() -> StoreResult<T>,
    ) -> StoreResult<Arc<T>> {
        let held = |current: &Option<(i64, Arc<T>)>| {
            current
                .as_ref()
                .filter(|(g, _)| *g == generation)
                .map(|(_, value)| Arc::clone(value))
        };
        if let Some(value) = held(&self.current.read().unwrap_or_else(|e| e.into_inner())) {
            return Ok(value);
        }
        let mut current = self.current.write().unwrap_or_else(|e| e.into_inner());
        if let Some(value) = held(&current) {
            return Ok(value);
        }
        let value = Arc::new(load()?);
        *current = Some((generation, Arc::clone(&value)));
        Ok(value)
    }
}
