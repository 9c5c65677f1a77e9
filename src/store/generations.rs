//! Data generations: counters that change whenever served data changes, so that cached answers
//! and ETags are renewed. Public data has one (`store_meta.data_generation`); every account with
//! private data has its own (`account_generations`), which only that account's answers depend
//! on, so no one can tell from an ETag or `/readyz` that another account changed something.

use crate::store::sql::{Db, params};
use anyhow::Context;

use super::connections::System;
use super::error::StoreResult;

/// The generations as stored: public data's, and each account's that has private data.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Generations {
    pub public: i64,
    pub accounts: Vec<(i64, i64)>,
}

impl System {
    pub fn generations(&self) -> StoreResult<Generations> {
        let public = self.sql().query_row(
            "SELECT value FROM store_meta WHERE key = 'data_generation'",
            params![],
            |r| r.get(0),
        )?;
        let mut stmt = self
            .sql()
            .prepare_cached("SELECT account_id, generation FROM account_generations")?;
        let accounts = stmt
            .query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        Ok(Generations { public, accounts })
    }
}

/// Marks data as changed: public data (`owner` None) or one account's private data.
pub fn bump(tx: &Db<'_>, owner: Option<i64>) -> anyhow::Result<()> {
    match owner {
        None => tx.execute(
            "UPDATE store_meta SET value = value + 1 WHERE key = 'data_generation'",
            params![],
        ),
        Some(account) => tx.execute(
            "INSERT INTO account_generations (account_id, generation) VALUES (?1, 1)
             ON CONFLICT (account_id) DO UPDATE SET generation = account_generations.generation + 1",
            params![account],
        ),
    }
    .context("while bumping the data generation")?;
    Ok(())
}
