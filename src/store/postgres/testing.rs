//! Throwaway databases for tests (unit and integration tests: hence public), in the cluster `tests/postgres-cluster.sh` started (its socket
//! directory in `REGINTEL_TEST_POSTGRES`; the test command starts one): each with an ordinary
//! owner role with `CREATEROLE`, as an installation has, dropped with its request role when the
//! test ends.

use std::sync::atomic::{AtomicU32, Ordering};

/// A database of its own for one test.
pub struct TestDatabase {
    pub name: String,
    pub owner: String,
    socket: String,
}

/// The cluster's socket directory; a test that needs PostgreSQL fails without one, rather than
/// passing without having run.
fn socket() -> String {
    std::env::var("REGINTEL_TEST_POSTGRES").unwrap_or_else(|_| {
        panic!(
            "REGINTEL_TEST_POSTGRES is not set: run the tests with tests/run.sh, which starts a \
             throwaway PostgreSQL cluster (tests/postgres-cluster.sh) and sets it"
        )
    })
}

/// A connection as the cluster's superuser, to make and drop databases and roles.
fn superuser(socket: &str, database: &str) -> postgres::Client {
    postgres::Config::new()
        .host(socket)
        .user("postgres")
        .dbname(database)
        .connect(postgres::NoTls)
        .expect("the test cluster accepts the superuser")
}

impl TestDatabase {
    /// Makes the owner role and the database; panics when the cluster cannot.
    pub fn create() -> TestDatabase {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let socket = socket();
        let mut random = [0u8; 4];
        crate::ids::fill_random(&mut random);
        let name = format!(
            "t{}_{}_{:08x}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            u32::from_le_bytes(random)
        );
        let owner = format!("{name}_owner");
        let mut admin = superuser(&socket, "postgres");
        // One statement a call: CREATE DATABASE cannot run in the transaction a batch is.
        for statement in [
            format!("CREATE ROLE {owner} LOGIN CREATEROLE"),
            format!("CREATE DATABASE {name} OWNER {owner}"),
        ] {
            admin
                .batch_execute(&statement)
                .expect("a test database is made");
        }
        TestDatabase {
            name,
            owner,
            socket,
        }
    }

    /// The URL regintel is given: the owner's.
    pub fn url(&self) -> String {
        format!(
            "postgres://{}@/{}?host={}",
            self.owner, self.name, self.socket
        )
    }

    /// A connection as `role` (the owner, the request role, the superuser `postgres`).
    pub fn connect_as(&self, role: &str) -> postgres::Client {
        postgres::Config::new()
            .host(&self.socket)
            .user(role)
            .dbname(&self.name)
            .connect(postgres::NoTls)
            .expect("the test database accepts the role")
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let mut admin = superuser(&self.socket, "postgres");
        let dropped = [
            format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
            format!("DROP ROLE IF EXISTS {}_request", self.owner),
            format!("DROP ROLE IF EXISTS {}", self.owner),
        ]
        .iter()
        .try_for_each(|statement| admin.batch_execute(statement));
        if let Err(e) = dropped
            && !std::thread::panicking()
        {
            panic!("the test database {} was not dropped: {e}", self.name);
        }
    }
}
