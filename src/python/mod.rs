//! The Python package `gamedb` (the cargo feature `python`; built by maturin from
//! `scripts/python/`, whose `gamedb/__init__.pyi` is the typed reference of this API).
//!
//! Everything here goes through what the other interfaces use: [`Table`] opens and checks a
//! table as the command line does, answers are the [`crate::Answer`] of `gamedb query --json`
//! (turned into a dict), the registry in force reads every game's positions, and errors are
//! the crate's [`Error`](crate::Error), raised as Python exceptions with the command line's
//! messages. No game is named in this module: a game the registry knows works in Python.
//!
//! A crate with games of its own builds its own Python module with [`add_to_module`] and its
//! registry (see `src/guide/game-authors.md`).
//!
//! Zero copy: [`Table::values`](PyTable::values) hands numpy a read-only buffer over the
//! table's payload (a memory map for a table opened from a file); the buffer's exporter holds
//! the table, so the map lives as long as any array over it.

mod buffers;

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyImportError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use crate::fifteen::{BoardQuery, Options};
use crate::format::Encoding;
use crate::game::{format_numbers, Arguments, ParamValue};
use crate::games::{NotKnown, Registry, Spec};
use crate::lookup::Table;
use crate::model::{Outcome, ValueKind};
use crate::tables::TableDir;
use buffers::{at_row, u32_array, Batch, Payload};

create_exception!(
    gamedb,
    Error,
    PyException,
    "Every error of gamedb; the message is the command line's."
);
create_exception!(
    gamedb,
    BadInputError,
    Error,
    "A value given (a position, an index, a parameter) is not acceptable; the message names it \
     and what is accepted."
);
create_exception!(
    gamedb,
    DamagedTableError,
    Error,
    "A table file is damaged (checksum, header, size) or of a format version this build cannot \
     read."
);
create_exception!(
    gamedb,
    UnknownGameError,
    Error,
    "The game is not known to this build (a table of another program's game: its values are \
     there by index only)."
);
create_exception!(
    gamedb,
    FileError,
    Error,
    "The operating system refused a file operation (a missing table, a folder not readable)."
);
create_exception!(
    gamedb,
    UnsupportedError,
    Error,
    "The request is valid but cannot be done (a missing table, an encoding without a numpy view)."
);
create_exception!(
    gamedb,
    OverLimitError,
    Error,
    "A search went over its limit before finishing."
);
create_exception!(
    gamedb,
    InternalError,
    Error,
    "A bug in gamedb or in a game (worth reporting)."
);

impl From<crate::Error> for PyErr {
    fn from(e: crate::Error) -> PyErr {
        // A missing table is told with what to do, as the command line tells it.
        let msg = crate::cli::catalog::explain(&e);
        match e {
            crate::Error::BadInput(_) => BadInputError::new_err(msg),
            crate::Error::Corrupt { .. } | crate::Error::Version { .. } => {
                DamagedTableError::new_err(msg)
            }
            crate::Error::UnknownGame(_) => UnknownGameError::new_err(msg),
            crate::Error::Io { .. } | crate::Error::NoTable { .. } => FileError::new_err(msg),
            crate::Error::Unsupported(_) => UnsupportedError::new_err(msg),
            crate::Error::OverLimit { .. } => OverLimitError::new_err(msg),
            crate::Error::Internal(_) => InternalError::new_err(msg),
        }
    }
}

fn bad(msg: String) -> PyErr {
    BadInputError::new_err(msg)
}

/// A JSON text of this crate (an answer) as Python objects, through the standard `json`
/// module: the dict has exactly the keys, values and order of the JSON.
fn from_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// A number of a position given as a Python integer.
fn number(item: &Bound<'_, PyAny>) -> PyResult<u32> {
    let v: i128 = item.extract().map_err(|_| {
        bad(format!(
            "{}: not an integer; a position is text as `gamedb query` reads it or a sequence of \
             integers",
            short_repr(item)
        ))
    })?;
    u32::try_from(v).map_err(|_| bad(format!("{v}: a position's numbers are 0..={}", u32::MAX)))
}

