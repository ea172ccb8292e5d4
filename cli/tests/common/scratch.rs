//! Scratch directories that remove themselves when the test ends, passed or failed.

use std::path::{Path, PathBuf};

/// A fresh directory under the system's temporary directory, removed on drop.
pub struct Scratch(PathBuf);

impl Scratch {
    /// A new empty directory whose name holds `name` and this process's id.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("konane-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// A path inside the directory.
    pub fn join(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
