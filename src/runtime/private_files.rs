//! Files and directories only the service user may read, whatever the umask: the data directory
//! (0700), and secrets, keys and credentials written into it (0600).

use std::path::Path;

use anyhow::Context;

/// Creates `dir` (and missing parents) accessible to its owner only; an existing one is left as
/// it is.
pub fn create_dir(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("cannot create the directory {}", dir.display()))
}

/// Writes a file only its owner can read (a new file is created with mode 0600).
pub fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("while creating {}", path.display()))?;
    file.write_all(bytes)
        .with_context(|| format!("while writing {}", path.display()))
}