fn short_repr(item: &Bound<'_, PyAny>) -> String {
    let r = item
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into());
    if r.chars().count() > 60 {
        format!("{}...", r.chars().take(57).collect::<String>())
    } else {
        r
    }
}

/// The numbers of a position given as a sequence of integers.
fn numbers(position: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    let items = position.try_iter().map_err(|_| {
        bad(format!(
            "{}: a position is text as `gamedb query` reads it or a sequence of integers",
            short_repr(position)
        ))
    })?;
    items.map(|item| number(&item?)).collect()
}

/// A position given as text or as a sequence of integers.
enum Position {
    Text(String),
    Numbers(Vec<u32>),
}

impl Position {
    fn read(position: &Bound<'_, PyAny>) -> PyResult<Position> {
        if let Ok(s) = position.cast::<PyString>() {
            return Ok(Position::Text(s.to_str()?.to_string()));
        }
        if position.is_instance_of::<PyBytes>() {
            return Err(bad(
                "a position is text (str, not bytes) or a sequence of integers".into(),
            ));
        }
        numbers(position).map(Position::Numbers)
    }
}

/// The P/N value of an outcome in `query_many`'s arrays: 0 for P, 1 for N.
fn outcome_value(o: Outcome) -> u32 {
    u32::from(o == Outcome::N)
}

/// A table: a file opened and checked as the command line opens it, or a game solved in memory.
#[pyclass(name = "Table", module = "gamedb", frozen)]
pub struct PyTable {
    table: Arc<Table>,
}

impl PyTable {
    fn wrap(table: Arc<Table>) -> PyTable {
        PyTable { table }
    }

    /// The numbers of a position given as text or as integers, checked by the rules.
    fn position(&self, position: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        if let Some(e) = self.table.not_known() {
            return Err(e.into());
        }
        let rules = self.table.rules();
        Ok(match Position::read(position)? {
            Position::Text(text) => rules.parse(&text)?,
            Position::Numbers(pos) => {
                rules.check(&pos)?;
                pos
            }
        })
    }

    fn check_index(&self, index: u64) -> PyResult<()> {
        if index >= self.table.len() {
            return Err(bad(format!(
                "index {index} is out of range: the table has {} positions",
                self.table.len()
            )));
        }
        Ok(())
    }
}

#[pymethods]
impl PyTable {
    /// The game's name, as the header gives it (`nim`, `chomp`, `CRATE/GAME`).
    #[getter]
    fn game(&self) -> &str {
        self.table.game()
    }

    /// The game's parameters as the header gives them (`heaps=3,max-heap=7`).
    #[getter]
    fn parameters(&self) -> &str {
        self.table.parameters()
    }

