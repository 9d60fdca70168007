//! The buffer code of the Python package: the exporter of a table's payload to the buffer
//! protocol ([`Payload`], what `Table.values()` hands numpy without a copy), the reading of
//! many positions from a 2-D integer array or an iterable ([`Batch`], for `query_many`), and
//! the `u32` arrays handed back.

use std::ffi::{c_int, c_void};
use std::sync::Arc;

use pyo3::buffer::{Element, PyBuffer, PyUntypedBuffer};
use pyo3::exceptions::PyBufferError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyString};

use super::{bad, outcome_value, short_repr, Position};
use crate::lookup::Table;
use crate::model::ValueKind;

/// The exporter of a table's payload to the buffer protocol (what `Table.values()` hands to
/// `numpy.frombuffer`): read-only bytes over the payload, which stays mapped while an array
/// over it lives (this object holds the table, the array holds this object).
#[pyclass(name = "Payload", module = "gamedb", frozen)]
pub struct Payload {
    pub(super) table: Arc<Table>,
}

#[pymethods]
impl Payload {
    /// Fills a read-only, one-dimensional buffer of unsigned bytes over the payload.
    ///
    /// # Safety
    /// Called by Python with `view` a valid `Py_buffer` to fill (or NULL, refused).
    unsafe fn __getbuffer__(
        slf: Bound<'_, Self>,
        view: *mut ffi::Py_buffer,
        flags: c_int,
    ) -> PyResult<()> {
        if view.is_null() {
            return Err(PyBufferError::new_err("the buffer view is NULL"));
        }
        if flags & ffi::PyBUF_WRITABLE == ffi::PyBUF_WRITABLE {
            return Err(PyBufferError::new_err(
                "a table's values are read-only (the table file is mapped read-only); copy the \
                 array to change it",
            ));
        }
        let (buf, len) = {
            let bytes = slf.get().table.file().payload();
            (bytes.as_ptr(), bytes.len())
        };
        // SAFETY: `view` is non-NULL and Python hands a `Py_buffer` for us to fill. The bytes
        // are the payload of the table this object holds (a read-only map, or a vector the
        // table owns and never changes); the reference stored in `obj` keeps this object, and
        // so the table and its bytes, alive until the buffer is released. The format string
        // is static and never written through.
        unsafe {
            (*view).obj = slf.into_any().into_ptr();
            (*view).buf = buf as *mut c_void;
            (*view).len = len as isize;
            (*view).readonly = 1;
            (*view).itemsize = 1;
            (*view).format = if flags & ffi::PyBUF_FORMAT == ffi::PyBUF_FORMAT {
                c"B".as_ptr().cast_mut()
            } else {
                std::ptr::null_mut()
            };
            (*view).ndim = 1;
            (*view).shape = if flags & ffi::PyBUF_ND == ffi::PyBUF_ND {
                &mut (*view).len
            } else {
                std::ptr::null_mut()
            };
            (*view).strides = if flags & ffi::PyBUF_STRIDES == ffi::PyBUF_STRIDES {
                &mut (*view).itemsize
            } else {
                std::ptr::null_mut()
            };
            (*view).suboffsets = std::ptr::null_mut();
            (*view).internal = std::ptr::null_mut();
        }
        Ok(())
    }

    /// Nothing to free: the format string is static.
    ///
    /// # Safety
    /// Called by Python with the view filled by `__getbuffer__`.
    unsafe fn __releasebuffer__(&self, _view: *mut ffi::Py_buffer) {}

    fn __len__(&self) -> usize {
        self.table.file().payload().len()
    }
}

/// Many positions, their numbers one after another: position `k` is
/// `numbers[starts[k]..starts[k + 1]]`, unless the game's fast path from text found its
/// entry while reading it: then `entries[k]` is that entry (else [`NO_ENTRY`]; `entries` is
/// empty when no row has one).
pub(super) struct Batch {
    numbers: Vec<u32>,
    starts: Vec<usize>,
    entries: Vec<u64>,
}

/// A row of a [`Batch`] read as numbers.
const NO_ENTRY: u64 = u64::MAX;

