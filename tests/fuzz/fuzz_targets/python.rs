//! The Python package's boundary, in process: CPython is embedded in the target, the
//! package's module is made from the crate's own `gamedb::python::add_to_module` (so the
//! instrumented Rust code is what runs), and `scripts/python/gamedb/__init__.py` is imported
//! over it as users import it. Each input is decoded by `python_harness.py` into positions
//! (text, integers of any size, nested sequences, 1-D and 2-D buffers of every element
//! format), indices and keyword parameters, and handed to `Table.query`, `query_many`,
//! `rank`, `unrank`, `format`, `value_at`, `values` and `TableDir.table`/`find` over the
//! sample tables of every game. A panic (which PyO3 raises as PanicException), an
//! InternalError, any exception but the package's refusals, or a broken answer is a crash.
//!
//! numpy must be importable (`scripts/check/fuzz.sh` puts a virtual environment's site-packages
//! on PYTHONPATH).
#![no_main]

use std::ffi::CString;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyModule};

/// The harness module's `one` function, after the package and the sample tables are set up.
fn harness() -> &'static Py<PyAny> {
    static H: OnceLock<Py<PyAny>> = OnceLock::new();
    H.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("gamedb-fuzz-python-{}", std::process::id()));
        let names = gamedb::build::write_samples(&dir, 20_000).unwrap();
        Python::initialize();
        Python::attach(|py| -> PyResult<Py<PyAny>> {
            let module = PyModule::new(py, "_gamedb")?;
            gamedb::python::add_to_module(&module, gamedb::Registry::builtin())?;
            let sys = py.import("sys")?;
            sys.getattr("modules")?
                .set_item("gamedb._gamedb", &module)?;
            let package = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/python");
            sys.getattr("path")?.call_method1("insert", (0, package))?;
            py.import("numpy").map_err(|e| {
                eprintln!("the python target needs numpy (see scripts/check/fuzz.sh)");
                e
            })?;
            let code = CString::new(include_str!("python_harness.py")).unwrap();
            let h = PyModule::from_code(py, &code, c"python_harness.py", c"python_harness")?;
            let open = py.import("gamedb")?.getattr("open")?;
            let tables = PyList::empty(py);
            for name in &names {
                tables.append(open.call1((dir.join(name),))?)?;
            }
            h.setattr("TABLES", tables)?;
            let folder = py.import("gamedb")?.getattr("TableDir")?.call1((&dir,))?;
            h.setattr("FOLDER", folder)?;
            Ok(h.getattr("one")?.unbind())
        })
        .unwrap_or_else(|e| {
            Python::attach(|py| e.print(py));
            panic!("the Python harness could not be set up: {e}")
        })
    })
}

fuzz_target!(|data: &[u8]| {
    let one = harness();
    Python::attach(|py| {
        if let Err(e) = one.call1(py, (PyBytes::new(py, data),)) {
            e.print(py);
            panic!("{e}");
        }
    });
});