    /// What the values are: `outcome`, `grundy`, `distance` or `extension`.
    #[getter]
    fn value_kind(&self) -> &'static str {
        self.table.value_kind().name()
    }

    /// How the values are stored: `bits`, `u8`, `u16`, `mod3`, `u24` or `u2`.
    #[getter]
    fn encoding(&self) -> &'static str {
        self.table.file().header().encoding.name()
    }

    /// The number of positions (entries).
    #[getter]
    fn positions(&self) -> u64 {
        self.table.len()
    }

    /// The file (or `(in memory) NAME` for a table solved in memory).
    #[getter]
    fn path(&self) -> String {
        self.table.file().path().display().to_string()
    }

    /// What the table holds, in words (as `gamedb info` says it).
    #[getter]
    fn description(&self) -> String {
        self.table.describe()
    }

    /// Whether this build knows the table's game (else its values are there by index only).
    #[getter]
    fn known(&self) -> bool {
        self.table.not_known().is_none()
    }

    fn __len__(&self) -> usize {
        self.table.len() as usize
    }

    fn __repr__(&self) -> String {
        format!(
            "<gamedb.Table {} {} ({} values, {} positions)>",
            self.table.game(),
            self.table.parameters(),
            self.table.value_kind().name(),
            self.table.len()
        )
    }

    /// Reads the whole payload and compares its checksum with the header's.
    fn verify(&self, py: Python<'_>) -> PyResult<()> {
        let table = &self.table;
        py.detach(|| table.verify()).map_err(PyErr::from)
    }

    /// The answer of `gamedb query --json` for one position, as a dict.
    #[pyo3(signature = (position, path = false))]
    fn query<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        path: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let text = match Position::read(position)? {
            Position::Text(text) => text,
            Position::Numbers(pos) => {
                if let Some(e) = self.table.not_known() {
                    return Err(e.into());
                }
                self.table.rules().check(&pos)?;
                self.table.rules().format(&pos)
            }
        };
        let table = &self.table;
        let answer = py.detach(|| table.query_with(&text, path))?;
        from_json(py, &answer.to_json())
    }

    /// The value of many positions, as a numpy array of `uint32` (see the stubs).
    fn query_many<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let batch = Batch::read(py, &self.table, positions)?;
        let table = &self.table;
        let values = py
            .detach(|| batch.values(table))
            .map_err(|(row, e)| at_row(py, e, row))?;
        u32_array(py, &values)
    }

    /// The stored values as a read-only numpy array over the payload (no copy).
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let encoding = self.table.file().header().encoding;
        let Some(dtype) = encoding.numpy_dtype() else {
            let accepted: Vec<&str> = Encoding::ALL
                .into_iter()
                .filter(|e| e.numpy_dtype().is_some())
                .map(Encoding::name)
                .collect();
            return Err(UnsupportedError::new_err(format!(
                "{}: values stored as {} have no numpy view (accepted: {}); read them by index \
                 with value_at(i)",
                self.table.file().path().display(),
                encoding.name(),
                accepted.join(", ")
            )));
        };
        let payload = Bound::new(
            py,
            Payload {
                table: self.table.clone(),
            },
        )?;
        py.import("numpy")?
            .call_method1("frombuffer", (payload, dtype))
    }

    /// The value at an index, as the C ABI's `gamedb_value_at` gives it.
    fn value_at(&self, py: Python<'_>, index: u64) -> PyResult<u32> {
        self.check_index(index)?;
        let table = &self.table;
        py.detach(|| table.value(index)).map_err(PyErr::from)
    }

    /// The index of a position (text or integers).
    fn rank(&self, position: &Bound<'_, PyAny>) -> PyResult<u64> {
        let pos = self.position(position)?;
        Ok(self.table.index_of(&pos)?)
    }

    /// The position at an index, as integers.
    fn unrank(&self, index: u64) -> PyResult<Vec<u32>> {
        self.check_index(index)?;
        if let Some(e) = self.table.not_known() {
            return Err(e.into());
        }
        Ok(self.table.rules().unrank(index))
    }

    /// A position written as `gamedb query` reads and writes it.
    fn format(&self, position: &Bound<'_, PyAny>) -> PyResult<String> {
        let pos = self.position(position)?;
        Ok(self.table.rules().format(&pos))
    }
}

/// Opens a table file; with `verify` (the default) its payload checksum is checked, as
/// `gamedb query` does.
#[pyfunction]
#[pyo3(signature = (path, verify = true))]
fn open(py: Python<'_>, path: PathBuf, verify: bool) -> PyResult<PyTable> {
    let table = py.detach(|| -> crate::Result<Table> {
        let table = Table::open(&path)?;
        if verify {
            table.verify()?;
        }
        Ok(table)
    })?;
    Ok(PyTable::wrap(Arc::new(table)))
}