/// An integer element type of a numpy array `query_many` reads.
fn array_numbers<T>(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    to_u32: impl Fn(T) -> Option<u32>,
) -> Option<PyResult<Vec<u32>>>
where
    T: Element + Copy + std::fmt::Display,
{
    let buffer = PyBuffer::<T>::get(obj).ok()?;
    Some(buffer.to_vec(py).and_then(|values| {
        values
            .into_iter()
            .map(|v| {
                to_u32(v).ok_or_else(|| {
                    bad(format!(
                        "{v}: a position's numbers are 0..={} (in the array given)",
                        u32::MAX
                    ))
                })
            })
            .collect()
    }))
}

impl Batch {
    fn position(&self, k: usize) -> &[u32] {
        &self.numbers[self.starts[k]..self.starts[k + 1]]
    }

    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Reads a 2-D integer array (one row a position) or an iterable of positions (text or
    /// sequences of integers); a position that cannot be read is an error of its row.
    pub(super) fn read(
        py: Python<'_>,
        table: &Table,
        positions: &Bound<'_, PyAny>,
    ) -> PyResult<Batch> {
        if let Ok(buffer) = PyUntypedBuffer::get(positions) {
            return Batch::read_array(py, positions, buffer.shape());
        }
        let mut batch = Batch {
            numbers: Vec::new(),
            starts: vec![0],
            entries: Vec::new(),
        };
        let items = positions.try_iter().map_err(|_| {
            bad(format!(
                "query_many: {} is not a 2-D integer array (one row a position) or an iterable \
                 of positions",
                short_repr(positions)
            ))
        })?;
        for (row, item) in items.enumerate() {
            let item = item?;
            // A text the game reads straight to its entry (a chess FEN): no numbers kept.
            if let Ok(text) = item.cast::<PyString>() {
                if let Some(Ok(i)) = table.text_entry_index(text.to_str()?) {
                    batch.entries.resize(row, NO_ENTRY);
                    batch.entries.push(i);
                    batch.starts.push(batch.numbers.len());
                    continue;
                }
            }
            let read = match Position::read(&item)? {
                Position::Text(text) => table.rules().parse(&text).map_err(PyErr::from),
                Position::Numbers(pos) => Ok(pos),
            };
            batch.numbers.extend(read.map_err(|e| at_row(py, e, row))?);
            batch.starts.push(batch.numbers.len());
        }
        if !batch.entries.is_empty() {
            batch.entries.resize(batch.len(), NO_ENTRY);
        }
        Ok(batch)
    }

    fn read_array(py: Python<'_>, array: &Bound<'_, PyAny>, shape: &[usize]) -> PyResult<Batch> {
        let &[rows, width] = shape else {
            return Err(bad(format!(
                "query_many: an array of {} dimensions; expected a 2-D integer array, one row a \
                 position (or an iterable of positions)",
                shape.len()
            )));
        };
        let numbers = None
            .or_else(|| array_numbers::<i64>(py, array, |v| u32::try_from(v).ok()))
            .or_else(|| array_numbers::<u64>(py, array, |v| u32::try_from(v).ok()))
            .or_else(|| array_numbers::<i32>(py, array, |v| u32::try_from(v).ok()))
            .or_else(|| array_numbers::<u32>(py, array, Some))
            .or_else(|| array_numbers::<i16>(py, array, |v| u32::try_from(v).ok()))
            .or_else(|| array_numbers::<u16>(py, array, |v| Some(v.into())))
            .or_else(|| array_numbers::<i8>(py, array, |v| u32::try_from(v).ok()))
            .or_else(|| array_numbers::<u8>(py, array, |v| Some(v.into())))
            .unwrap_or_else(|| {
                Err(bad(
                    "query_many: the array does not hold integers; expected a 2-D integer \
                     array, one row a position"
                        .into(),
                ))
            })?;
        Ok(Batch {
            numbers,
            starts: (0..=rows).map(|r| r * width).collect(),
            entries: Vec::new(),
        })
    }

    /// The value of every position (see `Table.query_many`), or the first error and its row.
    pub(super) fn values(&self, table: &Table) -> Result<Vec<u32>, (usize, crate::Error)> {
        if let Some(e) = table.not_known() {
            return Err((0, e));
        }
        let rules = table.rules();
        let checked = |k: usize| self.checked(table, k);
        if !self.entries.is_empty() {
            // Some rows were read to their entries: each row in turn.
            return (0..self.len())
                .map(|k| self.row_value(table, k).map_err(|e| (k, e)))
                .collect();
        }
        let mut out = Vec::with_capacity(self.len());
        match table.value_kind() {
            ValueKind::Outcome | ValueKind::Extension => {
                const CHUNK: usize = 4096;
                let mut outcomes = Vec::with_capacity(CHUNK);
                for start in (0..self.len()).step_by(CHUNK) {
                    let end = (start + CHUNK).min(self.len());
                    outcomes.clear();
                    let chunk = (start..end).map(|k| self.position(k));
                    if table.outcomes_of(chunk, &mut outcomes).is_err() {
                        // Find the row that failed, and its error.
                        for k in start..end {
                            table.outcome_of(self.position(k)).map_err(|e| (k, e))?;
                        }
                    }
                    out.extend(outcomes.iter().map(|&o| outcome_value(o)));
                }
            }
            ValueKind::Grundy => {
                for k in 0..self.len() {
                    let value = checked(k).and_then(|pos| {
                        Ok(match table.sum_grundy(pos)? {
                            Some(g) => g,
                            None => table.raw(rules.rank(pos)),
                        })
                    });
                    out.push(value.map_err(|e| (k, e))?);
                }
            }
            ValueKind::Distance => {
                for k in 0..self.len() {
                    let value = checked(k)
                        .and_then(|pos| table.index_of(pos))
                        .and_then(|i| table.value(i));
                    out.push(value.map_err(|e| (k, e))?);
                }
            }
            // The entry as stored: the value's code, the reachable bit and the remoteness, or
            // the two-bit wlt code (as `Table.query_many` documents it; a checked position
            // always has one).
            ValueKind::Remoteness | ValueKind::Wlt | ValueKind::Dtz => {
                for k in 0..self.len() {
                    let value = table.index_of(self.position(k)).map(|i| table.raw(i));
                    out.push(value.map_err(|e| (k, e))?);
                }
            }
        }
        Ok(out)
    }

    /// Position `k`, when the rules accept it and it is not outside the table.
    fn checked(&self, table: &Table, k: usize) -> crate::Result<&[u32]> {
        let pos = self.position(k);
        table.rules().check(pos)?;
        if let Some(why) = table.rules().outside(pos) {
            return Err(crate::Error::bad(why));
        }
        Ok(pos)
    }

    /// The value of row `k` alone, as [`values`](Batch::values) gives it.
    fn row_value(&self, table: &Table, k: usize) -> crate::Result<u32> {
        let entry = self.entries[k];
        let pos = || self.checked(table, k);
        Ok(match table.value_kind() {
            ValueKind::Outcome | ValueKind::Extension if entry != NO_ENTRY => {
                outcome_value(table.outcome(entry))
            }
            ValueKind::Outcome | ValueKind::Extension => {
                outcome_value(table.outcome_of(self.position(k))?)
            }
            ValueKind::Grundy | ValueKind::Remoteness | ValueKind::Wlt | ValueKind::Dtz
                if entry != NO_ENTRY =>
            {
                table.raw(entry)
            }
            ValueKind::Grundy => {
                let pos = pos()?;
                match table.sum_grundy(pos)? {
                    Some(g) => g,
                    None => table.raw(table.rules().rank(pos)),
                }
            }
            ValueKind::Remoteness | ValueKind::Wlt | ValueKind::Dtz => {
                table.raw(table.index_of(pos()?)?)
            }
            ValueKind::Distance if entry != NO_ENTRY => table.value(entry)?,
            ValueKind::Distance => table.value(table.index_of(pos()?)?)?,
        })
    }
}

/// An error of the position at `row` of a bulk call: the command line's message, with the row
/// in the exception's `row` attribute.
pub(super) fn at_row(py: Python<'_>, e: impl Into<PyErr>, row: usize) -> PyErr {
    let err: PyErr = e.into();
    // Setting an attribute of a fresh exception object does not fail; if it did, the error
    // itself is still the one to raise.
    let _ = err.value(py).setattr("row", row);
    err
}

/// A numpy array of `u32` values made from a vector (one copy into a bytearray numpy adopts).
pub(super) fn u32_array<'py>(py: Python<'py>, values: &[u32]) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyByteArray::new_with(py, values.len() * 4, |buf| {
        for (chunk, v) in buf.chunks_exact_mut(4).zip(values) {
            chunk.copy_from_slice(&v.to_le_bytes());
        }
        Ok(())
    })?;
    py.import("numpy")?
        .call_method1("frombuffer", (bytes, "<u4"))
}
