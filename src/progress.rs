//! How long work reports how far it got, without the library choosing how it is shown.
//!
//! Solvers and checks take a `&dyn Progress` and call [`Progress::inc`] now and then (once per
//! chunk of positions, never per position). The command line passes an `indicatif` bar;
//! library users pass `&()` for none, or their own type.

/// A sink for progress reports. Implementations must be cheap and thread-safe: solvers call
/// `inc` from their worker threads.
pub trait Progress: Sync {
    /// `n` more units (positions, cases) are done.
    fn inc(&self, n: u64);

    /// A new piece of work of `len` units starts, called `what` (a table's file name, the name
    /// of a search). By default ignored.
    fn restart(&self, _len: u64, _what: &str) {}

    /// `n` units were done before this run started (a resumed solve): counted as done, but
    /// not as done now, so that an estimate of the time left is not fooled by them. By
    /// default counted with [`Progress::inc`].
    fn skip(&self, n: u64) {
        self.inc(n)
    }

    /// The work turned out to be `len` units in all. By default ignored.
    fn set_length(&self, _len: u64) {}

    /// A line worth keeping on screen (a finished level of a long enumeration), shown above
    /// the bar. By default ignored.
    fn note(&self, _line: &str) {}
}

/// No progress shown.
impl Progress for () {
    fn inc(&self, _n: u64) {}
}

impl Progress for indicatif::ProgressBar {
    fn inc(&self, n: u64) {
        indicatif::ProgressBar::inc(self, n)
    }

    fn restart(&self, len: u64, what: &str) {
        // A new piece of work: its own position, rate, estimate and elapsed time (which the
        // plain lines of a stderr that is no terminal report).
        self.reset();
        indicatif::ProgressBar::set_length(self, len);
        self.set_message(what.to_string());
    }

    fn set_length(&self, len: u64) {
        indicatif::ProgressBar::set_length(self, len)
    }

    fn skip(&self, n: u64) {
        indicatif::ProgressBar::inc(self, n);
        // The estimator records the jump now, then forgets it: the rate is measured from here,
        // and the elapsed time too (this run's).
        self.tick();
        self.reset_eta();
        self.reset_elapsed();
    }

    fn note(&self, line: &str) {
        self.println(line)
    }
}