/// The spec and value kind of a game named with keyword parameters (`max_heap=7` is
/// `--max-heap 7`; a switch is `True`).
fn spec_of(game: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<(Spec, ValueKind)> {
    let registry = crate::registry();
    let entry = registry
        .get(game)
        .ok_or_else(|| crate::Error::UnknownGame(NotKnown::Game(game.to_string()).to_string()))?;
    let mut args = Arguments::new();
    for (key, value) in params.into_iter().flat_map(|d| d.iter()) {
        let name = key.extract::<String>()?.replace('_', "-");
        let flag = entry
            .params
            .iter()
            .find(|p| p.name == name)
            .is_some_and(|p| p.value == ParamValue::Flag);
        if value.is_instance_of::<pyo3::types::PyBool>() {
            if !flag {
                return Err(bad(format!(
                    "{game}: parameter '{name}' takes a value, not True or False"
                )));
            }
            if value.extract::<bool>()? {
                args.set(&name, "true");
            }
        } else if flag {
            return Err(bad(format!(
                "{game}: parameter '{name}' is a switch: give True or False"
            )));
        } else if let Ok(s) = value.cast::<PyString>() {
            args.set(&name, s.to_str()?);
        } else if let Ok(n) = value.extract::<i128>() {
            args.set(&name, n);
        } else {
            let list = numbers(&value)?;
            args.set(&name, format_numbers(&list));
        }
    }
    Ok(entry.from_args(&args)?)
}

/// Solves a game in memory (no file is written) and returns its table.
#[pyfunction]
#[pyo3(signature = (game, **params))]
fn solve(py: Python<'_>, game: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<PyTable> {
    let (spec, kind) = spec_of(game, params)?;
    let table = py.detach(|| -> crate::Result<Table> {
        spec.check_kind(kind)?;
        let solved = spec.solve(kind, &())?;
        Table::from_solved(&spec, solved)
    })?;
    Ok(PyTable::wrap(Arc::new(table)))
}

/// The games this build knows: name, one line about it, and its parameters.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for entry in crate::registry().games() {
        let d = PyDict::new(py);
        d.set_item("name", entry.name)?;
        d.set_item("about", entry.about)?;
        let params = PyList::empty(py);
        for p in entry.params {
            let pd = PyDict::new(py);
            pd.set_item("name", p.name.replace('-', "_"))?;
            pd.set_item("help", p.help)?;
            let (kind, choices, default) = match p.value {
                ParamValue::Required(_) => ("required", None, None),
                ParamValue::Optional(_) => ("optional", None, None),
                ParamValue::Choice { choices, default } => ("choice", Some(choices), Some(default)),
                ParamValue::Flag => ("switch", None, None),
            };
            pd.set_item("kind", kind)?;
            if let (Some(choices), Some(default)) = (choices, default) {
                pd.set_item("choices", choices.to_vec())?;
                pd.set_item("default", default)?;
            }
            params.append(pd)?;
        }
        d.set_item("parameters", params)?;
        list.append(d)?;
    }
    Ok(list)
}

/// A folder of tables, found by their headers as the command line finds them.
#[pyclass(name = "TableDir", module = "gamedb", frozen)]
pub struct PyTableDir {
    dir: Arc<TableDir>,
}

#[pymethods]
impl PyTableDir {
    #[new]
    fn new(path: PathBuf) -> PyTableDir {
        PyTableDir {
            dir: Arc::new(TableDir::new(path)),
        }
    }

    /// The folder.
    #[getter]
    fn path(&self) -> String {
        self.dir.path().display().to_string()
    }

    fn __repr__(&self) -> String {
        format!("<gamedb.TableDir {}>", self.dir.path().display())
    }

