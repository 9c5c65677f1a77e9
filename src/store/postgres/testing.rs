//! Throwaway databases for tests (unit and integration tests: hence public), in the cluster `tests/postgres-cluster.sh` started (its socket
//! directory in `REGINTEL_TEST_POSTGRES`; the test command starts one): each with an ordinary
//! owner role with `CREATEROLE`, as an installation has, dropped with its request role when the
//! test ends.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::store::postgres::conn::blocking;

/// A database of its own for one test.
pub struct TestDatabase {
    pub name: String,
    pub owner: String,
    socket: String,
    /// The owner (and its request role) belongs to a template and stays when this goes.
    shared_owner: bool,
}

/// The owner of a template database and of the databases made from it: roles belong to the
/// cluster, and a copy's tables belong to its template's owner. One per template, as regintel
/// wants one owner per database whose request role it made (a copy records the template's).
fn template_owner(template: &str) -> String {
    format!("{template}_owner")
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
    try_superuser(socket, database).expect("the test cluster accepts the superuser")
}

fn try_superuser(socket: &str, database: &str) -> Result<postgres::Client, postgres::Error> {
    blocking(|| {
        postgres::Config::new()
            .host(socket)
            .user("postgres")
            .dbname(database)
            .connect(postgres::NoTls)
    })
}

impl TestDatabase {
    /// Makes the owner role and the database; panics when the cluster cannot.
    pub fn create() -> TestDatabase {
        Self::create_in(&socket())
    }

    /// [`TestDatabase::create`] in the cluster whose socket directory is `socket`.
    pub fn create_in(socket: &str) -> TestDatabase {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let socket = socket.to_owned();
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
            shared_owner: false,
        }
    }

    /// A database copied from the template `template`, which `fill` makes (once per cluster,
    /// under a lock all test processes share) through the URL it is given: a copy takes a
    /// moment where filling takes seconds.
    pub fn from_template(template: &str, fill: impl FnOnce(&str)) -> TestDatabase {
        let socket = socket();
        let lock = std::fs::File::create(format!("{socket}/../{template}.lock"))
            .expect("the cluster's directory is writable");
        lock.lock().expect("the template lock");
        let mut admin = superuser(&socket, "postgres");
        let owner = template_owner(template);
        let exists = |admin: &mut postgres::Client, name: &str| -> bool {
            admin
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)",
                    &[&name],
                )
                .expect("pg_database")
                .get(0)
        };
        if !exists(&mut admin, template) {
            let role_exists: bool = admin
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)",
                    &[&owner],
                )
                .expect("pg_roles")
                .get(0);
            if !role_exists {
                admin
                    .batch_execute(&format!("CREATE ROLE {owner} LOGIN CREATEROLE"))
                    .expect("the template owner is made");
            }
            let filling = format!("{template}_filling");
            for statement in [
                format!("DROP DATABASE IF EXISTS {filling} WITH (FORCE)"),
                format!("CREATE DATABASE {filling} OWNER {owner}"),
            ] {
                admin
                    .batch_execute(&statement)
                    .expect("the template is made");
            }
            fill(&format!("postgres://{owner}@/{filling}?host={socket}"));
            admin
                .batch_execute(&format!("ALTER DATABASE {filling} RENAME TO {template}"))
                .expect("the template is kept");
        }
        let mut random = [0u8; 4];
        crate::ids::fill_random(&mut random);
        let name = format!("t{}_{:08x}", std::process::id(), u32::from_le_bytes(random));
        admin
            .batch_execute(&format!(
                "CREATE DATABASE {name} TEMPLATE {template} OWNER {owner}"
            ))
            .expect("a copy of the template is made");
        drop(lock);
        TestDatabase {
            name,
            owner,
            socket,
            shared_owner: true,
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
        blocking(|| {
            postgres::Config::new()
                .host(&self.socket)
                .user(role)
                .dbname(&self.name)
                .connect(postgres::NoTls)
        })
        .expect("the test database accepts the role")
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        blocking(|| self.drop_database());
    }
}

impl TestDatabase {
    fn drop_database(&mut self) {
        // A test that failed may have left its cluster down: nothing more to say then.
        let mut admin = match try_superuser(&self.socket, "postgres") {
            Ok(admin) => admin,
            Err(_) if std::thread::panicking() => return,
            Err(e) => panic!("the test database {} was not dropped: {e}", self.name),
        };
        let mut statements = vec![format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        )];
        if !self.shared_owner {
            statements.push(format!("DROP ROLE IF EXISTS {}_request", self.owner));
            statements.push(format!("DROP ROLE IF EXISTS {}", self.owner));
        }
        let dropped = statements
            .iter()
            .try_for_each(|statement| admin.batch_execute(statement));
        if let Err(e) = dropped
            && !std::thread::panicking()
        {
            panic!("the test database {} was not dropped: {e}", self.name);
        }
    }
}
