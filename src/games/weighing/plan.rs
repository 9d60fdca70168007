//! Fixed plans.