    /// Every `*.gtab` file of the folder and what its header says (or why it cannot be read).
    fn tables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for listed in self.dir.list() {
            let d = PyDict::new(py);
            d.set_item("path", listed.path.display().to_string())?;
            d.set_item("name", &listed.name)?;
            match &listed.holds {
                Ok(h) => {
                    d.set_item("game", &h.header.game)?;
                    d.set_item("parameters", &h.header.parameters)?;
                    d.set_item("value_kind", h.kind.name())?;
                    d.set_item("positions", h.header.entry_count)?;
                    d.set_item("known", h.spec.is_some())?;
                    d.set_item("description", h.describe())?;
                }
                Err(why) => d.set_item("error", why)?,
            }
            list.append(d)?;
        }
        Ok(list)
    }

    /// The file of the folder that holds a game's table (keyword parameters as `solve`
    /// takes them), or `None`.
    #[pyo3(signature = (game, **params))]
    fn find(&self, game: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Option<String>> {
        let (spec, kind) = spec_of(game, params)?;
        Ok(self.dir.find(&spec, kind)?.map(|p| p.display().to_string()))
    }

    /// Opens the folder's table of a game (keyword parameters as `solve` takes them).
    #[pyo3(signature = (game, verify = true, **params))]
    fn table(
        &self,
        py: Python<'_>,
        game: &str,
        verify: bool,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyTable> {
        let (spec, kind) = spec_of(game, params)?;
        let dir = &self.dir;
        match py.detach(|| dir.table(&spec, kind, verify))? {
            Some(table) => Ok(PyTable::wrap(table)),
            None => Err(UnsupportedError::new_err(format!(
                "{}: no table of {} (build it: gamedb build {} ... --out {})",
                self.dir.path().display(),
                spec.describe_table(kind),
                spec.name(),
                self.dir.path().display()
            ))),
        }
    }

    /// Opens a table file of the folder (a name in it, or a path), checked as `open` does.
    #[pyo3(signature = (name, verify = true))]
    fn open(&self, py: Python<'_>, name: PathBuf, verify: bool) -> PyResult<PyTable> {
        let path = self.dir.path().join(name);
        let dir = &self.dir;
        Ok(PyTable::wrap(py.detach(|| dir.open(&path, verify))?))
    }
}

/// The positions of one sliding-puzzle board answered from a folder of tables: by the board's
/// complete table when there is one, else by the 4×4 solver on the pattern tables.
#[pyclass(name = "Board", module = "gamedb", frozen)]
pub struct PyBoard {
    board: BoardQuery,
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (tables = PathBuf::from("tables"), rows = 4, cols = 4, verify = true))]
    fn new(py: Python<'_>, tables: PathBuf, rows: u32, cols: u32, verify: bool) -> PyResult<Self> {
        let options = Options {
            verify,
            ..Options::default()
        };
        let board =
            py.detach(|| BoardQuery::open(rows, cols, Arc::new(TableDir::new(tables)), options))?;
        Ok(PyBoard { board })
    }

    /// The answer of `gamedb query --rows R --cols C --tables DIR POSITION --json`, as a dict.
    #[pyo3(signature = (position, path = false))]
    fn query<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        path: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let text = match Position::read(position)? {
            Position::Text(text) => text,
            Position::Numbers(tiles) => format_numbers(&tiles),
        };
        let board = &self.board;
        let answer = py.detach(|| board.query(&text, path))?;
        from_json(py, &answer.to_json())
    }
}

/// Solves a position of the 15-puzzle (4×4) with the pattern tables of a folder, as
/// `gamedb query --rows 4 --cols 4 --tables DIR POSITION --json` does.
#[pyfunction]
#[pyo3(signature = (position, tables = PathBuf::from("tables"), path = false, verify = true))]
fn solve_fifteen<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    tables: PathBuf,
    path: bool,
    verify: bool,
) -> PyResult<Bound<'py, PyAny>> {
    PyBoard::new(py, tables, 4, 4, verify)?.query(py, position, path)
}

/// Adds the whole API (classes, functions, exceptions, `__version__`) to a Python module, with
/// `registry` as the games the module knows: the built-in module passes
/// [`Registry::builtin`]; a crate with games of its own passes its registry from its own
/// `#[pymodule]`. The registry is installed for the process (see [`Registry::install`]); one
/// with other games already installed is an `ImportError`.
pub fn add_to_module(m: &Bound<'_, PyModule>, registry: Registry) -> PyResult<()> {
    if let Err(refused) = registry.install() {
        if refused.names() != crate::registry().names() {
            return Err(PyImportError::new_err(format!(
                "this process already knows the games {}; a module with the games {} cannot \
                 be loaded beside it",
                crate::registry().names().join(", "),
                refused.names().join(", ")
            )));
        }
    }
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyTable>()?;
    m.add_class::<PyTableDir>()?;
    m.add_class::<PyBoard>()?;
    m.add_class::<Payload>()?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(solve_fifteen, m)?)?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("BadInputError", py.get_type::<BadInputError>())?;
    m.add("DamagedTableError", py.get_type::<DamagedTableError>())?;
    m.add("UnknownGameError", py.get_type::<UnknownGameError>())?;
    m.add("FileError", py.get_type::<FileError>())?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    m.add("OverLimitError", py.get_type::<OverLimitError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    Ok(())
}

/// The built-in module, `gamedb._gamedb` (the package `gamedb` re-exports it).
#[pymodule]
#[pyo3(name = "_gamedb")]
fn gamedb_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_to_module(m, Registry::builtin())
}
