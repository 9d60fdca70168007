//! The python target loads libpython at run time: its folder goes into the run path, so the
//! target runs without LD_LIBRARY_PATH (libpython of a pyenv or a /usr/local build is not in
//! the loader's default folders).
fn main() {
    #[cfg(feature = "python")]
    pyo3_build_config::add_libpython_rpath_link_args();
}
