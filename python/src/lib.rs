//! Orca for Python: the module `orca._orca`, which `orca/__init__.py`
//! re-exports. A front end beside the protocols and the web page over the
//! same library API: positions and their rules ([`position`]), the engine
//! and the exact solver ([`search`]), game records ([`games`]).

mod games;
mod position;
mod search;

use pyo3::prelude::*;

/// The compiled part of the `orca` package.
#[pymodule]
fn _orca(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<position::Position>()?;
    m.add_class::<search::Engine>()?;
    m.add_class::<search::SearchResult>()?;
    m.add_class::<search::Line>()?;
    m.add_class::<search::Solution>()?;
    m.add_function(wrap_pyfunction!(search::solve, m)?)?;
    m.add_class::<games::Game>()?;
    m.add_function(wrap_pyfunction!(games::parse_ggf, m)?)?;
    m.add_function(wrap_pyfunction!(games::read_ggf, m)?)?;
    m.add_function(wrap_pyfunction!(games::parse_wthor, m)?)?;
    m.add_function(wrap_pyfunction!(games::read_wthor, m)?)?;
    Ok(())
}
